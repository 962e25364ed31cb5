// Writing a grown model back as glTF 2.0 binary by patching the file it came from (docs/growth.md,
// the grown model): the original JSON and buffers are kept byte for byte where nothing grew, so
// meshes, materials, textures, animations, morph targets and extensions (VRM) survive untouched,
// and only what growing added is written:
//
//   nodes      every node the grown scene has after the original's, appended (original node indices,
//              which animations and extensions refer to, stay valid) as children of their parents,
//              each placed so its rest pose is where the grown scene binds it
//   skins      the new joints appended to the skin of each re-weighted primitive, with inverse bind
//              matrices that map that primitive's own vertex space (the skin's bind shape) into them
//   weights    new JOINTS_0/WEIGHTS_0 accessors (and JOINTS_1/WEIGHTS_1 where a vertex keeps more
//              than four) for the primitive of each re-weighted mesh
//   rest       where the file's default pose is not its bind pose, the re-weighted vertices' positions,
//              normals, tangents and morph deltas stored anew so the default pose shows each where the
//              input did (gltf_patch_weights.cpp)
//   springs    spring bones and the body's colliders (scene/gltf_springs.h)
//   pruned     the accessors these replaced (old joints, weights, inverse binds), their buffer views
//              and their bytes, unless another primitive or skin still reads them: the grown file
//              has no unused accessor the source did not have
//   buffers    every buffer (GLB chunk, data URI, external file) and every external image merged
//              into the one GLB binary chunk, so the result stands alone
//   asset      generator "weft <version>": the file is weft's output now
//
// The scene and the file are one by index, kept from import (scene.h): a Scene node is the file's
// node Node::source, a Scene mesh is primitive Mesh::source_primitive of mesh Mesh::source_mesh, and
// each of that primitive's vertices is the Scene vertex Mesh::source_vertices names. Nothing is
// matched by name or position; a mesh or node without that record is an error (the caller then
// writes the scene with gltf_write.h instead).
#pragma once
#include <cstdint>
#include <optional>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "scene/gltf_springs.h"
#include "scene/scene.h"

namespace weft {

struct GltfPatchResult {
    std::vector<uint8_t> glb;         ///< the patched model; empty when `error` is set
    std::string error;                ///< "" on success; else one line naming the file and what could not be matched
    uint32_t nodes_added = 0;
    uint32_t primitives_reweighted = 0;
    uint32_t vertices_reweighted = 0; ///< vertices whose influences came from the grown scene
    uint32_t images_embedded = 0;     ///< external or data-URI images moved into the binary chunk
    uint32_t vertices_kept_at_rest = 0; ///< re-weighted vertices stored anew so the default pose shows them where
                                        ///< the input did (gltf_patch_weights.cpp)
    SpringsWritten springs;           ///< what write_spring_bones added, kept and changed
    uint32_t accessors_pruned = 0;    ///< the file's accessors the patch replaced and nothing reads any more, dropped
    uint64_t bytes_pruned = 0;        ///< bytes of the merged binary no buffer view covers any more, dropped
};

/// Patches `source` (the .gltf, .glb or .vrm `original` was imported from) with what `grown` adds to
/// `original`: nodes after original.nodes.size(), joints after each original skin's, and the
/// influences of `changed_meshes` (indices into both scenes' meshes). Deterministic: the same inputs
/// give the same bytes. Safe for any file: a malformed one is an error, never a crash.
///
/// With `springs`, spring bones are written too (scene/gltf_springs.h: the file's own kept, weft's
/// added in the extension the file uses, the body's colliders with them). `grown` may equal
/// `original` (authored chains only: nothing but the spring data changes).
///
/// The file is read through the import's glTF document (buffers and images confined to its folder
/// unless `allow_outside_folder`, as ImportOptions says); its nodes and vertices are the ones the
/// import recorded by index (Node::source, Mesh::source_*), never matched by name or position.
GltfPatchResult patch_gltf(const std::filesystem::path& source, const Scene& original, const Scene& grown,
                           std::span<const int> changed_meshes, const SpringBones* springs = nullptr,
                           bool allow_outside_folder = false);

}  // namespace weft
