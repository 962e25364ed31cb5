// The body in validation (docs/validation.md#penetration): the character's colliders as plain shapes,
// riding with what holds the cloth, and how deep a particle sinks into them. The solver gets them
// as it gets any collider (StepInput's spheres and capsules); nothing here knows the scene.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/collider.h"
#include "solver/step.h"

namespace weft {

/// Body colliders in model space at the bind pose (metres, Y up), as the pipeline fitted them.
struct BodyShapes {
    std::vector<SphereCollider> spheres;
    std::vector<CapsuleCollider> capsules;
    std::vector<std::string> sphere_bones;   ///< per sphere, the node it rides (a clip moves it with that node); may be empty
    std::vector<std::string> capsule_bones;  ///< per capsule, likewise
    bool collide = true;  ///< false: the solver does not see them, penetration is only measured (how deep the
                          ///< cloth would go without a body)

    bool empty() const { return spheres.empty() && capsules.empty(); }
};

/// `body` carried into the proxy's frame at rest (its frame's rest_world is rigid).
BodyShapes body_in_frame(const BodyShapes& body, const ClothProxy& proxy);

/// `rest_in_frame` less every collider some free particle of `proxy` rests closer than `thickness`
/// to (or inside): the garment is authored over the body, so such a collider is not what the cloth
/// rests on (a declared collider meant for other springs, a fit that overshoots the skin), and
/// keeping it would push the cloth off its own rest pose. `left_out` receives how many went.
BodyShapes body_clear_of_rest(const BodyShapes& rest_in_frame, const ClothProxy& proxy, double thickness,
                              size_t* left_out = nullptr);

/// `proxy`'s collision radii (ClothProxy::collision_radius) cut to what the body leaves at rest: no free
/// particle's radius reaches past its rest clearance from a collider of `rest_in_frame` (the body
/// clear of the rest pose, body_clear_of_rest) less `thickness`, so the rest pose stays where contact
/// holds it (docs/proxy.md#collision-radius). The same rule as a spring bone's hitRadius.
void fit_collision_radius(ClothProxy& proxy, const BodyShapes& rest_in_frame, double thickness);

/// `proxy` with its collision radii fitted as above when some must shrink (a fabric thicker than the one
/// it was written for, a body it was not fitted to); none when they already fit.
std::optional<ClothProxy> collision_radius_fitted(const ClothProxy& proxy, const BodyShapes& rest_in_frame, double thickness);

/// The colliders of one step: the body at rest in the frame moved by `holders` (the body is what
/// holds the cloth, so it moves with the holders), into `in`'s spheres and capsules.
void place_body(const BodyShapes& rest_in_frame, const Pose& holders, StepInput& in);

/// Whether `a` and `b` place the same colliders, bit for bit (a still step's test, docs/validation.md#still-steps).
bool same_colliders(const StepInput& a, const StepInput& b);

/// The deepest point inside any collider of `in` among `positions` where `mask` (empty: all) is
/// set: depth in metres (0 when none is inside) and which.
struct Depth {
    double depth = 0;
    uint32_t index = no_particle;
};
Depth deepest_inside(const StepInput& in, std::span<const Vec3> positions, std::span<const double> inverse_mass = {});

/// Whether `x` may be more than `depth` metres inside some collider of `in`: false only where
/// deepest_inside certainly finds it no deeper than that (with a nanometre to spare), so a caller
/// looking for what goes past a depth measures exactly only the positions that may.
bool may_be_deeper(const StepInput& in, const Vec3& x, double depth);

}  // namespace weft
