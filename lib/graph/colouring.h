// Greedy vertex colouring of the particle-coupling graph and its independent validator
// (docs/proxy.md#colouring). Particles of one colour share no row, so a colour's vertex updates are
// independent and can run in any order.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "graph/csr.h"

namespace weft {

struct Colouring {
    std::vector<uint32_t> colour;  ///< per node
    uint32_t colour_count = 0;
};

/// Colours nodes in index order, each taking the lowest colour no already-coloured neighbour has
/// (Box2D's first-free rule). `fixed` (may be empty) marks nodes that never block a colour for
/// others, like static bodies: a held particle is never written, so two free particles sharing it
/// are still independent. Fixed nodes are coloured too (they need a slot in the order).
Colouring colour_greedy(const CsrGraph& graph, std::span<const uint8_t> fixed = {});

/// Checks a colouring against the graph without trusting how it was made: every edge whose ends
/// are both free joins two different colours, and every colour is below colour_count.
/// Returns the index of the first offending node, or -1 when valid.
int64_t validate_colouring(const CsrGraph& graph, std::span<const uint32_t> colour, uint32_t colour_count,
                           std::span<const uint8_t> fixed = {});

}  // namespace weft
