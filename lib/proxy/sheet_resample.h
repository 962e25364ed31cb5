// Internal to the sheet builder: the simulation mesh of its own (docs/proxy.md#resampling). The
// welded garment is resampled to a target edge length L: short edges collapsed where the mesh is
// dense, long edges split where it is coarse or a triangle is a sliver, Delaunay flips where two
// near-coplanar triangles share a badly placed diagonal. Held vertices (their holder given per
// vertex) are never removed or moved; a border vertex only slides along its border, and a border
// corner never moves, so holes and outlines survive. Every surviving vertex keeps its position
// (the proxy stays on the source surface); a split's new vertex is its edge's midpoint.
// Deterministic: the same input gives the same mesh, whatever thread runs it.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "geom/vec.h"

namespace weft::sheet_detail {

/// The bounds resampling holds a free triangle to (docs/proxy.md#resampling), asserted by tests.
inline constexpr double kSplitAbove = 4.0 / 3.0;  ///< an edge longer than this x L is split
inline constexpr double kCollapseBelow = 0.5;     ///< an edge shorter than this x L is collapsed when it may be
inline constexpr double kSliverAspect = 3.0;      ///< a triangle longer than this x its height is split (longest
                                                  ///< edge) while that edge is longer than kCollapseBelow x L

struct ResampleMesh {
    std::vector<Vec3> position;                   ///< scene space
    std::vector<std::array<uint32_t, 3>> triangles;
    std::vector<int> holder;                      ///< per vertex, the holding node; -1 free
    std::vector<uint32_t> origin;                 ///< per vertex, the input vertex it is; UINT32_MAX for one a split made
};

/// Resamples `mesh` (consistently wound, manifold) to edge length `edge_length` metres. Triangles
/// whose three corners are held are rigid and kept as they are.
ResampleMesh resample_sheet(const ResampleMesh& mesh, double edge_length);

/// A triangle's longest edge over its height onto that edge (an equilateral triangle: 2/sqrt(3)
/// = 1.155); +inf for one with no area.
double triangle_aspect(const Vec3& a, const Vec3& b, const Vec3& c);

}  // namespace weft::sheet_detail
