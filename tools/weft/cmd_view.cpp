// weft view PROXY|MODEL|OUT [-o PATH] [--fabric F] [-j N] [-q] [-v]: the page to look at
// (lib/outputs/view_page.h), and where it is on standard error.
//   PROXY (.clothproxy)  simulated through every scenario now, its page written to PATH (default
//                        PROXY.html beside it);
//   OUT (a bake's folder, it has bake-report.json)  OUT/index.html written again from the report;
//   MODEL (a model file or a folder of them)  baked with --validate into PATH (default weft-view/),
//                        as `weft bake MODEL -o PATH --validate` does, pages included.
// Exit 0 when the page was written and everything on it passed, 1 when something was refused or
// failed a gate (the page shows what), 2 for a bad command line.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bake_run.h"
#include "interrupt.h"
#include "command.h"
#include "batch/bake.h"
#include "batch/model_limits.h"
#include "batch/process_memory.h"
#include "outputs/view_page.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "fabric/fabric.h"

namespace weft::cli {
namespace {

namespace fs = std::filesystem;

struct ViewCommandOptions {
    std::string input;
    std::string out;
    std::string fabric;
    int jobs = 1;
    ModelLimits limits;  ///< --max-memory, --time-limit: as bake's (docs/bad-inputs.md#budgets)
    Verbosity verbosity;
};

std::string absolute_text(const fs::path& p) { return fs::absolute(p).lexically_normal().string(); }

int view_proxy(const ViewCommandOptions& o, const std::optional<Fabric>& fabric) {
    const std::string who = "weft view";
    DecodeResult loaded = load_proxy(o.input);
    if (!loaded.ok()) {
        std::cerr << who << ": " << loaded.error << "\n";
        return exit_refused;
    }
    // Simulated in this process: its own address space capped and a watchdog (batch/model_limits.h).
    ModelWatchdog watchdog(who, o.limits.time_limit_seconds);
    limit_address_space(o.limits.max_memory_mib);
    ModelWatchdog::Armed armed(watchdog, o.input);
    ValidationOptions options;
    options.fabric = fabric;
    options.trace = view_trace_options();
    const ProxyValidation v = validate_proxy(*loaded.proxy, options, o.input);
    ViewModel model;
    model.name = fs::path(o.input).filename().string();
    model.status = v.passed() ? "passed" : "failed";
    for (const GateResult& g : v.gates)
        if (!g.passed) model.issues.push_back({gate_code(g.gate), Severity::error, o.input + ": " + g.message, ""});
    model.proxies.push_back({model.name, std::move(*loaded.proxy), &v});
    print_issues(std::cerr, who, model.issues, o.verbosity);
    const fs::path page = o.out.empty() ? fs::path(o.input + ".html") : fs::path(o.out);
    if (!write_command_output(std::cerr, who, page, view_model_html(model))) return exit_refused;
    if (!o.verbosity.quiet) std::cerr << who << ": the page: " << absolute_text(page) << "\n";
    return v.passed() ? exit_ok : exit_refused;
}

int view_bake_folder(const ViewCommandOptions& o) {
    const std::string who = "weft view";
    const fs::path report_path = fs::path(o.input) / "bake-report.json";
    std::ifstream in(report_path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    const nlohmann::json report = nlohmann::json::parse(bytes.str(), nullptr, false);
    if (!in || report.is_discarded() || !report.is_object()) {
        std::cerr << who << ": " << report_path.string() << ": not a bake report (schemas/bake-report.schema.json); "
                  << "bake first: weft bake MODELS -o " << o.input << "\n";
        return exit_refused;
    }
    const fs::path page = fs::path(o.input) / "index.html";
    std::string html;
    try {
        html = view_index_html(report);
    } catch (const nlohmann::json::exception& e) {  // a field of the wrong type: not weft's report
        std::cerr << who << ": " << report_path.string() << ": not a bake report (" << e.what() << "); bake again\n";
        return exit_refused;
    }
    if (!write_command_output(std::cerr, who, page, html)) return exit_refused;
    if (!o.verbosity.quiet) std::cerr << who << ": the page: " << absolute_text(page) << "\n";
    const auto code = report.find("exit_code");
    return code != report.end() && *code == 0 ? exit_ok : exit_refused;
}

int view_models(const ViewCommandOptions& o, const std::string& fabric) {
    const std::string who = "weft view";
    BakeOptions b;
    b.inputs = {fs::path(o.input)};
    b.out_dir = o.out.empty() ? fs::path("weft-view") : fs::path(o.out);
    b.jobs = jobs_for(o.jobs);
    b.max_memory_bytes = o.limits.max_memory_mib << 20;  // at most 2^27 MiB: no wrap
    b.time_limit_seconds = o.limits.time_limit_seconds;
    b.model.validate = ValidationOptions{};
    b.model.sheet.fabric = fabric;
    b.model.rig.fabric = fabric;
    b.model.options_text = "classes=hair,skirt;fabric=" + fabric + ";grow_cloth=0;validate=1;page=1";
    if (!out_writable(b.out_dir, who)) return exit_refused;
    b.out_lock_fd = hold_out(b.out_dir, who);  // held until the process ends
    if (b.out_lock_fd < 0) return exit_refused;
    say_progress_when_interrupted(who, b.out_dir);
    tune_process_memory();
    const BakeResult result = bake(b, bake_progress(who, o.verbosity));
    return finish_bake(result, b, {who, b.out_dir, {}, {}, false, true, o.verbosity});
}

int run_view(const ViewCommandOptions& o) {
    const std::string who = "weft view";
    std::optional<Fabric> fabric;
    if (!o.fabric.empty()) {
        fabric = find_fabric(o.fabric);
        if (!fabric) {
            std::cerr << who << ": --fabric: '" << o.fabric << "' is not a library fabric (" << fabric_library_names()
                      << ")\n";
            return exit_usage;
        }
    }
    std::error_code ec;
    if (!fs::exists(o.input, ec)) {
        std::cerr << who << ": " << o.input << ": no such file or folder\n";
        return exit_refused;
    }
    if (fs::is_directory(o.input, ec) && fs::is_regular_file(fs::path(o.input) / "bake-report.json", ec))
        return view_bake_folder(o);
    if (fs::path(o.input).extension() == ".clothproxy") return view_proxy(o, fabric);
    return view_models(o, o.fabric);
}

const CommandRegistration view_registration{
    "view", "The page to look at: a proxy simulated, a model baked, or a bake's folder indexed (HTML, no server)", 70,
    [](CLI::App& app) {
        auto o = std::make_shared<ViewCommandOptions>();
        app.add_option("input", o->input, "A .clothproxy, a model file or folder of models, or a bake's output folder")
            ->required()
            ->check(non_empty_path);
        app.add_option("-o,--out", o->out,
                       "Where: the page's file for a proxy (default PROXY.html), the output folder for models "
                       "(default weft-view)")
            ->check(non_empty_path);
        app.add_option("--fabric", o->fabric, "Library fabric for every proxy instead of each one's suggestion");
        add_jobs_option(app, o->jobs, "Models baked at once when baking models (one worker process each)");
        app.add_option("--max-memory", o->limits.max_memory_mib,
                       "Memory per model or proxy in MiB (address space; 0 = no limit): past it OUT_OF_MEMORY")
            ->check(memory_limit_range)
            ->capture_default_str();
        app.add_option("--time-limit", o->limits.time_limit_seconds,
                       "Wall-clock seconds per model or proxy (0 = no limit): past it TIMED_OUT")
            ->check(finite_number & time_limit_range)
            ->capture_default_str();
        add_verbosity(app, o->verbosity);
        return [o] { return run_view(*o); };
    }};

}  // namespace
}  // namespace weft::cli
