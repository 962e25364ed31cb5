// The gates of headless validation (docs/validation.md#gates): pass or fail on what measure.h measured, with limits
// an author can override. Separate from measuring so a limit can change without re-simulating.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "validate/measure.h"

namespace weft {

struct GateLimits {
    double max_strain = 1.10;                ///< worst length/rest of a stretch edge allowed in any scenario
                                             ///< (--max-strain); skips are bend rows and are not gated
    double max_energy_rise = 1e-3;           ///< fitted rise of total energy over the undriven last third, as
                                             ///< a fraction of energy_scale() (--max-energy-rise)
    std::optional<uint32_t> max_sleep_step;  ///< hang must be asleep by this step; nullopt = by its last step
                                             ///< (--max-sleep-step)
    double max_penetration = 1.0;            ///< deepest a free particle may sink into a body collider, in the
                                             ///< fabric's thicknesses (docs/validation.md#penetration)
    uint32_t max_crossings = 0;              ///< crossing triangle pairs allowed at the end of a scenario beyond those
                                             ///< of the rest pose (docs/validation.md#self-intersection)
    double max_mesh_stretch = 1.10;          ///< worst posed/rest length of a bound render-mesh edge allowed in any scenario
                                             ///< (docs/validation.md#the-bound-render-mesh), as the rig path's MESH_STRETCH
};

/// Stable gate codes (gate_code gives the SCREAMING_SNAKE name reports use; never reworded).
enum class Gate : uint8_t {
    non_finite,     ///< NON_FINITE: a NaN or infinity appeared (every scenario)
    never_slept,    ///< NEVER_SLEPT: hang did not sleep by max_sleep_step
    strain,         ///< STRAIN: some stretch edge stretched past max_strain (every scenario)
    energy_rising,  ///< ENERGY_RISING: total energy rose over the undriven last third (every scenario that has one)
    penetration,    ///< PENETRATION: a free particle sank deeper than the limit into a body collider (every scenario
                    ///< run with a body)
    self_intersection,  ///< SELF_INTERSECTION: more triangle pairs crossed at the end than at rest (every scenario of a
                        ///< proxy with triangles)
    mesh_stretch,   ///< MESH_STRETCH: an edge of a sheet's bound render mesh stretched past the limit (every scenario
                    ///< of a proxy with a binding)
    face_inside_out,  ///< FACE_INSIDE_OUT: a face of a two-sided sheet's render mesh, drawn with its thickness, turned
                      ///< inside out against the cloth (every scenario of a two-sided sheet)
};

const char* gate_code(Gate gate);

struct GateResult {
    Gate gate = Gate::non_finite;
    Scenario scenario = Scenario::hang;
    std::string clip;             ///< Scenario::clip: the clip's name (scenario_label); "" otherwise
    bool passed = true;
    std::optional<double> value;  ///< what was measured (NON_FINITE, NEVER_SLEPT: a 1-based step); none = never happened
    std::optional<double> limit;  ///< what it was held to; none for NON_FINITE (nothing non-finite is allowed)
    std::string message;          ///< one line with the scenario, the numbers and, on failure, where
};

/// Every gate that applies to every scenario, in scenario order, then NON_FINITE, NEVER_SLEPT,
/// STRAIN, ENERGY_RISING, PENETRATION, SELF_INTERSECTION, MESH_STRETCH, FACE_INSIDE_OUT. `energy_scale` is energy_scale(proxy), J;
/// `thickness` the fabric's, metres (PENETRATION's limit is limits.max_penetration of it);
/// `rest_crossings` the rest pose's crossing triangle pairs (SELF_INTERSECTION's limit is
/// limits.max_crossings more).
std::vector<GateResult> evaluate_gates(std::span<const ScenarioStats> scenarios, double energy_scale,
                                       const GateLimits& limits, double thickness = 0, uint32_t rest_crossings = 0);

/// True when no result failed.
/// For a run stopped early (ScenarioStats::stopped_step, docs/validation.md#early-exit), what every gate's
/// message of that run ends with: how much of the run it judged and why; "" for a run that reached its end.
std::string stopped_note(const ScenarioStats& s);

bool all_passed(std::span<const GateResult> results);

}  // namespace weft
