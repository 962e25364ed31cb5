// Compressed sparse row graph: the particle-coupling graph and the fabric's edge graph.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace weft {

struct CsrGraph {
    std::vector<uint32_t> offsets;  ///< node v's neighbours are targets[offsets[v] .. offsets[v+1]); size n+1
    std::vector<uint32_t> targets;  ///< neighbour node indices, ascending within each node, no duplicates, no self loops

    size_t node_count() const { return offsets.empty() ? 0 : offsets.size() - 1; }
    std::span<const uint32_t> neighbours(uint32_t v) const {
        return {targets.data() + offsets[v], targets.data() + offsets[v + 1]};
    }
};

/// Builds the undirected graph over `node_count` nodes whose edges are the given pairs, deduplicated,
/// self loops dropped, neighbours sorted (count -> prefix sum -> fill -> sort each row).
/// Every index must be below node_count.
CsrGraph build_csr(uint32_t node_count, std::span<const std::array<uint32_t, 2>> pairs);

}  // namespace weft
