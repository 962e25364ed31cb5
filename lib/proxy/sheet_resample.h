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
/// Split above 4/3 L, collapse below 4/5 L: the thresholds of Botsch and Kobbelt ("A remeshing approach
/// to multiresolution modeling", 2004), which leave edges near L. Collapsing only below L/2 left edges
/// from L/2 up: a dense sheet kept about four times the particles L asks for.
inline constexpr double kSplitAbove = 4.0 / 3.0;  ///< an edge longer than this x L is split
inline constexpr double kCollapseBelow = 0.8;     ///< an edge shorter than this x L is collapsed when it may be
inline constexpr double kSliverAspect = 3.0;      ///< a triangle longer than this x its height is split (longest
                                                  ///< edge) while that edge is longer than kSliverSplitAbove x L
inline constexpr double kSliverSplitAbove = 0.5;
/// A collapse may leave triangles up to this aspect (or the worst it replaces). At kSliverAspect the
/// collapses of a dense grid jam half-way (fans around a kept vertex come out just past 3).
inline constexpr double kCollapseAspect = 3.5;
/// Where the collapsed vertex's fan is flat (within 20°), up to this: collapsing a vertex of a regular
/// grid of right triangles into its neighbour leaves a triangle of aspect exactly 5 (legs 1 and 2), so
/// at kCollapseAspect no collapse of such a grid is ever allowed and it stays as dense as modelled;
/// the Delaunay flips after each collapse pass turn those triangles back into good ones.
inline constexpr double kFlatCollapseAspect = 5.25;
/// `automatic` resamples a sheet whose median welded edge is shorter than this x L (a dense one).
inline constexpr double kDenseBelow = 0.5;

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
