// The embeddable runtime (lib/runtime/weft_runtime.h): its C example steps a shared model's proxy
// to the same positions `weft validate --positions` prints, and `cmake --install` gives a prefix a
// separate project builds against with find_package(weft).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

/// "index x y z" lines to positions.
std::vector<std::array<double, 3>> positions_of(const std::string& text) {
    std::vector<std::array<double, 3>> out;
    std::istringstream in(text);
    size_t index;
    std::array<double, 3> x;
    while (in >> index >> x[0] >> x[1] >> x[2]) out.push_back(x);
    return out;
}

/// The lines after `weft validate --positions`' "positions ..." header.
std::string validate_positions(const std::string& out) {
    const size_t at = out.find("\npositions ");
    if (at == std::string::npos) return {};
    return out.substr(out.find('\n', at + 1) + 1);
}

/// Largest coordinate difference; +inf when the counts differ.
double largest_difference(const std::vector<std::array<double, 3>>& a, const std::vector<std::array<double, 3>>& b) {
    if (a.size() != b.size() || a.empty()) return INFINITY;
    double worst = 0;
    for (size_t i = 0; i < a.size(); ++i)
        for (int k = 0; k < 3; ++k) worst = std::max(worst, std::fabs(a[i][size_t(k)] - b[i][size_t(k)]));
    return worst;
}

/// A proxy of a shared model (Casual's grown hair), or the mannequin's when the shared models are absent.
fs::path runtime_proxy(const std::string& name) {
    const fs::path out = test::scratch_dir("runtime-" + name);
    fs::path model = test::shared_model("quaternius_men_Casual.glb");
    if (model.empty()) model = test::testdata_dir() / "mannequin.glb";
    const test::CommandResult r = test::run_weft({"rig", model.string(), "-o", out.string(), "--grow-cloth"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return out / "Hair.clothproxy";
}

// In a fabric without pose rows: under one with them (the hair's strand) validate's hang starts kicked
// (docs/validation.md#hang), which the example, holding still, does not do.
TEST(Runtime, TheCExamplePrintsThePositionsWeftValidatePrints) {
    const fs::path proxy = runtime_proxy("example");
    for (const char* steps : {"1", "200"}) {
        const test::CommandResult v = test::run_weft(
            {"validate", proxy.string(), "--scenario", "hang", "--steps", steps, "--positions", "--fabric", "cotton", "--model", "none"});
        ASSERT_LE(v.exit_code, 1) << v.out << v.err;  // 1: a short hang fails NEVER_SLEPT, the positions stand
        const test::CommandResult c = test::run_command({WEFT_RUNTIME_EXAMPLE, proxy.string(), steps, "cotton"});
        ASSERT_EQ(c.exit_code, 0) << c.err;
        const auto a = positions_of(validate_positions(v.out)), b = positions_of(c.out);
        ASSERT_GT(a.size(), 10u);
        // Bit-identical for every free particle; validate's hang turns each holder by the frame's
        // rotation and back (q^-1·q, a rounding off identity), the example holds them at identity:
        // measured 3e-79 m at the held root.
        EXPECT_LT(largest_difference(a, b), 1e-12) << steps << " steps";
    }
}

TEST(Runtime, AnInstalledPrefixBuildsAProjectWithFindPackage) {
    const fs::path scratch = test::scratch_dir("runtime-install");
    const fs::path prefix = scratch / "prefix", build = scratch / "example";
    test::CommandResult r = test::run_command({WEFT_CMAKE_COMMAND, "--install", test::binary_dir().string(), "--prefix", prefix.string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_TRUE(fs::exists(prefix / "bin" / "weft"));
    EXPECT_TRUE(fs::exists(prefix / "include" / "weft" / "weft_runtime.h"));
    EXPECT_TRUE(fs::exists(prefix / "lib" / "cmake" / "weft" / "weftConfig.cmake"));
    r = test::run_command({WEFT_CMAKE_COMMAND, "-S", (test::source_dir() / "examples" / "runtime").string(), "-B", build.string(),
                           "-G", WEFT_CMAKE_GENERATOR, "-DCMAKE_PREFIX_PATH=" + prefix.string(), "-DCMAKE_BUILD_TYPE=Release"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    r = test::run_command({WEFT_CMAKE_COMMAND, "--build", build.string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    // It runs a proxy, and the installed weft::weft is the tool.
    const fs::path proxy = runtime_proxy("installed");
    r = test::run_command({(build / "run_proxy").string(), proxy.string(), "10"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_GT(positions_of(r.out).size(), 10u);
    r = test::run_command({(prefix / "bin" / "weft").string(), "--version"});
    EXPECT_EQ(r.exit_code, 0);
    // The installed weft finds its Assimp module in the installed layout and reads an FBX with it.
    EXPECT_TRUE(fs::exists(prefix / "lib" / "weft" / "weft-assimp.so"));
    r = test::run_command({(prefix / "bin" / "weft").string(), "inspect", (test::testdata_dir() / "mannequin_cm.fbx").string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("fbx, 3 meshes"), std::string::npos) << r.out;
}

TEST(Runtime, CPackMakesADebianPackageOfTheToolAndTheRuntime) {
    const fs::path out = test::scratch_dir("runtime-deb");
    test::CommandResult r = test::run_command(
        {WEFT_CPACK_COMMAND, "-G", "DEB", "--config", (test::binary_dir() / "CPackConfig.cmake").string(), "-B", out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    fs::path deb;
    for (const auto& e : fs::directory_iterator(out))
        if (e.path().extension() == ".deb") deb = e.path();
    ASSERT_FALSE(deb.empty()) << r.out;
    r = test::run_command({"/usr/bin/dpkg-deb", "--contents", deb.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* file : {"./usr/bin/weft", "/weft/weft-assimp.so", "/include/weft/weft_runtime.h", "/cmake/weft/weftConfig.cmake",
                             "libweft_runtime.a"})
        EXPECT_NE(r.out.find(file), std::string::npos) << file << " not in the package:\n" << r.out;
    r = test::run_command({"/usr/bin/dpkg-deb", "--field", deb.string(), "Depends"});
    EXPECT_NE(r.out.find("libassimp5"), std::string::npos) << r.out;  // dpkg-shlibdeps found the Assimp module's libraries
    // The package's weft, unpacked, reads an FBX through the package's module.
    const fs::path root = out / "root";
    r = test::run_command({"/usr/bin/dpkg-deb", "-x", deb.string(), root.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run_command({(root / "usr" / "bin" / "weft").string(), "inspect", (test::testdata_dir() / "mannequin_cm.fbx").string()});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("fbx, 3 meshes"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace weft
