// glTF import, native against Assimp, on the largest shared model (kaykit_Knight.glb, 3.5 MiB:
// 15 meshes, 41 joints, 76 animations, an embedded PNG atlas): Assimp's own ReadFile with the
// post-processing flags the Assimp path used; import_scene with the Assimp reader (the file read,
// the checks, Assimp, the conversion); import_scene with the native reader (the same Scene,
// tests/scene/gltf_native_test.cpp).
// Run: build-*/tests/bench/bench_import --benchmark_repetitions=9 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/scene.h>

#include "scene/import.h"
#include "support/paths.h"

namespace {

const std::filesystem::path& knight() {
    static const std::filesystem::path path = weft::test::shared_model("kaykit_Knight.glb");
    return path;
}

void BM_AssimpReadFile(benchmark::State& state) {
    if (knight().empty()) {
        state.SkipWithError("kaykit_Knight.glb not present in WEFT_SHARED_MODELS");
        return;
    }
    for (auto _ : state) {
        Assimp::Importer importer;
        importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
        const aiScene* scene = importer.ReadFile(knight().string(), weft::assimp_postprocess_flags());
        if (!scene) state.SkipWithError(importer.GetErrorString());
        benchmark::DoNotOptimize(scene);
    }
}
BENCHMARK(BM_AssimpReadFile)->Unit(benchmark::kMillisecond);

void BM_ImportScene(benchmark::State& state, weft::GltfReader reader) {
    if (knight().empty()) {
        state.SkipWithError("kaykit_Knight.glb not present in WEFT_SHARED_MODELS");
        return;
    }
    weft::ImportOptions options;
    options.gltf_reader = reader;
    for (auto _ : state) {
        weft::ImportResult result = weft::import_scene(knight(), options);
        if (!result.ok()) state.SkipWithError("import_scene refused the Knight");
        benchmark::DoNotOptimize(result.scene.meshes.data());
    }
}
BENCHMARK_CAPTURE(BM_ImportScene, assimp, weft::GltfReader::assimp)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ImportScene, native, weft::GltfReader::native)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
