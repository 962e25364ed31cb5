// A structural check of a glTF document before Assimp reads it. Assimp 5.2.5's glTF reader
// drops out-of-range triangles and joint weights without a word, dereferences a skin's missing
// inverse bind matrices, and follows node references recursively, so a hostile file could make
// it crash or loop; what is checked here is checked against the bytes actually present, read
// through the document's one accessor layer (scene/gltf_document.h).
#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <string>
#include <utility>

#include "io/format_text.h"
#include "scene/gltf_document.h"
#include "scene/import_detail.h"

namespace weft::import_detail {
namespace {

using nlohmann::json;

constexpr int kMaxNodeDepth = 1024;             // Assimp's node import recurses once per level

/// Whether weft reads a file that requires extension `name` as its author meant: the three it
/// decodes, and those that change only how a material or texture looks (weft reads material names
/// and the grown-model writer keeps materials, textures and their extensions as they are).
bool extension_read(const std::string& name) {
    static const char* const decoded[] = {"KHR_mesh_quantization", "EXT_meshopt_compression",
                                          "KHR_draco_mesh_compression"};
    static const char* const appearance[] = {"KHR_texture_transform", "KHR_texture_basisu", "EXT_texture_webp",
                                             "EXT_texture_avif", "KHR_materials_variants"};
    for (const char* d : decoded)
        if (name == d) return true;
    for (const char* a : appearance)
        if (name == a) return true;
    return name.rfind("KHR_materials_", 0) == 0;  // every KHR_materials_* extension: appearance only
}

class Checker {
public:
    Checker(const GltfDocument& doc, GltfData& data, Reporter& report) : doc_(doc), report_(report), data_(data) {}

    bool run() {
        const json& root = doc_.json;
        if (!root.is_object()) {
            report_.add(kGltfJsonInvalid, "the glTF JSON is not an object");
            return false;
        }
        if (!check_extensions()) return false;
        data_.check_buffers();
        check_nodes();
        check_skins();
        check_meshes();
        check_scenes();
        if (report_.failed()) return false;  // nothing below may read an accessor that failed
        check_index_values();
        check_joint_values();
        return !report_.failed();
    }

private:
    const GltfDocument& doc_;
    Reporter& report_;
    GltfData& data_;
    std::vector<int> parent_;
    std::vector<float> joint_values_, weight_values_;  ///< one JOINTS_n/WEIGHTS_n pair's, reused
    bool quantization_warned_ = false;                 ///< one warning for the file, not per primitive

    void bad(const std::string& message, const std::string& pointer) { data_.bad(message, pointer); }
    bool index_member(const json& object, const char* key, size_t size, const std::string& where,
                      const std::string& pointer, int& out) {
        return data_.index_member(object, key, size, where, pointer, out);
    }
    using Accessor = GltfData::Accessor;
    const Accessor* accessor(int i) { return data_.accessor(i); }

    void check_nodes() {
        const json& nodes = array_or_empty(doc_.json, "nodes");
        const size_t n = nodes.size();
        parent_.assign(n, -1);
        size_t meshes = array_or_empty(doc_.json, "meshes").size();
        size_t skins = array_or_empty(doc_.json, "skins").size();
        size_t cameras = array_or_empty(doc_.json, "cameras").size();
        for (size_t i = 0; i < n; ++i) {
            const json& node = nodes[i];
            std::string ptr = "/nodes/" + std::to_string(i);
            std::string where = name_of(node, i, "node");
            int idx = -1;
            index_member(node, "mesh", meshes, where, ptr, idx);
            index_member(node, "skin", skins, where, ptr, idx);
            index_member(node, "camera", cameras, where, ptr, idx);
            const json& children = array_or_empty(node, "children");
            for (size_t c = 0; c < children.size(); ++c) {
                const json& child = children[c];
                std::string cptr = ptr + "/children/" + std::to_string(c);
                if (!child.is_number_unsigned() || child.get<uint64_t>() >= n) {
                    bad(where + " has a child that is not a node index below " + std::to_string(n), cptr);
                    continue;
                }
                size_t ci = child.get<size_t>();
                if (ci == i || parent_[ci] >= 0) {
                    // A node with two parents (or its own parent) makes the hierarchy a graph,
                    // which glTF forbids: Assimp would import the shared subtree twice and the
                    // node map (convert_scene) needs a tree.
                    bad(where + " lists node " + std::to_string(ci) + " as a child, but it already has a parent",
                        cptr);
                    continue;
                }
                parent_[ci] = int(i);
            }
        }
        if (report_.failed()) return;
        // With one parent each, a cycle is a chain that never reaches a root; depth bounds both.
        for (size_t i = 0; i < n; ++i) {
            int depth = 0;
            for (int p = parent_[i]; p >= 0; p = parent_[p]) {
                if (++depth > kMaxNodeDepth) {
                    bad(name_of(nodes[i], i, "node") + " is in a cycle or deeper than " +
                            std::to_string(kMaxNodeDepth) + " levels",
                        "/nodes/" + std::to_string(i));
                    return;
                }
            }
        }
    }

    void check_skins() {
        const json& skins = array_or_empty(doc_.json, "skins");
        size_t nodes = array_or_empty(doc_.json, "nodes").size();
        for (size_t i = 0; i < skins.size(); ++i) {
            const json& skin = skins[i];
            std::string ptr = "/skins/" + std::to_string(i);
            std::string where = name_of(skin, i, "skin");
            const json& joints = array_or_empty(skin, "joints");
            if (joints.empty()) bad(where + " has no joints", ptr + "/joints");
            for (size_t j = 0; j < joints.size(); ++j)
                if (!joints[j].is_number_unsigned() || joints[j].get<uint64_t>() >= nodes)
                    bad(where + " joint " + std::to_string(j) + " is not a node index below " + std::to_string(nodes),
                        ptr + "/joints/" + std::to_string(j));
            int ibm = -1;
            // Without inverseBindMatrices each is the identity (glTF 2.0 specification 5.29).
            if (!index_member(skin, "inverseBindMatrices", data_.accessor_count(), where, ptr, ibm) || ibm < 0) continue;
            const Accessor* a = accessor(ibm);
            if (!a) continue;
            if (a->component_type != 5126 || a->components != 16 || a->count < joints.size())
                bad(where + " inverseBindMatrices accessor " + std::to_string(ibm) + " is not " +
                        std::to_string(joints.size()) + " float MAT4s",
                    ptr + "/inverseBindMatrices");
            int skeleton = -1;
            index_member(skin, "skeleton", nodes, where, ptr, skeleton);
        }
    }

    void check_meshes() {
        const json& meshes = array_or_empty(doc_.json, "meshes");
        size_t materials = array_or_empty(doc_.json, "materials").size();
        for (size_t m = 0; m < meshes.size(); ++m) {
            const json& mesh = meshes[m];
            std::string where = name_of(mesh, m, "mesh");
            std::string mptr = "/meshes/" + std::to_string(m);
            const json& prims = array_or_empty(mesh, "primitives");
            if (prims.empty()) bad(where + " has no primitives", mptr + "/primitives");
            for (size_t p = 0; p < prims.size(); ++p) {
                const json& prim = prims[p];
                std::string pw = where + " primitive " + std::to_string(p);
                std::string ptr = mptr + "/primitives/" + std::to_string(p);
                const json* attrs = member(prim, "attributes");
                if (!attrs || !attrs->is_object()) {
                    bad(pw + " has no attributes", ptr);
                    continue;
                }
                for (auto it = attrs->begin(); it != attrs->end(); ++it) {
                    if (!it.value().is_number_unsigned() || it.value().get<uint64_t>() >= data_.accessor_count())
                        bad(pw + " attribute " + it.key() + " is not an accessor index", ptr + "/attributes/" + it.key());
                }
                int pos = -1;
                if (!index_member(*attrs, "POSITION", data_.accessor_count(), pw, ptr + "/attributes", pos)) continue;
                if (pos >= 0) check_position(pw, ptr, pos);
                int indices = -1;
                if (index_member(prim, "indices", data_.accessor_count(), pw, ptr, indices) && indices >= 0) {
                    const Accessor* a = accessor(indices);
                    if (a && (a->components != 1 || (a->component_type != 5121 && a->component_type != 5123 &&
                                                      a->component_type != 5125)))
                        bad(pw + " indices accessor " + std::to_string(indices) + " is not unsigned scalars",
                            ptr + "/indices");
                }
                int material = -1;
                index_member(prim, "material", materials, pw, ptr, material);
                std::optional<int64_t> mode = optional_uint(prim, "mode");
                if (mode && (*mode < 0 || *mode > 6)) bad(pw + " has an invalid mode", ptr + "/mode");
                const json& targets = array_or_empty(prim, "targets");
                for (size_t t = 0; t < targets.size(); ++t) {
                    if (!targets[t].is_object()) continue;
                    for (auto it = targets[t].begin(); it != targets[t].end(); ++it)
                        if (!it.value().is_number_unsigned() || it.value().get<uint64_t>() >= data_.accessor_count())
                            bad(pw + " morph target " + std::to_string(t) + " " + it.key() + " is not an accessor index",
                                ptr + "/targets/" + std::to_string(t));
                }
            }
        }
    }

    /// extensionsRequired: what weft decodes or passes through is read; anything else would be
    /// read wrongly (a compressed mesh as zeros), so it is refused by name.
    bool check_extensions() {
        const json& required = array_or_empty(doc_.json, "extensionsRequired");
        bool ok = true;
        for (size_t e = 0; e < required.size(); ++e) {
            const std::string name = required[e].is_string() ? required[e].get<std::string>() : required[e].dump();
            if (extension_read(name)) continue;
            report_.add(kExtensionRequired, "the file requires extension '" + name + "', which weft does not read",
                        "/extensionsRequired/" + std::to_string(e));
            ok = false;
        }
        return ok;
    }

    /// A POSITION accessor is VEC3 of floats, or of (normalised) 8- or 16-bit integers under
    /// KHR_mesh_quantization, whose node transform carries the dequantization.
    void check_position(const std::string& pw, const std::string& ptr, int pos) {
        const Accessor* a = accessor(pos);
        if (!a) return;
        if (a->components != 3 || a->component_type == 5125) {
            bad(pw + " POSITION is not VEC3 of floats or of 8- or 16-bit integers", ptr + "/attributes/POSITION");
            return;
        }
        if (a->component_type != 5126 && !extension_used("KHR_mesh_quantization") && !quantization_warned_) {
            quantization_warned_ = true;
            report_.add(kGltfNonconforming,
                        pw + " POSITION holds integers, which only KHR_mesh_quantization allows, but the file does "
                             "not list that extension in extensionsUsed; read as quantized positions",
                        ptr + "/attributes/POSITION");
        }
    }

    bool extension_used(const std::string& name) const {
        for (const json& e : array_or_empty(doc_.json, "extensionsUsed"))
            if (e.is_string() && e.get_ref<const std::string&>() == name) return true;
        return false;
    }

    void check_scenes() {
        const json& scenes = array_or_empty(doc_.json, "scenes");
        size_t nodes = array_or_empty(doc_.json, "nodes").size();
        int scene = -1;
        index_member(doc_.json, "scene", scenes.size(), "the document", "", scene);
        for (size_t s = 0; s < scenes.size(); ++s) {
            const json& roots = array_or_empty(scenes[s], "nodes");
            for (size_t r = 0; r < roots.size(); ++r) {
                std::string ptr = "/scenes/" + std::to_string(s) + "/nodes/" + std::to_string(r);
                if (!roots[r].is_number_unsigned() || roots[r].get<uint64_t>() >= nodes) {
                    bad("scene " + std::to_string(s) + " names a root that is not a node index", ptr);
                } else if (const size_t n = roots[r].get<size_t>(); parent_[n] >= 0) {
                    // UniGLTF lists every node; the hierarchy says where each one is (read_gltf_scene).
                    const json& all = array_or_empty(doc_.json, "nodes");
                    report_.add(kGltfNonconforming,
                                "scene " + std::to_string(s) + " lists " + name_of(all[n], n, "node") +
                                    " as a root, but it is a child of " +
                                    name_of(all[size_t(parent_[n])], size_t(parent_[n]), "node") +
                                    " (a scene's nodes must be roots); read under its parent",
                                ptr);
                }
            }
        }
    }

    void check_index_values() {
        const json& meshes = array_or_empty(doc_.json, "meshes");
        std::vector<uint32_t> values;  // index accessors are unsigned byte, short or int
        for (size_t m = 0; m < meshes.size(); ++m) {
            const json& prims = array_or_empty(meshes[m], "primitives");
            for (size_t p = 0; p < prims.size(); ++p) {
                const json* attrs = member(prims[p], "attributes");
                std::optional<int64_t> pos = attrs ? optional_uint(*attrs, "POSITION") : std::nullopt;
                std::optional<int64_t> ind = optional_uint(prims[p], "indices");
                std::optional<int64_t> mode = optional_uint(prims[p], "mode");
                const bool triangles = !mode || *mode == 4;
                const std::string ptr = "/meshes/" + std::to_string(m) + "/primitives/" + std::to_string(p);
                if (!pos) continue;
                const Accessor* pa = accessor(int(*pos));
                const Accessor* ia = ind ? accessor(int(*ind)) : nullptr;
                if (!pa || (ind && !ia)) continue;
                // A triangle list needs whole triangles: Assimp drops a trailing one or two
                // indices without a word, so a list cut short (or padded) would build silently.
                const uint64_t corners = ia ? ia->count : pa->count;
                if (triangles && corners % 3 != 0) {
                    report_.add(kIndexCountInvalid,
                                name_of(meshes[m], m, "mesh") + " primitive " + std::to_string(p) + " is a triangle list of " +
                                    std::to_string(corners) + (ia ? " indices" : " vertices") +
                                    ", not a multiple of 3: its last triangle is incomplete; re-export the mesh",
                                ptr + (ia ? "/indices" : "/attributes/POSITION"));
                    continue;
                }
                if (!ia) continue;
                const Accessor& positions = *pa;
                const Accessor& indices = *ia;
                if (!data_.scalar_values(indices, int(*ind), values)) continue;
                uint64_t bad_count = 0, first = 0, first_value = 0;
                for (uint64_t i = 0; i < indices.count; ++i) {
                    const uint64_t v = values[size_t(i)];
                    if (v >= positions.count) {
                        if (bad_count++ == 0) first = i, first_value = v;
                    }
                }
                if (bad_count == 0) continue;
                std::string element = triangles ? "triangle " + std::to_string(first / 3) + " corner " +
                                                      std::to_string(first % 3)
                                                : "index " + std::to_string(first);
                report_.add(kIndexOutOfRange,
                            name_of(meshes[m], m, "mesh") + " primitive " + std::to_string(p) + ": " + element +
                                " names vertex " + std::to_string(first_value) + " but the primitive has " +
                                std::to_string(positions.count) + " vertices (" + std::to_string(bad_count) +
                                " indices out of range); re-export the mesh",
                            ptr + "/indices");
            }
        }
    }

    void check_joint_values() {
        const json& nodes = array_or_empty(doc_.json, "nodes");
        const json& meshes = array_or_empty(doc_.json, "meshes");
        const json& skins = array_or_empty(doc_.json, "skins");
        std::vector<std::pair<size_t, size_t>> done;  // (mesh, skin) pairs already checked
        for (size_t n = 0; n < nodes.size(); ++n) {
            std::optional<int64_t> mesh = optional_uint(nodes[n], "mesh");
            std::optional<int64_t> skin = optional_uint(nodes[n], "skin");
            if (!mesh || !skin) continue;
            std::pair<size_t, size_t> key{size_t(*mesh), size_t(*skin)};
            if (std::find(done.begin(), done.end(), key) != done.end()) continue;
            done.push_back(key);
            uint64_t joint_count = array_or_empty(skins[key.second], "joints").size();
            const json& prims = array_or_empty(meshes[key.first], "primitives");
            for (size_t p = 0; p < prims.size(); ++p) {
                const json* attrs = member(prims[p], "attributes");
                if (!attrs) continue;
                // Sets JOINTS_0/WEIGHTS_0, JOINTS_1/WEIGHTS_1, ... pair up.
                for (int set = 0; set < 8; ++set) {
                    std::string js = "JOINTS_" + std::to_string(set), ws = "WEIGHTS_" + std::to_string(set);
                    std::optional<int64_t> ji = optional_uint(*attrs, js.c_str());
                    std::optional<int64_t> wi = optional_uint(*attrs, ws.c_str());
                    if (!ji || !wi) break;
                    const Accessor* ja = accessor(int(*ji));
                    const Accessor* wa = accessor(int(*wi));
                    if (ja && wa)
                        check_joint_set(meshes[key.first], key.first, p, skins[key.second], key.second, joint_count,
                                        int(*ji), int(*wi), js);
                }
            }
        }
    }

    void check_joint_set(const json& mesh, size_t m, size_t p, const json& skin, size_t s, uint64_t joint_count,
                         int joint_index, int weight_index, const std::string& set) {
        const Accessor& joints = *accessor(joint_index);
        const Accessor& weights = *accessor(weight_index);
        std::string ptr = "/meshes/" + std::to_string(m) + "/primitives/" + std::to_string(p) + "/attributes/" + set;
        if (joints.components != 4 || (joints.component_type != 5121 && joints.component_type != 5123) ||
            weights.components != 4 || joints.count != weights.count) {
            bad(name_of(mesh, m, "mesh") + " primitive " + std::to_string(p) + " " + set +
                    " is not unsigned byte/short VEC4 matching its weights",
                ptr);
            return;
        }
        // Through the one reader of values, so a sparse substitution is checked like the rest.
        std::vector<float>& jv = joint_values_;
        std::vector<float>& wv = weight_values_;
        if (!data_.floats(joint_index, 4, jv, set) || !data_.floats(weight_index, 4, wv, "WEIGHTS")) return;
        // Assimp keeps only weights above zero, so a NaN one vanishes and its vertex is skinned by
        // what is left: refuse it by name.
        for (uint64_t v = 0; v < weights.count; ++v)
            for (uint32_t c = 0; c < 4; ++c) {
                const double w = wv[size_t(v * 4 + c)];
                if (std::isfinite(w) && w >= 0) continue;
                report_.add(kWeightInvalid,
                            name_of(mesh, m, "mesh") + " primitive " + std::to_string(p) + ": vertex " +
                                std::to_string(v) + " weight " + std::to_string(c) + " of WEIGHTS" + set.substr(set.find('_')) +
                                " is " + format_text("%.9g", w) + " (NaN, infinite or negative); re-export the skin",
                            ptr);
                return;
            }
        uint64_t bad_count = 0, first_vertex = 0, first_joint = 0;
        for (uint64_t v = 0; v < joints.count; ++v)
            for (uint32_t c = 0; c < 4; ++c) {
                // A joint under zero weight moves nothing; only a weighted one must exist.
                if (!(wv[size_t(v * 4 + c)] > 0)) continue;
                const uint64_t j = uint64_t(jv[size_t(v * 4 + c)]);
                if (j >= joint_count && bad_count++ == 0) first_vertex = v, first_joint = j;
            }
        if (bad_count == 0) return;
        report_.add(kJointOutOfRange,
                    name_of(mesh, m, "mesh") + " primitive " + std::to_string(p) + ": vertex " +
                        std::to_string(first_vertex) + " is weighted to joint " + std::to_string(first_joint) +
                        " but " + name_of(skin, s, "skin") + " has " + std::to_string(joint_count) + " joints (" +
                        std::to_string(bad_count) + " weights name missing joints); re-export the skin",
                    ptr);
    }
};

}  // namespace

bool check_gltf(const GltfDocument& doc, GltfData& data, Reporter& report) { return Checker(doc, data, report).run(); }

bool check_gltf1(const GltfDocument& doc, Reporter& report) {
    // glTF 1.0 names nodes by id ("nodes": {"id": {"children": ["id", ...]}}). Assimp's reader
    // follows children recursively with no check: a node that is its own child recurses until the
    // stack runs out, and so does a chain deep enough. Same rule as 2.0: a forest of bounded depth.
    const json* nodes = member(doc.json, "nodes");
    if (!nodes || !nodes->is_object()) return true;
    std::unordered_map<std::string, int> index;
    std::vector<std::string> ids;
    for (auto it = nodes->begin(); it != nodes->end(); ++it) {
        index.emplace(it.key(), int(ids.size()));
        ids.push_back(it.key());
    }
    std::vector<int> parent(ids.size(), -1);
    auto bad = [&](const std::string& message, const std::string& pointer) {
        report.add(kGltfReferenceInvalid, message, pointer);
        return false;
    };
    int n = 0;
    for (auto it = nodes->begin(); it != nodes->end(); ++it, ++n) {
        const json* children = member(it.value(), "children");
        if (!children) continue;
        const std::string ptr = "/nodes/" + it.key() + "/children";
        if (!children->is_array()) return bad("node '" + it.key() + "' has children that are not a list", ptr);
        for (size_t c = 0; c < children->size(); ++c) {
            const json& child = (*children)[c];
            auto found = child.is_string() ? index.find(child.get_ref<const std::string&>()) : index.end();
            if (found == index.end())
                return bad("node '" + it.key() + "' has a child that is not a node id", ptr + "/" + std::to_string(c));
            if (found->second == n || parent[size_t(found->second)] >= 0)
                return bad("node '" + it.key() + "' lists node '" + found->first +
                               "' as a child, but it already has a parent (or is the node itself)",
                           ptr + "/" + std::to_string(c));
            parent[size_t(found->second)] = n;
        }
    }
    // One parent each: a cycle never reaches a root, and the depth bound catches it too. Each
    // node's depth is computed once (memoised), so a long chain costs its length, not its square.
    std::vector<int> depth(ids.size(), -1);
    for (size_t i = 0; i < ids.size(); ++i) {
        std::vector<size_t> path;
        size_t at = i;
        while (depth[at] < 0 && parent[at] >= 0 && path.size() <= size_t(kMaxNodeDepth)) {
            path.push_back(at);
            at = size_t(parent[at]);
        }
        int d = depth[at] >= 0 ? depth[at] : (parent[at] < 0 ? 0 : kMaxNodeDepth + 1);
        for (size_t k = path.size(); k-- > 0;) depth[path[k]] = ++d;
        if (d > kMaxNodeDepth)
            return bad("node '" + ids[i] + "' is in a cycle or deeper than " + std::to_string(kMaxNodeDepth) + " levels",
                       "/nodes/" + ids[i]);
    }
    return true;
}

}  // namespace weft::import_detail