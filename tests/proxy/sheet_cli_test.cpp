// `weft sheet` end to end: files written, exit codes, the report against schemas/sheet.schema.json.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_text(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

json read_report(const fs::path& dir) {
    const std::string text = read_text(dir / "report.json");
    EXPECT_EQ(test::schema_errors(text, "sheet.schema.json"), "");
    return json::parse(text);
}

TEST(SheetCli, GoalFlagIsBuiltAndLoads) {
    WEFT_REQUIRE_SHARED_MODEL(model, "quaternius_Goal_Flag.glb");
    const fs::path out = test::scratch_dir("SheetCli.GoalFlag");
    auto r = test::run_weft({"sheet", model.string(), "-o", out.string(), "--material", "Flag", "--pin", "nearest:Metal"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Flag (flag): built Flag.clothproxy: 46 particles from 94 vertices"), std::string::npos) << r.out;
    DecodeResult loaded = load_proxy(out / "Flag.clothproxy");
    ASSERT_TRUE(loaded.ok()) << loaded.error;
    // Two-sided: one face of the slab, at its mid-surface (docs/proxy.md#two-sided-sheets).
    EXPECT_EQ(loaded.proxy->particle_count(), 46u);
    EXPECT_EQ(loaded.proxy->pins.at(0).holder, "Goal_Flag");
    json report = read_report(out);
    EXPECT_EQ(report["passed"], true);
    ASSERT_EQ(report["garments"].size(), 1u);
    const json& g = report["garments"][0];
    EXPECT_EQ(g["status"], "built");
    EXPECT_EQ(g["proxy"], "Flag.clothproxy");
    EXPECT_EQ(g["stats"]["particles"], 46);
    EXPECT_LE(g["stats"]["colours"].get<int>(), 8);
    // --json prints the same report on standard output, and nothing else.
    auto j = test::run_weft({"sheet", model.string(), "-o", out.string(), "--material", "Flag", "--pin", "nearest:Metal", "--json"});
    ASSERT_EQ(j.exit_code, 0) << j.err;
    EXPECT_EQ(json::parse(j.out), report);
}

TEST(SheetCli, KnightCapeByGarmentName) {
    WEFT_REQUIRE_SHARED_MODEL(model, "kaykit_Knight.glb");
    const fs::path out = test::scratch_dir("SheetCli.KnightCape");
    const fs::path extra = out / "elsewhere" / "sheet-report.json";
    auto r = test::run_weft({"sheet", model.string(), "-o", out.string(), "--garment", "Knight_Cape", "--report", extra.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json report = read_report(out);
    EXPECT_EQ(json::parse(read_text(extra)), report);
    const json& g = report["garments"].at(0);
    EXPECT_EQ(g["class"], "cape");
    EXPECT_EQ(g["frame"], "chest");
    EXPECT_EQ(g["pins"], json::parse(R"([{"holder": "chest", "particles": 7}])"));
    DecodeResult loaded = load_proxy(out / "Knight_Cape.clothproxy");
    ASSERT_TRUE(loaded.ok()) << loaded.error;
    EXPECT_EQ(loaded.proxy->frame.node, "chest");
}

TEST(SheetCli, CouchIsRefusedWithEveryDefectOnStandardError) {
    WEFT_REQUIRE_SHARED_MODEL(model, "quaternius_Couch_Medium2.glb");
    const fs::path out = test::scratch_dir("SheetCli.Couch");
    auto r = test::run_weft({"sheet", model.string(), "-o", out.string(), "--material", "Couch_Mustard",
                             "--weld-tolerance", "0"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_FALSE(fs::exists(out / "Couch_Mustard.clothproxy"));
    EXPECT_NE(r.out.find("refused: 23 NON_MANIFOLD_EDGE 2 ZERO_AREA_TRIANGLE"),
              std::string::npos)
        << r.out;
    size_t lines = 0;
    for (size_t at = r.err.find("[NON_MANIFOLD_EDGE]"); at != std::string::npos; at = r.err.find("[NON_MANIFOLD_EDGE]", at + 1))
        ++lines;
    EXPECT_EQ(lines, 4u);  // three, then the rest folded into one line
    EXPECT_NE(r.err.find("and 20 more like it [NON_MANIFOLD_EDGE]"), std::string::npos) << r.err;
    json report = read_report(out);
    EXPECT_EQ(report["passed"], false);
    EXPECT_EQ(report["refused"], 1);
    EXPECT_EQ(report["garments"][0]["issues"].size(), 17u + 24u + 23u + 16u);
    EXPECT_EQ(report["garments"][0]["stats"]["zero_area_triangles"], 24);
    // --repair builds it: every defect dropped and counted.
    auto fixed = test::run_weft({"sheet", model.string(), "-o", out.string(), "--material", "Couch_Mustard", "--repair"});
    EXPECT_EQ(fixed.exit_code, 0) << fixed.err;
    EXPECT_TRUE(fs::exists(out / "Couch_Mustard.clothproxy"));
    EXPECT_EQ(read_report(out)["garments"][0]["stats"]["dropped_triangles"], 43);
}

TEST(SheetCli, WrongCommandLinesExitTwo) {
    WEFT_REQUIRE_SHARED_MODEL(model, "quaternius_Goal_Flag.glb");
    const fs::path out = test::scratch_dir("SheetCli.Usage");
    EXPECT_EQ(test::run_weft({"sheet", model.string(), "-o", out.string(), "--pin", "middle"}).exit_code, 2);
    EXPECT_EQ(test::run_weft({"sheet", model.string(), "-o", out.string(), "--material", "Flag", "--mesh", "X"}).exit_code, 2);
    EXPECT_EQ(test::run_weft({"sheet", model.string()}).exit_code, 2);
    EXPECT_EQ(test::run_weft({"sheet", model.string(), "-o", out.string(), "--weld-tolerance", "-1"}).exit_code, 2);
    // A selection that names nothing is a refusal, with the report saying why.
    auto none = test::run_weft({"sheet", model.string(), "-o", out.string(), "--material", "Velvet"});
    EXPECT_EQ(none.exit_code, 1);
    EXPECT_NE(none.err.find("no material is called 'Velvet'"), std::string::npos) << none.err;
    EXPECT_EQ(read_report(out)["error"], "no material is called 'Velvet'");
    // A model that is not one is refused on import.
    auto bad = test::run_weft({"sheet", (out / "report.json").string(), "-o", out.string()});
    EXPECT_EQ(bad.exit_code, 1);
}

}  // namespace
}  // namespace weft
