// Triangle-mesh topology over welded vertex indices: the unique edges and the triangles on each,
// which says boundary (one triangle), interior (two) or non-manifold (three or more); whether
// neighbours are wound consistently; and the islands (pieces) the triangles form. What the sheet
// builder checks before it trusts a garment (docs/proxy.md#authoring-checks), and what lib/garment reads
// for clumps. Flat functions over index spans, each linear in the triangle count (counting sorts,
// no comparison sort), each result deterministic in the triangle order.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace weft {

inline constexpr uint32_t no_edge = std::numeric_limits<uint32_t>::max();

struct EdgeTable {
    std::vector<std::array<uint32_t, 2>> edges;  ///< unique undirected edges, a < b, ascending by (a, b)
    std::vector<uint32_t> face_offsets;          ///< edge e's triangles are edge_faces[face_offsets[e] .. face_offsets[e+1]); size edges+1
    std::vector<uint32_t> edge_faces;            ///< triangle indices, ascending within an edge, each triangle once per edge
    std::vector<std::array<uint32_t, 3>> triangle_edges;  ///< per triangle, the edge of sides (v0,v1), (v1,v2), (v2,v0); no_edge where both ends are one vertex

    size_t edge_count() const { return edges.size(); }
    /// How many distinct triangles use edge e: 1 boundary, 2 interior, 3 or more non-manifold.
    uint32_t face_count(uint32_t e) const { return face_offsets[e + 1] - face_offsets[e]; }
    std::span<const uint32_t> faces(uint32_t e) const {
        return {edge_faces.data() + face_offsets[e], edge_faces.data() + face_offsets[e + 1]};
    }
};

/// Builds the edge table of `indices` (three per triangle, each < vertex_count). A triangle with a
/// repeated vertex contributes only its sides between distinct vertices, and is listed once on an
/// edge it covers twice. Cost O(triangles + vertices).
EdgeTable build_edge_table(std::span<const uint32_t> indices, uint32_t vertex_count);

struct EdgeCounts {
    uint32_t boundary = 0;      ///< edges on exactly one triangle
    uint32_t interior = 0;      ///< edges on exactly two
    uint32_t non_manifold = 0;  ///< edges on three or more
};
EdgeCounts count_edges(const EdgeTable& table);

struct Orientation {
    std::vector<uint8_t> flip;              ///< per triangle: 1 if reversing it makes its island consistently wound (fewest flips); 0 on a one-sided island
    std::vector<uint32_t> inconsistent;     ///< interior edges whose two triangles run along it the same way, ascending
    std::vector<uint32_t> island;           ///< per triangle, its island through interior (two-triangle) edges, numbered by lowest triangle
    std::vector<uint8_t> island_orientable; ///< per island: 0 when no set of flips winds it consistently (a Möbius strip)
};

/// Checks winding across every interior edge: neighbours wound consistently traverse their shared
/// edge in opposite directions. Walks each island breadth-first from its lowest triangle, giving
/// each triangle the orientation its neighbour implies; a contradiction means the island is
/// one-sided. Non-manifold edges are not crossed (they have no consistent answer); a triangle with
/// a repeated vertex has no winding and is its own island. `indices` as for build_edge_table.
Orientation orient_triangles(std::span<const uint32_t> indices, const EdgeTable& table);

struct Islands {
    std::vector<uint32_t> island;  ///< per triangle; islands numbered by their lowest triangle
    uint32_t count = 0;
};

/// Groups triangles that share an edge (any edge, non-manifold ones included) into islands.
Islands find_islands(const EdgeTable& table);

}  // namespace weft
