#include "model_flags.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "command.h"
#include "fabric/fabric.h"
#include "garment/config.h"
#include "grow/grow.h"
#include "proxy/sheet_builder.h"
#include "validate/scenario.h"

namespace weft::cli {
namespace {

namespace fs = std::filesystem;

/// A number as its shortest exact decimal ("0.06", "1e-05").
std::string exact_number(double v) {
    char text[32];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, v);
        if (std::strtod(text, nullptr) == v) break;
    }
    return text;
}

constexpr const char* kAllowOutside =
    "Let models read files outside their own folder (buffers, images, material libraries named by .., an absolute path "
    "or a link out); FIFOs and devices are refused either way";

void add_input_flags(CLI::App& app, ModelFlags& f) {
    app.add_option("--config", f.config,
                   "Garment config file (schemas/config.schema.json); default: weft.json at the root of the first folder given")
        ->check(non_empty_path);
    app.add_flag("--allow-outside-folder", f.allow_outside_folder, kAllowOutside);
}

void add_grow_flags(CLI::App& app, ModelFlags& f) {
    auto* no_grow = app.add_flag("--no-grow", f.no_grow,
                                 "Do not grow bone chains for garments of --classes that have none (they become sheets)");
    app.add_flag("--grow-cloth", f.grow_cloth, "Grow bone chains where a garment of --classes has none (the default)")
        ->excludes(no_grow);
    app.add_option("--classes", f.classes, "Garment classes to grow chains for, comma-separated")->capture_default_str();
    app.add_option("--hair-segments", f.hair_segments, "Bones per grown hair strand or cap wedge")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    app.add_option("--skirt-segments", f.skirt_segments, "Bones per grown skirt panel")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    app.add_option("--skirt-panels", f.skirt_panels, "Radial panels grown around a skirt or a hair cap")
        ->check(CLI::Range(3, 256))
        ->capture_default_str();
    app.add_option("--min-strand-length", f.min_strand_length,
                   "Metres: clumps shorter than this from their anchored end are not grown (default " +
                       exact_number(kMinStrandLength) + ")")
        ->check(finite_number & CLI::Range(0.0, 100.0));
    app.add_option("--min-strand-verts", f.min_strand_verts,
                   "Clumps with fewer welded vertices are not grown (default " + std::to_string(kMinStrandVerts) + ")")
        ->check(CLI::Range(int64_t{0}, int64_t{1000000000}));
}

void add_spring_flags(CLI::App& app, ModelFlags& f) {
    app.add_flag("--retune-springs", f.retune_springs,
                 "Give the model's authored spring bones weft's settings for their fabric (the report lists every value "
                 "changed, old and new); by default they are kept as authored");
    app.add_flag("--collide-authored-springs", f.collide_authored_springs,
                 "In a model that declares no spring collider of its own, let its authored springs collide with the "
                 "fitted body colliders");
}

void add_validation_flags(CLI::App& app, ModelFlags& f) {
    app.add_option("--scenario", f.scenarios,
                   "Scenarios to run: hang, swing, sprint, teleport (both modes), teleport-reset, teleport-keep, idle; "
                   "repeat or comma-separate (default: all)")
        ->delimiter(',');
    app.add_option("--steps", f.steps, "Steps per scenario, replacing each one's default")->check(CLI::Range(1u, kMaxScenarioSteps));
    app.add_option("--clips", f.clips,
                   "The model's animation clips to play as scenarios (clip:NAME): all, none or NAME,... (default: the "
                   "clips whose names say walk, run, idle or jump, one each)");
    app.add_flag("--no-collide", f.no_collide,
                 "The body's colliders are measured against but not simulated: how deep the cloth goes with no body to "
                 "stop it (PENETRATION then fails where it does)");
    app.add_flag("--whole-runs", f.whole_runs,
                 "Run every scenario to its end: by default a scenario stops once a gate judged on its worst so far "
                 "has failed for good (docs/validation.md#early-exit)");
    app.add_option("--max-strain", f.max_strain, "STRAIN gate: worst length/rest allowed (default 1.10)")
        ->check(finite_number & CLI::Range(1.0, 1e9));
    app.add_option("--max-energy-rise", f.max_energy_rise,
                   "ENERGY_RISING gate: energy rise over the undriven last third allowed, as a fraction of the proxy's "
                   "energy scale (default 1e-3)")
        ->check(finite_number & CLI::Range(0.0, 1e9));
    app.add_option("--max-sleep-step", f.max_sleep_step, "NEVER_SLEPT gate: hang must sleep by this step (default: by its last)")
        ->check(CLI::Range(1u, kMaxScenarioSteps));
    app.add_option("--strain-target", f.strain_target,
                   "Sweep each substep until no stretch edge is beyond 1 + this (0.02: 2%), instead of the fabric's fixed "
                   "iterations (default 0: the fabric's budget, the one a runtime runs)")
        ->check(finite_number & CLI::Range(0.0, 1.0));
}

/// The same flags as `weft bake`'s (cmd_bake.cpp), with the same defaults and ranges: here for a
/// command that reads its models in its own process (batch/model_limits.h).
void add_limit_flags(CLI::App& app, ModelFlags& f) {
    app.add_option("--max-memory", f.max_memory_mib,
                   "Memory in MiB (address space of this process; 0 = no limit): a model needing more is OUT_OF_MEMORY "
                   "and the next one is read")
        ->check(memory_limit_range)
        ->capture_default_str();
    app.add_option("--time-limit", f.time_limit,
                   "Wall-clock seconds per model (0 = no limit): past it the command stops there, naming the model and "
                   "its stage (TIMED_OUT, exit 1)")
        ->check(finite_number & time_limit_range)
        ->capture_default_str();
}

/// The config a command reads: --config, else weft.json at the root of the first folder given.
fs::path config_file(const ModelFlags& f, const std::vector<std::string>& inputs) {
    if (!f.config.empty()) return f.config;
    for (const std::string& in : inputs) {
        std::error_code ec;
        if (fs::is_directory(in, ec)) {
            if (fs::is_regular_file(fs::path(in) / "weft.json", ec)) return fs::path(in) / "weft.json";
            break;
        }
    }
    return {};
}

bool apply_grow_flags(const ModelFlags& f, const std::string& who, ModelOptions& o) {
    o.grow_cloth = !f.no_grow;
    std::string error;
    o.grow.classes = select_classes(f.classes, o.garments.config.classes, error);
    if (!error.empty()) {
        std::cerr << who << ": --classes: " << error << "\n";
        return false;
    }
    o.grow.hair_segments = f.hair_segments;
    o.grow.skirt_segments = f.skirt_segments;
    o.grow.skirt_panels = f.skirt_panels;
    if (f.min_strand_length >= 0) o.grow.min_strand_length = f.min_strand_length;
    if (f.min_strand_verts >= 0) o.grow.min_strand_verts = static_cast<uint32_t>(f.min_strand_verts);
    if (std::string why = grow_options_error(o.grow); !why.empty()) {
        std::cerr << who << ": " << why << "\n";
        return false;
    }
    return true;
}


/// A rule's fabric and pin are read by later stages (the garment stage carries them through unread):
/// checked here, when the config is loaded, so a bad one is a bad command line naming the file and the
/// rule's JSON pointer, not an error on each garment it reaches later.
std::string config_rules_error(const GarmentConfig& config, const fs::path& origin) {
    for (const GarmentRule& rule : config.rules) {
        if (!rule.fabric.empty() && !find_fabric(rule.fabric))
            return origin.string() + ": " + rule.pointer + "/fabric: '" + rule.fabric + "' is not a library fabric (" +
                   fabric_library_names() + ")";
        if (!rule.pin.is_null()) {
            SheetOptions scratch;
            if (std::string why = apply_pin_json(rule.pin, scratch); !why.empty())
                return origin.string() + ": " + rule.pointer + "/pin: " + why;
        }
    }
    return "";
}
}  // namespace

void add_model_flags(CLI::App& app, ModelFlags& flags, unsigned groups) {
    if (groups & model_flags_input) add_input_flags(app, flags);
    if (groups & model_flags_grow) add_grow_flags(app, flags);
    if (groups & model_flags_fabric)
        app.add_option("--fabric", flags.fabric, "Library fabric for every garment instead of the one its class suggests (" +
                                                     fabric_library_names() + ")");
    if (groups & model_flags_validate)
        app.add_flag("--validate", flags.validate,
                     "Simulate every proxy built through the scenarios and the model's clips, with its body; a failed gate "
                     "refuses the model (the verdict of weft validate)");
    if (groups & model_flags_springs) add_spring_flags(app, flags);
    if (groups & model_flags_validation) add_validation_flags(app, flags);
    if (groups & model_flags_limits) add_limit_flags(app, flags);
}

bool validation_options_from_flags(const ModelFlags& f, const std::string& who, ValidationOptions& options) {
    if (!f.scenarios.empty()) {
        options.scenarios.clear();
        for (const std::string& name : f.scenarios) {
            std::vector<Scenario> parsed = parse_scenario(name);
            if (parsed.empty()) {
                std::cerr << who << ": --scenario " << name
                          << ": no such scenario (hang, swing, sprint, teleport, teleport-reset, teleport-keep, idle)\n";
                return false;
            }
            for (Scenario s : parsed) {
                bool seen = false;
                for (const ScenarioRun& r : options.scenarios) seen = seen || r.scenario == s;
                if (!seen) options.scenarios.push_back({s, default_steps(s)});
            }
        }
    }
    if (f.steps > 0)
        for (ScenarioRun& r : options.scenarios) r.steps = f.steps;
    if (f.max_strain > 0) options.limits.max_strain = f.max_strain;
    if (f.max_energy_rise >= 0) options.limits.max_energy_rise = f.max_energy_rise;
    if (f.max_sleep_step > 0) options.limits.max_sleep_step = f.max_sleep_step;
    options.strain_target = f.strain_target;
    options.clip_choice = ClipChoice::parse(f.clips);
    options.clip_steps = f.steps;
    options.body_collides = !f.no_collide;
    options.stop_early = !f.whole_runs;
    if (!f.fabric.empty()) {
        options.fabric = find_fabric(f.fabric);
        if (!options.fabric) {
            std::cerr << who << ": --fabric: '" << f.fabric << "' is not a library fabric (" << fabric_library_names() << ")\n";
            return false;
        }
    }
    return true;
}

bool apply_model_flags(const ModelFlags& f, unsigned groups, const std::vector<std::string>& inputs, const std::string& who,
                       ModelOptions& o) {
    if (groups & model_flags_input) {
        o.import.allow_outside_folder = f.allow_outside_folder;
        o.config_file = config_file(f, inputs);
        if (!o.config_file.empty()) {
            ConfigResult loaded = load_garment_config(o.config_file);
            if (loaded.error.empty()) loaded.error = config_rules_error(loaded.config, o.config_file);
            if (!loaded.error.empty()) {
                std::cerr << who << ": --config: " << loaded.error << "\n";
                return false;
            }
            o.garments.config = std::move(loaded.config);
        }
    }
    if ((groups & model_flags_grow) && !apply_grow_flags(f, who, o)) return false;
    if (groups & model_flags_fabric) {
        if (!f.fabric.empty() && !find_fabric(f.fabric)) {
            std::cerr << who << ": --fabric: '" << f.fabric << "' is not a library fabric (" << fabric_library_names() << ")\n";
            return false;
        }
        o.sheet.fabric = f.fabric;
        o.rig.fabric = f.fabric;
    }
    if (groups & model_flags_springs) {
        o.retune_springs = f.retune_springs;
        o.collide_authored_springs = f.collide_authored_springs;
    }
    if ((groups & model_flags_validation) && (f.validate || !(groups & model_flags_validate))) {
        ValidationOptions v;
        ModelFlags built_with = f;
        built_with.fabric.clear();  // the proxies are built in it: they are simulated as built
        if (!validation_options_from_flags(built_with, who, v)) return false;
        o.validate = std::move(v);
    }
    return true;
}

std::unique_ptr<ModelWatchdog> apply_model_limits(const ModelFlags& f, const std::string& who) {
    auto watchdog = std::make_unique<ModelWatchdog>(who, f.time_limit);  // its thread before the cap
    limit_address_space(f.max_memory_mib);
    return watchdog;
}

std::string model_flags_text(const ModelFlags& f, unsigned groups) {
    const auto exact = exact_number;
    std::string t;
    auto add = [&t](const std::string& key, const std::string& value) { t += key + "=" + value + ";"; };
    if (groups & model_flags_grow) {
        add("grow", f.no_grow ? "0" : "1");
        add("classes", f.classes);
        add("hair_segments", std::to_string(f.hair_segments));
        add("skirt_segments", std::to_string(f.skirt_segments));
        add("skirt_panels", std::to_string(f.skirt_panels));
        add("min_strand_length", f.min_strand_length < 0 ? std::string("default") : exact(f.min_strand_length));
        add("min_strand_verts", f.min_strand_verts < 0 ? std::string("default") : std::to_string(f.min_strand_verts));
    }
    if (groups & model_flags_fabric) add("fabric", f.fabric);
    if (groups & model_flags_input) add("allow_outside_folder", f.allow_outside_folder ? "1" : "0");
    if (groups & model_flags_springs) {
        add("retune_springs", f.retune_springs ? "1" : "0");
        add("collide_authored_springs", f.collide_authored_springs ? "1" : "0");
    }
    if ((groups & model_flags_validate) && !f.validate) {
        add("validate", "0");
        return t;
    }
    add("validate", "1");
    std::string scenarios;
    for (const std::string& s : f.scenarios) scenarios += s + ",";
    add("scenarios", scenarios);
    add("steps", std::to_string(f.steps));
    add("clips", f.clips);
    add("collide", f.no_collide ? "0" : "1");
    add("max_strain", exact(f.max_strain));
    add("max_energy_rise", exact(f.max_energy_rise));
    add("max_sleep_step", std::to_string(f.max_sleep_step));
    add("strain_target", exact(f.strain_target));
    if (f.whole_runs) add("whole_runs", "1");  // only when set: stamps written without the flag stay current
    return t;
}

}  // namespace weft::cli
