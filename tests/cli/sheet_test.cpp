// `weft sheet` as a preset of one model's bake (batch/bake_model.h): it writes the selected
// sheets' proxies and report.json and nothing else of a bake, and its summary, report and messages
// come from the one record.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::set<std::string> files_in(const fs::path& dir) {
    std::set<std::string> out;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
    return out;
}

json report_of(const fs::path& dir) {
    std::ifstream in(dir / "report.json");
    std::stringstream s;
    s << in.rdbuf();
    return json::parse(s.str());
}

TEST(SheetCommand, WritesTheSheetsAndItsReportOnly) {
    const fs::path model = test::testdata_dir() / "flag.glb";
    const fs::path out = test::scratch_dir("SheetCommand.Only") / "flag";
    const test::CommandResult r = test::run_weft({"sheet", model.string(), "-o", out.string(), "--pin", "top"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // No sidecar, grown model, validation, page or stamp: those are weft rig's and weft bake's.
    EXPECT_EQ(files_in(out), (std::set<std::string>{"Flag.clothproxy", "report.json"}));
    const json report = report_of(out);
    EXPECT_EQ(report["schema"], "weft.sheet/1");
    EXPECT_EQ(report["options"]["pin"], "top");
    ASSERT_EQ(report["garments"].size(), 1u);
    EXPECT_EQ(report["garments"][0]["matched_by"], "garment");
    EXPECT_EQ(report["garments"][0]["proxy"], "Flag.clothproxy");
    EXPECT_EQ(r.out.rfind("weft sheet " + model.string() + " -> " + out.string() + "\n  Flag (flag): built Flag.clothproxy: ", 0), 0u)
        << r.out;
}

// Every garment found, each its own sheet; the builder's warning reaches standard error once, and
// -q silences it without changing the report. The skirt is skinned whole to the hips: `--pin
// weights` holds every particle (EVERYTHING_HELD); the automatic rule holds its top band instead.
TEST(SheetCommand, EachFoundGarmentIsASheetAndItsWarningsObeyQuiet) {
    const fs::path model = test::testdata_dir() / "mannequin_chains.glb";
    const fs::path out = test::scratch_dir("SheetCommand.Found");
    const test::CommandResult automatic = test::run_weft({"sheet", model.string(), "-o", (out / "auto").string()});
    ASSERT_EQ(automatic.exit_code, 0) << automatic.err;
    EXPECT_EQ(automatic.err, "");
    EXPECT_NE(automatic.out.find("Skirt (skirt): built Skirt.clothproxy: 144 particles"), std::string::npos) << automatic.out;
    EXPECT_NE(automatic.out.find("24 held by Hips"), std::string::npos) << automatic.out;
    const test::CommandResult r = test::run_weft({"sheet", model.string(), "-o", (out / "a").string(), "--pin", "weights"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(files_in(out / "a"), (std::set<std::string>{"Hair.clothproxy", "Skirt.clothproxy", "report.json"}));
    const json report = report_of(out / "a");
    EXPECT_EQ(report["built"], 2);
    EXPECT_EQ(report["passed"], true);
    const std::string warning = "weft sheet: warning: mannequin_chains.glb: garment 'Skirt': every one of its";
    EXPECT_EQ(r.err.rfind(warning, 0), 0u) << r.err;
    EXPECT_EQ(r.err.find(warning, 1), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[EVERYTHING_HELD]"), std::string::npos) << r.err;

    const test::CommandResult quiet = test::run_weft({"sheet", model.string(), "-o", (out / "b").string(), "--pin", "weights", "-q"});
    ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "");
    json again = report_of(out / "b");
    again["output_dir"] = report["output_dir"];
    EXPECT_EQ(again, report);
}

}  // namespace
}  // namespace weft
