// weft rig MODEL -o DIR [model flags, tools/weft/model_flags.h] [--json] [--report FILE]: rig proxies for
// one model from its authored chains and from chains grown where a garment of --classes has none (unless
// --no-grow; docs/growth.md; the stages are lib/pipeline/model_stages.h). Writes the proxies, the
// sidecar <model>.cloth.json, the grown <model>.glb where bones were grown, and report.json into DIR.
// A readable summary on standard output; --json puts the report (schemas/rig-report.schema.json) there
// instead, --report writes it to a file too. --validate gives the model's verdict
// (validate/model/model_validation.h), into the report's "validation". Exit 0 when everything was
// built, validated and written, 1 when the model was refused, a garment could not be built or
// written, or a validation gate failed, 2 for a bad command line.
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "command.h"
#include "model_flags.h"
#include "io/atomic_file.h"
#include "batch/bake_model.h"
#include "outputs/rig_report.h"

namespace weft::cli {
namespace {

/// rig takes every model flag (model_flags.h).
constexpr unsigned kRigFlags =
    model_flags_input | model_flags_grow | model_flags_fabric | model_flags_springs | model_flags_validate |
    model_flags_validation;

struct RigCommandOptions {
    std::string model;
    std::string out_dir;
    ModelFlags flags;
    bool json = false;
    std::string report;
    Verbosity verbosity;
};

int run_rig(const RigCommandOptions& o) {
    if (std::error_code ec; std::filesystem::is_directory(o.model, ec)) {
        std::cerr << "weft rig: " << o.model << " is a folder; `weft bake " << o.model
                  << " -o OUT` bakes every model in it\n";
        return exit_usage;
    }
    ModelOptions options;
    if (!apply_model_flags(o.flags, kRigFlags, {o.model}, "weft rig", options)) return exit_usage;
    options.out_dir = o.out_dir;
    options.write_validation = options.validate.has_value();  // validation.json, as weft bake writes it
    const ModelRecord result = bake_model(o.model, options);
    const std::string report = rig_report_json(result).dump(2) + "\n";
    if (!o.report.empty())
        if (std::string why = write_file_atomic(o.report, std::string_view(report)); !why.empty()) {
            std::cerr << "weft rig: " << why << "\n";
            return exit_refused;
        }
    if (o.json) {
        std::cout << report;
    } else {
        std::cout << rig_report_text(result);
    }
    // The text summary lists the issues itself; with --json (or a model never read) they go here.
    if (o.json || !result.imported) print_issues(std::cerr, "weft rig", result.issues, o.verbosity);
    return result.exit_code() == 0 ? exit_ok : exit_refused;
}

const CommandRegistration rig_registration{
    "rig", "Rig proxies from authored chains, and bone chains grown where a garment has none (unless --no-grow)", 30,
    [](CLI::App& app) {
        auto o = std::make_shared<RigCommandOptions>();
        app.add_option("model", o->model, "The model (glTF, GLB, VRM, FBX, ...)")->required();
        app.add_option("-o,--out", o->out_dir, "Folder for the proxies, the sidecar, the grown model and report.json")
            ->required()
            ->check(non_empty_path);
        add_model_flags(app, o->flags, kRigFlags);
        app.add_flag("--json", o->json, "Print the report as JSON on standard output");
        app.add_option("--report", o->report, "Also write the JSON report to this file")->check(non_empty_path);
        add_verbosity(app, o->verbosity);
        return [o] { return run_rig(*o); };
    }};

}  // namespace
}  // namespace weft::cli
