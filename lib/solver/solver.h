// The AVBD runtime solver: one ClothProxy, one fabric, stepped headless (docs/solver.md#the-step; docs/architecture.md#stages).
//
// How a caller drives it:
//
//   Solver solver(proxy, *find_fabric("cotton"));   // throws std::invalid_argument naming the
//                                                   // first bad field/element of proxy or fabric
//   StepInput in;                                   // dt 1/60, gravity (0,−9.81,0) in world axes
//   in.holders.assign(proxy.pins.size(), Pose{});   // each pin's holder pose in the frame
//   for (;;) {
//       in.frame = frame_pose_in_world;             // moving frame: felt through fabric.inertia
//       in.holders[k] = holder_pose_in_frame;       // held particles follow exactly (docs/solver.md#holds)
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
// - After 30 quiet steps the cloth sleeps (docs/solver.md#sleep): step() returns at once and writes
//   nothing until wake(), a holder or collider or gravity changes, the frame accelerates or turns
//   (with inertia > 0), or a teleport. Kicks, releases and grabs wake it too.
// - A solver is a shared SolverModel (cooked once, immutable) and a SolverState (a value). Copying a
//   solver, or fork(), gives a second one that continues from the same state bit for bit: a
//   validation settles the cloth once and runs each scenario from a fork.
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
// the measurements docs/solver.md and docs/measurements.md record (constants, clamps, which rows
// carry a multiplier), which win where they differ.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/constants.h"
#include "fabric/fabric.h"
#include "solver/model.h"
#include "solver/state.h"
#include "solver/step.h"

namespace weft {

class Solver {
public:
    /// Builds every row for `proxy` under `fabric`. Throws std::invalid_argument with a message naming
    /// the offending field and element when the proxy or the fabric cannot be simulated.
    Solver(const ClothProxy& proxy, const Fabric& fabric, const SolverConstants& constants = {});
    /// A solver at the model's rest state (what the constructor above builds, without cooking again).
    explicit Solver(std::shared_ptr<const SolverModel> model);
    /// A solver continuing from `state`, which must have come from a solver of the same model.
    /// Throws std::invalid_argument when the state's sizes do not match the model.
    Solver(std::shared_ptr<const SolverModel> model, SolverState state);

    /// A second solver sharing the model, continuing from this one's state bit for bit.
    Solver fork() const { return *this; }

    const std::shared_ptr<const SolverModel>& model() const { return model_; }
    /// Everything that changes as the cloth moves (state() is its particles).
    const SolverState& solver_state() const { return state_; }
    /// Puts back what a step changed, from a copy_step_state (state.h) of this solver's state taken
    /// before the step and no release() or grab() since (checked_step.h).
    void restore_step(const SolverState& before) { copy_step_state(state_, before); }

    /// Advances one step of input.dt: `substeps` substeps of `iterations` colour sweeps each.
    /// Throws std::invalid_argument on a non-positive or non-finite dt, or holders of the wrong count.
    StepStats step(const StepInput& input);

    const ClothState& state() const;
    const ClothProxy& proxy() const;
    const Fabric& fabric() const;
    const SolverConstants& constants() const;

    // --- holds (docs/solver.md#holds) --------------------------------------------------------------
    /// Lets go of pin `pin`: its particles become free (mass: the proxy's held mass shared equally)
    /// and leave at the speed their holder carried them; particles tethered to them lose the tether.
    void release(size_t pin);
    /// Takes hold again with pin `pin`, where its particles are now; tethers come back no tighter
    /// than where their particles are and only ever come in.
    void grab(size_t pin);
    bool holding(size_t pin) const;

    // --- sleep (docs/solver.md#sleep) ------------------------------------------------------------------------
    bool asleep() const;
    void wake();

    // --- direct manipulation, for scenarios ----------------------------------------------------------
    /// Adds `dv` (m/s, frame axes) to every free particle's velocity, and wakes the cloth.
    void add_velocity(const Vec3& dv);
    /// Re-seeds every particle on the animated pose with zero velocity, as a Reset teleport does.
    void reset();

    // --- measures --------------------------------------------------------------------------------------
    /// shortest_row · substeps · iterations / dt, m/s (docs/solver.md#correction-authority).
    double correction_authority(double dt) const;
    /// The clamp at full strength: clamp_ratio × correction_authority(dt).
    double velocity_clamp(double dt) const;
    /// The proxy's reach (docs/solver.md#reach), metres: the sleep test's scale.
    double reach() const;
    /// Energies of the current state; `gravity_frame` in the frame's axes.
    Energy energy(const Vec3& gravity_frame) const;
    /// The animated pose s_i = x_p + R_p·(r_i − r_p) at the current holder poses (docs/solver.md#animated-pose);
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
    std::shared_ptr<const SolverModel> model_;
    SolverState state_;
};

}  // namespace weft
