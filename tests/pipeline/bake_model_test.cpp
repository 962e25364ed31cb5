// bake_model (lib/batch/bake_model.h): one model's record, and the stamp and the bake report's
// row as pure functions of it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "garment/config.h"
#include "batch/bake.h"
#include "batch/bake_model.h"
#include "outputs/rig_report.h"
#include "outputs/json_text.h"
#include "pipeline/pipeline_codes.h"
#include "outputs/sheet_report.h"
#include "proxy/sheet_codes.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string file_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

ModelOptions flag_options(const fs::path& out) {
    ModelOptions o = bake_preset();
    o.out_dir = out;
    o.out_root = out.parent_path();
    o.model_label = "flag.glb";
    o.out_label = "flag.glb";
    o.options_text = "test";
    return o;
}

// The stamp on disk is bake_stamp_json of the record that wrote it, and the report's row is the
// record's; a second bake with nothing changed is skipped and its record, read from the stamp,
// gives the same stamp and row.
TEST(BakeModel, TheStampAndTheRowAreTheRecordsAndAnUnchangedModelIsSkipped) {
    const fs::path out = test::scratch_dir("bake-model-stamp") / "flag.glb";
    const ModelOptions o = flag_options(out);
    const ModelRecord built = bake_model(test::testdata_dir() / "flag.glb", o);
    ASSERT_EQ(built.status, ModelStatus::built) << json_text(bake_stamp_json(built));
    EXPECT_EQ(built.sheets.size(), 1u);  // the flag is one sheet
    EXPECT_EQ(file_text(out / "bake-stamp.json"), json_text(bake_stamp_json(built)));
    for (const char* name : {"report.json", "view.html", "thumbnail.png", "Flag.clothproxy"})
        EXPECT_NE(std::find(built.outputs.begin(), built.outputs.end(), name), built.outputs.end()) << name;
    EXPECT_EQ(built.depends, std::vector<std::string>{(test::testdata_dir() / "flag.glb").generic_string()});
    EXPECT_EQ(built.input_hash.rfind("xxh64:", 0), 0u);

    const BakeInput input{test::testdata_dir() / "flag.glb", "flag.glb", 0};
    const BakeModelResult row = bake_row(input, built);
    EXPECT_EQ(row.status, built.status);
    EXPECT_EQ(row.outputs, built.outputs);
    EXPECT_EQ(row.input_hash, built.input_hash);
    EXPECT_EQ(row.issues.size(), built.issues.size());

    const ModelRecord skipped = bake_model(test::testdata_dir() / "flag.glb", o);
    EXPECT_TRUE(skipped.unchanged);
    EXPECT_EQ(skipped.status, ModelStatus::built);  // the outcome its stamp recorded
    EXPECT_FALSE(skipped.imported);  // nothing was read but the bytes to hash
    EXPECT_EQ(skipped.outputs, built.outputs);
    EXPECT_EQ(skipped.input_hash, built.input_hash);
    // The cloth its stamp recorded: one garment, moving, one proxy.
    const ClothSummary cloth = summarise_cloth(skipped);
    EXPECT_EQ(cloth.garments, 1u);
    EXPECT_EQ(cloth.moving, 1u);
    EXPECT_EQ(cloth.proxies, 1u);
    EXPECT_EQ(bake_row(input, skipped).cloth.proxies, 1u);
    EXPECT_EQ(json_text(bake_stamp_json(skipped)), file_text(out / "bake-stamp.json"));

    ModelOptions forced = o;
    forced.force = true;
    EXPECT_EQ(bake_model(test::testdata_dir() / "flag.glb", forced).status, ModelStatus::built);
}

// weft rig's preset: no stamp, no page; report.json with timings, written from the record.
TEST(BakeModel, TheRigPresetWritesNoStampAndNoPage) {
    const fs::path out = test::scratch_dir("bake-model-rig");
    ModelOptions o;
    o.grow_cloth = true;
    o.out_dir = out;
    const ModelRecord r = bake_model(test::testdata_dir() / "mannequin.glb", o);
    EXPECT_EQ(r.exit_code(), 0);
    EXPECT_EQ(r.rigs.size(), 2u);  // the grown hair and skirt
    EXPECT_TRUE(fs::exists(out / "report.json"));
    EXPECT_FALSE(fs::exists(out / "bake-stamp.json"));
    EXPECT_FALSE(fs::exists(out / "view.html"));
    EXPECT_EQ(file_text(out / "report.json"), json_text(rig_report_json(r)));
}

// A model that cannot be read: under weft bake's preset it is refused with its report.json and
// stamp in its folder; under weft rig's no folder is made for it.
TEST(BakeModel, AModelNeverReadIsReportedOnlyWhereItsFolderIs) {
    const fs::path scratch = test::scratch_dir("bake-model-missing");
    const fs::path bad = scratch / "not-a-model.glb";
    std::ofstream(bad) << "no glTF here";
    ModelOptions rig;
    rig.out_dir = scratch / "rig";
    const ModelRecord r = bake_model(bad, rig);
    EXPECT_FALSE(r.imported);
    EXPECT_EQ(r.exit_code(), 1);
    EXPECT_FALSE(fs::exists(scratch / "rig"));

    const ModelRecord b = bake_model(bad, flag_options(scratch / "out" / "not-a-model.glb"));
    EXPECT_EQ(b.status, ModelStatus::refused);
    EXPECT_TRUE(fs::exists(scratch / "out" / "not-a-model.glb" / "report.json"));
    EXPECT_EQ(file_text(scratch / "out" / "not-a-model.glb" / "bake-stamp.json"), json_text(bake_stamp_json(b)));
}

// weft sheet's preset: the sheets it selects and nothing else, no rig, no sidecar, no stamp; its
// report, summary and messages read the record.
TEST(BakeModel, TheSheetPresetBuildsTheSelectedSheetsOnly) {
    const fs::path out = test::scratch_dir("bake-model-sheet");
    SheetOnlyOptions only;
    only.material = "Flag";
    ModelOptions o = sheet_preset(only, SheetOptions{});
    o.out_dir = out;
    const ModelRecord r = bake_model(test::testdata_dir() / "flag.glb", o);
    ASSERT_TRUE(r.imported);
    EXPECT_TRUE(r.rigs.empty());
    ASSERT_EQ(r.sheets.size(), 1u);
    const SheetedGarment& flag = r.sheets[0];
    EXPECT_EQ(flag.name, "Flag");
    EXPECT_EQ(flag.found_by, "material");
    EXPECT_EQ(flag.meshes.size(), 1u);
    EXPECT_EQ(flag.status, SheetStatus::built);
    EXPECT_EQ(flag.proxy_file, "Flag.clothproxy");
    EXPECT_EQ(flag.built.stats.particles, 117);  // 12 x 8 quads, welded
    std::vector<std::string> written;
    for (const fs::directory_entry& e : fs::directory_iterator(out)) written.push_back(e.path().filename().string());
    EXPECT_EQ(written, std::vector<std::string>{"Flag.clothproxy"});  // report.json is the command's

    const json report = sheet_report_json(r, o);
    EXPECT_EQ(report["schema"], "weft.sheet/1");
    EXPECT_EQ(report["options"]["selection"], json({{"material", "Flag"}}));
    EXPECT_EQ(report["built"], 1);
    EXPECT_EQ(report["passed"], true);
    EXPECT_EQ(report["garments"][0]["stats"]["particles"], 117);
    EXPECT_EQ(test::schema_errors(report.dump(), "sheet.schema.json"), "");
    EXPECT_NE(sheet_report_text(r).find("  Flag (flag): built Flag.clothproxy: 117 particles from"), std::string::npos)
        << sheet_report_text(r);
}

// A selection that names nothing: NO_GARMENT_FOUND in the record, the report's error, one message,
// nothing written.
TEST(BakeModel, ASheetSelectionThatNamesNothingIsTheRecordsError) {
    const fs::path out = test::scratch_dir("bake-model-sheet-none") / "out";
    SheetOnlyOptions only;
    only.mesh = "Velvet";
    ModelOptions o = sheet_preset(only, SheetOptions{});
    o.out_dir = out;
    const ModelRecord r = bake_model(test::testdata_dir() / "flag.glb", o);
    EXPECT_TRUE(r.sheets.empty());
    EXPECT_EQ(r.sheet_selection_error, "no mesh or node is called 'Velvet'");
    ASSERT_FALSE(r.issues.empty());
    EXPECT_EQ(r.issues.back().code, kNoGarmentFound.code);
    EXPECT_FALSE(sheet_report_passed(r));
    EXPECT_EQ(sheet_report_json(r, o)["error"], "no mesh or node is called 'Velvet'");
    const Issues messages = sheet_report_messages(r);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_NE(messages[0].message.find("no mesh or node is called 'Velvet'"), std::string::npos);
    EXPECT_FALSE(fs::exists(out));
}

// A config rule's pin that does not parse refuses its garment with BAD_OPTION; a pin given on the
// command line wins over the rule's, and the garment is built.
TEST(BakeModel, TheConfigsPinRefusesUnlessAPinIsGiven) {
    const fs::path dir = test::scratch_dir("bake-model-sheet-pin");
    std::ofstream(dir / "weft.json")
        << R"({"schema": "weft.config/1", "garments": [{"material": "Flag", "class": "flag", "pin": {"bogus": 1}}]})";
    ConfigResult config = load_garment_config(dir / "weft.json");
    ASSERT_EQ(config.error, "");
    ModelOptions o = sheet_preset(SheetOnlyOptions{}, SheetOptions{});
    o.garments.config = config.config;
    o.write_files = false;
    const ModelRecord refused = bake_model(test::testdata_dir() / "flag.glb", o);
    ASSERT_EQ(refused.sheets.size(), 1u);
    EXPECT_EQ(refused.sheets[0].status, SheetStatus::refused);
    ASSERT_EQ(refused.sheets[0].issues.size(), 1u);
    EXPECT_EQ(refused.sheets[0].issues[0].code, kBadOption.code);
    EXPECT_EQ(refused.sheets[0].issues[0].severity, Severity::error);
    EXPECT_NE(sheet_report_text(refused).find("Flag (flag): refused: 1 BAD_OPTION"), std::string::npos);

    SheetOnlyOptions pinned;
    pinned.pin = "top";
    SheetOptions top;
    ASSERT_EQ(parse_pin_rule("top", top), "");
    ModelOptions given = sheet_preset(pinned, top);
    given.garments.config = config.config;
    given.write_files = false;
    const ModelRecord built = bake_model(test::testdata_dir() / "flag.glb", given);
    ASSERT_EQ(built.sheets.size(), 1u);
    EXPECT_EQ(built.sheets[0].status, SheetStatus::built);
    EXPECT_TRUE(built.sheets[0].issues.empty());
}

}  // namespace
}  // namespace weft
