// Collider edits from weft.json (docs/colliders.md#config): the config's "colliders" reach the fit of
// every model its file glob matches, in order; an edit that cannot apply is a warning naming the config
// file, the entry and the bone.
#include <gtest/gtest.h>

#include <algorithm>

#include "batch/bake_model.h"
#include "body/body_in_scene.h"
#include "support/paths.h"

namespace weft {
namespace {

const BodyCollider* collider_on(const ModelRecord& r, const std::string& bone) {
    auto it = std::find_if(r.body.colliders.begin(), r.body.colliders.end(), [&](const BodyCollider& c) { return c.bone == bone; });
    return it == r.body.colliders.end() ? nullptr : &*it;
}

ModelRecord fit_with(const std::string& config_text, const std::string& name) {
    ModelOptions options;
    options.grow_cloth = true;
    options.write_files = false;
    options.out_dir = test::scratch_dir("collider-config-" + name);
    if (!config_text.empty()) {
        ConfigResult config = parse_garment_config(config_text, "cfg.json");
        EXPECT_EQ(config.error, "");
        options.garments.config = config.config;
    }
    return bake_model(test::testdata_dir() / "mannequin.glb", options);
}

TEST(ColliderConfig, EditsReachTheFitInOrderAndSkippedOnesAreNamed) {
    const ModelRecord plain = fit_with("", "plain");
    ASSERT_TRUE(plain.imported);
    const BodyCollider* spine = collider_on(plain, "Spine");
    ASSERT_TRUE(spine && collider_on(plain, "Head"));

    const ModelRecord edited = fit_with(R"({"schema": "weft.config/1", "colliders": [
        {"file": "mannequin*.glb", "bone": "Head", "edit": "remove"},
        {"bone": "Spine", "edit": "resize", "scale": 0.5},
        {"bone": "Neck", "edit": "add", "shape": "sphere", "radius": 0.04, "a": [0, 0.03, 0]},
        {"bone": "Tail", "edit": "remove"},
        {"file": "Witch*", "bone": "Chest", "edit": "remove"}
    ]})", "edited");
    ASSERT_TRUE(edited.imported);
    EXPECT_FALSE(collider_on(edited, "Head"));
    EXPECT_TRUE(std::any_of(edited.body.left_out.begin(), edited.body.left_out.end(), [](const LeftOutCollider& l) {
        return l.bone == "Head" && l.reason == "removed by the config";
    }));
    ASSERT_TRUE(collider_on(edited, "Spine"));
    EXPECT_NEAR(collider_on(edited, "Spine")->radius, 0.5 * spine->radius, 1e-12);
    EXPECT_EQ(collider_on(edited, "Spine")->origin, "config");
    const BodyCollider* neck = collider_on(edited, "Neck");
    ASSERT_TRUE(neck);
    EXPECT_EQ(neck->shape, ColliderShape::sphere);
    EXPECT_EQ(neck->radius, 0.04);
    EXPECT_EQ(neck->a.y, 0.03);
    EXPECT_TRUE(collider_on(edited, "Chest"));  // that rule's file is another model
    // The bone the model lacks: one warning, naming the config, the entry and the bone.
    std::vector<std::string> skipped;
    for (const Issue& i : edited.issues)
        if (i.code == "COLLIDER_EDIT_SKIPPED") skipped.push_back(i.message);
    ASSERT_EQ(skipped.size(), 1u);
    EXPECT_NE(skipped[0].find("cfg.json /colliders/3: collider edit names bone 'Tail', which the model does not have"),
              std::string::npos)
        << skipped[0];
    // The body validation collides with is the edited one: Head's capsule gone, Neck's capsule a sphere now.
    EXPECT_EQ(body_shapes(edited.scene, edited.body).spheres.size(), body_shapes(plain.scene, plain.body).spheres.size() + 1);
}

}  // namespace
}  // namespace weft
