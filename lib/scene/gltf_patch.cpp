// The patch of a grown model (gltf_patch.h): reading the file, the grown nodes, and the phases in order.
#include "scene/gltf_patch.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "io/atomic_file.h"
#include "io/issue.h"
#include "scene/gltf_nodes.h"
#include "scene/gltf_patch_detail.h"
#include "scene/gltf_write.h"

namespace weft {
namespace patch_detail {

namespace fs = std::filesystem;

// ---- reading the file: the import's own glTF document (scene/gltf_document.h) ----------------

void fail_with_issues(const Document& d, const std::string& fallback) {
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

Mat4 scene_bind(const Scene& scene, int node) {
    for (const Skin& skin : scene.skins)
        for (size_t j = 0; j < skin.joints.size() && j < skin.inverse_bind.size(); ++j) {
            if (skin.joints[j] != node) continue;
            Mat4 bind;
            if (skin.inverse_bind[j].inverse(bind) && bind.is_finite()) return bind;
        }
    return scene.nodes[static_cast<size_t>(node)].world;
}

size_t array_size(const json& doc, const char* key) {
    auto it = doc.find(key);
    return it != doc.end() && it->is_array() ? it->size() : 0;
}

// ---- the binary being built -----------------------------------------------------------------

Binary::Binary(json& doc) : doc_(doc) {
    if (!doc_.contains("bufferViews")) doc_["bufferViews"] = json::array();
    if (!doc_.contains("accessors")) doc_["accessors"] = json::array();
}

size_t Binary::append(std::span<const uint8_t> bytes) {
    while (bin.size() % 8) bin.push_back(0);
    const size_t at = bin.size();
    bin.insert(bin.end(), bytes.begin(), bytes.end());
    return at;
}

size_t Binary::view(std::span<const uint8_t> bytes, int target) {
    const size_t at = append(bytes);
    json v = {{"buffer", 0}, {"byteOffset", at}, {"byteLength", bytes.size()}};
    if (target) v["target"] = target;
    doc_["bufferViews"].push_back(v);
    return doc_["bufferViews"].size() - 1;
}

size_t Binary::accessor(std::span<const uint8_t> bytes, int component_type, size_t count, const char* type, int target,
                        bool normalized) {
    json a = {{"bufferView", view(bytes, target)}, {"componentType", component_type}, {"count", count}, {"type", type}};
    if (normalized) a["normalized"] = true;
    doc_["accessors"].push_back(a);
    return doc_["accessors"].size() - 1;
}

// ---- the patch ----------------------------------------------------------------------------------

void Patcher::open() {
    if (original_.unit_scale != 1 || original_.up_axis != "Y")
        fail("the model was converted on import (units or axes), so its scene space is not the file's");
    load(source_, allow_outside_folder_, d_);
    json& doc = d_.doc;
    if (doc.contains("extensionsRequired") && doc["extensionsRequired"].is_array())
        for (const json& e : doc["extensionsRequired"])
            if (e.is_string() && (e == "EXT_meshopt_compression" || e == "KHR_mesh_quantization"))
                fail("the file requires " + e.get<std::string>() + ", whose compressed attributes are not patched");
    if (!doc.contains("nodes") || !doc["nodes"].is_array()) fail("the file has no nodes");
    gltf_nodes_ = doc["nodes"].size();
    worlds_ = gltf_node_worlds(doc["nodes"]);
}

std::vector<uint8_t> Patcher::run(std::span<const int> changed_meshes, const SpringBones* springs) {
    open();
    json& doc = d_.doc;
    Binary binary(doc);
    merge_buffers(binary);  // every view now points into binary.bin
    inflate_draco(binary);
    add_nodes();
    for (int m : changed_meshes) reweight_mesh(binary, m);
    if (springs) {
        try {
            result_.springs = write_spring_bones(doc, *springs);
        } catch (const std::runtime_error& e) {
            fail(e.what());
        }
    }
    embed_images(binary);
    prune(binary);
    doc["buffers"] = json::array({json{{"byteLength", binary.bin.size()}}});
    if (doc.contains("asset") && doc["asset"].is_object()) doc["asset"]["generator"] = "weft " WEFT_VERSION;
    const std::string text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
    return pack_glb(text, binary.bin);
}

/// The glTF node of a Scene node: an original node's by the index import kept (Node::source), a
/// grown node's by the order add_nodes appends them in.
int Patcher::gltf_node(int scene_node) {
    if (scene_node < 0 || static_cast<size_t>(scene_node) >= grown_.nodes.size())
        fail("a node index " + std::to_string(scene_node) + " the scene does not have");
    if (static_cast<size_t>(scene_node) >= original_.nodes.size())
        return static_cast<int>(gltf_nodes_ + (size_t(scene_node) - original_.nodes.size()));
    const Node& node = original_.nodes[static_cast<size_t>(scene_node)];
    if (node.source < 0 || static_cast<size_t>(node.source) >= gltf_nodes_)
        fail("node '" + node.name + "' of the scene is no node of the file (the importer added it)");
    return node.source;
}

void Patcher::merge_buffers(Binary& binary) {
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

void Patcher::add_nodes() {
    for (size_t k = original_.nodes.size(); k < grown_.nodes.size(); ++k) add_node(k);
}

/// Grown node `k`, appended as a child of its parent and placed so its rest pose is where the grown
/// scene binds it.
void Patcher::add_node(size_t k) {
    json& nodes = d_.doc["nodes"];
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
    // A grown joint's local scale only undoes its parent's (FBX2glTF armatures are scaled x100, so a
    // rigid joint under one would carry 0.01). Importers that turn node scale into a pose scale
    // (Blender) then shrink the chain and everything it skins. A uniform scale is folded instead: the
    // joint inherits its parent's scale, its translation is already in the parent's units, and its
    // inverse bind (from new_world_) absorbs the scale.
    if (std::fabs(s.x - s.y) <= 1e-6 * std::fabs(s.x) && std::fabs(s.x - s.z) <= 1e-6 * std::fabs(s.x)) s = {1, 1, 1};
    json out = {{"name", node.name}, {"translation", {t.x, t.y, t.z}}, {"rotation", {r.x, r.y, r.z, r.w}}};
    if (std::fabs(s.x - 1) > 1e-9 || std::fabs(s.y - 1) > 1e-9 || std::fabs(s.z - 1) > 1e-9) out["scale"] = {s.x, s.y, s.z};
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

}  // namespace patch_detail

GltfPatchResult patch_gltf(const std::filesystem::path& source, const Scene& original, const Scene& grown,
                           std::span<const int> changed_meshes, const SpringBones* springs, bool allow_outside_folder) {
    using namespace patch_detail;
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
