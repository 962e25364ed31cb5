// Headless validation of ClothProxy files (docs/validation.md): every chosen scenario run
// on a fresh solver, measured (measure.h), gated (gates.h), and reported as text or as JSON that
// validates against schemas/validation.schema.json ("schema": "weft.validation/1").
//
//   ValidationOptions options;                      // every scenario, default steps, suggested fabric
//   ValidationReport report{options.limits};
//   report.proxies.push_back(validate_file("cape.clothproxy", options));
//   std::cout << report_text(report);               // or report_json(report).dump(2)
//   return report.passed() ? 0 : 1;
#pragma once
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "proxy/core/cloth_proxy.h"
#include "fabric/fabric.h"
#include "solver/solver.h"
#include "solver/spare_capacity.h"
#include "validate/clip_motion.h"
#include "validate/gates.h"
#include "validate/measure.h"
#include "validate/run_list.h"
#include "validate/scenario.h"
#include "validate/trace.h"

namespace weft {

inline constexpr const char* validation_json_schema = "weft.validation/1";

/// One scenario to run and for how long.
struct ScenarioRun {
    Scenario scenario = Scenario::hang;
    uint32_t steps = 0;  ///< >= 1
    size_t clip = 0;     ///< Scenario::clip: index into ValidationOptions::clips
};

/// Every scenario at its default step count (hang, swing, sprint, teleport-reset, teleport-keep,
/// idle): about 4,900 steps, a few seconds for a thousand-particle sheet, so all of them by default.
std::vector<ScenarioRun> default_scenario_runs();

struct ValidationOptions {
    std::vector<ScenarioRun> scenarios = default_scenario_runs();
    std::optional<Fabric> fabric;  ///< every proxy in this fabric; none = each proxy's suggested one
    GateLimits limits;
    TraceOptions trace;  ///< record each scenario step by step (ProxyValidation::traces); off by default
    StepObserver observer;  ///< called after every scripted step of every scenario (measure.h); none by default
    /// Called as each run starts, before `observer` sees its first step: which run it is (a clip run's
    /// clip) for an observer that poses more than the solver sees; none by default.
    std::function<void(const ScenarioRun& run)> run_observer;
    /// Makes one run's own observer, called once per run in run order on the caller's thread before any
    /// run starts; what it returns sees that run's steps alone, after `observer`. Its state must be its
    /// own: with `spare` (and no `observer` or `run_observer`, which are shared) runs may go side by side.
    /// `stop` is that run's early exit: an observer gating what it measures calls stop.fail() once a
    /// gate has failed for good (docs/validation.md#early-exit); it outlives the run.
    std::function<StepObserver(const ScenarioRun& run, RunStop& stop)> observer_for_run;
    /// Stop a scenario once one of its gates has failed for good (docs/validation.md#early-exit): the
    /// verdict is the same, its figures are the worst up to that step. false: every run to its end.
    bool stop_early = true;
    /// Borrowed cores for the runs (RunList): with one, a validation with no shared observer runs its
    /// scenarios on extra threads while slots are free, and once every run has started a large proxy's
    /// solver splits its colours over the slots left (docs/solver.md#lanes); the results are the same,
    /// in run order. None by default: every run on the caller's thread.
    SpareCapacity* spare = nullptr;
    BodyShapes body;        ///< the character's colliders, model space at bind (body/body_shapes.h); none by default
    std::vector<ClipMotion> clips;  ///< the model's clips sampled (validate/clip_motion.h), run by Scenario::clip runs
    ClipChoice clip_choice;         ///< which clips a caller holding the model samples into `clips` (none by default)
    uint32_t clip_steps = 0;        ///< steps of each clip run the caller adds; 0: each clip's own (clip_default_steps)
    bool body_collides = true;      ///< false: a caller fitting the body measures penetration without contact
                                    ///< (BodyShapes::collide: how deep the cloth goes with no body to stop it)
    bool self_contact = true;  ///< the solve keeps the cloth a thickness clear of itself (SolverConstants::self_contact,
                               ///< docs/solver.md#self-contact); off only to see what it prevents
    /// > 0: each substep sweeps until no stretch edge is beyond 1 + this (SolverConstants::strain_target,
    /// docs/solver.md#iterating-to-a-target); 0, the default: the fabric's fixed budget, the one a runtime runs
    double strain_target = 0;
};

/// Appends one Scenario::clip run per clip of `options` at clip_default_steps, or at `steps` when not 0.
void add_clip_runs(ValidationOptions& options, uint32_t steps = 0);

/// Why a proxy could not be validated at all.
struct Refusal {
    std::string code;     ///< the loader's ProxyError name ("CHECKSUM_MISMATCH"), or "UNSIMULATABLE"
    std::string message;  ///< one line naming the file and what is wrong
};

/// A gate on what a proxy moves rather than on its particles: a rig's skinned mesh posed from the
/// simulation (MESH_STRETCH, SCALP_DISPLACEMENT, PENETRATION), measured by a caller that holds the model
/// (validate/model/rig_validate.h) and part of the proxy's verdict.
struct MeshGate {
    std::string gate;      ///< its code
    std::string scenario;  ///< scenario_label of the run
    bool passed = true;
    double value = 0;
    double limit = 0;
    std::string message;
};

/// Everything validation found out about one proxy.
struct ProxyValidation {
    std::string file;                  ///< as given; "" for a proxy validated from memory
    std::string garment;               ///< the proxy's garment name
    std::string kind;                  ///< "sheet" or "rig"
    uint32_t particles = 0;
    std::optional<Refusal> refused;    ///< set when nothing was run
    std::string fabric;                ///< the library entry (or custom fabric's name) simulated
    std::string fabric_source;         ///< "option" (--fabric), "proxy" (suggested_fabric) or "garment_class"
    Solver::RowCounts rows;            ///< as the solver built them for that fabric
    double reach = 0;                  ///< metres (docs/solver.md#reach)
    double velocity_clamp = 0;         ///< m/s at 60 Hz, full strength
    double energy_scale = 0;           ///< J, what ENERGY_RISING's fraction is of
    size_t body_colliders = 0;          ///< body colliders the scenarios ran with (ValidationOptions::body)
    size_t body_colliders_left_out = 0; ///< of ValidationOptions::body, those the cloth rests inside (body_clear_of_rest)
    bool body_simulated = true;         ///< false: the colliders were measured against, not simulated (BodyShapes::collide)
    std::optional<uint32_t> rest_crossings; ///< crossing triangle pairs of the rest pose (crossings.h); none without triangles
    std::vector<ScenarioStats> scenarios;
    std::vector<GateResult> gates;
    std::vector<MeshGate> mesh_gates;   ///< a rig validated with its model: its skinned mesh's gates, per scenario run
    std::vector<ScenarioTrace> traces;  ///< with ValidationOptions::trace: one per scenario, in order

    bool passed() const;
};

struct ValidationReport {
    GateLimits limits;
    std::vector<ProxyValidation> proxies;

    bool passed() const;
};

/// The fabric a proxy is simulated in without --fabric: its suggested_fabric when that names a
/// library entry, else the entry its garment class suggests (fabric_for_garment_class). `source`
/// receives "proxy" or "garment_class".
Fabric suggested_fabric(const ClothProxy& proxy, std::string* source = nullptr);

/// Runs every scenario of `options` on an in-memory proxy. A proxy the solver refuses comes back
/// refused with code UNSIMULATABLE and the solver's message; `file` only labels the result.
ProxyValidation validate_proxy(const ClothProxy& proxy, const ValidationOptions& options,
                               const std::string& file = "");

/// validate_proxy in three parts, so that several proxies' runs share one RunList (a model's garments
/// side by side on the same slots): the solver and the runs made, the runs added to a list (which
/// runs them), the result. `proxy` and `options` must outlive it, and the list must outlive it too
/// (its solvers' threads hold the list's slots). finish() gives what validate_proxy would, bit for bit.
class ProxyValidator {
public:
    /// `observer_for_run`, if any, makes each run an observer of its own besides the options' (as
    /// ValidationOptions::observer_for_run, after it): a caller measuring more than the solver sees
    /// (a rig's skinned mesh) adds its own without copying the options (their clips).
    ProxyValidator(const ClothProxy& proxy, const ValidationOptions& options, const std::string& file = "",
                   std::function<StepObserver(const ScenarioRun& run, RunStop& stop)> observer_for_run = {});
    ~ProxyValidator();
    ProxyValidator(ProxyValidator&&) noexcept;
    ProxyValidator& operator=(ProxyValidator&&) noexcept;

    /// Adds this proxy's scenario runs to `list`, each costing its steps × `step_cost` (0: the proxy's
    /// particles); with a shared observer (ValidationOptions::observer, run_observer) all of them as
    /// one run, in order.
    void add_runs(RunList& list, double step_cost = 0);
    /// After the list ran: the result, or the proxy refused (UNSIMULATABLE).
    ProxyValidation finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Loads `path` (load_proxy: safe for hostile bytes) and validates it; a file the loader refuses
/// comes back refused with the loader's named error.
ProxyValidation validate_file(const std::filesystem::path& path, const ValidationOptions& options);

/// The report as JSON (schemas/validation.schema.json). Everything but each scenario's "timing"
/// object is deterministic: the same proxies and options give the same JSON. Without `timings` the
/// "timing" objects are left out (weft bake keeps timings in bake-report.json alone).
nlohmann::json report_json(const ValidationReport& report, bool timings = true);

/// The report for people: per proxy its fabric, one line per scenario, every failed gate.
std::string report_text(const ValidationReport& report);

}  // namespace weft
