// The per-character table of clip validation (docs/validation.md#clips): for every model given (or
// every file of a folder) that has a garment, the body colliders fitted and, per default clip
// (walk, run, idle, jump), the worst penetration of a particle and of a rig's render vertex into
// the body with the colliders only measured and with them colliding, and what the clip costs.
// Not a Google Benchmark (each row is one run of a whole model): it prints a Markdown table.
//
//   bench_clips ../shared/models            # Release build: -DWEFT_BUILD_BENCH=ON
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "pipeline/clip_motions.h"
#include "pipeline/bake_model.h"

namespace fs = std::filesystem;
using namespace weft;

namespace {

struct Run {
    ModelRecord record;
    double seconds = 0;
};

/// The model baked as `weft bake --grow-cloth --validate` does, in memory, with only clip scenarios.
Run run(const fs::path& model, const ClipChoice& clips, bool collide) {
    ModelOptions o = bake_preset();
    o.grow_cloth = true;
    o.write_files = false;
    ValidationOptions v;
    v.scenarios.clear();
    v.clip_choice = clips;
    v.body_collides = collide;
    o.validate = v;
    o.out_dir = fs::temp_directory_path() / "weft-bench-clips";
    const auto t0 = std::chrono::steady_clock::now();
    Run r{bake_model(model, o), 0};
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

/// Worst particle penetration over every proxy's clip scenario, and the worst render vertex of a rig.
std::pair<double, double> worst(const ModelRecord& r) {
    double particle = 0, vertex = -1;
    if (r.proxy_validation)
        for (const ProxyValidation& p : r.proxy_validation->proxies)
            for (const ScenarioStats& s : p.scenarios) particle = std::max(particle, s.max_penetration.value_or(0.0));
    if (r.validation)
        for (const RigProxyValidation& p : r.validation->proxies)
            for (const MeshPoseStats& st : p.poses)
                if (st.max_penetration) vertex = std::max(vertex, *st.max_penetration);
    return {particle, vertex};
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<fs::path> models;
    for (int i = 1; i < argc; ++i) {
        if (fs::is_directory(argv[i])) {
            for (const fs::directory_entry& e : fs::recursive_directory_iterator(argv[i]))
                if (e.is_regular_file()) {
                    const std::string ext = e.path().extension().string();
                    if (ext == ".glb" || ext == ".gltf" || ext == ".vrm" || ext == ".fbx") models.push_back(e.path());
                }
        } else {
            models.emplace_back(argv[i]);
        }
    }
    std::sort(models.begin(), models.end());
    std::printf("| model | garments (proxies) | colliders fitted / left out | clips | clip | steps | particle mm no colliders / with | render vertex mm no colliders / with | s per clip |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    for (const fs::path& model : models) {
        ClipChoice none;  // the model's own cost without any clip, to subtract
        const Run base = run(model, none, true);
        const size_t proxies = base.record.proxy_validation ? base.record.proxy_validation->proxies.size() : 0;
        if (proxies == 0) continue;  // no garment
        const size_t fitted = base.record.body.colliders.size(), left_out = base.record.body.left_out.size();
        ClipChoice defaults;
        defaults.mode = ClipChoice::defaults;
        std::string error;
        const std::vector<int> chosen = choose_clips(base.record.scene, defaults, model.string(), error);
        if (chosen.empty())
            std::printf("| %s | %zu | %zu / %zu | %zu | none | | | | |\n", model.filename().string().c_str(), proxies, fitted,
                        left_out, base.record.scene.clips.size());
        for (int c : chosen) {
            ClipChoice one;
            one.mode = ClipChoice::named;
            one.names = {base.record.scene.clips[static_cast<size_t>(c)].name};
            const Run off = run(model, one, false);
            const Run on = run(model, one, true);
            if (std::getenv("BENCH_CLIPS_DEBUG"))
                for (const Issue& i : on.record.issues) std::fprintf(stderr, "%s %s\n", i.code.c_str(), i.message.c_str());
            const auto [p_off, v_off] = worst(off.record);
            const auto [p_on, v_on] = worst(on.record);
            uint32_t steps = 0;
            if (on.record.proxy_validation && !on.record.proxy_validation->proxies.empty() &&
                !on.record.proxy_validation->proxies[0].scenarios.empty())
                steps = on.record.proxy_validation->proxies[0].scenarios[0].steps;
            const auto mm = [](double v) { return v < 0 ? std::string("-") : std::to_string(v * 1000).substr(0, 5); };
            std::printf("| %s | %zu | %zu / %zu | %zu | %s | %u | %s / %s | %s / %s | %.2f |\n", model.filename().string().c_str(),
                        proxies, fitted, left_out, base.record.scene.clips.size(), one.names[0].c_str(), steps, mm(p_off).c_str(),
                        mm(p_on).c_str(), mm(v_off).c_str(), mm(v_on).c_str(), on.seconds - base.seconds);
            std::fflush(stdout);
        }
    }
    return 0;
}
