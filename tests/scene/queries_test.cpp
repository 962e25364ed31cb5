// The questions every stage asks of a Scene (scene/hierarchy.h, influences.h, bind_pose.h,
// skinning.h), answered on a hand-built scene and checked against hand computations.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "scene/bind_pose.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"
#include "scene/skinning.h"
#include "testdata/mesh_build.h"

namespace weft {
namespace {

/// root(0) -> spine(1) -> { arm(2) -> hand(3), head(4) }; one skin over spine and arm.
Scene small_rig() {
    Scene s;
    testdata::add_node(s, "root", -1, Mat4::translation({0, 0, 0}));
    testdata::add_node(s, "spine", 0, Mat4::translation({0, 1, 0}));
    testdata::add_node(s, "arm", 1, Mat4::translation({0.2, 0.3, 0}));
    testdata::add_node(s, "hand", 2, Mat4::translation({0.3, 0, 0}));
    testdata::add_node(s, "head", 1, Mat4::translation({0, 0.5, 0}));
    Skin skin;
    skin.joints = {1, 2};
    for (int j : skin.joints) skin.inverse_bind.push_back(s.nodes[size_t(j)].world.inverted());
    s.skins.push_back(skin);
    Mesh m;
    m.name = "body";
    m.node = 0;
    m.skin = 0;
    m.positions = {{0, 1, 0}, {1, 2, 3}, {0, 0, 0}};
    m.influence_offsets = {0, 1, 4, 4};
    // Vertex 1: a zero weight (as grow leaves one) between the two real ones.
    m.influences = {{0, 1.0f}, {0, 0.25f}, {1, 0.0f}, {1, 0.75f}};
    s.meshes.push_back(m);
    Mesh prop;
    prop.name = "hat";
    prop.node = 4;
    prop.positions = {{0, 2, 0}};
    s.meshes.push_back(prop);
    return s;
}

std::vector<int> collect(const NodeChain& chain) {
    std::vector<int> out;
    for (int n : chain) out.push_back(n);
    return out;
}

TEST(SceneQueries, ParentAndChainUpToTheRoot) {
    const Scene s = small_rig();
    EXPECT_EQ(parent_of(s, 3), 2);
    EXPECT_EQ(parent_of(s, 0), -1);
    EXPECT_EQ(parent_of(s, -1), -1);
    EXPECT_EQ(parent_of(s, 17), -1);
    EXPECT_TRUE(has_node(s, 4));
    EXPECT_FALSE(has_node(s, 5));
    EXPECT_FALSE(has_node(s, -1));
    EXPECT_EQ(collect(self_and_ancestors(s, 3)), (std::vector<int>{3, 2, 1, 0}));
    EXPECT_EQ(collect(ancestors(s, 3)), (std::vector<int>{2, 1, 0}));
    EXPECT_TRUE(collect(ancestors(s, 0)).empty());
    EXPECT_TRUE(self_and_ancestors(s, -1).empty());
    EXPECT_EQ(path_from_root(s, 4), (std::vector<int>{0, 1, 4}));
    EXPECT_TRUE(path_from_root(s, 9).empty());
    EXPECT_TRUE(is_below(s, 3, 1));
    EXPECT_FALSE(is_below(s, 4, 2));
    EXPECT_FALSE(is_below(s, 3, 3));  // a node is not its own ancestor
}

TEST(SceneQueries, AVertexsInfluencesNameBonesAndSkipZeroWeights) {
    const Scene s = small_rig();
    const Mesh& body = s.meshes[0];
    EXPECT_TRUE(is_skinned(body));
    EXPECT_FALSE(is_skinned(s.meshes[1]));
    std::vector<std::pair<int, float>> seen;
    for (const BoneWeight& bw : influences(s, body, 1)) seen.push_back({bw.bone, bw.weight});
    EXPECT_EQ(seen, (std::vector<std::pair<int, float>>{{1, 0.25f}, {2, 0.75f}}));
    EXPECT_TRUE(influences(s, body, 2).empty());            // unweighted vertex
    EXPECT_TRUE(influences(s, s.meshes[1], 0).empty());     // unskinned mesh
    EXPECT_TRUE(is_skin_joint(s, 2));
    EXPECT_FALSE(is_skin_joint(s, 4));
}

TEST(SceneQueries, BindWorldIsTheJointsBindPoseOrTheRestWorld) {
    Scene s = small_rig();
    // The arm's inverse bind says it sits at (5, 0, 0) at bind; the head is no joint.
    s.skins[0].inverse_bind[1] = Mat4::translation({-5, 0, 0});
    EXPECT_NEAR(bind_world(s, 2).translation_part().x, 5.0, 1e-12);
    EXPECT_EQ(bind_world(s, 4).translation_part().y, 1.5);  // rest world: 1 + 0.5
    EXPECT_EQ(bind_world(s, -1).m, Mat4::identity().m);
}

TEST(SceneQueries, SkinningAPointMatchesAHandComputation) {
    const Scene s = small_rig();
    // Vertex 1 at (1, 2, 3): 0.25 on the spine, which stays at bind, 0.75 on the arm, turned 90
    // degrees about +Z and moved +1 along X: (x, y, z) -> (-y + 1, x, z) = (-1, 1, 3).
    const Mat4 arm = Mat4::from_trs({1, 0, 0}, Quat::from_axis_angle({0, 0, 1}, std::numbers::pi / 2), {1, 1, 1});
    auto pose = [&](int bone) -> const Mat4* { return bone == 2 ? &arm : nullptr; };
    const Vec3 p = skin_point(influences(s, s.meshes[0], 1), s.meshes[0].positions[1], pose);
    // 0.25 * (1, 2, 3) + 0.75 * (-1, 1, 3) = (-0.5, 1.25, 3)
    EXPECT_NEAR(p.x, -0.5, 1e-12);
    EXPECT_NEAR(p.y, 1.25, 1e-12);
    EXPECT_NEAR(p.z, 3.0, 1e-12);
    // The normal +X: 0.25 * (1, 0, 0) + 0.75 * (0, 1, 0), renormalised: (1, 3, 0) / sqrt(10).
    const Vec3 n = skin_normal(influences(s, s.meshes[0], 1), {1, 0, 0}, pose);
    EXPECT_NEAR(n.x, 1 / std::sqrt(10.0), 1e-12);
    EXPECT_NEAR(n.y, 3 / std::sqrt(10.0), 1e-12);
    EXPECT_NEAR(n.z, 0.0, 1e-12);
    // An unweighted vertex stays where it is, whatever the pose.
    const Vec3 still = skin_point(influences(s, s.meshes[0], 2), {4, 5, 6}, pose);
    EXPECT_EQ(still.x, 4);
    EXPECT_EQ(still.y, 5);
    EXPECT_EQ(still.z, 6);
}

}  // namespace
}  // namespace weft
