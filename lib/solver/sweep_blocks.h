// The sweep's layout: each colour cut into blocks of eight consecutive particles that one vertex update
// solves side by side (SIMD lanes, docs/solver.md#lanes: eight with AVX-512, four at a time with AVX2),
// with their distance-row incidences laid out lane by lane in the order the update reads them. Cooked
// once with the model.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/distance_rows.h"
#include "solver/hinge_rows.h"

namespace weft {

struct SweepBlocks {
    static constexpr uint32_t lanes = 8;
    static_assert(lanes == RowSlots::lanes, "a row's slot is its incidence in the sweep's layout");

    std::vector<uint32_t> colour_blocks;  ///< colour c is blocks [colour_blocks[c], colour_blocks[c+1])
    std::vector<uint32_t> first;          ///< per block: its first particle
    std::vector<uint32_t> width;          ///< per block: particles in it, 1..lanes
    std::vector<uint32_t> offsets;        ///< per block: start of its incidences, in groups of `lanes`
    /// Incidence q of lane k of block b at (offsets[b] + q)·lanes + k: the other end's index into the
    /// positions as doubles (3·particle), and the row. A lane with fewer rows is padded with its own
    /// particle (and row 0): a zero-length row, which the update skips as it skips coincident ends.
    std::vector<int32_t> other_coordinate;
    std::vector<uint32_t> row;
    /// Per incidence, as above: where the same row's fields start at its other end, RowSlots::at(the
    /// other incidence, 0) (padding: its own). An incidence is its row's slot (RowSlots): the dual
    /// update writes a row's multipliers at both.
    std::vector<int32_t> other_slot;
    /// Pairs of particles of one colour that a row couples (a distance row or a hinge stencil). A
    /// colouring lets held particles share a colour (they never move); while every such pair has a
    /// kinematic end, the particles of a colour may be solved in any order, side by side or on several
    /// threads, with the same result bit for bit. Otherwise the sweep goes one particle at a time.
    std::vector<std::array<uint32_t, 2>> same_colour_pairs;
    /// The order a sweep on one thread takes the blocks, as runs [begin, end) of one colour: a
    /// topological order of "a particle after its lower-coloured neighbours", which reads every
    /// neighbour as the colour-by-colour sweep does, so it gives that sweep's result bit for bit;
    /// the colours advance together through the particle order as a wave, so a large proxy's sweep
    /// works in a narrow band of its rows instead of passing over all of them once a colour
    /// (docs/solver.md#lanes).
    std::vector<std::array<uint32_t, 2>> wave;
    /// The wave cut for SolverConstants::threads > 1 (empty otherwise): chunks of blocks of one colour,
    /// thread p's chunks in order at part_chunks[part_offsets[p] .. part_offsets[p + 1]), and for
    /// each chunk the chunks of other threads it waits for, waits[wait_offsets[k] .. wait_offsets[k + 1]).
    std::vector<std::array<uint32_t, 2>> chunks;
    std::vector<uint32_t> part_offsets, part_chunks, wait_offsets, waits;

    size_t blocks() const { return first.size(); }
    /// Whether the particles of each colour are independent with `inverse_mass` (0 = kinematic).
    bool independent(const std::vector<double>& inverse_mass) const {
        for (const auto& p : same_colour_pairs)
            if (inverse_mass[p[0]] != 0 && inverse_mass[p[1]] != 0) return false;
        return true;
    }
};

/// The bending operator's off-diagonal entries (HingeState::bend_neighbours) laid out like the
/// distance rows, block by block and lane by lane in the order the update reads them, so the lanes
/// read four neighbours' coefficients with one load. Its coefficients change with the effective
/// masses, so it lives in the state and is laid out again whenever they are refreshed.
struct BendLanes {
    std::vector<uint32_t> offsets;          ///< per block: start of its entries, in groups of SweepBlocks::lanes
    std::vector<int32_t> count;             ///< per block and lane: its particle's entries (a lane past them is padding)
    std::vector<int32_t> other_coordinate;  ///< 3·neighbour; padding: 3·the lane's own particle
    std::vector<double> coefficient;        ///< BendNeighbour::coefficient; padding: 0
};

/// Which end updates each stretch edge's multipliers in the lanes (docs/solver.md#duals-in-the-sweep):
/// the end swept first, the free end of the lower colour, or the free end of an edge to a kinematic
/// particle. It updates them for the sweep before, as it reads the row in the next one (neither end
/// has moved since), or in the pass after the sweep. Kinematic ends change with the masses, so this
/// lives in the state beside BendLanes.
struct DualLanes {
    /// Per incidence vector (SweepBlocks::offsets' unit): bit k, lane k's row is hard (λ) and updated
    /// here; bit lanes + k, its strain-limit row. Empty: not laid out.
    std::vector<uint16_t> mask;
};

namespace sweep_blocks {

/// Throws std::invalid_argument when the proxy is too large for 32-bit lane indices. `threads`: the
/// threads the wave is cut for (SolverConstants::threads).
SweepBlocks build(const ClothProxy& proxy, DistanceModel& distance, uint32_t threads);
/// The distance rows' incidences of every block, lane by lane (SweepBlocks::other_coordinate, row,
/// other_slot) and the rows' slots (DistanceModel::slot, row_slots), laid out again after
/// distance_rows::reorder.
void lay_out_rows(SweepBlocks& blocks, DistanceModel& distance);
/// The distance rows in the order the one-thread wave first reads them, the stretch edges before the
/// skips: the order distance_rows::reorder takes, so the sweep reads the rows
/// as one stream instead of through the proxy's order (docs/solver.md#lanes).
std::vector<uint32_t> first_read_order(const SweepBlocks& blocks, const DistanceModel& distance);
/// The DualLanes of `blocks` with the kinematic particles of `inverse_mass`.
DualLanes lay_out_duals(const SweepBlocks& blocks, const ClothProxy& proxy, const DistanceModel& distance,
                        const std::vector<double>& inverse_mass);
/// The bending operator of `hinge` in the blocks of `blocks` (empty when it has none).
BendLanes lay_out_bend(const SweepBlocks& blocks, const HingeState& hinge);

}  // namespace sweep_blocks
}  // namespace weft
