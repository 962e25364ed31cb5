// Tails on bones nobody named, found by the skeleton's shape (garment/tail_shape.h), on the generated
// quadruped with Blender's default bone names (tools/testdata make_quadruped, animals/unnamed_tail.glb).
#include <gtest/gtest.h>

#include <algorithm>

#include "garment/config.h"
#include "garment/garments.h"
#include "garment/tail_body.h"
#include "garment/tail_shape.h"
#include "scene/import.h"
#include "support/paths.h"
#include "testdata/fixtures.h"

namespace weft {
namespace {

using testdata::make_quadruped;
using testdata::QuadrupedOptions;

QuadrupedOptions unnamed() {
    QuadrupedOptions o;
    o.unnamed_bones = true;
    return o;
}

std::string first_joint(const Scene& s, const Limb& limb) { return s.nodes[static_cast<size_t>(limb.joints.front())].name; }

TEST(TailByShape, TheLegsTheHeadAndTheTailAreToldApart) {
    const Scene s = make_quadruped(unnamed());
    const TailShape shape = measure_tail_shape(s);
    // Limbs: the four legs (one joint each, their skin down to the ground), the head, the tail.
    ASSERT_EQ(shape.limbs.size(), 6u);
    EXPECT_EQ(shape.legs, 4);
    EXPECT_TRUE(shape.quadruped);
    // The axis runs along the body (Z), from the back legs (z = -0.5) to the front (z = 0.5), or back.
    EXPECT_NEAR(std::fabs(shape.axis.z), 1.0, 1e-9);
    EXPECT_NEAR(shape.second_legs - shape.first_legs, 1.0, 1e-9);
    ASSERT_GE(shape.head, 0);
    EXPECT_EQ(first_joint(s, shape.limbs[static_cast<size_t>(shape.head)]), "Bone.003");  // the head
    ASSERT_GE(shape.tail, 0);
    const Limb& tail = shape.limbs[static_cast<size_t>(shape.tail)];
    EXPECT_EQ(first_joint(s, tail), "Bone.008");
    EXPECT_EQ(tail.joints.size(), 5u);
    EXPECT_FALSE(tail.leg);
    // The tail droops from 1.1 m: its tip 0.41 m lower, its skin 0.7 m over the legs' feet (0.05 m).
    EXPECT_GT(tail.lowest, 0.5);
    for (const Limb& limb : shape.limbs)
        if (limb.joints.size() == 1 && first_joint(s, limb) != "Bone.003") EXPECT_TRUE(limb.leg) << first_joint(s, limb);
}

TEST(TailByShape, AnUnnamedChainLeavingTheHipsIsATailThatSwings) {
    const Scene s = make_quadruped(unnamed());
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    const Chain& chain = found.chains[0];
    EXPECT_EQ(chain.name, "Bone.008");
    EXPECT_EQ(chain.class_name, "tail");
    EXPECT_EQ(chain.found_by, std::vector<std::string>{kFoundByShape});
    EXPECT_EQ(chain.joints.front(), s.find_node("Bone.008"));
    EXPECT_EQ(chain.joints.back(), s.find_node("Bone.012"));
    EXPECT_EQ(chain.parent, s.find_node("Bone.001"));  // the hips, the back legs' parent
    // Bone.012 sits at the tail's tip, the skin it carries ending there: its bone has no length past it.
    EXPECT_FALSE(chain.tip);
    EXPECT_NEAR(chain.length, 1.4, 1e-9);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].name, "Bone.008");
    EXPECT_EQ(found.garments[0].class_name, "tail");
    EXPECT_TRUE(found.garments[0].moves);
    EXPECT_TRUE(found.not_garments.empty());
}

// A tail whose last joint stands short of its tip, as Blender's bones do when the file keeps no end
// joint (the 2017 Red Fox's last bone is 1.7 m long): measured on to the end of the skin it carries.
TEST(TailByShape, ALastBoneShortOfTheTipIsMeasuredToTheSkinsEnd) {
    Scene s = make_quadruped(unnamed());
    // Move Bone.012 (the tip joint) back to Bone.011; the skin it carries still ends at the tip.
    const int tip = s.find_node("Bone.012"), before = s.find_node("Bone.011");
    s.nodes[static_cast<size_t>(tip)].local = Mat4::identity();
    s.nodes[static_cast<size_t>(tip)].world = s.nodes[static_cast<size_t>(before)].world;
    Skin& skin = s.skins[0];
    const size_t k = static_cast<size_t>(std::find(skin.joints.begin(), skin.joints.end(), tip) - skin.joints.begin());
    skin.inverse_bind[k] = s.nodes[static_cast<size_t>(before)].world.inverted();
    const std::optional<Chain> chain = find_tail_by_shape(s, {});
    ASSERT_TRUE(chain);
    ASSERT_TRUE(chain->tip);
    EXPECT_NEAR(chain->length, 1.4, 1e-6);  // 1.05 m of joints and 0.35 m on to the tip's pole
}

TEST(TailByShape, AThickUnnamedTailIsTheBody) {
    QuadrupedOptions o = unnamed();
    o.tail_root_radius = 0.28;
    const Scene s = make_quadruped(o);
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    EXPECT_TRUE(found.garments.empty());
    ASSERT_EQ(found.not_garments.size(), 1u);
    EXPECT_EQ(found.not_garments[0].name, "Bone.008");
    EXPECT_EQ(found.not_garments[0].not_garment_rule, kTailIsBodyRule);
}

TEST(TailByShape, ANamedTailIsNotLookedForAgain) {
    const Scene s = make_quadruped();
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    EXPECT_EQ(found.chains[0].found_by, std::vector<std::string>{kFoundByJointName});
    EXPECT_FALSE(find_tail_by_shape(s, found.chains));
}

TEST(TailByShape, AConfigRuleSayingNoneRejectsIt) {
    Scene s = make_quadruped(unnamed());
    s.source_path = "Dog.fbx";
    GarmentOptions options;
    ConfigResult config = parse_garment_config(
        R"({"schema": "weft.config/1", "garments": [{"file": "Dog*", "node": "Bone.008", "class": "none"}]})", "weft.json");
    ASSERT_EQ(config.error, "");
    options.config = config.config;
    EXPECT_TRUE(find_garments(s, options).chains.empty());
    EXPECT_TRUE(find_garments(s, options).garments.empty());
    // The rule names another file: the tail is found again.
    s.source_path = "Wolf.fbx";
    EXPECT_EQ(find_garments(s, options).garments.size(), 1u);
}

TEST(TailByShape, NoTailWithoutTwoPairsOfLegs) {
    // The same animal on its back legs only: the front legs lifted off the ground are no legs.
    Scene s = make_quadruped(unnamed());
    for (Mesh& mesh : s.meshes)
        for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
            Vec3& p = mesh.positions[v];
            if (p.z > 0.3 && p.y < 0.9 && std::fabs(p.x) > 0.05) p.y = 0.9;
        }
    const TailShape shape = measure_tail_shape(s);
    EXPECT_EQ(shape.legs, 2);
    EXPECT_FALSE(shape.quadruped);
    EXPECT_EQ(shape.tail, -1);
    EXPECT_TRUE(find_garments(s).chains.empty());
}

TEST(TailByShape, TheFixtureFileFindsItsTail) {
    const ImportResult imported = import_scene(test::testdata_dir() / "animals" / "unnamed_tail.glb");
    ASSERT_TRUE(imported.ok());
    const ModelGarments found = find_garments(imported.scene);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].name, "Bone.008");
    ASSERT_EQ(found.chains.size(), 1u);
    EXPECT_EQ(found.chains[0].found_by, std::vector<std::string>{kFoundByShape});
}

}  // namespace
}  // namespace weft
