// Reading a model file into the Scene (DESIGN.md §2, issue 2 "Import"): glTF 2.0 (.gltf with
// external or data-URI buffers, .glb), VRM (GLB bytes, recognised by content whatever the
// extension), FBX binary and ASCII, and anything else Assimp 5.2.5 reads. The result is in metres,
// Y up, right-handed; skinned meshes are in their bind pose. Only lib/scene/*.cpp include Assimp.
#pragma once
#include <cstdint>
#include <filesystem>

#include "io/issue.h"
#include "scene/scene.h"

namespace weft {

struct ImportOptions {
    /// Keep triangles with a repeated corner (or two corners at one position) as triangles, so
    /// the sheet builder can refuse them by name. When false they are dropped from the mesh and
    /// counted in Mesh::line_count (what Assimp's FindDegenerates would have turned into lines).
    bool keep_degenerate = true;
    /// Files larger than this are refused (FILE_TOO_LARGE) before any byte is parsed.
    uint64_t max_file_bytes = uint64_t(1) << 31;
};

struct ImportResult {
    Scene scene;     ///< complete when ok(); partial or empty otherwise
    Issues issues;   ///< codes from scene/import_codes.h; any error means the file was refused
    bool ok() const { return !has_error(issues); }
};

/// Imports `file` into a Scene in metres, Y up. Never throws for anything wrong with the file:
/// every problem becomes an Issue whose message names the file (and mesh, vertex, joint...).
ImportResult import_scene(const std::filesystem::path& file, const ImportOptions& options = {});

/// The Assimp post-processing flags import_scene reads with, for benchmarks that time Assimp's
/// own ReadFile against import_scene.
unsigned int assimp_postprocess_flags();

}  // namespace weft
