// A weft.json garment rule meant for a model (its `file` matches) that names nothing in it: a
// misspelt material, mesh or node is a warning naming the rule and what the model has, not silence.
#include <gtest/gtest.h>

#include "batch/bake_model.h"
#include "support/paths.h"

namespace weft {
namespace {

std::vector<std::string> unmatched(const std::string& config_text, const std::string& name) {
    ModelOptions options;
    options.write_files = false;
    options.out_dir = test::scratch_dir("config-rule-" + name);
    ConfigResult config = parse_garment_config(config_text, "cfg.json");
    EXPECT_EQ(config.error, "");
    options.garments.config = config.config;
    const ModelRecord r = bake_model(test::testdata_dir() / "flag.glb", options);
    EXPECT_TRUE(r.imported);
    std::vector<std::string> messages;
    for (const Issue& i : r.issues)
        if (i.code == "CONFIG_RULE_NAMES_NOTHING") {
            EXPECT_EQ(i.severity, Severity::warning);
            messages.push_back(i.message);
        }
    return messages;
}

TEST(ConfigRule, AMisspeltNameInARuleForThisModelIsNamedWithWhatTheModelHas) {
    const std::vector<std::string> m = unmatched(R"({"schema": "weft.config/1", "garments": [
        {"file": "flag.glb", "material": "Flagg", "class": "flag", "pin": "top"},
        {"file": "flag*", "mesh": "NoSuchMesh", "class": "flag"},
        {"file": "flag.glb", "node": "Pole_", "class": "flag"}
    ]})", "misspelt");
    ASSERT_EQ(m.size(), 3u);
    EXPECT_NE(m[0].find("cfg.json /garments/0 (file \"flag.glb\", material Flagg) names nothing in this model"), std::string::npos) << m[0];
    EXPECT_NE(m[0].find("(its materials: Flag, Pole)"), std::string::npos) << m[0];
    EXPECT_NE(m[1].find("/garments/1 (file \"flag*\", mesh NoSuchMesh)"), std::string::npos) << m[1];
    EXPECT_NE(m[1].find("its meshes: "), std::string::npos) << m[1];
    EXPECT_NE(m[2].find("/garments/2 (file \"flag.glb\", node Pole_)"), std::string::npos) << m[2];
    EXPECT_NE(m[2].find("Pole"), std::string::npos) << m[2];
}

TEST(ConfigRule, RulesThatMatchOrAreMeantForOtherModelsAreQuiet) {
    // The right name; a rule for another file; a rule without `file` (meant for whichever models have
    // that material): none is reported.
    EXPECT_TRUE(unmatched(R"({"schema": "weft.config/1", "garments": [
        {"file": "flag.glb", "material": "Flag", "class": "flag", "pin": "top"},
        {"file": "Witch*", "material": "Flagg", "class": "flag"},
        {"material": "Couch_Blue", "class": "curtain"},
        {"file": "flag.glb", "node": "Pole", "class": "none"}
    ]})", "quiet").empty());
}

}  // namespace
}  // namespace weft
