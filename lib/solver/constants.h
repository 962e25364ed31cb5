// The solver's internal constants: an author never sets them; tests vary them (docs/solver.md#constants).
#pragma once
#include <cstdint>

#include "solver/spare_capacity.h"

namespace weft {

/// Solver internals an author never sets; tests vary them (docs/solver.md#constants). Defaults are the measured ones.
struct SolverConstants {
    double alpha = 0.25;      ///< warm-start share; λ ← α·γ·λ each substep (α·γ ≥ 0.5 diverges, docs/solver.md#warm-start)
    double gamma = 1.0;       ///< multiplier and penalty decay per substep
    double beta = 1e5;        ///< penalty ramp k ← min(k + β·|C|, k_max) (inert while k_min = k_max)
    double k_min_ratio = 8;   ///< hard-row penalty floor, a ratio of the row's m_eff/h² (docs/solver.md#penalty-band)
    double k_max_ratio = 8;   ///< hard-row penalty ceiling, same ratio
    double sleep_speed_ratio = 1e-3;  ///< sleep below this·reach per second (docs/solver.md#sleep)
    uint32_t sleep_steps = 30;        ///< consecutive quiet steps before sleep (docs/solver.md#sleep)
    double clamp_ratio = 4;           ///< velocity clamp = this × correction authority (docs/solver.md#velocity-clamp)
    uint32_t reset_ramp_steps = 20;   ///< steps over which the clamp ramps back after a reset (docs/solver.md#velocity-clamp)
    /// > 0: a step in which the fastest particle would cross more than this × the shortest row in one
    /// substep of speed_split_sweeps sweeps is split into more substeps; a fabric with fewer sweeps a
    /// substep is held to its share of it (docs/solver.md#fast-cloth); 0: the fabric's substeps always
    double speed_substep_ratio = 0.5;
    uint32_t speed_split_sweeps = 4;  ///< the sweeps a substep speed_substep_ratio is measured at; more are not credited (docs/solver.md#fast-cloth)
    uint32_t max_speed_split = 8;     ///< the most times speed_substep_ratio may multiply a step's substeps
    bool tethers = true;      ///< build tether rows (off only to reproduce docs/measurements.md table L1's "no tether" column)
    bool hold_line = true;    ///< run the hold-line turn block (off only to show what it fixes)
    bool sleep = true;        ///< allow sleep
    bool simd = true;         ///< solve a colour's particles in SIMD lanes where the machine has them (docs/solver.md#lanes); same result
    uint32_t simd_lanes = 8;  ///< the widest lanes the sweep may take: 8 (AVX-512) or 4 (AVX2); same result
    uint32_t threads = 1;     ///< threads a colour's particles may be split over (docs/solver.md#lanes); same result
    uint32_t thread_min_particles = 4096;  ///< a colour smaller than this runs on one thread (docs/solver.md#lanes)
    /// the dual update after a sweep that another sweep of the substep follows made by that sweep, as it
    /// reads each row, where the lanes sweep (docs/solver.md#duals-in-the-sweep); off: a pass after every
    /// sweep. The same result
    bool defer_duals = true;
    /// Where the threads beyond the caller's come from: none, `threads` as given; else a slot each,
    /// taken while the budget has one free (weft bake's -j slots; docs/solver.md#lanes)
    SpareCapacity* spare = nullptr;
    /// > 0: iterate each substep until a sweep moves no particle further than this × the shortest row,
    /// at most max_iterations sweeps, instead of the fabric's fixed count (docs/solver.md#iterating-to-a-target)
    double residual_tolerance = 0;
    /// > 0: iterate each substep until no stretch edge is longer than (1 + this) × its rest length, at
    /// most max_iterations sweeps; with residual_tolerance too, until both hold (docs/solver.md#iterating-to-a-target)
    double strain_target = 0;
    uint32_t max_iterations = 32;     ///< the most sweeps a substep takes when iterating to a target
    /// keep the cloth a thickness clear of its own triangles (docs/solver.md#self-contact); validation
    /// turns it on, a runtime leaves it off unless a garment folds onto itself
    bool self_contact = false;
    /// collide a rig's segments between particles too, not only its particles (docs/colliders.md#spans)
    bool span_contacts = true;
    /// a span with two free ends is one row of both, one multiplier (docs/solver.md#contacts); off: each
    /// end its own share with a multiplier of its own, which gains energy against pose rows
    bool coupled_spans = true;
    /// collide a rig's virtual particles, render vertices far off their links (docs/colliders.md#virtual-particles)
    bool virtual_contacts = true;
    bool energy_audit = false;///< measure every vertex update's local energy (docs/solver.md#trust-region); slow
};

}  // namespace weft
