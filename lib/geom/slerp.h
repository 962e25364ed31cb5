// Spherical linear interpolation of unit quaternions (Shoemake, "Animating rotation with quaternion
// curves", 1985): the constant-speed turn between two orientations, along the shorter arc.
#pragma once
#include <algorithm>
#include <cmath>

#include "geom/vec.h"

namespace weft {

/// `a` at u = 0, `b` at u = 1, unit length between.
inline Quat slerp(Quat a, Quat b, double u) {
    double c = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (c < 0) {  // q and -q are one rotation: take the shorter arc
        b = {-b.x, -b.y, -b.z, -b.w};
        c = -c;
    }
    double wa = 1 - u, wb = u;
    if (c < 1 - 1e-9) {  // nearly equal: the chord is the arc
        const double angle = std::acos(std::min(c, 1.0));
        const double s = std::sin(angle);
        wa = std::sin((1 - u) * angle) / s;
        wb = std::sin(u * angle) / s;
    }
    const Quat q{wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w};
    const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return {q.x / n, q.y / n, q.z / n, q.w / n};
}

}  // namespace weft
