// Assimp's aiScene into weft's Scene, once (in the Assimp module, scene/assimp_module.h): units and
// axes fixed at the root, nodes, materials by name, each mesh handed to finish_mesh
// (import_convert.cpp) as every reader's is, clips by node name.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include <assimp/anim.h>
#include <assimp/material.h>
#include <assimp/mesh.h>
#include <assimp/metadata.h>
#include <assimp/scene.h>

#include "scene/import_detail.h"
#include "io/utf8_text.h"

namespace weft::import_detail {

namespace {

Vec3 ai_vec3(const aiVector3D& v) { return {double(v.x), double(v.y), double(v.z)}; }

/// A number from Assimp metadata whatever type the importer stored it as.
bool metadata_number(const aiMetadata* meta, const char* key, double& out) {
    if (!meta) return false;
    for (unsigned i = 0; i < meta->mNumProperties; ++i) {
        if (std::strcmp(meta->mKeys[i].C_Str(), key) != 0) continue;
        const aiMetadataEntry& e = meta->mValues[i];
        if (!e.mData) return false;
        switch (e.mType) {
            case AI_INT32: out = *static_cast<const int32_t*>(e.mData); return true;
            case AI_UINT64: out = double(*static_cast<const uint64_t*>(e.mData)); return true;
            case AI_FLOAT: out = *static_cast<const float*>(e.mData); return true;
            case AI_DOUBLE: out = *static_cast<const double*>(e.mData); return true;
            case AI_BOOL: out = *static_cast<const bool*>(e.mData) ? 1 : 0; return true;
            default: return false;
        }
    }
    return false;
}

class Converter {
public:
    Converter(const aiScene& ai, const ImportOptions& options, Scene& scene, Reporter& report)
        : ai_(ai), options_(options), scene_(scene), report_(report) {}

    bool run(const Mat4& correction) {
        scene_.correction = correction;
        build_nodes(correction);
        if (report_.failed()) return false;
        build_materials();
        build_meshes();
        warn_default_pose_off_bind(bind_to_rest_, scene_, report_);
        ClipKeyBudget budget(options_.max_clip_keys);
        for (unsigned i = 0; i < ai_.mNumAnimations; ++i) {
            std::string name = valid_utf8(ai_.mAnimations[i] ? ai_.mAnimations[i]->mName.C_Str() : "");
            Clip clip = convert_clip(ai_.mAnimations[i], name, budget);
            if (!budget.end_clip(name, "/animations/" + std::to_string(i), report_)) continue;
            scene_.animations.push_back(std::move(name));
            scene_.clips.push_back(std::move(clip));
        }
        return !report_.failed();
    }

private:
    const aiScene& ai_;
    const ImportOptions& options_;
    Scene& scene_;
    Reporter& report_;
    BindToRest bind_to_rest_;
    std::vector<const aiNode*> ai_nodes_;                ///< per Scene node
    std::unordered_map<const aiNode*, int> scene_index_;  ///< aiNode -> Scene node
    std::unordered_map<std::string, int> first_by_name_;  ///< node name -> first Scene node
    std::vector<int> material_remap_;                    ///< aiMaterial -> Scene material, -1 if dropped

    /// One aiAnimation as a Clip: key times from ticks to seconds, channels bound to Scene nodes by
    /// name (Assimp names a channel by its node's name; the first node of that name, as springs
    /// are). What the keys may still get wrong (a node the scene lacks, a NaN, times out of order) is
    /// enforce_scene_invariants' to repair, so it is checked in one place for every importer.
    Clip convert_clip(const aiAnimation* anim, const std::string& name, ClipKeyBudget& budget) {
        Clip clip;
        clip.name = name;
        if (!anim) return clip;
        // Assimp: "0 if not specified in the imported file"; its own viewer then plays 25 ticks a second.
        const double tps = anim->mTicksPerSecond > 0 && std::isfinite(anim->mTicksPerSecond) ? anim->mTicksPerSecond : 25.0;
        const double duration = anim->mDuration / tps;
        clip.duration = std::isfinite(duration) && duration > 0 ? duration : 0;
        for (unsigned c = 0; c < anim->mNumChannels; ++c) {
            const aiNodeAnim* ch = anim->mChannels ? anim->mChannels[c] : nullptr;
            if (!ch) continue;
            // Counted before copied: Assimp's keys are its own memory, ours would double them.
            if (!budget.take(uint64_t(ch->mNumPositionKeys) + ch->mNumRotationKeys + ch->mNumScalingKeys)) break;
            ClipChannel out;
            const auto it = first_by_name_.find(ch->mNodeName.C_Str());
            out.node = it == first_by_name_.end() ? -1 : it->second;
            for (unsigned k = 0; ch->mPositionKeys && k < ch->mNumPositionKeys; ++k)
                out.translation.push_back({ch->mPositionKeys[k].mTime / tps, ai_vec3(ch->mPositionKeys[k].mValue)});
            for (unsigned k = 0; ch->mRotationKeys && k < ch->mNumRotationKeys; ++k) {
                const aiQuaternion& q = ch->mRotationKeys[k].mValue;
                out.rotation.push_back({ch->mRotationKeys[k].mTime / tps, Quat{double(q.x), double(q.y), double(q.z), double(q.w)}});
            }
            for (unsigned k = 0; ch->mScalingKeys && k < ch->mNumScalingKeys; ++k)
                out.scale.push_back({ch->mScalingKeys[k].mTime / tps, ai_vec3(ch->mScalingKeys[k].mValue)});
            if (out.node < 0)
                report_.add(kClipInvalid,
                            "clip '" + name + "': channel " + std::to_string(c) + " moves node '" +
                                valid_utf8(ch->mNodeName.C_Str()) + "', which the scene does not have; skipped",
                            "/animations/" + name + "/channels/" + std::to_string(c));
            else
                clip.channels.push_back(std::move(out));
        }
        return clip;
    }

    /// Depth-first, children in file order, so node indices are stable across runs.
    void build_nodes(const Mat4& correction) {
        struct Item { const aiNode* node; int parent; };
        std::vector<Item> stack{{ai_.mRootNode, -1}};
        while (!stack.empty()) {
            Item item = stack.back();
            stack.pop_back();
            int index = int(scene_.nodes.size());
            Node node;
            node.name = valid_utf8(item.node->mName.C_Str());
            node.parent = item.parent;
            node.local = to_mat4(item.node->mTransformation);
            if (!node.local.is_finite())
                report_.add(kNonFiniteTransform, "node '" + node.name + "' has a NaN or infinite transform",
                            "/nodes/" + node.name);
            if (item.parent < 0) {
                node.local = correction * node.local;  // the unit/axis fix lives in the root
                node.world = node.local;
            } else {
                node.world = scene_.nodes[item.parent].world * node.local;
                scene_.nodes[item.parent].children.push_back(index);
            }
            if (node.local.is_finite() && !node.world.is_finite())
                report_.add(kNonFiniteTransform,
                            "node '" + node.name + "' world transform overflows (its scales multiply past the float range)",
                            "/nodes/" + node.name);
            scene_.nodes.push_back(std::move(node));
            ai_nodes_.push_back(item.node);
            scene_index_[item.node] = index;
            first_by_name_.emplace(item.node->mName.C_Str(), index);
            for (unsigned c = item.node->mNumChildren; c-- > 0;)
                if (item.node->mChildren[c]) stack.push_back({item.node->mChildren[c], index});
        }
    }

    /// Material slot names. Assimp's glTF reader appends an unnamed default material; a material
    /// no mesh uses and with no name of its own is that, and is dropped.
    void build_materials() {
        std::vector<bool> used(ai_.mNumMaterials, false);
        for (unsigned m = 0; m < ai_.mNumMeshes; ++m)
            if (ai_.mMeshes[m] && ai_.mMeshes[m]->mMaterialIndex < ai_.mNumMaterials)
                used[ai_.mMeshes[m]->mMaterialIndex] = true;
        material_remap_.assign(ai_.mNumMaterials, -1);
        for (unsigned m = 0; m < ai_.mNumMaterials; ++m) {
            std::string name = valid_utf8(ai_.mMaterials[m] ? ai_.mMaterials[m]->GetName().C_Str() : "");
            if (!used[m] && (name.empty() || name == AI_DEFAULT_MATERIAL_NAME)) continue;
            material_remap_[m] = int(scene_.materials.size());
            scene_.materials.push_back(std::move(name));
        }
    }

    /// The copies build_meshes would make, against the budgets, before it makes any.
    bool within_budget() {
        std::vector<uint64_t> copies(ai_.mNumMeshes, 0);
        for (size_t n = 0; n < scene_.nodes.size(); ++n)
            for (unsigned k = 0; k < ai_nodes_[n]->mNumMeshes; ++k)
                if (ai_nodes_[n]->mMeshes[k] < ai_.mNumMeshes) ++copies[ai_nodes_[n]->mMeshes[k]];
        FlattenCount count;
        for (unsigned m = 0; m < ai_.mNumMeshes; ++m)
            if (ai_.mMeshes[m]) count.add(valid_utf8(ai_.mMeshes[m]->mName.C_Str()), ai_.mMeshes[m]->mNumVertices, copies[m]);
        return within_flatten_budget(count, options_, report_);
    }

    void build_meshes() {
        if (!within_budget()) return;
        std::vector<bool> instanced(ai_.mNumMeshes, false);
        for (size_t n = 0; n < scene_.nodes.size(); ++n) {
            const aiNode* node = ai_nodes_[n];
            for (unsigned k = 0; k < node->mNumMeshes; ++k) {
                unsigned m = node->mMeshes[k];
                if (m >= ai_.mNumMeshes || !ai_.mMeshes[m]) continue;  // ValidateDataStructure forbids it
                instanced[m] = true;
                Mesh mesh;
                if (finish_mesh(source_mesh(*ai_.mMeshes[m]), int(n), options_, scene_, mesh, report_, bind_to_rest_)) {
                    scene_.nodes[n].meshes.push_back(int(scene_.meshes.size()));
                    scene_.meshes.push_back(std::move(mesh));
                }
            }
        }
        for (unsigned m = 0; m < ai_.mNumMeshes; ++m)
            if (!instanced[m] && ai_.mMeshes[m])
                report_.add(kMeshNotInstanced,
                            "mesh '" + std::string(ai_.mMeshes[m]->mName.C_Str()) +
                                "' is not instanced by any node of the scene; skipped",
                            "/meshes/" + std::string(ai_.mMeshes[m]->mName.C_Str()));
    }

    /// Assimp's mesh as the finisher reads it.
    SourceMesh source_mesh(const aiMesh& am) {
        SourceMesh out;
        out.name = valid_utf8(am.mName.C_Str());
        out.material = am.mMaterialIndex < material_remap_.size() ? material_remap_[am.mMaterialIndex] : -1;
        out.morph_target_count = int(am.mNumAnimMeshes);
        const size_t nv = am.mVertices ? am.mNumVertices : 0;
        out.positions.resize(nv);
        for (size_t v = 0; v < nv; ++v) out.positions[v] = {am.mVertices[v].x, am.mVertices[v].y, am.mVertices[v].z};
        if (am.mNormals) {
            out.normals.resize(nv);
            for (size_t v = 0; v < nv; ++v) out.normals[v] = {am.mNormals[v].x, am.mNormals[v].y, am.mNormals[v].z};
        }
        if (am.mTextureCoords[0]) {
            out.uvs.resize(nv);
            for (size_t v = 0; v < nv; ++v) out.uvs[v] = {am.mTextureCoords[0][v].x, am.mTextureCoords[0][v].y};
        }
        out.triangles.reserve(size_t(am.mNumFaces) * 3);
        for (unsigned f = 0; f < am.mNumFaces; ++f) {
            const aiFace& face = am.mFaces[f];
            if (face.mNumIndices != 3) {
                ++out.lines;
                continue;
            }
            out.triangles.insert(out.triangles.end(), {face.mIndices[0], face.mIndices[1], face.mIndices[2]});
        }
        if (am.mNumBones > 0) {
            const std::vector<int> nodes = bone_nodes(am);
            for (unsigned b = 0; b < am.mNumBones; ++b) {
                SourceBone bone;
                if (const aiBone* ab = am.mBones[b]) {
                    bone.name = ab->mName.C_Str();
                    bone.node = nodes[b];
                    bone.offset = to_mat4(ab->mOffsetMatrix);
                    bone.weights.reserve(ab->mNumWeights);
                    for (unsigned w = 0; w < ab->mNumWeights; ++w)
                        bone.weights.emplace_back(ab->mWeights[w].mVertexId, ab->mWeights[w].mWeight);
                }
                out.bones.push_back(std::move(bone));
            }
        }
        return out;
    }

    /// The Scene node each bone of `am` drives, or -1: bone names match node names, which Assimp
    /// keeps equal.
    std::vector<int> bone_nodes(const aiMesh& am) {
        std::vector<int> out(am.mNumBones, -1);
        for (unsigned b = 0; b < am.mNumBones; ++b) {
            if (!am.mBones[b]) continue;
            auto it = first_by_name_.find(am.mBones[b]->mName.C_Str());
            if (it != first_by_name_.end()) out[b] = it->second;
        }
        return out;
    }

    /// The Skin with exactly these joints, created on first use.
};

}  // namespace

Mat4 source_correction(const aiScene& ai, Scene& scene, Reporter& report) {
    scene.unit_scale = 1;
    scene.up_axis = "Y";
    if (scene.format != "fbx") return Mat4::identity();

    // FBX: UnitScaleFactor is centimetres per file unit (FBX SDK FbxSystemUnit); absent means cm.
    double cm_per_unit = 1;
    if (metadata_number(ai.mMetaData, "UnitScaleFactor", cm_per_unit) && !(cm_per_unit > 0 && std::isfinite(cm_per_unit))) {
        scene.warnings.push_back(report.file() + ": UnitScaleFactor is not a positive number; centimetres assumed");
        cm_per_unit = 1;
    }
    scene.unit_scale = cm_per_unit * 0.01;

    // Axes: the file names which of its axes is up, front (toward the viewer) and coord (right),
    // each with a sign. Mapping them to +Y, +Z and +X is a rotation for a right-handed file and a
    // mirror for a left-handed one (then every determinant turns negative and the winding is
    // flipped per triangle downstream).
    double up = 1, up_sign = 1, front = 2, front_sign = 1, coord = 0, coord_sign = 1;
    bool have = metadata_number(ai.mMetaData, "UpAxis", up) && metadata_number(ai.mMetaData, "UpAxisSign", up_sign) &&
                metadata_number(ai.mMetaData, "FrontAxis", front) &&
                metadata_number(ai.mMetaData, "FrontAxisSign", front_sign) &&
                metadata_number(ai.mMetaData, "CoordAxis", coord) &&
                metadata_number(ai.mMetaData, "CoordAxisSign", coord_sign);
    int u = int(up), f = int(front), c = int(coord);
    bool valid = have && u >= 0 && u < 3 && f >= 0 && f < 3 && c >= 0 && c < 3 && u != f && u != c && f != c &&
                 std::abs(up_sign) == 1 && std::abs(front_sign) == 1 && std::abs(coord_sign) == 1;
    Mat4 axes = Mat4::identity();
    if (!valid) {
        if (have) scene.warnings.push_back(report.file() + ": the FBX axis metadata is not a valid basis; Y up assumed");
    } else {
        // Rows of the rotation are the file's right, up and front axes.
        for (int col = 0; col < 3; ++col) {
            axes.at(0, col) = col == c ? coord_sign : 0;
            axes.at(1, col) = col == u ? up_sign : 0;
            axes.at(2, col) = col == f ? front_sign : 0;
        }
        scene.up_axis = std::string(up_sign < 0 ? "-" : "") + "XYZ"[u];
    }
    const bool rotated = valid && !(u == 1 && up_sign > 0 && f == 2 && front_sign > 0 && c == 0 && coord_sign > 0);
    if (scene.unit_scale != 1) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", scene.unit_scale);
        char factor[64];
        std::snprintf(factor, sizeof factor, "%g", cm_per_unit);
        report.add(kUnitsConverted, std::string("FBX units are ") + buf + " m (UnitScaleFactor " + factor +
                                          " cm); scaled to metres");
    }
    if (rotated)
        report.add(kAxesConverted, "FBX up axis is " + scene.up_axis + "; rotated to Y up (front +Z, right +X)");
    return axes * Mat4::uniform_scale(scene.unit_scale);
}

bool convert_scene(const aiScene& ai, const Mat4& correction, const ImportOptions& options, Scene& scene,
                   Reporter& report) {
    if (!ai.mRootNode) return false;
    return Converter(ai, options, scene, report).run(correction);
}


}  // namespace weft::import_detail
