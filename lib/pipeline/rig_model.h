// One model through the rig path (docs/architecture.md#stages, import to rig proxies):
//
//   import     the model in metres, Y up (scene/import.h); its content hash (content_hash.h)
//   garments   garments by slot and authored chains (garment/garments.h)
//   grow       with grow_cloth: chains grown for garments of the selected classes that no authored
//              chain moves (grow/grow.h)
//   rig        one rig proxy per garment: grown garments from their grown chains, garments that
//              move from their authored chains, and any authored chain no garment claimed grouped
//              by class (proxy/rig_builder.h)
//   sheets     with sheets (weft bake): a sheet proxy for every other garment found by name, so one
//              pass writes a model's sheet and rig proxies and one sidecar lists both
//              (sheet_model.h's selection and build)
//   validate   with options.validate (--validate): every proxy built, in memory, through the solver's
//              scenarios (validate/validate.h) and each rig proxy's skinned mesh posed from them
//              (rig_validate.h); each failed gate an error issue under its own code
//   write      <garment>.clothproxy per proxy, <model>.glb where bones were grown (the source
//              patched, scene/gltf_patch.h; or, for FBX and anything the patch cannot match,
//              rewritten from the scene, scene/gltf_write.h, without animations), the sidecar
//              <model>.cloth.json (sidecar.h), with write_validation validation.json, and
//              report.json
//
// bake_model (bake_model.h) runs these stages between hashing the model and its page and stamp;
// `weft rig` and `weft bake` are presets of ModelOptions.
#pragma once
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "body/body_colliders.h"
#include "garment/garments.h"
#include "grow/grow.h"
#include "grow/plan.h"
#include "pipeline/model_record.h"
#include "pipeline/rig_validate.h"
#include "scene/import.h"
#include "io/issue.h"
#include "proxy/rig_builder.h"
#include "proxy/sheet_builder.h"
#include "scene/scene.h"

namespace weft {

struct ModelOptions {
    bool grow_cloth = false;     ///< grow chains where a garment has none (--grow-cloth)
    ImportOptions import;        ///< how the model is read (--allow-outside-folder)
    GrowOptions grow;            ///< classes, segments, panels, drop limits
    GarmentOptions garments;     ///< config: classes, rules
    RigOptions rig;              ///< fabric override and densities
    bool sheets = false;         ///< also a sheet proxy for every garment found by name that no chain moves
    SheetOptions sheet;          ///< used with sheets
    bool write_files = true;     ///< false: build and report, write nothing (tests, dry runs)
    bool write_report = true;    ///< with write_files: report.json too (weft bake writes its own, with validation)
    std::optional<ValidationOptions> validate;  ///< set: validate every proxy built, in memory (--validate); each failed
                                                ///< gate is an error under its own code (NEVER_SLEPT, MESH_STRETCH, ...)
    RigValidationLimits validate_limits;        ///< the mesh's gate limits
    BodyColliderOptions body;                   ///< how body colliders are fitted, and the config's edits
    std::string model_label;                    ///< the model as reports and messages name it ("" = the path as given)
    std::string out_label;                      ///< the output folder as messages name it ("" = the path as given)

    // Where the files go and what weft bake adds around the stages (pipeline/bake_model.h).
    std::filesystem::path out_dir;              ///< the model's folder (created when missing)
    std::filesystem::path out_root;             ///< "" or the folder out_dir must stay inside (weft bake's OUT)
    bool report_timings = true;                 ///< report.json's validation timings (weft bake keeps them in bake-report.json)
    bool write_validation = false;              ///< with validate: validation.json (validate/report.h) beside report.json
    bool page = false;                          ///< view.html and thumbnail.svg (view_page.h), from the proxies as written
    bool stamp = false;                         ///< bake-stamp.json: skip when the inputs, options and tool are unchanged, written last
    bool force = false;                         ///< with stamp: rebuild even when the stamp matches
    std::filesystem::path config_file;          ///< with stamp: "" or the config, hashed into the stamp
    std::string options_text;                   ///< with stamp: every option that changes outputs, canonical; hashed
};

/// `weft bake`'s options for each model: a sheet proxy beside the rigs for every other garment found
/// by name (one pass writes all of a model's proxies and one sidecar), report.json without
/// timings beside validation.json, the page and the stamp. `weft rig` runs the defaults.
ModelOptions bake_preset();

/// A model file its caller already read: bake_model reads each model once, hashes it for its
/// stamp and imports those same bytes.
struct ModelBytes {
    std::span<const uint8_t> bytes;   ///< the whole file
    std::string content_hash;         ///< content_hash_text(xxh64(bytes))
};

/// The stages import → garments → grow → proxies → validate → write on one model, into `record`
/// (bake_model runs them; `bytes` null: the import reads the file and names what is wrong with it).
/// Never throws for anything about the model: every problem is an Issue.
void run_model_stages(const std::filesystem::path& model, const ModelBytes* bytes, const ModelOptions& options,
                      ModelRecord& record);

/// The report (schemas/rig-report.schema.json, "schema": "weft.rig-report/1"); the validation's
/// timings only with `timings` (weft bake keeps them in bake-report.json).
nlohmann::json rig_report_json(const ModelRecord& result, bool timings = true);

/// The same for people: a few lines per garment.
std::string rig_report_text(const ModelRecord& result);

}  // namespace weft
