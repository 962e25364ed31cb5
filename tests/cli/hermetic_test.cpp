// Hermetic outputs (docs/commands.md#hermetic-outputs): `weft bake` of the same models writes the same
// bytes from any folder, any working directory and any -j, and reads nothing its depfile does not name.
// The models are a glTF with its buffer and texture beside it (the banner, a sheet) and a .glb with
// a rig proxy and clips (the Knight), baked with --grow-cloth --validate.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "proxy/file/proxy_file.h"
#include "support/output_tree.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

/// A bake's output folder (test::output_tree) less index.html, which shows the run's times and is no
/// model's output: the models' folders, what a build farm caches, hold none.
std::map<std::string, std::string> model_outputs(const fs::path& dir) {
    std::map<std::string, std::string> out = test::output_tree(dir);
    out.erase("index.html");
    return out;
}

/// `models` (a folder) copied with only the shared models this test bakes.
void copy_two_models(const fs::path& models) {
    const fs::path shared = test::shared_models_dir();
    fs::create_directories(models);
    fs::copy(shared / "kaykit_banner_blue", models / "kaykit_banner_blue", fs::copy_options::recursive);
    fs::copy_file(shared / "kaykit_Knight.glb", models / "kaykit_Knight.glb");
}

/// Runs weft in `cwd` (env -C: run_command has no working directory of its own).
test::CommandResult weft_in_folder(const fs::path& cwd, std::vector<std::string> args) {
    std::vector<std::string> argv{"/usr/bin/env", "-C", cwd.string(), test::weft_exe().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return test::run_command(argv);
}

/// A bake by relative paths from beside the models, at -j 2, with a depfile, a file no model reads
/// beside them (had the bake read it, a bake without it would differ): the bake both tests compare
/// with, made once in a process by whichever test runs first (each test made its own; three validated
/// bakes of the two models instead of four).
struct RelativeBake {
    fs::path folder;  ///< holds models/, out/ and bake.d
    test::CommandResult result;
};
const RelativeBake& relative_bake() {
    static const RelativeBake bake = [] {
        const fs::path b = test::scratch_dir("hermetic_b") / "deeper" / "still deeper";
        copy_two_models(b / "models");
        std::ofstream(b / "models" / "kaykit_banner_blue" / "notes.txt") << "not a model\n";
        return RelativeBake{
            b, weft_in_folder(b, {"bake", "models", "-o", "out", "--grow-cloth", "--validate", "-j", "2", "-q", "--depfile", "bake.d"})};
    }();
    return bake;
}

/// The prerequisites of a Make depfile (`target: a b \` continued lines, spaces escaped as `\ `).
std::vector<fs::path> depfile_inputs(const fs::path& depfile) {
    std::ifstream in(depfile);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    std::vector<fs::path> out;
    std::string word;
    bool target_done = false;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\\' && i + 1 < s.size() && (s[i + 1] == ' ' || s[i + 1] == '\\' || s[i + 1] == '#')) {
            word += s[++i];
            continue;
        }
        if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {
            ++i;
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\t') {
            if (!word.empty() && target_done) out.emplace_back(word);
            word.clear();
            continue;
        }
        if (c == ':' && !target_done && (i + 1 == s.size() || s[i + 1] == ' ' || s[i + 1] == '\n')) {
            target_done = true;
            word.clear();
            continue;
        }
        word += c;
    }
    if (!word.empty() && target_done) out.emplace_back(word);
    return out;
}

/// Whether any file under `dir` holds `text`.
std::string file_holding_text(const fs::path& dir, const std::string& text) {
    for (const auto& [name, bytes] : model_outputs(dir))
        if (bytes.find(text) != std::string::npos) return name;
    return "";
}

TEST(Hermetic, OneModelFromTwoFoldersAnyDirectoryAnyJobsGivesTheSameBytes) {
    if (test::shared_models_dir().empty() || !fs::exists(test::shared_models_dir() / "kaykit_Knight.glb"))
        GTEST_SKIP() << "shared models not present";
    const fs::path a = test::scratch_dir("hermetic_a");
    copy_two_models(a / "models");
    // a: absolute paths, run from elsewhere, one job; b: relative paths, run from beside them, two.
    const auto ra = weft_in_folder(fs::temp_directory_path(), {"bake", (a / "models").string(), "-o", (a / "out").string(),
                                                       "--grow-cloth", "--validate", "-j", "1", "-q"});
    const fs::path b = relative_bake().folder;
    const auto& rb = relative_bake().result;
    ASSERT_EQ(ra.exit_code, 0) << ra.err;
    ASSERT_EQ(rb.exit_code, 0) << rb.err;

    const auto tree_a = model_outputs(a / "out");
    ASSERT_GE(tree_a.size(), 11u);
    ASSERT_TRUE(tree_a.count("kaykit_Knight.glb/Knight_Cape.clothproxy"));
    ASSERT_TRUE(tree_a.count("kaykit_banner_blue/banner_blue.gltf/banner_blue.clothproxy"));
    const auto tree_b = model_outputs(b / "out");
    for (const auto& [name, bytes] : tree_a) {
        ASSERT_TRUE(tree_b.count(name)) << name;
        EXPECT_TRUE(tree_b.at(name) == bytes) << name << " differs between the two folders";
    }
    EXPECT_EQ(tree_a.size(), tree_b.size());
    // Neither folder is named anywhere, nor the shared models' (the files' bytes are equal, so one look does).
    EXPECT_EQ(file_holding_text(a / "out", a.string()), "");
    EXPECT_EQ(file_holding_text(a / "out", test::shared_models_dir().string()), "");
    EXPECT_EQ(file_holding_text(a / "out", fs::current_path().string() + "/"), "");

    // The proxy names its model from its own folder, and `weft validate` finds it from anywhere.
    const DecodeResult cape = load_proxy(b / "out" / "kaykit_Knight.glb" / "Knight_Cape.clothproxy");
    ASSERT_TRUE(cape.ok()) << cape.error;
    EXPECT_EQ(cape.proxy->source_file, "../../models/kaykit_Knight.glb");
    const auto v = weft_in_folder(fs::temp_directory_path(), {"validate", (b / "out" / "kaykit_Knight.glb" / "Knight_Cape.clothproxy").string(),
                                                      "--clips", "Idle", "--json"});
    EXPECT_EQ(v.exit_code, 0) << v.err;
    EXPECT_EQ(v.err.find("CLIP_MODEL_UNREADABLE"), std::string::npos) << v.err;
    EXPECT_NE(v.out.find("clip:Idle"), std::string::npos) << "the clip was not played: the model was not found";
}

TEST(Hermetic, TheDepfilesInputsAloneBakeTheSameBytesElsewhere) {
    if (test::shared_models_dir().empty() || !fs::exists(test::shared_models_dir() / "kaykit_Knight.glb"))
        GTEST_SKIP() << "shared models not present";
    // A file the bake must not read is beside the models: if it did, the copy below (without it) would differ.
    const fs::path a = relative_bake().folder;
    ASSERT_TRUE(fs::exists(a / "models" / "kaykit_banner_blue" / "notes.txt"));
    const auto& ra = relative_bake().result;
    ASSERT_EQ(ra.exit_code, 0) << ra.err;

    const std::vector<fs::path> inputs = depfile_inputs(a / "bake.d");
    ASSERT_EQ(inputs.size(), 4u);  // the Knight; the banner's .gltf, its buffer and its texture
    const fs::path c = test::scratch_dir("hermetic_depfile_c") / "elsewhere";
    for (const fs::path& input : inputs) {
        ASSERT_TRUE(input.is_relative()) << input << ": the depfile names inputs as they were given";
        ASSERT_EQ(input.begin()->string(), "models") << input;
        fs::create_directories((c / input).parent_path());
        fs::copy_file(a / input, c / input);
    }
    EXPECT_FALSE(fs::exists(c / "models" / "kaykit_banner_blue" / "notes.txt"));
    const auto rc = weft_in_folder(c, {"bake", "models", "-o", "out", "--grow-cloth", "--validate", "-j", "1", "-q"});
    ASSERT_EQ(rc.exit_code, 0) << rc.err;
    const auto tree_a = model_outputs(a / "out"), tree_c = model_outputs(c / "out");
    ASSERT_GE(tree_a.size(), 11u);
    for (const auto& [name, bytes] : tree_a) {
        ASSERT_TRUE(tree_c.count(name)) << name;
        EXPECT_TRUE(tree_c.at(name) == bytes) << name << " differs when baked from the depfile's inputs alone";
    }
    EXPECT_EQ(tree_a.size(), tree_c.size());
}

}  // namespace
}  // namespace weft
