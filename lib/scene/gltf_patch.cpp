#include "scene/gltf_patch.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "scene/gltf_write.h"

namespace weft {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

/// Internal: the first thing that could not be matched or read, as one line.
struct PatchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] void fail(const std::string& message) { throw PatchError(message); }

uint32_t read_u32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

// ---- reading the file -----------------------------------------------------------------------

std::vector<uint8_t> base64_decode(std::string_view text) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+' || c == '-') return 62;
        if (c == '/' || c == '_') return 63;
        return -1;
    };
    std::vector<uint8_t> out;
    out.reserve(text.size() / 4 * 3);
    uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        if (c == '=' || c == '\n' || c == '\r' || c == ' ') continue;
        const int v = value(c);
        if (v < 0) fail("a data URI holds a character that is not base64");
        acc = acc << 6 | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(uint8_t(acc >> bits));
        }
    }
    return out;
}

std::string percent_decode(std::string_view uri) {
    std::string out;
    for (size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
            out.push_back(static_cast<char>(std::stoi(std::string(uri.substr(i + 1, 2)), nullptr, 16)));
            i += 2;
        } else {
            out.push_back(uri[i]);
        }
    }
    return out;
}

/// The bytes a URI names: a data URI decoded, or a file beside the model. `mime` receives the data
/// URI's media type ("" for a file).
std::vector<uint8_t> uri_bytes(const fs::path& folder, const std::string& uri, std::string& mime) {
    mime.clear();
    if (uri.rfind("data:", 0) == 0) {
        const size_t comma = uri.find(',');
        if (comma == std::string::npos) fail("a data URI has no comma");
        const std::string header = uri.substr(5, comma - 5);
        if (header.size() < 7 || header.compare(header.size() - 7, 7, ";base64") != 0)
            fail("a data URI is not base64-encoded (" + header + ")");
        mime = header.substr(0, header.size() - 7);
        return base64_decode(std::string_view(uri).substr(comma + 1));
    }
    std::vector<uint8_t> bytes;
    const fs::path file = folder / fs::path(percent_decode(uri));
    if (std::string why = read_file(file, bytes, uint64_t(1) << 31); !why.empty()) fail(why);
    return bytes;
}

struct Document {
    json doc;
    std::vector<std::vector<uint8_t>> buffers;  ///< per glTF buffer, exactly byteLength bytes
};

Document load(const fs::path& source) {
    std::vector<uint8_t> bytes;
    if (std::string why = read_file(source, bytes, uint64_t(1) << 31); !why.empty()) fail(why);
    Document d;
    std::span<const uint8_t> bin;
    bool has_bin = false;
    std::string_view text;
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
        if (bytes.size() < 20) fail("a GLB shorter than its header");
        if (read_u32(&bytes[4]) != 2) fail("a GLB of version " + std::to_string(read_u32(&bytes[4])) + ", not 2");
        const uint64_t total = std::min<uint64_t>(read_u32(&bytes[8]), bytes.size());
        const uint64_t json_length = read_u32(&bytes[12]);
        if (read_u32(&bytes[16]) != 0x4E4F534Au || 20 + json_length > total) fail("a GLB whose first chunk is not its JSON");
        text = std::string_view(reinterpret_cast<const char*>(&bytes[20]), json_length);
        const uint64_t next = 20 + ((json_length + 3) & ~uint64_t(3));
        if (next + 8 <= total && read_u32(&bytes[next + 4]) == 0x004E4942u) {
            const uint64_t bin_length = read_u32(&bytes[next]);
            if (next + 8 + bin_length > total) fail("a GLB whose binary chunk runs past the end of the file");
            bin = std::span<const uint8_t>(&bytes[next + 8], bin_length);
            has_bin = true;
        }
    } else {
        text = std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    d.doc = json::parse(text, nullptr, false);
    if (d.doc.is_discarded() || !d.doc.is_object()) fail("the glTF JSON does not parse");

    const json buffers = d.doc.value("buffers", json::array());
    if (!buffers.is_array()) fail("\"buffers\" is not an array");
    for (size_t i = 0; i < buffers.size(); ++i) {
        const json& b = buffers[i];
        if (!b.is_object() || !b.contains("byteLength") || !b["byteLength"].is_number_unsigned())
            fail("buffer " + std::to_string(i) + " has no byteLength");
        const uint64_t length = b["byteLength"].get<uint64_t>();
        std::vector<uint8_t> data;
        if (b.contains("uri")) {
            if (!b["uri"].is_string()) fail("buffer " + std::to_string(i) + "'s uri is not a string");
            std::string mime;
            data = uri_bytes(source.parent_path(), b["uri"].get<std::string>(), mime);
        } else if (i == 0 && has_bin) {
            data.assign(bin.begin(), bin.end());
        } else {
            fail("buffer " + std::to_string(i) + " has no uri and is not the GLB's binary chunk");
        }
        if (data.size() < length)
            fail("buffer " + std::to_string(i) + " has " + std::to_string(data.size()) + " bytes, fewer than its byteLength " +
                 std::to_string(length));
        data.resize(length);
        d.buffers.push_back(std::move(data));
    }
    return d;
}

// ---- accessors --------------------------------------------------------------------------------

int component_count(const std::string& type) {
    static const std::map<std::string, int> counts{{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT4", 16}};
    auto it = counts.find(type);
    return it == counts.end() ? 0 : it->second;
}

int component_size(int type) {
    switch (type) {
        case 5120: case 5121: return 1;
        case 5122: case 5123: return 2;
        case 5125: case 5126: return 4;
        default: return 0;
    }
}

struct Accessor {
    const uint8_t* data = nullptr;
    size_t count = 0, stride = 0;
    int type = 0;        ///< componentType
    int components = 0;
    bool normalized = false;

    double get(size_t i, int c) const {
        const uint8_t* p = data + i * stride + size_t(c) * size_t(component_size(type));
        switch (type) {
            case 5126: { float f; std::memcpy(&f, p, 4); return f; }
            case 5121: return normalized ? p[0] / 255.0 : p[0];
            case 5123: { uint16_t u; std::memcpy(&u, p, 2); return normalized ? u / 65535.0 : u; }
            case 5125: { uint32_t u; std::memcpy(&u, p, 4); return u; }
            case 5120: { int8_t s; std::memcpy(&s, p, 1); return normalized ? std::max(s / 127.0, -1.0) : s; }
            case 5122: { int16_t s; std::memcpy(&s, p, 2); return normalized ? std::max(s / 32767.0, -1.0) : s; }
        }
        return 0;
    }
};

/// An accessor of `doc` over `bin`, the one buffer every bufferView points into once the file's
/// buffers are merged (Patcher::merge_buffers runs before anything is read).
Accessor accessor(const json& doc, const std::vector<uint8_t>& bin, const json& index, const std::string& what) {
    const json& accessors = doc["accessors"];
    if (!index.is_number_unsigned() || !accessors.is_array() || index.get<size_t>() >= accessors.size())
        fail(what + " names no accessor");
    const json& a = accessors[index.get<size_t>()];
    if (a.contains("sparse")) fail(what + " is a sparse accessor, which is not patched");
    if (!a.contains("bufferView")) fail(what + " has no bufferView");
    Accessor out;
    out.type = a.value("componentType", 0);
    out.components = component_count(a.value("type", std::string()));
    out.count = a.value("count", size_t(0));
    out.normalized = a.value("normalized", false);
    const size_t element = size_t(component_size(out.type)) * size_t(out.components);
    if (element == 0) fail(what + " has an unknown component or element type");
    const json& views = doc["bufferViews"];
    const size_t vi = a["bufferView"].is_number_unsigned() ? a["bufferView"].get<size_t>() : SIZE_MAX;
    if (!views.is_array() || vi >= views.size()) fail(what + " names no bufferView");
    const json& v = views[vi];
    if (v.value("buffer", SIZE_MAX) != 0) fail(what + "'s bufferView names no buffer");
    const size_t view_offset = v.value("byteOffset", size_t(0)), view_length = v.value("byteLength", size_t(0));
    out.stride = v.value("byteStride", element);
    const size_t offset = a.value("byteOffset", size_t(0));
    if (view_offset > bin.size() || view_length > bin.size() - view_offset) fail(what + "'s bufferView runs past its buffer");
    if (out.count > 0 && (out.stride < element || offset > view_length ||
                          (out.count - 1) > (view_length - offset - std::min(element, view_length - offset)) / out.stride ||
                          offset + element > view_length))
        fail(what + " runs past its bufferView");
    out.data = bin.data() + view_offset + offset;
    return out;
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

// ---- matching vertices by position --------------------------------------------------------------

class PositionIndex {
public:
    PositionIndex(const std::vector<Vec3>& points, double tolerance) : points_(points), cell_(std::max(tolerance, 1e-12)) {
        for (uint32_t i = 0; i < points.size(); ++i)
            if (is_finite(points[i])) cells_[key(points[i])].push_back(i);
    }

    /// The nearest point within the tolerance (ties to the lower index), or UINT32_MAX.
    uint32_t find(const Vec3& x) const {
        if (!is_finite(x)) return UINT32_MAX;
        const auto k = key(x);
        uint32_t best = UINT32_MAX;
        double best_d = cell_;
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dz = -1; dz <= 1; ++dz) {
                    auto it = cells_.find({k[0] + dx, k[1] + dy, k[2] + dz});
                    if (it == cells_.end()) continue;
                    for (uint32_t i : it->second) {
                        const double d = distance(points_[i], x);
                        if (d < best_d || (d == best_d && i < best)) best = i, best_d = d;
                    }
                }
        return best;
    }

private:
    std::array<int64_t, 3> key(const Vec3& x) const {
        return {int64_t(std::floor(x.x / cell_)), int64_t(std::floor(x.y / cell_)), int64_t(std::floor(x.z / cell_))};
    }
    const std::vector<Vec3>& points_;
    double cell_;
    std::map<std::array<int64_t, 3>, std::vector<uint32_t>> cells_;
};

// ---- the patch ----------------------------------------------------------------------------------

class Patcher {
public:
    Patcher(const fs::path& source, const Scene& original, const Scene& grown, GltfPatchResult& result)
        : source_(source), original_(original), grown_(grown), result_(result) {}

    std::vector<uint8_t> run(std::span<const int> changed_meshes, const SpringBones* springs) {
        if (original_.unit_scale != 1 || original_.up_axis != "Y")
            fail("the model was converted on import (units or axes), so its scene space is not the file's");
        d_ = load(source_);
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
        for (size_t i = 0; i < gltf_nodes_; ++i)
            if (doc["nodes"][i].contains("name") && doc["nodes"][i]["name"].is_string())
                by_name_[doc["nodes"][i]["name"].get<std::string>()].push_back(static_cast<int>(i));

        Binary binary(doc);
        binary_ = &binary;
        merge_buffers(binary);
        d_.buffers.clear();  // every view now points into binary.bin
        add_nodes();
        for (int m : changed_meshes) reweight_mesh(binary, m);
        if (springs && !springs->chains.empty()) add_springs(*springs);
        embed_images(binary);
        doc["buffers"] = json::array({json{{"byteLength", binary.bin.size()}}});
        const std::string text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
        return pack_glb(text, binary.bin);
    }

private:
    /// The glTF node of a Scene node (original or grown), by unique name for original nodes.
    int gltf_node(int scene_node) {
        if (scene_node < 0 || static_cast<size_t>(scene_node) >= grown_.nodes.size())
            fail("a node index " + std::to_string(scene_node) + " the scene does not have");
        if (static_cast<size_t>(scene_node) >= original_.nodes.size())
            return static_cast<int>(gltf_nodes_ + (size_t(scene_node) - original_.nodes.size()));
        const std::string& name = original_.nodes[static_cast<size_t>(scene_node)].name;
        auto it = by_name_.find(name);
        if (it == by_name_.end()) fail("node '" + name + "' of the scene has no node of that name in the file");
        if (it->second.size() != 1)
            fail("node name '" + name + "' is used by " + std::to_string(it->second.size()) + " nodes of the file");
        return it->second.front();
    }

    /// The grown scene's node a new glTF node was made from.
    int scene_node_of(int g) const { return static_cast<int>(original_.nodes.size() + (size_t(g) - gltf_nodes_)); }

    Mat4 gltf_world(int g) const { return static_cast<size_t>(g) < worlds_.size() ? worlds_[size_t(g)] : new_world_.at(g); }

    void merge_buffers(Binary& binary) {
        std::vector<size_t> offset;
        for (const auto& b : d_.buffers) offset.push_back(binary.append(b));
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
            const Accessor a = accessor(d_.doc, binary_->bin, skin["inverseBindMatrices"], "skin " + std::to_string(gs) + "'s inverse binds");
            if (a.components != 16 || a.count < joints.size()) fail("skin " + std::to_string(gs) + "'s inverse binds are malformed");
            for (size_t i = 0; i < joints.size(); ++i)
                for (int c = 0; c < 16; ++c) ibm.push_back(static_cast<float>(a.get(i, c)));
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
        const std::string material =
            om.material >= 0 && static_cast<size_t>(om.material) < original_.materials.size() ? original_.materials[size_t(om.material)] : "";

        // The original skin in the file, to skin its vertices into scene space as glTF does.
        std::vector<int> joints;
        for (const json& j : d_.doc["skins"][gskin]["joints"]) joints.push_back(j.get<int>());
        std::vector<Mat4> skinning(joints.size());
        {
            std::vector<Mat4> ibm(joints.size());
            const json& skin = d_.doc["skins"][gskin];
            if (skin.contains("inverseBindMatrices")) {
                const Accessor a = accessor(d_.doc, binary_->bin, skin["inverseBindMatrices"], what + "'s inverse binds");
                if (a.components != 16 || a.count < joints.size()) fail(what + "'s inverse binds are malformed");
                for (size_t i = 0; i < joints.size(); ++i)
                    for (int c = 0; c < 16; ++c) ibm[i].m[size_t(c)] = a.get(i, c);
            }
            for (size_t i = 0; i < joints.size(); ++i) {
                // A skin another mesh already extended lists grown nodes too.
                if (joints[i] < 0 || (static_cast<size_t>(joints[i]) >= gltf_nodes_ && !new_world_.count(joints[i])))
                    fail(what + "'s skin names a node the file lacks");
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

        Bounds bounds;
        for (const Vec3& p : gm.positions) bounds.add(p);
        const PositionIndex index(gm.positions, std::max(1e-6, 1e-5 * bounds.diagonal()));
        json& primitives = d_.doc["meshes"][gmesh]["primitives"];
        size_t matched_primitives = 0;
        for (json& prim : primitives) {
            std::string prim_material;
            if (prim.contains("material") && prim["material"].is_number_unsigned() && d_.doc["materials"].is_array() &&
                prim["material"].get<size_t>() < d_.doc["materials"].size())
                prim_material = d_.doc["materials"][prim["material"].get<size_t>()].value("name", std::string());
            if (prim_material != material || prim.value("mode", 4) != 4) continue;
            ++matched_primitives;
            reweight_primitive(binary, prim, what, skinning, index, gm, joint_map);
        }
        if (matched_primitives == 0) fail(what + ": no primitive of the file's mesh has material '" + material + "'");
    }

    void reweight_primitive(Binary& binary, json& prim, const std::string& what, const std::vector<Mat4>& skinning,
                            const PositionIndex& index, const Mesh& gm, const std::vector<uint32_t>& joint_map) {
        json& attributes = prim["attributes"];
        if (!attributes.contains("POSITION") || !attributes.contains("JOINTS_0") || !attributes.contains("WEIGHTS_0"))
            fail(what + ": a primitive has no POSITION, JOINTS_0 or WEIGHTS_0");
        const Accessor pos = accessor(d_.doc, binary_->bin, attributes["POSITION"], what + " POSITION");
        if (pos.components != 3) fail(what + " POSITION is not VEC3");
        std::vector<Accessor> js, ws;
        for (int set = 0; attributes.contains("JOINTS_" + std::to_string(set)); ++set) {
            js.push_back(accessor(d_.doc, binary_->bin, attributes["JOINTS_" + std::to_string(set)], what + " JOINTS"));
            ws.push_back(accessor(d_.doc, binary_->bin, attributes["WEIGHTS_" + std::to_string(set)], what + " WEIGHTS"));
            if (js.back().count < pos.count || ws.back().count < pos.count || js.back().components != 4 ||
                ws.back().components != 4)
                fail(what + ": JOINTS/WEIGHTS do not match POSITION");
        }
        std::vector<char> referenced(pos.count, prim.contains("indices") ? 0 : 1);
        if (prim.contains("indices")) {
            const Accessor ind = accessor(d_.doc, binary_->bin, prim["indices"], what + " indices");
            for (size_t i = 0; i < ind.count; ++i) {
                const double v = ind.get(i, 0);
                if (v >= 0 && v < double(pos.count)) referenced[size_t(v)] = 1;
            }
        }

        std::vector<std::array<std::pair<uint32_t, double>, 8>> out(pos.count);
        std::vector<uint8_t> used(pos.count, 0);
        bool second_set = false;
        for (size_t v = 0; v < pos.count; ++v) {
            // Skin the file's vertex as glTF does, then find the scene's vertex there.
            const Vec3 local{pos.get(v, 0), pos.get(v, 1), pos.get(v, 2)};
            Vec3 x;
            double total = 0;
            std::vector<std::pair<uint32_t, double>> original;
            for (size_t s = 0; s < js.size(); ++s)
                for (int c = 0; c < 4; ++c) {
                    const double w = ws[s].get(v, c);
                    const uint32_t j = static_cast<uint32_t>(js[s].get(v, c));
                    if (!(w > 0)) continue;
                    if (j >= skinning.size()) fail(what + ": vertex " + std::to_string(v) + " names joint " + std::to_string(j));
                    x += skinning[j].transform_point(local) * w;
                    total += w;
                    original.push_back({j, w});
                }
            if (total > 0) x = x / total;
            const uint32_t found = index.find(x);
            std::vector<std::pair<uint32_t, double>> chosen;
            if (found != UINT32_MAX) {
                for (uint32_t k = gm.influence_offsets[found]; k < gm.influence_offsets[found + 1]; ++k) {
                    const Influence& inf = gm.influences[k];
                    if (inf.joint >= joint_map.size()) fail(what + ": a scene influence names a joint the skin lacks");
                    chosen.push_back({joint_map[inf.joint], inf.weight});
                }
                ++result_.vertices_reweighted;
            } else if (referenced[v]) {
                fail(what + ": vertex " + std::to_string(v) + " of the file's primitive is at no vertex of the scene's mesh");
            } else {
                chosen = original;  // a vertex no triangle of this primitive uses: another primitive's, kept
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
            std::vector<uint16_t> joints(pos.count * 4, 0);
            std::vector<float> weights(pos.count * 4, 0.0f);
            for (size_t v = 0; v < pos.count; ++v) {
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
            attributes["JOINTS_" + std::to_string(set)] = binary.accessor(as_bytes(joints), 5123, pos.count, "VEC4", 34962);
            attributes["WEIGHTS_" + std::to_string(set)] = binary.accessor(as_bytes(weights), 5126, pos.count, "VEC4", 34962);
        }
        for (int set = sets; attributes.contains("JOINTS_" + std::to_string(set)); ++set) {
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
        const int scene_node = grown_.find_node(nodes[size_t(last)].value("name", std::string()));
        if (scene_node < 0) fail("spring joint '" + name + "' hangs from a node the scene does not have");
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
        for (json& image : d_.doc["images"]) {
            if (!image.contains("uri") || !image["uri"].is_string()) continue;
            const std::string uri = image["uri"].get<std::string>();
            std::string mime;
            const std::vector<uint8_t> bytes = uri_bytes(source_.parent_path(), uri, mime);
            if (mime.empty()) {
                std::string ext = fs::path(percent_decode(uri)).extension().string();
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

    const fs::path source_;
    const Scene& original_;
    const Scene& grown_;
    GltfPatchResult& result_;
    Document d_;
    Binary* binary_ = nullptr;  ///< the merged buffer every accessor is read from
    size_t gltf_nodes_ = 0;
    std::vector<Mat4> worlds_;
    std::map<int, Mat4> new_world_;
    std::map<std::string, std::vector<int>> by_name_;
    std::set<int> extended_;
};

}  // namespace

GltfPatchResult patch_gltf(const fs::path& source, const Scene& original, const Scene& grown,
                           std::span<const int> changed_meshes, const SpringBones* springs) {
    GltfPatchResult result;
    try {
        Patcher patcher(source, original, grown, result);
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
