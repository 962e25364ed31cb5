// `weft bake` end to end: testdata/ (good fixtures beside the bad corpus) and the shared
// models at -j 1 and -j 2 give byte-identical outputs; a second run skips everything and changes no
// byte; bad files are refused with their codes while good ones are baked; exit statuses; the
// report against its schema; the depfile lists referenced files.
#include <gtest/gtest.h>

#include <map>
#include <regex>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "io/content_hash.h"
#include "support/json_files.h"
#include "support/output_tree.h"
#include "support/paths.h"
#include "testdata_copy.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The test data but its dense sheet (test::testdata_without_dense_sheet says why), baked three times.
TEST(BakeCli, TestdataRefusesBadFilesBakesGoodOnesDeterministicAndIncremental) {
    const std::string in = test::testdata_without_dense_sheet("bake_testdata_in").string();
    const fs::path a = test::scratch_dir("bake_testdata_j1");
    const fs::path b = test::scratch_dir("bake_testdata_j2");
    const fs::path dep = a.parent_path() / "bake_testdata_j1.d";
    const auto r1 = test::run_weft({"bake", in, "-o", (a / "out").string(), "-j", "1", "--depfile", dep.string()});
    const auto r2 = test::run_weft({"bake", in, "-o", (b / "out").string(), "-j", "2"});
    EXPECT_EQ(r1.exit_code, 1) << r1.err;
    EXPECT_EQ(r2.exit_code, 1) << r2.err;

    const auto tree_a = test::output_tree(a / "out");
    EXPECT_EQ(tree_a, test::output_tree(b / "out"));

    const json report = test::read_json_file(a / "out" / "bake-report.json");
    EXPECT_EQ(test::schema_errors(report.dump(), "bake-report.schema.json"), "");
    EXPECT_EQ(report["exit_code"], 1);

    // The good flag is baked into a sheet proxy beside the refused files.
    const json* flag = test::bake_report_model(report, "flag.glb");
    ASSERT_NE(flag, nullptr);
    EXPECT_EQ((*flag)["status"], "built");
    bool has_proxy = false;
    for (const json& f : (*flag)["outputs"]) has_proxy = has_proxy || f.get<std::string>().ends_with(".clothproxy");
    EXPECT_TRUE(has_proxy) << flag->dump();
    EXPECT_TRUE(fs::exists(a / "out" / "flag.glb" / "report.json"));
    // The model's line agrees with its garment's: the flag moves as the sheet just built.
    const json flag_report = test::read_json_file(a / "out" / "flag.glb" / "report.json");
    ASSERT_EQ(flag_report["garments"].size(), 1u) << flag_report["garments"].dump();
    EXPECT_EQ(flag_report["garments"][0]["moves"], true);
    EXPECT_EQ(flag_report["verdict"], "1 garment found by name: 1 moves, 0 will not move");

    // Each bad file is refused with an error code of its own kind.
    const std::map<std::string, std::string> expected_refusals = {
        {"bad/truncated.glb", "GLB_TRUNCATED"},
        {"bad/missing_external_buffer.gltf", "BUFFER_MISSING"},
        {"bad/node_cycle.gltf", "GLTF_REFERENCE_INVALID"},
        {"bad/zero_area_triangle.glb", "ZERO_AREA_TRIANGLE"},
        {"bad/non_manifold_sheet.glb", "NON_MANIFOLD_EDGE"},
        {"bad/wrong_version.glb", "GLB_MALFORMED"},
    };
    int refused = 0;
    for (const json& m : report["models"]) {
        if (m["status"] != "refused") continue;
        ++refused;
        bool has_error = false;
        for (const json& i : m["issues"]) has_error = has_error || (i["severity"] == "error" && !i["code"].get<std::string>().empty());
        EXPECT_TRUE(has_error) << m.dump();
    }
    for (const auto& [input, code] : expected_refusals) {
        const json* m = test::bake_report_model(report, input);
        ASSERT_NE(m, nullptr) << input;
        EXPECT_EQ((*m)["status"], "refused") << m->dump();
        bool found = false;
        for (const json& i : (*m)["issues"]) found = found || (i["code"] == code && i["severity"] == "error");
        EXPECT_TRUE(found) << input << " lacks " << code << ": " << m->dump();
    }
    // A sheet's refusal names the garment it refuses (its material `Cape`), not the model alone: the
    // model's other garments are judged on their own (docs/proxy.md#authoring-checks).
    const json* fin = test::bake_report_model(report, "bad/non_manifold_sheet.glb");
    ASSERT_NE(fin, nullptr);
    int named = 0, errors = 0;
    for (const json& i : (*fin)["issues"]) {
        if (i["severity"] != "error") continue;
        ++errors;
        named += i["message"].get<std::string>().starts_with("bad/non_manifold_sheet.glb: garment 'Cape': ");
    }
    EXPECT_GT(errors, 0);
    EXPECT_EQ(named, errors) << fin->dump();
    EXPECT_GE(refused, 15);
    EXPECT_EQ(report["totals"]["refused"], refused);
    EXPECT_EQ(report["totals"]["failed"], 0);
    int counted = 0;
    for (const auto& [code, n] : report["counts"].items()) counted += n.get<int>();
    int listed = 0;
    for (const json& m : report["models"]) listed += static_cast<int>(m["issues"].size());
    EXPECT_EQ(counted, listed);

    // The depfile names the external buffer a .gltf reads.
    std::vector<uint8_t> dep_bytes;
    ASSERT_EQ(read_file(dep, dep_bytes), "");
    const std::string dep_text(dep_bytes.begin(), dep_bytes.end());
    EXPECT_NE(dep_text.find("bake-report.json:"), std::string::npos);
    EXPECT_NE(dep_text.find("external_buffer_too_short.bin"), std::string::npos);

    // Second run: everything skipped, no output byte changed, the same findings.
    const auto again = test::run_weft({"bake", in, "-o", (a / "out").string(), "-j", "2"});
    EXPECT_EQ(again.exit_code, 1);
    const json second = test::read_json_file(a / "out" / "bake-report.json");
    // A .gltf whose buffer or image is missing is never stamped: the file may appear, so it is tried again.
    for (const json& m : second["models"])
        EXPECT_TRUE(m["unchanged"] == true || m["input"] == "bad/missing_external_buffer.gltf" ||
                    m["input"] == "hostile/image_missing.gltf")
            << m.dump();
    EXPECT_EQ(second["counts"], report["counts"]);
    // Counted by the outcome each had: the same totals as the first run, and the same exit status.
    for (const char* outcome : {"built", "refused", "failed"}) EXPECT_EQ(second["totals"][outcome], report["totals"][outcome]) << outcome;
    EXPECT_GE(second["totals"]["unchanged"]["refused"].get<int>(), 13);
    EXPECT_NE(again.err.find("weft bake: " + second["summary"].get<std::string>() + " -> "), std::string::npos) << again.err;
    auto tree_again = test::output_tree(a / "out");
    // The report and the index over it say this run found every model unchanged, and its times.
    for (const char* run_file : {"bake-report.json", "index.html"}) tree_again.erase(run_file);
    auto tree_first = tree_a;
    for (const char* run_file : {"bake-report.json", "index.html"}) tree_first.erase(run_file);
    EXPECT_EQ(tree_again, tree_first);

    // --force rebuilds every model.
    const auto forced = test::run_weft({"bake", in, "-o", (a / "out").string(), "--force", "-q"});
    EXPECT_EQ(forced.exit_code, 1);
    const json forced_report = test::read_json_file(a / "out" / "bake-report.json");
    EXPECT_EQ(forced_report["totals"]["unchanged"], json({{"built", 0}, {"refused", 0}}));
}

TEST(BakeCli, SharedModelsJ1AndJ2AreByteIdenticalAndSecondRunSkips) {
    WEFT_REQUIRE_SHARED_MODEL(flag, "quaternius_Goal_Flag.glb");
    const fs::path models = test::shared_models_dir();
    const fs::path a = test::scratch_dir("bake_shared_j1");
    const fs::path b = test::scratch_dir("bake_shared_j2");
    const auto r1 = test::run_weft({"bake", models.string(), "-o", (a / "out").string(), "-j", "1", "-q"});
    const auto r2 = test::run_weft({"bake", models.string(), "-o", (b / "out").string(), "-j", "2", "-q"});
    ASSERT_NE(r1.exit_code, 2) << r1.err;
    EXPECT_EQ(r1.exit_code, r2.exit_code);
    const auto tree_a = test::output_tree(a / "out");
    EXPECT_EQ(tree_a, test::output_tree(b / "out"));
    const json report = test::read_json_file(a / "out" / "bake-report.json");
    EXPECT_EQ(test::schema_errors(report.dump(), "bake-report.schema.json"), "");
    const json* goal = test::bake_report_model(report, "quaternius_Goal_Flag.glb");
    ASSERT_NE(goal, nullptr);
    EXPECT_EQ((*goal)["status"], "built") << goal->dump();
    EXPECT_GE(report["totals"]["models"].get<int>(), 10);

    const auto again = test::run_weft({"bake", models.string(), "-o", (b / "out").string(), "-j", "2", "-q"});
    EXPECT_EQ(again.exit_code, r2.exit_code);
    const json second = test::read_json_file(b / "out" / "bake-report.json");
    EXPECT_EQ(second["totals"]["unchanged"]["built"].get<int>() + second["totals"]["unchanged"]["refused"].get<int>(),
              second["totals"]["models"].get<int>());
    auto tree_again = test::output_tree(b / "out");
    // The report and the index over it say this run found every model unchanged, and its times.
    for (const char* run_file : {"bake-report.json", "index.html"}) tree_again.erase(run_file);
    auto tree_first = tree_a;
    for (const char* run_file : {"bake-report.json", "index.html"}) tree_first.erase(run_file);
    EXPECT_EQ(tree_again, tree_first);
}

/// "xxh64:..." of a file's bytes.
std::string file_hash(const fs::path& path) {
    std::vector<uint8_t> bytes;
    EXPECT_EQ(read_file(path, bytes), "") << path;
    return content_hash_text(xxh64(bytes));
}

TEST(BakeCli, StampHashesTheFilesAGltfReferencesAndAnEditToOneRebuilds) {
    WEFT_REQUIRE_SHARED_MODEL(gltf, "kaykit_banner_blue/banner_blue.gltf");
    const fs::path dir = test::scratch_dir("bake_references");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    for (const char* f : {"banner_blue.gltf", "banner_blue.bin", "dungeon_texture.png"})
        fs::copy_file(gltf.parent_path() / f, in / f, fs::copy_options::overwrite_existing);
    const fs::path out = dir / "out";
    auto bake = [&] {
        const auto run = test::run_weft({"bake", in.string(), "-o", out.string(), "-q"});
        EXPECT_EQ(run.exit_code, 0) << run.err;
        return test::read_json_file(out / "bake-report.json")["models"][0];
    };
    // The input hash is the hash of one "<name> <hash>" line per file: the model, then the files
    // it references in sorted order (the config file would come last).
    auto expected_hash = [&] {
        const std::string lines = "banner_blue.gltf " + file_hash(in / "banner_blue.gltf") + "\n" + "banner_blue.bin " +
                                  file_hash(in / "banner_blue.bin") + "\n" + "dungeon_texture.png " +
                                  file_hash(in / "dungeon_texture.png") + "\n";
        return content_hash_text(xxh64({reinterpret_cast<const uint8_t*>(lines.data()), lines.size()}));
    };
    const json first = bake();
    EXPECT_EQ(first["status"], "built");
    EXPECT_EQ(first["input_hash"], expected_hash());
    const json stamp = test::read_json_file(out / "banner_blue.gltf" / "bake-stamp.json");
    EXPECT_EQ(stamp["external_files"], json::array({"banner_blue.bin", "dungeon_texture.png"}));
    EXPECT_EQ(bake()["unchanged"], true);

    // Outputs another build of weft made (other sources, or a stamp from before the stamp named
    // them) are rebuilt, not trusted: the same version can write another proxy format.
    const std::string id = stamp.at("weft_source").get<std::string>();
    EXPECT_EQ(id.size(), 16u);
    EXPECT_NE(test::run_weft({"--version"}).out.find("(sources " + id + ")"), std::string::npos);
    for (const char* other : {"0123456789abcdef", ""}) {
        json older = stamp;
        if (*other) older["weft_source"] = other; else older.erase("weft_source");
        ASSERT_EQ(write_file_atomic(out / "banner_blue.gltf" / "bake-stamp.json", older.dump()), "");
        EXPECT_EQ(bake()["status"], "built") << "weft_source \"" << other << "\"";
        EXPECT_EQ(test::read_json_file(out / "banner_blue.gltf" / "bake-stamp.json")["weft_source"], id);
    }
    EXPECT_EQ(bake()["unchanged"], true);

    // An edit to a referenced file (the image, which no import reads) is seen through the stamp.
    {
        std::vector<uint8_t> png;
        ASSERT_EQ(read_file(in / "dungeon_texture.png", png), "");
        png.push_back(0);
        ASSERT_EQ(write_file_atomic(in / "dungeon_texture.png", png), "");
    }
    const json rebuilt = bake();
    EXPECT_EQ(rebuilt["status"], "built");
    EXPECT_EQ(rebuilt["input_hash"], expected_hash());
    EXPECT_NE(rebuilt["input_hash"], first["input_hash"]);

    // A referenced file gone: rebuilt (and refused for its missing buffer), never skipped or stamped.
    fs::remove(in / "banner_blue.bin");
    const auto run = test::run_weft({"bake", in.string(), "-o", out.string(), "-q"});
    EXPECT_EQ(run.exit_code, 1);
    const json gone = test::read_json_file(out / "bake-report.json")["models"][0];
    EXPECT_EQ(gone["status"], "refused") << gone.dump();
    EXPECT_FALSE(fs::exists(out / "banner_blue.gltf" / "bake-stamp.json"));
}

TEST(BakeCli, AMissingInputIsAnErrorBeforeAnythingIsWrittenAndBadCommandLineIsExit2) {
    const fs::path dir = test::scratch_dir("bake_missing");
    const auto r = test::run_weft({"bake", (dir / "nowhere").string(), (test::testdata_dir() / "flag.glb").string(),
                                   "-o", (dir / "out").string(), "--depfile", (dir / "bake.d").string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("nowhere: no such file or folder; nothing baked [INPUT_NOT_FOUND]"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("the page"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out")) << "no report, no index.html, no model baked";
    EXPECT_FALSE(fs::exists(dir / "bake.d"));
    EXPECT_EQ(test::run_weft({"bake", test::testdata_dir().string()}).exit_code, 2);
}

// One vocabulary (docs/architecture.md#exit-status): a re-run counts what it skipped by the outcome
// its stamp recorded, says so in the progress lines, the summary line and the report alike, and
// exits as the first run did.
TEST(BakeCli, ARerunCountsWhatItSkippedByItsEarlierOutcome) {
    const fs::path dir = test::scratch_dir("bake_rerun_words");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "a.glb");
    fs::copy_file(test::testdata_dir() / "bad" / "nan_position.glb", in / "b.glb");
    const fs::path out = dir / "out";
    const auto first = test::run_weft({"bake", in.string(), "-o", out.string()});
    EXPECT_EQ(first.exit_code, 1);
    EXPECT_NE(first.err.find("weft bake: 2 models: 1 built, 1 refused, 0 failed -> "), std::string::npos) << first.err;
    const auto again = test::run_weft({"bake", in.string(), "-o", out.string()});
    EXPECT_EQ(again.exit_code, 1) << "a re-run refusing nothing new still exits as its refused model says";
    EXPECT_NE(again.err.find("[1/2] a.glb: built (unchanged)"), std::string::npos) << again.err;
    EXPECT_NE(again.err.find("[2/2] b.glb: refused (unchanged)"), std::string::npos) << again.err;
    EXPECT_NE(again.err.find("weft bake: 2 models: 1 built (1 unchanged), 1 refused (1 unchanged), 0 failed -> "),
              std::string::npos) << again.err;
    const json report = test::read_json_file(out / "bake-report.json");
    EXPECT_EQ(test::schema_errors(report.dump(), "bake-report.schema.json"), "");
    EXPECT_EQ(report["summary"], "2 models: 1 built (1 unchanged), 1 refused (1 unchanged), 0 failed");
    EXPECT_EQ(report["totals"], json::parse(R"({"models": 2, "built": 1, "refused": 1, "failed": 0,
        "unchanged": {"built": 1, "refused": 1}, "input_errors": 0})"));
    EXPECT_EQ(report["exit_code"], 1);
    const json* a = test::bake_report_model(report, "a.glb");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ((*a)["status"], "built");
    EXPECT_EQ((*a)["unchanged"], true);
    EXPECT_EQ((*a)["cloth"], json::parse(R"({"garments": 1, "moving": 1, "proxies": 1})")) << "as its stamp recorded";
    // The index says the same words.
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(out / "index.html", bytes), "");
    const std::string index(bytes.begin(), bytes.end());
    EXPECT_NE(index.find(report["summary"].get<std::string>()), std::string::npos);
}

// A page that could not be written is never named as if it were (a full disk: no file may grow).
TEST(BakeCli, APageThatCouldNotBeWrittenIsNotNamed) {
    const fs::path dir = test::scratch_dir("bake_full_disk");
    const fs::path out = dir / "out";
    fs::create_directories(out / "index.html");  // in the way: OUTPUT_NOT_REGULAR
    const auto blocked = test::run_weft({"bake", (test::testdata_dir() / "flag.glb").string(), "-o", out.string()});
    EXPECT_EQ(blocked.exit_code, 1);
    EXPECT_NE(blocked.err.find("OUTPUT_NOT_REGULAR"), std::string::npos) << blocked.err;
    EXPECT_EQ(blocked.err.find("the page: "), std::string::npos) << blocked.err;
    EXPECT_NE(blocked.err.find("the page was not written"), std::string::npos) << blocked.err;
    // No byte may be written (RLIMIT_FSIZE 0, as a disk with no room left): every write fails by
    // name, nothing is named as written, and the run exits 1.
    // SIGXFSZ ignored, so a write past the limit fails with EFBIG as a full disk's does with ENOSPC.
    const auto full = test::run_command({"/bin/bash", "-c", "trap '' XFSZ; exec /usr/bin/prlimit --fsize=0 \"$@\"", "bash",
                                         test::weft_exe().string(), "bake", (test::testdata_dir() / "flag.glb").string(),
                                         "-o", (dir / "full").string()});
    EXPECT_EQ(full.exit_code, 1) << full.err;
    EXPECT_NE(full.err.find("OUTPUT_UNWRITABLE"), std::string::npos) << full.err;
    EXPECT_EQ(full.err.find("the page: "), std::string::npos) << full.err;
    EXPECT_NE(full.err.find("1 failed"), std::string::npos) << full.err;
}

}  // namespace
}  // namespace weft
