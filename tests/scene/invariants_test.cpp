// enforce_scene_invariants on hand-built scenes: one that keeps every invariant passes untouched,
// one that breaks each invariant is refused (with its code, naming the file and the element) or
// repaired (with the repaired numbers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "scene/invariants.h"
#include "testdata/mesh_build.h"

namespace weft {
namespace {

/// root(0) -> hip(1) -> thigh(2) -> shin(3); one skin over hip, thigh, shin; one skinned triangle.
Scene good_leg() {
    Scene s;
    s.source_path = "leg.glb";
    testdata::add_node(s, "root", -1, Mat4::translation({0, 0, 0}));
    testdata::add_node(s, "hip", 0, Mat4::translation({0, 1, 0}));
    testdata::add_node(s, "thigh", 1, Mat4::translation({0.1, 0, 0}));
    testdata::add_node(s, "shin", 2, Mat4::translation({0, -0.4, 0}));
    s.materials = {"Pants"};
    Skin skin;
    skin.name = "legskin";
    skin.joints = {1, 2, 3};
    for (int j : skin.joints) skin.inverse_bind.push_back(s.nodes[size_t(j)].world.inverted());
    s.skins.push_back(skin);
    Mesh m;
    m.name = "Pants";
    m.node_name = "root";
    m.node = 0;
    m.material = 0;
    m.skin = 0;
    m.positions = {{0, 1, 0}, {0.1, 0.6, 0}, {0.1, 0.2, 0}};
    m.indices = {0, 1, 2};
    m.influence_offsets = {0, 1, 3, 4};
    m.influences = {{0, 1.0f}, {1, 0.75f}, {2, 0.25f}, {2, 1.0f}};
    s.meshes.push_back(m);
    s.nodes[0].meshes.push_back(0);
    return s;
}

const Issue* issue(const Issues& issues, const std::string& code) {
    for (const Issue& i : issues)
        if (i.code == code) return &i;
    return nullptr;
}

bool mentions(const Issue* i, const std::string& text) { return i && i->message.find(text) != std::string::npos; }

TEST(SceneInvariants, AKeptSceneIsLeftBitForBit) {
    Scene s = good_leg();
    const Scene before = s;
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    EXPECT_TRUE(issues.empty());
    EXPECT_EQ(s.meshes[0].influence_offsets, before.meshes[0].influence_offsets);
    for (size_t k = 0; k < s.meshes[0].influences.size(); ++k) {
        EXPECT_EQ(s.meshes[0].influences[k].joint, before.meshes[0].influences[k].joint);
        EXPECT_EQ(s.meshes[0].influences[k].weight, before.meshes[0].influences[k].weight);
    }
    for (size_t j = 0; j < 3; ++j) EXPECT_EQ(s.skins[0].inverse_bind[j].m, before.skins[0].inverse_bind[j].m);
}

TEST(SceneInvariants, ParentOutOfRangeIsRefused) {
    Scene s = good_leg();
    s.nodes[3].parent = 9;
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(s, issues));
    const Issue* i = issue(issues, "SCENE_REFERENCE_INVALID");
    ASSERT_TRUE(i);
    EXPECT_EQ(i->severity, Severity::error);
    EXPECT_TRUE(mentions(i, "leg.glb: node 'shin' (index 3) names parent 9 of 4 nodes")) << i->message;
}

TEST(SceneInvariants, AParentCycleIsRefused) {
    Scene s = good_leg();
    // hip <-> thigh: each the other's parent and child; root keeps no child.
    s.nodes[0].children.clear();
    s.nodes[1].parent = 2;
    s.nodes[2].children.push_back(1);
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(s, issues));
    EXPECT_TRUE(mentions(issue(issues, "SCENE_REFERENCE_INVALID"), "is its own ancestor")) << issues.size();
}

TEST(SceneInvariants, AChildListThatDisagreesWithTheParentsIsRefused) {
    Scene s = good_leg();
    s.nodes[0].children.push_back(3);  // shin's parent is thigh, not root
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(s, issues));
    EXPECT_TRUE(mentions(issue(issues, "SCENE_REFERENCE_INVALID"), "node 'root' (index 0) lists child 3"));
}

TEST(SceneInvariants, MeshSkinMaterialOrNodeOutOfRangeIsRefused) {
    for (int which = 0; which < 3; ++which) {
        Scene s = good_leg();
        (which == 0 ? s.meshes[0].skin : which == 1 ? s.meshes[0].material : s.meshes[0].node) = 5;
        Issues issues;
        EXPECT_FALSE(enforce_scene_invariants(s, issues)) << which;
        EXPECT_TRUE(mentions(issue(issues, "SCENE_REFERENCE_INVALID"), "mesh 'Pants'")) << which;
    }
}

TEST(SceneInvariants, ASkinJointThatIsNoNodeIsRefused) {
    Scene s = good_leg();
    s.skins[0].joints[2] = 40;
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(s, issues));
    EXPECT_TRUE(mentions(issue(issues, "SCENE_REFERENCE_INVALID"), "skin 'legskin' joint 2 names node 40 of 4"));
}

TEST(SceneInvariants, ATriangleIndexPastTheVerticesIsRefusedByName) {
    Scene s = good_leg();
    s.meshes[0].indices[2] = 7;
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(s, issues));
    const Issue* i = issue(issues, "INDEX_OUT_OF_RANGE");
    ASSERT_TRUE(i);
    EXPECT_EQ(i->message,
              "leg.glb: mesh 'Pants' (node 'root', material 'Pants'): triangle 0 names vertex 7 but the mesh has 3 "
              "vertices; re-export the mesh");
    EXPECT_EQ(i->pointer, "/meshes/Pants/triangles/0");
}

TEST(SceneInvariants, AnInfluenceOutsideItsSkinIsRefused) {
    Scene s = good_leg();
    s.meshes[0].influences[2].joint = 3;  // the skin has joints 0..2
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(s, issues));
    const Issue* i = issue(issues, "JOINT_OUT_OF_RANGE");
    EXPECT_TRUE(mentions(i, "mesh 'Pants' (node 'root', material 'Pants'): vertex 1 is weighted to joint 3 but its skin "
                            "has 3 joints"));
    EXPECT_EQ(i ? i->pointer : "", "/meshes/Pants/vertices/1");
}

TEST(SceneInvariants, ANegativeOrNaNWeightIsRefused) {
    for (float bad : {-0.5f, std::nanf("")}) {
        Scene s = good_leg();
        s.meshes[0].influences[1].weight = bad;
        Issues issues;
        EXPECT_FALSE(enforce_scene_invariants(s, issues));
        EXPECT_TRUE(mentions(issue(issues, "WEIGHT_INVALID"), "vertex 1 weight on joint 1 is"));
    }
}

TEST(SceneInvariants, BrokenInfluenceOffsetsAreRefused) {
    Scene s = good_leg();
    s.meshes[0].influence_offsets = {0, 1, 3};  // three vertices need four offsets
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(s, issues));
    EXPECT_TRUE(mentions(issue(issues, "SCENE_REFERENCE_INVALID"), "influence offsets do not cover its 3 vertices"));
}

TEST(SceneInvariants, WeightsNotSummingToOneAreNormalisedAndReported) {
    Scene s = good_leg();
    s.meshes[0].influences[1].weight = 0.5f;  // vertex 1: 0.5 + 0.3 = 0.8
    s.meshes[0].influences[2].weight = 0.3f;
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    const Mesh& m = s.meshes[0];
    ASSERT_EQ(m.influence_offsets, (std::vector<uint32_t>{0, 1, 3, 4}));
    EXPECT_EQ(m.influences[1].joint, 1u);
    EXPECT_FLOAT_EQ(m.influences[1].weight, 0.625f);  // 0.5 / 0.8
    EXPECT_EQ(m.influences[2].joint, 2u);
    EXPECT_FLOAT_EQ(m.influences[2].weight, 0.375f);  // 0.3 / 0.8
    EXPECT_EQ(m.influences[0].weight, 1.0f);           // vertices 0 and 2 untouched
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].code, "WEIGHTS_NORMALISED");
    EXPECT_EQ(issues[0].severity, Severity::info);
    EXPECT_TRUE(mentions(&issues[0], "leg.glb: mesh 'Pants' (node 'root', material 'Pants'): 1 vertices"));
    EXPECT_TRUE(mentions(&issues[0], "(first: vertex 1)"));
    EXPECT_EQ(issues[0].pointer, "/meshes/Pants/vertices/1");
}

// docs/bad-inputs.md#numbers-from-a-file: weights summing far from 1, either way, keep their proportions
// (what a skinning shader that normalises reads): 1,000 and 3,000, or 1e-9 and 3e-9, become 0.25 and 0.75.
TEST(SceneInvariants, WeightsSummingFarFromOneKeepTheirProportions) {
    for (const float scale : {1000.0f, 1e-9f}) {
        SCOPED_TRACE(scale);
        Scene s = good_leg();
        s.meshes[0].influences[1].weight = 1 * scale;
        s.meshes[0].influences[2].weight = 3 * scale;
        Issues issues;
        ASSERT_TRUE(enforce_scene_invariants(s, issues));
        const Mesh& m = s.meshes[0];
        ASSERT_EQ(m.influence_offsets, (std::vector<uint32_t>{0, 1, 3, 4}));
        EXPECT_EQ(m.influences[1].joint, 2u);  // heaviest first
        EXPECT_FLOAT_EQ(m.influences[1].weight, 0.75f);
        EXPECT_FLOAT_EQ(m.influences[2].weight, 0.25f);
        ASSERT_EQ(issues.size(), 1u);
        EXPECT_EQ(issues[0].code, "WEIGHTS_NORMALISED");
    }
}

TEST(SceneInvariants, ASumWithinTheToleranceIsLeftAlone) {
    Scene s = good_leg();
    s.meshes[0].influences[1].weight = 0.7505f;  // 1.0005: float rounding, not a broken file
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    EXPECT_TRUE(issues.empty());
    EXPECT_EQ(s.meshes[0].influences[1].weight, 0.7505f);
}

TEST(SceneInvariants, RepeatedJointsAndZeroWeightsAreMergedAndDropped) {
    Scene s = good_leg();
    // vertex 1: joint 1 twice (0.25 + 0.25), a zero on joint 0, joint 2 at 0.5.
    s.meshes[0].influence_offsets = {0, 1, 5, 6};
    s.meshes[0].influences = {{0, 1.0f}, {1, 0.25f}, {0, 0.0f}, {2, 0.5f}, {1, 0.25f}, {2, 1.0f}};
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    const Mesh& m = s.meshes[0];
    ASSERT_EQ(m.influence_offsets, (std::vector<uint32_t>{0, 1, 3, 4}));
    // Equal weights: the lower joint first.
    EXPECT_EQ(m.influences[1].joint, 1u);
    EXPECT_EQ(m.influences[1].weight, 0.5f);
    EXPECT_EQ(m.influences[2].joint, 2u);
    EXPECT_EQ(m.influences[2].weight, 0.5f);
    EXPECT_TRUE(issue(issues, "WEIGHTS_NORMALISED"));
}

TEST(SceneInvariants, MoreThanTheBoundKeepsTheHeaviestRenormalised) {
    Scene s = good_leg();
    // Ten joints on the root, vertex 0 weighted 10, 9, ..., 1 (sum 55) onto joints 0..9.
    for (int j = 0; j < 10; ++j) {
        Node n;
        n.name = "extra" + std::to_string(j);
        n.parent = 0;
        s.nodes[0].children.push_back(int(s.nodes.size()));
        s.nodes.push_back(n);
    }
    Skin& skin = s.skins[0];
    skin.joints.clear();
    skin.inverse_bind.clear();
    for (int j = 0; j < 10; ++j) {
        skin.joints.push_back(4 + j);
        skin.inverse_bind.push_back(Mat4::identity());
    }
    Mesh& m = s.meshes[0];
    m.influence_offsets = {0, 10, 10, 10};
    m.influences.clear();
    for (uint32_t j = 0; j < 10; ++j) m.influences.push_back({j, float(10 - j)});
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    ASSERT_EQ(m.influence_offsets, (std::vector<uint32_t>{0, 8, 8, 8}));
    ASSERT_EQ(kMaxInfluences, 8u);
    // Kept: 10..3, sum 52.
    double sum = 0;
    for (uint32_t k = 0; k < 8; ++k) {
        EXPECT_EQ(m.influences[k].joint, k);
        EXPECT_FLOAT_EQ(m.influences[k].weight, float((10.0 - k) / 52.0));
        sum += m.influences[k].weight;
    }
    EXPECT_NEAR(sum, 1.0, 1e-6);
    EXPECT_TRUE(mentions(issue(issues, "WEIGHTS_NORMALISED"), "more than 8 influences"));
}

TEST(SceneInvariants, AnInverseBindOffTheRestPoseIsReplacedByIt) {
    Scene s = good_leg();
    s.skins[0].inverse_bind[1] = Mat4::translation({0, 5, 0});  // thigh: a bind pose of its own
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    const Mat4 product = s.skins[0].inverse_bind[1] * s.nodes[2].world;
    for (int k = 0; k < 16; ++k) EXPECT_NEAR(product.m[k], Mat4::identity().m[k], 1e-12);
    EXPECT_NEAR(s.skins[0].inverse_bind[1].translation_part().y, -1.0, 1e-12);  // thigh rests at y = 1
}

TEST(SceneInvariants, ANonFiniteInverseBindIsRefused) {
    Scene s = good_leg();
    s.skins[0].inverse_bind[0].m[13] = NAN;
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(s, issues));
    EXPECT_TRUE(mentions(issue(issues, "NON_FINITE_TRANSFORM"), "joint 'hip'"));
}

TEST(SceneInvariants, AnUnskinnedMeshLosesStrayInfluences) {
    Scene s = good_leg();
    s.meshes[0].skin = -1;
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    EXPECT_TRUE(s.meshes[0].influences.empty());
    EXPECT_TRUE(s.meshes[0].influence_offsets.empty());
}

TEST(SceneInvariants, SpringNodesTheSceneLacksAreDropped) {
    Scene s = good_leg();
    s.springs.push_back({"tail", "VRMC_springBone", {}, {2, 3, 11}, {}});
    s.colliders.push_back({12, {}, 0.1, {}});
    s.colliders.push_back({1, {}, 0.1, {}});
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    EXPECT_EQ(s.springs[0].joints, (std::vector<int>{2, 3}));
    ASSERT_EQ(s.colliders.size(), 1u);
    EXPECT_EQ(s.colliders[0].node, 1);
    EXPECT_EQ(std::count_if(issues.begin(), issues.end(), [](const Issue& i) { return i.code == "SPRING_INVALID"; }), 2);
}

}  // namespace
}  // namespace weft
