// One model through the sheet path (docs/proxy.md#sheet-proxy): import, select garments (by name, by
// material, by mesh, or every garment lib/garment finds), build one sheet proxy per garment and
// write <out>/<garment>.clothproxy. `weft sheet` runs it on one model and `weft bake` on
// every model of a folder: this is the one place that bakes a model into sheets.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "garment/garments.h"
#include "io/issue.h"
#include "pipeline/garment_names.h"
#include "proxy/sheet_builder.h"
#include "scene/import.h"

namespace weft {

inline constexpr const char* sheet_json_schema = "weft.sheet/1";

struct SheetModelOptions {
    ImportOptions import;         ///< how the model is read (--allow-outside-folder)
    std::string garment;          ///< build only this garment ("" = every garment found)
    std::string material;         ///< one sheet from every mesh with this material ("" = unused)
    std::string mesh;             ///< one sheet from the meshes with this mesh or node name ("" = unused)
    std::string pin;              ///< the --pin rule as given, "" when none (already parsed into `sheet`)
    SheetOptions sheet;           ///< pin rule, pin weight, weld tolerance, repair, fabric
    GarmentOptions garments;      ///< config: classes, rules
    std::string config_label;     ///< the config file as the report names it, "" when none
    std::string model_label;      ///< the model as the report names it
    std::string out_label;        ///< the output folder as the report names it
};

struct SheetModelResult {
    nlohmann::json report;               ///< schemas/sheet.schema.json
    std::string summary;                 ///< a few lines for people
    std::vector<std::string> messages;   ///< errors and warnings, one line each, in the order found
    Issues issues;                       ///< import, selection, build and write issues, in that order
    std::vector<std::string> written;    ///< proxy file names written into the output folder
    bool imported = false;
    bool passed = false;                 ///< every selected garment built and at least one built
};

/// One garment as a sheet to build, however it was selected.
struct SheetSelection {
    SheetGarment garment;
    std::string matched_by;   ///< "garment" (lib/garment found it), "material", "mesh"
    std::string fabric;       ///< from a config rule, "" when none
    nlohmann::json pin;       ///< from a config rule, null when none
    bool repair = false;      ///< from a config rule: drop defective triangles
    std::string skip_reason;  ///< non-empty: reported, not built
};

/// A garment lib/garment found, as a sheet: its meshes, its own chains' joints (weight on them does
/// not hold), the config's fabric and pin. A garment found only by its authored chains is skipped:
/// its joints are a rig's particles.
SheetSelection sheet_selection(const Garment& garment, const ModelGarments& found);

/// Builds one selected sheet: the config's pin applies unless `pin_given` (a --pin on the command
/// line wins), the config's fabric unless it is empty. `model_label` prefixes option errors.
SheetBuildResult build_selected_sheet(const Scene& scene, const SheetSelection& selection, SheetOptions options,
                                      bool pin_given, const std::string& model_label);

/// The report's "stats" object of a sheet build.
nlohmann::json sheet_stats_json(const SheetStats& stats);

/// Runs the sheet path on `model`, writing proxies into `out_dir` (report.json is the caller's).
/// Never throws for anything about the model: every problem is an Issue.
SheetModelResult sheet_model(const std::filesystem::path& model, const std::filesystem::path& out_dir,
                             const SheetModelOptions& options);

}  // namespace weft
