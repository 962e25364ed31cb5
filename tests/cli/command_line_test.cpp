// The command line's conventions, the same on every command (docs/commands.md): the command list
// when run bare, usage errors (exit 2) for every bad option value, --json with the summary on
// standard error, folders wherever models are taken, repeated issues folded, --trace, the page.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "solver/test_proxies.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string text_of_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(CommandLine, BareWeftListsEveryCommandAndExitsTwo) {
    const auto r = test::run_weft({});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    for (const char* command : {"bake", "inspect", "rig", "sheet", "validate", "view", "dump", "codes"})
        EXPECT_NE(r.err.find(std::string("  ") + command + " "), std::string::npos) << command << " missing:\n" << r.err;
}

TEST(CommandLine, EveryBadOptionValueIsAUsageError) {
    const fs::path dir = test::scratch_dir("command_line_usage");
    const fs::path proxy = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(test::chain_proxy(4, 0.1, 0.05), proxy), "");
    const std::string model = (test::testdata_dir() / "flag.glb").string();
    const std::vector<std::vector<std::string>> bad = {
        {"bake", model, "-o", (dir / "out").string(), "--fabric", "bogus"},
        {"bake", model, "-o", ""},
        {"bake", model, "-o", (dir / "out").string(), "--report", ""},
        {"validate", proxy.string(), "--max-strain", "nan"},
        {"validate", proxy.string(), "--max-energy-rise", "inf"},
        {"validate", proxy.string(), "--max-strain", "1.1x"},
        {"validate", proxy.string(), "--trace", ""},
        {"sheet", model, "-o", (dir / "s").string(), "--pin-weight", "nan"},
        {"rig", model, "-o", (dir / "r").string(), "--min-strand-length", "nan"},
        {"rig", model, "-o", (dir / "r").string(), "--fabric", "bogus"},
        {"rig", test::testdata_dir().string(), "-o", (dir / "r").string()},
        {"inspect", model, "--report", ""},
        {"view", proxy.string(), "--fabric", "bogus"},
        {"bake", model, "-o", (dir / "out").string(), "-q", "-v"},
    };
    for (const auto& args : bad) {
        const auto r = test::run_weft(args);
        std::string line;
        for (const auto& a : args) line += "'" + a + "' ";
        EXPECT_EQ(r.exit_code, 2) << line << "\n" << r.err;
        EXPECT_EQ(r.out, "") << line;
    }
    EXPECT_FALSE(fs::exists(dir / "out")) << "a refused command line wrote nothing";
}

TEST(CommandLine, BakeJsonIsTheReportAloneAndTheSummaryAndPageGoToStderr) {
    const fs::path dir = test::scratch_dir("command_line_bake_json");
    const auto r = test::run_weft({"bake", (test::testdata_dir() / "mannequin.glb").string(), "-o", (dir / "out").string(),
                                   "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json report = json::parse(r.out);  // nothing but the report on standard output
    EXPECT_EQ(report["schema"], "weft.bake-report/2");
    EXPECT_EQ(report, json::parse(text_of_file(dir / "out" / "bake-report.json")));
    EXPECT_NE(r.err.find("weft bake: 1 model: 1 built, 0 refused, 0 failed -> "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("weft bake: the page: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("index.html"), std::string::npos) << r.err;
    // The page of the model and the index exist and name each other.
    const std::string index = text_of_file(dir / "out" / "index.html");
    EXPECT_NE(index.find("href=\"./mannequin.glb/view.html\""), std::string::npos) << index;
    const std::string page = text_of_file(dir / "out" / "mannequin.glb" / "view.html");
    EXPECT_NE(page.find("\"schema\":\"weft.view/2\""), std::string::npos);
    EXPECT_TRUE(page.ends_with("</html>\n"));

    // -q: errors only, so a clean bake says nothing at all.
    const auto quiet = test::run_weft({"bake", (test::testdata_dir() / "mannequin.glb").string(), "-o",
                                       (dir / "out").string(), "-q"});
    EXPECT_EQ(quiet.exit_code, 0);
    EXPECT_EQ(quiet.out, "");
    EXPECT_EQ(quiet.err, "");
}

TEST(CommandLine, InspectWalksAFolderAsBakeDoes) {
    const auto folder = test::run_weft({"inspect", "--json", test::testdata_dir().string()});
    const json report = json::parse(folder.out);
    // Every model at the top of testdata/ and under bad/ (bad/dir.glb is a folder named like a
    // model: bake skips it, so does inspect's walk).
    size_t expected = 0;
    for (const auto& e : fs::recursive_directory_iterator(test::testdata_dir())) {
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".glb" || ext == ".gltf" || ext == ".fbx" || ext == ".obj" ||
                                     ext == ".ply" || ext == ".dae" || ext == ".md5mesh"))
            ++expected;
    }
    EXPECT_EQ(report["files"].get<size_t>(), expected);
    EXPECT_GT(report["refused"].get<size_t>(), 15u);
    EXPECT_EQ(folder.exit_code, 1);
}

TEST(CommandLine, RepeatedIssuesFoldAfterThreeOfACode) {
    // The Witch's hair has 16 zero-area triangles, each with two corners welded into one: three
    // warnings, then one line with the rest counted. Dropped, they leave every edge manifold (they
    // made the 16 edges three triangles shared), so the hair is built.
    const fs::path witch = test::shared_model("quaternius_umw_Witch.gltf");
    if (witch.empty()) GTEST_SKIP() << "shared models absent";
    const fs::path dir = test::scratch_dir("command_line_fold");
    const auto r = test::run_weft({"bake", witch.string(), "-o", (dir / "out").string(), "--no-page", "--no-grow"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("[NON_MANIFOLD_EDGE]"), std::string::npos) << r.err;
    for (const std::string code : {"ZERO_AREA_TRIANGLE"}) {
        size_t lines = 0;
        for (size_t at = r.err.find("[" + code + "]"); at != std::string::npos; at = r.err.find("[" + code + "]", at + 1))
            ++lines;
        EXPECT_EQ(lines, 4u) << code << "\n" << r.err;
        EXPECT_NE(r.err.find(": and 13 more like it [" + code + "]"), std::string::npos) << r.err;
    }
    // The report keeps every one of them.
    const json report = json::parse(text_of_file(dir / "out" / "bake-report.json"));
    EXPECT_EQ(report["counts"]["ZERO_AREA_TRIANGLE"], 16);
    EXPECT_FALSE(fs::exists(dir / "out" / "index.html")) << "--no-page writes no page";
}

TEST(CommandLine, ValidateTraceWritesEveryStepAsCsvOrJson) {
    const fs::path dir = test::scratch_dir("command_line_trace");
    const fs::path proxy = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(test::chain_proxy(6, 0.1, 0.05), proxy), "");
    const auto csv = test::run_weft({"validate", proxy.string(), "--scenario", "hang,swing", "--steps", "120", "--trace",
                                     (dir / "t.csv").string()});
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    std::istringstream lines(text_of_file(dir / "t.csv"));
    std::string header, row;
    std::getline(lines, header);
    EXPECT_EQ(header, "garment,scenario,step,max_speed,max_strain,kinetic_energy,total_energy,asleep,driven");
    size_t rows = 0;
    std::string first_swing;
    while (std::getline(lines, row)) {
        ++rows;
        if (first_swing.empty() && row.find(",swing,1,") != std::string::npos) first_swing = row;
    }
    EXPECT_EQ(rows, 240u);  // 120 steps of each scenario
    ASSERT_FALSE(first_swing.empty());
    // The swing's first step follows a 3 m/s kick: the fastest particle is near that speed.
    const size_t speed_at = first_swing.find(",swing,1,") + 9;
    const double speed = std::stod(first_swing.substr(speed_at));
    EXPECT_GT(speed, 1.5);
    EXPECT_LT(speed, 3.5);

    const auto js = test::run_weft({"validate", proxy.string(), "--scenario", "hang", "--steps", "50", "--trace",
                                    (dir / "t.json").string()});
    ASSERT_EQ(js.exit_code, 0) << js.err;
    const std::string text = text_of_file(dir / "t.json");
    EXPECT_EQ(test::schema_errors(text, "trace.schema.json"), "");
    const json trace = json::parse(text);
    const json& steps = trace["proxies"][0]["scenarios"][0]["steps"];
    EXPECT_EQ(steps["step"].size(), 50u);
    EXPECT_EQ(steps["step"][49], 50);
    // Hang from rest: the chain starts at rest length and never stretches past the gate.
    for (const json& s : steps["max_strain"]) {
        EXPECT_GE(s.get<double>(), 0.99);
        EXPECT_LE(s.get<double>(), 1.10);
    }
}

TEST(CommandLine, ViewWritesAProxysPageAndABakesIndex) {
    const fs::path dir = test::scratch_dir("command_line_view");
    const fs::path proxy = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(test::chain_proxy(6, 0.1, 0.05), proxy), "");
    const auto r = test::run_weft({"view", proxy.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("weft view: the page: "), std::string::npos) << r.err;
    const std::string page = text_of_file(proxy.string() + ".html");
    const size_t start = page.find("<script id=\"weft-data\" type=\"application/json\">");
    ASSERT_NE(start, std::string::npos);
    const size_t from = page.find('>', start) + 1;
    const json data = json::parse(page.substr(from, page.find("</script>", from) - from));
    EXPECT_EQ(data["schema"], "weft.view/2");
    ASSERT_EQ(data["proxies"].size(), 1u);
    const json& p = data["proxies"][0];
    EXPECT_EQ(p["particles"], 7);  // six links hang from a held seventh
    EXPECT_EQ(p["scenarios"].size(), 6u);  // every scenario, each with its verdict, figures and frames
    for (const json& s : p["scenarios"]) {
        // A figure a step, or a bucket of steps when there are more than 600.
        const int every = s["figures"]["every"], steps = s["steps"];
        EXPECT_EQ(s["figures"]["count"], (steps + every - 1) / every) << s["scenario"];
        EXPECT_LE(s["figures"]["count"].get<int>(), 600) << s["scenario"];
        EXPECT_EQ(s["frames"]["steps"][0], 0) << "the starting pose comes first";
        EXPECT_EQ(s["frames"]["steps"].back(), s["steps"]) << "and the last step last";
        EXPECT_EQ(s["passed"], true) << s["scenario"];
        EXPECT_GE(s["gates"].size(), 2u) << s["scenario"];
        EXPECT_TRUE(s["worst"].is_object()) << s["scenario"];
    }

    // A bake's folder: its index written again from bake-report.json, the same bytes.
    const fs::path out = dir / "out";
    ASSERT_EQ(test::run_weft({"bake", (test::testdata_dir() / "flag.glb").string(), "-o", out.string(), "-q"}).exit_code, 0);
    const std::string index = text_of_file(out / "index.html");
    fs::remove(out / "index.html");
    const auto again = test::run_weft({"view", out.string(), "-q"});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(again.err, "");
    EXPECT_EQ(text_of_file(out / "index.html"), index);
}

TEST(CommandLine, ViewNeverReplacesAFifoOrALinkWithItsPage) {
    // The page is written as a bake's outputs are: by rename, and only over a regular file, so a
    // FIFO or a link given as -o (or in the bake's folder) is refused by name and left as it was.
    const fs::path dir = test::scratch_dir("command_line_view_special");
    const fs::path proxy = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(test::chain_proxy(4, 0.1, 0.05), proxy), "");
    const fs::path fifo = dir / "page.html";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    const auto r = test::run_weft({"view", proxy.string(), "-o", fifo.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("[OUTPUT_NOT_REGULAR]"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));

    const fs::path out = dir / "out";
    ASSERT_EQ(test::run_weft({"bake", (test::testdata_dir() / "flag.glb").string(), "-o", out.string(), "-q"}).exit_code, 0);
    const fs::path target = dir / "elsewhere.html";
    { std::ofstream(target) << "keep me\n"; }
    fs::remove(out / "index.html");
    fs::create_symlink(target, out / "index.html");
    const auto again = test::run_weft({"view", out.string(), "-q"});
    EXPECT_EQ(again.exit_code, 1) << again.err;
    EXPECT_NE(again.err.find("[OUTPUT_NOT_REGULAR]"), std::string::npos) << again.err;
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(out / "index.html")));
    EXPECT_EQ(text_of_file(target), "keep me\n");
}

}  // namespace
}  // namespace weft
