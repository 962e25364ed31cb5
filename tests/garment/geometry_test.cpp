// Garments found by geometry (garment/geometry.h) and the classes found by name with word
// boundaries: on the project's shared-skirt mannequin, on the shared third-party models (every
// garment a person would name, and no other), and with config rules that confirm, rename or reject.
#include <gtest/gtest.h>

#include <set>

#include "garment/config.h"
#include "garment/garments.h"
#include "garment/geometry.h"
#include "scene/import.h"
#include "support/paths.h"

namespace weft {
namespace {

ModelGarments garments_of_file(const std::filesystem::path& file, const GarmentOptions& options = {}) {
    ImportResult imported = import_scene(file);
    EXPECT_TRUE(imported.ok()) << file;
    return find_garments(imported.scene, options);
}

const Garment* geometry_garment(const ModelGarments& found, const std::string& cls) {
    for (const Garment& g : found.garments)
        if (g.matched_by == kMatchedByGeometry && g.class_name == cls) return &g;
    return nullptr;
}

double measurement(const Garment& g, const std::string& name) {
    for (const auto& [key, value] : g.geometry_measurements)
        if (key == name) return value;
    return NAN;
}

TEST(GarmentNames, NewClassesRespectWordBoundaries) {
    const std::vector<GarmentClass> classes = default_garment_classes();
    auto cls = [&](std::string_view name) {
        const int c = classify_name(name, classes);
        return c < 0 ? std::string("-") : classes[static_cast<size_t>(c)].name;
    };
    EXPECT_EQ(cls("Tie"), "necktie");
    EXPECT_EQ(cls("NeckTie_01"), "necktie");
    EXPECT_EQ(cls("Tied_Rope"), "-");    // "tied" is not "tie"
    EXPECT_EQ(cls("Attire"), "-");       // nor is "attire"
    EXPECT_EQ(cls("Wardrobe"), "-");     // "robe" only as a word
    EXPECT_EQ(cls("Robes"), "robe");
    EXPECT_EQ(cls("Dress_Red"), "dress");
    EXPECT_EQ(cls("Address"), "-");
    EXPECT_EQ(cls("Apron"), "apron");
    EXPECT_EQ(cls("Tassels_L"), "tassel");
    EXPECT_EQ(cls("Ponytail_L"), "hair");
    EXPECT_EQ(cls("BraidLeft"), "hair");
    EXPECT_EQ(cls("CoatTails"), "coat_tails");
    EXPECT_EQ(cls("Scarf"), "scarf");
    // Each class says its fabric and how it moves with no chains.
    for (const GarmentClass& c : classes) {
        EXPECT_FALSE(c.fabric.empty()) << c.name;
        EXPECT_TRUE(c.growth == "strands" || c.growth == "wedges" || c.growth == "sheet") << c.name;
    }
    EXPECT_EQ(classes[static_cast<size_t>(find_class(classes, "dress"))].growth, "wedges");
    EXPECT_EQ(classes[static_cast<size_t>(find_class(classes, "necktie"))].fabric, "silk");
}

TEST(GarmentGeometry, SharedSkirtFixtureFindsItsSkirtAndLeavesTheBody) {
    const ModelGarments found = garments_of_file(test::testdata_dir() / "mannequin_shared_skirt.glb");
    const Garment* skirt = geometry_garment(found, "skirt");
    ASSERT_NE(skirt, nullptr) << found.verdict;
    // The band is 6 rings of 24 vertices; nothing of the body (the torso's closed crotch bridges
    // the legs too, but its hem is 90 mm below the hip joints, a fifth of a thigh) comes with it.
    EXPECT_EQ(skirt->vertex_count, 144u);
    EXPECT_EQ(skirt->pieces, 1u);
    EXPECT_EQ(skirt->matched_name, "Body");
    EXPECT_NEAR(measurement(*skirt, "hem_below_crotch"), 0.30, 0.01);
    EXPECT_GE(measurement(*skirt, "bridge_vertices"), 2);
    EXPECT_NE(found.verdict.find("1 found by geometry (skirt)"), std::string::npos) << found.verdict;
}

TEST(GarmentGeometry, ConfigConfirmsRenamesOrRejects) {
    const auto file = test::testdata_dir() / "mannequin_shared_skirt.glb";
    auto with_rule = [&](const std::string& cls) {
        ConfigResult c = parse_garment_config(
            R"({"schema": "weft.config/1", "garments": [{"file": "mannequin*", "geometry": "skirt", "class": ")" + cls +
                R"(", "fabric": "silk"}]})",
            "cfg.json");
        EXPECT_EQ(c.error, "");
        GarmentOptions o;
        o.config = c.config;
        return garments_of_file(file, o);
    };
    const ModelGarments renamed = with_rule("dress");
    const Garment* dress = geometry_garment(renamed, "dress");
    ASSERT_NE(dress, nullptr);
    EXPECT_EQ(dress->geometry_class, "skirt");
    EXPECT_EQ(dress->fabric, "silk");
    EXPECT_EQ(dress->rule_target, "geometry skirt");
    const ModelGarments rejected = with_rule("none");
    EXPECT_EQ(geometry_garment(rejected, "skirt"), nullptr);
    ASSERT_EQ(rejected.not_garments.size(), 1u);
    EXPECT_NE(rejected.not_garments[0].not_garment_reason.find("/garments/0"), std::string::npos);
}

TEST(GarmentGeometry, WitchSkirtOnSharedMaterialHatAndTopStayBody) {
    WEFT_REQUIRE_SHARED_MODEL(path, "quaternius_umw_Witch.gltf");
    ImportResult imported = import_scene(path);
    ASSERT_TRUE(imported.ok());
    const Scene& scene = imported.scene;
    const ModelGarments found = find_garments(scene);
    const Garment* skirt = geometry_garment(found, "skirt");
    ASSERT_NE(skirt, nullptr) << found.verdict;
    EXPECT_EQ(skirt->matched_name, "Purple");
    // Only the Purple primitive on the legs' node: the hat (head) and top (body) are Purple too.
    ASSERT_EQ(skirt->parts.size(), 1u);
    EXPECT_EQ(scene.meshes[static_cast<size_t>(skirt->parts[0].mesh)].node_name, "Witch_Legs");
    EXPECT_GE(skirt->vertex_count, 300u);
    EXPECT_LE(skirt->vertex_count, 306u);
    EXPECT_GT(skirt->bounds.min.y, 0.75);  // from the hips to above the knees
    EXPECT_LT(skirt->bounds.max.y, 1.15);
    EXPECT_EQ(found.garments.size(), 2u);  // Hair_Black by its slot, the skirt
}

TEST(GarmentGeometry, NoSharedModelGainsAFalseGarment) {
    // Every garment a person would name on each shared model, as "class:found_by", and nothing else.
    const std::vector<std::pair<std::string, std::multiset<std::string>>> expected = {
        {"100avatars_cool_loops.vrm", {}},
        {"Godette_vrm_v4.vrm", {"hair:chain", "ribbon:chain"}},
        {"assimp_huesitos.fbx", {}},
        {"kaykit_Knight.glb", {"cape:node"}},
        {"quaternius_Couch_Medium2.glb", {}},
        {"quaternius_Goal_Flag.glb", {"flag:material"}},
        {"quaternius_Hair_Long.fbx", {"hair:material"}},
        {"quaternius_Superhero_Female_FullBody.fbx", {}},
        {"quaternius_animals_Fox.glb", {"tail:chain"}},
        {"quaternius_men_Casual.glb", {"hair:material"}},
        {"quaternius_umw_Witch.gltf", {"hair:material", "skirt:geometry"}},
        {"kaykit_banner_blue/banner_blue.gltf", {"banner:mesh"}},
        {"threevrm_sphere_collider/sphere-collider.gltf", {"spring:chain"}},
    };
    for (const auto& [file, classes] : expected) {
        const std::filesystem::path path = test::shared_model(file);
        if (path.empty()) continue;
        const ModelGarments found = garments_of_file(path);
        std::multiset<std::string> got;
        for (const Garment& g : found.garments) got.insert(g.class_name + ":" + g.matched_by);
        EXPECT_EQ(got, classes) << file << ": " << found.verdict;
    }
}

}  // namespace
}  // namespace weft
