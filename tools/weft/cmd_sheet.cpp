// weft sheet MODEL -o DIR [--garment NAME|--material NAME|--mesh NAME] [--pin RULE] [--pin-weight W]
// [--weld-tolerance T] [--resolution R] [--repair] [--config FILE] [--json] [--report FILE]: builds a sheet proxy
// (docs/proxy.md#sheet-proxy) for each garment of one model and writes DIR/<garment>.clothproxy plus
// DIR/report.json (schemas/sheet.schema.json). A summary goes to standard output (the report
// instead with --json); every error and warning to standard error, naming the file, mesh and
// element. Exit 0 when every selected garment was built, 1 when any was refused (the others are
// still built and written), 2 for a wrong command line. One model's bake (batch/bake_model.h)
// under sheet_preset: the sheets selected, their proxies written; the report, summary and
// messages are functions of its record (outputs/sheet_report.h).
#include <filesystem>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "command.h"
#include "model_flags.h"
#include "io/atomic_file.h"
#include "batch/bake_model.h"
#include "pipeline/budgets.h"
#include "outputs/sheet_report.h"

namespace weft::cli {
namespace {

namespace fs = std::filesystem;

struct SheetCommandOptions {
    std::string model;
    std::string out;
    std::string garment, material, mesh;
    std::string pin;
    std::string resolution;
    double pin_weight = 0.99;
    std::optional<double> weld_tolerance;
    bool repair = false;
    ModelFlags flags;
    bool json = false;
    std::string report;
    Verbosity verbosity;
};

/// sheet never grows: it builds the sheets it selects (model_flags.h).
constexpr unsigned kSheetFlags =
    model_flags_input | model_flags_fabric | model_flags_validate | model_flags_validation | model_flags_limits;

int run_sheet(const SheetCommandOptions& o) {
    const std::string who = "weft sheet";
    if (std::error_code ec; fs::is_directory(o.model, ec)) {
        std::cerr << who << ": " << o.model << " is a folder; `weft bake " << o.model
                  << " -o OUT` bakes every model in it\n";
        return exit_usage;
    }
    SheetOnlyOptions only;
    only.garment = o.garment;
    only.material = o.material;
    only.mesh = o.mesh;
    only.pin = o.pin;
    only.config_label = o.flags.config;
    SheetOptions sheet;
    sheet.pin_weight = o.pin_weight;
    sheet.weld_tolerance = o.weld_tolerance;
    sheet.repair = o.repair;
    if (!o.resolution.empty())
        if (std::string why = parse_resolution(o.resolution, sheet); !why.empty()) {
            std::cerr << who << ": --resolution: " << why << "\n";
            return exit_usage;
        }
    if (sheet.resolution == SheetResolution::particles && sheet.resolution_value > kMaxSheetParticles) {
        std::cerr << who << ": --resolution: " << o.resolution << ": at most particles:" << kMaxSheetParticles
                  << " (one proxy's budget, docs/bad-inputs.md#budgets)\n";
        return exit_usage;
    }
    if (!o.pin.empty()) {
        if (std::string why = parse_pin_rule(o.pin, sheet); !why.empty()) {
            std::cerr << who << ": --pin: " << why << "\n";
            return exit_usage;
        }
    }
    ModelOptions options = sheet_preset(std::move(only), std::move(sheet));
    if (!apply_model_flags(o.flags, kSheetFlags, {o.model}, who, options)) return exit_usage;
    options.write_validation = options.validate.has_value();
    options.out_dir = o.out;

    const auto watchdog = apply_model_limits(o.flags, who);
    ModelWatchdog::Armed armed(*watchdog, o.model);
    const ModelRecord record = bake_model(o.model, options);
    print_issues(std::cerr, who, sheet_report_messages(record), o.verbosity);
    const std::string text = sheet_report_json(record, options).dump(2) + "\n";
    int status = sheet_report_passed(record) ? exit_ok : exit_refused;
    for (const fs::path& path : {fs::path(o.out) / "report.json", fs::path(o.report)}) {
        if (path.empty()) continue;
        if (std::string why = write_file_atomic(path, std::string_view(text)); !why.empty()) {
            std::cerr << who << ": " << why << "\n";
            status = exit_refused;
        }
    }
    std::cout << (o.json ? text : sheet_report_text(record));
    return status;
}

const CommandRegistration sheet_registration{
    "sheet", "Build sheet proxies (one particle per welded vertex) for a model's garments", 30, [](CLI::App& app) {
        auto o = std::make_shared<SheetCommandOptions>();
        app.add_option("model", o->model, "The model file (glTF, GLB, VRM, FBX, ...)")->required();
        app.add_option("-o,--out", o->out, "Folder for <garment>.clothproxy and report.json")
            ->required()
            ->check(non_empty_path);
        auto* garment = app.add_option("--garment", o->garment, "Build only the garment of this name (as `weft inspect` lists)");
        auto* material = app.add_option("--material", o->material, "Build one sheet from every mesh with this material");
        auto* mesh = app.add_option("--mesh", o->mesh, "Build one sheet from the meshes with this mesh or node name");
        garment->excludes(material)->excludes(mesh);
        material->excludes(mesh);
        app.add_option("--pin", o->pin,
                       "What holds it: automatic (default), weights, none, top, bottom, left, right, nearest:NAME "
                       "(node, mesh or material), vertices:I,J,...");
        app.add_option("--resolution", o->resolution,
                       "The simulation mesh (docs/proxy.md#resampling): automatic (default: a dense sheet coarsened to "
                       "about 256 particles, any other kept), edge:METRES, particles:N, or source (one particle per "
                       "welded vertex)");
        app.add_option("--pin-weight", o->pin_weight, "Weight on body bones that holds a skinned vertex (default 0.99)")
            ->check(finite_number & CLI::Range(0.0, 1.0));
        app.add_option("--weld-tolerance", o->weld_tolerance,
                       "Weld distance in metres (default 1e-5 of the garment's bounding-box diagonal)")
            ->check(finite_number & CLI::NonNegativeNumber);
        app.add_flag("--repair", o->repair, "Drop collinear and unclearly duplicated triangles too, instead of refusing (those lying on one edge and a face's second copy are always dropped)");
        add_model_flags(app, o->flags, kSheetFlags);
        app.add_flag("--json", o->json, "Print the report (schemas/sheet.schema.json) on standard output");
        app.add_option("--report", o->report, "Also write the report to this file")->check(non_empty_path);
        add_verbosity(app, o->verbosity);
        return [o] { return run_sheet(*o); };
    }};

}  // namespace
}  // namespace weft::cli
