// EXT_meshopt_compression: a buffer view whose bytes are stored compressed in another buffer,
// decoded with meshoptimizer's decoders (documented safe for untrusted input) and filters. The
// extension's own specification (Khronos glTF extension registry, EXT_meshopt_compression) fixes
// what is checked here: mode ATTRIBUTES with a byteStride a multiple of 4 up to 256, TRIANGLES
// and INDICES with 2 or 4 bytes per index, and each filter's stride. Internal to lib/scene.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace weft::import_detail {

/// A buffer view's EXT_meshopt_compression object, as parsed and checked by GltfData::view.
struct MeshoptView {
    enum class Mode : uint8_t { attributes, triangles, indices };
    enum class Filter : uint8_t { none, octahedral, quaternion, exponential };
    bool present = false;
    int buffer = -1;          ///< the buffer holding the compressed bytes
    uint64_t offset = 0;      ///< their first byte in it
    uint64_t length = 0;      ///< their count
    uint64_t stride = 0;      ///< bytes per decoded element (vertex, or index)
    uint64_t count = 0;       ///< decoded elements
    Mode mode = Mode::attributes;
    Filter filter = Filter::none;
};

/// Decoded bytes per compressed byte, at most: the vertex codec spends at least 2 bits per 16
/// bytes of a vertex stream (64x), the index codec a byte per triangle (12x). A view declaring
/// more would allocate without bytes behind it, so it is refused before anything is decoded.
inline constexpr uint64_t kMeshoptMaxRatio = 128;

/// What is wrong with `mode`/`filter`/`stride`/`count` together, or "" when meshoptimizer can
/// decode them (its decoders assert these, so they are checked before any call).
std::string meshopt_shape_problem(const MeshoptView& view);

/// Decodes `encoded` into `out` (count × stride bytes) and applies the view's filter. False with
/// `problem` set when the bytes do not decode (meshoptimizer's -1 bad header, -2 truncated,
/// -3 trailing bytes).
bool decode_meshopt(const MeshoptView& view, std::span<const uint8_t> encoded, std::vector<uint8_t>& out,
                    std::string& problem);

}  // namespace weft::import_detail
