// The patch's last phases (gltf_patch.h): every image moved into the one binary chunk, then what the
// patch replaced and nothing reads any more dropped, so the grown file has no unused accessor its
// source did not have.
#include <algorithm>
#include <cctype>

#include "scene/gltf_patch_detail.h"

namespace weft::patch_detail {
namespace {

namespace fs = std::filesystem;

/// Calls `f` on every JSON value that holds an accessor index: primitives' attributes, indices
/// and morph targets, skins' inverse binds, animation samplers, EXT_mesh_gpu_instancing.
template <typename F>
void for_each_accessor_ref(json& doc, F&& f) {
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
void for_each_view_ref(json& doc, F&& f) {
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

}  // namespace

void Patcher::embed_images(Binary& binary) {
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

/// Notes an accessor of the file whose place the patch has taken; prune() drops it unless
/// something else still reads it.
void Patcher::replaced(const json& index) {
    if (index.is_number_unsigned() && index.get<uint64_t>() < d_.original_accessors) replaced_.insert(index.get<size_t>());
}

/// only they read, then every byte of the binary chunk no view covers; indices are renumbered.
/// A file's own unused accessors are left as they were: only what weft made unused goes.
void Patcher::prune(Binary& binary) {
    json& doc = d_.doc;
    const size_t accessors = array_size(doc, "accessors");
    std::vector<size_t> refs(accessors, 0);
    for_each_accessor_ref(doc, [&](json& v) {
        if (v.is_number_unsigned() && v.get<uint64_t>() < accessors) ++refs[v.get<size_t>()];
    });
    std::vector<int64_t> new_accessor(accessors, 0);
    std::set<size_t> orphan_views = freed_views_;  // views a dropped accessor (or a Draco mesh) read
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
void Patcher::compact(Binary& binary) {
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

}  // namespace weft::patch_detail
