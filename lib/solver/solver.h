// The AVBD runtime solver: one ClothProxy, one fabric, stepped headless (seed 002; DESIGN.md §5).
//
// How a caller drives it:
//
//   Solver solver(proxy, *find_fabric("cotton"));   // throws std::invalid_argument naming the
//                                                   // first bad field/element of proxy or fabric
//   StepInput in;                                   // dt 1/60, gravity (0,−9.81,0) in world axes
//   in.holders.assign(proxy.pins.size(), Pose{});   // each pin's holder pose in the frame
//   for (;;) {
//       in.frame = frame_pose_in_world;             // moving frame: felt through fabric.inertia
//       in.holders[k] = holder_pose_in_frame;       // held particles follow exactly (seed 000 §19.3)
//       StepStats s = solver.step(in);              // s.asleep: nothing changed, nothing written
//       read solver.state().x                       // positions in the frame, particle order
//   }
//
// - The proxy is read at construction and referenced afterwards: it must outlive the solver.
// - Holder poses are absolute placements in the frame. A hold captures, when it begins (the first
//   step, or grab()), each held particle's offset from its holder; afterwards the particle's target
//   is holder·offset. Identity poses throughout = held particles stay at their rest positions.
// - A frame or holder jump longer than StepInput::teleport_distance (automatic by default) is a
//   teleport, handled by StepInput::teleport_mode; StepInput::teleport forces one.
// - After 30 quiet steps the cloth sleeps (seed 002 §12): step() returns at once and writes
//   nothing until wake(), a holder or collider or gravity changes, the frame accelerates or turns
//   (with inertia > 0), or a teleport. Kicks, releases and grabs wake it too.
// - Deterministic: the same proxy, fabric, constants and inputs give bit-identical states (no
//   threads, no unordered containers, fixed sweep order).
//
// One step = fabric.substeps substeps of h = dt/substeps, each: carry held particles an equal share
// to their targets; re-centre slack and pose rows on the animated pose; predict y = x + h·v + h²·(g + frame);
// start from the adaptive guess; warm-start hard rows (λ ← α·γ·λ); find contacts; then `iterations`
// times: a Gauss-Seidel sweep colour by colour (one 3x3 LDLᵀ Newton step per free particle, capped at
// its shortest row), the hold-line turn in the last one, the dual update of every hard row; then
// velocities, damping, the velocity clamp. After the substeps: statistics and the sleep test.
//
// This work is based on: Giles, Diaz, Yuksel. Augmented Vertex Block Descent. SIGGRAPH 2025;
// Chen, Macklin, Kim, Yuksel et al. Vertex Block Descent. SIGGRAPH 2024; and the measurements of
// seed 002 (constants, clamps, which rows carry a multiplier), which win where they differ.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/fabric.h"
#include "solver/step.h"

namespace weft {

/// Solver internals an author never sets; tests vary them (seed 002 §2-§4). Defaults are the seed's.
struct SolverConstants {
    double alpha = 0.25;      ///< warm-start share; λ ← α·γ·λ each substep (α·γ ≥ 0.5 diverges, §2)
    double gamma = 1.0;       ///< multiplier and penalty decay per substep
    double beta = 1e5;        ///< penalty ramp k ← min(k + β·|C|, k_max) (inert while k_min = k_max)
    double k_min_ratio = 8;   ///< hard-row penalty floor, a ratio of the row's m_eff/h² (§4)
    double k_max_ratio = 8;   ///< hard-row penalty ceiling, same ratio
    double sleep_speed_ratio = 1e-3;  ///< sleep below this·reach per second (§12)
    uint32_t sleep_steps = 30;        ///< consecutive quiet steps before sleep (§12)
    double clamp_ratio = 4;           ///< velocity clamp = this × correction authority (§13)
    uint32_t reset_ramp_steps = 20;   ///< steps over which the clamp ramps back after a reset (§13)
    bool tethers = true;      ///< build tether rows (off only to reproduce §10's "no tether" column)
    bool hold_line = true;    ///< run the hold-line turn block (off only to show what it fixes)
    bool sleep = true;        ///< allow sleep
    bool energy_audit = false;///< measure every vertex update's local energy (seed 002 §5.3); slow
};

/// Per-particle state, structure of arrays, in the proxy's (colour) particle order. Frame coordinates.
struct ClothState {
    std::vector<Vec3> x;            ///< position, metres
    std::vector<Vec3> x_prev;       ///< position at the start of the current substep
    std::vector<Vec3> v;            ///< velocity, m/s
    std::vector<Vec3> y;            ///< inertial target of the current substep
    std::vector<double> inverse_mass;  ///< 1/kg; 0 = kinematic (held, or a bone the cloth reads)
};

/// Energies of the current state, joules, for trend gates (issue 4, validate).
struct Energy {
    double kinetic = 0;        ///< ½·m·|v|² over free particles, frame velocities
    double gravitational = 0;  ///< −m·g·x over free particles (gravity in frame axes, origin at 0)
    double elastic = 0;        ///< soft stretch, skip and hinge rows: ½·k·C² at the last step's h
    double total() const { return kinetic + gravitational + elastic; }
};

class Solver {
public:
    /// Builds every row for `proxy` under `fabric`. Throws std::invalid_argument with a message naming
    /// the offending field and element when the proxy or the fabric cannot be simulated.
    Solver(const ClothProxy& proxy, const Fabric& fabric, const SolverConstants& constants = {});
    ~Solver();
    Solver(Solver&&) noexcept;
    Solver& operator=(Solver&&) noexcept;
    Solver(const Solver&) = delete;
    Solver& operator=(const Solver&) = delete;

    /// Advances one step of input.dt: `substeps` substeps of `iterations` colour sweeps each.
    /// Throws std::invalid_argument on a non-positive or non-finite dt, or holders of the wrong count.
    StepStats step(const StepInput& input);

    const ClothState& state() const;
    const ClothProxy& proxy() const;
    const Fabric& fabric() const;
    const SolverConstants& constants() const;

    // --- holds (seed 000 §19.2-§19.3) --------------------------------------------------------------
    /// Lets go of pin `pin`: its particles become free (mass: the proxy's held mass shared equally)
    /// and leave at the speed their holder carried them; particles tethered to them lose the tether.
    void release(size_t pin);
    /// Takes hold again with pin `pin`, where its particles are now; tethers come back no tighter
    /// than where their particles are and only ever come in.
    void grab(size_t pin);
    bool holding(size_t pin) const;

    // --- sleep (seed 002 §12) ------------------------------------------------------------------------
    bool asleep() const;
    void wake();

    // --- direct manipulation, for scenarios ----------------------------------------------------------
    /// Adds `dv` (m/s, frame axes) to every free particle's velocity, and wakes the cloth.
    void add_velocity(const Vec3& dv);
    /// Re-seeds every particle on the animated pose with zero velocity, as a Reset teleport does.
    void reset();

    // --- measures --------------------------------------------------------------------------------------
    /// shortest_row · substeps · iterations / dt, m/s (seed 002 §10, §13).
    double correction_authority(double dt) const;
    /// The clamp at full strength: clamp_ratio × correction_authority(dt).
    double velocity_clamp(double dt) const;
    /// The proxy's reach (seed 000 §19.3), metres: the sleep test's scale.
    double reach() const;
    /// Energies of the current state; `gravity_frame` in the frame's axes.
    Energy energy(const Vec3& gravity_frame) const;
    /// The animated pose s_i = x_p + R_p·(r_i − r_p) at the current holder poses (seed 000 §19.3);
    /// the rest position for a particle nothing holds.
    std::vector<Vec3> animated_pose() const;
    /// The particle a particle is tethered to (the proxy's nearest_held while its pin holds), or
    /// no_particle; and the tether's current radius in metres (+inf when none).
    uint32_t tether_centre(uint32_t particle) const;
    double tether_radius(uint32_t particle) const;

    /// Row counts as built (for reports and the benchmark's workload line).
    struct RowCounts {
        size_t stretch = 0, strain_limit = 0, skip = 0, hinge = 0, tether = 0, slack = 0, pose = 0;
    };
    RowCounts row_counts() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace weft
