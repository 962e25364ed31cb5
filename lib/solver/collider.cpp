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

}  // namespace weft
