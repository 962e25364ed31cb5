// weft rig MODEL -o DIR [--grow-cloth] [--classes hair,skirt] [--hair-segments 3] [--skirt-segments 4]
// [--skirt-panels 12] [--validate] [--config FILE] [--json] [--report FILE]: rig proxies for one model from its
// authored chains and, with --grow-cloth, from chains grown where a garment has none (docs/growth.md; the
// steps are lib/pipeline/model_stages.h). Writes the proxies, the sidecar <model>.cloth.json, the grown
// <model>.glb where bones were grown, and report.json into DIR. A readable summary on standard
// output; --json puts the report (schemas/rig-report.schema.json) there instead, --report writes it
// to a file too. --validate runs every rig proxy through the solver and measures its skinned mesh in
// the simulated pose (lib/validate/model/rig_validate.h), into the report's "validation". Exit 0 when
// everything was built, validated and written, 1 when the model was refused, a garment could not be
// built or written, or a validation gate failed, 2 for a bad command line.
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "command.h"
#include "garment/config.h"
#include "io/atomic_file.h"
#include "batch/bake_model.h"
#include "outputs/rig_report.h"
#include "fabric/fabric.h"

namespace weft::cli {
namespace {

struct RigCommandOptions {
    std::string model;
    std::string out_dir;
    bool grow_cloth = false;
    std::string classes = "hair,skirt";
    int hair_segments = 3;
    int skirt_segments = 4;
    int skirt_panels = 12;
    double min_strand_length = kMinStrandLength;
    uint32_t min_strand_verts = kMinStrandVerts;
    bool validate = false;
    bool retune_springs = false;
    bool collide_authored_springs = false;
    std::string fabric;
    std::string config;
    bool allow_outside_folder = false;
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
    options.grow_cloth = o.grow_cloth;
    options.retune_springs = o.retune_springs;
    options.collide_authored_springs = o.collide_authored_springs;
    if (o.validate) options.validate = ValidationOptions{};
    if (!o.fabric.empty()) {
        if (!find_fabric(o.fabric)) {
            std::cerr << "weft rig: --fabric: '" << o.fabric << "' is not a library fabric (" << fabric_library_names() << ")\n";
            return exit_usage;
        }
        options.rig.fabric = o.fabric;
    }
    if (!o.config.empty()) {
        ConfigResult config = load_garment_config(o.config);
        if (!config.error.empty()) {
            std::cerr << "weft rig: " << config.error << "\n";
            return exit_usage;
        }
        options.garments.config = std::move(config.config);
    }
    std::string error;
    options.grow.classes = select_classes(o.classes, options.garments.config.classes, error);
    if (!error.empty()) {
        std::cerr << "weft rig: --classes: " << error << "\n";
        return exit_usage;
    }
    options.grow.hair_segments = o.hair_segments;
    options.grow.skirt_segments = o.skirt_segments;
    options.grow.skirt_panels = o.skirt_panels;
    options.grow.min_strand_length = o.min_strand_length;
    options.grow.min_strand_verts = o.min_strand_verts;
    if (std::string why = grow_options_error(options.grow); !why.empty()) {
        std::cerr << "weft rig: " << why << "\n";
        return exit_usage;
    }

    options.import.allow_outside_folder = o.allow_outside_folder;
    options.out_dir = o.out_dir;
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
    "rig", "Rig proxies from authored chains, and bone chains grown where a garment has none (--grow-cloth)", 30,
    [](CLI::App& app) {
        auto o = std::make_shared<RigCommandOptions>();
        app.add_option("model", o->model, "The model (glTF, GLB, VRM, FBX, ...)")->required();
        app.add_option("-o,--out", o->out_dir, "Folder for the proxies, the sidecar, the grown model and report.json")
            ->required()
            ->check(non_empty_path);
        app.add_flag("--grow-cloth", o->grow_cloth, "Grow bone chains for garments that have none (docs/growth.md)");
        app.add_option("--classes", o->classes, "Garment classes to grow, comma-separated")->capture_default_str();
        app.add_option("--hair-segments", o->hair_segments, "Bones per hair strand or cap wedge")
            ->check(CLI::Range(1, 64))
            ->capture_default_str();
        app.add_option("--skirt-segments", o->skirt_segments, "Bones per skirt panel")
            ->check(CLI::Range(1, 64))
            ->capture_default_str();
        app.add_option("--skirt-panels", o->skirt_panels, "Radial panels around a skirt or a hair cap")
            ->check(CLI::Range(3, 256))
            ->capture_default_str();
        app.add_option("--min-strand-length", o->min_strand_length,
                       "Metres: clumps shorter than this from their anchored end are dropped")
            ->check(finite_number & CLI::Range(0.0, 100.0))
            ->capture_default_str();
        app.add_option("--min-strand-verts", o->min_strand_verts, "Clumps with fewer vertices are dropped")
            ->capture_default_str();
        add_spring_flags(app, o->retune_springs, o->collide_authored_springs);
        app.add_flag("--validate", o->validate,
                     "Simulate every rig proxy (hang, swing, sprint, teleport, idle) and measure its skinned mesh; "
                     "a failed gate exits 1");
        app.add_option("--fabric", o->fabric,
                       "Library fabric for every rig proxy instead of the class's (strand for hair and tails, panel for "
                       "skirts and capes)");
        app.add_option("--config", o->config, "Garment config file (schemas/config.schema.json)")->check(non_empty_path);
        app.add_flag("--allow-outside-folder", o->allow_outside_folder, "Let models read files outside their own folder (buffers, images, material libraries named by .., an absolute path or a link out); FIFOs and devices are refused either way");
        app.add_flag("--json", o->json, "Print the report as JSON on standard output");
        app.add_option("--report", o->report, "Also write the JSON report to this file")->check(non_empty_path);
        add_verbosity(app, o->verbosity);
        return [o] { return run_rig(*o); };
    }};

}  // namespace
}  // namespace weft::cli
