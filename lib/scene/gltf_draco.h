// KHR_draco_mesh_compression: a primitive whose attributes and indices are stored together as one
// Draco mesh in a buffer view; the primitive's accessors say only what the decoded values are
// (count, component type, type). Decoded by Google's Draco library, the format's reference decoder
// (Debian's libdraco, which Assimp links already), inside weft's Assimp module
// (scene/assimp_module.h): a process that reads only uncompressed glTF never maps it. Internal to
// lib/scene; docs/gltf-reading.md#draco.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace weft::import_detail {

/// One attribute of the Draco mesh, asked for by its unique id in the extension's `attributes`
/// and wanted as its glTF accessor holds it.
struct DracoAttributeWanted {
    uint32_t unique_id = 0;
    uint32_t component_type = 0;  ///< glTF componentType, 5120..5126
    uint32_t components = 0;      ///< per element (VEC3: 3)
};

/// A decode handed to the module: the compressed bytes and the attributes wanted in; the mesh's
/// points, faces and each wanted attribute's values (tightly packed in its component type) out.
struct DracoRequest {
    std::span<const uint8_t> bytes;
    std::vector<DracoAttributeWanted> wanted;
    uint64_t points = 0;
    std::vector<uint32_t> corners;             ///< three point indices per triangle
    std::vector<std::vector<uint8_t>> values;  ///< per wanted attribute: points x components values
    std::string problem;                       ///< why it did not decode; "" when it did
};

/// Decodes `request` (the module's side). False with `problem` set when the bytes are no Draco
/// triangle mesh, an attribute asked for is not in it, or a value does not fit its component type.
bool decode_draco(DracoRequest& request);

}  // namespace weft::import_detail
