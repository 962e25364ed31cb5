// Tails on bones nobody named (docs/garments-by-geometry.md#tails-found-by-shape): a quadruped rigged
// with `Bone.004..Bone.007` has a tail an artist sees at once, and no name says so. On a skeleton
// standing on two pairs of legs (limbs whose skin reaches the ground), a tail is an unbranched limb
// that hangs from the node a pair of legs hangs from (the hips), leaves the body at the back end and
// runs on out past the legs there, with its skin off the ground. The back end is the one the head
// does not run to: the head is the limb carrying the most skin (its skull, eyes and jaw). Such a limb becomes an authored chain of class `tail`, and is then judged as a
// named tail is: a stub, or the body (garment/tail_body.h).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "garment/chains.h"
#include "scene/scene.h"

namespace weft {

/// How a chain was found when no name found it: by the shape of the skeleton and its skin.
inline constexpr const char* kFoundByShape = "shape";

/// How close to the ground a leg's skin reaches, as a share of the skin's height: the feet of the
/// quadrupeds measured end 0.009 (the 2017 Wolf) to 0.089 (the Bull, the Cow) of it above the lowest
/// skin, the tails' skin 0.256 (the 2017 Wolf's, hanging) to 0.586 (the Stag's stub) above it. About
/// the geometric mean of 0.089 and 0.256.
inline constexpr double kLegReachesGround = 0.15;

/// How far into the body from the legs at its end a tail's root may leave it, as a share of the span
/// between the two pairs of legs: a tail leaves the hips, at or past the back legs, never mid-body.
/// The tails measured leave 0.30 past the back legs' roots (the 2017 Dog) to 0.10 inside them (the
/// Wolf, the Husky).
inline constexpr double kTailRootIntoBody = 0.25;

/// One unbranched limb of the skeleton: a joint whose parent branches (or is no joint) down to a
/// joint with no joint child, with the skin its joints carry most.
struct Limb {
    std::vector<int> joints;  ///< nodes, root to tip
    double lowest = 0;        ///< metres above the ground: its skin's lowest vertex
    double root_at = 0;       ///< metres along the body's axis (from the first pair of legs' end to the other)
    double reach_at = 0;      ///< metres along the axis: its skin's vertex farthest out past its end's legs
    double skin = 0;          ///< skinned vertices its joints carry most
    bool leg = false;         ///< its skin reaches the ground (lowest under kLegReachesGround of the height)
};

/// What the skeleton measured: its legs, its axis from one pair to the other, and the skin past each end.
struct TailShape {
    std::vector<Limb> limbs;
    int legs = 0;
    bool quadruped = false;        ///< at least two legs at each end of the axis
    Vec3 axis;                     ///< horizontal unit vector from the first pair of legs to the second
    double first_legs = 0;         ///< metres along the axis: the legs' roots nearest the first end
    double second_legs = 0;        ///< metres along the axis: the legs' roots nearest the second end
    int head = -1;                 ///< index into limbs of the limb carrying the most skin: the head's
    bool back_is_first = false;    ///< the head runs toward the second pair of legs, so the back end is the first
    int tail = -1;                 ///< index into limbs of the tail found, -1 for none
};

/// Measures the skeleton's limbs and ends (bind pose) and picks the tail, if any (see the file comment).
TailShape measure_tail_shape(const Scene& scene);

/// The tail found by shape as an authored chain (class "tail", found_by kFoundByShape, its tip the far
/// end of the skin its last joint carries), or nullopt. Only when `chains` hold no tail already and
/// the skeleton is no humanoid (garment/geometry.h): an upright body's hanging hands are no legs.
std::optional<Chain> find_tail_by_shape(const Scene& scene, const std::vector<Chain>& chains);

}  // namespace weft
