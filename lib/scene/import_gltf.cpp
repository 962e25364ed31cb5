// The native glTF 2.0 reader (docs/architecture.md#reading-gltf): a checked GltfDocument into the Scene,
// with no second parser. Node i of the file is the Scene node whose `source` is i, a mesh's
// vertices map to the file's by index (Mesh::source_vertices), so nothing is matched afterwards.
//
// The Scene is the one Assimp 5.2.5's glTF reader, converted by weft, produced for the same file,
// field for field (tests/scene/gltf_content_test.cpp checks it against the file): the same node order (depth-first
// from the scene's roots, a node "ROOT" above several), names, transforms composed in single
// precision as Assimp's glTF reader composes them, the vertices JoinIdenticalVertices keeps in
// the order it keeps them, and key times through the same milliseconds. Meshes are put in scene
// space by the same finish_mesh as Assimp's. Where the two readers differ on purpose: animation
// channels name their node by index (Assimp by the node's name, so two nodes of one name drew
// the first's animation), and integer or normalised accessors are read as the specification
// says (Assimp 5.2.5 copies their bytes into floats).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>

#include <assimp/types.h>  // header-only math (vectors, matrices, quaternions and their .inl)

#include "io/utf8_text.h"
#include "scene/gltf_document.h"
#include "scene/gltf_primitive.h"
#include "io/number_range.h"
#include "scene/authored_numbers.h"
#include "scene/import_detail.h"

namespace weft::import_detail {
namespace {

using nlohmann::json;

/// A glTF numeric member as single precision, the precision the file's floats have.
bool read_floats(const json& object, const char* key, size_t n, float* out) {
    const json* m = member(object, key);
    if (!m || !m->is_array() || m->size() != n) return false;
    for (size_t i = 0; i < n; ++i) {
        if (!(*m)[i].is_number()) return false;
        out[i] = float((*m)[i].get<double>());
    }
    return true;
}

/// A node's rest transform: its matrix, or T·R·S composed in single precision, in that order
/// (glTF 2.0 specification 3.5.3); the float arithmetic is Assimp's own header math, so a
/// transform is the one the Assimp path read to the last bit.
Mat4 node_local(const json& node) {
    float m[16];
    if (read_floats(node, "matrix", 16, m)) {
        Mat4 r;
        for (int row = 0; row < 4; ++row)
            for (int col = 0; col < 4; ++col) r.at(row, col) = double(m[col * 4 + row]);  // column-major
        return r;
    }
    aiMatrix4x4 matrix;
    float t[3], q[4], s[3];
    if (read_floats(node, "translation", 3, t)) {
        aiMatrix4x4 tm;
        aiMatrix4x4::Translation(aiVector3D(t[0], t[1], t[2]), tm);
        matrix = matrix * tm;
    }
    if (read_floats(node, "rotation", 4, q)) {
        // glTF's rotations are unit quaternions; another turns the matrix into a shear (x = w = 1 mirrors
        // y). One off by more than the tolerance is normalised, a zero one read as none: build_nodes
        // names either (TRANSFORM_OUT_OF_RANGE). Within it the file's bits stay (exporters round).
        const double len = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] + double(q[3]) * q[3]);
        if (!(len > 1e-6)) q[0] = q[1] = q[2] = 0, q[3] = 1;
        else if (std::isfinite(len) && std::abs(len - 1) > kUnitQuaternionTolerance)
            for (float& c : q) c = float(c / len);
        const aiQuaternion rot(q[3], q[0], q[1], q[2]);  // file order x, y, z, w
        matrix = matrix * aiMatrix4x4(rot.GetMatrix());
    }
    if (read_floats(node, "scale", 3, s)) {
        aiMatrix4x4 sm;
        aiMatrix4x4::Scaling(aiVector3D(s[0], s[1], s[2]), sm);
        matrix = matrix * sm;
    }
    return to_mat4(matrix);
}

class GltfReader {
public:
    GltfReader(const GltfDocument& doc, GltfData& data, const ImportOptions& options, Scene& scene, Reporter& report)
        : doc_(doc), data_(data), options_(options), scene_(scene), report_(report) {}

    bool run(std::vector<int>& scene_of_gltf) {
        scene_.correction = Mat4::identity();
        scene_.unit_scale = 1;
        scene_.up_axis = "Y";
        if (!read_primitives()) return false;
        if (!build_nodes(scene_of_gltf)) return false;
        build_materials();
        build_meshes(scene_of_gltf);
        if (report_.failed()) return false;
        warn_default_pose_off_bind(bind_to_rest_, scene_, report_);
        if (report_.failed()) return false;
        build_clips(scene_of_gltf);
        return !report_.failed();
    }

private:
    const GltfDocument& doc_;
    GltfData& data_;
    const ImportOptions& options_;
    Scene& scene_;
    Reporter& report_;
    BindToRest bind_to_rest_;
    std::vector<std::vector<GltfPrimitive>> primitives_;  ///< per glTF mesh, per primitive
    std::vector<int> material_of_gltf_;               ///< glTF material -> Scene material, -1 if dropped
    int default_material_ = -1;                       ///< the Scene material of primitives without one
    std::vector<float> scratch_times_, scratch_values_;  ///< a sampler's keys, reused across samplers

    bool floats(int index, uint32_t n, std::vector<float>& out, const std::string& what, const char* part = "") {
        return data_.floats(index, n, out, what, part);
    }

    std::string mesh_name(const json& mesh, size_t m) const {
        std::string name = gltf_string_member(mesh, "name");
        return name.empty() ? "meshes[" + std::to_string(m) + "]" : name;
    }

    /// Reads every primitive of every mesh, refuses a non-finite position, and joins identical
    /// vertices as JoinIdenticalVertices does.
    bool read_primitives() {
        const json& meshes = array_or_empty(doc_.json, "meshes");
        primitives_.resize(meshes.size());
        size_t total = 0;
        for (size_t m = 0; m < meshes.size(); ++m) {
            const json& prims = array_or_empty(meshes[m], "primitives");
            primitives_[m].resize(prims.size());
            for (size_t p = 0; p < prims.size(); ++p, ++total) {
                std::string name = mesh_name(meshes[m], m);
                if (prims.size() > 1) name += "-" + std::to_string(p);
                if (!read_gltf_primitive(doc_, data_, prims[p], name, primitives_[m][p], report_)) return false;
            }
        }
        if (total == 0) {
            report_.add(kNoMeshes, "the model has no meshes; nothing to build cloth from");
            return false;
        }
        return true;
    }

    const json* gltf_object(const char* list, int index) const {
        const json& l = array_or_empty(doc_.json, list);
        return index >= 0 && size_t(index) < l.size() ? &l[size_t(index)] : nullptr;
    }

    /// The roots the file shows: its default scene's (scene 0 when it names none), or, in a file
    /// without scenes, every node without a parent (as three.js and Blender show it). A listed
    /// node that has a parent (warned by the checks) stands for its topmost ancestor, once.
    std::vector<int> scene_roots(const json& nodes) const {
        std::vector<int> parent(nodes.size(), -1);
        for (size_t n = 0; n < nodes.size(); ++n)
            for (const json& c : array_or_empty(nodes[n], "children"))
                if (c.is_number_unsigned() && c.get<uint64_t>() < nodes.size()) parent[c.get<size_t>()] = int(n);
        std::vector<int> listed;
        const json& scenes = array_or_empty(doc_.json, "scenes");
        const int which = std::max(gltf_index_of(doc_.json, "scene"), 0);
        if (size_t(which) < scenes.size()) {
            for (const json& r : array_or_empty(scenes[size_t(which)], "nodes"))
                if (r.is_number_unsigned() && r.get<uint64_t>() < nodes.size()) listed.push_back(int(r.get<uint64_t>()));
        } else {
            for (size_t n = 0; n < nodes.size(); ++n)
                if (parent[n] < 0) listed.push_back(int(n));
        }
        // Marked rather than searched for: a file of 50,000 root nodes (the instance budget's test) took
        // 1.25e9 comparisons finding each in the list of those before it.
        std::vector<int> roots;
        std::vector<bool> is_root(nodes.size(), false);
        for (int r : listed) {
            while (parent[size_t(r)] >= 0) r = parent[size_t(r)];  // check_gltf bounded the depth
            if (!is_root[size_t(r)]) {
                is_root[size_t(r)] = true;
                roots.push_back(r);
            }
        }
        return roots;
    }

    /// A node's rotation that is not a unit quaternion, named (node_local normalised it).
    void check_rotation(const json& gnode, const std::string& name) {
        float q[4];
        if (!read_floats(gnode, "rotation", 4, q)) return;
        const double len = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] + double(q[3]) * q[3]);
        if (!std::isfinite(len)) return;  // NON_FINITE_TRANSFORM refuses it
        std::string why = not_unit("rotation length", len, kUnitQuaternionTolerance);
        if (why.empty()) return;
        why += len > 1e-6 ? ": normalised" : ": read as no rotation";
        report_.add(kTransformOutOfRange, "node '" + name + "': " + why + " (glTF rotations are unit quaternions)", "/nodes/" + name);
    }

    /// Depth-first from the scene's roots, children in file order; a node "ROOT" above several
    /// roots (or alone, for a scene without any).
    bool build_nodes(std::vector<int>& scene_of_gltf) {
        const json& nodes = array_or_empty(doc_.json, "nodes");
        scene_of_gltf.assign(nodes.size(), -1);
        const std::vector<int> roots = scene_roots(nodes);
        struct Item { int gltf; int parent; };
        std::vector<Item> stack;
        if (roots.size() == 1) {
            stack.push_back({roots[0], -1});
        } else {
            Node root;
            root.name = "ROOT";
            scene_.nodes.push_back(std::move(root));
            for (size_t r = roots.size(); r-- > 0;) stack.push_back({roots[r], 0});
        }
        while (!stack.empty()) {
            const Item item = stack.back();
            stack.pop_back();
            const int index = int(scene_.nodes.size());
            const json& gnode = nodes[size_t(item.gltf)];
            Node node;
            node.name = gltf_string_member(gnode, "name");
            if (node.name.empty()) node.name = "nodes[" + std::to_string(item.gltf) + "]";
            node.parent = item.parent;
            node.source = item.gltf;
            node.local = node_local(gnode);
            check_rotation(gnode, node.name);
            if (!node.local.is_finite())
                report_.add(kNonFiniteTransform, "node '" + node.name + "' has a NaN or infinite transform",
                            "/nodes/" + node.name);
            node.world = item.parent < 0 ? node.local : scene_.nodes[size_t(item.parent)].world * node.local;
            if (item.parent >= 0) scene_.nodes[size_t(item.parent)].children.push_back(index);
            if (node.local.is_finite() && !node.world.is_finite())
                report_.add(kNonFiniteTransform,
                            "node '" + node.name + "' world transform overflows (its scales multiply past the float range)",
                            "/nodes/" + node.name);
            scene_.nodes.push_back(std::move(node));
            scene_of_gltf[size_t(item.gltf)] = index;
            const json& children = array_or_empty(gnode, "children");
            for (size_t c = children.size(); c-- > 0;)
                if (children[c].is_number_unsigned() && children[c].get<uint64_t>() < nodes.size())
                    stack.push_back({int(children[c].get<uint64_t>()), index});
        }
        return !report_.failed();
    }

    /// Material slot names: the materials the meshes of the model use, in the order the file is
    /// first seen to use them (Assimp's order: a node's children before its own mesh, the scene's
    /// nodes, then skin joints and animated nodes outside it), then an unnamed one standing for
    /// primitives without a material.
    void build_materials() {
        const json& nodes = array_or_empty(doc_.json, "nodes");
        const json& meshes = array_or_empty(doc_.json, "meshes");
        const json& materials = array_or_empty(doc_.json, "materials");
        material_of_gltf_.assign(materials.size(), -1);
        std::vector<char> node_seen(nodes.size(), 0), mesh_seen(meshes.size(), 0);
        bool default_used = false;
        auto use_mesh = [&](int m) {
            if (m < 0 || size_t(m) >= meshes.size() || mesh_seen[size_t(m)]) return;
            mesh_seen[size_t(m)] = 1;
            for (const json& prim : array_or_empty(meshes[size_t(m)], "primitives")) {
                const int k = gltf_index_of(prim, "material");
                if (k < 0 || size_t(k) >= materials.size()) {
                    default_used = true;
                } else if (material_of_gltf_[size_t(k)] < 0) {
                    material_of_gltf_[size_t(k)] = int(scene_.materials.size());
                    scene_.materials.push_back(gltf_string_member(materials[size_t(k)], "name"));
                }
            }
        };
        // Children first, then the node's mesh; check_gltf made the hierarchy a bounded forest.
        auto visit = [&](int root) {
            std::vector<std::pair<int, size_t>> stack;  // node, next child
            auto enter = [&](int g) {
                if (g < 0 || size_t(g) >= nodes.size() || node_seen[size_t(g)]) return;
                node_seen[size_t(g)] = 1;
                stack.push_back({g, 0});
            };
            enter(root);
            while (!stack.empty()) {
                auto& [g, next] = stack.back();
                const json& children = array_or_empty(nodes[size_t(g)], "children");
                if (next < children.size()) {
                    const json& c = children[next++];
                    if (c.is_number_unsigned() && c.get<uint64_t>() < nodes.size()) enter(int(c.get<uint64_t>()));
                    continue;
                }
                use_mesh(gltf_index_of(nodes[size_t(g)], "mesh"));
                stack.pop_back();
            }
        };
        for (const Node& node : scene_.nodes)
            if (node.parent <= 0 && node.source >= 0) visit(node.source);
        for (const json& skin : array_or_empty(doc_.json, "skins")) {
            visit(gltf_index_of(skin, "skeleton"));
            for (const json& j : array_or_empty(skin, "joints"))
                if (j.is_number_unsigned() && j.get<uint64_t>() < nodes.size()) visit(int(j.get<uint64_t>()));
        }
        for (const json& anim : array_or_empty(doc_.json, "animations"))
            for (const json& channel : array_or_empty(anim, "channels"))
                if (const json* target = member(channel, "target")) visit(gltf_index_of(*target, "node"));
        if (default_used) {
            default_material_ = int(scene_.materials.size());
            scene_.materials.emplace_back();
        }
    }

    /// The glTF mesh each Scene node instances, -1 for none.
    std::vector<int> mesh_of_nodes() const {
        const size_t meshes = array_or_empty(doc_.json, "meshes").size();
        std::vector<int> out(scene_.nodes.size(), -1);
        for (size_t n = 0; n < scene_.nodes.size(); ++n) {
            const int g = scene_.nodes[n].source;
            const json* gnode = g >= 0 ? gltf_object("nodes", g) : nullptr;
            const int m = gnode ? gltf_index_of(*gnode, "mesh") : -1;
            if (m >= 0 && size_t(m) < meshes) out[n] = m;
        }
        return out;
    }

    /// The copies build_meshes would make, against the budgets, before it makes any.
    bool within_budget(const std::vector<int>& mesh_of_node) {
        std::vector<uint64_t> copies(primitives_.size(), 0);
        for (int m : mesh_of_node)
            if (m >= 0) ++copies[size_t(m)];
        FlattenCount count;
        for (size_t m = 0; m < primitives_.size(); ++m)
            for (const GltfPrimitive& prim : primitives_[m]) count.add(prim.mesh.name, prim.mesh.positions.size(), copies[m]);
        return within_flatten_budget(count, options_, report_);
    }

    void build_meshes(const std::vector<int>& scene_of_gltf) {
        const json& meshes = array_or_empty(doc_.json, "meshes");
        const std::vector<int> mesh_of_node = mesh_of_nodes();
        if (!within_budget(mesh_of_node)) return;
        std::vector<char> instanced(meshes.size(), 0);
        for (size_t n = 0; n < scene_.nodes.size(); ++n) {
            const int m = mesh_of_node[n];
            if (m < 0) continue;
            const json* gnode = gltf_object("nodes", scene_.nodes[n].source);
            instanced[size_t(m)] = 1;
            const json* skin = gltf_object("skins", gltf_index_of(*gnode, "skin"));
            const json& prims = array_or_empty(meshes[size_t(m)], "primitives");
            for (size_t p = 0; p < primitives_[size_t(m)].size(); ++p) {
                GltfPrimitive& prim = primitives_[size_t(m)][p];
                const int material = gltf_index_of(prims[p], "material");
                prim.mesh.material = material >= 0 && size_t(material) < material_of_gltf_.size()
                                         ? material_of_gltf_[size_t(material)]
                                         : default_material_;
                prim.mesh.bones.clear();
                prim.mesh.skin_name.clear();
                if (skin && !skin_bones(*skin, prim, scene_of_gltf)) return;
                Mesh mesh;
                mesh.source_mesh = m;
                mesh.source_primitive = int(p);
                mesh.source_vertices = prim.joined_of_file;
                if (finish_mesh(prim.mesh, int(n), options_, scene_, mesh, report_, bind_to_rest_)) {
                    scene_.nodes[n].meshes.push_back(int(scene_.meshes.size()));
                    scene_.meshes.push_back(std::move(mesh));
                }
            }
        }
        for (size_t m = 0; m < meshes.size(); ++m)
            if (!instanced[m])
                for (const GltfPrimitive& prim : primitives_[m])
                    report_.add(kMeshNotInstanced,
                                "mesh '" + prim.mesh.name + "' is not instanced by any node of the scene; skipped",
                                "/meshes/" + prim.mesh.name);
    }

    /// One bone per joint of the skin, in joint order, with the file's inverse bind and the
    /// weights every JOINTS_n/WEIGHTS_n pair gives the kept vertices.
    bool skin_bones(const json& skin, GltfPrimitive& prim, const std::vector<int>& scene_of_gltf) {
        SourceMesh& mesh = prim.mesh;
        mesh.skin_name = gltf_string_member(skin, "name");
        const json& joints = array_or_empty(skin, "joints");
        std::vector<float> ibm;
        const int ibm_accessor = gltf_index_of(skin, "inverseBindMatrices");
        if (ibm_accessor >= 0 && !floats(ibm_accessor, 16, ibm, "skin '" + mesh.skin_name + "' inverseBindMatrices"))
            return false;
        mesh.bones.resize(joints.size());
        for (size_t j = 0; j < joints.size(); ++j) {
            SourceBone& bone = mesh.bones[j];
            const int g = joints[j].is_number_unsigned() && joints[j].get<uint64_t>() < scene_of_gltf.size()
                              ? int(joints[j].get<uint64_t>())
                              : -1;
            const json* gnode = g >= 0 ? gltf_object("nodes", g) : nullptr;
            bone.name = gnode ? gltf_string_member(*gnode, "name") : "";
            if (bone.name.empty()) bone.name = "bone_" + std::to_string(j);
            bone.node = g >= 0 ? scene_of_gltf[size_t(g)] : -1;
            bone.offset = Mat4::identity();
            if ((j + 1) * 16 <= ibm.size())
                for (int row = 0; row < 4; ++row)
                    for (int col = 0; col < 4; ++col) bone.offset.at(row, col) = double(ibm[j * 16 + size_t(col * 4 + row)]);
        }
        if (prim.weight_sets.empty()) return true;
        std::vector<std::vector<float>> jv(prim.weight_sets.size()), wv(prim.weight_sets.size());
        for (size_t set = 0; set < prim.weight_sets.size(); ++set) {
            const std::string n = std::to_string(set);
            if (!floats(prim.weight_sets[set].first, 4, jv[set], "mesh '" + mesh.name + "' JOINTS_" + n) ||
                !floats(prim.weight_sets[set].second, 4, wv[set], "mesh '" + mesh.name + "' WEIGHTS_" + n))
                return false;
            if (jv[set].size() != wv[set].size() || wv[set].size() != wv[0].size()) return true;  // Assimp reads none then
        }
        // A kept vertex carries its own weights; a vertex joined into another adds none.
        for (size_t k = 0; k < prim.file_of_joined.size(); ++k) {
            const size_t v = prim.file_of_joined[k];
            if (4 * v + 3 >= wv[0].size()) continue;
            for (size_t set = 0; set < wv.size(); ++set)
                for (size_t c = 0; c < 4; ++c) {
                    const float w = wv[set][4 * v + c];
                    const float j = jv[set][4 * v + c];
                    if (w > 0 && j >= 0 && size_t(j) < mesh.bones.size())
                        mesh.bones[size_t(j)].weights.emplace_back(uint32_t(k), w);
                }
        }
        return true;
    }

    /// Each animation as a Clip: per node its translation, rotation and scale keys (the middle
    /// value of a cubic spline's triple; a missing part keyed once with the node's rest value).
    /// The animations as the scanner read them, else parsed here from their text.
    bool animation_entries(std::vector<GltfAnimation>& parsed, const std::vector<GltfAnimation>*& out) {
        out = &parsed;
        if (doc_.scanned_animations) {
            out = &doc_.animations;
            return true;
        }
        json text_dom;
        const json* dom = member(doc_.json, "animations");
        if (!doc_.animations_text.empty()) {
            try {
                text_dom = json::parse(doc_.animations_text.begin(), doc_.animations_text.end());
            } catch (const json::exception& e) {
                report_.add(kGltfJsonInvalid, std::string("the glTF JSON does not parse: member \"animations\": ") + e.what());
                return false;
            }
            dom = &text_dom;
        }
        if (!dom || !dom->is_array()) return true;
        using Path = GltfAnimation::Path;
        for (const json& anim : *dom) {
            GltfAnimation a;
            a.name = gltf_string_member(anim, "name");
            for (const json& c : array_or_empty(anim, "channels")) {
                GltfAnimation::Channel ch;
                ch.sampler = gltf_index_of(c, "sampler");
                if (const json* target = member(c, "target")) {
                    ch.node = gltf_index_of(*target, "node");
                    const std::string path = gltf_string_member(*target, "path");
                    ch.path = path == "translation" ? Path::translation
                              : path == "rotation"  ? Path::rotation
                              : path == "scale"     ? Path::scale
                              : path == "weights"   ? Path::weights
                                                    : Path::other;
                } else {
                    ch.sampler = -1;
                }
                a.channels.push_back(ch);
            }
            for (const json& sm : array_or_empty(anim, "samplers"))
                a.samplers.push_back({gltf_index_of(sm, "input"), gltf_index_of(sm, "output"),
                                      gltf_string_member(sm, "interpolation") == "CUBICSPLINE"});
            parsed.push_back(std::move(a));
        }
        return true;
    }

    void build_clips(const std::vector<int>& scene_of_gltf) {
        std::vector<GltfAnimation> parsed;
        const std::vector<GltfAnimation>* entries = nullptr;
        if (!animation_entries(parsed, entries)) return;
        const std::vector<GltfAnimation>& animations = *entries;
        const json& nodes = array_or_empty(doc_.json, "nodes");
        using Path = GltfAnimation::Path;
        ClipKeyBudget budget(options_.max_clip_keys);
        for (size_t a = 0; a < animations.size(); ++a) {
            const GltfAnimation& anim = animations[a];
            Clip clip;
            clip.name = valid_utf8(anim.name);
            const std::string what = "clip '" + clip.name + "'";
            const std::vector<GltfAnimation::Sampler>& samplers = anim.samplers;
            struct Parts { int t = -1, r = -1, s = -1; };
            std::vector<std::pair<int, Parts>> by_node;  // glTF node -> samplers, first-channel order
            std::unordered_map<int, size_t> slot_of_node;  // glTF node -> its index in by_node
            double last_ms = 0;                          // the latest key in milliseconds, as Assimp times them
            for (size_t c = 0; c < anim.channels.size(); ++c) {
                const int sampler = anim.channels[c].sampler;
                if (sampler < 0 || size_t(sampler) >= samplers.size()) continue;
                const int node = anim.channels[c].node;
                const Path path = anim.channels[c].path;
                if (node < 0 || size_t(node) >= nodes.size()) {
                    report_.add(kClipInvalid,
                                "clip '" + clip.name + "': channel " + std::to_string(c) +
                                    " moves a node the file does not have; skipped",
                                "/animations/" + std::to_string(a) + "/channels/" + std::to_string(c));
                    continue;
                }
                if (path == Path::weights) {
                    std::vector<float>& times = scratch_times_;
                    const int input = samplers[size_t(sampler)].input;
                    if (input >= 0 && floats(input, 1, times, what, " input") && !times.empty())
                        last_ms = std::max(last_ms, double(times.back() * 1000.f));
                    continue;
                }
                // Found by a map, not a search of the list so far: a clip of many channels on many
                // nodes would otherwise cost their product.
                const auto [slot, added] = slot_of_node.try_emplace(node, by_node.size());
                if (added) by_node.push_back({node, Parts{}});
                Parts& parts = by_node[slot->second].second;
                if (path == Path::translation) parts.t = sampler;
                else if (path == Path::rotation) parts.r = sampler;
                else if (path == Path::scale) parts.s = sampler;
            }
            for (const auto& [g, parts] : by_node) {
                if (parts.t < 0 && parts.r < 0 && parts.s < 0) continue;
                ClipChannel ch;
                ch.node = scene_of_gltf[size_t(g)];
                const json& gnode = nodes[size_t(g)];
                // A part the clip does not animate is keyed once with the node's rest value (the
                // glTF default when the node has none), as Assimp keyed it.
                float t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, sc[3] = {1, 1, 1};
                read_floats(gnode, "translation", 3, t);
                read_floats(gnode, "rotation", 4, r);
                read_floats(gnode, "scale", 3, sc);
                if (parts.t >= 0) vec3_keys(samplers[size_t(parts.t)], what, ch.translation, last_ms);
                else ch.translation.push_back({0, {t[0], t[1], t[2]}});
                if (parts.r >= 0) quat_keys(samplers[size_t(parts.r)], what, ch.rotation, last_ms);
                else ch.rotation.push_back({0, Quat{r[0], r[1], r[2], r[3]}});
                if (parts.s >= 0) vec3_keys(samplers[size_t(parts.s)], what, ch.scale, last_ms);
                else ch.scale.push_back({0, {sc[0], sc[1], sc[2]}});
                if (ch.node < 0) {
                    report_.add(kClipInvalid, what + " moves node '" + gltf_string_member(gnode, "name") +
                                                  "', which is not in the scene shown; skipped",
                                "/animations/" + std::to_string(a));
                    continue;
                }
                if (!budget.take(ch.translation.size() + ch.rotation.size() + ch.scale.size())) break;
                clip.channels.push_back(std::move(ch));
            }
            if (!budget.end_clip(clip.name, "/animations/" + std::to_string(a), report_)) continue;
            clip.duration = last_ms / 1000.0;
            scene_.animations.push_back(clip.name);
            scene_.clips.push_back(std::move(clip));
        }
    }

    /// A sampler's keys: times through milliseconds in single precision, as the Assimp path
    /// timed them, so a clip samples to the same bits.
    bool sampler_data(const GltfAnimation::Sampler& sampler, uint32_t components, const std::string& what,
                      std::vector<float>& times, std::vector<float>& values, size_t& step, size_t& first) {
        const int input = sampler.input, output = sampler.output;
        if (input < 0 || output < 0) return false;
        if (!floats(input, 1, times, what, " input") || !floats(output, components, values, what, " output"))
            return false;
        const bool cubic = sampler.cubic;
        step = cubic ? 3 : 1;
        first = cubic ? 1 : 0;
        if (times.size() * step * components > values.size()) {
            report_.add(kClipInvalid,
                        what + ": a sampler has " + std::to_string(times.size()) + " key times but " +
                            std::to_string(values.size() / components) + " values; skipped",
                        "/accessors/" + std::to_string(output));
            return false;
        }
        return true;
    }

    /// A sampler's keys, `n` floats each, as {time, value(first float)}; the time passes through
    /// milliseconds in single precision, as Assimp's keys do.
    template <class Key, class Value>
    void sampler_keys(const GltfAnimation::Sampler& sampler, uint32_t n, const std::string& what, std::vector<Key>& out,
                      double& last_ms, Value value) {
        std::vector<float>& times = scratch_times_;
        std::vector<float>& values = scratch_values_;
        size_t step = 1, first = 0;
        if (!sampler_data(sampler, n, what, times, values, step, first)) return;
        out.reserve(out.size() + times.size());
        for (size_t k = 0; k < times.size(); ++k)
            out.push_back({double(times[k] * 1000.f) / 1000.0, value(&values[(first + k * step) * n])});
        if (!times.empty()) last_ms = std::max(last_ms, double(times.back() * 1000.f));
    }

    void vec3_keys(const GltfAnimation::Sampler& sampler, const std::string& what, std::vector<Vec3Key>& out, double& last_ms) {
        sampler_keys(sampler, 3, what, out, last_ms, [](const float* v) { return Vec3{v[0], v[1], v[2]}; });
    }

    void quat_keys(const GltfAnimation::Sampler& sampler, const std::string& what, std::vector<QuatKey>& out, double& last_ms) {
        sampler_keys(sampler, 4, what, out, last_ms, [](const float* v) { return Quat{v[0], v[1], v[2], v[3]}; });
    }
};

}  // namespace

bool read_gltf_scene(const GltfDocument& doc, GltfData& data, const ImportOptions& options, Scene& scene,
                     std::vector<int>& scene_of_gltf, Reporter& report) {
    return GltfReader(doc, data, options, scene, report).run(scene_of_gltf);
}

}  // namespace weft::import_detail
