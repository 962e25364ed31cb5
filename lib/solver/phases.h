// The solver's internals, shared by its .cpp files and nothing else: the state's bookkeeping (masses,
// which rows hang from what, the animated pose, a reset) and the vertex solve. Not part of the public API.
#pragma once
#include <cstdint>

#include "solver/model.h"
#include "solver/state.h"

namespace weft {

// solver.cpp
/// The model's rest state: every particle at rest, the holds not yet captured.
SolverState initial_state(const SolverModel& model);
/// Effective masses and the free/kinematic lists after the set of kinematic particles changed.
void refresh_masses(const SolverModel& model, SolverState& state);
/// Tether, slack and pose rows for every free particle whose nearest held particle is held now.
void attach_rows(const SolverModel& model, SolverState& state);
/// A new epoch in `state.turned` for every pin whose turn changed in some bit since it was last set.
void turn_pins(SolverState& state);
/// The turn of a pin's holder since its hold began.
Quat pin_turn(const SolverState& state, uint32_t pin);
/// s_i = x_p + R_p·(r_i − r_p): the rest pose hung from the nearest held particle and turned with its
/// holder (docs/solver.md#animated-pose); a particle nothing holds keeps its rest position.
/// `turned`, when given (the state's own, set by turn_pins), keeps the turned offsets from one pass to the next.
/// Inline: every substep re-centres each slack and pose row on it.
inline Vec3 animated_position(const SolverModel& m, const SolverState& s, uint32_t i, TurnedOffsets* turned = nullptr) {
    const ClothProxy& p = *m.proxy;
    if (s.cloth.inverse_mass[i] == 0) return s.target[i];
    uint32_t c = p.nearest_held[i];
    if (c == no_particle || s.cloth.inverse_mass[c] != 0) return p.rest_position[i];
    Quat r;
    const uint32_t pin = m.held_pin[c];
    if (pin != no_pin) {
        if (!s.pin_holding[pin]) return p.rest_position[i];
        if (turned) {  // the same rotate of the same turn as below, done once an epoch
            if (turned->offset_epoch[i] != turned->epoch[pin]) {
                turned->offset[i] = turned->turn[pin].rotate(p.rest_position[i] - p.rest_position[c]);
                turned->offset_epoch[i] = turned->epoch[pin];
            }
            return s.cloth.x[c] + turned->offset[i];
        }
        r = pin_turn(s, pin);
    }
    return s.cloth.x[c] + r.rotate(p.rest_position[i] - p.rest_position[c]);
}

/// Reset: held particles on their targets, everything else on the animated pose, at rest, with
/// fresh multipliers (docs/solver.md#teleport).
void reseed(const SolverModel& model, SolverState& state);

// sweep.cpp: the vertex solve
/// One Gauss-Seidel sweep over every colour (docs/solver.md#lanes): on one thread in the wave order
/// (SweepBlocks::wave), else colour by colour; the same result either way. `pending`: the lanes also
/// make the dual update of the sweep before as they read each row, for the end DualLanes names, and
/// each particle's tether and slack rows' (docs/solver.md#duals-in-the-sweep); only where the lanes
/// sweep, the penalty ramp is inert and the particles of each colour are independent.
void sweep(const SolverModel& model, SolverState& state, bool pending, StepStats& stats);
/// One Gauss-Seidel pass over the particles of one colour: in SIMD lanes and over threads where the
/// colouring, the machine and the constants allow, with the same result (docs/solver.md#lanes).
/// Leaves the squared largest move in stats.largest_move: the caller takes its root after the sweep.
/// `pending`: as sweep's.
void sweep_colour(const SolverModel& model, SolverState& state, uint32_t colour, bool pending, StepStats& stats);
/// The dual update after a sweep in lanes (the stretch edges', the tethers' and the slack rows'; the
/// same bits as distance_rows::update_duals, tether_rows' and slack_rows'), where sweep may take `pending`.
void update_duals_in_lanes(const SolverModel& model, SolverState& state);
/// Whether the sweep takes SIMD lanes on this machine (the once-a-substep loops then take AVX2's).
bool sweep_uses_simd(const SolverModel& model);
/// The lanes the sweep takes on this machine: 8 (AVX-512), 4 (AVX2) or 0 (one particle at a time),
/// at most SolverConstants::simd_lanes; the same result at each.
uint32_t simd_lanes(const SolverModel& model);

// hold_line.cpp (docs/solver.md#hold-line)
void find_hold_line(const SolverModel& model, SolverState& state);
void turn_about_hold_line(const SolverModel& model, SolverState& state, StepStats& stats);

/// The inertial term and the rows that involve particle i alone (slack, pose, contacts), with i at
/// `xi`. Inline so both the vertex update and the hold-line turn inline it.
inline Accumulated accumulate_unary(const SolverModel& m, const SolverState& s, uint32_t i, const Vec3& xi) {
    const double mh = m.mass[i] * s.substep.inv_h2;
    Accumulated a{(s.cloth.y[i] - xi) * mh, SymMat3::diagonal(mh)};
    slack_rows::accumulate(m.slack, s.slack, i, xi, s.animated[i], a);
    pose_rows::accumulate(m.pose, s.pose, i, xi, s.animated[i], a);
    contact_rows::accumulate(m.contact, s.contact, i, xi, s.cloth.x.data(), a);
    return a;
}

}  // namespace weft
