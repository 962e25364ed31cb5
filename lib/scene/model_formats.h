// Which files are model files, by extension: what `weft bake` and `weft inspect` walk folders for.
#pragma once
#include <string_view>

namespace weft {

/// Whether `extension` (with its dot, lower case: ".fbx") names a model file: one Assimp reads (its
/// list, taken from the Assimp weft was built with, at build time), or .vrm.
bool is_model_extension(std::string_view extension);

/// Whether weft reads a model with this extension itself (.gltf, .glb, .vrm: glTF 2.0 and VRM), so
/// reading it never loads the Assimp module (scene/assimp_module.h). A .gltf that turns out to be
/// glTF 1.0 still goes to Assimp: this is a guess by name, for scheduling, never for the result.
bool read_without_assimp(std::string_view extension);

}  // namespace weft
