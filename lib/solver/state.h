// The solver state: everything that changes as the cloth moves (positions, velocities, multipliers
// and penalties, holds, contacts, sleep counters). A copyable value: a solver forks by copying it
// beside the shared SolverModel it belongs to.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "solver/contact_rows.h"
#include "solver/cycle_watch.h"
#include "solver/distance_rows.h"
#include "solver/hinge_rows.h"
#include "solver/pose_rows.h"
#include "solver/slack_rows.h"
#include "solver/step.h"
#include "solver/sweep_blocks.h"
#include "solver/sweep_pool.h"
#include "solver/tether_rows.h"

namespace weft {

/// Per-particle state, structure of arrays, in the proxy's (colour) particle order. Frame coordinates.
struct ClothState {
    std::vector<Vec3> x;            ///< position, metres
    std::vector<Vec3> x_prev;       ///< position at the start of the current substep
    std::vector<Vec3> v;            ///< velocity, m/s
    std::vector<Vec3> y;            ///< inertial target of the current substep
    std::vector<double> inverse_mass;  ///< 1/kg; 0 = kinematic (held, or a bone the cloth reads)
};

/// Energies of the current state, joules, for trend gates (validate).
struct Energy {
    double kinetic = 0;        ///< ½·m·|v|² over free particles, frame velocities
    double gravitational = 0;  ///< −m·g·x over free particles (gravity in frame axes, origin at 0)
    double elastic = 0;        ///< soft stretch, skip, hinge and pose rows: ½·k·C² at the last step's h
    double total() const { return kinetic + gravitational + elastic; }
};

/// The current substep's scalars and what the hold-line turn found.
struct SubstepState {
    double h = 0, inv_h = 0, inv_h2 = 0;
    uint32_t count = 0;                   ///< substeps this step: the fabric's, or more for fast cloth (docs/solver.md#fast-cloth)
    double fictitious_inertia = 0;        ///< fabric.inertia while the frame turns, else 0
    Vec3 omega_local;                     ///< the frame's angular velocity in its own axes
    bool hold_line_ok = false;            ///< the held particles lie on one line this substep
    Vec3 hold_line_origin, hold_line_axis;
};

/// The animated pose's turned rest offsets R_p·(r_i − r_p) (docs/solver.md#animated-pose), each kept until
/// its pin's turn changes in some bit: a holder that does not turn costs one addition a particle.
struct TurnedOffsets {
    std::vector<Quat> turn;               ///< per pin: the turn of its epoch
    std::vector<uint64_t> epoch;          ///< per pin: when `turn` was last set; 0 = never
    std::vector<Vec3> offset;             ///< per particle
    std::vector<uint64_t> offset_epoch;   ///< per particle: the epoch its offset was turned in; 0 = never
    uint64_t epochs = 0;
};

struct SolverState {
    ClothState cloth;
    std::vector<Vec3> v_before;           ///< velocity at the start of the substep (adaptive initial guess)
    std::vector<Vec3> hold_offset;        ///< held: position in its holder's placement when the hold began
    std::vector<Vec3> target;             ///< kinematic: where the holder puts it at the end of the step
    std::vector<Vec3> animated;           ///< the animated position s_i, re-centred every substep (slack, pose)
    TurnedOffsets turned;                 ///< the animated pose's offsets, turned once a turn
    std::vector<uint32_t> free_particles;        ///< ascending
    std::vector<uint32_t> kinematic_particles;   ///< ascending

    // --- holds and the frame ------------------------------------------------------------------------
    std::vector<uint8_t> pin_holding;
    std::vector<Pose> holder_pose;        ///< last step's pose per pin
    std::vector<Quat> hold_start_rotation;///< the holder's rotation when its hold began
    bool started = false;                 ///< the first step has captured the holds
    Pose frame_pose;
    Vec3 frame_velocity;                  ///< world, m/s
    Vec3 frame_omega;                     ///< world, rad/s
    Vec3 gravity_frame;

    // --- the row kinds ------------------------------------------------------------------------------
    DistanceState distance;
    HingeState hinge;
    BendLanes bend_lanes;                 ///< the bending operator as the lanes read it (docs/solver.md#lanes)
    DualLanes dual_lanes;                 ///< the edges each block's multipliers update in the sweep
    TetherState tether;
    SlackState slack;
    PoseState pose;
    ContactState contact;

    SubstepState substep;
    /// The 1/h² every row's penalty k was last set for, while the penalties settle (penalties_settle:
    /// then only h and the masses move them); NaN: set them again at the next substep.
    double penalties_inv_h2 = std::numeric_limits<double>::quiet_NaN();

    // --- sleep and the clamp's ramp -----------------------------------------------------------------
    bool asleep = false;
    uint32_t quiet_steps = 0;
    CycleWatch cycle;                     ///< the cycle watch (docs/solver.md#cycles)
    uint64_t steps_since_reset = UINT64_MAX;

    SweepThreads sweep_threads;           ///< the threads a large colour is split over (docs/solver.md#lanes)
    std::vector<uint32_t> wave_done;      ///< per chunk of the threads' wave: the last sweep (epoch) that swept it
    uint32_t wave_epoch = 0;              ///< this sweep's, counted from 1
};

/// Copies into `to` every field of `from` a step writes: all but the mass layout (bend_lanes,
/// dual_lanes, free_particles, kinematic_particles), which only a change of masses (release, grab)
/// lays out, and the sweep's threads. `to` keeps its buffers, so a copy taken before every step
/// allocates once (solver/checked_step.h; a fifth of the state's bytes stays put).
void copy_step_state(SolverState& to, const SolverState& from);

}  // namespace weft
