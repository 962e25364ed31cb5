#include "outputs/model_files.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <span>

#include "io/atomic_file.h"
#include "io/utf8_text.h"
#include "outputs/json_text.h"
#include "outputs/model_output.h"
#include "outputs/rig_report.h"
#include "outputs/sidecar.h"
#include "outputs/spring_bones.h"
#include "pipeline/garment_names.h"
#include "pipeline/pipeline_codes.h"
#include "proxy/file/proxy_file.h"
#include "scene/gltf_patch.h"
#include "scene/gltf_write.h"

namespace weft {
namespace {

/// A format as people write it: "fbx" -> "FBX" (a message reads "the model (FBX)", never "a fbx model").
std::string format_name(std::string format) {
    for (char& c : format) c = char(std::toupper(static_cast<unsigned char>(c)));
    return format;
}

namespace fs = std::filesystem;

void add_issue(Issues& issues, const IssueCode& code, std::string message, std::string pointer = {}) {
    issues.push_back(make_issue(code, std::move(message), std::move(pointer)));
}

/// The model as a proxy in `out_dir` names it (its source_file): its path from that folder, so the
/// proxy's bytes do not depend on where the model and the output folder stand, only on how they stand
/// to each other (docs/commands.md#hermetic-outputs); `weft validate` finds it from the proxy.
std::string source_from(const fs::path& model, const fs::path& out_dir) {
    std::error_code em, ed;
    const fs::path m = fs::absolute(model, em).lexically_normal(), d = fs::absolute(out_dir, ed).lexically_normal();
    const fs::path relative = em || ed ? fs::path() : m.lexically_relative(d);
    return utf8_escaped((relative.empty() ? model : relative).generic_string());
}

/// What a model written from the scene loses, naming its animations only where it has some.
std::string not_carried(size_t animations) {
    if (animations == 0) return "textures or morph targets";
    return std::to_string(animations) + (animations == 1 ? " animation" : " animations") + ", textures or morph targets";
}

bool same_file(const fs::path& a, const fs::path& b) {
    std::error_code ea, eb;
    const fs::path ca = fs::weakly_canonical(a, ea), cb = fs::weakly_canonical(b, eb);
    return !ea && !eb && ca == cb;
}

class ModelFiles {
public:
    ModelFiles(const ModelOptions& options, ModelRecord& r) : options_(options), r_(r) {}

    /// A sheet's proxy into the output folder as `stem`.clothproxy; a file that cannot be written
    /// refuses the sheet.
    void write_sheet(SheetedGarment& g, const std::string& stem) {
        const std::string file = stem + ".clothproxy";
        g.built.proxy->source_file = source_from(r_.source, options_.out_dir);
        if (std::string why = save_proxy(*g.built.proxy, options_.out_dir / file); !why.empty()) {
            const Issue unwritable = make_issue(kOutputUnwritable, why);
            r_.issues.push_back(unwritable);
            g.issues.push_back(unwritable);
            g.status = SheetStatus::refused;
            return;
        }
        g.proxy_file = file;
    }

    /// The model's files, then validation.json and report.json from the record. A model never read
    /// gets its report only in a folder that is there already (weft bake's): weft rig creates no
    /// folder for it.
    void write() {
        if (options_.sheet_only) {
            // weft sheet: the proxies only (report.json is the command's).
            for (size_t i = 0; i < r_.sheets.size(); ++i)
                if (r_.sheets[i].built.proxy) write_sheet(r_.sheets[i], r_.sheets[i].file_stem);
            if (options_.write_validation && r_.proxy_validation)
                write_model_output(options_.out_dir / "validation.json",
                                   json_text(report_json(*r_.proxy_validation, options_.report_timings)), r_.issues);
            return;
        }
        if (r_.imported) write_model_files();
        std::error_code ec;
        if (!r_.imported && !fs::is_directory(options_.out_dir, ec)) return;
        if (options_.write_validation && r_.proxy_validation)
            write_model_output(options_.out_dir / "validation.json", json_text(report_json(*r_.proxy_validation, options_.report_timings)),
                               r_.issues);
        if (options_.write_report)
            write_model_output(options_.out_dir / "report.json", json_text(rig_report_json(r_, options_.report_timings)), r_.issues);
    }

    void write_model_files() {
        std::error_code ec;
        fs::create_directories(options_.out_dir, ec);
        if (ec) {
            add_issue(r_.issues, kOutputUnwritable, options_.out_dir.string() + ": cannot create the output folder: " + ec.message());
            return;
        }
        for (RiggedGarment& g : r_.rigs) {
            if (!g.built.proxy) continue;
            const std::string file = garment_file_stem(g.name) + ".clothproxy";
            g.built.proxy->source_file = source_from(r_.source, options_.out_dir);
            if (std::string why = save_proxy(*g.built.proxy, options_.out_dir / file); !why.empty()) {
                add_issue(r_.issues, kOutputUnwritable, why);
                continue;
            }
            g.proxy_file = file;
        }
        for (size_t i = 0; i < r_.sheets.size(); ++i)
            if (r_.sheets[i].built.proxy) write_sheet(r_.sheets[i], r_.sheets[i].file_stem);
        // The model is written where bones grew, and for every glTF-family model with a rig proxy so
        // its spring bones (spring_bones.h) reach the runtimes that read them.
        const bool gltf = r_.scene.format == "gltf" || r_.scene.format == "glb" || r_.scene.format == "vrm";
        const bool rigged = std::any_of(r_.rigs.begin(), r_.rigs.end(), [](const RiggedGarment& g) { return g.built.proxy.has_value(); });
        if ((r_.grow && r_.grow->grew()) || (gltf && rigged)) write_grown_model();
        const std::string stem = garment_file_stem(r_.source.stem().string());
        const std::string sidecar = stem + ".cloth.json";
        if (std::string why = write_file_atomic(options_.out_dir / sidecar, json_text(sidecar_json(r_, spring_bones(r_, options_)))); !why.empty())
            add_issue(r_.issues, kOutputUnwritable, why);
        else
            r_.sidecar_file = sidecar;
    }

    void write_grown_model() {
        // A VRM stays a VRM: the patch keeps its meta, humanoid and materials.
        const std::string file = garment_file_stem(r_.source.stem().string()) + (r_.scene.format == "vrm" ? ".vrm" : ".glb");
        const fs::path out = options_.out_dir / file;
        if (same_file(out, r_.source)) {
            add_issue(r_.issues, kOutputIsInput,
                      out.string() + ": writing the grown model here would overwrite " + r_.source.string() +
                          "; give -o another folder");
            return;
        }
        const SpringBones springs = spring_bones(r_, options_);
        const bool gltf = r_.scene.format == "gltf" || r_.scene.format == "glb" || r_.scene.format == "vrm";
        if (gltf) {
            // Grown chains, or stray chain weights moved to the body (docs/growth.md#stray-weights).
            const bool grew = r_.grow && (r_.grow->grew() || !r_.grow->changed_meshes.empty());
            const GltfPatchResult patch = patch_gltf(r_.source, r_.grow ? r_.imported_scene : r_.scene, r_.scene,
                                                     grew ? std::span<const int>(r_.grow->changed_meshes) : std::span<const int>(), &springs,
                                                     options_.import.allow_outside_folder);
            if (!grew && !patch.error.empty()) {
                add_issue(r_.issues, kSpringsNotWritten, patch.error, "/grown_model");
                return;
            }
            if (patch.error.empty()) {
                if (std::string why = write_file_atomic(out, patch.glb); !why.empty()) {
                    add_issue(r_.issues, kOutputUnwritable, why);
                    return;
                }
                r_.grown_model_file = file;
                r_.grown_model_method = "patched";
                r_.patch = {patch.nodes_added, patch.primitives_reweighted, patch.vertices_reweighted, patch.images_embedded,
                            patch.vertices_kept_at_rest};
                r_.springs = patch.springs;
                return;
            }
            add_issue(r_.issues, kModelRewritten,
                      patch.error + "; " + file + " is written from the scene instead, without animations, textures or morph targets",
                      "/grown_model");
        } else {
            add_issue(r_.issues, kModelRewritten,
                      r_.model.string() + ": the model (" + format_name(r_.scene.format) + ") is written back from the scene: " + file +
                          " keeps the meshes, materials by name, skeleton, skins, the grown bones and their spring bones, but not its " +
                          not_carried(r_.scene.animations.size()),
                      "/grown_model");
        }
        // Written from the scene (any format Assimp reads): its chains as VRMC_springBone, the body's
        // colliders with them, as a glTF input gets them.
        GlbOptions glb;
        glb.springs = &springs;
        if (std::string why = write_glb(r_.scene, out, glb, &r_.springs); !why.empty()) {
            add_issue(r_.issues, kOutputUnwritable, why);
            return;
        }
        r_.grown_model_file = file;
        r_.grown_model_method = "rewritten";
    }

private:
    const ModelOptions& options_;
    ModelRecord& r_;
};

}  // namespace

void write_model_files(const ModelOptions& options, ModelRecord& record) { ModelFiles(options, record).write(); }

}  // namespace weft
