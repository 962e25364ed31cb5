#include "scene/gltf_write.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "scene/gltf_springs.h"

namespace weft {

namespace {

using Json = nlohmann::json;

// glTF 2.0 specification, section 3.6.2 enums.
constexpr int kFloat = 5126, kUnsignedByte = 5121, kUnsignedShort = 5123, kUnsignedInt = 5125;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr uint32_t kGlbMagic = 0x46546C67, kChunkJson = 0x4E4F534A, kChunkBin = 0x004E4942;

bool finite_as_float(double v) { return std::isfinite(static_cast<float>(v)); }

std::string quoted(const std::string& name) { return "'" + name + "'"; }

std::string mesh_label(const Scene& scene, size_t m) {
    const Mesh& mesh = scene.meshes[m];
    std::string label = "mesh " + std::to_string(m) + " " + quoted(mesh.name);
    if (mesh.material >= 0 && static_cast<size_t>(mesh.material) < scene.materials.size())
        label += " (material " + quoted(scene.materials[mesh.material]) + ")";
    return label;
}

std::string node_label(const Scene& scene, size_t n) {
    return "node " + std::to_string(n) + " " + quoted(scene.nodes[n].name);
}

// ---------------------------------------------------------------------------------------------
// Checking

std::string hierarchy_error(const Scene& scene) {
    const size_t n = scene.nodes.size();
    std::vector<int> listed_by(n, -1);
    for (size_t i = 0; i < n; ++i) {
        const Node& node = scene.nodes[i];
        if (node.parent < -1 || node.parent >= static_cast<int>(n))
            return node_label(scene, i) + ": parent " + std::to_string(node.parent) + " is not a node";
        if (!node.local.is_finite() || !node.world.is_finite())
            return node_label(scene, i) + ": transform is not finite";
        for (int c : node.children) {
            if (c < 0 || c >= static_cast<int>(n))
                return node_label(scene, i) + ": child " + std::to_string(c) + " is not a node";
            if (listed_by[c] >= 0)
                return node_label(scene, c) + " is listed as a child twice (by nodes " +
                       std::to_string(listed_by[c]) + " and " + std::to_string(i) + ")";
            listed_by[c] = static_cast<int>(i);
            if (scene.nodes[c].parent != static_cast<int>(i))
                return node_label(scene, c) + " is a child of " + node_label(scene, i) +
                       " but names parent " + std::to_string(scene.nodes[c].parent);
        }
    }
    for (size_t i = 0; i < n; ++i)
        if (scene.nodes[i].parent >= 0 && listed_by[i] != scene.nodes[i].parent)
            return node_label(scene, i) + " names parent " + std::to_string(scene.nodes[i].parent) +
                   " which does not list it as a child";
    // Every node reachable from a root, else some parent chain loops.
    std::vector<char> seen(n, 0);
    std::vector<size_t> stack;
    for (size_t i = 0; i < n; ++i)
        if (scene.nodes[i].parent < 0) stack.push_back(i);
    while (!stack.empty()) {
        size_t i = stack.back();
        stack.pop_back();
        seen[i] = 1;
        for (int c : scene.nodes[i].children) stack.push_back(static_cast<size_t>(c));
    }
    for (size_t i = 0; i < n; ++i)
        if (!seen[i]) return node_label(scene, i) + " is its own ancestor (the parent chain loops)";
    return {};
}

std::string skin_error(const Scene& scene, size_t s) {
    const Skin& skin = scene.skins[s];
    std::string label = "skin " + std::to_string(s) + " " + quoted(skin.name);
    if (skin.joints.empty()) return label + " has no joints";
    if (skin.inverse_bind.size() != skin.joints.size())
        return label + " has " + std::to_string(skin.joints.size()) + " joints but " +
               std::to_string(skin.inverse_bind.size()) + " inverse bind matrices";
    if (skin.joints.size() > 65536) return label + " has more joints than glTF's JOINTS_n can index";
    std::vector<int> sorted = skin.joints;
    std::sort(sorted.begin(), sorted.end());
    for (size_t j = 0; j < sorted.size(); ++j) {
        if (sorted[j] < 0 || sorted[j] >= static_cast<int>(scene.nodes.size()))
            return label + ": joint node " + std::to_string(sorted[j]) + " is not a node";
        if (j > 0 && sorted[j] == sorted[j - 1])
            return label + ": " + node_label(scene, sorted[j]) + " is a joint twice";
    }
    for (size_t j = 0; j < skin.inverse_bind.size(); ++j)
        for (double v : skin.inverse_bind[j].m)
            if (!finite_as_float(v))
                return label + ": inverse bind matrix of joint " + std::to_string(j) + " is not finite";
    return {};
}

std::string mesh_error(const Scene& scene, size_t m) {
    const Mesh& mesh = scene.meshes[m];
    const std::string label = mesh_label(scene, m);
    const size_t nv = mesh.vertex_count();
    if (mesh.node < 0 || mesh.node >= static_cast<int>(scene.nodes.size()))
        return label + " is not instanced at a node (node " + std::to_string(mesh.node) + ")";
    if (mesh.material < -1 || mesh.material >= static_cast<int>(scene.materials.size()))
        return label + ": material " + std::to_string(mesh.material) + " is not a material";
    if (mesh.skin < -1 || mesh.skin >= static_cast<int>(scene.skins.size()))
        return label + ": skin " + std::to_string(mesh.skin) + " is not a skin";
    if (nv == 0 || mesh.indices.empty()) return label + " has no triangles";
    if (nv > 0xFFFFFFFEu) return label + " has more vertices than 32-bit indices can name";
    if (mesh.indices.size() % 3 != 0)
        return label + ": index count " + std::to_string(mesh.indices.size()) + " is not a multiple of 3";
    if (!mesh.normals.empty() && mesh.normals.size() != nv)
        return label + " has " + std::to_string(mesh.normals.size()) + " normals for " +
               std::to_string(nv) + " vertices";
    if (!mesh.uvs.empty() && mesh.uvs.size() != nv)
        return label + " has " + std::to_string(mesh.uvs.size()) + " UVs for " + std::to_string(nv) +
               " vertices";
    for (size_t v = 0; v < nv; ++v) {
        const Vec3& p = mesh.positions[v];
        if (!finite_as_float(p.x) || !finite_as_float(p.y) || !finite_as_float(p.z))
            return label + ": vertex " + std::to_string(v) + " position is not finite";
        if (!mesh.uvs.empty() && !(finite_as_float(mesh.uvs[v].x) && finite_as_float(mesh.uvs[v].y)))
            return label + ": vertex " + std::to_string(v) + " UV is not finite";
    }
    for (size_t i = 0; i < mesh.indices.size(); ++i)
        if (mesh.indices[i] >= nv)
            return label + ": triangle " + std::to_string(i / 3) + " names vertex " +
                   std::to_string(mesh.indices[i]) + " of " + std::to_string(nv);
    if (mesh.skin < 0) return {};
    const size_t joint_count = scene.skins[mesh.skin].joints.size();
    if (mesh.influence_offsets.size() != nv + 1 || mesh.influence_offsets.front() != 0 ||
        mesh.influence_offsets.back() != mesh.influences.size())
        return label + ": influence offsets do not cover its " + std::to_string(nv) + " vertices";
    for (size_t v = 0; v < nv; ++v) {
        const uint32_t begin = mesh.influence_offsets[v], end = mesh.influence_offsets[v + 1];
        if (begin > end) return label + ": vertex " + std::to_string(v) + " influence offsets decrease";
        double sum = 0;
        for (uint32_t k = begin; k < end; ++k) {
            const Influence& inf = mesh.influences[k];
            if (inf.joint >= joint_count)
                return label + ": vertex " + std::to_string(v) + " names joint " +
                       std::to_string(inf.joint) + " of a skin with " + std::to_string(joint_count);
            if (!std::isfinite(inf.weight) || inf.weight < 0)
                return label + ": vertex " + std::to_string(v) + " has weight " +
                       std::to_string(inf.weight) + " on joint " + std::to_string(inf.joint);
            sum += inf.weight;
        }
        if (!(sum > 0))
            return label + ": skinned vertex " + std::to_string(v) +
                   " has no weight (glTF needs every skinned vertex's weights to sum to 1)";
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Node transforms as written

struct WrittenNode {
    bool use_matrix = false;
    Vec3 translation;
    Quat rotation;
    Vec3 scale{1, 1, 1};
    Mat4 local;  ///< what a reader rebuilds from the written fields
    Mat4 world;  ///< product of the written locals down from the root
};

bool nearly_equal(const Mat4& a, const Mat4& b) {
    double largest = 0, diff = 0;
    for (int i = 0; i < 16; ++i) {
        largest = std::max(largest, std::fabs(a.m[i]));
        diff = std::max(diff, std::fabs(a.m[i] - b.m[i]));
    }
    return diff <= 1e-9 * (1 + largest);
}

// Roots are written with their world transform (the unit and axis fix included, scene.h), every
// other node with its local one, so a reader composes exactly the Scene's world transforms.
std::vector<WrittenNode> written_nodes(const Scene& scene) {
    std::vector<WrittenNode> out(scene.nodes.size());
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& node = scene.nodes[i];
        const Mat4& m = node.parent < 0 ? node.world : node.local;
        WrittenNode& w = out[i];
        m.decompose(w.translation, w.rotation, w.scale);
        // A rigid joint decomposes to a scale a rounding off one; written, importers that turn node
        // scale into a pose scale (Blender) would show it.
        for (double* c : {&w.scale.x, &w.scale.y, &w.scale.z})
            if (std::fabs(*c - 1) <= 1e-12) *c = 1;
        Mat4 trs = Mat4::from_trs(w.translation, w.rotation, w.scale);
        // Shear (or a projective row) has no TRS form: keep the matrix.
        w.use_matrix = !nearly_equal(trs, m);
        w.local = w.use_matrix ? m : trs;
        if (w.use_matrix) w.local.at(3, 0) = w.local.at(3, 1) = w.local.at(3, 2) = 0, w.local.at(3, 3) = 1;
    }
    std::vector<size_t> stack;
    for (size_t i = scene.nodes.size(); i-- > 0;)
        if (scene.nodes[i].parent < 0) stack.push_back(i);
    while (!stack.empty()) {
        size_t i = stack.back();
        stack.pop_back();
        int p = scene.nodes[i].parent;
        out[i].world = p < 0 ? out[i].local : out[p].world * out[i].local;
        for (int c : scene.nodes[i].children) stack.push_back(static_cast<size_t>(c));
    }
    return out;
}

bool singular(const Mat4& m) {
    Mat3 l = m.linear_part();
    double det = dot(Vec3{l.m[0][0], l.m[1][0], l.m[2][0]},
                     cross(Vec3{l.m[0][1], l.m[1][1], l.m[2][1]}, Vec3{l.m[0][2], l.m[1][2], l.m[2][2]}));
    return !(std::fabs(det) > 1e-30);
}

std::string scene_error(const Scene& scene) {
    if (std::string e = hierarchy_error(scene); !e.empty()) return e;
    for (size_t s = 0; s < scene.skins.size(); ++s)
        if (std::string e = skin_error(scene, s); !e.empty()) return e;
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        if (std::string e = mesh_error(scene, m); !e.empty()) return e;
    std::vector<WrittenNode> nodes = written_nodes(scene);
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        if (mesh.skin < 0 && singular(nodes[mesh.node].world))
            return mesh_label(scene, m) + " is static under " + node_label(scene, mesh.node) +
                   " whose world transform is singular, so it cannot be expressed in that node's space";
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Encoding

/// The binary buffer and the bufferViews/accessors that describe it.
struct BufferBuilder {
    std::vector<uint8_t> bin;
    Json views = Json::array();
    Json accessors = Json::array();

    int add_view(const void* data, size_t bytes, int target) {
        while (bin.size() % 4 != 0) bin.push_back(0);  // every view starts 4-byte aligned
        Json view = {{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes}};
        if (target != 0) view["target"] = target;
        const auto* p = static_cast<const uint8_t*>(data);
        bin.insert(bin.end(), p, p + bytes);
        views.push_back(std::move(view));
        return static_cast<int>(views.size()) - 1;
    }

    int add_accessor(const void* data, size_t bytes, int target, int component_type, size_t count,
                     const char* type, Json extra = Json::object()) {
        Json accessor = {{"bufferView", add_view(data, bytes, target)},
                         {"componentType", component_type},
                         {"count", count},
                         {"type", type}};
        accessor.update(extra);
        accessors.push_back(std::move(accessor));
        return static_cast<int>(accessors.size()) - 1;
    }
};

/// Area-weighted vertex normals from the triangles, +Y where a vertex has no area: what a
/// degenerate (zero or non-finite) normal is replaced by, since glTF requires unit normals.
std::vector<Vec3> face_normals(const Mesh& mesh) {
    std::vector<Vec3> sum(mesh.vertex_count());
    for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
        const uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
        const Vec3 n = cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
        sum[a] += n;
        sum[b] += n;
        sum[c] += n;
    }
    for (Vec3& n : sum) {
        n = normalize(n);
        if (!(length_squared(n) > 0)) n = {0, 1, 0};
    }
    return sum;
}

/// One vertex's kept influences, largest first (ties to the lower joint), summing to 1 in float.
struct VertexWeights {
    std::array<uint32_t, glb_max_influences> joint{};
    std::array<float, glb_max_influences> weight{};
    int count = 0;
};

VertexWeights vertex_weights(const Mesh& mesh, size_t v) {
    std::map<uint32_t, double> merged;  // a joint named twice counts once (validator: duplicates)
    for (uint32_t k = mesh.influence_offsets[v]; k < mesh.influence_offsets[v + 1]; ++k)
        if (mesh.influences[k].weight > 0) merged[mesh.influences[k].joint] += mesh.influences[k].weight;
    std::vector<std::pair<uint32_t, double>> sorted(merged.begin(), merged.end());
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        if (a.second != b.second) return a.second > b.second;
        return a.first < b.first;
    });
    if (sorted.size() > static_cast<size_t>(glb_max_influences)) sorted.resize(glb_max_influences);
    double total = 0;
    for (const auto& [joint, w] : sorted) total += w;
    VertexWeights out;
    out.count = static_cast<int>(sorted.size());
    float float_sum = 0;
    for (int k = 0; k < out.count; ++k) {
        out.joint[k] = sorted[k].first;
        out.weight[k] = static_cast<float>(sorted[k].second / total);
    }
    // Summed in the order a reader sums them; the rounding residue goes to the largest weight.
    for (int k = 1; k < out.count; ++k) float_sum += out.weight[k];
    out.weight[0] = 1.0f - float_sum;
    return out;
}

Json skin_attributes(const Scene& scene, const Mesh& mesh, BufferBuilder& buffer) {
    const size_t nv = mesh.vertex_count();
    const size_t joint_count = scene.skins[mesh.skin].joints.size();
    std::vector<VertexWeights> weights(nv);
    int most = 0;
    for (size_t v = 0; v < nv; ++v) {
        weights[v] = vertex_weights(mesh, v);
        most = std::max(most, weights[v].count);
    }
    const int sets = (most + 3) / 4;
    Json attributes = Json::object();
    for (int set = 0; set < sets; ++set) {
        std::vector<float> w(nv * 4, 0.0f);
        std::vector<uint8_t> j8;
        std::vector<uint16_t> j16;
        const bool bytes = joint_count <= 256;  // glTF 2.0 spec 3.7.3.3: unsigned byte or short joints
        (bytes ? j8.resize(nv * 4, 0) : j16.resize(nv * 4, 0));
        for (size_t v = 0; v < nv; ++v)
            for (int k = 0; k < 4; ++k) {
                const int slot = set * 4 + k;
                if (slot >= weights[v].count) continue;  // unused slots: joint 0, weight 0
                w[v * 4 + k] = weights[v].weight[slot];
                if (bytes) j8[v * 4 + k] = static_cast<uint8_t>(weights[v].joint[slot]);
                else j16[v * 4 + k] = static_cast<uint16_t>(weights[v].joint[slot]);
            }
        std::string joints_key = "JOINTS_", weights_key = "WEIGHTS_";
        joints_key += std::to_string(set);
        weights_key += std::to_string(set);
        attributes[joints_key] =
            bytes ? buffer.add_accessor(j8.data(), j8.size(), kArrayBuffer, kUnsignedByte, nv, "VEC4")
                  : buffer.add_accessor(j16.data(), j16.size() * 2, kArrayBuffer, kUnsignedShort, nv, "VEC4");
        attributes[weights_key] =
            buffer.add_accessor(w.data(), w.size() * 4, kArrayBuffer, kFloat, nv, "VEC4");
    }
    return attributes;
}

Json encode_primitive(const Scene& scene, const Mesh& mesh, const WrittenNode& node, BufferBuilder& buffer) {
    const size_t nv = mesh.vertex_count();
    const bool skinned = mesh.skin >= 0;
    Mat4 to_node;
    if (!skinned) node.world.inverse(to_node);
    const Mat3 normal_to_node = node.world.linear_part().transposed();

    std::vector<float> positions(nv * 3);
    std::array<float, 3> lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    for (size_t v = 0; v < nv; ++v) {
        const Vec3 p = skinned ? mesh.positions[v] : to_node.transform_point(mesh.positions[v]);
        for (int a = 0; a < 3; ++a) {
            const float f = static_cast<float>(p[a]);
            positions[v * 3 + a] = f;
            lo[a] = std::min(lo[a], f);
            hi[a] = std::max(hi[a], f);
        }
    }
    Json attributes = Json::object();
    attributes["POSITION"] = buffer.add_accessor(
        positions.data(), positions.size() * 4, kArrayBuffer, kFloat, nv, "VEC3",
        {{"min", {lo[0], lo[1], lo[2]}}, {"max", {hi[0], hi[1], hi[2]}}});

    if (!mesh.normals.empty()) {
        std::vector<float> normals(nv * 3);
        std::vector<Vec3> fallback;  // computed once, on the first degenerate normal
        for (size_t v = 0; v < nv; ++v) {
            Vec3 n = mesh.normals[v];
            if (!is_finite(n) || !(length(n) > 1e-12)) {
                if (fallback.empty()) fallback = face_normals(mesh);
                n = fallback[v];
            }
            if (!skinned) n = normal_to_node * n;
            n = normalize(n);
            if (!(length(n) > 0.5)) n = {0, 1, 0};
            for (int a = 0; a < 3; ++a) normals[v * 3 + a] = static_cast<float>(n[a]);
        }
        attributes["NORMAL"] =
            buffer.add_accessor(normals.data(), normals.size() * 4, kArrayBuffer, kFloat, nv, "VEC3");
    }
    if (!mesh.uvs.empty()) {
        std::vector<float> uvs(nv * 2);
        for (size_t v = 0; v < nv; ++v) {
            uvs[v * 2] = static_cast<float>(mesh.uvs[v].x);
            uvs[v * 2 + 1] = static_cast<float>(mesh.uvs[v].y);
        }
        attributes["TEXCOORD_0"] =
            buffer.add_accessor(uvs.data(), uvs.size() * 4, kArrayBuffer, kFloat, nv, "VEC2");
    }
    if (skinned) attributes.update(skin_attributes(scene, mesh, buffer));

    Json primitive = {{"attributes", attributes}, {"mode", 4}};
    // 16-bit indices while every index stays below 65535, the primitive-restart value.
    if (nv <= 65535) {
        std::vector<uint16_t> idx(mesh.indices.begin(), mesh.indices.end());
        primitive["indices"] = buffer.add_accessor(idx.data(), idx.size() * 2, kElementArrayBuffer,
                                                   kUnsignedShort, idx.size(), "SCALAR");
    } else {
        primitive["indices"] = buffer.add_accessor(mesh.indices.data(), mesh.indices.size() * 4,
                                                   kElementArrayBuffer, kUnsignedInt,
                                                   mesh.indices.size(), "SCALAR");
    }
    if (mesh.material >= 0) primitive["material"] = mesh.material;
    return primitive;
}

Json material_json(const std::string& name, size_t index) {
    // A fixed palette so slots are told apart in a viewer; the colour carries no meaning.
    static constexpr std::array<std::array<double, 3>, 8> palette{{{0.80, 0.62, 0.50},
                                                                    {0.30, 0.22, 0.15},
                                                                    {0.55, 0.20, 0.35},
                                                                    {0.25, 0.40, 0.70},
                                                                    {0.85, 0.75, 0.30},
                                                                    {0.35, 0.60, 0.35},
                                                                    {0.60, 0.60, 0.62},
                                                                    {0.70, 0.30, 0.20}}};
    const auto& c = palette[index % palette.size()];
    return {{"name", name},
            {"pbrMetallicRoughness",
             {{"baseColorFactor", {c[0], c[1], c[2], 1.0}}, {"metallicFactor", 0.0}, {"roughnessFactor", 0.8}}}};
}

void put_transform(Json& out, const WrittenNode& w) {
    if (w.use_matrix) {
        out["matrix"] = Json::array();
        for (double v : w.local.m) out["matrix"].push_back(v);
        return;
    }
    if (!(w.translation == Vec3{})) out["translation"] = {w.translation.x, w.translation.y, w.translation.z};
    if (!(w.rotation.x == 0 && w.rotation.y == 0 && w.rotation.z == 0 && w.rotation.w == 1))
        out["rotation"] = {w.rotation.x, w.rotation.y, w.rotation.z, w.rotation.w};
    if (!(w.scale == Vec3{1, 1, 1})) out["scale"] = {w.scale.x, w.scale.y, w.scale.z};
}

void append_u32(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

std::string glb_write_error(const Scene& scene) { return scene_error(scene); }

namespace {

/// The GLB of `scene`, spring bones written in when options.springs asks (what they did into
/// `springs_written`); empty, with the reason in `error`, when they cannot be.
std::vector<uint8_t> encode(const Scene& scene, const GlbOptions& options, SpringsWritten* springs_written, std::string* error) {
    if (!scene_error(scene).empty()) return {};
    const std::vector<WrittenNode> written = written_nodes(scene);

    Json nodes = Json::array();
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& node = scene.nodes[i];
        Json n = Json::object();
        if (!node.name.empty()) n["name"] = node.name;
        if (!node.children.empty()) n["children"] = node.children;
        put_transform(n, written[i]);
        nodes.push_back(std::move(n));
    }

    // One glTF mesh per node and skin: a node carries one mesh and one skin, so weft meshes of one
    // node split into a static group and one group per skin. The first group stays on the node;
    // any further group goes on an added child node "<node>_skin<k>" (glTF ignores its transform).
    BufferBuilder buffer;
    Json meshes = Json::array();
    std::vector<std::vector<size_t>> by_node(scene.nodes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) by_node[scene.meshes[m].node].push_back(m);
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        if (by_node[i].empty()) continue;
        std::map<int, std::vector<size_t>> groups;  // skin (-1 static first) -> meshes in index order
        for (size_t m : by_node[i]) groups[scene.meshes[m].skin].push_back(m);
        bool first = true;
        for (const auto& [skin, members] : groups) {
            Json primitives = Json::array();
            for (size_t m : members)
                primitives.push_back(encode_primitive(scene, scene.meshes[m], written[i], buffer));
            Json mesh = {{"primitives", std::move(primitives)}};
            const std::string& name = scene.meshes[members.front()].name;
            if (!name.empty()) mesh["name"] = name;
            meshes.push_back(std::move(mesh));
            const int mesh_index = static_cast<int>(meshes.size()) - 1;
            Json* holder = &nodes[i];
            if (!first) {
                Json extra = {{"name", scene.nodes[i].name + "_skin" + std::to_string(skin)}};
                nodes[i]["children"].push_back(nodes.size());
                nodes.push_back(std::move(extra));
                holder = &nodes.back();
            }
            (*holder)["mesh"] = mesh_index;
            if (skin >= 0) (*holder)["skin"] = skin;
            first = false;
        }
    }

    Json skins = Json::array();
    for (const Skin& skin : scene.skins) {
        std::vector<float> ibm(skin.inverse_bind.size() * 16);
        for (size_t j = 0; j < skin.inverse_bind.size(); ++j) {
            for (int k = 0; k < 16; ++k) ibm[j * 16 + k] = static_cast<float>(skin.inverse_bind[j].m[k]);
            // The validator wants an exact affine bottom row; inversion leaves 1e-17 residue there.
            ibm[j * 16 + 3] = ibm[j * 16 + 7] = ibm[j * 16 + 11] = 0.0f;
            ibm[j * 16 + 15] = 1.0f;
        }
        Json s = {{"joints", skin.joints},
                  {"inverseBindMatrices",
                   buffer.add_accessor(ibm.data(), ibm.size() * 4, 0, kFloat, skin.joints.size(), "MAT4")}};
        if (!skin.name.empty()) s["name"] = skin.name;
        skins.push_back(std::move(s));
    }

    Json doc = {{"asset", {{"version", "2.0"}, {"generator", options.generator}}}};
    std::vector<int> roots;
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        if (scene.nodes[i].parent < 0) roots.push_back(static_cast<int>(i));
    if (!roots.empty()) {
        doc["scene"] = 0;
        doc["scenes"] = {{{"nodes", roots}}};
    }
    if (!nodes.empty()) doc["nodes"] = std::move(nodes);
    if (!meshes.empty()) doc["meshes"] = std::move(meshes);
    if (!scene.materials.empty()) {
        Json materials = Json::array();
        for (size_t i = 0; i < scene.materials.size(); ++i) materials.push_back(material_json(scene.materials[i], i));
        doc["materials"] = std::move(materials);
    }
    if (!skins.empty()) doc["skins"] = std::move(skins);
    if (!buffer.accessors.empty()) doc["accessors"] = std::move(buffer.accessors);
    if (!buffer.views.empty()) doc["bufferViews"] = std::move(buffer.views);
    if (!buffer.bin.empty()) doc["buffers"] = {{{"byteLength", buffer.bin.size()}}};
    if (options.springs) {
        try {
            const SpringsWritten w = write_spring_bones(doc, *options.springs);
            if (springs_written) *springs_written = w;
        } catch (const std::runtime_error& e) {
            if (error) *error = std::string("spring bones: ") + e.what();
            return {};
        }
    }

    // Names come from other tools' files: invalid UTF-8 becomes U+FFFD rather than an exception.
    const std::string json = doc.dump(-1, ' ', false, Json::error_handler_t::replace);
    return pack_glb(json, buffer.bin);
}

}  // namespace

std::vector<uint8_t> encode_glb(const Scene& scene, const GlbOptions& options) { return encode(scene, options, nullptr, nullptr); }

std::string write_glb(const Scene& scene, const std::filesystem::path& out, const GlbOptions& options, SpringsWritten* springs_written) {
    if (std::string e = scene_error(scene); !e.empty())
        return "cannot write " + out.string() + " as glTF: " + e;
    std::string error;
    const std::vector<uint8_t> glb = encode(scene, options, springs_written, &error);
    if (!error.empty()) return "cannot write " + out.string() + ": " + error;
    return write_file_atomic(out, glb);
}

std::vector<uint8_t> pack_glb(std::string_view json, std::span<const uint8_t> bin) {
    const size_t json_padded = (json.size() + 3) / 4 * 4;
    const size_t bin_padded = (bin.size() + 3) / 4 * 4;
    const size_t total = 12 + 8 + json_padded + (bin.empty() ? 0 : 8 + bin_padded);
    std::vector<uint8_t> out;
    out.reserve(total);
    append_u32(out, kGlbMagic);
    append_u32(out, 2);
    append_u32(out, static_cast<uint32_t>(total));
    append_u32(out, static_cast<uint32_t>(json_padded));
    append_u32(out, kChunkJson);
    out.insert(out.end(), json.begin(), json.end());
    out.resize(20 + json_padded, ' ');  // glTF 2.0 spec 4.4.3.1: JSON chunk padded with spaces
    if (!bin.empty()) {
        append_u32(out, static_cast<uint32_t>(bin_padded));
        append_u32(out, kChunkBin);
        out.insert(out.end(), bin.begin(), bin.end());
        out.resize(total, 0);
    }
    return out;
}

}  // namespace weft
