// Internal to the sheet builder: a garment modelled two-sided (docs/proxy.md#two-sided-sheets). A
// flag or banner modelled as a thin closed slab (a front and a back face meeting at its outline, open
// only where it is held) is one layer of fabric drawn with a thickness. Simulated as modelled, its two
// faces are two layers joined only at the rim, with nothing to keep them apart, and a kick drives one
// through the other. The simulation mesh is one face; the other face's render vertices are bound to it
// with their offset along its normal (docs/proxy.md#binding).
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "geom/vec.h"

namespace weft::sheet_detail {

/// The share of the sheet's area each face must have for a closed sheet to count as two-sided: a
/// slab's faces are about half each; a closed solid that is not thin (a ball) has no face that large
/// on either side of one axis.
inline constexpr double kTwoSidedFaceShare = 0.4;

/// A triangle standing within this cosine of square to the principal normal (75.5 degrees or more
/// from it), across which the slab is thicker than kWallThicknesses times its faces' median
/// thickness, is a **wall**: the strip a slab modelled with thickness has round its outline, joining
/// its faces. It belongs to neither face, so the kept face is the face alone. The steepest face
/// triangles of the Goal_Flag stand at cosine 0.48 (its rim), Quaternius' Banner's walls at 0.00
/// (3.5 cm wide, 9 cm or more across the sheet); a market stand's roof stands at 0.01 to 0.2 from its
/// valance's normal and is a face (9 mm thick, as the valance).
inline constexpr double kWallAxisCosine = 0.25;
inline constexpr double kWallThicknesses = 2.0;
/// A steep triangle whose normal is within this cosine (10 degrees) of a wall it shares an edge with
/// is that wall running on: near a tip the line across from its centre meets the opposite wall within
/// the thickness (two of the Banner's eight wall triangles).
inline constexpr double kWallPlaneCosine = 0.985;

/// How far the other face may stand off the kept one, in median edges: a slab is two layers of one
/// cloth where its faces' median thickness is at most this, and each vertex of its other face lies
/// over the kept face within it (the Goal_Flag's faces 0.39 median edges apart at most, Quaternius'
/// Banner 0.13, a market stand's awning 0.13, the slab sails and awnings of the corpus 0.19).
/// Farther, the two sides are a tube's (a flag's sleeve round its pole: 0.7 to 1.7 median edges on
/// Quaternius' platformer Flag, its median 0.85) or a solid's (Kenney's finial on a flag pole, 0.97),
/// and one face would bind the far side's render vertices across it.
inline constexpr double kThinBelow = 0.5;

/// Per triangle, 1 for the face kept when the sheet is two-sided; empty when it is not. Two-sided:
/// every border edge joins two held vertices (closed but where it is held, or closed all round), and
/// the triangles facing either way along the sheet's principal normal (the axis its area-weighted
/// normals agree on most; walls facing neither way) each have at least kTwoSidedFaceShare of its
/// area, and the faces' median thickness is at most kThinBelow median edges. The kept face is the
/// larger (the one facing along the axis on a tie), without the walls; it
/// must be one piece, hold a held vertex and a free one, and every free vertex it does not use must
/// lie over it along the axis within kThinBelow median edges, or the sheet is left as it is.
/// Deterministic: a fixed number of power iterations from the largest triangle's normal, and every
/// sum in triangle order.
/// The principal normal goes to `principal` when the sheet is two-sided.
std::vector<uint8_t> one_face_of_two(std::span<const Vec3> position, std::span<const std::array<uint32_t, 3>> triangles,
                                     std::span<const int> holder, Vec3* principal = nullptr);

/// Moves each free vertex of the kept face alone halfway to the other face along `axis` (the nearest
/// crossing of the line through it), so the kept face becomes the slab's mid-surface: the fabric's own
/// place, from which both faces' render vertices stand off by half the thickness. The rim and the held
/// vertices, on both faces, stay; a vertex whose line meets no triangle of the other face stays. A
/// vertex the kept face shares only with walls is no rim: it moves.
void move_to_mid_surface(std::vector<Vec3>& position, std::span<const std::array<uint32_t, 3>> triangles,
                         std::span<const uint8_t> keep, std::span<const int> holder, const Vec3& axis);

}  // namespace weft::sheet_detail
