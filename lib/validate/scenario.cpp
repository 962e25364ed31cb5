#include "validate/scenario.h"

#include <array>
#include <cmath>
#include <numbers>

namespace weft {

namespace {

constexpr std::array<Scenario, 6> kScenarios = {Scenario::hang,           Scenario::swing,
                                                Scenario::sprint,         Scenario::teleport_reset,
                                                Scenario::teleport_keep,  Scenario::idle};

/// The frame's velocity along +z in step j >= 1 of the wave: sprint, stop, sprint back, stop.
double sprint_velocity(uint32_t j) {
    switch (((j - 1) / sprint_phase_steps) % 4) {
        case 0: return sprint_speed;
        case 2: return -sprint_speed;
        default: return 0;
    }
}

/// The last step of sprint's wave: the first two thirds of the run, less the step that stops the
/// frame, so the last third is undriven (for 720 steps the wave ends standing still anyway).
uint32_t sprint_end(uint32_t steps) {
    const uint32_t undriven_from = steps - steps / 3;
    return undriven_from >= 2 ? undriven_from - 2 : 0;
}

/// The step at which teleport's holders jump: one second in, or a fifth of a short run.
uint32_t teleport_step(uint32_t steps) {
    uint32_t s = steps / 5;
    if (s > teleport_sway_steps) s = teleport_sway_steps;
    return s < 1 ? 1 : s;
}

}  // namespace

const char* scenario_name(Scenario s) {
    switch (s) {
        case Scenario::hang: return "hang";
        case Scenario::swing: return "swing";
        case Scenario::sprint: return "sprint";
        case Scenario::teleport_reset: return "teleport-reset";
        case Scenario::teleport_keep: return "teleport-keep";
        case Scenario::idle: return "idle";
        case Scenario::clip: return "clip";
    }
    return "hang";
}

std::string scenario_label(Scenario scenario, const std::string& clip) {
    if (scenario == Scenario::clip) return std::string(clip_label_prefix) + clip;
    return scenario_name(scenario);
}

std::span<const Scenario> all_scenarios() { return kScenarios; }

std::vector<Scenario> parse_scenario(std::string_view name) {
    if (name == "teleport") return {Scenario::teleport_reset, Scenario::teleport_keep};
    for (Scenario s : kScenarios)
        if (name == scenario_name(s)) return {s};
    return {};
}

uint32_t default_steps(Scenario s) {
    switch (s) {
        case Scenario::hang: return 1500;    // docs/validation.md#hang: silk's chain sleeps at ~770
        case Scenario::swing: return 900;
        case Scenario::sprint: return 720;   // two 4-second cycles, then 4 s standing
        case Scenario::teleport_reset:
        case Scenario::teleport_keep: return 300;
        case Scenario::idle: return 600;     // 10 s: two and a half breaths
        case Scenario::clip: return 0;       // as long as its clip: clip_default_steps
    }
    return 1500;
}

Pose rest_frame_pose(const ClothProxy& proxy) {
    Vec3 t, scale;
    Quat r;
    proxy.frame.rest_world.decompose(t, r, scale);
    return Pose{t, r};
}

FramedStep framed(const ScriptStep& script, const Pose& rest_frame) {
    const Quat to_frame = rest_frame.rotation.conjugate();
    FramedStep out;
    out.frame = Pose{rest_frame.position + script.frame.position, script.frame.rotation * rest_frame.rotation};
    out.holders = Pose{to_frame.rotate(script.holders.position), to_frame * script.holders.rotation * rest_frame.rotation};
    out.kick = to_frame.rotate(script.kick);
    return out;
}

ScriptStep script_step(Scenario scenario, uint32_t step, uint32_t steps, bool holds_pose) {
    ScriptStep out = script_step(scenario, step, steps);
    if (scenario == Scenario::hang && holds_pose && step == 0) {
        out.kick = {rig_hang_kick_speed, 0, 0};
        out.driven = true;
    }
    return out;
}

bool settles_first(Scenario scenario) { return scenario != Scenario::hang; }

ScriptStep script_step(Scenario scenario, uint32_t step, uint32_t steps) {
    ScriptStep out;
    switch (scenario) {
        case Scenario::hang:
        case Scenario::clip: break;  // a clip is played by its motion (validate/clip_motion.h), not scripted
        case Scenario::swing:
            if (step == 0) {
                out.kick = {0, 0, swing_kick_speed};
                out.driven = true;
            }
            break;
        case Scenario::sprint: {
            // Position by counting steps at ±speed, so the frame returns exactly to where it was.
            const uint32_t end = sprint_end(steps);
            const uint32_t last = step < end ? step : end;
            int64_t net = 0;
            for (uint32_t j = 1; j <= last; ++j) {
                double v = sprint_velocity(j);
                net += v > 0 ? 1 : (v < 0 ? -1 : 0);
            }
            out.frame.position = {0, 0, static_cast<double>(net) * sprint_speed * validation_dt};
            out.driven = step >= 1 && step <= end + 1;  // end + 1: the stop after the last phase
            break;
        }
        case Scenario::teleport_reset:
        case Scenario::teleport_keep: {
            const uint32_t jump = teleport_step(steps);
            if (step < jump) {
                double t = static_cast<double>(step) / teleport_sway_steps;
                out.holders.position = {teleport_sway_amplitude * std::sin(2 * std::numbers::pi * t), 0, 0};
            } else {
                out.holders.position = {teleport_distance, 0, 0};
            }
            out.driven = step <= jump;
            break;
        }
        case Scenario::idle: {
            // Sway and turn start at zero with the breath, so the first step is the settled pose.
            const double t = static_cast<double>(step) * validation_dt;
            const double breath = std::sin(2 * std::numbers::pi * idle_frequency * t);
            const double sway = std::sin(std::numbers::pi * idle_frequency * t);
            out.holders.position = {idle_sway * sway, idle_amplitude * breath, 0};
            out.holders.rotation = Quat::from_axis_angle({0, 1, 0}, idle_turn_degrees * std::numbers::pi / 180 * breath);
            out.driven = true;
            break;
        }
    }
    return out;
}

}  // namespace weft
