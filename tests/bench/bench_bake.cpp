// What `weft bake` costs beyond Assimp's import of the same files:
// per shared model, Assimp alone (the project's post-processing flags, as import_scene asks for
// them) against bake_model (import_scene, garments, sheet or rig build, outputs written atomically,
// stamp), both in this one process; and the whole folder through bake() at 1 and 2 worker processes (its isolation included).
// Target: bake minus Assimp under 30% of Assimp; -j 2 close to twice -j 1. The process's heap is set
// up as `weft bake` sets it (batch/process_memory.h), so both sides run on the same allocator.
// Run: scripts/bench_bake.sh (repetitions, medians and the ratios), or directly
//   build/tests/bench/bench_bake --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/scene.h>

#include "io/atomic_file.h"
#include "batch/bake.h"
#include "batch/process_memory.h"
#include "scene/import.h"
#include "support/paths.h"

namespace {

namespace fs = std::filesystem;

std::string lower_extension(const fs::path& p) {
    std::string e = p.extension().string();
    for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return e;
}

/// Assimp's ReadFile with import_scene's flags and property. A .vrm is GLB bytes Assimp has no
/// reader registered for, so it is read from memory with the "glb" hint, as import_scene does.
void assimp_read(const fs::path& model, benchmark::State& state) {
    Assimp::Importer importer;
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    const aiScene* scene = nullptr;
    if (lower_extension(model) == ".vrm") {
        std::vector<uint8_t> bytes;
        if (std::string why = weft::read_file(model, bytes); !why.empty()) {
            state.SkipWithError(why.c_str());
            return;
        }
        scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), weft::assimp_postprocess_flags(), "glb");
    } else {
        scene = importer.ReadFile(model.string(), weft::assimp_postprocess_flags());
    }
    if (!scene) state.SkipWithError(importer.GetErrorString());
    benchmark::DoNotOptimize(scene);
}

weft::BakeOptions bake_options(const fs::path& out, int jobs) {
    weft::BakeOptions o;
    o.inputs = {weft::test::shared_models_dir()};
    o.out_dir = out;
    o.jobs = jobs;
    o.model.force = true;  // every iteration does the work; a stamp would skip it
    o.model.options_text = "bench";
    return o;
}

void BM_Assimp(benchmark::State& state, fs::path model) {
    for (auto _ : state) assimp_read(model, state);
}

void BM_Bake(benchmark::State& state, weft::BakeInput input) {
    const weft::BakeOptions o = bake_options(weft::test::binary_dir() / "bench-scratch" / "bake_model", 1);
    for (auto _ : state) {
        const weft::ModelRecord r = weft::bake_model(input.path, weft::bake_model_options(input, o));
        if (r.status == weft::ModelStatus::failed) state.SkipWithError(("bake_model failed: " + input.relative).c_str());
        benchmark::DoNotOptimize(r.outputs.data());
    }
}

void BM_AssimpAll(benchmark::State& state, std::vector<weft::BakeInput> inputs) {
    for (auto _ : state)
        for (const weft::BakeInput& in : inputs) assimp_read(in.path, state);
    state.counters["models"] = static_cast<double>(inputs.size());
}

void BM_BakeAll(benchmark::State& state) {
    const int jobs = static_cast<int>(state.range(0));
    const weft::BakeOptions o =
        bake_options(weft::test::binary_dir() / "bench-scratch" / ("bake_all_j" + std::to_string(jobs)), jobs);
    for (auto _ : state) {
        weft::BakeResult r = weft::bake(o, {});
        benchmark::DoNotOptimize(r.models.size());
    }
}

}  // namespace

int main(int argc, char** argv) {
    weft::tune_process_memory();
    const fs::path models = weft::test::shared_models_dir();
    weft::Issues issues;
    const std::vector<weft::BakeInput> inputs = weft::walk_inputs({models}, {}, issues);
    if (inputs.empty()) {
        std::fprintf(stderr, "bench_bake: no models under %s\n", models.string().c_str());
        return 1;
    }
    for (const weft::BakeInput& in : inputs) {
        benchmark::RegisterBenchmark(("BM_Assimp/" + in.relative).c_str(), BM_Assimp, in.path)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_Bake/" + in.relative).c_str(), BM_Bake, in)->Unit(benchmark::kMillisecond);
    }
    // Whole-folder runs: one iteration each is seconds; repetitions give the spread.
    benchmark::RegisterBenchmark("BM_AssimpAll", BM_AssimpAll, inputs)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
    benchmark::RegisterBenchmark("BM_BakeAll", BM_BakeAll)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)
        ->Iterations(1)->UseRealTime();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
