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
//              <model>.cloth.json (sidecar.h) and report.json
//
// `weft rig` runs it on one model; `weft bake --grow-cloth` runs it over folders.
#pragma once
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "garment/garments.h"
#include "grow/grow.h"
#include "grow/plan.h"
#include "pipeline/rig_validate.h"
#include "scene/import.h"
#include "io/issue.h"
#include "proxy/rig_builder.h"
#include "proxy/sheet_builder.h"
#include "scene/scene.h"

namespace weft {

struct RigModelOptions {
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
    std::string model_label;                    ///< the model as reports and messages name it ("" = the path as given)
    std::string out_label;                      ///< the output folder as messages name it ("" = the path as given)
};

/// `weft bake`'s options for each model: a sheet proxy beside the rigs for every other garment found
/// by name (one pass writes all of a model's proxies and one sidecar), report.json left to the bake
/// (which writes it without timings, beside validation.json). `weft rig` runs the defaults.
RigModelOptions bake_preset();

/// One chain of a rig garment, as the sidecar describes it.
struct RiggedChain {
    std::string origin;                 ///< "grown" or "authored"
    std::vector<std::string> found_by;  ///< authored: "joint_name", "VRM0.secondaryAnimation", "VRMC_springBone"; grown: the clump's shape
};

/// One rig proxy: what it was built from and what came out.
struct RiggedGarment {
    std::string name;             ///< the proxy's garment name
    std::string class_name;
    std::string found_by;         ///< "grown", or the garment's matched_by ("material", "chain", ...), or "chain" for unclaimed chains
    std::string proxy_file;       ///< file name in the output folder, "" when not built
    RigGarment input;
    RigBuildResult built;
    std::vector<RiggedChain> chains;  ///< per input.chains
};

/// One sheet proxy built beside the rigs (RigModelOptions::sheets).
struct SheetedGarment {
    std::string name;             ///< the proxy's garment name, unique in the model among rigs and sheets
    std::string class_name;
    std::string found_by;         ///< the garment's matched_by ("material", "mesh", "node", "config")
    std::string proxy_file;       ///< file name in the output folder, "" when not built
    SheetBuildResult built;
};

/// Wall time of each stage of one model, seconds (reports keep timings in their own fields).
struct StageSeconds {
    double import = 0;    ///< reading and hashing the file, Assimp, conversion
    double garments = 0;  ///< garments by slot and authored chains
    double grow = 0;      ///< growing chains
    double build = 0;     ///< rig and sheet proxies
    double validate = 0;  ///< every proxy, and the rig proxies' skinned mesh (RigModelOptions::validate)
    double write = 0;     ///< proxies, grown model, sidecar, report
};

struct RigModelResult {
    std::filesystem::path model;        ///< as given, or RigModelOptions::model_label
    std::filesystem::path out_dir;      ///< as given, or RigModelOptions::out_label
    std::string content_hash;           ///< "xxh64:<16 hex digits>" (io/content_hash.h) of the model file's bytes; "" when unreadable
    uint64_t bytes = 0;
    std::vector<std::filesystem::path> external_files;  ///< what a glTF names beside itself (ImportResult::external_files)
    bool imported = false;
    Scene scene;                        ///< the grown scene when bones were grown, else the imported one
    ModelGarments garments;
    std::optional<GrowResult> grow;     ///< set when grow_cloth was asked (its scene moved into `scene`)
    std::vector<GarmentPlan> plans;     ///< per garments.garments: what was done with it (grow/plan.h, as weft inspect says)
    std::vector<RiggedGarment> rigs;
    std::vector<SheetedGarment> sheets;  ///< with RigModelOptions::sheets
    StageSeconds seconds;
    std::string grown_model_file;       ///< "<model>.glb" when written, else ""
    std::string grown_model_method;     ///< "patched" (the source, animations kept) or "rewritten" (from the scene)
    struct PatchCounts {
        size_t nodes_added = 0, primitives_reweighted = 0, vertices_reweighted = 0, images_embedded = 0;
    } patch;                            ///< what patching changed, when grown_model_method is "patched"
    std::string sidecar_file;           ///< "<model>.cloth.json" when written
    std::optional<RigModelValidation> validation;  ///< the rig proxies' (solver and skinned mesh), when options.validate was
    std::optional<ValidationReport> proxy_validation;  ///< every built proxy through the scenarios (validation.json), when options.validate was
    Issues issues;                      ///< import, grow, rig, validation and write findings, in that order

    /// 0: everything built, validated and written; 1: the model was refused, a garment could not be
    /// built or written, or a validation gate failed.
    int exit_code() const { return has_error(issues) ? 1 : 0; }
};

/// Runs the rig path on one model, writing into `out_dir` (created when missing). Never throws for
/// anything about the model: every problem is an Issue.
RigModelResult rig_model(const std::filesystem::path& model, const std::filesystem::path& out_dir,
                         const RigModelOptions& options);

/// A model file its caller already read: weft bake reads each model once to hash it for its stamp
/// and imports those same bytes.
struct ModelBytes {
    std::span<const uint8_t> bytes;   ///< the whole file
    std::string content_hash;         ///< content_hash_text(xxh64(bytes))
};

/// The same from bytes already read (`model` still names the file in messages and locates what it
/// references).
RigModelResult rig_model(const std::filesystem::path& model, const ModelBytes& bytes,
                         const std::filesystem::path& out_dir, const RigModelOptions& options);

/// The report (schemas/rig-report.schema.json, "schema": "weft.rig-report/1"); the validation's
/// timings only with `timings` (weft bake keeps them in bake-report.json).
nlohmann::json rig_report_json(const RigModelResult& result, bool timings = true);

/// The same for people: a few lines per garment.
std::string rig_report_text(const RigModelResult& result);

}  // namespace weft
