// glTF import, weft's reader against Assimp's, on the largest shared model (kaykit_Knight.glb,
// 3.5 MiB: 15 meshes, 41 joints, 76 animations, an embedded PNG atlas):
// - AssimpReadFile: Assimp 5.2.5's ReadFile with the post-processing flags weft reads FBX with
//   (triangulated, identical vertices joined, UVs flipped, validated): the aiScene alone, before
//   any conversion into weft's Scene, so the least an Assimp-based import of the file costs.
// - ImportScene: import_scene, the whole of weft's import (the file read, the document scanned and
//   checked, the Scene built with its invariants), what `weft bake` runs per model.
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

void BM_ImportScene(benchmark::State& state) {
    if (knight().empty()) {
        state.SkipWithError("kaykit_Knight.glb not present in WEFT_SHARED_MODELS");
        return;
    }
    for (auto _ : state) {
        weft::ImportResult result = weft::import_scene(knight());
        if (!result.ok()) state.SkipWithError("import_scene refused the Knight");
        benchmark::DoNotOptimize(result.scene.meshes.data());
    }
}
BENCHMARK(BM_ImportScene)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
