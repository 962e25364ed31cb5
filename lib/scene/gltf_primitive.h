// One glTF mesh primitive read for the native reader (import_gltf.cpp): its attributes through the
// document's one reader of values, its faces from its mode, and its vertices joined as Assimp's
// JoinIdenticalVertices joins them, before any node instances it. Internal to lib/scene.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "scene/import_detail.h"

namespace weft::import_detail {

class GltfData;

/// One primitive read, checked and joined.
struct GltfPrimitive {
    SourceMesh mesh;                       ///< without bones (they depend on the instancing node's skin)
    std::vector<uint32_t> joined_of_file;  ///< file vertex -> joined vertex, UINT32_MAX when unused
    std::vector<uint32_t> file_of_joined;  ///< joined vertex -> the file vertex it kept
    std::vector<std::pair<int, int>> weight_sets;  ///< JOINTS_n / WEIGHTS_n accessors, n = 0, 1, ...
    bool uses_default_material = false;
};

/// Reads primitive `prim` (named `name` in messages) into `out`: refuses a non-finite position and
/// a primitive without faces, reads its morph targets and joins identical vertices. False when an
/// error was reported.
bool read_gltf_primitive(const GltfDocument& doc, GltfData& data, const nlohmann::json& prim, const std::string& name,
                         GltfPrimitive& out, Reporter& report);

/// The glTF member `key` of `object` as an index, or -1 (absent, negative or not an integer).
int gltf_index_of(const nlohmann::json& object, const char* key);

/// The string member `key` of `object` as valid UTF-8, or "".
std::string gltf_string_member(const nlohmann::json& object, const char* key);

}  // namespace weft::import_detail
