// Colouring a proxy's particles and permuting them into colour ranges (docs/proxy.md#colouring):
// particles of one colour share no row, so a colour's vertex updates are independent; after the
// permutation each colour is one contiguous range the solver sweeps with a pointer pair.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/csr.h"
#include "proxy/core/cloth_proxy.h"

namespace weft {

/// The deduplicated particle-coupling graph: every edge and skip, and each hinge's wing diagonal
/// (x2, x3). The hinge's other pairs and every triangle's sides are edges already when rows come
/// from an edge table, as both builders make them; check_proxy tests every pair of every row
/// regardless, so a proxy built otherwise cannot slip through.
CsrGraph coupling_graph(const ClothProxy& proxy);

struct ColourResult {
    std::vector<uint32_t> new_of_old;  ///< the permutation applied: old particle index -> new; empty on failure
    uint32_t colours = 0;
    uint32_t largest = 0;              ///< particles in the largest colour range
    uint32_t smallest = 0;             ///< particles in the smallest
    std::string error;                 ///< "" on success; else the validator's finding (a bug, never the input)
};

/// Colours the coupling graph greedily (held particles, inverse mass 0, never block a colour and
/// take colour 0), checks the colouring with validate_colouring, then permutes the proxy in place:
/// particles sorted by (colour, old index); every row, pin, nearest_held, vertex_particle and
/// colour range remapped; pins re-sorted ascending. On a failed check the proxy is left untouched.
ColourResult colour_and_permute(ClothProxy& proxy);

/// Applies an old -> new particle permutation to every per-particle array and every index into
/// particles (rows, pins, nearest_held, vertex_particle). `new_of_old` must be a permutation of
/// 0..particle_count-1. colour_ranges is left alone: it belongs to the order, not the particles.
void permute_particles(ClothProxy& proxy, const std::vector<uint32_t>& new_of_old);

}  // namespace weft
