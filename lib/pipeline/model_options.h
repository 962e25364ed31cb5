// What one model's bake is asked to do (docs/architecture.md#stages): the options of the stages in
// model_stages.h and of what bake_model.h adds around them. `weft sheet`, `weft rig` and `weft bake`
// are presets of this one type.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "body/body_colliders.h"
#include "garment/garments.h"
#include "grow/grow.h"
#include "validate/model/rig_validate.h"
#include "pipeline/sheet_selection.h"
#include "proxy/rig_builder.h"
#include "proxy/sheet_builder.h"
#include "scene/import.h"
#include "validate/validate.h"

namespace weft {

struct ModelOptions {
    bool grow_cloth = true;      ///< grow chains where a garment of grow.classes has none (every command; --no-grow)
    ImportOptions import;        ///< how the model is read (--allow-outside-folder)
    GrowOptions grow;            ///< classes, segments, panels, drop limits
    GarmentOptions garments;     ///< config: classes, rules
    RigOptions rig;              ///< fabric override and densities
    bool sheets = false;         ///< also a sheet proxy for every garment found by name that no chain moves
    SheetOptions sheet;          ///< used with sheets and sheet_only
    std::optional<SheetOnlyOptions> sheet_only;  ///< set (weft sheet): only the sheets it selects, no rigs, no sidecar
                                                 ///< or grown model (sheet_preset)
    bool write_files = true;     ///< false: build and report, write nothing (tests, dry runs)
    bool write_report = true;    ///< with write_files: report.json too (weft bake writes its own, with validation)
    std::optional<ValidationOptions> validate;  ///< set: validate every proxy built, in memory (--validate); each failed
                                                ///< gate is an error under its own code (NEVER_SLEPT, MESH_STRETCH, ...)
    RigValidationLimits validate_limits;        ///< the mesh's gate limits
    BodyColliderOptions body;                   ///< how body colliders are fitted, and the config's edits
    bool retune_springs = false;                ///< the grown model's authored springs take weft's settings, every
                                                ///< value changed reported (--retune-springs; scene/gltf_springs.h)
    bool collide_authored_springs = false;      ///< a file with no collider of its own: its authored springs collide
                                                ///< with the body colliders (--collide-authored-springs)
    std::string model_label;                    ///< the model as reports and messages name it ("" = the path as given)
    std::string out_label;                      ///< the output folder as messages name it ("" = the path as given)

    // Where the files go and what weft bake adds around the stages (batch/bake_model.h).
    std::filesystem::path out_dir;              ///< the model's folder (created when missing)
    std::filesystem::path out_root;             ///< "" or the folder out_dir must stay inside (weft bake's OUT)
    bool report_timings = true;                 ///< report.json's validation timings (weft bake keeps them in bake-report.json)
    bool write_validation = false;              ///< with validate: validation.json (validate/report.h) beside report.json
    bool page = false;                          ///< view.html and thumbnail.png (view_page.h), from the proxies as written
    bool stamp = false;                         ///< bake-stamp.json: skip when the inputs, options and tool are unchanged, written last
    bool force = false;                         ///< with stamp: rebuild even when the stamp matches
    std::filesystem::path config_file;          ///< with stamp: "" or the config, hashed into the stamp
    std::string options_text;                   ///< with stamp: every option that changes outputs, canonical; hashed
};

/// `weft bake`'s options for each model: a sheet proxy beside the rigs for every other garment found
/// by name (one pass writes all of a model's proxies and one sidecar), report.json without
/// timings beside validation.json, the page and the stamp. `weft rig` runs the defaults.
ModelOptions bake_preset();

/// `weft inspect`'s options: bake's record pass (rigs and sheets, as bake_preset builds them), stopped
/// before anything is written or validated, so what inspect says moves is what bake builds.
ModelOptions inspect_preset();

/// `weft sheet`'s options: the sheets `only` selects, built with `sheet`, their proxies written and
/// nothing else (the command writes report.json, schemas/sheet.schema.json, from the record:
/// sheet_report.h).
ModelOptions sheet_preset(SheetOnlyOptions only, SheetOptions sheet);

}  // namespace weft
