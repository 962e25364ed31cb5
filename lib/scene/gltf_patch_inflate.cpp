// The patch of a grown model (gltf_patch.h): a KHR_draco_mesh_compression primitive written out
// plain. Each accessor its Draco mesh decodes gets a view of the decoded values and the extension
// goes: the re-weighting then reads and writes plain accessors like any other, and whatever reads
// the grown model needs no Draco decoder. The compressed view is dropped with the rest of what the
// patch leaves unread (prune).
#include <algorithm>
#include <cstring>
#include <limits>

#include "scene/gltf_patch_detail.h"

namespace weft::patch_detail {

namespace {

using import_detail::GltfData;

const std::string kDraco = "KHR_draco_mesh_compression";

/// `list` without `name` (an extensionsUsed or extensionsRequired array); dropped when emptied.
void drop_extension_name(json& doc, const char* list, const std::string& name) {
    auto it = doc.find(list);
    if (it == doc.end() || !it->is_array()) return;
    json kept = json::array();
    for (json& e : *it)
        if (!(e.is_string() && e.get_ref<const std::string&>() == name)) kept.push_back(std::move(e));
    if (kept.empty())
        doc.erase(list);
    else
        *it = std::move(kept);
}

/// min and max as the decoded values have them: Draco's quantization moves values off the bounds
/// the encoder wrote (the specification asks them exact for POSITION).
void set_bounds(json& accessor, const GltfData::Accessor& a, std::span<const uint8_t> bytes) {
    if (!accessor.contains("min") && !accessor.contains("max")) return;
    std::vector<double> lo(a.components, std::numeric_limits<double>::infinity()), hi(a.components, -lo[0]);
    for (uint64_t e = 0; e < a.count; ++e)
        for (uint32_t c = 0; c < a.components; ++c) {
            const double v = GltfData::component(bytes, a, e, c, a.element_size);
            lo[c] = std::min(lo[c], v);
            hi[c] = std::max(hi[c], v);
        }
    const bool floats = a.component_type == 5126;
    auto as_json = [&](const std::vector<double>& v) {
        json out = json::array();
        for (double x : v) floats ? out.push_back(float(x)) : out.push_back(int64_t(x));
        return out;
    };
    if (accessor.contains("min")) accessor["min"] = as_json(lo);
    if (accessor.contains("max")) accessor["max"] = as_json(hi);
}

/// Float WEIGHTS_n sets scaled so each vertex's weights sum to 1 again (Draco quantizes each
/// weight on its own grid, so the sums drift by up to a step).
void renormalise_weights(std::vector<std::vector<uint8_t>*>& sets, uint64_t count) {
    std::vector<double> sum(size_t(count), 0.0);
    for (const std::vector<uint8_t>* s : sets)
        for (uint64_t e = 0; e < count; ++e)
            for (int c = 0; c < 4; ++c) {
                float w;
                std::memcpy(&w, s->data() + (e * 4 + uint64_t(c)) * 4, 4);
                sum[size_t(e)] += w;
            }
    for (std::vector<uint8_t>* s : sets)
        for (uint64_t e = 0; e < count; ++e) {
            if (!(sum[size_t(e)] > 0)) continue;
            for (int c = 0; c < 4; ++c) {
                float w;
                std::memcpy(&w, s->data() + (e * 4 + uint64_t(c)) * 4, 4);
                w = float(w / sum[size_t(e)]);
                std::memcpy(s->data() + (e * 4 + uint64_t(c)) * 4, &w, 4);
            }
        }
}

}  // namespace

/// One Draco primitive's accessors given plain views (vertex attributes and indices with their
/// targets), their bounds and weights as the decoded values have them.
void Patcher::inflate_draco_primitive(Binary& binary, json& prim, std::set<size_t>& done) {
    std::vector<std::pair<size_t, int>> wanted;  // accessor, view target
    std::vector<bool> weights;
    if (prim.contains("attributes") && prim["attributes"].is_object())
        for (const auto& [name, index] : prim["attributes"].items())
            if (index.is_number_unsigned()) {
                wanted.push_back({index.get<size_t>(), 34962});
                weights.push_back(name.rfind("WEIGHTS_", 0) == 0);
            }
    if (prim.contains("indices") && prim["indices"].is_number_unsigned()) {
        wanted.push_back({prim["indices"].get<size_t>(), 34963});
        weights.push_back(false);
    }
    std::vector<std::vector<uint8_t>> values(wanted.size());
    std::vector<std::vector<uint8_t>*> weight_sets;
    uint64_t weight_count = 0;
    for (size_t k = 0; k < wanted.size(); ++k) {
        const size_t i = wanted[k].first;
        const GltfData::Accessor* a = i < d_.original_accessors ? d_.data->accessor(int(i)) : nullptr;
        if (!a || a->draco < 0 || done.count(i)) continue;  // plain (a fallback), or written already
        uint64_t stride = 0;
        const std::span<const uint8_t> bytes = d_.data->accessor_data(*a, stride);
        if (bytes.empty()) fail_with_issues(d_, "accessor " + std::to_string(i) + " of a Draco mesh does not decode");
        values[k].assign(bytes.begin(), bytes.end());
        if (weights[k] && a->component_type == 5126 && a->components == 4) {
            weight_sets.push_back(&values[k]);
            weight_count = a->count;
        }
    }
    renormalise_weights(weight_sets, weight_count);
    for (size_t k = 0; k < wanted.size(); ++k) {
        if (values[k].empty()) continue;
        const size_t i = wanted[k].first;
        json& accessor = d_.doc["accessors"][i];
        set_bounds(accessor, *d_.data->accessor(int(i)), values[k]);
        accessor["bufferView"] = binary.view(values[k], wanted[k].second);
        accessor.erase("byteOffset");
        done.insert(i);
    }
}

void Patcher::inflate_draco(Binary& binary) {
    json& doc = d_.doc;
    if (!doc.contains("meshes") || !doc["meshes"].is_array()) return;
    std::set<size_t> done;
    for (json& mesh : doc["meshes"]) {
        if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) continue;
        for (json& prim : mesh["primitives"]) {
            if (!prim.is_object() || !prim.contains("extensions") || !prim["extensions"].is_object()) continue;
            json& ext = prim["extensions"];
            if (!ext.contains(kDraco)) continue;
            if (ext[kDraco].is_object() && ext[kDraco].contains("bufferView") && ext[kDraco]["bufferView"].is_number_unsigned())
                freed_views_.insert(ext[kDraco]["bufferView"].get<size_t>());
            inflate_draco_primitive(binary, prim, done);
            ext.erase(kDraco);
            if (ext.empty()) prim.erase("extensions");
        }
    }
    drop_extension_name(doc, "extensionsUsed", kDraco);
    drop_extension_name(doc, "extensionsRequired", kDraco);
}

}  // namespace weft::patch_detail
