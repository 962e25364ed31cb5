// weft bake INPUT... -o OUT [-j N] [--no-grow] [--classes hair,skirt] [--config FILE]
// [--validate] [--fabric F] [--force] [--depfile FILE] [--report FILE] [--max-memory MIB]
// [--time-limit S] [-q] [-v]: every model under the inputs
// (files, or folders walked for every extension Assimp reads plus .vrm) baked into OUT/<relative
// path>/ (rig proxies from authored and grown chains, sheet proxies for the other garments, one
// sidecar), in parallel, skipping models whose inputs, options and tool version did not change
// (lib/batch/bake.h), each model in a worker process of its own (a crash, an
// out-of-memory or a runaway model fails only that model). Writes OUT/bake-report.json (schemas/bake-report.schema.json).
// Progress on standard error: one line per model (an updating line on a terminal), none with -q,
// every issue with -v. Exit 0 when every model was built or skipped, 1 when any was refused or
// failed or an input is missing (the others are still baked), 2 for a wrong command line.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "command.h"
#include "model_flags.h"
#include "garment/config.h"
#include "io/utf8_text.h"
#include "batch/bake.h"
#include "outputs/issue_json.h"
#include "batch/process_memory.h"
#include "outputs/view_page.h"
#include "fabric/fabric.h"

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
    o.jobs = c.jobs;
    o.model.force = c.force;
    o.model.page = !c.no_page;
    o.isolate = !c.no_isolate;
    o.max_memory_bytes = c.max_memory_mib << 20;
    o.time_limit_seconds = c.time_limit;
    if (!apply_model_flags(c.model, kBakeFlags, c.inputs, who, o.model)) return exit_usage;
    o.model.options_text = model_flags_text(c.model, kBakeFlags) + "page=" + (c.no_page ? "0" : "1");

    const bool quiet = c.verbosity.quiet;
    const bool tty = !quiet && isatty(STDERR_FILENO);
    const auto start = std::chrono::steady_clock::now();
    auto progress = [&](const BakeModelResult& m, size_t done, size_t total) {
        if (tty) {
            const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const double left = spent / static_cast<double>(done) * static_cast<double>(total - done);
            std::fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s, about %.0f s left", done, total, utf8_escaped(m.input.relative).c_str(),
                         model_status_name(m.status), left);
            if (done == total) std::fprintf(stderr, "\n");
        } else if (!quiet) {
            std::cerr << "[" << done << "/" << total << "] " << utf8_escaped(m.input.relative) << ": " << model_status_name(m.status) << "\n";
        }
        if (tty && done != total && !m.issues.empty()) std::fprintf(stderr, "\r\033[K");
        Issues escaped = m.issues;
        for (Issue& i : escaped) i.message = utf8_escaped(i.message);
        print_issues(std::cerr, who + ": " + utf8_escaped(m.input.relative), escaped, c.verbosity);
    };
    tune_process_memory();  // before bake starts its workers
    const BakeResult result = bake(o, progress);
    for (const Issue& i : result.run_issues) std::cerr << who << ": " << i.message << " [" << i.code << "]\n";

    nlohmann::json report = bake_report_json(result, o);
    int status = result.exit_code() == 0 ? exit_ok : exit_refused;
    // Outputs replace only regular files: a FIFO, a device or a link in the way is refused by name.
    auto write_output = [&](const fs::path& path, const std::string& text) {
        if (!write_command_output(std::cerr, who, path, text)) status = exit_refused;
    };
    const fs::path report_path = fs::path(c.out) / "bake-report.json";
    std::string depfile;
    if (!c.depfile.empty()) {
        Issues unrepresentable;
        depfile = bake_depfile(result, report_path.generic_string(), &unrepresentable);
        for (const Issue& i : unrepresentable) {
            if (!quiet) std::cerr << who << ": warning: " << i.message << " [" << i.code << "]\n";
            report["issues"].push_back(issue_json(i));
            report["counts"][i.code] = report["counts"].value(i.code, 0) + 1;
        }
    }
    const std::string text = bake_json_text(report);
    for (const fs::path& path : {report_path, fs::path(c.report)})
        if (!path.empty()) write_output(path, text);
    if (!c.depfile.empty()) write_output(c.depfile, depfile);
    // The page over every model (each model's own is OUT/<model>/view.html): always rewritten, like
    // the report it is made from.
    if (!c.no_page) write_output(fs::path(c.out) / "index.html", view_index_html(report));
    if (c.json) std::cout << text;
    if (!quiet) {
        const auto& t = report["totals"];
        std::cerr << who << ": " << t["models"] << " models: " << t["built"] << " built, " << t["skipped"]
                  << " skipped, " << t["refused"] << " refused, " << t["failed"] << " failed -> " << c.out << "\n";
        if (!c.no_page) std::cerr << who << ": the page: " << (fs::absolute(fs::path(c.out)) / "index.html").lexically_normal().string()
                  << "\n";
    }
    return status;
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
        add_model_flags(app, o->model, kBakeFlags);
        app.add_flag("--force", o->force, "Rebuild every model even when its inputs did not change");
        app.add_option("--depfile", o->depfile, "Write a Make/Ninja depfile: the report depends on every input read")
            ->check(non_empty_path);
        app.add_option("--report", o->report, "Also write bake-report.json to this file")->check(non_empty_path);
        app.add_flag("--json", o->json, "Print bake-report.json on standard output, nothing else there");
        app.add_flag("--no-page", o->no_page, "No OUT/index.html, view.html or thumbnail.svg (the page costs a few ms a model)");
        app.add_option("--max-memory", o->max_memory_mib,
                       "Memory per model in MiB (address space of its worker process; 0 = no limit): past it the model is OUT_OF_MEMORY")
            ->check(CLI::Range(uint64_t{0}, kMaxMemoryMibCeiling))  // larger wrapped round to 0, no limit
            ->capture_default_str();
        app.add_option("--time-limit", o->time_limit,
                       "Wall-clock seconds per model (import, build, simulation; 0 = no limit): past it the model is TIMED_OUT")
            ->check(finite_number & CLI::Range(0.0, kTimeLimitCeiling))
            ->capture_default_str();
        app.add_flag("--no-isolate", o->no_isolate,
                     "Bake in threads of this process instead of worker processes (for a debugger; a crash then ends the run)");
        add_verbosity(app, o->verbosity);
        return [o] { return run_bake(*o); };
    }};

}  // namespace
}  // namespace weft::cli
