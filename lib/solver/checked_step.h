// A step that refuses what would poison the solver and never leaves it poisoned: the one way the
// embeddable runtime (lib/runtime) and validation (lib/validate) step a cloth, so what weft
// validated is what a game's runtime computes, bit for bit (docs/format.md#the-runtime).
//
//   refused   dt not in (0, max_step_seconds], a frame, holder or gravity that is not finite or whose
//             rotation is not a unit quaternion, a holder count that is not the proxy's pin count, a
//             sphere or capsule that is not finite or has a negative radius: the step is not taken
//   undone    a step after which a position or velocity is not finite: the state is put back as it
//             was before the step (a copy taken before every step, into a buffer the caller keeps so
//             it is allocated once: 11-13% of a step of the reference workload, bench_solver's
//             BM_CheckedStep). A caller that stops at such a step passes no buffer and skips the copy:
//             validation, which ends the scenario there and reports NON_FINITE.
#pragma once
#include <cstdint>

#include "solver/solver.h"

namespace weft {

/// Longest step accepted, seconds: a game that hitches longer steps its cloth in parts (or teleports it).
inline constexpr double max_step_seconds = 1.0;

/// Largest | |q| - 1 | a rotation may have: a quaternion further from unit length is no rotation.
inline constexpr double unit_quaternion_tolerance = 1e-3;

enum class StepCheck : uint8_t {
    ok,
    bad_dt,        ///< dt not finite, <= 0 or > max_step_seconds
    bad_frame,     ///< the frame or gravity not finite, or the frame's rotation not a unit quaternion
    bad_holder,    ///< a holder placement not finite or its rotation not unit; or not one per pin
    bad_collider,  ///< a sphere or capsule not finite, or a negative radius
    non_finite,    ///< the step would have left a position or velocity not finite: undone
};

/// "ok", "bad_dt", "bad_frame", "bad_holder", "bad_collider", "non_finite".
const char* step_check_name(StepCheck check);

/// What is wrong with `input` for `solver`, or ok; never throws.
StepCheck check_step_input(const Solver& solver, const StepInput& input);

/// check_step_input, then one step; a step that leaves any particle's position or velocity not finite
/// returns non_finite, and with `undo` is undone (the solver's state as it was, from a copy_step_state
/// into `undo` taken before the step). `stats` gets the step's figures when it was taken.
StepCheck checked_step(Solver& solver, const StepInput& input, SolverState* undo, StepStats* stats = nullptr);

}  // namespace weft
