// Where a line meets a triangle (Tomas Möller, Ben Trumbore, "Fast, minimum storage ray-triangle
// intersection", 1997): the one test the surface measurements, the two-sided sheet rule and the tail
// section share.
#pragma once
#include <cmath>
#include <limits>

#include "geom/vec.h"

namespace weft {

/// The s at which the line x + s·d meets triangle abc, its edges taken `edge` wide (in barycentric
/// units, so 0 is the triangle itself); NaN when it misses or d lies in the triangle's plane. A ray
/// from x keeps the hits with s > 0.
inline double line_meets_triangle(const Vec3& x, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c,
                                  double edge = 0) {
    const Vec3 e1 = b - a, e2 = c - a, p = cross(d, e2);
    const double det = dot(e1, p);
    if (!(std::fabs(det) > 1e-300)) return std::numeric_limits<double>::quiet_NaN();
    const Vec3 t = x - a;
    const double u = dot(t, p) / det;
    if (u < -edge) return std::numeric_limits<double>::quiet_NaN();
    const Vec3 q = cross(t, e1);
    const double v = dot(d, q) / det;
    if (v < -edge || u + v > 1 + edge) return std::numeric_limits<double>::quiet_NaN();
    return dot(e2, q) / det;
}

}  // namespace weft
