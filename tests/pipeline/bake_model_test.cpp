// bake_model (lib/pipeline/bake_model.h): one model's record, and the stamp and the bake report's
// row as pure functions of it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "pipeline/bake.h"
#include "pipeline/bake_model.h"
#include "pipeline/json_text.h"
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
    for (const char* name : {"report.json", "view.html", "thumbnail.svg", "Flag.clothproxy"})
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
    EXPECT_EQ(skipped.status, ModelStatus::skipped);
    EXPECT_FALSE(skipped.imported);  // nothing was read but the bytes to hash
    EXPECT_EQ(skipped.outputs, built.outputs);
    EXPECT_EQ(skipped.input_hash, built.input_hash);
    json again = bake_stamp_json(skipped);
    again["status"] = "built";  // the one field a skip changes
    EXPECT_EQ(json_text(again), file_text(out / "bake-stamp.json"));

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

}  // namespace
}  // namespace weft
