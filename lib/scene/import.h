// Reading a model file into the Scene (docs/architecture.md#stages): glTF 2.0 (.gltf with
// external or data-URI buffers, .glb) and VRM (GLB bytes, recognised by content whatever the
// extension) by weft's own reader on the checked glTF document; FBX binary and ASCII, glTF 1.0
// and anything else Assimp 5.2.5 reads through Assimp. The result is in metres, Y up,
// right-handed; skinned meshes are in their bind pose. Only lib/scene/assimp/*.cpp call Assimp, in a
// module the program loads when a model needs it (scene/assimp_module.h).
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "io/issue.h"
#include "scene/scene.h"

namespace weft {

struct ImportOptions {
    /// Keep triangles with a repeated corner (or two corners at one position) as triangles, so
    /// the sheet builder can refuse them by name. When false they are dropped from the mesh and
    /// counted in Mesh::line_count (what Assimp's FindDegenerates would have turned into lines).
    bool keep_degenerate = true;
    /// Files larger than this are refused (FILE_TOO_LARGE) before any byte is parsed; a buffer a
    /// glTF declares larger than this is refused too (BUFFER_MISSING).
    uint64_t max_file_bytes = uint64_t(1) << 31;
    /// Let the model read files outside its own folder (`--allow-outside-folder`): a buffer, image
    /// or material library named by `..`, an absolute path or a link out (scene/confine.h). A
    /// referenced FIFO, device or directory is refused either way.
    bool allow_outside_folder = false;
    /// Budgets (docs/bad-inputs.md#budgets). A mesh is copied into scene space once per node that
    /// instances it, so a small file can ask for a great deal: 50,000 nodes instancing one 289-vertex
    /// mesh (2 MB) took `weft inspect` past 21 GB. A model past either budget is refused before its
    /// meshes are copied (INSTANCES_OVER_BUDGET, VERTICES_OVER_BUDGET): a game character is tens of
    /// meshes and up to a few hundred thousand vertices.
    uint64_t max_mesh_instances = 10'000;  ///< scene meshes: one per primitive per instancing node
    uint64_t max_vertices = 2'000'000;     ///< vertices over every scene mesh, each copy counted
    /// Animation keys over every clip, each channel's counted (channels can share one sampler, so
    /// keys are not bounded by the file's bytes). A clip past what is left is dropped by name
    /// (CLIP_KEYS_OVER_BUDGET), the clips before it kept.
    uint64_t max_clip_keys = 4'000'000;
};

struct ImportResult {
    Scene scene;     ///< complete when ok(); partial or empty otherwise
    Issues issues;   ///< codes from scene/import_codes.h; any error means the file was refused
    /// The files a glTF (text or GLB) names by relative URI, buffers and images, resolved against
    /// its folder, sorted, each once; filled as soon as the JSON parses, so also for a refused file
    /// (whose missing buffer is one of them). What its outputs depend on beside the file itself.
    std::vector<std::filesystem::path> external_files;
    bool ok() const { return !has_error(issues); }
};

/// Imports `file` into a Scene in metres, Y up. Never throws for anything wrong with the file:
/// every problem becomes an Issue whose message names the file (and mesh, vertex, joint...).
///
/// What the Scene holds, beyond scene/scene.h:
/// - Nodes: depth-first from the root, children in file order. The unit/axis correction is
///   premultiplied into node 0's `local` (so every `world` carries it). For glTF the root is the
///   single scene root, or a node "ROOT" above several; an unnamed glTF node i is "nodes[i]" (the
///   names Assimp gave them); each node's `source` is its glTF index.
/// - Meshes: one per Assimp mesh (glTF primitive) per instancing node, a primitive named
///   "<mesh>-<primitive>" when its glTF mesh has several; only the vertices its faces use, identical
///   ones joined (Assimp's JoinIdenticalVertices; the native reader joins the same ones), each
///   glTF mesh's vertices mapped to the file's by index (Mesh::source_vertices); UVs with a
///   top-left origin as glTF stores them; positions and normals in scene space.
/// - Skins: one per distinct joint list (several glTF skins over one skeleton become one). The
///   positions are the mesh posed by the rest skeleton, Σ w·(jointWorld·inverseBind)·v, so
///   `inverse_bind` is the inverse of each joint's rest `world`: writing the Scene back out with
///   them reproduces the same positions.
/// - Springs/colliders: from the VRM 0.x and VRMC_springBone extensions, glTF node indices
///   mapped to Scene nodes by index. VRM 0.x collider offsets have
///   their z negated back (UniVRM stores them mirrored); radii are as the file gives them.
ImportResult import_scene(const std::filesystem::path& file, const ImportOptions& options = {});

/// The same from the file's bytes as the caller already read them (weft bake hashes and imports
/// one read of each model): `file` names the model in messages and locates its external buffers.
ImportResult import_scene(const std::filesystem::path& file, std::span<const uint8_t> bytes,
                          const ImportOptions& options = {});

/// The Assimp post-processing flags import_scene reads FBX, OBJ and glTF 1.0 with, for benchmarks
/// that time Assimp's own ReadFile against import_scene.
unsigned int assimp_postprocess_flags();

}  // namespace weft
