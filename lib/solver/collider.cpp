#include "solver/collider.h"

#include <algorithm>

namespace weft {

namespace {

/// The normal at a point that sits exactly on the centre or the core segment: any unit vector will
/// do, and a fixed one keeps the step deterministic.
constexpr Vec3 kFallbackNormal{0, 1, 0};

SurfacePoint from_core_point(const Vec3& core, double radius, const Vec3& x) {
    Vec3 d = x - core;
    double l = length(d);
    if (!(l > 0)) return {-radius, kFallbackNormal};
    return {l - radius, d / l};
}

}  // namespace

SurfacePoint surface_point(const SphereCollider& sphere, const Vec3& x) {
    return from_core_point(sphere.centre, sphere.radius, x);
}

SurfacePoint surface_point(const CapsuleCollider& capsule, const Vec3& x) {
    Vec3 ab = capsule.b - capsule.a;
    double ll = length_squared(ab);
    double t = ll > 0 ? std::clamp(dot(x - capsule.a, ab) / ll, 0.0, 1.0) : 0.0;
    return from_core_point(capsule.a + ab * t, capsule.radius, x);
}

SpanPoint nearest_on_span(const CapsuleCollider& capsule, const Vec3& p0, const Vec3& p1) {
    // Closest points of two segments (Christer Ericson, "Real-Time Collision Detection", 2005, 5.1.9),
    // with the parallel case resolved at the core's middle rather than at an end of the span.
    const Vec3 d1 = p1 - p0, d2 = capsule.b - capsule.a, r = p0 - capsule.a;
    const double a = length_squared(d1), e = length_squared(d2), f = dot(d2, r);
    double s = 0;
    if (a > 0) {
        const double c = dot(d1, r);
        if (!(e > 0)) {
            s = std::clamp(-c / a, 0.0, 1.0);
        } else {
            const double b = dot(d1, d2), denom = a * e - b * b;
            if (denom > 1e-12 * a * e) {
                s = std::clamp((b * f - c * e) / denom, 0.0, 1.0);
                const double t = (b * s + f) / e;
                if (t < 0) s = std::clamp(-c / a, 0.0, 1.0);
                else if (t > 1) s = std::clamp((b - c) / a, 0.0, 1.0);
            } else {
                const Vec3 middle = (capsule.a + capsule.b) * 0.5;
                s = std::clamp(dot(middle - p0, d1) / a, 0.0, 1.0);
            }
        }
    }
    return {s, surface_point(capsule, p0 + d1 * s)};
}

}  // namespace weft
