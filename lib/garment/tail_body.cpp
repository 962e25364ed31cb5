#include "garment/tail_body.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "geom/line_triangle.h"
#include "scene/bind_pose.h"
#include "scene/influences.h"

namespace weft {

namespace {

constexpr int kRays = 64;

/// Distance along the unit direction `d` from `o` to the first triangle of the skinned meshes it
/// meets (either side facing), or infinity.
double first_hit(const Scene& scene, const Vec3& o, const Vec3& d) {
    double best = INFINITY;
    for (const Mesh& mesh : scene.meshes) {
        if (!is_skinned(mesh)) continue;
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            const double hit = line_meets_triangle(o, d, mesh.positions[mesh.indices[t]], mesh.positions[mesh.indices[t + 1]],
                                                   mesh.positions[mesh.indices[t + 2]]);
            if (hit > 0 && hit < best) best = hit;
        }
    }
    return best;
}

/// The point at `share` of the chain's length along its joints, and the unit direction of the
/// link it lies on.
bool point_along(const Scene& scene, const Chain& chain, double share, Vec3& at, Vec3& along) {
    const double wanted = share * chain.length;
    double walked = 0;
    for (size_t i = 1; i < chain.joints.size(); ++i) {
        const Vec3 a = bind_world(scene, chain.joints[i - 1]).translation_part();
        const Vec3 b = bind_world(scene, chain.joints[i]).translation_part();
        const double link = distance(a, b);
        if (!(link > 0)) continue;
        if (walked + link >= wanted || i + 1 == chain.joints.size()) {
            along = (b - a) * (1 / link);
            at = a + along * std::clamp(wanted - walked, 0.0, link);
            return true;
        }
        walked += link;
    }
    return false;
}

}  // namespace

std::optional<TailSection> measure_tail_section(const Scene& scene, const Chain& chain) {
    Vec3 at, along;
    if (!(chain.length > 0) || !point_along(scene, chain, kTailSectionAt, at, along)) return std::nullopt;
    const Vec3 other = std::fabs(along.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    const Vec3 u = normalize(cross(along, other)), w = cross(along, u);
    std::vector<double> reach;
    for (int k = 0; k < kRays; ++k) {
        const double turn = 2 * M_PI * k / kRays;
        const double hit = first_hit(scene, at, u * std::cos(turn) + w * std::sin(turn));
        if (std::isfinite(hit)) reach.push_back(hit);
    }
    if (reach.size() * 2 < static_cast<size_t>(kRays)) return std::nullopt;
    std::nth_element(reach.begin(), reach.begin() + static_cast<std::ptrdiff_t>(reach.size() / 2), reach.end());
    return TailSection{2 * reach[reach.size() / 2], chain.length};
}

std::string tail_is_body_reason(const Scene& scene, const Chain& chain) {
    const std::optional<TailSection> section = measure_tail_section(scene, chain);
    if (!section || section->share() <= kTailIsBody) return "";
    char text[256];
    std::snprintf(text, sizeof text,
                  "the body, not a tail that swings: a quarter of the way down its chain it is %.0f mm wide, %.2f of "
                  "its %.0f mm length (a tail that swings is at most 1/5; docs/garments-by-geometry.md#tails-that-are-the-body)",
                  section->width * 1000, section->share(), section->chain_length * 1000);
    return text;
}

}  // namespace weft
