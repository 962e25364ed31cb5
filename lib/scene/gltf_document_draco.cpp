// The glTF reader's KHR_draco_mesh_compression primitives (scene/gltf_document.h,
// scene/gltf_draco.h): which accessors each one decodes, and the decode on first use, checked against
// what those accessors declare.
#include <cstring>

#include "scene/assimp_module.h"
#include "scene/gltf_document.h"

namespace weft::import_detail {

using nlohmann::json;

/// Every primitive with the extension, and the accessors of its that have no view of their own (an
/// accessor with one is an uncompressed fallback, read as it is). An accessor two primitives claim
/// is decoded by the first.
void GltfData::find_draco_sources() {
    const json& meshes = array_or_empty(doc_.json, "meshes");
    for (size_t m = 0; m < meshes.size(); ++m) {
        const json& primitives = array_or_empty(meshes[m], "primitives");
        for (size_t p = 0; p < primitives.size(); ++p) {
            const json* ext = member(primitives[p], "extensions");
            const json* draco = ext ? member(*ext, "KHR_draco_mesh_compression") : nullptr;
            if (!draco) continue;
            DracoSource s;
            s.where = name_of(meshes[m], m, "mesh") + " primitive " + std::to_string(p);
            s.pointer = "/meshes/" + std::to_string(m) + "/primitives/" + std::to_string(p) +
                        "/extensions/KHR_draco_mesh_compression";
            const std::optional<int64_t> view = optional_uint(*draco, "bufferView");
            s.view = view && *view >= 0 && uint64_t(*view) < views_.size() ? int(*view) : -1;
            const json* ids = member(*draco, "attributes");
            const json* attributes = member(primitives[p], "attributes");
            if (ids && ids->is_object() && attributes && attributes->is_object())
                for (const auto& [name, id] : ids->items()) {
                    const std::optional<int64_t> accessor = optional_uint(*attributes, name.c_str());
                    if (id.is_number_unsigned() && accessor && *accessor >= 0 && uint64_t(*accessor) < accessors_.size())
                        s.attributes.push_back({int(*accessor), uint32_t(id.get<uint64_t>())});
                }
            const std::optional<int64_t> indices = optional_uint(primitives[p], "indices");
            s.indices = indices && *indices >= 0 && uint64_t(*indices) < accessors_.size() ? int(*indices) : -1;
            if (draco_source_of_.empty()) {
                draco_source_of_.assign(accessors_.size(), -1);
                draco_values_.resize(accessors_.size());
            }
            const int slot = int(draco_sources_.size());
            for (const auto& [accessor, id] : s.attributes)
                if (draco_source_of_[size_t(accessor)] < 0) draco_source_of_[size_t(accessor)] = slot;
            if (s.indices >= 0 && draco_source_of_[size_t(s.indices)] < 0) draco_source_of_[size_t(s.indices)] = slot;
            draco_sources_.push_back(std::move(s));
        }
    }
}

std::span<const uint8_t> GltfData::draco_data(int index) {
    DracoSource& source = draco_sources_[size_t(draco_source_of_[size_t(index)])];
    if (source.state == State::unchecked) source.state = decode_draco_source(source) ? State::ok : State::bad;
    if (source.state != State::ok) return {};
    return draco_values_[size_t(index)];
}

bool GltfData::decode_draco_source(DracoSource& s) {
    if (s.view < 0 || !view(s.view)) {
        bad(s.where + " KHR_draco_mesh_compression names no valid bufferView", s.pointer + "/bufferView");
        return false;
    }
    DracoRequest request;
    request.bytes = view_data(s.view);
    if (request.bytes.empty()) return false;  // its buffer could not be read (reported)
    std::vector<int> wanted_of;  // the accessor each wanted attribute fills
    for (const auto& [index, id] : s.attributes) {
        const Accessor* a = accessor(index);
        if (!a) return false;
        if (a->draco < 0) continue;  // an uncompressed fallback
        request.wanted.push_back({id, a->component_type, a->components});
        wanted_of.push_back(index);
    }
    if (!decode_draco_through_module(request, s.where, report_)) {
        if (!request.problem.empty())
            bad(s.where + " KHR_draco_mesh_compression does not decode: " + request.problem + "; re-export the mesh",
                s.pointer);
        return false;
    }
    for (size_t k = 0; k < wanted_of.size(); ++k) {
        const Accessor& a = accessors_[size_t(wanted_of[k])];
        if (a.count != request.points || request.values[k].size() != a.count * a.element_size) {
            bad(s.where + " accessor " + std::to_string(wanted_of[k]) + " declares " + std::to_string(a.count) +
                    " elements but its Draco mesh has " + std::to_string(request.points) + " points; re-export the mesh",
                "/accessors/" + std::to_string(wanted_of[k]));
            return false;
        }
        draco_values_[size_t(wanted_of[k])] = std::move(request.values[k]);
    }
    return store_draco_indices(s, request.corners, request.points);
}

/// The mesh's faces as the indices accessor's values, each checked below the point count and
/// within the accessor's component type.
bool GltfData::store_draco_indices(const DracoSource& s, const std::vector<uint32_t>& corners, uint64_t points) {
    if (s.indices < 0) return true;
    const Accessor* a = accessor(s.indices);
    if (!a) return false;
    if (a->draco < 0) return true;  // an uncompressed fallback
    const uint32_t size = gltf_component_size(a->component_type);
    const bool integer = a->component_type == 5121 || a->component_type == 5123 || a->component_type == 5125;
    if (!integer || a->components != 1 || a->count != corners.size()) {
        bad(s.where + " indices accessor " + std::to_string(s.indices) + " does not hold its Draco mesh's " +
                std::to_string(corners.size() / 3) + " triangles as unsigned integers; re-export the mesh",
            "/accessors/" + std::to_string(s.indices));
        return false;
    }
    const uint64_t limit = size == 1 ? 0xffu : size == 2 ? 0xffffu : 0xffffffffu;
    std::vector<uint8_t>& out = draco_values_[size_t(s.indices)];
    out.resize(corners.size() * size);
    for (size_t c = 0; c < corners.size(); ++c) {
        if (corners[c] >= points || corners[c] > limit) {
            bad(s.where + " Draco mesh corner " + std::to_string(c) + " names point " + std::to_string(corners[c]) +
                    " of " + std::to_string(points) + "; re-export the mesh",
                s.pointer);
            return false;
        }
        const uint32_t v = corners[c];
        if (size == 1) out[c] = uint8_t(v);
        if (size == 2) {
            const uint16_t v16 = uint16_t(v);
            std::memcpy(&out[c * 2], &v16, 2);
        }
        if (size == 4) std::memcpy(&out[c * 4], &v, 4);
    }
    return true;
}

}  // namespace weft::import_detail
