// An authored chain whose root joint carries body skin far from the chain
// (docs/garments-by-geometry.md#a-root-that-carries-the-body): the Quaternius Wolf and Rat weight
// haunch and back-leg skin 44-49% to `Tail1` from 45-50 cm away, so a turn of the simulated root
// swings the haunch with the tail. Such a root is left to the animation: the chain is simulated from
// the root's child, hanging from the root as from a body bone, and the skin the root carries follows
// the clip as the body's does. The tail still swings from its second joint.
#pragma once
#include <string>
#include <vector>

#include "garment/chains.h"
#include "scene/scene.h"

namespace weft {

/// Body skin's lever on a chain's root, metres, above which the root is left to the animation: the
/// driven scalp limit of validation (docs/validation.md#scalp-displacement, 150 mm), so a turn of
/// one radian (57 degrees) of a simulated root could carry body skin past it. The tails that swing
/// measured at most 0.11-0.14 m, the Wolf's and the Rat's 0.21 and 0.24 m.
inline constexpr double kMaxRootLever = 0.15;

/// The worst lever of body skin on a chain's root joint.
struct RootLever {
    double lever = 0;      ///< metres: the root's weight on the vertex times the vertex's distance from the root joint
    double weight = 0;     ///< that vertex's weight on the root
    double distance = 0;   ///< metres, that vertex from the root joint
    int mesh = -1;         ///< where: a scene mesh, -1 when the root carries no body skin
    uint32_t vertex = 0;
};

/// Over the skinned vertices with at least half their weight on body bones (no chain's joints: the
/// held end of a chain, docs/validation.md#scalp-displacement) and some on `chain`'s root joint.
RootLever measure_root_lever(const Scene& scene, const std::vector<Chain>& chains, size_t chain);

/// The chain as authored: its animated root, when it has one, put back at its head, its length with it.
Chain as_authored(const Scene& scene, const Chain& chain);

/// Leaves to the animation the root of every chain of at least three joints whose root lever is over
/// kMaxRootLever: Chain::animated_root is set to it, the chain starts at its child and hangs from it.
/// A root shared by several chains (a skirt hub) is left to the animation in each, or in none.
void leave_heavy_roots_to_animation(const Scene& scene, std::vector<Chain>& chains);

}  // namespace weft
