// Writing a grown model back as glTF 2.0 binary by patching the file it came from (issue 5 "The
// grown model"): the original JSON and buffers are kept byte for byte where nothing grew, so
// meshes, materials, textures, animations, morph targets and extensions (VRM) survive untouched,
// and only what growing added is written:
//
//   nodes      every node the grown scene has after the original's, appended (original node indices,
//              which animations and extensions refer to, stay valid) as children of their parents,
//              each placed so its rest pose is where the grown scene binds it
//   skins      the new joints appended to the skin of each re-weighted primitive, with inverse bind
//              matrices that map that primitive's own vertex space (the skin's bind shape) into them
//   weights    new JOINTS_0/WEIGHTS_0 accessors (and JOINTS_1/WEIGHTS_1 where a vertex keeps more
//              than four) for every primitive of a re-weighted mesh; the old accessors are left to any
//              other primitive sharing them
//   buffers    every buffer (GLB chunk, data URI, external file) and every external image merged
//              into the one GLB binary chunk, so the result stands alone
//
// Matching the scene to the file: nodes by their unique names; a Scene mesh to the primitives of
// the glTF mesh its node instances whose material has the Scene mesh's material name; vertices by
// their bind-pose position, computed from the file exactly as glTF skins them. Anything that cannot
// be matched unambiguously is an error (the caller then writes the scene with gltf_write.h instead).
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace weft {

struct GltfPatchResult {
    std::vector<uint8_t> glb;         ///< the patched model; empty when `error` is set
    std::string error;                ///< "" on success; else one line naming the file and what could not be matched
    uint32_t nodes_added = 0;
    uint32_t primitives_reweighted = 0;
    uint32_t vertices_reweighted = 0; ///< vertices whose influences came from the grown scene
    uint32_t images_embedded = 0;     ///< external or data-URI images moved into the binary chunk
};

/// Patches `source` (the .gltf, .glb or .vrm `original` was imported from) with what `grown` adds to
/// `original`: nodes after original.nodes.size(), joints after each original skin's, and the
/// influences of `changed_meshes` (indices into both scenes' meshes). Deterministic: the same inputs
/// give the same bytes. Safe for any file: a malformed one is an error, never a crash.
GltfPatchResult patch_gltf(const std::filesystem::path& source, const Scene& original, const Scene& grown,
                           std::span<const int> changed_meshes);

}  // namespace weft
