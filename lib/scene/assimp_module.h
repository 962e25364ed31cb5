// Internal to the importer (lib/scene): the formats weft does not read itself (FBX, OBJ, glTF 1.0 and
// the rest of Assimp's list) are read by Assimp in a module of its own, weft-assimp.so
// (lib/scene/assimp/), which the weft program loads the first time a model needs it. A process that
// only reads glTF and VRM never maps libassimp: its loader and its 6.6 MB of code cost a process
// 11-15 ms at start (docs/measurements.md, "The folder bake's fixed cost"), which `weft bake`'s
// driver paid before its first worker could start. Programs that link the module's objects (the
// test suites, the benchmarks) call it directly instead.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "io/issue.h"
#include "scene/gltf_draco.h"
#include "scene/import.h"
#include "scene/import_detail.h"
#include "scene/scene.h"

namespace weft::import_detail {

/// One import handed to the module: the model's bytes as import_scene read them, and where the
/// result goes. `memory_hint` is Assimp's format hint for bytes read from memory (FBX), or null to
/// let Assimp open the file by path (formats whose companions it opens beside the file).
struct AssimpRequest {
    const std::filesystem::path* file = nullptr;
    std::span<const uint8_t> bytes;
    const char* memory_hint = nullptr;
    const ImportOptions* options = nullptr;
    Scene* scene = nullptr;
    Issues* issues = nullptr;
};

/// The module and its caller pass C++ objects, so both must be built from the same sources: the
/// module exports this stamp and the caller refuses a module whose stamp differs.
inline std::string assimp_module_stamp() {
    return std::string(WEFT_VERSION) + "/" + std::to_string(sizeof(AssimpRequest)) + "/" + std::to_string(sizeof(Scene)) +
           "/" + std::to_string(sizeof(Mesh)) + "/" + std::to_string(sizeof(Issue)) + "/" +
           std::to_string(sizeof(ImportOptions)) + "/" + std::to_string(sizeof(DracoRequest));
}

/// Reads `request` with Assimp (the module's side): the scene converted (convert_scene), every
/// problem an issue. False when an error was reported.
bool import_with_assimp(const AssimpRequest& request);

/// The caller's side: the module loaded once per process (or the linked-in reader), then the
/// request handed to it. A module that cannot be loaded is IMPORTER_MISSING naming the module file
/// tried and the model; the process goes on.
bool import_through_assimp_module(const AssimpRequest& request, Reporter& report);

/// A KHR_draco_mesh_compression mesh decoded by the module (scene/gltf_draco.h), loading it the first
/// time; `what` names the primitive in IMPORTER_MISSING when the module cannot be loaded. False when
/// it could not be loaded (reported) or did not decode (`request.problem`, for the caller to report).
bool decode_draco_through_module(DracoRequest& request, const std::string& what, Reporter& report);

/// Where the module is looked for, first match wins: $WEFT_ASSIMP_MODULE when set (only there);
/// weft-assimp.so beside the running program (the build tree); the installed layout,
/// <bindir>/../<libdir>/weft/weft-assimp.so relative to the running program.
std::vector<std::filesystem::path> assimp_module_candidates();

}  // namespace weft::import_detail

extern "C" {
/// The module's exports, found by name (dlsym).
const char* weft_assimp_module_stamp();
bool weft_assimp_import(const weft::import_detail::AssimpRequest* request);
bool weft_draco_decode(weft::import_detail::DracoRequest* request);
}
