// Validation on spare capacity (ValidationOptions::spare; docs/commands.md, `weft bake`'s -j): scenarios run
// side by side on borrowed threads give the very results of one thread, in run order, and a bake
// whose workers run out of models lends their slots without changing a byte of what it writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "batch/bake.h"
#include "batch/bake_model.h"
#include "outputs/rig_report.h"
#include "validate/model/rig_validate.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

/// Lends up to `slots` threads and counts what it lent; checks each slot comes back.
class CountingSpare final : public SpareCapacity {
public:
    explicit CountingSpare(int slots) : free_(slots), slots_(slots) {}
    bool try_take() override {
        for (int n = free_.load(); n > 0;)
            if (free_.compare_exchange_weak(n, n - 1)) {
                ++taken;
                int busy = slots_ - n + 1;
                for (int p = peak.load(); busy > p && !peak.compare_exchange_weak(p, busy);) {
                }
                return true;
            }
        return false;
    }
    void give_back() override { ++free_; }
    void thread_started() override { ++started; }
    bool all_back() const { return free_.load() == slots_; }

    std::atomic<int> taken{0}, started{0}, peak{0};

private:
    std::atomic<int> free_;
    const int slots_;
};

/// Every scenario, each shorter than by default (1,380 steps in all rather than 4,320): what these tests
/// compare, side by side against one thread, holds for runs of any length (each run is a solver of its
/// own from the one settled start, its script a function of its step and length: validate/scenario.h),
/// so shorter runs take the same paths for a third of the cost. Hang stays long enough for the flag
/// (asleep at step 441) and the mannequin's kicked skirt (by 400) to sleep, so both still pass every
/// gate; sprint keeps two full phases and a stop, each teleport its sway, its jump and the clamp's
/// window after it.
ValidationOptions shorter_runs() {
    ValidationOptions v;
    for (ScenarioRun& run : v.scenarios) {
        switch (run.scenario) {
            case Scenario::hang: run.steps = 600; break;
            case Scenario::swing: run.steps = 180; break;
            case Scenario::sprint: run.steps = 240; break;
            case Scenario::teleport_reset:
            case Scenario::teleport_keep:
            case Scenario::idle: run.steps = 120; break;
            case Scenario::clip: break;
        }
    }
    return v;
}

ModelRecord validated(const fs::path& model, const std::string& name, SpareCapacity* spare) {
    ModelOptions options = bake_preset();
    options.grow_cloth = true;
    options.write_files = false;
    options.validate = shorter_runs();
    options.validate->spare = spare;
    options.out_dir = test::scratch_dir("spare-" + name);
    return bake_model(model, options);
}

// The mannequin's grown hair and skirt (rig proxies, their skinned mesh posed in every scenario, the
// body colliding): side by side on three borrowed threads, every scenario's figures, every mesh pose
// and every gate are those of one thread, in run order.
TEST(SpareCapacity, RigValidationSideBySideIsOneThreadsBitForBit) {
    const fs::path model = test::testdata_dir() / "mannequin.glb";
    const ModelRecord alone = validated(model, "alone", nullptr);
    CountingSpare spare(3);
    const ModelRecord shared = validated(model, "shared", &spare);
    ASSERT_TRUE(alone.validation.has_value());
    ASSERT_TRUE(shared.validation.has_value());
    ASSERT_EQ(alone.validation->proxies.size(), 2u);
    // Each proxy has 6 runs: threads were borrowed, each started as a slot's, and every slot came back.
    EXPECT_GT(spare.taken.load(), 0);
    EXPECT_EQ(spare.started.load(), spare.taken.load());
    EXPECT_LE(spare.peak.load(), 3);
    EXPECT_TRUE(spare.all_back());
    for (size_t i = 0; i < 2; ++i) {
        const RigProxyValidation& a = alone.validation->proxies[i];
        const RigProxyValidation& b = shared.validation->proxies[i];
        ASSERT_EQ(a.poses.size(), 6u) << a.garment;
        ASSERT_EQ(b.poses.size(), a.poses.size()) << a.garment;
        for (size_t k = 0; k < a.poses.size(); ++k) {
            EXPECT_EQ(b.poses[k].scenario, a.poses[k].scenario);  // run order
            EXPECT_EQ(b.poses[k].step, a.poses[k].step);
            EXPECT_EQ(b.poses[k].max_edge_stretch, a.poses[k].max_edge_stretch);  // bit for bit
            EXPECT_EQ(b.poses[k].max_scalp_displacement, a.poses[k].max_scalp_displacement);
            EXPECT_EQ(b.poses[k].max_penetration, a.poses[k].max_penetration);
        }
        ASSERT_EQ(b.solver.scenarios.size(), a.solver.scenarios.size());
        for (size_t k = 0; k < a.solver.scenarios.size(); ++k) {
            EXPECT_EQ(b.solver.scenarios[k].scenario, a.solver.scenarios[k].scenario);
            EXPECT_EQ(b.solver.scenarios[k].max_strain, a.solver.scenarios[k].max_strain);
            EXPECT_EQ(b.solver.scenarios[k].total_energy_end, a.solver.scenarios[k].total_energy_end);
            EXPECT_EQ(b.solver.scenarios[k].sleep_step, a.solver.scenarios[k].sleep_step);
        }
    }
    EXPECT_EQ(rig_report_json(shared, false).dump(), rig_report_json(alone, false).dump());
    ASSERT_TRUE(shared.proxy_validation.has_value());
    EXPECT_EQ(report_json(*shared.proxy_validation, false).dump(), report_json(*alone.proxy_validation, false).dump());
}

// A sheet (the flag: a bound render mesh measured in every run) and a shared observer: with an
// observer every run shares, the runs stay on the caller's thread, whatever spare there is.
TEST(SpareCapacity, SheetSideBySideIsOneThreadsAndASharedObserverKeepsOneThread) {
    const fs::path model = test::testdata_dir() / "flag.glb";
    CountingSpare spare(2);
    const ModelRecord shared = validated(model, "flag-shared", &spare);
    ASSERT_TRUE(shared.proxy_validation.has_value());
    ASSERT_EQ(shared.proxy_validation->proxies.size(), 1u);
    EXPECT_EQ(shared.proxy_validation->proxies[0].kind, "sheet");
    EXPECT_EQ(shared.proxy_validation->proxies[0].scenarios.size(), 6u);
    EXPECT_GT(spare.taken.load(), 0);
    EXPECT_TRUE(spare.all_back());

    // The proxy again, with an observer noting the scenarios as it sees them: one thread saw them
    // all, in run order, and measured what the side-by-side runs did.
    const ClothProxy& proxy = *shared.sheets.at(0).built.proxy;
    ValidationOptions options = shorter_runs();
    CountingSpare unused(2);
    options.spare = &unused;
    std::vector<Scenario> order;
    options.observer = [&](Scenario scenario, uint32_t, const Pose&, const ClothState&) {
        if (order.empty() || order.back() != scenario) order.push_back(scenario);
    };
    const ProxyValidation v = validate_proxy(proxy, options);
    EXPECT_EQ(unused.taken.load(), 0);
    EXPECT_EQ(order, (std::vector<Scenario>{Scenario::hang, Scenario::swing, Scenario::sprint, Scenario::teleport_reset,
                                            Scenario::teleport_keep, Scenario::idle}));
    EXPECT_EQ(report_json({{}, {v}}, false)["proxies"][0]["scenarios"],
              report_json(*shared.proxy_validation, false)["proxies"][0]["scenarios"]);
}

/// Every file under `root` by relative path, with its bytes; bake-report.json without its timings.
std::map<std::string, std::string> tree(const fs::path& root) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::stringstream s;
        s << in.rdbuf();
        std::string text = s.str();
        const std::string name = e.path().lexically_relative(root).generic_string();
        if (name == "bake-report.json") {
            nlohmann::json j = nlohmann::json::parse(text);
            j.erase("timings");
            text = j.dump();
        }
        out[name] = std::move(text);
    }
    return out;
}

BakeOptions validating_bake(const fs::path& in, const fs::path& out, int jobs, bool isolate) {
    BakeOptions o;
    o.inputs = {in};
    o.out_dir = out;
    o.jobs = jobs;
    o.isolate = isolate;
    o.model.grow_cloth = true;
    o.model.validate = shorter_runs();
    o.model.options_text = "spare-capacity-test";
    return o;
}

// Two models at -j 1, and at -j 3 (one slot spare from the start, a second once the flag is done,
// both lent to the mannequin's validation), in worker processes and in threads: the same files,
// byte for byte, and the same report but for its timings.
TEST(SpareCapacity, BakeLendsIdleSlotsAndWritesTheSameBytes) {
    const fs::path in = test::scratch_dir("spare-bake-in");
    fs::remove_all(in);
    fs::create_directories(in);
    for (const char* name : {"flag.glb", "mannequin.glb"}) fs::copy_file(test::testdata_dir() / name, in / name);
    const fs::path root = test::scratch_dir("spare-bake-out");
    fs::remove_all(root);
    std::map<std::string, std::string> first;
    for (const auto& [jobs, isolate] : {std::pair{1, true}, std::pair{3, true}, std::pair{3, false}}) {
        const std::string label = "j" + std::to_string(jobs) + (isolate ? "" : "-threads");
        const BakeOptions o = validating_bake(in, root / label, jobs, isolate);
        const BakeResult result = bake(o, {});
        ASSERT_EQ(result.models.size(), 2u) << label;
        for (const BakeModelResult& m : result.models) {
            EXPECT_EQ(m.status, ModelStatus::built) << label << " " << m.input.relative;
            EXPECT_GT(m.seconds.validate, 0) << label << " " << m.input.relative;
        }
        ASSERT_EQ(write_file_atomic(root / label / "bake-report.json", bake_json_text(bake_report_json(result, o))), "");
        const std::map<std::string, std::string> files = tree(root / label);
        EXPECT_TRUE(files.count("mannequin.glb/validation.json")) << label;
        if (first.empty()) {
            first = files;
            continue;
        }
        ASSERT_EQ(files.size(), first.size()) << label;
        for (const auto& [name, bytes] : first) {
            const auto it = files.find(name);
            ASSERT_NE(it, files.end()) << label << " " << name;
            EXPECT_TRUE(it->second == bytes) << label << ": " << name << " differs from -j 1's";
        }
    }
}

}  // namespace
}  // namespace weft
