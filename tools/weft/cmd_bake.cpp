// weft bake INPUT... -o OUT [-j N] [--no-grow] [--classes hair,skirt] [--config FILE]
// [--validate] [--fabric F] [--force] [--depfile FILE] [--report FILE] [--max-memory MIB]
// [--time-limit S] [-q] [-v]: every model under the inputs
// (files, or folders walked for every extension Assimp reads plus .vrm) baked into OUT/<relative
// path>/ (rig proxies from authored and grown chains, sheet proxies for the other garments, one
// sidecar), in parallel, skipping models whose inputs, options and tool version did not change
// (lib/batch/bake.h), each model in a worker process of its own (a crash, an
// out-of-memory or a runaway model fails only that model). Writes OUT/bake-report.json (schemas/bake-report.schema.json).
// Progress on standard error: one line per model (an updating line on a terminal), none with -q,
// every issue with -v; then the summary line (docs/architecture.md#exit-status). Exit 0 when every
// model was built (now or, unchanged, before), 1 when any was refused or failed or an input could
// not be read (the others are still baked) or an INPUT does not exist (then nothing is baked or
// written), 2 for a wrong command line.
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "bake_run.h"
#include "batch/bake.h"
#include "batch/process_memory.h"
#include "command.h"
#include "fabric/fabric.h"
#include "garment/config.h"

namespace weft::cli {
namespace {

namespace fs = std::filesystem;

struct BakeCommandOptions {
    std::vector<std::string> inputs;
    std::string out;
    int jobs = 1;
    bool no_grow = false;
    bool grow_cloth = false;  ///< the default now; kept so older build scripts still run
    bool validate = false;
    std::string clips;  ///< --clips: "" = the defaults (walk, run, idle, jump), "all", "none" or names
    bool no_collide = false;  ///< --no-collide: the body's colliders measured, not simulated
    std::string classes = "hair,skirt";
    std::string config;
    std::string fabric;
    bool allow_outside_folder = false;
    bool force = false;
    std::string depfile;
    std::string report;
    bool json = false;
    bool no_page = false;
    Verbosity verbosity;
    bool no_isolate = false;
    uint64_t max_memory_mib = 4096;
    double time_limit = 300;
};

/// The library's options from the command line's; a usage error (exit 2) is printed and returned.
std::optional<int> bake_options(const BakeCommandOptions& c, BakeOptions& o) {
    const std::string who = "weft bake";
    for (const std::string& in : c.inputs) o.inputs.emplace_back(in);
    o.out_dir = c.out;
    o.jobs = c.jobs;
    o.model.grow_cloth = !c.no_grow;
    if (c.validate) {
        o.model.validate = ValidationOptions{};
        o.model.validate->clip_choice = ClipChoice::parse(c.clips);
        o.model.validate->body_collides = !c.no_collide;
    }
    o.model.force = c.force;
    o.model.page = !c.no_page;
    o.isolate = !c.no_isolate;
    o.max_memory_bytes = c.max_memory_mib << 20;
    o.time_limit_seconds = c.time_limit;
    // The config: --config, else weft.json at the root of the first folder given (README, "Config file").
    if (!c.config.empty()) {
        o.model.config_file = c.config;
    } else {
        for (const fs::path& in : o.inputs) {
            std::error_code ec;
            if (fs::is_directory(in, ec)) {
                if (fs::is_regular_file(in / "weft.json", ec)) o.model.config_file = in / "weft.json";
                break;
            }
        }
    }
    if (!o.model.config_file.empty()) {
        ConfigResult loaded = load_garment_config(o.model.config_file);
        if (!loaded.error.empty()) {
            std::cerr << who << ": --config: " << loaded.error << "\n";
            return exit_usage;
        }
        o.model.garments.config = std::move(loaded.config);
    }
    if (!c.fabric.empty() && !find_fabric(c.fabric)) {
        std::cerr << who << ": --fabric: '" << c.fabric << "' is not a library fabric (" << fabric_library_names()
                  << ")\n";
        return exit_usage;
    }
    o.model.sheet.fabric = c.fabric;
    o.model.rig.fabric = c.fabric;
    o.model.import.allow_outside_folder = c.allow_outside_folder;
    std::string error;
    o.model.grow.classes = select_classes(c.classes, o.model.garments.config.classes, error);
    if (!error.empty()) {
        std::cerr << who << ": --classes: " << error << "\n";
        return exit_usage;
    }
    if (std::string why = grow_options_error(o.model.grow); !why.empty()) {
        std::cerr << who << ": " << why << "\n";
        return exit_usage;
    }
    o.model.options_text = "classes=" + c.classes + ";fabric=" + c.fabric + ";grow_cloth=" + (o.model.grow_cloth ? "1" : "0") +
                     ";validate=" + (c.validate ? "1" : "0") +
                     (c.validate && !c.clips.empty() ? ";clips=" + c.clips : std::string()) +
                     (c.validate && c.no_collide ? ";collide=0" : std::string()) + ";page=" + (c.no_page ? "0" : "1");
    return std::nullopt;
}

int run_bake(const BakeCommandOptions& c) {
    const std::string who = "weft bake";
    BakeOptions o;
    if (std::optional<int> usage = bake_options(c, o)) return *usage;
    // A missing INPUT is an error before anything is written: no OUT, no report, no page.
    if (!inputs_exist(o.inputs, who)) return exit_refused;
    tune_process_memory();  // before bake starts its workers
    const BakeResult result = bake(o, bake_progress(who, c.verbosity));
    return finish_bake(result, o,
                       {who, o.out_dir, fs::path(c.report), fs::path(c.depfile), c.json, !c.no_page, c.verbosity});
}

const CommandRegistration bake_registration{
    "bake", "Bake every model under files or folders into cloth assets, in parallel and incrementally", 5,
    [](CLI::App& app) {
        auto o = std::make_shared<BakeCommandOptions>();
        app.add_option("inputs", o->inputs, "Model files or folders (walked for every format Assimp reads, and .vrm)")
            ->required();
        app.add_option("-o,--out", o->out, "Output folder: OUT/<relative path>/ per model, OUT/bake-report.json")
            ->required()
            ->check(non_empty_path);
        app.add_option("-j,--jobs", o->jobs, "Models baked at once (one worker process each)")->check(CLI::Range(1, 256))->capture_default_str();
        auto* no_grow = app.add_flag("--no-grow", o->no_grow,
                                     "Do not grow bone chains for hair and skirts that have none (they become sheets)");
        app.add_flag("--grow-cloth", o->grow_cloth, "Grow bone chains for hair and skirts that have none (the default)")
            ->excludes(no_grow);
        app.add_flag("--validate", o->validate,
                     "Simulate every proxy written (every scenario of weft validate); a failed gate refuses the model");
        app.add_option("--clips", o->clips,
                       "With --validate: the model's animation clips to play as scenarios: all, none or NAME,... "
                       "(default: the clips whose names say walk, run, idle or jump, one each)");
        app.add_flag("--no-collide", o->no_collide,
                     "With --validate: the body's colliders are measured against but not simulated: how deep the cloth "
                     "goes with no body to stop it (PENETRATION then fails where it does)");
        app.add_option("--classes", o->classes, "Garment classes to grow, comma-separated")
            ->capture_default_str();
        app.add_option("--config", o->config,
                       "Garment config file (schemas/config.schema.json); default INPUT/weft.json when present")
            ->check(non_empty_path);
        app.add_option("--fabric", o->fabric, "Library fabric for every garment instead of the class's");
        app.add_flag("--allow-outside-folder", o->allow_outside_folder, "Let models read files outside their own folder (buffers, images, material libraries named by .., an absolute path or a link out); FIFOs and devices are refused either way");
        app.add_flag("--force", o->force, "Rebuild every model even when its inputs did not change");
        app.add_option("--depfile", o->depfile, "Write a Make/Ninja depfile: the report depends on every input read")
            ->check(non_empty_path);
        app.add_option("--report", o->report, "Also write bake-report.json to this file")->check(non_empty_path);
        app.add_flag("--json", o->json, "Print bake-report.json on standard output, nothing else there");
        app.add_flag("--no-page", o->no_page, "No OUT/index.html, view.html or thumbnail.png (the page costs a few ms a model)");
        app.add_option("--max-memory", o->max_memory_mib,
                       "Memory per model in MiB (address space of its worker process; 0 = no limit): past it the model is OUT_OF_MEMORY")
            ->capture_default_str();
        app.add_option("--time-limit", o->time_limit,
                       "Wall-clock seconds per model (import, build, simulation; 0 = no limit): past it the model is TIMED_OUT")
            ->check(finite_number & CLI::NonNegativeNumber)
            ->capture_default_str();
        app.add_flag("--no-isolate", o->no_isolate,
                     "Bake in threads of this process instead of worker processes (for a debugger; a crash then ends the run)");
        add_verbosity(app, o->verbosity);
        return [o] { return run_bake(*o); };
    }};

}  // namespace
}  // namespace weft::cli
