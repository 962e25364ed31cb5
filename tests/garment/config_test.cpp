#include <gtest/gtest.h>

#include "garment/config.h"
#include "support/paths.h"
#include "io/atomic_file.h"
#include "testdata/fixtures.h"

namespace weft {
namespace {

std::string class_of(const GarmentConfig& config, std::string_view name) {
    int c = classify_name(name, config.classes);
    return c < 0 ? "-" : config.classes[static_cast<size_t>(c)].name;
}

TEST(GarmentConfig, AddReplaceAndNewClasses) {
    ConfigResult r = parse_garment_config(R"({
        "schema": "weft.config/1",
        "classes": {
            "hair": {"add": ["kami"]},
            "cape": {"patterns": ["cloak wrap"]},
            "veil": {"patterns": ["veil", "tulle"]}
        },
        "min_garment_span": 0.05
    })", "cfg.json");
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(class_of(r.config, "Kami_01"), "hair");
    EXPECT_EQ(class_of(r.config, "Hair_01"), "hair");   // defaults kept by "add"
    EXPECT_EQ(class_of(r.config, "Cloak_Wrap_Back"), "cape");
    EXPECT_EQ(class_of(r.config, "Robe_Back"), "robe");  // a built-in class of its own
    EXPECT_EQ(class_of(r.config, "Knight_Cape"), "-");  // replaced by "patterns"
    EXPECT_EQ(class_of(r.config, "Bridal_Veil"), "veil");
    ASSERT_TRUE(r.config.min_garment_span.has_value());
    EXPECT_DOUBLE_EQ(*r.config.min_garment_span, 0.05);
    EXPECT_GE(find_class(r.config.classes, "spring"), 0);
}

TEST(GarmentConfig, RulesKeepTheirTargetsAndLaterStageFields) {
    ConfigResult r = parse_garment_config(R"({
        "schema": "weft.config/1",
        "garments": [
            {"file": "Couch_*.glb", "material": "Couch_Blue", "class": "curtain"},
            {"node": "Knight_Cape", "class": "cape", "fabric": "leather", "pin": {"node": "chest"}},
            {"mesh": "Eyebrows", "class": "none"}
        ]
    })", "cfg.json");
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.config.rules.size(), 3u);
    EXPECT_EQ(r.config.rules[0].target(), "material Couch_Blue");
    EXPECT_EQ(r.config.rules[0].pointer, "/garments/0");
    EXPECT_EQ(r.config.rules[1].fabric, "leather");
    EXPECT_EQ(r.config.rules[1].pin["node"], "chest");
    EXPECT_EQ(r.config.rules[2].class_name, kNotAGarment);
    EXPECT_TRUE(rule_applies_to(r.config.rules[0], "models/Couch_Medium2.glb"));
    EXPECT_FALSE(rule_applies_to(r.config.rules[0], "models/Couch_Medium2.fbx"));
    EXPECT_TRUE(rule_applies_to(r.config.rules[1], "anything.vrm"));
}

TEST(GarmentConfig, ErrorsNameTheFileAndThePointer) {
    auto error_of = [](const std::string& text) { return parse_garment_config(text, "cfg.json").error; };
    EXPECT_EQ(error_of("{"), error_of("{"));  // deterministic
    EXPECT_NE(error_of("{").find("cfg.json: not valid JSON"), std::string::npos);
    EXPECT_EQ(error_of(R"({"classes": {}})"), "cfg.json: /schema: must be \"weft.config/1\"");
    EXPECT_EQ(error_of(R"({"schema": "weft.config/1", "clases": {}})"),
              "cfg.json: /clases: unknown key (expected schema, classes, garments, min_garment_span, clips, colliders)");
    EXPECT_EQ(error_of(R"({"schema": "weft.config/1", "garments": [{"material": "A", "node": "B", "class": "hair"}]})"),
              "cfg.json: /garments/0: needs exactly one of \"material\", \"mesh\", \"node\", \"geometry\"");
    EXPECT_NE(error_of(R"({"schema": "weft.config/1", "garments": [{"material": "A", "class": "gown"}]})")
                  .find("/garments/0/class: unknown class \"gown\""),
              std::string::npos);
    EXPECT_EQ(error_of(R"({"schema": "weft.config/1", "garments": [{"material": "A", "class": "hair", "colour": "red"}]})"),
              "cfg.json: /garments/0/colour: unknown key (expected file, material, mesh, node, geometry, class, fabric, pin, repair)");
    EXPECT_NE(error_of(R"({"schema": "weft.config/1", "classes": {"hair": {"add": ["ha*ir"]}}})")
                  .find("/classes/hair/add/0: pattern \"ha*ir\" is not usable"),
              std::string::npos);
    EXPECT_EQ(error_of(R"({"schema": "weft.config/1", "classes": {"Hair": {"add": ["x"]}}})"),
              "cfg.json: /classes/Hair: a class name is lower-case letters, digits and `_` (at most 64)");
    EXPECT_EQ(error_of(R"({"schema": "weft.config/1", "classes": {"hair": {"add": ["x"], "patterns": ["y"]}}})"),
              "cfg.json: /classes/hair: give \"patterns\" (replace) or \"add\" (extend), not both");
    EXPECT_EQ(error_of(R"({"schema": "weft.config/1", "min_garment_span": -1})"),
              "cfg.json: /min_garment_span: must be a number of metres between 0 and 100");
    // A rule may use a class the same file adds.
    EXPECT_EQ(error_of(R"({"schema": "weft.config/1", "classes": {"veil": {"patterns": ["veil"]}},
                           "garments": [{"material": "Tulle", "class": "veil"}]})"),
              "");
}

// "colliders" edits the fitted body colliders (docs/colliders.md#config): read in order, each with its
// pointer; the same document validates against the schema.
TEST(GarmentConfig, ColliderEditsAreReadInOrder) {
    const std::string text = R"({
        "schema": "weft.config/1",
        "colliders": [
            {"file": "Witch*", "bone": "Head", "edit": "remove"},
            {"bone": "Spine", "edit": "resize", "scale": 0.9},
            {"bone": "LeftUpLeg", "edit": "resize", "radius": 0.07},
            {"bone": "Hips", "edit": "add", "shape": "capsule", "radius": 0.1, "a": [-0.08, 0, 0], "b": [0.08, 0, 0.01]},
            {"bone": "Neck", "edit": "add", "shape": "sphere", "radius": 0.05, "a": [0, 0.02, 0]}
        ]
    })";
    EXPECT_EQ(test::schema_errors(text, "config.schema.json"), "");
    ConfigResult r = parse_garment_config(text, "cfg.json");
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.config.colliders.size(), 5u);
    const std::vector<ColliderRule>& c = r.config.colliders;
    EXPECT_EQ(c[0].file, "Witch*");
    EXPECT_EQ(c[0].edit, "remove");
    EXPECT_EQ(c[0].bone, "Head");
    EXPECT_EQ(c[1].scale, 0.9);
    EXPECT_FALSE(c[1].radius);
    EXPECT_EQ(c[2].radius, 0.07);
    EXPECT_EQ(c[3].shape, "capsule");
    EXPECT_EQ(c[3].a, (std::array<double, 3>{-0.08, 0, 0}));
    EXPECT_EQ(c[3].b, (std::array<double, 3>{0.08, 0, 0.01}));
    EXPECT_EQ(c[4].shape, "sphere");
    EXPECT_EQ(c[4].pointer, "/colliders/4");
}

TEST(GarmentConfig, ColliderEditErrorsNameTheFileAndTheEntry) {
    auto error_of = [](const std::string& colliders) {
        const std::string text = R"({"schema": "weft.config/1", "colliders": )" + colliders + "}";
        EXPECT_NE(test::schema_errors(text, "config.schema.json"), "") << colliders;  // the schema refuses it too
        return parse_garment_config(text, "cfg.json").error;
    };
    EXPECT_EQ(error_of(R"({"bone": "Head"})"), "cfg.json: /colliders: must be a list of collider edits");
    EXPECT_EQ(error_of(R"([{"edit": "remove"}])"), "cfg.json: /colliders/0/bone: must name the bone the collider rides");
    EXPECT_EQ(error_of(R"([{"bone": "Head", "edit": "delete"}])"),
              "cfg.json: /colliders/0/edit: \"delete\" is not \"add\", \"remove\" or \"resize\"");
    EXPECT_EQ(error_of(R"([{"bone": "Head", "edit": "remove", "colour": 1}])"),
              "cfg.json: /colliders/0/colour: unknown key (expected file, bone, edit, shape, radius, scale, a, b)");
    EXPECT_EQ(error_of(R"([{"bone": "Head", "edit": "remove", "radius": 0.1}])"),
              "cfg.json: /colliders/0/radius: a \"remove\" edit takes no radius");
    EXPECT_EQ(error_of(R"([{"bone": "Head", "edit": "remove"}, {"bone": "Spine", "edit": "resize"}])"),
              "cfg.json: /colliders/1: a \"resize\" edit takes one of \"radius\" (metres) or \"scale\" (a factor)");
    EXPECT_EQ(error_of(R"([{"bone": "Spine", "edit": "resize", "scale": -1}])"),
              "cfg.json: /colliders/0/scale: must be a number above 0 and at most 100");
    EXPECT_EQ(error_of(R"([{"bone": "Hips", "edit": "add", "shape": "box", "radius": 0.1, "a": [0, 0, 0]}])"),
              "cfg.json: /colliders/0/shape: must be \"sphere\" or \"capsule\"");
    EXPECT_EQ(error_of(R"([{"bone": "Hips", "edit": "add", "shape": "capsule", "radius": 0.1, "a": [0, 0, 0]}])"),
              "cfg.json: /colliders/0/b: a capsule needs its other end \"b\", [x, y, z] in the bone's space");
    EXPECT_EQ(error_of(R"([{"bone": "Hips", "edit": "add", "shape": "sphere", "a": [0, 0, 0]}])"),
              "cfg.json: /colliders/0/radius: an \"add\" edit needs the radius in metres");
    EXPECT_EQ(error_of(R"([{"bone": "Hips", "edit": "add", "shape": "sphere", "radius": 0.1, "a": [0, "x", 0]}])"),
              "cfg.json: /colliders/0/a/1: must be a number of metres between -100 and 100");
}

TEST(GarmentConfig, LoadNamesAMissingFile) {
    auto dir = test::scratch_dir("garment_config_load");
    ConfigResult missing = load_garment_config(dir / "nope.json");
    EXPECT_NE(missing.error.find("nope.json"), std::string::npos);
    ASSERT_EQ(write_file_atomic(dir / "ok.json", std::string_view(R"({"schema": "weft.config/1"})")), "");
    ConfigResult ok = load_garment_config(dir / "ok.json");
    EXPECT_EQ(ok.error, "");
    EXPECT_EQ(ok.config.classes.size(), default_garment_config().classes.size());
}

TEST(GlobMatch, StarsAndQuestionMarks) {
    EXPECT_TRUE(glob_match("*.glb", "Fox.glb"));
    EXPECT_FALSE(glob_match("*.glb", "Fox.gltf"));
    EXPECT_TRUE(glob_match("Fox?glb", "Fox.glb"));
    EXPECT_TRUE(glob_match("*", ""));
    EXPECT_TRUE(glob_match("a*b*c", "aXXbYYc"));
    EXPECT_FALSE(glob_match("a*b*c", "aXXbYY"));
    EXPECT_TRUE(glob_match("**x", "abx"));
    GarmentRule by_path;
    by_path.file = "*/kaykit_*/*.gltf";
    by_path.material = "texture";
    EXPECT_TRUE(rule_applies_to(by_path, "models/kaykit_banner_blue/banner_blue.gltf"));
    EXPECT_FALSE(rule_applies_to(by_path, "banner_blue.gltf"));
}

TEST(GlobMatch, FileGlobMatchesTheNameOrWithASlashThePath) {
    EXPECT_TRUE(file_matches("", "models/any.glb"));             // no glob: every file
    EXPECT_TRUE(file_matches("clip_*.glb", "testdata/clip_skeleton.glb"));  // the name alone
    EXPECT_FALSE(file_matches("testdata*", "testdata/clip_skeleton.glb"));
    EXPECT_TRUE(file_matches("testdata/*.glb", "testdata/clip_skeleton.glb"));  // a slash: the path
    EXPECT_FALSE(file_matches("testdata/*.glb", "clip_skeleton.glb"));
}

TEST(SelectClasses, KnownNamesInOrderUnknownRefused) {
    const auto classes = default_garment_config().classes;
    std::string error;
    EXPECT_EQ(select_classes("hair, Skirt,hair", classes, error), (std::vector<std::string>{"hair", "skirt"}));
    EXPECT_EQ(error, "");
    EXPECT_TRUE(select_classes("hair,gown", classes, error).empty());
    EXPECT_NE(error.find("unknown garment class \"gown\" (known: hair, skirt"), std::string::npos);
    error.clear();
    EXPECT_TRUE(select_classes(",", classes, error).empty());
    EXPECT_EQ(error, "--classes names no class");
}

}  // namespace
}  // namespace weft

namespace weft {
namespace {

TEST(GarmentConfig, HostileNestingKeysAndNumbersAreRefusedByPointer) {
    // A pin nested 100k deep (a recursive copy or dump of it ran out of stack): refused while
    // parsing, at its pointer.
    const ConfigResult deep = parse_garment_config(testdata::config_nested_pin(100000), "weft.json");
    EXPECT_NE(deep.error.find("weft.json: /garments/0/pin/x/0/0/0/0/0/0/0/0/0/0/0/0: nested deeper than 16"),
              std::string::npos)
        << deep.error;
    EXPECT_TRUE(parse_garment_config(testdata::config_nested_pin(8), "weft.json").error.empty());
    const ConfigResult twice =
        parse_garment_config(R"({"schema":"weft.config/1","garments":[{"mesh":"a","class":"cape","class":"none"}]})", "c.json");
    EXPECT_EQ(twice.error, "c.json: /garments/0/class: the key \"class\" is written twice in one object; keep one");
    const ConfigResult overflow = parse_garment_config(R"({"schema":"weft.config/1","min_garment_span":1e999})", "c.json");
    EXPECT_EQ(overflow.error.rfind("c.json: not valid JSON:", 0), 0u) << overflow.error;
    // 400k pinned vertices are a flat list: read, and kept for the sheet builder (which folds its
    // messages about them).
    const ConfigResult many = parse_garment_config(testdata::config_pin_list(400000, 0), "c.json");
    ASSERT_TRUE(many.error.empty()) << many.error.substr(0, 200);
    EXPECT_EQ(many.config.rules.at(0).pin["vertices"].size(), 400000u);
}

}  // namespace
}  // namespace weft
