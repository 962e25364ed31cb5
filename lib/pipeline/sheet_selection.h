// Which garments of a model become sheet proxies (docs/proxy.md#sheet-proxy) and how each is built:
// `weft sheet`'s selection (by garment name, by material, by mesh, or every garment lib/garment
// finds) and `weft bake`'s sheets beside the rigs share the garment → sheet rule and the build.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "garment/garments.h"
#include "proxy/sheet_builder.h"
#include "scene/scene.h"

namespace weft {

/// `weft sheet`'s selection (ModelOptions::sheet_only): at most one of garment, material, mesh.
struct SheetOnlyOptions {
    std::string garment;       ///< build only this garment ("" = every garment found)
    std::string material;      ///< one sheet from every mesh with this material ("" = unused)
    std::string mesh;          ///< one sheet from the meshes with this mesh or node name ("" = unused)
    std::string pin;           ///< the --pin rule as given, "" when none (already parsed into ModelOptions::sheet);
                               ///< given, it wins over a config rule's pin
    std::string config_label;  ///< the config file as the report names it, "" when none
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

/// The garments `only` selects: by material or mesh name, by garment name among `found`, or every
/// garment of `found`. Sets `error` when the selection names nothing.
std::vector<SheetSelection> select_sheets(const Scene& scene, const ModelGarments& found, const SheetOnlyOptions& only,
                                          const GarmentOptions& garments, std::string& error);

/// Builds one selected sheet: the config's pin applies unless `pin_given` (a --pin on the command
/// line wins), the config's fabric unless it is empty. `model_label` prefixes option errors.
SheetBuildResult build_selected_sheet(const Scene& scene, const SheetSelection& selection, SheetOptions options,
                                      bool pin_given, const std::string& model_label);

}  // namespace weft
