// A scenario's run step by step, recorded on request (weft validate --trace, the bake's page): the
// figures the gates judge, per step, and optionally the particles every few steps. Recording is
// off unless asked for: run_scenario then only tests one null pointer per step.
//
//   ValidationOptions options;
//   options.trace.figures = true;          // per-step speed, strain, energy
//   options.trace.frame_every = 4;         // and the particles every 4th step
//   ProxyValidation v = validate_file("cape.clothproxy", options);
//   for (const ScenarioTrace& t : v.traces) ...  // one per scenario run, in the same order
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "validate/scenario.h"

namespace weft {

/// What to record. Nothing by default.
struct TraceOptions {
    bool figures = false;       ///< per-step figures (StepFigures)
    uint32_t frame_every = 0;   ///< with figures: particle positions every this many steps; 0 = none
    uint32_t max_frames = 400;  ///< at most this many frames per scenario (frame_every grows to fit)
    uint32_t max_frame_values = 1'500'000;  ///< and at most this many coordinates (3 per particle per frame)

    bool enabled() const { return figures; }
};

/// One scripted step, as measured after it.
struct StepFigures {
    uint32_t step = 0;           ///< 1-based scripted step
    double max_speed = 0;        ///< m/s, fastest free particle in the frame; 0 while asleep
    double max_strain = 0;       ///< worst length/rest of a stretch edge now; 0 for a proxy with no edges
    double kinetic_energy = 0;   ///< J
    double total_energy = 0;     ///< J, kinetic + gravitational (frame origin) + soft-row elastic
    bool asleep = false;         ///< the solver slept through this step
    bool driven = false;         ///< the script moved or pushed something (left out of the energy trend)
};

/// A scenario's record.
struct ScenarioTrace {
    Scenario scenario = Scenario::hang;
    std::string clip;           ///< Scenario::clip: the clip's name; "" otherwise
    std::vector<StepFigures> steps;
    uint32_t frame_every = 0;   ///< steps between frames; 0 when none were recorded
    /// frame_steps[k] is the scripted step of frames[k] (0 = the starting pose, after any prelude);
    /// each frame is x,y,z per particle, metres, in the proxy's frame relative to the holders (so a
    /// teleport does not carry the cloth a kilometre off the model it is drawn over).
    std::vector<uint32_t> frame_steps;
    std::vector<std::vector<float>> frames;
};

/// {"scenario", "steps": {"step": [...], "max_speed": [...], ...}} — columns, so a plot reads one
/// array per figure. Deterministic.
nlohmann::json trace_json(const ScenarioTrace& trace);

/// CSV with a header: garment,scenario,step,max_speed,max_strain,kinetic_energy,total_energy,asleep,driven
/// (no header when `header` is false), one row per step.
std::string trace_csv(const std::string& garment, const ScenarioTrace& trace, bool header);

}  // namespace weft
