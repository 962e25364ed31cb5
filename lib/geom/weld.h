// Welding a triangle soup by position (docs/proxy.md#weld; a builder that took a mesh already one joint
// per welded vertex would need none). Vertices split at
// UV and normal seams, or repeated across primitives of one garment, become one welded vertex, so
// the fabric is one piece where the artist drew one piece.
//
// How: two passes. meshoptimizer's meshopt_generateVertexRemap merges byte-identical positions (the
// seams, the common case; it hashes exact bytes, so it cannot take a tolerance). The distinct
// positions left then go through a spatial hash with cells 16 tolerances wide, each point probing
// its own cell and, within one tolerance of a face, the cell across it. Quantising alone (snap to
// a grid, then remap the snapped bytes) is not enough: two points a hair apart that straddle a cell
// boundary would never weld, however small the tolerance.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "geom/vec.h"

namespace weft {

struct WeldResult {
    std::vector<uint32_t> remap;  ///< per input vertex, its welded vertex (< unique_count())
    std::vector<uint32_t> first;  ///< per welded vertex, the lowest input vertex welded into it; its position is the welded vertex's
    double tolerance = 0;         ///< metres actually used; 0 = byte-identical positions only
    uint32_t exact_unique = 0;    ///< distinct positions after the exact pass, before the tolerance pass

    size_t unique_count() const { return first.size(); }
};

/// The default weld tolerance: `relative` times the diagonal of the bounding box of the finite
/// positions (0 when there are none). 1e-5 of the garment's size welds float rounding from export
/// (about 1e-7 relative) with margin and stays well below any edge an artist meant.
double weld_tolerance_for(std::span<const Vec3> positions, double relative = 1e-5);

/// Welds `positions` (any count; no index buffer: unreferenced vertices weld too, the caller
/// decides what they mean). Vertices are visited in index order; each joins the lowest-numbered
/// welded vertex whose position (that of its first input vertex) is within `tolerance`, else starts
/// a new one. So every input vertex lies within `tolerance` of its welded vertex, welded vertices
/// are numbered by first appearance, and the result never depends on hash layout. A chain of points
/// each within tolerance of the next is not merged end to end: a weld is a distance to a
/// representative, never a transitive closure.
/// Non-finite positions never weld by tolerance (only byte-identical copies merge).
/// `tolerance` < 0 or non-finite is treated as 0.
WeldResult weld_positions(std::span<const Vec3> positions, double tolerance);

}  // namespace weft
