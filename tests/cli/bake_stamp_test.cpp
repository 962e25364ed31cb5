// The bake stamp (docs/format.md#the-bake-stamp): every flag that changes what a model's bake writes is in
// its options, so changing any one of them rebuilds the model, and spelling out a default does not.
// One option at a time on a model with no garment (a skeleton): each bake takes a few tens of ms.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/json_files.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

/// What bake did to the one model of `out`: "built" when it built it, "skipped" when a re-run found its
/// stamp unchanged (bake-report.json's status then is the stamp's outcome, with `unchanged`).
std::string status_after(const std::vector<std::string>& args, const fs::path& out) {
    const test::CommandResult r = test::run_weft(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json report = test::read_json_file(out / "bake-report.json");
    if (report["models"].size() != 1) return "models: " + report["models"].dump();
    const nlohmann::json& model = report["models"][0];
    return model.value("unchanged", false) ? "skipped" : model.value("status", "");
}

TEST(BakeStamp, EveryStampedOptionRebuildsAndADefaultSpelledOutDoesNot) {
    const fs::path dir = test::scratch_dir("bake_stamp");
    const fs::path in = dir / "in", out = dir / "out";
    fs::create_directories(in);
    fs::copy_file(test::testdata_dir() / "clip_skeleton.glb", in / "clip_skeleton.glb");
    const std::vector<std::string> base = {"bake", in.string(), "-o", out.string(), "-q", "--validate"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    ASSERT_EQ(status_after(base, out), "built");
    ASSERT_EQ(status_after(base, out), "skipped");

    // Every value model_flags_text stamps (tools/weft/model_flags.h), and --no-page, each changed alone
    // from the base: rebuilt, then skipped when repeated, then rebuilt going back to the base.
    const std::vector<std::vector<std::string>> changed = {
        {"--no-grow"},
        {"--classes", "hair"},
        {"--hair-segments", "4"},
        {"--skirt-segments", "5"},
        {"--skirt-panels", "10"},
        {"--min-strand-length", "0.05"},
        {"--min-strand-verts", "10"},
        {"--fabric", "silk"},
        {"--allow-outside-folder"},
        {"--scenario", "hang"},
        {"--steps", "100"},
        {"--clips", "none"},
        {"--no-collide"},
        {"--whole-runs"},
        {"--max-strain", "1.2"},
        {"--max-energy-rise", "0.01"},
        {"--max-sleep-step", "1000"},
        {"--strain-target", "0.01"},
        {"--no-page"},
        {"--retune-springs"},
        {"--collide-authored-springs"},
    };
    for (const auto& extra : changed) {
        const std::string flag = extra[0];
        EXPECT_EQ(status_after(with(extra), out), "built") << flag << ": a changed value must rebuild";
        EXPECT_EQ(status_after(with(extra), out), "skipped") << flag << ": the same value again must not";
        EXPECT_EQ(status_after(base, out), "built") << "back from " << flag;
    }
    // Without --validate: rebuilt (and what only validation wrote is gone, bake_validate_test.cpp).
    std::vector<std::string> unvalidated = base;
    unvalidated.pop_back();
    EXPECT_EQ(status_after(unvalidated, out), "built");
    EXPECT_EQ(status_after(base, out), "built");

    // A default spelled out is the same options: skipped.
    for (const std::vector<std::string>& same : std::vector<std::vector<std::string>>{
             {"--grow-cloth"}, {"--classes", "hair,skirt"}, {"--hair-segments", "3"}, {"--skirt-panels", "12"}})
        EXPECT_EQ(status_after(with(same), out), "skipped") << same[0] << " " << (same.size() > 1 ? same[1] : "");
}

}  // namespace
}  // namespace weft
