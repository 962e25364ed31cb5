#include "scene/gltf_patch.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

#include <memory>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "io/issue.h"
#include "scene/gltf_document.h"
#include "scene/gltf_write.h"
#include "scene/import_detail.h"

namespace weft {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

/// Internal: the first thing that could not be matched or read, as one line.
struct PatchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& message) { throw PatchError(message); }

// ---- reading the file: the import's own glTF document (scene/gltf_document.h) ----------------

/// The glTF file as the import read it, whole: its JSON (every member, accessors and buffer views
/// included) and its binary data through the one accessor layer, buffers confined to the model's
/// folder like the import's.
struct Document {
    std::vector<uint8_t> bytes;             ///< the file; `gltf`'s views point into it
    Issues issues;                          ///< what the reader refused, as the import words it
    import_detail::GltfDocument gltf;
    std::unique_ptr<import_detail::Reporter> report;
    std::unique_ptr<import_detail::GltfData> data;
    json doc;                               ///< the document being patched
    size_t original_accessors = 0;          ///< accessors below this index are the file's own
};

/// The first error the reader reported, without the file name the caller's message starts with.
[[noreturn]] void fail_with_issues(const Document& d, const std::string& fallback) {
    for (const Issue& issue : d.issues)
        if (issue.severity == Severity::error) {
            const std::string prefix = d.report->file() + ": ";
            fail(issue.message.rfind(prefix, 0) == 0 ? issue.message.substr(prefix.size()) : issue.message);
        }
    fail(fallback);
}

void load(const fs::path& source, bool allow_outside_folder, Document& d) {
    if (std::string why = read_file(source, d.bytes, uint64_t(1) << 31); !why.empty()) fail(why);
    d.report = std::make_unique<import_detail::Reporter>(source.string(), d.issues);
    import_detail::GltfDocument& g = d.gltf;
    g.base_dir = source.parent_path();
    g.allow_outside_folder = allow_outside_folder;
    g.keep_animations = true;
    std::string_view text(reinterpret_cast<const char*>(d.bytes.data()), d.bytes.size());
    if (d.bytes.size() >= 4 && std::memcmp(d.bytes.data(), "glTF", 4) == 0) {
        if (!import_detail::split_glb(d.bytes, text, g.bin, *d.report)) fail_with_issues(d, "a malformed GLB");
        g.glb = true;
    }
    if (!import_detail::parse_gltf_json(text, g, *d.report) || !g.json.is_object())
        fail_with_issues(d, "the glTF JSON does not parse");
    d.data = std::make_unique<import_detail::GltfData>(g, *d.report);
    d.data->check_buffers();
    if (has_error(d.issues)) fail_with_issues(d, "a buffer cannot be read");
    d.doc = g.json;
    // The members the reader leaves as text until asked, parsed for writing back.
    for (const auto& [key, list] : {std::pair{"accessors", &g.accessors}, std::pair{"bufferViews", &g.buffer_views}}) {
        if (list->empty()) continue;
        json& out = d.doc[key] = json::array();
        for (std::string_view item : *list) out.push_back(json::parse(item.begin(), item.end()));
    }
    d.original_accessors = g.accessors.size();
}

/// An accessor of the file read through the document's layer, with the checks a writer needs.
struct Values {
    const import_detail::GltfData::Accessor* a = nullptr;
    std::span<const uint8_t> bytes;
    uint64_t stride = 0;

    size_t count() const { return size_t(a->count); }
    int components() const { return int(a->components); }
    double get(size_t i, int c) const { return import_detail::GltfData::component(bytes, *a, i, uint32_t(c), stride); }
};

Values values(Document& d, const json& index, const std::string& what) {
    if (!index.is_number_unsigned() || index.get<uint64_t>() >= d.original_accessors) fail(what + " names no accessor of the file");
    Values v;
    v.a = d.data->accessor(int(index.get<uint64_t>()));
    if (!v.a) fail_with_issues(d, what + " is malformed");
    if (v.a->sparse) fail(what + " is a sparse accessor, which is not patched");
    v.bytes = d.data->accessor_data(*v.a, v.stride);
    if (v.bytes.empty()) fail_with_issues(d, what + " has no bytes");
    return v;
}

// ---- transforms -------------------------------------------------------------------------------

Mat4 node_local(const json& node) {
    if (node.contains("matrix") && node["matrix"].is_array() && node["matrix"].size() == 16) {
        Mat4 m;
        for (size_t i = 0; i < 16; ++i) m.m[i] = node["matrix"][i].is_number() ? node["matrix"][i].get<double>() : 0.0;
        return m;
    }
    auto vec = [&](const char* key, std::initializer_list<double> fallback) {
        std::vector<double> v(fallback);
        if (node.contains(key) && node[key].is_array() && node[key].size() == v.size())
            for (size_t i = 0; i < v.size(); ++i) v[i] = node[key][i].is_number() ? node[key][i].get<double>() : v[i];
        return v;
    };
    const auto t = vec("translation", {0, 0, 0}), r = vec("rotation", {0, 0, 0, 1}), s = vec("scale", {1, 1, 1});
    return Mat4::from_trs({t[0], t[1], t[2]}, Quat{r[0], r[1], r[2], r[3]}, {s[0], s[1], s[2]});
}

std::vector<Mat4> node_worlds(const json& nodes) {
    const size_t n = nodes.size();
    std::vector<int> parent(n, -1);
    for (size_t i = 0; i < n; ++i)
        if (nodes[i].contains("children") && nodes[i]["children"].is_array())
            for (const json& c : nodes[i]["children"])
                if (c.is_number_unsigned() && c.get<size_t>() < n) parent[c.get<size_t>()] = static_cast<int>(i);
    std::vector<Mat4> world(n);
    std::vector<char> done(n, 0);
    for (size_t i = 0; i < n; ++i) {
        std::vector<size_t> path;
        for (size_t k = i; !done[k]; k = size_t(parent[k])) {
            path.push_back(k);
            if (parent[k] < 0 || path.size() > n) break;
        }
        for (auto it = path.rbegin(); it != path.rend(); ++it) {
            const int p = parent[*it];
            world[*it] = (p >= 0 && done[size_t(p)] ? world[size_t(p)] : Mat4::identity()) * node_local(nodes[*it]);
            done[*it] = 1;
        }
    }
    return world;
}

/// Where the grown scene binds a node (inverse of its inverse bind matrix in a skin, else its rest).
Mat4 scene_bind(const Scene& scene, int node) {
    for (const Skin& skin : scene.skins)
        for (size_t j = 0; j < skin.joints.size() && j < skin.inverse_bind.size(); ++j) {
            if (skin.joints[j] != node) continue;
            Mat4 bind;
            if (skin.inverse_bind[j].inverse(bind) && bind.is_finite()) return bind;
        }
    return scene.nodes[static_cast<size_t>(node)].world;
}

// ---- the binary being built -----------------------------------------------------------------

class Binary {
public:
    explicit Binary(json& doc) : doc_(doc) {
        if (!doc_.contains("bufferViews")) doc_["bufferViews"] = json::array();
        if (!doc_.contains("accessors")) doc_["accessors"] = json::array();
    }

    size_t append(std::span<const uint8_t> bytes) {
        while (bin.size() % 8) bin.push_back(0);
        const size_t at = bin.size();
        bin.insert(bin.end(), bytes.begin(), bytes.end());
        return at;
    }

    size_t view(std::span<const uint8_t> bytes, int target) {
        const size_t at = append(bytes);
        json v = {{"buffer", 0}, {"byteOffset", at}, {"byteLength", bytes.size()}};
        if (target) v["target"] = target;
        doc_["bufferViews"].push_back(v);
        return doc_["bufferViews"].size() - 1;
    }

    size_t accessor(std::span<const uint8_t> bytes, int component_type, size_t count, const char* type, int target,
                    bool normalized = false) {
        json a = {{"bufferView", view(bytes, target)}, {"componentType", component_type}, {"count", count}, {"type", type}};
        if (normalized) a["normalized"] = true;
        doc_["accessors"].push_back(a);
        return doc_["accessors"].size() - 1;
    }

    std::vector<uint8_t> bin;

private:
    json& doc_;
};

template <typename T>
std::span<const uint8_t> as_bytes(const std::vector<T>& v) {
    return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)};
}

// ---- the patch ----------------------------------------------------------------------------------

class Patcher {
public:
    Patcher(const fs::path& source, const Scene& original, const Scene& grown, bool allow_outside_folder,
            GltfPatchResult& result)
        : source_(source), original_(original), grown_(grown), allow_outside_folder_(allow_outside_folder),
          result_(result) {}

    std::vector<uint8_t> run(std::span<const int> changed_meshes, const SpringBones* springs) {
        if (original_.unit_scale != 1 || original_.up_axis != "Y")
            fail("the model was converted on import (units or axes), so its scene space is not the file's");
        load(source_, allow_outside_folder_, d_);
        json& doc = d_.doc;
        for (const char* key : {"extensionsRequired"})
            if (doc.contains(key) && doc[key].is_array())
                for (const json& e : doc[key])
                    if (e.is_string() && (e == "KHR_draco_mesh_compression" || e == "EXT_meshopt_compression" ||
                                          e == "KHR_mesh_quantization"))
                        fail("the file requires " + e.get<std::string>() + ", whose compressed attributes are not patched");
        if (!doc.contains("nodes") || !doc["nodes"].is_array()) fail("the file has no nodes");
        gltf_nodes_ = doc["nodes"].size();
        worlds_ = node_worlds(doc["nodes"]);
        for (size_t k = 0; k < original_.nodes.size(); ++k)
            if (original_.nodes[k].source >= 0) scene_of_gltf_[original_.nodes[k].source] = int(k);

        Binary binary(doc);
        merge_buffers(binary);  // every view now points into binary.bin
        add_nodes();
        for (int m : changed_meshes) reweight_mesh(binary, m);
        if (springs && !springs->chains.empty()) add_springs(*springs);
        embed_images(binary);
        prune(binary);
        doc["buffers"] = json::array({json{{"byteLength", binary.bin.size()}}});
        if (doc.contains("asset") && doc["asset"].is_object()) doc["asset"]["generator"] = "weft " WEFT_VERSION;
        const std::string text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
        return pack_glb(text, binary.bin);
    }

private:
    /// The glTF node of a Scene node: an original node's by the index import kept (Node::source),
    /// a grown node's by the order add_nodes appends them in.
    int gltf_node(int scene_node) {
        if (scene_node < 0 || static_cast<size_t>(scene_node) >= grown_.nodes.size())
            fail("a node index " + std::to_string(scene_node) + " the scene does not have");
        if (static_cast<size_t>(scene_node) >= original_.nodes.size())
            return static_cast<int>(gltf_nodes_ + (size_t(scene_node) - original_.nodes.size()));
        const Node& node = original_.nodes[static_cast<size_t>(scene_node)];
        if (node.source < 0 || static_cast<size_t>(node.source) >= gltf_nodes_)
            fail("node '" + node.name + "' of the scene is no node of the file (the importer added it)");
        return node.source;
    }

    /// The Scene node (of the grown scene) a glTF node is, or -1.
    int scene_node_of_gltf(int g) const {
        if (g >= 0 && static_cast<size_t>(g) >= gltf_nodes_) return scene_node_of(g);
        auto it = scene_of_gltf_.find(g);
        return it == scene_of_gltf_.end() ? -1 : it->second;
    }

    /// The grown scene's node a new glTF node was made from.
    int scene_node_of(int g) const { return static_cast<int>(original_.nodes.size() + (size_t(g) - gltf_nodes_)); }

    Mat4 gltf_world(int g) const { return static_cast<size_t>(g) < worlds_.size() ? worlds_[size_t(g)] : new_world_.at(g); }

    void merge_buffers(Binary& binary) {
        std::vector<size_t> offset;
        const size_t buffers = array_size(d_.doc, "buffers");
        for (size_t b = 0; b < buffers; ++b) {
            const std::span<const uint8_t> bytes = d_.data->buffer_data(int(b));
            if (bytes.empty() && d_.doc["buffers"][b].value("byteLength", uint64_t(0)) > 0)
                fail_with_issues(d_, "buffer " + std::to_string(b) + " cannot be read");
            offset.push_back(binary.append(bytes));
        }
        if (!d_.doc.contains("bufferViews") || !d_.doc["bufferViews"].is_array()) return;
        for (json& v : d_.doc["bufferViews"]) {
            const size_t b = v.value("buffer", SIZE_MAX);
            if (b >= offset.size()) fail("a bufferView names no buffer");
            v["buffer"] = 0;
            v["byteOffset"] = v.value("byteOffset", size_t(0)) + offset[b];
        }
    }

    void add_nodes() {
        json& nodes = d_.doc["nodes"];
        for (size_t k = original_.nodes.size(); k < grown_.nodes.size(); ++k) {
            const Node& node = grown_.nodes[k];
            const int g = gltf_node(static_cast<int>(k));
            const int parent = node.parent >= 0 ? gltf_node(node.parent) : -1;
            const Mat4 world = scene_bind(grown_, static_cast<int>(k));
            if (parent >= 0 && static_cast<size_t>(node.parent) < original_.nodes.size()) {
                // The scene's space must be the file's: the parent bone where the file puts it.
                const Vec3 a = original_.nodes[static_cast<size_t>(node.parent)].world.translation_part();
                const Vec3 b = gltf_world(parent).translation_part();
                if (distance(a, b) > 1e-4 * std::max(1.0, length(a)))
                    fail("node '" + original_.nodes[static_cast<size_t>(node.parent)].name +
                         "' is not where the file puts it (the scene was transformed on import)");
            }
            Mat4 parent_inverse = Mat4::identity();
            if (parent >= 0 && !gltf_world(parent).inverse(parent_inverse))
                fail("node '" + node.name + "' hangs from a node whose transform cannot be inverted");
            const Mat4 local = parent_inverse * world;
            Vec3 t, s;
            Quat r;
            local.decompose(t, r, s);
            // A grown joint's local scale only undoes its parent's (FBX2glTF armatures are scaled x100,
            // so a rigid joint under one would carry 0.01). Importers that turn node scale into a pose
            // scale (Blender) then shrink the chain and everything it skins. A uniform scale is
            // folded instead: the joint inherits its parent's scale, its translation is already in
            // the parent's units, and its inverse bind (from new_world_) absorbs the scale.
            if (std::fabs(s.x - s.y) <= 1e-6 * std::fabs(s.x) && std::fabs(s.x - s.z) <= 1e-6 * std::fabs(s.x)) s = {1, 1, 1};
            json out = {{"name", node.name}, {"translation", {t.x, t.y, t.z}}, {"rotation", {r.x, r.y, r.z, r.w}}};
            if (std::fabs(s.x - 1) > 1e-9 || std::fabs(s.y - 1) > 1e-9 || std::fabs(s.z - 1) > 1e-9)
                out["scale"] = {s.x, s.y, s.z};
            nodes.push_back(out);
            new_world_[g] = (parent >= 0 ? gltf_world(parent) : Mat4::identity()) * Mat4::from_trs(t, r, s);
            if (parent >= 0) {
                json& p = nodes[static_cast<size_t>(parent)];
                if (!p.contains("children")) p["children"] = json::array();
                p["children"].push_back(g);
            } else {
                json& scenes = d_.doc["scenes"];
                const size_t which = d_.doc.value("scene", size_t(0));
                if (!scenes.is_array() || which >= scenes.size()) fail("the file has no scene to add a root node to");
                scenes[which]["nodes"].push_back(g);
            }
            ++result_.nodes_added;
        }
    }

    /// Appends the grown joints of scene skin `s` to glTF skin `gs` (once), returning the glTF skin's
    /// joint list as node indices.
    std::vector<int> extend_skin(Binary& binary, int gs, int s, const std::vector<Mat4>& skinning) {
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
        for (int g : added) {
            // glTF skins map the primitive's own vertices: joint world · IBM = the bind shape, taken
            // from the bone the grown chain hangs from (every joint of a consistent skin agrees).
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
            joints.push_back(g);
            skin["joints"].push_back(g);
        }
        skin["inverseBindMatrices"] = binary.accessor(as_bytes(ibm), 5126, joints.size(), "MAT4", 0);
        return joints;
    }

    void reweight_mesh(Binary& binary, int m) {
        if (m < 0 || static_cast<size_t>(m) >= original_.meshes.size() || static_cast<size_t>(m) >= grown_.meshes.size())
            fail("re-weighted mesh " + std::to_string(m) + " is not in the scene");
        const Mesh& om = original_.meshes[static_cast<size_t>(m)];
        const Mesh& gm = grown_.meshes[static_cast<size_t>(m)];
        const std::string what = "mesh '" + om.name + "'";
        if (gm.skin < 0 || static_cast<size_t>(gm.skin) >= grown_.skins.size() ||
            static_cast<size_t>(gm.skin) >= original_.skins.size())
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
        if (om.source_vertices.empty())
            fail(what + ": the import could not establish which file vertex each of its vertices is");
        if (gm.vertex_count() != om.vertex_count() || gm.influence_offsets.size() != gm.vertex_count() + 1)
            fail(what + ": the grown mesh does not keep the imported mesh's vertices");
        // Two scene meshes can be one primitive (a mesh two nodes instance): it is re-weighted once.
        if (!reweighted_.insert({int(gmesh), om.source_primitive}).second) return;

        // The original skin in the file, to place the grown joints' inverse binds as glTF skins do
        // (needed once per skin: extend_skin runs once for each).
        std::vector<int> joints;
        for (const json& j : d_.doc["skins"][gskin]["joints"]) joints.push_back(j.get<int>());
        std::vector<Mat4> skinning;
        if (!extended_.count(int(gskin))) {
            skinning.resize(joints.size());
            std::vector<Mat4> ibm(joints.size());
            const json& skin = d_.doc["skins"][gskin];
            if (skin.contains("inverseBindMatrices")) {
                const Values a = values(d_, skin["inverseBindMatrices"], what + "'s inverse binds");
                if (a.components() != 16 || a.count() < joints.size()) fail(what + "'s inverse binds are malformed");
                for (size_t i = 0; i < joints.size(); ++i)
                    for (int c = 0; c < 16; ++c) ibm[i].m[size_t(c)] = a.get(i, c);
            }
            for (size_t i = 0; i < joints.size(); ++i) {
                if (joints[i] < 0 || static_cast<size_t>(joints[i]) >= gltf_nodes_) fail(what + "'s skin names a node the file lacks");
                skinning[i] = gltf_world(joints[i]) * ibm[i];
            }
        }
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
        reweight_primitive(binary, primitives[size_t(om.source_primitive)], what, om.source_vertices, gm, joint_map);
    }

    void reweight_primitive(Binary& binary, json& prim, const std::string& what, const std::vector<uint32_t>& scene_vertex,
                            const Mesh& gm, const std::vector<uint32_t>& joint_map) {
        json& attributes = prim["attributes"];
        if (!attributes.contains("POSITION") || !attributes.contains("JOINTS_0") || !attributes.contains("WEIGHTS_0"))
            fail(what + ": a primitive has no POSITION, JOINTS_0 or WEIGHTS_0");
        const Values pos = values(d_, attributes["POSITION"], what + " POSITION");
        if (pos.count() != scene_vertex.size()) fail(what + ": the file's primitive has not the vertices the import read");
        std::vector<Values> js, ws;
        for (int set = 0; attributes.contains("JOINTS_" + std::to_string(set)); ++set) {
            js.push_back(values(d_, attributes["JOINTS_" + std::to_string(set)], what + " JOINTS"));
            ws.push_back(values(d_, attributes["WEIGHTS_" + std::to_string(set)], what + " WEIGHTS"));
            if (js.back().count() < pos.count() || ws.back().count() < pos.count() || js.back().components() != 4 ||
                ws.back().components() != 4)
                fail(what + ": JOINTS/WEIGHTS do not match POSITION");
        }

        std::vector<std::array<std::pair<uint32_t, double>, 8>> out(pos.count());
        std::vector<uint8_t> used(pos.count(), 0);
        bool second_set = false;
        for (size_t v = 0; v < pos.count(); ++v) {
            std::vector<std::pair<uint32_t, double>> chosen;
            const uint32_t s = scene_vertex[v];
            if (s != UINT32_MAX) {
                if (s >= gm.vertex_count()) fail(what + ": file vertex " + std::to_string(v) + " names no vertex of the mesh");
                for (uint32_t k = gm.influence_offsets[s]; k < gm.influence_offsets[s + 1]; ++k) {
                    const Influence& inf = gm.influences[k];
                    if (inf.joint >= joint_map.size()) fail(what + ": a scene influence names a joint the skin lacks");
                    chosen.push_back({joint_map[inf.joint], inf.weight});
                }
                ++result_.vertices_reweighted;
            } else {
                // A vertex no triangle of this primitive uses (another primitive's): its weights kept.
                for (size_t set = 0; set < js.size(); ++set)
                    for (int c = 0; c < 4; ++c) {
                        const double w = ws[set].get(v, c);
                        if (w > 0) chosen.push_back({static_cast<uint32_t>(js[set].get(v, c)), w});
                    }
            }
            std::stable_sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) {
                if (a.second != b.second) return a.second > b.second;
                return a.first < b.first;
            });
            if (chosen.size() > 8) chosen.resize(8);
            if (chosen.size() > 4) second_set = true;
            for (size_t k = 0; k < 8; ++k) out[v][k] = k < chosen.size() ? chosen[k] : std::pair<uint32_t, double>{0, 0.0};
            used[v] = static_cast<uint8_t>(chosen.size());
        }

        const int sets = second_set ? 2 : 1;
        for (int set = 0; set < sets; ++set) {
            std::vector<uint16_t> joints(pos.count() * 4, 0);
            std::vector<float> weights(pos.count() * 4, 0.0f);
            for (size_t v = 0; v < pos.count(); ++v) {
                // Normalise in float so the file's weights sum to one as the validator adds them.
                double total = 0;
                for (size_t k = 0; k < used[v]; ++k) total += out[v][k].second;
                std::array<float, 8> f{};
                float sum = 0;
                for (size_t k = 0; k < used[v]; ++k) sum += f[k] = total > 0 ? static_cast<float>(out[v][k].second / total) : 0.0f;
                if (used[v] > 0) f[0] += 1.0f - sum;
                for (size_t c = 0; c < 4; ++c) {
                    const size_t k = size_t(set) * 4 + c;
                    if (k >= used[v]) continue;
                    joints[v * 4 + c] = static_cast<uint16_t>(out[v][k].first);
                    weights[v * 4 + c] = f[k];
                }
            }
            for (const char* kind : {"JOINTS_", "WEIGHTS_"})
                if (attributes.contains(kind + std::to_string(set))) replaced(attributes[kind + std::to_string(set)]);
            attributes["JOINTS_" + std::to_string(set)] = binary.accessor(as_bytes(joints), 5123, pos.count(), "VEC4", 34962);
            attributes["WEIGHTS_" + std::to_string(set)] = binary.accessor(as_bytes(weights), 5126, pos.count(), "VEC4", 34962);
        }
        for (int set = sets; attributes.contains("JOINTS_" + std::to_string(set)); ++set) {
            for (const char* kind : {"JOINTS_", "WEIGHTS_"})
                if (attributes.contains(kind + std::to_string(set))) replaced(attributes[kind + std::to_string(set)]);
            attributes.erase("JOINTS_" + std::to_string(set));
            attributes.erase("WEIGHTS_" + std::to_string(set));
        }
        ++result_.primitives_reweighted;
    }

    // ---- spring bones (VRMC_springBone 1.0; VRM 0.x secondaryAnimation) ----------------------------

    int node_named(const std::string& name) const {
        const json& nodes = d_.doc["nodes"];
        int found = -1;
        for (size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].value("name", std::string()) == name) {
                if (found >= 0) fail("spring joint '" + name + "' names more than one node of the file");
                found = static_cast<int>(i);
            }
        if (found < 0) fail("spring joint '" + name + "' is no node of the file");
        return found;
    }

    /// A tip node past a chain's last joint, unskinned, at `tip` (scene space = the file's, checked in
    /// run()); returns its index.
    int add_tip(int last, const Vec3& tip) {
        json& nodes = d_.doc["nodes"];
        const std::string base = nodes[size_t(last)].value("name", std::string()) + "_end";
        std::string name = base;
        for (int n = 2;; ++n) {
            bool taken = false;
            for (const json& node : nodes) taken = taken || node.value("name", std::string()) == name;
            if (!taken) break;
            name = base + std::to_string(n);
        }
        // The tip's offset from the last joint in the grown scene's bind pose, in the joint's axes, then
        // in the file node's units (its world scale may differ from the scene bind's: an FBX2glTF
        // armature's x100 is folded into grown joints, add_nodes).
        const int scene_node = scene_node_of_gltf(last);
        if (scene_node < 0 || static_cast<size_t>(scene_node) >= grown_.nodes.size()) fail("spring joint '" + name + "' hangs from a node the scene does not have");
        const Mat4 bind = scene_bind(grown_, scene_node);
        Mat4 inverse;
        if (!bind.inverse(inverse)) fail("spring joint '" + name + "''s parent cannot be inverted");
        Vec3 bt, bs, wt, ws;
        Quat br, wr;
        bind.decompose(bt, br, bs);
        gltf_world(last).decompose(wt, wr, ws);
        const Vec3 t = inverse.transform_point(tip) * (bs.x / ws.x);
        const int g = static_cast<int>(nodes.size());
        nodes.push_back({{"name", name}, {"translation", {t.x, t.y, t.z}}});
        json& parent = nodes[size_t(last)];
        if (!parent.contains("children")) parent["children"] = json::array();
        parent["children"].push_back(g);
        new_world_[g] = gltf_world(last) * Mat4::from_trs(t, Quat{}, {1, 1, 1});
        ++result_.tips_added;
        return g;
    }

    static json spring_joint(int node, const SpringJointSettings& s) {
        return {{"node", node},
                {"hitRadius", s.hit_radius},
                {"stiffness", s.stiffness},
                {"gravityPower", s.gravity_power},
                {"gravityDir", {s.gravity_dir.x, s.gravity_dir.y, s.gravity_dir.z}},
                {"dragForce", s.drag_force}};
    }

    void add_springs(const SpringBones& springs) {
        json& doc = d_.doc;
        // Resolve every chain (and add its tip) before writing, so a bad name leaves nothing half-done.
        std::vector<std::vector<int>> chain_nodes;
        for (const SpringChain& chain : springs.chains) {
            if (chain.joints.empty() || chain.settings.size() != chain.joints.size())
                fail("spring '" + chain.name + "' has no joints or not one setting per joint");
            std::vector<int> nodes;
            for (const std::string& j : chain.joints) nodes.push_back(node_named(j));
            if (chain.tip) nodes.push_back(add_tip(nodes.back(), *chain.tip));
            chain_nodes.push_back(std::move(nodes));
        }
        const bool vrm0 = doc.contains("extensions") && doc["extensions"].is_object() && doc["extensions"].contains("VRM") &&
                          doc["extensions"]["VRM"].is_object();
        if (vrm0) {
            // VRM 0.x: a bone group lists chain roots; every descendant swings, with the group's settings.
            json& secondary = doc["extensions"]["VRM"]["secondaryAnimation"];
            if (!secondary.is_object()) secondary = json::object();
            if (!secondary.contains("colliderGroups") || !secondary["colliderGroups"].is_array())
                secondary["colliderGroups"] = json::array();
            json all_groups = json::array();
            for (size_t g = 0; g < secondary["colliderGroups"].size(); ++g) all_groups.push_back(g);
            json groups = json::array();
            for (size_t c = 0; c < springs.chains.size(); ++c) {
                const SpringChain& chain = springs.chains[c];
                // One setting per group: the chain's root's, and its widest hit radius.
                SpringJointSettings s = chain.settings.front();
                for (const SpringJointSettings& j : chain.settings) s.hit_radius = std::max(s.hit_radius, j.hit_radius);
                groups.push_back({{"comment", chain.name},
                                  {"stiffiness", s.stiffness},  // sic: VRM 0.x's spelling
                                  {"gravityPower", s.gravity_power},
                                  {"gravityDir", {{"x", s.gravity_dir.x}, {"y", s.gravity_dir.y}, {"z", s.gravity_dir.z}}},
                                  {"dragForce", s.drag_force},
                                  {"center", -1},
                                  {"hitRadius", s.hit_radius},
                                  {"bones", {chain_nodes[c].front()}},
                                  {"colliderGroups", all_groups}});
                result_.spring_joints += static_cast<uint32_t>(chain_nodes[c].size());
            }
            secondary["boneGroups"] = groups;
            result_.springs = static_cast<uint32_t>(groups.size());
            result_.spring_format = "VRM0.secondaryAnimation";
            return;
        }
        if (!doc.contains("extensions") || !doc["extensions"].is_object()) doc["extensions"] = json::object();
        json& ext = doc["extensions"]["VRMC_springBone"];
        if (!ext.is_object()) ext = json::object();
        ext["specVersion"] = "1.0";
        if (!ext.contains("colliders") || !ext["colliders"].is_array()) ext["colliders"] = json::array();
        if (!ext.contains("colliderGroups") || !ext["colliderGroups"].is_array()) ext["colliderGroups"] = json::array();
        if (ext["colliderGroups"].empty() && !ext["colliders"].empty()) {
            json all = json::array();
            for (size_t c = 0; c < ext["colliders"].size(); ++c) all.push_back(c);
            ext["colliderGroups"].push_back({{"name", "colliders"}, {"colliders", all}});
        }
        json all_groups = json::array();
        for (size_t g = 0; g < ext["colliderGroups"].size(); ++g) all_groups.push_back(g);
        json out = json::array();
        for (size_t c = 0; c < springs.chains.size(); ++c) {
            const SpringChain& chain = springs.chains[c];
            json joints = json::array();
            for (size_t k = 0; k < chain_nodes[c].size(); ++k)
                joints.push_back(spring_joint(chain_nodes[c][k], chain.settings[std::min(k, chain.settings.size() - 1)]));
            json spring = {{"name", chain.name}, {"joints", joints}};
            if (!all_groups.empty()) spring["colliderGroups"] = all_groups;
            out.push_back(spring);
            result_.spring_joints += static_cast<uint32_t>(joints.size());
        }
        ext["springs"] = out;
        if (!doc.contains("extensionsUsed") || !doc["extensionsUsed"].is_array()) doc["extensionsUsed"] = json::array();
        if (std::find(doc["extensionsUsed"].begin(), doc["extensionsUsed"].end(), "VRMC_springBone") == doc["extensionsUsed"].end())
            doc["extensionsUsed"].push_back("VRMC_springBone");
        result_.springs = static_cast<uint32_t>(out.size());
        result_.spring_format = "VRMC_springBone";
    }

    void embed_images(Binary& binary) {
        if (!d_.doc.contains("images") || !d_.doc["images"].is_array()) return;
        for (size_t i = 0; i < d_.doc["images"].size(); ++i) {
            json& image = d_.doc["images"][i];
            if (!image.contains("uri") || !image["uri"].is_string()) continue;
            const std::string uri = image["uri"].get<std::string>();
            std::string mime;
            std::vector<uint8_t> bytes;
            if (!d_.data->uri_data(uri, bytes, mime, "/images/" + std::to_string(i) + "/uri"))
                fail_with_issues(d_, "image '" + uri + "' cannot be read");
            if (mime.empty()) {
                std::string ext = fs::path(import_detail::percent_decode(uri)).extension().string();
                for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                if (ext == ".png") mime = "image/png";
                else if (ext == ".jpg" || ext == ".jpeg") mime = "image/jpeg";
                else if (ext == ".webp") mime = "image/webp";
                else if (ext == ".ktx2") mime = "image/ktx2";
                else fail("image '" + uri + "' has a type this writer cannot name (" + ext + ")");
            }
            image.erase("uri");
            image["bufferView"] = binary.view(bytes, 0);
            image["mimeType"] = mime;
            ++result_.images_embedded;
        }
    }

    // ---- what the grow replaced, pruned ---------------------------------------------------------------

    static size_t array_size(const json& doc, const char* key) {
        auto it = doc.find(key);
        return it != doc.end() && it->is_array() ? it->size() : 0;
    }

    /// Notes an accessor of the file whose place the patch has taken; prune() drops it unless
    /// something else still reads it.
    void replaced(const json& index) {
        if (index.is_number_unsigned() && index.get<uint64_t>() < d_.original_accessors) replaced_.insert(index.get<size_t>());
    }

    /// Calls `f` on every JSON value that holds an accessor index: primitives' attributes, indices
    /// and morph targets, skins' inverse binds, animation samplers, EXT_mesh_gpu_instancing.
    template <typename F>
    static void for_each_accessor_ref(json& doc, F&& f) {
        auto each_member = [&](json& object) {
            if (object.is_object())
                for (auto& [key, value] : object.items()) f(value);
        };
        if (doc.contains("meshes") && doc["meshes"].is_array())
            for (json& mesh : doc["meshes"]) {
                if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) continue;
                for (json& prim : mesh["primitives"]) {
                    if (!prim.is_object()) continue;
                    if (prim.contains("attributes")) each_member(prim["attributes"]);
                    if (prim.contains("indices")) f(prim["indices"]);
                    if (prim.contains("targets") && prim["targets"].is_array())
                        for (json& target : prim["targets"]) each_member(target);
                }
            }
        if (doc.contains("skins") && doc["skins"].is_array())
            for (json& skin : doc["skins"])
                if (skin.is_object() && skin.contains("inverseBindMatrices")) f(skin["inverseBindMatrices"]);
        if (doc.contains("animations") && doc["animations"].is_array())
            for (json& animation : doc["animations"])
                if (animation.is_object() && animation.contains("samplers") && animation["samplers"].is_array())
                    for (json& sampler : animation["samplers"]) {
                        if (!sampler.is_object()) continue;
                        if (sampler.contains("input")) f(sampler["input"]);
                        if (sampler.contains("output")) f(sampler["output"]);
                    }
        if (doc.contains("nodes") && doc["nodes"].is_array())
            for (json& node : doc["nodes"]) {
                json* instancing = node.is_object() && node.contains("extensions") && node["extensions"].is_object() &&
                                           node["extensions"].contains("EXT_mesh_gpu_instancing")
                                       ? &node["extensions"]["EXT_mesh_gpu_instancing"]
                                       : nullptr;
                if (instancing && instancing->is_object() && instancing->contains("attributes"))
                    each_member((*instancing)["attributes"]);
            }
    }

    /// Calls `f` on every JSON value that holds a buffer view index.
    template <typename F>
    static void for_each_view_ref(json& doc, F&& f) {
        if (doc.contains("accessors") && doc["accessors"].is_array())
            for (json& a : doc["accessors"]) {
                if (!a.is_object()) continue;
                if (a.contains("bufferView")) f(a["bufferView"]);
                if (a.contains("sparse") && a["sparse"].is_object())
                    for (const char* part : {"indices", "values"})
                        if (a["sparse"].contains(part) && a["sparse"][part].is_object() && a["sparse"][part].contains("bufferView"))
                            f(a["sparse"][part]["bufferView"]);
            }
        if (doc.contains("images") && doc["images"].is_array())
            for (json& image : doc["images"])
                if (image.is_object() && image.contains("bufferView")) f(image["bufferView"]);
        if (doc.contains("meshes") && doc["meshes"].is_array())
            for (json& mesh : doc["meshes"])
                if (mesh.is_object() && mesh.contains("primitives") && mesh["primitives"].is_array())
                    for (json& prim : mesh["primitives"])
                        if (prim.is_object() && prim.contains("extensions") && prim["extensions"].is_object())
                            for (auto& [name, ext] : prim["extensions"].items())
                                if (ext.is_object() && ext.contains("bufferView")) f(ext["bufferView"]);
    }

    /// Drops every accessor the patch replaced that nothing reads any more, then every buffer view
    /// only they read, then every byte of the binary chunk no view covers; indices are renumbered.
    /// A file's own unused accessors are left as they were: only what weft made unused goes.
    void prune(Binary& binary) {
        json& doc = d_.doc;
        const size_t accessors = array_size(doc, "accessors");
        std::vector<size_t> refs(accessors, 0);
        for_each_accessor_ref(doc, [&](json& v) {
            if (v.is_number_unsigned() && v.get<uint64_t>() < accessors) ++refs[v.get<size_t>()];
        });
        std::vector<int64_t> new_accessor(accessors, 0);
        std::set<size_t> orphan_views;  // views a dropped accessor read
        json kept = json::array();
        for (size_t a = 0; a < accessors; ++a) {
            json& accessor = doc["accessors"][a];
            if (replaced_.count(a) && refs[a] == 0) {
                new_accessor[a] = -1;
                if (accessor.is_object() && accessor.contains("bufferView") && accessor["bufferView"].is_number_unsigned())
                    orphan_views.insert(accessor["bufferView"].get<size_t>());
                ++result_.accessors_pruned;
                continue;
            }
            new_accessor[a] = int64_t(kept.size());
            kept.push_back(std::move(accessor));
        }
        if (accessors > 0) doc["accessors"] = std::move(kept);
        for_each_accessor_ref(doc, [&](json& v) {
            if (v.is_number_unsigned() && v.get<uint64_t>() < accessors) v = new_accessor[v.get<size_t>()];
        });

        const size_t views = array_size(doc, "bufferViews");
        std::vector<size_t> view_refs(views, 0);
        for_each_view_ref(doc, [&](json& v) {
            if (v.is_number_unsigned() && v.get<uint64_t>() < views) ++view_refs[v.get<size_t>()];
        });
        std::vector<int64_t> new_view(views, 0);
        json kept_views = json::array();
        for (size_t v = 0; v < views; ++v) {
            if (orphan_views.count(v) && view_refs[v] == 0) {
                new_view[v] = -1;
                continue;
            }
            new_view[v] = int64_t(kept_views.size());
            kept_views.push_back(std::move(doc["bufferViews"][v]));
        }
        if (views > 0) doc["bufferViews"] = std::move(kept_views);
        for_each_view_ref(doc, [&](json& v) {
            if (v.is_number_unsigned() && v.get<uint64_t>() < views) v = new_view[v.get<size_t>()];
        });
        compact(binary);
    }

    /// Keeps only the bytes some buffer view covers, each covered run moved down as a whole to an
    /// offset with the same remainder modulo 8 (so every accessor keeps its alignment).
    void compact(Binary& binary) {
        json& doc = d_.doc;
        if (array_size(doc, "bufferViews") == 0) {
            binary.bin.clear();
            return;
        }
        std::vector<std::pair<uint64_t, uint64_t>> runs;  // [begin, end) in the old binary
        for (const json& v : doc["bufferViews"]) {
            const uint64_t offset = v.value("byteOffset", uint64_t(0)), length = v.value("byteLength", uint64_t(0));
            if (offset > binary.bin.size() || length > binary.bin.size() - offset) fail("a bufferView runs past the merged buffer");
            runs.push_back({offset, offset + length});
        }
        std::sort(runs.begin(), runs.end());
        std::vector<std::pair<uint64_t, uint64_t>> merged;  // per run kept: old begin, new begin
        std::vector<uint64_t> merged_end;
        std::vector<uint8_t> out;
        for (const auto& [begin, end] : runs) {
            if (!merged.empty() && begin <= merged_end.back()) {
                if (end > merged_end.back()) {
                    out.insert(out.end(), binary.bin.begin() + long(merged_end.back()), binary.bin.begin() + long(end));
                    merged_end.back() = end;
                }
                continue;
            }
            while (out.size() % 8 != begin % 8) out.push_back(0);
            merged.push_back({begin, out.size()});
            merged_end.push_back(end);
            out.insert(out.end(), binary.bin.begin() + long(begin), binary.bin.begin() + long(end));
        }
        for (json& v : doc["bufferViews"]) {
            const uint64_t offset = v.value("byteOffset", uint64_t(0));
            size_t r = 0;
            while (r + 1 < merged.size() && merged[r + 1].first <= offset) ++r;
            v["byteOffset"] = merged[r].second + (offset - merged[r].first);
        }
        result_.bytes_pruned = binary.bin.size() > out.size() ? binary.bin.size() - out.size() : 0;
        binary.bin = std::move(out);
    }

    const fs::path source_;
    const Scene& original_;
    const Scene& grown_;
    const bool allow_outside_folder_;
    GltfPatchResult& result_;
    Document d_;
    size_t gltf_nodes_ = 0;
    std::vector<Mat4> worlds_;
    std::map<int, Mat4> new_world_;
    std::map<int, int> scene_of_gltf_;           ///< glTF node -> original Scene node (Node::source)
    std::set<int> extended_;
    std::set<std::pair<int, int>> reweighted_;   ///< (glTF mesh, primitive) pairs already re-weighted
    std::set<size_t> replaced_;                  ///< the file's accessors the patch took the place of
};

}  // namespace

GltfPatchResult patch_gltf(const fs::path& source, const Scene& original, const Scene& grown,
                           std::span<const int> changed_meshes, const SpringBones* springs, bool allow_outside_folder) {
    GltfPatchResult result;
    try {
        Patcher patcher(source, original, grown, allow_outside_folder, result);
        result.glb = patcher.run(changed_meshes, springs);
    } catch (const PatchError& e) {
        result = {};
        result.error = source.string() + ": cannot patch the file with the grown bones: " + e.what();
    } catch (const json::exception& e) {
        result = {};
        result.error = source.string() + ": cannot patch the file with the grown bones: malformed glTF JSON (" + e.what() + ")";
    }
    return result;
}

}  // namespace weft
