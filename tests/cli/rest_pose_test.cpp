// A grown model at rest is its input at rest: every vertex, skinned at the file's default pose, within
// 0.1 mm of where the input has it, as two readers that share nothing with weft see it: an
// independent glTF reader following the specification's skinning (tests/rest/gltf_rest.py, Python +
// numpy) and three.js (tests/js/rest_pose.mjs). Every model of the shared folder and the testdata
// models are baked with growth; a glTF, GLB or VRM input is compared with its grown file, an FBX
// input (read through Assimp) with the scene weft imported from it, written as it is. Blender's view
// is scripts/blender_rest.py (by hand: docs/format.md#the-grown-model has its figures).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "scene/gltf_write.h"
#include "scene/import.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Pair {
    fs::path input;      ///< what the grown file is compared with
    fs::path grown;
};

bool gltf_family(const fs::path& p) {
    const std::string e = p.extension().string();
    return e == ".gltf" || e == ".glb" || e == ".vrm";
}

/// Bakes `models` with growth (no validation, no page) and pairs each grown model with its reference.
std::vector<Pair> grown_pairs(const std::vector<fs::path>& models, const fs::path& scratch) {
    const fs::path out = scratch / "out";
    std::vector<std::string> args{"bake"};
    for (const fs::path& m : models) args.push_back(m.string());
    args.insert(args.end(), {"-o", out.string(), "--grow-cloth", "--no-page", "-j", "2", "-q"});
    const test::CommandResult r = test::run_weft(args);
    EXPECT_LE(r.exit_code, 1) << r.err;  // 1: a shared model refused on purpose (the couch)
    std::vector<Pair> pairs;
    for (const fs::path& m : models) {
        const fs::path folder = out / m.filename();
        for (const char* ext : {".glb", ".vrm"}) {
            const fs::path grown = folder / (m.stem().string() + ext);
            if (!fs::exists(grown) || fs::equivalent(grown, m)) continue;
            if (gltf_family(m)) {
                pairs.push_back({m, grown});
                continue;
            }
            // Read through Assimp: the reference is the scene weft imported, written as it is.
            const ImportResult imported = import_scene(m);
            EXPECT_TRUE(imported.ok()) << m;
            const fs::path reference = scratch / (m.filename().string() + ".imported.glb");
            EXPECT_EQ(write_glb(imported.scene, reference), "") << m;
            pairs.push_back({reference, grown});
        }
    }
    return pairs;
}

/// One JSON line per pair from a reader.
std::vector<json> read_lines(const test::CommandResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<json> out;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty()) out.push_back(json::parse(line, nullptr, false));
    return out;
}

void expect_at_rest(const std::vector<Pair>& pairs, const std::vector<json>& results, const char* reader) {
    ASSERT_EQ(results.size(), pairs.size()) << reader;
    for (size_t i = 0; i < pairs.size(); ++i) {
        const json& r = results[i];
        ASSERT_TRUE(r.is_object()) << reader << ": " << pairs[i].grown;
        ASSERT_FALSE(r.contains("error")) << reader << ": " << pairs[i].grown << ": " << r["error"];
        EXPECT_GT(r["vertices"].get<size_t>(), 0u) << reader << ": " << pairs[i].grown;
        EXPECT_LT(r["largest"].get<double>(), 1e-4) << reader << ": " << pairs[i].grown << " moves a vertex at rest: " << r.dump();
        EXPECT_EQ(r["over_0.1mm"].get<size_t>(), 0u) << reader << ": " << pairs[i].grown;
        std::printf("%s: %s: %zu vertices, largest %.3g m\n", reader, pairs[i].grown.filename().c_str(), r["vertices"].get<size_t>(),
                    r["largest"].get<double>());
    }
}

TEST(RestPose, EveryGrownModelSkinnedAtItsDefaultPoseIsItsInputWithinATenthOfAMillimetre) {
    std::vector<fs::path> models;
    for (const char* name : {"mannequin.glb", "mannequin_shared_skirt.glb", "mannequin_chains.glb", "mannequin_cm.fbx"})
        models.push_back(test::testdata_dir() / name);
    const fs::path shared = test::shared_models_dir();
    if (fs::is_directory(shared))
        for (const auto& e : fs::recursive_directory_iterator(shared)) {
            const std::string ext = e.path().extension().string();
            if (e.is_regular_file() && (gltf_family(e.path()) || ext == ".fbx")) models.push_back(e.path());
        }
    std::sort(models.begin(), models.end());
    const fs::path scratch = test::scratch_dir("rest-pose");
    const std::vector<Pair> pairs = grown_pairs(models, scratch);
    // The models that grow or carry a rig: the mannequins, and with the shared folder the Witch (her
    // default pose 71 degrees off her bind pose at an arm), Casual, the Fox, Godette, Hair_Long.
    EXPECT_GE(pairs.size(), fs::is_directory(shared) ? 9u : 4u);

    std::vector<std::string> python{"/usr/bin/python3", (test::source_dir() / "tests" / "rest" / "gltf_rest.py").string()};
    std::vector<std::string> three{"/usr/bin/env", "node", (test::source_dir() / "tests" / "js" / "rest_pose.mjs").string()};
    for (const Pair& p : pairs)
        for (auto* argv : {&python, &three}) {
            argv->push_back(p.input.string());
            argv->push_back(p.grown.string());
        }
    const test::CommandResult numpy_check = test::run_command({"/usr/bin/python3", "-c", "import numpy"});
    ASSERT_EQ(numpy_check.exit_code, 0) << "python3-numpy is not installed: run scripts/deps.sh";
    expect_at_rest(pairs, read_lines(test::run_command(python)), "gltf_rest.py");
    ASSERT_TRUE(fs::exists(test::source_dir() / "tests" / "js" / "node_modules" / "three"))
        << "three is not installed: run scripts/test.sh, which runs npm ci in tests/js";
    expect_at_rest(pairs, read_lines(test::run_command(three)), "three.js");
}

}  // namespace
}  // namespace weft
