// The module's side of KHR_draco_mesh_compression (scene/gltf_draco.h): Draco's decoder, then the
// values converted to the component types the primitive's accessors declare.
#include <cstring>
#include <exception>
#include <memory>

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

#include "scene/assimp_module.h"
#include "scene/gltf_draco.h"

namespace weft::import_detail {
namespace {

/// Every point's value of `attribute` as `components` values of T, in point order (Draco maps
/// points to attribute values; the glTF accessor is indexed by point).
template <class T>
bool fill(const draco::PointAttribute& attribute, uint64_t points, uint32_t components, std::vector<uint8_t>& out) {
    out.resize(size_t(points) * components * sizeof(T));
    std::vector<T> value(components);
    for (uint64_t p = 0; p < points; ++p) {
        const draco::AttributeValueIndex at = attribute.mapped_index(draco::PointIndex(uint32_t(p)));
        if (at.value() >= attribute.size() ||
            !attribute.ConvertValue<T>(at, int8_t(components), value.data()))
            return false;
        std::memcpy(out.data() + size_t(p) * components * sizeof(T), value.data(), components * sizeof(T));
    }
    return true;
}

bool fill_as(const draco::PointAttribute& attribute, uint64_t points, const DracoAttributeWanted& w,
             std::vector<uint8_t>& out) {
    switch (w.component_type) {
        case 5120: return fill<int8_t>(attribute, points, w.components, out);
        case 5121: return fill<uint8_t>(attribute, points, w.components, out);
        case 5122: return fill<int16_t>(attribute, points, w.components, out);
        case 5123: return fill<uint16_t>(attribute, points, w.components, out);
        case 5125: return fill<uint32_t>(attribute, points, w.components, out);
        case 5126: return fill<float>(attribute, points, w.components, out);
        default: return false;
    }
}

}  // namespace

bool decode_draco(DracoRequest& r) {
    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char*>(r.bytes.data()), r.bytes.size());
    const auto type = draco::Decoder::GetEncodedGeometryType(&buffer);
    if (!type.ok() || type.value() != draco::TRIANGULAR_MESH) {
        r.problem = type.ok() ? "it holds a point cloud, not a triangle mesh" : "no Draco header (" + type.status().error_msg_string() + ")";
        return false;
    }
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok()) {
        r.problem = "Draco cannot decode it (" + decoded.status().error_msg_string() + ")";
        return false;
    }
    const std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    r.points = mesh->num_points();
    r.corners.resize(size_t(mesh->num_faces()) * 3);
    for (uint32_t f = 0; f < mesh->num_faces(); ++f) {
        const draco::Mesh::Face& face = mesh->face(draco::FaceIndex(f));
        for (int c = 0; c < 3; ++c) r.corners[size_t(f) * 3 + size_t(c)] = face[c].value();
    }
    r.values.assign(r.wanted.size(), {});
    for (size_t k = 0; k < r.wanted.size(); ++k) {
        const DracoAttributeWanted& w = r.wanted[k];
        const draco::PointAttribute* attribute = mesh->GetAttributeByUniqueId(w.unique_id);
        if (!attribute) {
            r.problem = "it has no attribute of unique id " + std::to_string(w.unique_id);
            return false;
        }
        if (!fill_as(*attribute, r.points, w, r.values[k])) {
            r.problem = "its attribute of unique id " + std::to_string(w.unique_id) +
                        " does not convert to the accessor's component type " + std::to_string(w.component_type);
            return false;
        }
    }
    return true;
}

}  // namespace weft::import_detail

__attribute__((visibility("default"))) bool weft_draco_decode(weft::import_detail::DracoRequest* request) {
    try {
        return weft::import_detail::decode_draco(*request);
    } catch (const std::exception& e) {  // Draco allocates what its header declares
        request->problem = std::string("Draco's decoder failed (") + e.what() + ")";
        return false;
    }
}
