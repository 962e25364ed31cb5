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

#include "bake_run.h"
#include "interrupt.h"
#include "batch/bake.h"
#include "batch/process_memory.h"
#include "command.h"
#include "model_flags.h"

namespace weft::cli {
namespace {

namespace fs = std::filesystem;

struct BakeCommandOptions {
    std::vector<std::string> inputs;
    std::string out;
    int jobs = 1;
    ModelFlags model;
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

/// bake takes every model flag (model_flags.h).
constexpr unsigned kBakeFlags =
    model_flags_input | model_flags_grow | model_flags_fabric | model_flags_springs | model_flags_validate |
    model_flags_validation;

int run_bake(const BakeCommandOptions& c) {
    const std::string who = "weft bake";
    BakeOptions o;
    for (const std::string& in : c.inputs) o.inputs.emplace_back(in);
    o.out_dir = c.out;
    o.jobs = jobs_for(c.jobs);
    o.model.force = c.force;
    o.model.page = !c.no_page;
    o.isolate = !c.no_isolate;
    o.max_memory_bytes = c.max_memory_mib << 20;
    o.time_limit_seconds = c.time_limit;
    if (!apply_model_flags(c.model, kBakeFlags, c.inputs, who, o.model)) return exit_usage;
    o.model.options_text = model_flags_text(c.model, kBakeFlags) + "page=" + (c.no_page ? "0" : "1");
    // A missing INPUT is an error before anything is written: no OUT, no report, no page.
    if (!inputs_exist(o.inputs, who) || !out_writable(o.out_dir, who)) return exit_refused;
    o.out_lock_fd = hold_out(o.out_dir, who);  // held until the process ends
    if (o.out_lock_fd < 0) return exit_refused;
    say_progress_when_interrupted(who, o.out_dir);
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
        add_jobs_option(app, o->jobs, "Models baked at once (one worker process each)");
        add_model_flags(app, o->model, kBakeFlags);
        app.add_flag("--force", o->force, "Rebuild every model even when its inputs did not change");
        app.add_option("--depfile", o->depfile, "Write a Make/Ninja depfile: the report depends on every input read")
            ->check(non_empty_path);
        app.add_option("--report", o->report, "Also write bake-report.json to this file")->check(non_empty_path);
        app.add_flag("--json", o->json, "Print bake-report.json on standard output, nothing else there");
        app.add_flag("--no-page", o->no_page, "No OUT/index.html, view.html or thumbnail.png (the page costs a few ms a model)");
        app.add_option("--max-memory", o->max_memory_mib,
                       "Memory per model in MiB (address space of its worker process; 0 = no limit): past it the model is OUT_OF_MEMORY")
            ->check(memory_limit_range)  // larger wrapped round to 0, no limit
            ->capture_default_str();
        app.add_option("--time-limit", o->time_limit,
                       "Wall-clock seconds per model (import, build, simulation; 0 = no limit): past it the model is TIMED_OUT")
            ->check(finite_number & time_limit_range)
            ->capture_default_str();
        app.add_flag("--no-isolate", o->no_isolate,
                     "Bake in threads of this process instead of worker processes (for a debugger; a crash then ends the run)");
        add_verbosity(app, o->verbosity);
        return [o] { return run_bake(*o); };
    }};

}  // namespace
}  // namespace weft::cli
