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

/// Per triangle, 1 for the face kept when the sheet is two-sided; empty when it is not. Two-sided: the
/// sheet has a border, every border edge joins two held vertices (closed but where it is held), and
/// the triangles facing either way along the sheet's principal normal (the axis its area-weighted
/// normals agree on most) each have at least kTwoSidedFaceShare of its area. The kept face is the
/// larger (the one facing along the axis on a tie); it must be one piece, hold a held vertex and a
/// free one, or the sheet is left as it is. Deterministic: a fixed number of power iterations from
/// the largest triangle's normal, and every sum in triangle order.
/// The principal normal goes to `principal` when the sheet is two-sided.
std::vector<uint8_t> one_face_of_two(std::span<const Vec3> position, std::span<const std::array<uint32_t, 3>> triangles,
                                     std::span<const int> holder, Vec3* principal = nullptr);

/// Moves each free vertex of the kept face alone halfway to the other face along `axis` (the nearest
/// crossing of the line through it), so the kept face becomes the slab's mid-surface: the fabric's own
/// place, from which both faces' render vertices stand off by half the thickness. The rim and the held
/// vertices, on both faces, stay; a vertex whose line meets no triangle of the other face stays.
void move_to_mid_surface(std::vector<Vec3>& position, std::span<const std::array<uint32_t, 3>> triangles,
                         std::span<const uint8_t> keep, std::span<const int> holder, const Vec3& axis);

}  // namespace weft::sheet_detail
