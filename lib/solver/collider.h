// What cloth collides with: spheres and capsules in the cloth's frame, enough to hang a garment on a
// body . Each gives a one-sided hard contact row C = φ(x) − thickness ≥ 0 with Coulomb
// friction bounded by μ·|λ_n| (docs/solver.md#contacts).
#pragma once
#include "geom/vec.h"

namespace weft {

struct SphereCollider {
    Vec3 centre;        ///< metres, in the cloth's frame
    double radius = 0;  ///< metres, >= 0
};

/// The set of points within `radius` of the segment a-b.
struct CapsuleCollider {
    Vec3 a, b;          ///< segment ends, metres, in the cloth's frame (a == b is a sphere)
    double radius = 0;  ///< metres, >= 0
};

/// Signed distance from a collider's surface and its outward unit normal at x (the normal of the
/// nearest point; an arbitrary but fixed unit axis when x sits exactly on the centre or the segment).
struct SurfacePoint {
    double distance = 0;  ///< metres; negative inside
    Vec3 normal;          ///< unit, pointing out of the collider
};

SurfacePoint surface_point(const SphereCollider& sphere, const Vec3& x);
SurfacePoint surface_point(const CapsuleCollider& capsule, const Vec3& x);

/// The point of the segment p0–p1 nearest a capsule's core segment (a sphere is a capsule with a == b),
/// as its parameter s in [0, 1] (the point is p0 + s·(p1 − p0)), and the capsule's surface point there
/// (docs/colliders.md#spans). Segments parallel to the core take the point nearest the core's middle.
struct SpanPoint {
    double s = 0;
    SurfacePoint surface;
};

SpanPoint nearest_on_span(const CapsuleCollider& capsule, const Vec3& p0, const Vec3& p1);

}  // namespace weft
