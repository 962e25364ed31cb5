#include "body/body_shapes.h"

#include <algorithm>
#include <cmath>

namespace weft {

BodyShapes body_in_frame(const BodyShapes& body, const ClothProxy& proxy) {
    const Mat4 to_frame = proxy.frame.rest_world.inverted();
    BodyShapes out;
    out.collide = body.collide;
    out.sphere_bones = body.sphere_bones;
    out.capsule_bones = body.capsule_bones;
    for (const SphereCollider& s : body.spheres) out.spheres.push_back({to_frame.transform_point(s.centre), s.radius});
    for (const CapsuleCollider& c : body.capsules)
        out.capsules.push_back({to_frame.transform_point(c.a), to_frame.transform_point(c.b), c.radius});
    return out;
}

BodyShapes body_clear_of_rest(const BodyShapes& rest, const ClothProxy& proxy, double thickness, size_t* left_out) {
    auto clear = [&](const auto& shape) {
        for (size_t i = 0; i < proxy.particle_count(); ++i)
            if (!proxy.held(static_cast<uint32_t>(i)) && surface_point(shape, proxy.rest_position[i]).distance < thickness)
                return false;
        return true;
    };
    BodyShapes out;
    out.collide = rest.collide;
    for (size_t i = 0; i < rest.spheres.size(); ++i)
        if (clear(rest.spheres[i])) {
            out.spheres.push_back(rest.spheres[i]);
            if (i < rest.sphere_bones.size()) out.sphere_bones.push_back(rest.sphere_bones[i]);
        }
    for (size_t i = 0; i < rest.capsules.size(); ++i)
        if (clear(rest.capsules[i])) {
            out.capsules.push_back(rest.capsules[i]);
            if (i < rest.capsule_bones.size()) out.capsule_bones.push_back(rest.capsule_bones[i]);
        }
    if (left_out) *left_out = rest.spheres.size() + rest.capsules.size() - out.spheres.size() - out.capsules.size();
    return out;
}

void fit_collision_radius(ClothProxy& proxy, const BodyShapes& rest, double thickness) {
    for (size_t i = 0; i < proxy.collision_radius.size() && i < proxy.particle_count(); ++i) {
        if (proxy.held(static_cast<uint32_t>(i))) continue;
        double& r = proxy.collision_radius[i];
        const Vec3& x = proxy.rest_position[i];
        for (const SphereCollider& s : rest.spheres) r = std::min(r, surface_point(s, x).distance - thickness);
        for (const CapsuleCollider& c : rest.capsules) r = std::min(r, surface_point(c, x).distance - thickness);
        r = std::max(r, 0.0);
    }
}

std::optional<ClothProxy> collision_radius_fitted(const ClothProxy& proxy, const BodyShapes& rest, double thickness) {
    ClothProxy probe;  // the radii and what fitting reads, to see whether any would shrink
    probe.rest_position = proxy.rest_position;
    probe.inverse_mass = proxy.inverse_mass;
    probe.collision_radius = proxy.collision_radius;
    fit_collision_radius(probe, rest, thickness);
    if (probe.collision_radius == proxy.collision_radius) return std::nullopt;
    ClothProxy fitted = proxy;
    fitted.collision_radius = std::move(probe.collision_radius);
    return fitted;
}

void place_body(const BodyShapes& rest, const Pose& holders, StepInput& in) {
    in.spheres.resize(rest.spheres.size());
    in.capsules.resize(rest.capsules.size());
    for (size_t i = 0; i < rest.spheres.size(); ++i)
        in.spheres[i] = {holders.apply(rest.spheres[i].centre), rest.spheres[i].radius};
    for (size_t i = 0; i < rest.capsules.size(); ++i)
        in.capsules[i] = {holders.apply(rest.capsules[i].a), holders.apply(rest.capsules[i].b), rest.capsules[i].radius};
}

bool same_colliders(const StepInput& a, const StepInput& b) {
    if (a.spheres.size() != b.spheres.size() || a.capsules.size() != b.capsules.size()) return false;
    for (size_t q = 0; q < a.spheres.size(); ++q)
        if (!(a.spheres[q].centre == b.spheres[q].centre) || a.spheres[q].radius != b.spheres[q].radius) return false;
    for (size_t q = 0; q < a.capsules.size(); ++q)
        if (!(a.capsules[q].a == b.capsules[q].a) || !(a.capsules[q].b == b.capsules[q].b) ||
            a.capsules[q].radius != b.capsules[q].radius)
            return false;
    return true;
}

namespace {

// A position is measured against a collider only where it may be inside: its squared distance from the
// core within (1 + 1e-9)² of the squared radius. The margin is far wider than the rounding of either
// square, so a position passed over is one surface_point puts at a distance >= 0, which never deepens
// anything: the depths are surface_point's, bit for bit, at a few operations a collider instead of a
// square root, a division and a call.
constexpr double kReach = 1 + 1e-9;

/// The squared distance from x to the capsule's core, computed as surface_point computes it.
inline double core_distance2(const CapsuleCollider& c, const Vec3& x) {
    const Vec3 ab = c.b - c.a;
    const double ll = length_squared(ab);
    const double t = ll > 0 ? std::clamp(dot(x - c.a, ab) / ll, 0.0, 1.0) : 0.0;
    return length_squared(x - (c.a + ab * t));
}

/// The lesser of d and v, as std::fmin takes it (a NaN v leaves d), without the library call.
inline double least(double d, double v) { return v < d ? v : d; }

}  // namespace

Depth deepest_inside(const StepInput& in, std::span<const Vec3> positions, std::span<const double> inverse_mass) {
    Depth out;
    for (size_t i = 0; i < positions.size(); ++i) {
        if (!inverse_mass.empty() && !(inverse_mass[i] > 0)) continue;
        const Vec3& x = positions[i];
        double d = 0;
        for (const SphereCollider& s : in.spheres)
            if (length_squared(x - s.centre) <= s.radius * kReach * s.radius * kReach) d = least(d, surface_point(s, x).distance);
        for (const CapsuleCollider& c : in.capsules)
            if (core_distance2(c, x) <= c.radius * kReach * c.radius * kReach) d = least(d, surface_point(c, x).distance);
        if (-d > out.depth) {
            out.depth = -d;
            out.index = static_cast<uint32_t>(i);
        }
    }
    return out;
}

bool may_be_deeper(const StepInput& in, const Vec3& x, double depth) {
    // Inside by more than `depth` is nearer the core than radius − depth; a nanometre (and a billionth of
    // the radius) more is far beyond the rounding of the depth, the square and the caller's subtractions.
    const auto within = [&](double distance2, double radius) {
        const double reach = radius - depth + 1e-9 * (1 + radius);
        return reach > 0 && distance2 <= reach * reach;
    };
    for (const SphereCollider& s : in.spheres)
        if (within(length_squared(x - s.centre), s.radius)) return true;
    for (const CapsuleCollider& c : in.capsules)
        if (within(core_distance2(c, x), c.radius)) return true;
    return false;
}

}  // namespace weft
