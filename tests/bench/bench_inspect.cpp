// What `weft inspect` costs beyond Assimp's own ReadFile, on the largest shared model
// (kaykit_Knight.glb, 3.5 MiB: 15 meshes, 41 joints, 76 animations, an embedded PNG atlas), and
// on the model with the most garment geometry (quaternius_umw_Witch.gltf, 4684 hair vertices).
// Inspect's path is import_scene + find_garments + the report JSON; the garment stage alone is
// measured on a scene imported once. Assimp reads with the flags import_scene uses.
// Run: build-*/tests/bench/bench_inspect --benchmark_repetitions=9 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/scene.h>

#include "garment/garment_json.h"
#include "garment/garments.h"
#include "scene/import.h"
#include "support/paths.h"

namespace {

const char* model_name(const benchmark::State& state) {
    return state.range(0) == 0 ? "kaykit_Knight.glb" : "quaternius_umw_Witch.gltf";
}

void BM_AssimpReadFile(benchmark::State& state) {
    const std::filesystem::path path = weft::test::shared_model(model_name(state));
    if (path.empty()) {
        state.SkipWithError("shared model not present");
        return;
    }
    for (auto _ : state) {
        Assimp::Importer importer;
        importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
        const aiScene* scene = importer.ReadFile(path.string(), weft::assimp_postprocess_flags());
        if (!scene) state.SkipWithError(importer.GetErrorString());
        benchmark::DoNotOptimize(scene);
    }
}
BENCHMARK(BM_AssimpReadFile)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Inspect(benchmark::State& state) {
    const std::filesystem::path path = weft::test::shared_model(model_name(state));
    if (path.empty()) {
        state.SkipWithError("shared model not present");
        return;
    }
    for (auto _ : state) {
        weft::ImportResult result = weft::import_scene(path);
        if (!result.ok()) state.SkipWithError("import_scene refused the model");
        weft::ModelGarments found = weft::find_garments(result.scene);
        std::string text = weft::garments_to_json(result.scene, found).dump(2);
        benchmark::DoNotOptimize(text.data());
    }
}
BENCHMARK(BM_Inspect)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_FindGarments(benchmark::State& state) {
    const std::filesystem::path path = weft::test::shared_model(model_name(state));
    if (path.empty()) {
        state.SkipWithError("shared model not present");
        return;
    }
    weft::ImportResult result = weft::import_scene(path);
    if (!result.ok()) {
        state.SkipWithError("import_scene refused the model");
        return;
    }
    for (auto _ : state) {
        weft::ModelGarments found = weft::find_garments(result.scene);
        std::string text = weft::garments_to_json(result.scene, found).dump(2);
        benchmark::DoNotOptimize(text.data());
    }
}
BENCHMARK(BM_FindGarments)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
