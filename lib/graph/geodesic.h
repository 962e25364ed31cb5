// Geodesic distance along the fabric to the nearest held particle (docs/proxy.md#geodesic-distance): one
// multi-source Dijkstra over the fabric's edges, every held particle a source, in double.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace weft {

struct GeodesicResult {
    std::vector<double> distance;   ///< per node; +inf where no source reaches
    std::vector<uint32_t> nearest;  ///< per node, the source it is nearest to; UINT32_MAX where none
};

/// Distances over an undirected weighted edge list (`edges[i]` has length `lengths[i]` >= 0) from
/// every node in `sources` at once. Ties between sources go to the lower source index, so the
/// result never depends on edge order.
GeodesicResult geodesic_distance(uint32_t node_count, std::span<const std::array<uint32_t, 2>> edges,
                                 std::span<const double> lengths, std::span<const uint32_t> sources);

}  // namespace weft
