// What a caller hands the solver each step, and what the step reports back.
#pragma once
#include <cstdint>
#include <vector>

#include "geom/vec.h"
#include "solver/collider.h"

namespace weft {

/// A rigid placement: x ↦ rotation·x + position.
struct Pose {
    Vec3 position;   ///< metres
    Quat rotation;   ///< unit quaternion

    Vec3 apply(const Vec3& x) const { return rotation.rotate(x) + position; }
    bool operator==(const Pose& o) const {
        return position == o.position && rotation.x == o.rotation.x && rotation.y == o.rotation.y &&
               rotation.z == o.rotation.z && rotation.w == o.rotation.w;
    }
};

/// What a teleport does to the cloth (docs/solver.md#teleport).
enum class TeleportMode : uint8_t {
    reset,  ///< re-seed on the animated pose hung from where the holders now are, zero velocity,
            ///< the velocity clamp ramped back up from 0 over 20 steps
    keep,   ///< carry the shape across: a frame jump does nothing (the cloth lives in the frame), a
            ///< holder's jump is applied rigidly to the particles hanging from it
};

/// Which teleport, if any, a step took.
enum class Teleported : uint8_t { none, reset, keep };

/// One step's inputs. Everything spatial is in the cloth's frame except `frame` and `gravity`.
struct StepInput {
    double dt = 1.0 / 60.0;            ///< seconds, > 0
    Vec3 gravity{0, -9.81, 0};         ///< m/s², in world axes (turned into the frame by `frame`)
    Pose frame;                        ///< the frame's pose in the world at the end of this step; its
                                       ///< motion is what `inertia` softens (docs/solver.md#inertia)
    std::vector<Pose> holders;         ///< per proxy pin, the holder's pose in the frame at the end of
                                       ///< this step; empty = every holder where it was (identity on
                                       ///< the first step). A hold begins where its particles are and
                                       ///< follows its holder rigidly from there (docs/solver.md#holds)
    std::vector<SphereCollider> spheres;    ///< in the frame, at the end of this step
    std::vector<CapsuleCollider> capsules;  ///< in the frame, at the end of this step
    TeleportMode teleport_mode = TeleportMode::reset;
    bool teleport = false;             ///< force a teleport this step, whatever moved
    double teleport_distance = 0;      ///< metres a frame or holder may jump in one step before it is a
                                       ///< teleport; 0 = automatic: the velocity clamp times dt (nothing
                                       ///< the solver may move moves that far, docs/solver.md#velocity-clamp)
};

/// What one step did. Speeds are in the cloth's frame, free particles only.
struct StepStats {
    bool asleep = false;           ///< the cloth was asleep: nothing was computed or written
    bool fell_asleep = false;      ///< this step was the 30th consecutive quiet one (docs/solver.md#sleep)
    Teleported teleported = Teleported::none;
    bool hold_line = false;        ///< the hold-line turn block ran (docs/solver.md#hold-line)
    double max_speed = 0;          ///< m/s, fastest particle at the end of the step, after the clamp
    double max_speed_unclamped = 0;///< m/s, fastest particle before the clamp, over every substep
    double velocity_clamp = 0;     ///< m/s, the clamp in force (ramps from 0 after a reset)
    uint32_t clamped = 0;          ///< particle-substeps the clamp cut
    uint64_t vertex_updates = 0;   ///< free-particle Newton steps taken
    uint64_t capped_updates = 0;   ///< of those, steps cut to the shortest incident row (docs/solver.md#trust-region)
    uint64_t climbing_updates = 0; ///< energy audit only: updates that raised their local energy
    double worst_climb = 0;        ///< energy audit only: largest rise / local energy scale
    uint32_t contacts = 0;         ///< contact rows active in the last substep
    uint32_t substeps = 0;         ///< substeps taken: the fabric's, more for fast cloth (docs/solver.md#fast-cloth)
    uint32_t iterations = 0;       ///< colour sweeps taken, summed over the substeps (docs/solver.md#iterating-to-a-target)
    double largest_move = 0;       ///< metres, the largest vertex move of the last sweep: the residual
};

}  // namespace weft
