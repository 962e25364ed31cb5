// weft_add_cloth_assets (cmake/WeftClothAssets.cmake) in a user's project: the example
// project examples/cloth_assets configured with Ninja into a scratch folder, built, built again (no
// work), then one model touched: only that model's `weft bake` runs again. weft is called through a
// wrapper that logs each call (the WEFT_EXECUTABLE route of the function), so "ran" is counted, not
// inferred from timestamps. A .gltf with an external .bin (testdata's flag.glb split into the two) is
// baked too and its .bin touched: only the depfile names it, so re-baking that model alone proves the
// depfile is read.
#include <gtest/gtest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "support/file_times.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> lines(const fs::path& file) {
    std::vector<std::string> out;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(line);
    return out;
}

/// Writes `glb` as `gltf` plus an external buffer `bin` beside it: the JSON chunk with buffer 0's
/// "uri" set to the .bin's name, and the BIN chunk as that file (a binary glTF's two chunks).
void split_glb(const fs::path& glb, const fs::path& gltf, const fs::path& bin) {
    std::ifstream in(glb, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto u32 = [&](size_t at) {
        uint32_t v = 0;
        for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(bytes.at(at + k));
        return v;
    };
    ASSERT_GE(bytes.size(), 20u);
    const uint32_t json_length = u32(12);
    json doc = json::parse(bytes.begin() + 20, bytes.begin() + 20 + json_length);
    const size_t bin_at = 20 + json_length;
    const uint32_t bin_length = u32(bin_at);
    ASSERT_LE(bin_at + 8 + bin_length, bytes.size());
    doc["buffers"][0]["uri"] = bin.filename().string();
    std::ofstream(gltf) << doc.dump();
    std::ofstream(bin, std::ios::binary).write(bytes.data() + bin_at + 8, bin_length);
}

test::CommandResult cmake(const std::vector<std::string>& args) {
    std::vector<std::string> argv{"/usr/bin/env", "cmake"};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::run_command(argv);
}

TEST(ClothAssetsCMake, NinjaRebuildsOnlyTheModelThatChanged) {
    const fs::path dir = test::scratch_dir("cloth_assets_cmake");
    const fs::path models = dir / "models";
    fs::create_directories(models);
    for (const char* name : {"flag.glb", "mannequin_shared_skirt.glb"})
        fs::copy_file(test::testdata_dir() / name, models / name);
    fs::create_directories(models / "banner");
    split_glb(test::testdata_dir() / "flag.glb", models / "banner" / "banner_blue.gltf", models / "banner" / "banner_blue.bin");

    // The wrapper logs the model (argument 2: `bake MODEL ...`) and runs the real weft.
    const fs::path log = dir / "weft-calls.log";
    const fs::path wrapper = dir / "weft-logged";
    {
        std::ofstream w(wrapper);
        w << "#!/bin/sh\necho \"$2\" >> '" << log.string() << "'\nexec '" << test::weft_exe().string() << "' \"$@\"\n";
    }
    fs::permissions(wrapper, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);

    const fs::path build = dir / "build";
    std::vector<std::string> configure{"-S", (test::source_dir() / "examples" / "cloth_assets").string(),
                                       "-B", build.string(), "-G", "Ninja",
                                       "-DMODELS_DIR=" + models.string(),
                                       "-DWEFT_EXECUTABLE=" + wrapper.string()};
    configure.push_back("-DEXTRA_GLTF=" + (models / "banner" / "banner_blue.gltf").string());
    const auto c = cmake(configure);
    ASSERT_EQ(c.exit_code, 0) << c.out << c.err;

    // First build: every model baked once, each into cloth/<model>/.
    const auto b1 = cmake({"--build", build.string()});
    ASSERT_EQ(b1.exit_code, 0) << b1.out << b1.err;
    const size_t model_count = 3;
    ASSERT_EQ(lines(log).size(), model_count) << b1.out;
    const fs::path cloth = build / "cloth";
    for (const char* name : {"flag.glb", "mannequin_shared_skirt.glb"}) {
        std::vector<uint8_t> bytes;
        ASSERT_EQ(read_file(cloth / name / "bake-report.json", bytes), "");
        const json report = json::parse(bytes.begin(), bytes.end());
        EXPECT_EQ(report["totals"]["built"], 1) << name;
        EXPECT_TRUE(fs::exists(cloth / name / name / "report.json")) << name;
    }
    bool flag_proxy_loads = false;
    for (const auto& e : fs::directory_iterator(cloth / "flag.glb" / "flag.glb"))
        if (e.path().extension() == ".clothproxy") flag_proxy_loads = load_proxy(e.path()).ok();
    EXPECT_TRUE(flag_proxy_loads);

    // Second build: nothing to do, weft not called.
    const auto b2 = cmake({"--build", build.string()});
    ASSERT_EQ(b2.exit_code, 0) << b2.err;
    EXPECT_NE(b2.out.find("no work to do"), std::string::npos) << b2.out;
    EXPECT_EQ(lines(log).size(), model_count);

    // One model touched: its command alone runs.
    const auto skirt_report_time = fs::last_write_time(cloth / "mannequin_shared_skirt.glb" / "bake-report.json");
    ASSERT_EQ(test::touch_later_than(models / "flag.glb", cloth / "flag.glb" / "bake-report.json"), "");
    const auto b3 = cmake({"--build", build.string()});
    ASSERT_EQ(b3.exit_code, 0) << b3.err;
    auto calls = lines(log);
    ASSERT_EQ(calls.size(), model_count + 1) << b3.out;
    EXPECT_EQ(fs::path(calls.back()).filename(), "flag.glb");
    EXPECT_EQ(fs::last_write_time(cloth / "mannequin_shared_skirt.glb" / "bake-report.json"), skirt_report_time);
    EXPECT_NE(cmake({"--build", build.string()}).out.find("no work to do"), std::string::npos);

    // The .gltf's buffer is no dependency CMake was told about: the depfile brings it in.
    ASSERT_EQ(test::touch_later_than(models / "banner" / "banner_blue.bin", cloth / "banner_blue.gltf" / "bake-report.json"),
              "");
    const auto b4 = cmake({"--build", build.string()});
    ASSERT_EQ(b4.exit_code, 0) << b4.err;
    calls = lines(log);
    ASSERT_EQ(calls.size(), model_count + 2) << b4.out;
    EXPECT_EQ(fs::path(calls.back()).filename(), "banner_blue.gltf");
}

}  // namespace
}  // namespace weft
