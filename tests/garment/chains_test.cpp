#include <gtest/gtest.h>

#include "garment/chains.h"
#include "garment/config.h"
#include "scene/invariants.h"
#include "scene_builder.h"

namespace weft {
namespace {

using test::add_node;
using test::add_skin;

std::vector<std::string> names(const Scene& s, const std::vector<int>& nodes) {
    std::vector<std::string> r;
    for (int n : nodes) r.push_back(s.nodes[static_cast<size_t>(n)].name);
    return r;
}

ChainOptions all_classes() { return {default_garment_config().classes, {}}; }

// Hips -> Spine -> Head, two hair strands under Head (3 and 2 joints, 10 cm apart each), and a
// skirt hub under Hips with front and back panels.
struct Rigged {
    Scene s = test::empty_scene();
    int hips, spine, head, skirt_hub;
    Rigged() {
        hips = add_node(s, "Hips", 0, {0, 1.0, 0});
        spine = add_node(s, "Spine", hips, {0, 0.3, 0});
        head = add_node(s, "Head", spine, {0, 0.3, 0});
        int h01 = add_node(s, "Hair_0_1", head, {0.05, 0, 0});
        int h02 = add_node(s, "Hair_0_2", h01, {0, -0.1, 0});
        int h03 = add_node(s, "Hair_0_3", h02, {0, -0.1, 0});
        int h11 = add_node(s, "Hair_1_1", head, {-0.05, 0, 0});
        int h12 = add_node(s, "Hair_1_2", h11, {0, -0.1, 0});
        skirt_hub = add_node(s, "Skirt", hips, {0, -0.05, 0});
        int f1 = add_node(s, "Skirt_F_1", skirt_hub, {0, 0, 0.1});
        int f2 = add_node(s, "Skirt_F_2", f1, {0, -0.2, 0.05});
        int b1 = add_node(s, "Skirt_B_1", skirt_hub, {0, 0, -0.1});
        int b2 = add_node(s, "Skirt_B_2", b1, {0, -0.2, -0.05});
        add_skin(s, {hips, spine, head, h01, h02, h03, h11, h12, skirt_hub, f1, f2, b1, b2});
    }
};

TEST(FindChains, ByJointNameRootToTipWithParentAndLength) {
    Rigged r;
    std::vector<Chain> chains = find_chains(r.s, all_classes());
    ASSERT_EQ(chains.size(), 4u);
    // Ordered by root node index: hair strands (under Head) before the skirt hub's panels.
    EXPECT_EQ(names(r.s, chains[0].joints), (std::vector<std::string>{"Hair_0_1", "Hair_0_2", "Hair_0_3"}));
    EXPECT_EQ(chains[0].class_name, "hair");
    EXPECT_EQ(chains[0].parent, r.head);
    EXPECT_NEAR(chains[0].length, 0.2, 1e-12);
    EXPECT_EQ(chains[0].found_by, (std::vector<std::string>{"joint_name"}));
    EXPECT_EQ(names(r.s, chains[1].joints), (std::vector<std::string>{"Hair_1_1", "Hair_1_2"}));
    EXPECT_NEAR(chains[1].length, 0.1, 1e-12);
    // A hub with two garment children: one chain per root-to-tip path, the hub in each.
    EXPECT_EQ(names(r.s, chains[2].joints), (std::vector<std::string>{"Skirt", "Skirt_F_1", "Skirt_F_2"}));
    EXPECT_EQ(names(r.s, chains[3].joints), (std::vector<std::string>{"Skirt", "Skirt_B_1", "Skirt_B_2"}));
    EXPECT_EQ(chains[2].class_name, "skirt");
    EXPECT_EQ(chains[2].parent, r.hips);
    EXPECT_NEAR(chains[2].length, 0.1 + std::sqrt(0.2 * 0.2 + 0.05 * 0.05), 1e-12);
}

TEST(FindChains, SelectedClassesOnly) {
    Rigged r;
    ChainOptions options = all_classes();
    options.selected = {"skirt"};
    std::vector<Chain> chains = find_chains(r.s, options);
    ASSERT_EQ(chains.size(), 2u);
    EXPECT_EQ(chains[0].class_name, "skirt");
    EXPECT_EQ(chains[1].class_name, "skirt");
}

TEST(FindChains, NoGarmentJointsNoChains) {
    Scene s = test::empty_scene();
    int hips = add_node(s, "Hips", 0, {0, 1, 0});
    int chair = add_node(s, "Chair_Bone", hips, {0, 0.1, 0});  // "Chair" is not hair
    add_skin(s, {hips, chair});
    EXPECT_TRUE(find_chains(s, all_classes()).empty());
}

TEST(FindChains, NodesOutsideTheSkinAreNotBones) {
    Scene s = test::empty_scene();
    int chest = add_node(s, "chest", 0, {0, 1.3, 0});
    add_node(s, "Knight_Cape", chest, {0, 0, -0.1});  // a mesh node parented to a bone
    add_skin(s, {chest});
    EXPECT_TRUE(find_chains(s, all_classes()).empty());
}

TEST(FindChains, Vrm0RootsWalkDownAndMergeWithNameFoundChains) {
    Scene s = test::empty_scene();
    int head = add_node(s, "head_Armature", 0, {0, 1.5, 0});
    int fh = add_node(s, "FrontHair_L", head, {0.03, 0.05, 0.08});
    int fh_end = add_node(s, "FrontHair_L_End", fh, {0, -0.06, 0});
    int chest = add_node(s, "chest_Armature", 0, {0, 1.2, 0});
    int bust = add_node(s, "Bust_L", chest, {0.08, 0, 0.1});
    int bust_end = add_node(s, "Bust_L_End", bust, {0, 0, 0.04});
    add_skin(s, {head, fh, fh_end, chest, bust, bust_end});
    s.springs.push_back({"", "VRM0.secondaryAnimation", {fh}, {}, {}});
    s.springs.push_back({"", "VRM0.secondaryAnimation", {bust}, {}, {}});
    std::vector<Chain> chains = find_chains(s, all_classes());
    ASSERT_EQ(chains.size(), 2u);
    EXPECT_EQ(names(s, chains[0].joints), (std::vector<std::string>{"FrontHair_L", "FrontHair_L_End"}));
    EXPECT_EQ(chains[0].found_by, (std::vector<std::string>{"joint_name", "VRM0.secondaryAnimation"}));
    EXPECT_NEAR(chains[0].length, 0.06, 1e-12);
    // A declared chain whose names say no class is a spring chain, still reported.
    EXPECT_EQ(names(s, chains[1].joints), (std::vector<std::string>{"Bust_L", "Bust_L_End"}));
    EXPECT_EQ(chains[1].class_name, "spring");
    EXPECT_EQ(chains[1].parent, chest);
    EXPECT_EQ(chains[1].found_by, (std::vector<std::string>{"VRM0.secondaryAnimation"}));

    ChainOptions hair_only = all_classes();
    hair_only.selected = {"hair"};
    EXPECT_EQ(find_chains(s, hair_only).size(), 1u);
}

TEST(FindChains, Vrm1ListsJointsOfNodesThatAreNotSkinJoints) {
    // three-vrm's sphere-collider example: five nodes Spring A..E, 2 m apart, no skin at all.
    Scene s = test::empty_scene("sphere-collider.gltf");
    int a = add_node(s, "Spring A", 0, {0, 2, 0});
    int b = add_node(s, "Spring B", a, {0, -2, 0});
    int c = add_node(s, "Spring C", b, {0, -2, 0});
    int d = add_node(s, "Spring D", c, {0, -2, 0});
    int e = add_node(s, "Spring E", d, {0, -2, 0});
    s.springs.push_back({"", "VRMC_springBone", {}, {a, b, c, d, e}, {}});
    std::vector<Chain> chains = find_chains(s, all_classes());
    ASSERT_EQ(chains.size(), 1u);
    EXPECT_EQ(names(s, chains[0].joints),
              (std::vector<std::string>{"Spring A", "Spring B", "Spring C", "Spring D", "Spring E"}));
    EXPECT_EQ(chains[0].class_name, "spring");
    EXPECT_EQ(chains[0].parent, 0);
    EXPECT_NEAR(chains[0].length, 8.0, 1e-12);
}

TEST(FindChains, InvalidDeclaredNodesAreSkipped) {
    Scene s = test::empty_scene();
    int a = add_node(s, "Tail1", 0, {0, 1, 0});
    s.springs.push_back({"", "VRMC_springBone", {}, {a, 99, -1}, {}});
    s.springs.push_back({"", "VRM0.secondaryAnimation", {-5, 1000}, {}, {}});
    // The importer drops them (scene/invariants.h); find_chains reads only what it keeps.
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    EXPECT_EQ(issues.size(), 2u);
    std::vector<Chain> chains = find_chains(s, all_classes());
    ASSERT_EQ(chains.size(), 1u);
    EXPECT_EQ(chains[0].class_name, "tail");
    EXPECT_EQ(chains[0].joints, (std::vector<int>{a}));
    EXPECT_EQ(chains[0].length, 0.0);
}

TEST(FindChains, LengthIsMeasuredInTheBindPose) {
    Scene s = test::empty_scene();
    int head = add_node(s, "Head", 0, {0, 1.5, 0});
    int t1 = add_node(s, "Tail1", head, {0, 0, 0});
    int t2 = add_node(s, "Tail2", t1, {0, -0.2, 0});
    add_skin(s, {head, t1, t2});
    // Move the rest pose of the tip away from the bind pose: the bind pose (the pose the skinned
    // mesh positions are in) decides the length.
    s.nodes[static_cast<size_t>(t2)].world = Mat4::translation({5, 5, 5});
    std::vector<Chain> chains = find_chains(s, all_classes());
    ASSERT_EQ(chains.size(), 1u);
    EXPECT_NEAR(chains[0].length, 0.2, 1e-12);
}

}  // namespace
}  // namespace weft
