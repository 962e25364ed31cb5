// Distance rows: the stretch edges (hard, an augmented Lagrangian row, or soft), the skips (soft bend
// rows from a particle to its grandparent, docs/solver.md#skip), and the strain-limit row a stretch edge may
// carry, which shares the edge's gradient. Their build, their accumulation into a vertex update, their
// energy and their dual update are all here.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "fabric/fabric.h"
#include "solver/row.h"

namespace weft {

/// One incidence of a distance row on a particle: the row and the particle at its other end.
struct LinkIncidence {
    uint32_t other;
    uint32_t link;
};

/// What the vertex update reads of a distance row besides its multipliers (RowSlots).
struct LinkRow {
    double rest = 0;           ///< metres
    double k = 0;              ///< this substep's penalty, N/m
    double strain_rest = 0;    ///< allowance·rest, metres (the strain-limit row on the same edge)
    double strain_k = 0;       ///< N/m; 0 where the edge has no strain-limit row
};

/// The rows as the sweep reads them (docs/solver.md#lanes): a copy at each of a row's two incidences,
/// its "slots", numbered by the sweep's layout (SweepBlocks: slot q·lanes + k is lane k's incidence q
/// of the sweep's incidence vectors), field by field for `lanes` slots at a time, so a vector of lanes
/// reads a field with one load. The multipliers live here only, equal at a row's two slots; the other
/// fields are copies of DistanceState::rows. Field f of slot s at at(s, f).
struct RowSlots {
    static constexpr uint32_t lanes = 8;
    static constexpr uint32_t fields = 6;
    enum Field : uint32_t { rest, k, lambda, strain_rest, strain_k, strain_lambda };
    static size_t at(size_t slot, uint32_t f) { return (slot / lanes * fields + f) * lanes + slot % lanes; }
};

/// The rows as cooked from the proxy and the fabric: stretch edges [0, edge_count), then skips.
struct DistanceModel {
    size_t edge_count = 0;
    std::vector<std::array<uint32_t, 2>> ends;
    std::vector<double> rest;             ///< metres
    std::vector<uint8_t> hard;            ///< 1 = augmented Lagrangian (stiffness ∞), 0 = pure penalty
    std::vector<double> soft_k;           ///< soft rows: N/m for a finite stretch stiffness, or a ratio
    std::vector<uint8_t> soft_ratio;      ///< 1 = soft_k is a ratio of m_eff/h² (skips), 0 = N/m
    bool strain_rows = false;             ///< every stretch edge carries a strain-limit row too
    double strain_factor = 1;             ///< allowance(stretch)
    std::vector<uint32_t> offsets;        ///< CSR over particles, each particle's rows in the proxy's order
    std::vector<LinkIncidence> incidences;
    /// The proxy's rows (edges, then skips) in its order, as indices here: the sweep lays the rows out in
    /// the order it first reads them (docs/solver.md#lanes); sums over all rows keep the proxy's order.
    std::vector<uint32_t> authored;
    /// Per incidence (as `incidences`): its slot (RowSlots); per row: the slots of its two ends; and
    /// how many slots there are, padding included. Numbered by the sweep (sweep_blocks::lay_out_rows).
    std::vector<uint32_t> slot;
    std::vector<std::array<uint32_t, 2>> row_slots;
    size_t slot_count = 0;

    size_t count() const { return ends.size(); }
};

/// What changes as the cloth moves: penalties, multipliers, and the effective masses (a release or a
/// grab changes which ends are kinematic).
struct DistanceState {
    std::vector<LinkRow> rows;            ///< the vertex update's view of each row but its multipliers
    std::vector<double> slots;            ///< RowSlots: each row at its two slots, with the multipliers
    std::vector<double> m_eff;            ///< 1/(w_i + w_j), kg; 0 when both ends are kinematic
    std::vector<double> kappa;            ///< hard rows' penalty as a ratio of m_eff/h² (the band, docs/solver.md#penalty-band)
    std::vector<double> strain_kappa;     ///< per stretch edge
};

namespace distance_rows {

DistanceModel build(const ClothProxy& proxy, const Fabric& fabric);
/// Lays the rows out again, `order[r]` (the row now at r) becoming row r; a permutation that keeps the
/// stretch edges before the skips. Each particle keeps its incidences in their order, so its update sums
/// the same rows in the same order.
void reorder(DistanceModel& model, const std::vector<uint32_t>& order);
/// Needs the model's slots.
DistanceState initial_state(const DistanceModel& model, const SolverConstants& constants);
/// The multipliers of `row` (from its first slot).
inline double lambda(const DistanceModel& model, const DistanceState& state, uint32_t row) {
    return state.slots[RowSlots::at(model.row_slots[row][0], RowSlots::lambda)];
}
inline double strain_lambda(const DistanceModel& model, const DistanceState& state, uint32_t row) {
    return state.slots[RowSlots::at(model.row_slots[row][0], RowSlots::strain_lambda)];
}
void refresh_masses(const DistanceModel& model, DistanceState& state, const std::vector<double>& inverse_mass);
void set_penalties(const DistanceModel& model, DistanceState& state, double inv_h2);
/// λ ← α·γ·λ; and κ ← clamp(γ·κ, k_min, k_max) where `penalties` (docs/solver.md#warm-start).
void warm_start(const DistanceModel& model, DistanceState& state, const SolverConstants& constants, bool penalties);
/// Fresh multipliers and penalties (a Reset teleport).
void reset(DistanceState& state, const SolverConstants& constants);
/// λ ← λ + k·C on hard rows (docs/solver.md#hard-and-soft-rows), λ ← max(k·C + λ, 0) on strain-limit rows, and the ramp.
void update_duals(const DistanceModel& model, DistanceState& state, const Vec3* x, double inv_h2,
                  const SolverConstants& constants);
/// Whether no stretch edge with a free end is longer than `ratio` × its rest length (squared lengths,
/// no root; stops at the first that is): the strain target's test (docs/solver.md#iterating-to-a-target).
bool within_strain(const DistanceModel& model, const DistanceState& state, const Vec3* x, double ratio);
/// Adds ½·k·C² of every soft row to `e`, joules (a running sum: the order of the terms is the result's).
void add_elastic_energy(const DistanceModel& model, const DistanceState& state, const Vec3* x, double& e);
/// Adds the energy of the rows at particle i, with i at `xi`, to `e` (the energy audit).
void add_local_energy(const DistanceModel& model, const DistanceState& state, uint32_t i, const Vec3& xi, const Vec3* x,
                      double& e);

/// Adds every distance row at particle i (at `xi`; the other ends at x) to `a`. A row without a
/// strain limit has strain_k = strain_lambda = 0: never active.
inline void accumulate(const DistanceModel& model, const DistanceState& state, uint32_t i, const Vec3& xi, const Vec3* x,
                       Accumulated& a) {
    const LinkRow* rows = state.rows.data();
    for (uint32_t q = model.offsets[i], end = model.offsets[i + 1]; q < end; ++q) {
        const LinkIncidence inc = model.incidences[q];
        const Vec3 d = xi - x[inc.other];
        const double l2 = length_squared(d);
        if (!(l2 > 0)) continue;  // coincident ends have no direction; the row has nothing to say
        const double inv_l = 1 / std::sqrt(l2);
        const double l = l2 * inv_l;
        const Vec3 g = d * inv_l;
        const LinkRow& r = rows[inc.link];
        const uint32_t slot = model.slot[q];
        double fc = r.k * (l - r.rest) + state.slots[RowSlots::at(slot, RowSlots::lambda)];
        double s = fc > 0 ? fc : 0.0;
        double k_along = r.k;
        const double u = r.strain_k * (l - r.strain_rest) + state.slots[RowSlots::at(slot, RowSlots::strain_lambda)];
        if (u > 0) {  // [0, ∞): only a force that shortens the edge (docs/solver.md#clamp-direction)
            fc += u;
            s += u;
            k_along += r.strain_k;
        }
        a.f -= g * fc;
        s *= inv_l;
        a.h.add_diagonal(s);
        a.h.add_outer(g, k_along - s);
    }
}

}  // namespace distance_rows
}  // namespace weft
