// The scenarios of headless validation (docs/validation.md#scenarios): each a fixed script of what the frame and the
// holders do at every step, at 60 Hz. A script is a pure function of (step, steps), so a run is
// reproducible from its name and step count alone.
//
//   hang            start at the rest pose, fall under gravity, settle (docs/validation.md#hang: a
//                   12-link silk chain needs ~770 steps to sleep, so 1500 by default). A cloth whose pose
//                   rows hold its rest pose (a rig's) starts it kicked sideways (rig_hang_kick_speed).
//
// Every other scenario starts from the cloth hanging settled: a prelude of hang, up to
// settle_max_steps or until the cloth sleeps, that is not measured. Otherwise a sheet authored flat
// would measure its own fall in every scenario rather than the motion the scenario is about.
//
//   swing           every free particle kicked 3 m/s along +z (forward), then left alone (the kick of
//                   docs/measurements.md table Z1).
//   sprint          the frame (the character carrying the cloth) runs a ±9 m/s square wave along +z:
//                   sprint, stop dead, sprint back, stop dead, one second a phase (docs/validation.md#sprint),
//                   over the first two thirds of the steps; then it stands still. It moves the frame
//                   rather than the holders because that is what table M1 measured (speeds in the
//                   cloth-local frame, the fabric's inertia applied).
//   teleport-reset  the holders sway ±0.2 m at 1 Hz along x for one second, then jump a kilometre
//   teleport-keep   along +x and stay there (docs/solver.md#teleport); the solver's Reset or Keep mode.
//   idle            a character standing still (docs/validation.md#idle): the holders
//                   breathe ±3 mm along y at 0.25 Hz, sway ±3 mm side to side along x at half
//                   that, and the chest turns ±0.2° about the vertical with the breath, so a
//                   cloth hanging straight still moves a little and jitter measures something.
//
// Every script but idle ends with a third or more in which nothing is driven: the energy trend is
// measured there, where any rise can only come from the step itself.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/step.h"

namespace weft {

//   clip            one of the model's own animation clips drives the frame, every holder and the body
//                   colliders (docs/validation.md#clips; validate/clip_motion.h): reported as "clip:<name>".
enum class Scenario : uint8_t { hang, swing, sprint, teleport_reset, teleport_keep, idle, clip };

inline constexpr double validation_dt = 1.0 / 60.0;  ///< seconds per step (60 Hz frames)
/// The longest scenario (docs/bad-inputs.md#budgets): `--steps` and `--max-sleep-step` past it are
/// usage errors; a clip's own run is far shorter (validate/model/clip_motions.h cuts a clip at 120 s).
/// Each step keeps its figures, about 230 bytes (a 9-million-step clip took 2.1 GB).
inline constexpr uint32_t kMaxScenarioSteps = 1'000'000;
inline constexpr uint32_t settle_max_steps = 600;    ///< longest prelude before a scenario other than hang
inline constexpr double swing_kick_speed = 3.0;      ///< m/s, docs/measurements.md table Z1
inline constexpr double sprint_speed = 9.0;          ///< m/s, docs/measurements.md table M1
inline constexpr uint32_t sprint_phase_steps = 60;   ///< one second a phase
inline constexpr double teleport_distance = 1000.0;  ///< metres, docs/measurements.md table M3
inline constexpr uint32_t teleport_sway_steps = 60;  ///< the holders sway for one second, then jump
inline constexpr double teleport_sway_amplitude = 0.2;  ///< metres
inline constexpr uint32_t teleport_window_steps = 20;   ///< the clamp's ramp after a Reset (docs/solver.md#teleport)
inline constexpr double idle_amplitude = 0.003;      ///< metres, a breath
inline constexpr double idle_frequency = 0.25;       ///< Hz
inline constexpr double idle_sway = 0.003;           ///< metres side to side, at idle_frequency / 2
inline constexpr double idle_turn_degrees = 0.2;     ///< the chest's turn about the vertical, at idle_frequency
inline constexpr double rig_hang_kick_speed = 1.0;   ///< m/s sideways (+x) every free particle starts hang with when
                                                     ///< pose rows hold the rest pose (a rig's): hung from rest it
                                                     ///< would sleep at once and test nothing (docs/validation.md#hang)

/// "hang", "swing", "sprint", "teleport-reset", "teleport-keep", "idle", "clip": stable, used in reports.
const char* scenario_name(Scenario scenario);

/// How reports name a run: scenario_name, or "clip:<clip>" for a clip scenario.
std::string scenario_label(Scenario scenario, const std::string& clip);

/// The prefix of a clip scenario's label.
inline constexpr std::string_view clip_label_prefix = "clip:";

/// Every scripted scenario, in report order (clip scenarios come from a model: ValidationOptions::clips).
std::span<const Scenario> all_scenarios();

/// A name as a user types it: any scenario_name, or "teleport" for both teleport modes. Empty when
/// the name is unknown.
std::vector<Scenario> parse_scenario(std::string_view name);

/// Steps a scenario runs unless told otherwise (after its prelude): hang 1500, swing 900, sprint
/// 720, each teleport 300, idle 600.
uint32_t default_steps(Scenario scenario);

/// What the script does at one step, in the world: the model stands as it was bound, so "down",
/// a breath and a sprint keep their world directions whatever axes the frame's node has.
struct ScriptStep {
    Pose frame;          ///< the frame's motion from its rest placement: world offset, then a turn
    Pose holders;        ///< every holder's motion from rest, world axes (all move together)
    Vec3 kick;           ///< m/s added to every free particle before the step (world axes); zero mostly
    bool driven = false; ///< the script moves or pushes something this step: excluded from the energy trend
};

/// A script step as the solver takes it (StepInput's frame and holders; the kick in frame axes).
struct FramedStep {
    Pose frame;          ///< the frame's pose in the world
    Pose holders;        ///< every holder's pose in the frame
    Vec3 kick;           ///< m/s, frame axes
};

/// Where the proxy's frame stands in the world at rest: its node's rest transform (scale and any
/// reflection left out). A frame node whose axes are turned (an FBX bone, a tail's "Back") feels
/// gravity along the model's down, not along its own −y.
Pose rest_frame_pose(const ClothProxy& proxy);

/// `script` carried into the frame standing at `rest_frame`.
FramedStep framed(const ScriptStep& script, const Pose& rest_frame);

/// The script of `scenario` at `step` (0-based) of a run of `steps`. Step 0 is where every hold and
/// the frame begin; a scenario's motion starts at step 1.
ScriptStep script_step(Scenario scenario, uint32_t step, uint32_t steps);

/// script_step for a cloth whose rows hold its rest pose (`holds_pose`: pose rows, a rig's strand or
/// panel fabric): its hang starts disturbed (rig_hang_kick_speed sideways at step 0, a driven step),
/// since hung from rest it would only go quiet. Every other script is the same.
ScriptStep script_step(Scenario scenario, uint32_t step, uint32_t steps, bool holds_pose);

/// True for every scenario that starts from the settled cloth (all but hang).
bool settles_first(Scenario scenario);

}  // namespace weft
