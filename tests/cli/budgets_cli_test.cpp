// Budgets at the command line (docs/bad-inputs.md#budgets): every command that reads models has a
// memory and a time limit, a value past a limit's range is a usage error (exit 2), a breach is named
// (never "terminate called ... bad_alloc"), and a model too large for a budget is refused by name.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "batch/model_limits.h"
#include "proxy/file/proxy_file.h"
#include "solver/test_proxies.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

std::string budgets_line(const std::vector<std::string>& args) {
    std::string line = "weft";
    for (const std::string& a : args) line += " " + a;
    return line;
}

void expect_no_raw_terminate(const test::CommandResult& r, const std::string& line) {
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << line << "\n" << r.err;
    EXPECT_EQ(r.err.find("std::bad_alloc"), std::string::npos) << line << "\n" << r.err;
}

TEST(BudgetsCli, LimitsPastTheirRangeAreUsageErrorsNeverWrapped) {
    const fs::path dir = test::scratch_dir("BudgetsCli.Usage");
    const std::string flag = (test::testdata_dir() / "flag.glb").string();
    const fs::path rope = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(test::chain_proxy(8, 0.1, 0.05), rope), "");
    // 2^44 + 1 MiB shifted to bytes wrapped to 1 MiB... and 2^44 MiB to 0, no limit.
    const std::string wraps = "17592186044416", past = "134217729";  // 2^44, and one past 2^27 (128 TiB)
    const std::vector<std::vector<std::string>> bad = {
        {"bake", flag, "-o", (dir / "out").string(), "--max-memory", wraps},
        {"bake", flag, "-o", (dir / "out").string(), "--max-memory", past},
        {"bake", flag, "-o", (dir / "out").string(), "--time-limit", "1e300"},
        {"inspect", flag, "--max-memory", wraps},
        {"inspect", flag, "--time-limit", "-1"},
        {"sheet", flag, "-o", (dir / "sheet").string(), "--max-memory", past},
        {"rig", flag, "-o", (dir / "rig").string(), "--time-limit", "nan"},
        {"validate", rope.string(), "--max-memory", wraps},
        {"validate", rope.string(), "--time-limit", "1e30"},
        {"validate", rope.string(), "--steps", "1000001"},
        {"view", rope.string(), "--max-memory", wraps},
        {"view", flag, "-o", (dir / "view").string(), "--time-limit", "-5"},
        {"sheet", flag, "-o", (dir / "sheet").string(), "--resolution", "particles:100000000"},
    };
    for (const auto& args : bad) {
        const test::CommandResult r = test::run_weft(args);
        EXPECT_EQ(r.exit_code, 2) << budgets_line(args) << "\n" << r.out << r.err;
    }
    EXPECT_FALSE(fs::exists(dir / "out")) << "a usage error bakes nothing";
    const test::CommandResult particles =
        test::run_weft({"sheet", flag, "-o", (dir / "sheet").string(), "--resolution", "particles:100000000"});
    EXPECT_NE(particles.err.find("weft sheet: --resolution: particles:100000000: at most particles:65536"), std::string::npos)
        << particles.err;
    // An edge length that would make as many is no usage error but the garment's refusal, by name,
    // before the resampler runs (it ran past 30 s and 6-7 GB).
    const test::CommandResult edge = test::run_weft({"sheet", flag, "-o", (dir / "edge").string(), "--resolution", "edge:0.0001"});
    EXPECT_EQ(edge.exit_code, 1) << edge.err;
    EXPECT_NE(edge.err.find("garment 'Flag': its resolution edge:0.0001 asks for about 1.11e+08 particles, over the budget of 65536; "
                            "choose a coarser resolution [PARTICLES_OVER_BUDGET]"),
              std::string::npos)
        << edge.err;
    // At the ceiling the value is taken.
    const test::CommandResult ceiling = test::run_weft({"inspect", flag, "--max-memory", "134217728", "--time-limit", "31536000"});
    EXPECT_EQ(ceiling.exit_code, 0) << ceiling.err;
}

/// A .gltf of one triangle instanced by `nodes` nodes: 50,000 of them took `weft inspect` past 3 GB
/// and out with "internal error: std::bad_alloc".
void write_instances(const fs::path& file, size_t nodes) {
    std::string text = R"({"asset":{"version":"2.0"},"scene":0,"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],)"
                       R"("bufferViews":[{"buffer":0,"byteLength":36}],)"
                       R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],)"
                       R"("meshes":[{"name":"Tile","primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[)";
    std::string roots;
    for (size_t n = 0; n < nodes; ++n) {
        text += std::string(n ? "," : "") + R"({"mesh":0,"translation":[)" + std::to_string(n % 100) + "," + std::to_string(n / 100) + ",0]}";
        roots += (n ? "," : "") + std::to_string(n);
    }
    text += R"(],"scenes":[{"nodes":[)" + roots + "]}]}";
    std::ofstream(file, std::ios::binary) << text;
}

TEST(BudgetsCli, InspectRefusesFiftyThousandInstancesByNameAndGoesOn) {
    const fs::path dir = test::scratch_dir("BudgetsCli.Instances");
    write_instances(dir / "instances.gltf", 50'000);
    const std::string flag = (test::testdata_dir() / "flag.glb").string();
    const std::vector<std::string> args = {"inspect", (dir / "instances.gltf").string(), flag};
    const test::CommandResult r = test::run_weft(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("weft inspect: refused: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("instances.gltf: its nodes instance meshes 50000 times"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[INSTANCES_OVER_BUDGET]"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("flag.glb"), std::string::npos) << "the next model is inspected\n" << r.out;
    expect_no_raw_terminate(r, budgets_line(args));
}

TEST(BudgetsCli, InspectPastItsMemoryIsOutOfMemoryByName) {
    if (built_with_sanitizers()) GTEST_SKIP() << "the sanitizers' shadow memory needs the address space a cap would take";
    const std::vector<std::string> args = {"inspect", (test::testdata_dir() / "mannequin.glb").string(), "--max-memory", "8"};
    const test::CommandResult r = test::run_weft(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("mannequin.glb: ran out of memory in stage "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("raise --max-memory or simplify the model [OUT_OF_MEMORY]"), std::string::npos) << r.err;
    expect_no_raw_terminate(r, budgets_line(args));
}

// `particles:65536` is the particle budget itself: it was resampled to 96,685 particles (the
// resampler's edges run from 0.8 to 1.33 L) and then refused. The target is a ceiling (docs/proxy.md#resampling):
// the sheet is built within it. Tens of seconds unoptimised: Release only.
TEST(BudgetsCli, ParticlesAtTheBudgetAreBuiltWithinIt) {
    if (built_with_sanitizers()) GTEST_SKIP() << "two resamples of 65k particles: minutes under the sanitizers";
    const fs::path dir = test::scratch_dir("BudgetsCli.ParticlesCeiling");
    const std::vector<std::string> args = {"sheet", (test::testdata_dir() / "sheets" / "dense.glb").string(), "-o",
                                           (dir / "sheet").string(), "--resolution", "particles:65536"};
    const test::CommandResult r = test::run_weft(args);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.err.find("PARTICLES_OVER_BUDGET"), std::string::npos) << r.err;
    const std::string built = "Banner (banner): built Banner.clothproxy: ";
    const size_t at = r.out.find(built);
    ASSERT_NE(at, std::string::npos) << r.out;
    const unsigned long particles = std::stoul(r.out.substr(at + built.size()));
    EXPECT_LE(particles, 65536u) << r.out;
    EXPECT_GT(particles, 45000u) << r.out;  // not far below it (48,647: bisected 5 times)
}

// The address-space cap is --max-memory, what a model needs: it must not refuse on a machine with
// many cores. Each thread reserved a malloc arena (64 MiB, up to 8 per core) and an 8 MiB stack before
// it allocated a byte, so 128 threads (the helpers a solver may start on a 128-core machine) took a
// process capped at 1.5 GiB past its cap (thread creation failed, or their first allocation did).
// After limit_address_space they start and allocate within it.
TEST(BudgetsCli, TheMemoryCapDoesNotShrinkWithTheCores) {
    if (built_with_sanitizers()) GTEST_SKIP() << "the sanitizers' shadow memory needs the address space a cap would take";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        if (!limit_address_space(1536)) ::_exit(4);
        constexpr int kThreads = 128;
        std::atomic<int> allocated{0}, started{0};
        std::vector<std::thread> threads;
        try {
            for (int t = 0; t < kThreads; ++t)
                threads.emplace_back([&] {
                    ++started;
                    try {
                        std::vector<char> block(size_t(256) << 10, 1);  // a solver's per-thread scratch
                        ++allocated;
                        while (started.load() < kThreads) std::this_thread::yield();  // all alive at once
                    } catch (const std::bad_alloc&) {
                    }
                });
        } catch (const std::system_error&) {
            started = kThreads;  // release the others
            for (std::thread& t : threads) t.join();
            ::_exit(2);
        }
        for (std::thread& t : threads) t.join();
        ::_exit(allocated.load() == kThreads ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child ended on a signal";
    // 2: a thread could not be started; 3: a thread's first allocation failed; 4: no cap set.
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(BudgetsCli, ValidateStopsAtItsTimeLimitNamingTheProxyAndTheStage) {
    const fs::path dir = test::scratch_dir("BudgetsCli.TimeLimit");
    const fs::path rope = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(test::chain_proxy(8, 0.1, 0.05), rope), "");
    // A million steps of every scenario cannot end within a millisecond: the watchdog must stop it.
    const std::vector<std::string> args = {"validate", rope.string(), "--steps", "1000000", "--time-limit", "0.001"};
    const test::CommandResult r = test::run_weft(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("weft validate: " + rope.string() + ": ran past the time limit of 0.001 s (--time-limit)"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("[TIMED_OUT]"), std::string::npos) << r.err;
    expect_no_raw_terminate(r, budgets_line(args));
}

// A proxy's recorded source_file is the proxy's own claim: opened only as a model's buffers are
// (inside the working folder or beside the proxy; elsewhere only a model file, by its extension), so
// /etc/passwd is named and left unopened.
TEST(BudgetsCli, ValidateNeverOpensASourceFileOutsideTheFolders) {
    const fs::path dir = test::scratch_dir("BudgetsCli.SourceFile");
    ClothProxy p = test::chain_proxy(8, 0.1, 0.05);
    p.source_file = "/etc/passwd";
    const fs::path rope = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(p, rope), "");
    const std::vector<std::string> args = {"validate", rope.string(), "--clips", "all", "--scenario", "hang"};
    const test::CommandResult r = test::run_weft(args);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("its model '/etc/passwd' resolves outside the working folder and the proxy's folder: not opened"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("[FILE_OUTSIDE_FOLDER]: validated alone"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("CLIP_MODEL_UNREADABLE"), std::string::npos) << r.err;
    // --allow-outside-folder lets it be opened: then it is read as a model, and refused as one.
    const test::CommandResult allowed = test::run_weft({"validate", rope.string(), "--scenario", "hang", "--allow-outside-folder"});
    EXPECT_EQ(allowed.err.find("FILE_OUTSIDE_FOLDER"), std::string::npos) << allowed.err;
    EXPECT_NE(allowed.err.find("its model '/etc/passwd' UNKNOWN_FORMAT"), std::string::npos) << allowed.err;
}

}  // namespace
}  // namespace weft
