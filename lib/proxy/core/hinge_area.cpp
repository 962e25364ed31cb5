#include "proxy/core/hinge_area.h"

#include <algorithm>

namespace weft {

double hinge_area(const std::array<uint32_t, 4>& q, std::span<const Vec3> x) {
    const Vec3 e = x[q[1]] - x[q[0]];
    return 0.5 * (length(cross(e, x[q[2]] - x[q[0]])) + length(cross(e, x[q[3]] - x[q[0]])));
}

namespace {

double area_scaled_ratio(double bend, double area, double reference) {
    if (!(reference > 0 && area > 0)) return bend;
    const double s = reference / area;
    return bend * s * s;
}

}  // namespace

double hinge_bend_ratio(double bend, double area, double reference) {
    // A fabric whose own bend is above the ceiling keeps it at its reference size (its own choice);
    // only the scaling is capped.
    return std::min(area_scaled_ratio(bend, area, reference), std::max(bend, kHingeRatioCeiling));
}

bool hinge_bend_capped(double bend, double area, double reference) {
    return area_scaled_ratio(bend, area, reference) > std::max(bend, kHingeRatioCeiling);
}

}  // namespace weft
