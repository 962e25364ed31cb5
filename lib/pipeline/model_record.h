// The typed record of one model's bake (docs/architecture.md#stages): what went in, what each stage
// found and built, each proxy's validation, the issues and the stage timings in a field of their
// own. report.json, the sidecar, validation.json, the bake stamp and the bake report's row are
// written from it and never patch it afterwards.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "body/body_colliders.h"
#include "pipeline/cloth_summary.h"
#include "garment/garments.h"
#include "grow/grow.h"
#include "grow/plan.h"
#include "io/issue.h"
#include "pipeline/model_status.h"
#include "validate/model/rig_validate.h"
#include "proxy/rig_builder.h"
#include "proxy/sheet_builder.h"
#include "scene/gltf_springs.h"
#include "scene/scene.h"
#include "validate/validate.h"

namespace weft {

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

/// What became of one selected sheet.
enum class SheetStatus {
    built,    ///< built and written, no error
    refused,  ///< an error: not built, or not written
    skipped,  ///< not a sheet (SheetedGarment::skip_reason): reported, not built
};

/// "built", "refused", "skipped".
constexpr const char* sheet_status_name(SheetStatus s) {
    switch (s) {
        case SheetStatus::built: return "built";
        case SheetStatus::refused: return "refused";
        case SheetStatus::skipped: return "skipped";
    }
    return "refused";
}

/// One sheet proxy: built beside the rigs (ModelOptions::sheets), or one `weft sheet` selected
/// (ModelOptions::sheet_only).
struct SheetedGarment {
    std::string name;             ///< the proxy's garment name: beside rigs unique in the model; sheet_only the
                                  ///< garment's own (its file is made unique when written)
    std::string class_name;
    std::string found_by;         ///< the garment's matched_by ("material", "mesh", "node", "config"); sheet_only: how it
                                  ///< was selected ("garment": lib/garment found it, "material", "mesh")
    std::vector<int> meshes;      ///< the scene's meshes it is made of
    std::string skip_reason;      ///< non-empty: not a sheet (a garment found only by its chains), not built
    SheetStatus status = SheetStatus::refused;
    std::string file_stem;        ///< the stem its proxy is validated and written under ("" when not built)
    std::string proxy_file;       ///< file name in the output folder, "" when not built or not written
    SheetBuildResult built;
    Issues issues;                ///< its build's and its file's findings (also in ModelRecord::issues)
};

/// Wall time of each stage of one model, seconds (reports keep timings in their own fields).
struct StageSeconds {
    double hash = 0;      ///< with a stamp: hashing the inputs and reading the stamp
    double import = 0;    ///< reading and hashing the file, Assimp, conversion
    double garments = 0;  ///< garments by slot and authored chains
    double grow = 0;      ///< growing chains
    double build = 0;     ///< rig and sheet proxies
    double validate = 0;  ///< every proxy, and the rig proxies' skinned mesh (ModelOptions::validate)
    double write = 0;     ///< proxies, grown model, sidecar, report.json, validation.json
    double page = 0;      ///< with a page: view.html and thumbnail.png
    double total = 0;     ///< the whole model, wall time
};

/// One model's bake: `weft sheet`, `weft rig`, `weft bake` and their tests read it; every file about the model is
/// written from it.
struct ModelRecord {
    std::filesystem::path source;       ///< the model file as given (where it and what it references are read)
    std::filesystem::path model;        ///< as given, or ModelOptions::model_label
    std::filesystem::path out_dir;      ///< as given, or ModelOptions::out_label
    std::string content_hash;           ///< "xxh64:<16 hex digits>" (io/content_hash.h) of the model file's bytes; "" when unreadable
    uint64_t bytes = 0;
    std::vector<std::filesystem::path> external_files;  ///< what a glTF names beside itself (ImportResult::external_files)
    bool imported = false;
    Scene scene;                        ///< the grown scene when bones were grown, else the imported one
    Scene imported_scene;               ///< with grow_cloth: the scene as imported (the grown model is patched from it); else empty
    ModelGarments garments;
    BodyColliders body;                 ///< colliders fitted to the imported body (body/body_colliders.h)
    std::optional<GrowResult> grow;     ///< set when grow_cloth was asked (its scene moved into `scene`)
    std::vector<GarmentPlan> plans;     ///< per garments.garments: what was done with it (grow/plan.h, as weft inspect says)
    std::vector<RiggedGarment> rigs;
    std::vector<SheetedGarment> sheets;  ///< with ModelOptions::sheets or sheet_only
    Issues import_issues;               ///< the import stage's own findings (also in issues): weft.sheet/1 lists them apart
    Issues validation_issues;           ///< the verdict's own findings, failed gates (also in issues): weft.sheet/1 lists them apart
    std::string sheet_selection_error;  ///< sheet_only: why the selection names nothing ("no material is called ..."), else ""
    StageSeconds seconds;
    std::string grown_model_file;       ///< "<model>.glb" when written, else ""
    std::string grown_model_method;     ///< "patched" (the source, animations kept) or "rewritten" (from the scene)
    struct PatchCounts {
        size_t nodes_added = 0, primitives_reweighted = 0, vertices_reweighted = 0, images_embedded = 0;
        size_t vertices_kept_at_rest = 0;
    } patch;                            ///< what patching changed, when grown_model_method is "patched"
    SpringsWritten springs;             ///< the grown model's spring bones: added, kept, changed (scene/gltf_springs.h)
    std::string sidecar_file;           ///< "<model>.cloth.json" when written
    std::optional<RigModelValidation> validation;  ///< the rig proxies' (solver and skinned mesh), when options.validate was
    std::optional<ValidationReport> proxy_validation;  ///< every built proxy through the scenarios (validation.json), when options.validate was
    Issues issues;                      ///< import, grow, rig, validation and write findings, in that order

    // With a stamp (ModelOptions::stamp, weft bake): what the model's outputs are made from.
    ModelStatus status = ModelStatus::failed;  ///< built, refused or failed; unchanged: what its stamp recorded
    bool unchanged = false;             ///< the stamp matched: nothing rebuilt, the outputs on disk are current
    std::optional<ClothSummary> stamped_cloth;  ///< unchanged: the cloth summary its stamp recorded
    std::string input_hash;             ///< "xxh64:..." over the model, every file it references and the config
    std::string options_hash;           ///< "xxh64:..." over every option that changes outputs
    std::vector<std::string> outputs;   ///< file names written into out_dir, sorted
    std::vector<std::string> depends;   ///< every file the outputs depend on (model, external files, config), sorted

    /// 0: everything built, validated and written; 1: the model was refused, a garment could not be
    /// built or written, or a validation gate failed.
    int exit_code() const { return has_error(issues) ? 1 : 0; }
};

}  // namespace weft
