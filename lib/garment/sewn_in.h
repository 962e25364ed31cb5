// A name match sewn into the body all round (docs/garments-by-geometry.md#sewn-in): a tie painted on
// a shirt front, a neckerchief knotted at the throat. Its every open edge is an edge of the body
// around it, and none of it lies far from that seam, so nothing of it can hang.
#pragma once
#include <string>

#include "garment/garments.h"
#include "scene/scene.h"

namespace weft {

/// The least distance a garment sewn in all round must reach from its seam, as a share of its span:
/// the cloth measured 0.33 (Quaternius' BoatWSail sail, held all round by its yards and mast) to 0.91;
/// the painted tie 0.17 and the neckerchief 0.17.
inline constexpr double kSewnInReach = 0.25;

/// What sewn_in measured: whether every vertex of the garment's open boundary is a vertex of
/// another mesh (the seam), and how far from the seam its farthest point lies.
struct SewnIn {
    bool all_round = false;  ///< it has an open boundary and all of it is seam
    double reach = 0;        ///< metres: the farthest distance of a vertex from the seam
};

SewnIn measure_sewn_in(const Scene& scene, const Garment& g);

/// Why a name match is sewn in and not a garment, or "" when some of it can hang.
std::string sewn_in_reason(const SewnIn& sewn, double span);

}  // namespace weft
