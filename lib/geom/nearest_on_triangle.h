// The point of a triangle nearest a point, with its barycentric weights: what the sheet builder measures
// pins and bindings with and what self-contact linearises at (docs/solver.md#self-contact).
#pragma once
#include <algorithm>
#include <array>

#include "geom/vec.h"

namespace weft {

/// A point of a triangle (a, b, c): where it is and its weights on a, b and c (summing to 1).
struct TrianglePoint {
    Vec3 point;
    std::array<double, 3> weights;
};

/// The point of segment ab nearest p, and its weight on b (0 for a segment with no length).
inline TrianglePoint nearest_on_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 ab = b - a;
    const double l2 = length_squared(ab);
    if (!(l2 > 0)) return {a, {1, 0, 0}};
    const double t = std::clamp(dot(p - a, ab) / l2, 0.0, 1.0);
    return {a + ab * t, {1 - t, t, 0}};
}

/// The point of triangle (a, b, c) nearest p (Christer Ericson, "Real-Time Collision Detection", 2005,
/// section 5.1.5: the Voronoi regions of the corners, then the edges, then the face). A triangle with no
/// area has no face region: its nearest side answers (the first of equals, in the order ab, bc, ca).
inline TrianglePoint nearest_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 ab = b - a, ac = c - a, ap = p - a;
    if (!(length_squared(cross(ab, ac)) > 0)) {
        TrianglePoint best = nearest_on_segment(p, a, b);
        TrianglePoint side = nearest_on_segment(p, b, c);
        if (length_squared(side.point - p) < length_squared(best.point - p))
            best = {side.point, {0, side.weights[0], side.weights[1]}};
        side = nearest_on_segment(p, c, a);
        if (length_squared(side.point - p) < length_squared(best.point - p))
            best = {side.point, {side.weights[1], 0, side.weights[0]}};
        return best;
    }
    const double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return {a, {1, 0, 0}};
    const Vec3 bp = p - b;
    const double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return {b, {0, 1, 0}};
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        const double v = d1 / (d1 - d3);
        return {a + ab * v, {1 - v, v, 0}};
    }
    const Vec3 cp = p - c;
    const double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return {c, {0, 0, 1}};
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        const double w = d2 / (d2 - d6);
        return {a + ac * w, {1 - w, 0, w}};
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return {b + (c - b) * w, {0, 1 - w, w}};
    }
    const double inverse = 1 / (va + vb + vc);
    const double v = vb * inverse, w = vc * inverse;
    return {a + ab * v + ac * w, {1 - v - w, v, w}};
}

}  // namespace weft
