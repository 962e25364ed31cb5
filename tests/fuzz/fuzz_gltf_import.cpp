// libFuzzer harness for the whole glTF/GLB import path: bytes -> import_scene -> find_garments.
// The bytes are the model file's (a GLB, a .gltf's JSON, anything else Assimp sniffs); the model
// "lives" in a folder that does not exist, so every external URI is refused or missing and nothing
// on the machine is read. Invariants, any breach an abort:
//   - every finding has a code from scene/import_codes.h and a message that starts with the file;
//   - a file that imports without error has at least one triangle, every index below its mesh's
//     vertex count, finite positions, every weight's joint inside its skin, every name valid UTF-8,
//     and its garments are found without throwing (tests/fuzz/import_invariants.h).
#include <cstdint>
#include <span>
#include <string>

#include "import_invariants.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // The first byte picks the name Assimp sees when the content does not settle the format.
    static const char* const names[] = {"/nonexistent-weft-fuzz/model.glb", "/nonexistent-weft-fuzz/model.gltf",
                                        "/nonexistent-weft-fuzz/model.vrm", "/nonexistent-weft-fuzz/model.fbx"};
    if (size == 0) return 0;
    const std::string file = names[data[0] % 4];
    std::span<const uint8_t> bytes(data + 1, size - 1);
    weft::ImportOptions options;
    options.max_file_bytes = 1 << 20;
    weft::fuzz::check_import(file, weft::import_scene(file, bytes, options));
    return 0;
}
