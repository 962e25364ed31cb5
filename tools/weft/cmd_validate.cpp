// weft validate PROXY... [--fabric F] [--scenario S]... [--steps N] [--json] [--report FILE]
//                        [--max-strain X] [--max-energy-rise X] [--max-sleep-step N]
//                        [--clips all|none|NAME,... [--model FILE]]
// Simulates every proxy headless through the scenarios of lib/validate and gates on what it measured
// (docs/validation.md). Text on standard output by default; --json puts the report (schemas/validation.schema.json)
// there instead and nothing else; --report also writes it to FILE. A file the loader refuses is one
// line on standard error naming it; the others are still validated. --clips also plays the model's
// own animation clips as scenarios (docs/validation.md#clips), reading the model the proxy was
// built from (its source_file, as given or beside the proxy) or --model. Exit 0 when every proxy
// loaded and passed every gate, 1 otherwise, 2 for a bad command line or a clip the model lacks.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.h"
#include "io/atomic_file.h"
#include "validate/model/clip_motions.h"
#include "proxy/file/proxy_file.h"
#include "scene/import.h"
#include "validate/validate.h"
#include "validate/validation_codes.h"

namespace weft::cli {
namespace {

struct ValidateOptions {
    std::vector<std::string> proxies;
    std::string fabric;
    std::vector<std::string> scenarios;
    uint32_t steps = 0;  ///< 0 = each scenario's default
    bool json = false;
    bool positions = false;
    std::string report;
    double max_strain = GateLimits{}.max_strain;
    double max_energy_rise = GateLimits{}.max_energy_rise;
    uint32_t max_sleep_step = 0;  ///< 0 = by hang's last step
    std::string trace;            ///< "" = none; else the per-step figures, .csv or .json
    std::string clips;            ///< --clips: "" = none (the proxy alone), else all, none or names
    std::string model;            ///< --model: the model to read the clips from; "" = each proxy's source_file
    double strain_target = 0;     ///< --strain-target: 0 = the fabric's fixed budget
    Verbosity verbosity;
};

/// The model a proxy was built from: --model, else its source_file as given (relative to the
/// working directory, as bake gave it), else a file of that name beside the proxy.
std::filesystem::path model_of(const ValidateOptions& o, const std::filesystem::path& proxy_path, const ClothProxy& proxy) {
    namespace fs = std::filesystem;
    if (!o.model.empty()) return o.model;
    std::error_code ec;
    const fs::path given = proxy.source_file;
    if (!given.empty() && fs::is_regular_file(given, ec)) return given;
    const fs::path beside = proxy_path.parent_path() / given.filename();
    if (!given.empty() && fs::is_regular_file(beside, ec)) return beside;
    return given;
}

/// The proxy at `path` validated with its model's clips (--clips). Returns false, after saying why
/// on standard error, for a clip the model lacks (a command-line error).
bool validate_with_clips(const ValidateOptions& o, const ValidationOptions& base, const std::string& path,
                         ProxyValidation& out) {
    DecodeResult loaded = load_proxy(path);
    if (!loaded.ok()) {
        out = validate_file(path, base);  // the loader's refusal, as without --clips
        return true;
    }
    const std::filesystem::path model = model_of(o, path, *loaded.proxy);
    ImportResult imported = import_scene(model);
    if (!imported.ok()) {
        out.file = path;
        out.garment = loaded.proxy->garment;
        std::string why = "cannot be read";
        for (const Issue& i : imported.issues)
            if (i.severity == Severity::error) {
                why = i.code + ": " + i.message;
                break;
            }
        out.refused = Refusal{std::string(kClipModelUnreadable.code), path + ": --clips: its model '" + model.string() + "' " + why +
                                                      " (name it with --model)"};
        return true;
    }
    ValidationOptions options = base;
    options.clip_choice = ClipChoice::parse(o.clips);
    Issues issues;
    add_clip_scenarios(imported.scene, model.string(), options, issues, o.steps);
    for (const Issue& i : issues) {
        std::cerr << "weft validate: --clips: " << i.message << " [" << i.code << "]\n";
        return false;
    }
    out = validate_proxy(*loaded.proxy, options, path);
    return true;
}

int run_validate(const ValidateOptions& o) {
    ValidationOptions options;
    if (!o.fabric.empty()) {
        options.fabric = find_fabric(o.fabric);
        if (!options.fabric) {
            std::cerr << "weft validate: --fabric " << o.fabric << ": no such fabric (the library has "
                      << fabric_library_names() << ")\n";
            return exit_usage;
        }
    }
    if (!o.scenarios.empty()) {
        options.scenarios.clear();
        for (const std::string& name : o.scenarios) {
            std::vector<Scenario> parsed = parse_scenario(name);
            if (parsed.empty()) {
                std::cerr << "weft validate: --scenario " << name
                          << ": no such scenario (hang, swing, sprint, teleport, teleport-reset, teleport-keep, idle)\n";
                return exit_usage;
            }
            for (Scenario s : parsed) {
                bool seen = false;
                for (const ScenarioRun& r : options.scenarios) seen = seen || r.scenario == s;
                if (!seen) options.scenarios.push_back({s, default_steps(s)});
            }
        }
    }
    if (o.steps > 0)
        for (ScenarioRun& r : options.scenarios) r.steps = o.steps;
    options.limits.max_strain = o.max_strain;
    options.limits.max_energy_rise = o.max_energy_rise;
    if (o.max_sleep_step > 0) options.limits.max_sleep_step = o.max_sleep_step;
    options.trace.figures = !o.trace.empty();
    options.strain_target = o.strain_target;

    const bool progress = !o.verbosity.quiet && isatty(STDERR_FILENO) != 0;  // quiet in CI logs (docs/architecture.md#conventions)
    ValidationReport report{options.limits, {}};
    for (size_t i = 0; i < o.proxies.size(); ++i) {
        if (progress) std::cerr << "validating " << (i + 1) << "/" << o.proxies.size() << ": " << o.proxies[i] << "\r" << std::flush;
        ProxyValidation v;
        if (o.clips.empty() || o.clips == "none") {
            v = validate_file(o.proxies[i], options);
        } else if (!validate_with_clips(o, options, o.proxies[i], v)) {
            if (progress) std::cerr << "\n";
            return exit_usage;
        }
        if (v.refused) {
            if (progress) std::cerr << "\n";
            std::cerr << "weft validate: " << v.refused->message << "\n";
        }
        report.proxies.push_back(std::move(v));
    }
    if (progress) std::cerr << "\n";

    const nlohmann::json json = report_json(report);
    int status = report.passed() ? exit_ok : exit_refused;
    if (!o.trace.empty()) {
        // CSV when the file says so (one table, a garment and a scenario per row), else JSON.
        std::string text;
        if (o.trace.ends_with(".csv")) {
            for (const ProxyValidation& v : report.proxies)
                for (const ScenarioTrace& t : v.traces) text += trace_csv(v.garment, t, text.empty());
            if (text.empty()) text = trace_csv("", ScenarioTrace{}, true);
        } else {
            nlohmann::json proxies = nlohmann::json::array();
            for (const ProxyValidation& v : report.proxies) {
                nlohmann::json scenarios = nlohmann::json::array();
                for (const ScenarioTrace& t : v.traces) scenarios.push_back(trace_json(t));
                proxies.push_back({{"file", v.file}, {"garment", v.garment}, {"scenarios", scenarios}});
            }
            text = nlohmann::json{{"schema", "weft.trace/1"}, {"dt", validation_dt}, {"proxies", proxies}}.dump(1) + "\n";
        }
        if (std::string why = write_file_atomic(o.trace, std::string_view(text)); !why.empty()) {
            std::cerr << "weft validate: --trace: " << why << "\n";
            status = exit_refused;
        }
    }
    if (!o.report.empty()) {
        if (std::string why = write_file_atomic(o.report, std::string_view(json.dump(2) + "\n")); !why.empty()) {
            std::cerr << "weft validate: " << why << "\n";
            status = exit_refused;
        }
    }
    std::cout << (o.json ? json.dump(2) + "\n" : report_text(report));
    if (o.positions && !o.json) {
        // Where each particle ended, in the frame, round-trip precision: what an embedded runtime
        // stepping the same proxy the same way prints (examples/runtime/run_proxy.c).
        char line[160];
        for (const ProxyValidation& v : report.proxies)
            for (const ScenarioStats& st : v.scenarios) {
                std::cout << "positions " << v.file << " " << scenario_label(st.scenario, st.clip) << " after " << st.steps << " steps\n";
                for (size_t i = 0; i < st.final_positions.size(); ++i) {
                    const Vec3& x = st.final_positions[i];
                    std::snprintf(line, sizeof line, "%zu %.17g %.17g %.17g\n", i, x.x, x.y, x.z);
                    std::cout << line;
                }
            }
    }
    return status;
}

const CommandRegistration validate_registration{
    "validate", "Simulate proxies headless and gate on what they do (schemas/validation.schema.json)", 50,
    [](CLI::App& app) {
        auto o = std::make_shared<ValidateOptions>();
        app.add_option("proxy", o->proxies, "The .clothproxy files")->required();
        app.add_option("--fabric", o->fabric, "Simulate every proxy in this library fabric (default: each proxy's suggestion)");
        app.add_option("--scenario", o->scenarios,
                       "hang, swing, sprint, teleport (both modes), teleport-reset, teleport-keep, idle; repeat or "
                       "comma-separate (default: all)")
            ->delimiter(',');
        app.add_option("--steps", o->steps, "Steps per scenario, replacing each one's default")
            ->check(CLI::Range(1u, 1000000u));
        app.add_flag("--json", o->json, "Print the JSON report on standard output, nothing else");
        app.add_option("--report", o->report, "Also write the JSON report to this file")->check(non_empty_path);
        app.add_flag("--positions", o->positions,
                     "After the text report, every particle's position in the frame at the end of each scenario");
        app.add_option("--max-strain", o->max_strain, "STRAIN gate: worst length/rest allowed (default 1.10)")
            ->check(finite_number & CLI::Range(1.0, 1e9));
        app.add_option("--max-energy-rise", o->max_energy_rise,
                       "ENERGY_RISING gate: energy rise over the undriven last third allowed, as a fraction of the "
                       "proxy's energy scale (default 1e-3)")
            ->check(finite_number & CLI::Range(0.0, 1e9));
        app.add_option("--max-sleep-step", o->max_sleep_step,
                       "NEVER_SLEPT gate: hang must sleep by this step (default: by its last)")
            ->check(CLI::Range(1u, 1000000u));
        app.add_option("--trace", o->trace,
                       "Write every step's figures (speed, strain, energy) to FILE: CSV when it ends in .csv, else "
                       "JSON (schemas/trace.schema.json)")
            ->check(non_empty_path);
        app.add_option("--clips", o->clips,
                       "Also play the model's animation clips as scenarios (clip:NAME): all, none or NAME,... "
                       "(default none); the model is the proxy's source_file or --model");
        app.add_option("--model", o->model, "With --clips: the model to read the clips from")->check(non_empty_path);
        app.add_option("--strain-target", o->strain_target,
                       "Sweep each substep until no stretch edge is beyond 1 + this (0.02: 2%), instead of the "
                       "fabric's fixed iterations (default 0: the fabric's budget, the one a runtime runs); the "
                       "sweeps taken are in the report")
            ->check(finite_number & CLI::Range(0.0, 1.0));
        add_verbosity(app, o->verbosity);
        return [o] { return run_validate(*o); };
    }};

}  // namespace
}  // namespace weft::cli
