// Writing a Scene as glTF 2.0 binary (GLB): the grown model (docs/growth.md) and the fixtures under
// testdata/. The file passes the Khronos glTF Validator with no errors and its bytes depend only on
// the Scene (same Scene, same options -> identical file).
//
// What is written: every node (name, TRS decomposed from its transform, children, one scene whose
// roots are the parentless nodes); one glTF mesh per node that instances weft meshes, one primitive
// per weft Mesh (POSITION with min/max, NORMAL, TEXCOORD_0 when present, indices, material); the
// materials by name with a plain pbrMetallicRoughness; the skins (joints, inverse bind matrices) with
// JOINTS_0/WEIGHTS_0, and JOINTS_1/WEIGHTS_1 where a vertex has more than four influences.
// With GlbOptions::springs, the rig chains as VRMC_springBone springs and the body's colliders.
// Not written: animations, morph targets, the file's own springs (the Scene keeps only their names).
//
// Spaces (scene/scene.h): Scene positions are scene space. A static mesh is written in its node's
// space (inverse of the node's world transform as written); a skinned mesh is written as is, in
// scene space, because glTF ignores the transform of the node a skinned mesh hangs from and maps
// its vertices through the inverse bind matrices alone, and those are scene space too.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "scene/scene.h"

namespace weft {

struct SpringBones;
struct SpringsWritten;

struct GlbOptions {
    std::string generator = "weft";  ///< asset.generator; part of the bytes, so keep it free of dates
    const SpringBones* springs = nullptr;  ///< also spring bones and the body's colliders (scene/gltf_springs.h:
                                           ///< VRMC_springBone, the file having none of its own)
};

/// Most joints one vertex keeps when written (two JOINTS_n/WEIGHTS_n sets): the largest weights
/// win, ties to the lower joint index, and the kept weights are renormalised.
inline constexpr int glb_max_influences = 8;

/// "" when `scene` can be written as valid glTF, else one line naming the mesh or node and the
/// element: a non-finite position, UV, transform or weight; a negative weight; an index,
/// material, skin, joint or node out of range; a per-vertex array of the wrong length; a skinned
/// vertex with no weight; a mesh with no triangles or not instanced at a node; a node hierarchy
/// that is not a forest; a static mesh under a node whose world transform is singular.
/// A zero or non-finite normal is not an error: it is written as the vertex's area-weighted face
/// normal (glTF requires unit normals).
std::string glb_write_error(const Scene& scene);

/// The GLB bytes of `scene`, or an empty vector when glb_write_error(scene) is not "" (or the spring
/// bones options.springs asks for name a joint the scene lacks).
std::vector<uint8_t> encode_glb(const Scene& scene, const GlbOptions& options = {});

/// Checks, encodes and writes `out` atomically (io/atomic_file.h). Returns "" on success, else a
/// message naming `out` and what was wrong with the scene, its spring bones or the write; what the
/// spring bones added goes into `springs_written` when given.
std::string write_glb(const Scene& scene, const std::filesystem::path& out,
                      const GlbOptions& options = {}, SpringsWritten* springs_written = nullptr);

/// The GLB container around a glTF JSON document and its binary buffer: 12-byte header, the JSON
/// chunk padded with spaces to 4 bytes, the BIN chunk padded with zeros (omitted when `bin` is
/// empty). The JSON is taken as given, so tests can wrap hand-made (even invalid) documents.
std::vector<uint8_t> pack_glb(std::string_view json, std::span<const uint8_t> bin);

}  // namespace weft
