// The patch's skins and weights (gltf_patch.h): the grown joints appended to each skin, the grown
// scene's influences written for each re-weighted primitive, and the primitive's rest pose kept.
//
// Rest: a file's default (node) pose need not be its bind pose (docs/growth.md#default-pose). A
// vertex the grow re-weighted is written where the new weights put it at the default pose exactly
// where the old ones did: with A the file's blend of skinning matrices (joint world · inverse bind, at
// the default pose) over its old weights and B the blend over its new ones, the stored position
// becomes B⁻¹·A·x, and its normal, tangent and morph-target deltas the same linear map. Every
// reader that skins by the glTF specification then shows the model at rest as the input was.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "scene/gltf_patch_detail.h"

namespace weft::patch_detail {
namespace {

/// Vertices whose rest position moves less than this under the new weights keep their bytes, metres.
constexpr double kRestTolerance = 1e-7;

constexpr int kFloat = 5126, kUnsignedShort = 5123, kArrayBuffer = 34962;

Mat4 zero_matrix() {
    Mat4 m;
    m.m.fill(0);
    return m;
}

void add_weighted(Mat4& sum, double w, const Mat4& m) {
    for (size_t i = 0; i < 16; ++i) sum.m[i] += w * m.m[i];
}

/// One vertex's influences as written: at most glb_max_influences, normalised in float.
using Written = std::vector<std::pair<uint32_t, float>>;

}  // namespace

/// Every joint's skinning matrix (world · inverse bind) of glTF skin `gskin` at the file's default
/// pose, as the file has them (once; extend_skin appends the grown joints').
std::vector<Mat4> Patcher::file_skinning(int gskin, const std::string& what) {
    if (auto it = skin_matrices_.find(gskin); it != skin_matrices_.end()) return it->second;
    const json& skin = d_.doc["skins"][size_t(gskin)];
    std::vector<int> joints;
    for (const json& j : skin["joints"]) joints.push_back(j.get<int>());
    std::vector<Mat4> ibm(joints.size());
    if (skin.contains("inverseBindMatrices")) {
        const Values a = values(d_, skin["inverseBindMatrices"], what + "'s inverse binds");
        if (a.components() != 16 || a.count() < joints.size()) fail(what + "'s inverse binds are malformed");
        for (size_t i = 0; i < joints.size(); ++i)
            for (int c = 0; c < 16; ++c) ibm[i].m[size_t(c)] = a.get(i, c);
    }
    std::vector<Mat4> skinning(joints.size());
    for (size_t i = 0; i < joints.size(); ++i) {
        if (joints[i] < 0 || static_cast<size_t>(joints[i]) >= gltf_nodes_) fail(what + "'s skin names a node the file lacks");
        skinning[i] = gltf_world(joints[i]) * ibm[i];
    }
    return skin_matrices_[gskin] = skinning;
}

/// Appends the grown joints of scene skin `s` to glTF skin `gs` (once), returning the glTF skin's
/// joint list as node indices.
std::vector<int> Patcher::extend_skin(Binary& binary, int gs, int s, const std::vector<Mat4>& skinning) {
    json& skin = d_.doc["skins"][static_cast<size_t>(gs)];
    std::vector<int> joints;
    for (const json& j : skin["joints"]) joints.push_back(j.get<int>());
    if (extended_.count(gs)) return joints;
    extended_.insert(gs);
    const Skin& before = original_.skins[static_cast<size_t>(s)];
    const Skin& after = grown_.skins[static_cast<size_t>(s)];
    std::vector<int> added;
    for (size_t j = before.joints.size(); j < after.joints.size(); ++j) {
        const int g = gltf_node(after.joints[j]);
        if (std::find(joints.begin(), joints.end(), g) == joints.end()) added.push_back(g);
    }
    if (added.empty()) return joints;
    std::vector<float> ibm;
    if (skin.contains("inverseBindMatrices")) {
        const Values a = values(d_, skin["inverseBindMatrices"], "skin " + std::to_string(gs) + "'s inverse binds");
        if (a.components() != 16 || a.count() < joints.size()) fail("skin " + std::to_string(gs) + "'s inverse binds are malformed");
        for (size_t i = 0; i < joints.size(); ++i)
            for (int c = 0; c < 16; ++c) ibm.push_back(static_cast<float>(a.get(i, c)));
        replaced(skin["inverseBindMatrices"]);
    } else {
        for (size_t i = 0; i < joints.size(); ++i)
            for (double v : Mat4::identity().m) ibm.push_back(static_cast<float>(v));
    }
    std::vector<Mat4>& matrices = skin_matrices_[gs];
    for (int g : added) {
        // glTF skins map the primitive's own vertices: joint world · IBM = the bind shape, taken from
        // the bone the grown chain hangs from (every joint of a consistent skin agrees).
        int ancestor = static_cast<size_t>(g) >= gltf_nodes_ ? grown_.nodes[static_cast<size_t>(scene_node_of(g))].parent : -1;
        while (ancestor >= 0 && static_cast<size_t>(ancestor) >= original_.nodes.size())
            ancestor = grown_.nodes[static_cast<size_t>(ancestor)].parent;
        Mat4 bind_shape = skinning.empty() ? Mat4::identity() : skinning.front();
        if (ancestor >= 0) {
            auto it = std::find(joints.begin(), joints.end(), gltf_node(ancestor));
            if (it != joints.end() && static_cast<size_t>(it - joints.begin()) < skinning.size())
                bind_shape = skinning[static_cast<size_t>(it - joints.begin())];
        }
        Mat4 inverse;
        if (!gltf_world(g).inverse(inverse)) fail("a grown joint's transform cannot be inverted");
        const Mat4 m = inverse * bind_shape;
        for (double v : m.m) ibm.push_back(static_cast<float>(v));
        // As a reader computes it: the matrix stored in float.
        Mat4 stored;
        for (size_t c = 0; c < 16; ++c) stored.m[c] = static_cast<float>(m.m[c]);
        matrices.push_back(gltf_world(g) * stored);
        joints.push_back(g);
        skin["joints"].push_back(g);
    }
    skin["inverseBindMatrices"] = binary.accessor(as_bytes(ibm), kFloat, joints.size(), "MAT4", 0);
    return joints;
}

void Patcher::reweight_mesh(Binary& binary, int m) {
    if (m < 0 || static_cast<size_t>(m) >= original_.meshes.size() || static_cast<size_t>(m) >= grown_.meshes.size())
        fail("re-weighted mesh " + std::to_string(m) + " is not in the scene");
    const Mesh& om = original_.meshes[static_cast<size_t>(m)];
    const Mesh& gm = grown_.meshes[static_cast<size_t>(m)];
    const std::string what = "mesh '" + om.name + "'";
    if (gm.skin < 0 || static_cast<size_t>(gm.skin) >= grown_.skins.size() || static_cast<size_t>(gm.skin) >= original_.skins.size())
        fail(what + " is not skinned in the scene");
    const int g = gltf_node(om.node);
    const json& node = d_.doc["nodes"][static_cast<size_t>(g)];
    if (!node.contains("mesh") || !node.contains("skin")) fail(what + ": node '" + om.node_name + "' has no skinned mesh in the file");
    const size_t gmesh = node["mesh"].get<size_t>(), gskin = node["skin"].get<size_t>();
    if (!d_.doc["meshes"].is_array() || gmesh >= d_.doc["meshes"].size() || !d_.doc["skins"].is_array() ||
        gskin >= d_.doc["skins"].size())
        fail(what + ": node '" + om.node_name + "' names a mesh or skin the file does not have");
    // The primitive this mesh is, by the indices import kept, and its vertices one to one.
    if (om.source_mesh < 0 || static_cast<size_t>(om.source_mesh) != gmesh)
        fail(what + " has no primitive of the file's mesh " + std::to_string(gmesh) + " on record");
    json& primitives = d_.doc["meshes"][gmesh]["primitives"];
    if (!primitives.is_array() || om.source_primitive < 0 || static_cast<size_t>(om.source_primitive) >= primitives.size())
        fail(what + ": the file's mesh " + std::to_string(gmesh) + " has no primitive " + std::to_string(om.source_primitive));
    if (om.source_vertices.empty()) fail(what + ": the import could not establish which file vertex each of its vertices is");
    if (gm.vertex_count() != om.vertex_count() || gm.influence_offsets.size() != gm.vertex_count() + 1)
        fail(what + ": the grown mesh does not keep the imported mesh's vertices");
    // Two scene meshes can be one primitive (a mesh two nodes instance): it is re-weighted once.
    if (!reweighted_.insert({int(gmesh), om.source_primitive}).second) return;

    const std::vector<Mat4> skinning = file_skinning(int(gskin), what);
    const std::vector<int> all_joints = extend_skin(binary, int(gskin), gm.skin, skinning);
    // Scene joint index (grown skin) -> glTF joint index.
    std::vector<uint32_t> joint_map;
    for (int node_index : grown_.skins[size_t(gm.skin)].joints) {
        const int gn = gltf_node(node_index);
        auto it = std::find(all_joints.begin(), all_joints.end(), gn);
        if (it == all_joints.end())
            fail(what + ": joint '" + grown_.nodes[size_t(node_index)].name + "' is not in the file's skin " + std::to_string(gskin));
        if (it - all_joints.begin() > 65535) fail(what + ": more than 65536 joints in one skin");
        joint_map.push_back(static_cast<uint32_t>(it - all_joints.begin()));
    }
    reweight_primitive(binary, primitives[size_t(om.source_primitive)], what, om.source_vertices, gm, joint_map, int(gskin));
}

namespace {

/// A primitive's JOINTS_n/WEIGHTS_n as the file has them.
struct FileInfluences {
    std::vector<Values> joints, weights;

    /// The blend of `skinning` over vertex v's influences.
    Mat4 blend(size_t v, const std::vector<Mat4>& skinning, const std::string& what) const {
        Mat4 sum = zero_matrix();
        for (size_t set = 0; set < joints.size(); ++set)
            for (int c = 0; c < 4; ++c) {
                const double w = weights[set].get(v, c);
                if (!(w > 0)) continue;
                const double j = joints[set].get(v, c);
                if (!(j >= 0) || j >= double(skinning.size())) fail(what + ": vertex " + std::to_string(v) + " names a joint its skin lacks");
                add_weighted(sum, w, skinning[size_t(j)]);
            }
        return sum;
    }
};

/// Vertex v's influences from the grown scene (its file vertex's scene vertex), or the file's where no
/// triangle uses it; the largest first, at most glb_max_influences, normalised in float so the file's
/// weights sum to one as a validator adds them.
Written written_influences(size_t v, uint32_t s, const Mesh& gm, const std::vector<uint32_t>& joint_map,
                           const FileInfluences& file, const std::string& what) {
    std::vector<std::pair<uint32_t, double>> chosen;
    if (s != UINT32_MAX) {
        if (s >= gm.vertex_count()) fail(what + ": file vertex " + std::to_string(v) + " names no vertex of the mesh");
        for (uint32_t k = gm.influence_offsets[s]; k < gm.influence_offsets[s + 1]; ++k) {
            const Influence& inf = gm.influences[k];
            if (inf.joint >= joint_map.size()) fail(what + ": a scene influence names a joint the skin lacks");
            chosen.push_back({joint_map[inf.joint], inf.weight});
        }
    } else {
        for (size_t set = 0; set < file.joints.size(); ++set)
            for (int c = 0; c < 4; ++c) {
                const double w = file.weights[set].get(v, c);
                if (w > 0) chosen.push_back({static_cast<uint32_t>(file.joints[set].get(v, c)), w});
            }
    }
    std::stable_sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) {
        if (a.second != b.second) return a.second > b.second;
        return a.first < b.first;
    });
    if (chosen.size() > size_t(glb_max_influences)) chosen.resize(size_t(glb_max_influences));
    double total = 0;
    for (const auto& c : chosen) total += c.second;
    Written out;
    float sum = 0;
    for (const auto& c : chosen) {
        out.push_back({c.first, total > 0 ? static_cast<float>(c.second / total) : 0.0f});
        sum += out.back().second;
    }
    if (!out.empty()) out[0].second += 1.0f - sum;
    return out;
}

/// Per vertex of the primitive, the map B⁻¹·A that keeps it where the file's weights put it at the
/// default pose (none where the new weights already do, within kRestTolerance, or B is singular).
std::vector<std::optional<Mat4>> rest_corrections(const Values& pos, const FileInfluences& file, const std::vector<Written>& written,
                                                  const std::vector<uint32_t>& scene_vertex, const std::vector<Mat4>& skinning,
                                                  const std::string& what) {
    std::vector<std::optional<Mat4>> out(pos.count());
    for (size_t v = 0; v < pos.count(); ++v) {
        if (scene_vertex[v] == UINT32_MAX) continue;  // kept as the file has it
        const Mat4 a = file.blend(v, skinning, what);
        Mat4 b = zero_matrix();
        for (const auto& [joint, weight] : written[v]) {
            if (joint >= skinning.size()) fail(what + ": a written influence names a joint the skin lacks");
            add_weighted(b, weight, skinning[joint]);
        }
        const Vec3 x{pos.get(v, 0), pos.get(v, 1), pos.get(v, 2)};
        if (distance(a.transform_point(x), b.transform_point(x)) <= kRestTolerance) continue;
        Mat4 b_inverse;
        if (!b.inverse(b_inverse) || !b_inverse.is_finite()) continue;
        out[v] = b_inverse * a;
    }
    return out;
}

}  // namespace

void Patcher::reweight_primitive(Binary& binary, json& prim, const std::string& what, const std::vector<uint32_t>& scene_vertex,
                                 const Mesh& gm, const std::vector<uint32_t>& joint_map, int gskin) {
    json& attributes = prim["attributes"];
    if (!attributes.contains("POSITION") || !attributes.contains("JOINTS_0") || !attributes.contains("WEIGHTS_0"))
        fail(what + ": a primitive has no POSITION, JOINTS_0 or WEIGHTS_0");
    const Values pos = values(d_, attributes["POSITION"], what + " POSITION");
    if (pos.count() != scene_vertex.size()) fail(what + ": the file's primitive has not the vertices the import read");
    FileInfluences file;
    for (int set = 0; attributes.contains("JOINTS_" + std::to_string(set)); ++set) {
        file.joints.push_back(values(d_, attributes["JOINTS_" + std::to_string(set)], what + " JOINTS"));
        file.weights.push_back(values(d_, attributes["WEIGHTS_" + std::to_string(set)], what + " WEIGHTS"));
        if (file.joints.back().count() < pos.count() || file.weights.back().count() < pos.count() ||
            file.joints.back().components() != 4 || file.weights.back().components() != 4)
            fail(what + ": JOINTS/WEIGHTS do not match POSITION");
    }
    std::vector<Written> written(pos.count());
    bool second_set = false;
    for (size_t v = 0; v < pos.count(); ++v) {
        written[v] = written_influences(v, scene_vertex[v], gm, joint_map, file, what);
        if (scene_vertex[v] != UINT32_MAX) ++result_.vertices_reweighted;
        second_set = second_set || written[v].size() > 4;
    }
    keep_rest(binary, prim, what, rest_corrections(pos, file, written, scene_vertex, skin_matrices_.at(gskin), what));

    const int sets = second_set ? 2 : 1;
    for (int set = 0; set < sets; ++set) {
        std::vector<uint16_t> joints(pos.count() * 4, 0);
        std::vector<float> weights(pos.count() * 4, 0.0f);
        for (size_t v = 0; v < pos.count(); ++v)
            for (size_t c = 0; c < 4; ++c) {
                const size_t k = size_t(set) * 4 + c;
                if (k >= written[v].size()) continue;
                joints[v * 4 + c] = static_cast<uint16_t>(written[v][k].first);
                weights[v * 4 + c] = written[v][k].second;
            }
        for (const char* kind : {"JOINTS_", "WEIGHTS_"})
            if (attributes.contains(kind + std::to_string(set))) replaced(attributes[kind + std::to_string(set)]);
        attributes["JOINTS_" + std::to_string(set)] = binary.accessor(as_bytes(joints), kUnsignedShort, pos.count(), "VEC4", kArrayBuffer);
        attributes["WEIGHTS_" + std::to_string(set)] = binary.accessor(as_bytes(weights), kFloat, pos.count(), "VEC4", kArrayBuffer);
    }
    for (int set = sets; attributes.contains("JOINTS_" + std::to_string(set)); ++set) {
        for (const char* kind : {"JOINTS_", "WEIGHTS_"})
            if (attributes.contains(kind + std::to_string(set))) replaced(attributes[kind + std::to_string(set)]);
        attributes.erase("JOINTS_" + std::to_string(set));
        attributes.erase("WEIGHTS_" + std::to_string(set));
    }
    ++result_.primitives_reweighted;
}

/// `in` with every vertex that has a correction mapped through it, as a new float accessor of the
/// same type; a POSITION (`bounds`) gets its min and max, as the specification requires.
size_t Patcher::corrected_accessor(Binary& binary, const Values& in, const std::vector<std::optional<Mat4>>& correction,
                                   RestAttribute kind, bool bounds) {
    const size_t n = size_t(in.components());
    std::vector<float> out(in.count() * n);
    for (size_t v = 0; v < in.count(); ++v) {
        for (size_t c = 0; c < n; ++c) out[v * n + c] = static_cast<float>(in.get(v, int(c)));
        if (v >= correction.size() || !correction[v]) continue;
        const Vec3 x{in.get(v, 0), in.get(v, 1), in.get(v, 2)};
        Vec3 y = kind == RestAttribute::point ? correction[v]->transform_point(x) : correction[v]->transform_vector(x);
        if (kind == RestAttribute::direction && length(y) > 0) y = normalize(y);  // a tangent's w (handedness) stays
        for (size_t c = 0; c < 3; ++c) out[v * n + c] = static_cast<float>(y[int(c)]);
    }
    const size_t index = binary.accessor(as_bytes(out), kFloat, in.count(), n == 4 ? "VEC4" : "VEC3", kArrayBuffer);
    if (bounds) {
        json lo = json::array(), hi = json::array();
        for (size_t c = 0; c < 3; ++c) {
            float a = INFINITY, b = -INFINITY;
            for (size_t v = 0; v < in.count(); ++v) a = std::min(a, out[v * n + c]), b = std::max(b, out[v * n + c]);
            lo.push_back(a);
            hi.push_back(b);
        }
        d_.doc["accessors"][index]["min"] = lo;
        d_.doc["accessors"][index]["max"] = hi;
    }
    return index;
}

/// Writes the primitive's POSITION, NORMAL and TANGENT and its morph targets' deltas anew where a
/// vertex has a correction (see the file comment); a sparse target is left as it is.
void Patcher::keep_rest(Binary& binary, json& prim, const std::string& what, const std::vector<std::optional<Mat4>>& correction) {
    const size_t moved = size_t(std::count_if(correction.begin(), correction.end(), [](const auto& c) { return c.has_value(); }));
    if (moved == 0) return;
    result_.vertices_kept_at_rest += uint32_t(moved);
    auto rewrite = [&](json& holder, const char* key, RestAttribute kind, bool bounds, const std::string& label) {
        if (!holder.contains(key)) return;
        if (holder[key].is_number_unsigned() && holder[key].get<uint64_t>() < d_.original_accessors) {
            const auto* a = d_.data->accessor(int(holder[key].get<uint64_t>()));
            if (a && a->sparse) return;
        }
        const Values in = values(d_, holder[key], what + " " + label);
        if (in.components() < 3) fail(what + " " + label + " is not a vector");
        replaced(holder[key]);
        holder[key] = corrected_accessor(binary, in, correction, kind, bounds);
    };
    json& attributes = prim["attributes"];
    rewrite(attributes, "POSITION", RestAttribute::point, true, "POSITION");
    rewrite(attributes, "NORMAL", RestAttribute::direction, false, "NORMAL");
    rewrite(attributes, "TANGENT", RestAttribute::direction, false, "TANGENT");
    if (prim.contains("targets") && prim["targets"].is_array())
        for (json& target : prim["targets"]) {
            rewrite(target, "POSITION", RestAttribute::delta, true, "morph target POSITION");
            rewrite(target, "NORMAL", RestAttribute::delta, false, "morph target NORMAL");
            rewrite(target, "TANGENT", RestAttribute::delta, false, "morph target TANGENT");
        }
}

}  // namespace weft::patch_detail
