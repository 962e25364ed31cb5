#include "scene/model_formats.h"

#include <algorithm>
#include <iterator>

namespace weft {
namespace {

/// Sorted, each once (lib/scene/assimp/model_extensions_gen.cpp writes them so).
constexpr std::string_view assimp_extensions[] = {
#include "weft_model_extensions.inc"
};

}  // namespace

bool is_model_extension(std::string_view extension) {
    return extension == ".vrm" || std::binary_search(std::begin(assimp_extensions), std::end(assimp_extensions), extension);
}

bool read_without_assimp(std::string_view extension) {
    return extension == ".gltf" || extension == ".glb" || extension == ".vrm";
}

}  // namespace weft
