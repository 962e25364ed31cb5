// The body rules of garment/geometry.h on generated pieces, each against a negative that differs by
// the one fact its rule reads (docs/garments-by-geometry.md#the-rules): a skirt's hem ring against
// shorts' leg openings and against a hem the legs never move, a cape on the back against an arm
// behind it, hair behind the head against the head itself, and a humanoid against a level spine.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "garment/geometry.h"
#include "scene_builder.h"

namespace weft {
namespace {

// Nodes of the hand-made skeleton, by region: what the pieces' weights name.
constexpr int kHips = 0, kLegs = 1, kTorso = 2, kHead = 3, kArms = 4, kNeck = 5;

/// An upright humanoid 1.6 m tall facing +Z: hip joints 0.18 m apart at 0.91 m, knees at 0.5 m,
/// ankles at 0.08 m, chest 1.22 m, neck 1.45 m, head 1.53 m.
HumanoidBones standing() {
    HumanoidBones b;
    b.hips = kHips, b.head = kHead, b.neck = kNeck, b.chest = kTorso;
    b.thigh = {kLegs, kLegs};
    b.region = {BodyRegion::hips, BodyRegion::legs, BodyRegion::torso, BodyRegion::head, BodyRegion::arms, BodyRegion::neck};
    b.hips_at = {0, 0.95, 0}, b.chest_at = {0, 1.22, 0}, b.neck_at = {0, 1.45, 0}, b.head_at = {0, 1.53, 0};
    for (size_t s = 0; s < 2; ++s) {
        const double x = s == 0 ? 0.09 : -0.09;
        b.thigh_at[s] = {x, 0.91, 0}, b.knee_at[s] = {x, 0.5, 0}, b.ankle_at[s] = {x, 0.08, 0};
    }
    return b;
}

/// Adds a ring of `n` vertices of radius r about (cx, y, 0), the first at angle `phase`; returns its first index.
uint32_t ring(BodyPiece& p, double cx, double y, double r, int n, double phase, std::vector<std::pair<int, double>> w) {
    const uint32_t first = static_cast<uint32_t>(p.positions.size());
    for (int k = 0; k < n; ++k) {
        const double a = phase + 2 * std::numbers::pi * k / n;
        p.positions.push_back({cx + r * std::sin(a), y, r * std::cos(a)});
        p.weights.push_back(w);
    }
    return first;
}

/// Joins two rings of n vertices with quads.
void band(BodyPiece& p, uint32_t upper, uint32_t lower, int n) {
    for (uint32_t k = 0; k < static_cast<uint32_t>(n); ++k) {
        const uint32_t k1 = (k + 1) % static_cast<uint32_t>(n);
        p.triangles.insert(p.triangles.end(), {upper + k, lower + k, upper + k1, upper + k1, lower + k, lower + k1});
    }
}

/// A skirt from the waist (1.0 m) to a hem at 0.6 m: rings of 8 vertices turned so none lies on the
/// midline (a coarse hem whose edges, not its vertices, cross between the legs); the lower rings'
/// weight on the legs is `legs`.
BodyPiece skirt(double legs) {
    BodyPiece p;
    const double phase = std::numbers::pi / 8;
    uint32_t prev = ring(p, 0, 1.0, 0.2, 8, phase, {{kHips, 1.0}});
    for (double y : {0.9, 0.8, 0.7, 0.6}) {
        const uint32_t next = ring(p, 0, y, 0.25, 8, phase, {{kHips, 1 - legs}, {kLegs, legs}});
        band(p, prev, next, 8);
        prev = next;
    }
    return p;
}

TEST(GarmentRules, ACoarseHemRingBridgesTheLegsByItsEdges) {
    const PieceClass c = classify_piece(standing(), skirt(0.5), {"skirt"});
    ASSERT_EQ(c.class_name, "skirt");
    for (const auto& [name, value] : c.measurements)
        if (name == "bridge_reach") EXPECT_NEAR(value, 1.0, 1e-9);  // its hem ring crosses the midline at the hem
}

TEST(GarmentRules, AHemTheLegsNeverMoveIsAStiffPartOfTheHips) {
    // The lower rings are 32 of the 40 vertices: the piece's weight on the legs is 0.8 of theirs.
    EXPECT_EQ(classify_piece(standing(), skirt(0.0), {"skirt"}).class_name, "");
    EXPECT_EQ(classify_piece(standing(), skirt(0.19 / 0.8), {"skirt"}).class_name, "");
    EXPECT_EQ(classify_piece(standing(), skirt(0.21 / 0.8), {"skirt"}).class_name, "skirt");
}

TEST(GarmentRules, ShortsPartIntoTwoLegOpeningsAboveTheirHem) {
    // A seat from the waist (1.0 m) down to the crotch seam at 0.77 m, crossing the midline, then one
    // tube round each thigh down to the hem at 0.72 m: the bridging reaches 0.14 of the hem's 0.19.
    BodyPiece p;
    const std::vector<std::pair<int, double>> w{{kHips, 0.3}, {kLegs, 0.7}};
    uint32_t prev = ring(p, 0, 1.0, 0.2, 16, 0, w);
    const uint32_t seat = ring(p, 0, 0.77, 0.22, 16, 0, w);
    band(p, prev, seat, 16);
    for (double x : {0.09, -0.09}) {
        const uint32_t top = ring(p, x, 0.76, 0.09, 8, 0, w), hem = ring(p, x, 0.72, 0.09, 8, 0, w);
        band(p, top, hem, 8);
    }
    EXPECT_EQ(classify_piece(standing(), p, {"skirt"}).class_name, "");
}

/// A panel down the back, 0.4 m wide, from 1.3 m to 0.6 m, 0.1 m behind the chest, all weighted to `node`.
BodyPiece back_panel(int node) {
    BodyPiece p;
    for (int j = 0; j <= 7; ++j)
        for (int i = 0; i <= 4; ++i) {
            p.positions.push_back({-0.2 + 0.1 * i, 1.3 - 0.1 * j, -0.1});
            p.weights.push_back({{node, 1.0}});
        }
    return p;
}

TEST(GarmentRules, ACapeHangsFromTheBackNotFromAnArm) {
    EXPECT_EQ(classify_piece(standing(), back_panel(kTorso), {"cape"}).class_name, "cape");
    EXPECT_EQ(classify_piece(standing(), back_panel(kArms), {"cape"}).class_name, "");
}

/// A head-weighted shell 0.24 m deep from 1.75 m down to 1.4 m (below the neck), centred `behind` metres
/// behind the head bone.
BodyPiece head_shell(double behind) {
    BodyPiece p;
    for (double y : {1.75, 1.6, 1.5, 1.4}) ring(p, 0, y, 0.12, 8, 0, {{kHead, 1.0}});
    for (Vec3& q : p.positions) q.z -= behind;
    return p;
}

TEST(GarmentRules, HairLiesBehindTheHeadAndTheHeadItselfIsNoHair) {
    EXPECT_EQ(classify_piece(standing(), head_shell(0.0), {"hair"}).class_name, "");
    EXPECT_EQ(classify_piece(standing(), head_shell(0.02), {"hair"}).class_name, "");  // 0.08 of its depth
    EXPECT_EQ(classify_piece(standing(), head_shell(0.03), {"hair"}).class_name, "hair");  // 0.125
}

/// A biped skeleton by bone names, its neck `lean` metres ahead of its hips; an IK target named for
/// the foot hangs from the root, listed before the thighs.
Scene biped(double lean) {
    Scene s = test::empty_scene("biped.glb");
    const int ik = test::add_node(s, "FootIK.L", 0, {0.09, 0.08, 0});
    const int hips = test::add_node(s, "Hips", 0, {0, 0.95, 0});
    const int left = test::add_node(s, "LeftUpLeg", hips, {0.09, -0.04, 0});
    test::add_node(s, "LeftLeg", left, {0, -0.41, 0});
    const int right = test::add_node(s, "RightUpLeg", hips, {-0.09, -0.04, 0});
    test::add_node(s, "RightLeg", right, {0, -0.41, 0});
    const int spine = test::add_node(s, "Spine", hips, {0, 0.27, lean * 0.5});
    const int neck = test::add_node(s, "Neck", spine, {0, 0.23, lean * 0.5});
    const int head = test::add_node(s, "Head", neck, {0, 0.08, 0});
    test::add_skin(s, {ik, hips, left, left + 1, right, right + 1, spine, neck, head});
    return s;
}

TEST(GarmentRules, AHumanoidStandsUprightOnItsThighs) {
    const Scene upright = biped(0.1);
    const HumanoidBones b = find_humanoid_bones(upright);
    EXPECT_TRUE(b.humanoid());
    // The thighs are the highest leg bones, not the IK target at the foot.
    EXPECT_NEAR(b.thigh_at[0].y, 0.91, 1e-9);
    EXPECT_NEAR(b.thigh_at[1].y, 0.91, 1e-9);
    // A spine that runs further than it rises (a T-rex on a biped rig) is no humanoid.
    EXPECT_FALSE(find_humanoid_bones(biped(0.6)).humanoid());
}

}  // namespace
}  // namespace weft
