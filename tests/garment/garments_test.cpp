#include <gtest/gtest.h>

#include "garment/garment_json.h"
#include "garment/garments.h"
#include "scene/invariants.h"
#include "scene_builder.h"

namespace weft {
namespace {

using test::add_mesh;
using test::add_node;
using test::add_skin;
using test::add_skinned_mesh;
using test::strip;
using test::Strip;

using Weights = std::vector<std::pair<int, double>>;

// A body skeleton (Hips, Chest, Head) with a skin; meshes are added per test.
struct Body {
    Scene s = test::empty_scene("mannequin.glb");
    int hips, chest, head, skin;
    std::vector<int> joints;
    Body() {
        hips = add_node(s, "Hips", 0, {0, 1.0, 0});
        chest = add_node(s, "Chest", hips, {0, 0.35, 0});
        head = add_node(s, "Head", chest, {0, 0.3, 0});
        joints = {hips, chest, head};
        skin = add_skin(s, joints);
    }
    /// A body mesh on `material`, skinned to Hips.
    void add_torso(const std::string& material = "Body") {
        add_skinned_mesh(s, "Torso", hips, material, skin, strip({-0.15, 1.6, 0}, 0.3, 0.8, 8),
                         [](uint32_t) { return Weights{{0, 1.0}}; });
    }
};

TEST(FindGarments, MaterialSlotHairWeldedToHead) {
    Body b;
    b.add_torso();
    Strip hair = strip({-0.1, 1.7, 0.05}, 0.04, 0.3, 6);
    test::append(hair, strip({0.06, 1.7, 0.05}, 0.04, 0.25, 5));
    add_skinned_mesh(b.s, "Cube.014", b.head, "Hair_Black", b.skin, hair, [](uint32_t) { return Weights{{2, 1.0}}; });

    ModelGarments found = find_garments(b.s);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.name, "Hair_Black");
    EXPECT_EQ(g.class_name, "hair");
    EXPECT_EQ(g.matched_by, "material");
    EXPECT_EQ(g.vertex_count, 14u + 12u);
    EXPECT_EQ(g.triangle_count, 12u + 10u);
    EXPECT_EQ(g.pieces, 2u);
    EXPECT_NEAR(g.span, 0.3, 0.02);  // the longer strand: 0.3 m down, 0.04 m wide
    EXPECT_DOUBLE_EQ(g.bounds.min.x, -0.1);
    EXPECT_DOUBLE_EQ(g.bounds.max.x, 0.1);
    EXPECT_DOUBLE_EQ(g.bounds.min.y, 1.4);
    EXPECT_DOUBLE_EQ(g.bounds.max.y, 1.7);
    EXPECT_EQ(g.body_bone, b.head);
    EXPECT_FALSE(g.moves);
    EXPECT_EQ(g.welded_to, b.head);
    EXPECT_EQ(g.verdict, "will not move: welded to Head");
    EXPECT_TRUE(found.found_by_name);
    EXPECT_EQ(found.verdict, "1 garment found by name: 0 move, 1 will not move");
}

TEST(FindGarments, AuthoredChainMakesItMove) {
    Body b;
    int h1 = add_node(b.s, "Hair_0_1", b.head, {0, 0, 0.05});
    int h2 = add_node(b.s, "Hair_0_2", h1, {0, -0.15, 0});
    b.s.skins[0].joints.push_back(h1);
    b.s.skins[0].joints.push_back(h2);
    b.s.skins[0].inverse_bind.push_back(b.s.nodes[static_cast<size_t>(h1)].world.inverted());
    b.s.skins[0].inverse_bind.push_back(b.s.nodes[static_cast<size_t>(h2)].world.inverted());
    // Top row on Head, the rest on the chain joints 3 and 4.
    add_skinned_mesh(b.s, "HairMesh", b.head, "Hair", b.skin, strip({-0.02, 1.65, 0.05}, 0.04, 0.3, 6),
                     [](uint32_t v) { return v < 2 ? Weights{{2, 1.0}} : Weights{{2, 0.2}, {v < 8 ? 3 : 4, 0.8}}; });
    ModelGarments found = find_garments(b.s);
    ASSERT_EQ(found.chains.size(), 1u);
    EXPECT_EQ(found.chain_vertices[0], 12u);
    ASSERT_EQ(found.garments.size(), 1u);  // the chain's geometry is the slot garment: no second garment
    const Garment& g = found.garments[0];
    EXPECT_TRUE(g.moves);
    EXPECT_EQ(g.verdict, "moves");
    EXPECT_EQ(g.chains, (std::vector<int>{0}));
    EXPECT_EQ(g.body_bone, b.head);  // the body bone, never a chain joint
    EXPECT_EQ(g.welded_to, -1);
}

TEST(FindGarments, TooSmallMatchIsReportedNotTaken) {
    // Superhero's MI_Hair_2 slot is on two eyebrows about 5 cm long.
    Body b;
    b.add_torso();
    Strip brows = strip({-0.06, 1.68, 0.09}, 0.05, 0.01, 1);
    test::append(brows, strip({0.01, 1.68, 0.09}, 0.05, 0.01, 1));
    add_skinned_mesh(b.s, "Eyebrows", b.head, "MI_Hair_2", b.skin, brows, [](uint32_t) { return Weights{{2, 1.0}}; });
    ModelGarments found = find_garments(b.s);
    EXPECT_TRUE(found.garments.empty());
    ASSERT_EQ(found.not_garments.size(), 1u);
    const Garment& g = found.not_garments[0];
    EXPECT_EQ(g.name, "MI_Hair_2");
    EXPECT_EQ(g.pieces, 2u);
    EXPECT_NEAR(g.span, std::hypot(0.05, 0.01), 1e-9);
    EXPECT_EQ(g.not_garment_reason, "too small to simulate: its largest piece spans 51 mm (a garment needs 100 mm)");
    EXPECT_FALSE(found.found_by_name);
    EXPECT_EQ(found.verdict, "no garment found by slot (materials seen: Body, MI_Hair_2); 1 name match is not a garment");

    // The threshold is the config's to move.
    GarmentOptions lenient;
    lenient.config.min_garment_span = 0.05;
    EXPECT_EQ(find_garments(b.s, lenient).garments.size(), 1u);
}

TEST(FindGarments, UvSeamSplitVerticesWeldIntoOnePiece) {
    Body b;
    Strip cape = strip({-0.3, 1.4, -0.15}, 0.6, 0.9, 4);
    // Duplicate the middle row as a UV seam: the lower half uses the copies.
    uint32_t base = static_cast<uint32_t>(cape.positions.size());
    cape.positions.push_back(cape.positions[4]);
    cape.positions.push_back(cape.positions[5]);
    for (size_t i = 12; i < cape.indices.size(); ++i) {  // triangles of quads 2 and 3
        if (cape.indices[i] == 4) cape.indices[i] = base;
        else if (cape.indices[i] == 5) cape.indices[i] = base + 1;
    }
    add_mesh(b.s, "Plane.004", add_node(b.s, "Knight_Cape", b.chest, {0, 0, -0.15}), "knight_texture", cape);
    ModelGarments found = find_garments(b.s);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].pieces, 1u);
    EXPECT_EQ(found.garments[0].vertex_count, 12u);
}

TEST(FindGarments, FallsBackToNodeNameAndRidesItsParentBone) {
    // Kaykit Knight: the cape is node Knight_Cape (mesh Plane.004) on the atlas material, parented
    // to the bone `chest`, not skinned.
    Body b;
    b.add_torso("knight_texture");
    int cape_node = add_node(b.s, "Knight_Cape", b.chest, {0, 0, -0.15});
    add_mesh(b.s, "Plane.004", cape_node, "knight_texture", strip({-0.3, 1.3, -0.15}, 0.6, 0.9, 4));
    ModelGarments found = find_garments(b.s);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.class_name, "cape");
    EXPECT_EQ(g.matched_by, "node");
    EXPECT_EQ(g.matched_name, "Knight_Cape");
    EXPECT_EQ(g.body_bone, b.chest);
    EXPECT_EQ(g.verdict, "will not move: welded to Chest");
}

TEST(FindGarments, MeshNameBeforeNodeName) {
    Scene s = test::empty_scene("banner.gltf");
    int node = add_node(s, "Prop_07", 0, {0, 0, 0});
    add_mesh(s, "banner_blue", node, "texture", strip({0, 2, 0}, 0.5, 1.0, 4));
    ModelGarments found = find_garments(s);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].class_name, "banner");
    EXPECT_EQ(found.garments[0].matched_by, "mesh");
    EXPECT_EQ(found.garments[0].body_bone, -1);
    EXPECT_EQ(found.garments[0].verdict, "will not move: static mesh, no bones");
}

/// A closed box (every edge on two triangles) from `lo` to `hi`.
Strip box(Vec3 lo, Vec3 hi) {
    Strip b;
    for (int k = 0; k < 8; ++k)
        b.positions.push_back({(k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z});
    const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces) b.indices.insert(b.indices.end(), {f[0], f[1], f[2], f[0], f[2], f[3]});
    return b;
}

TEST(FindGarments, AClosedRodInACurtainsNodeHoldsItAndIsNotCloth) {
    // Node "Curtain" carries the cloth and, on another material, the rod it hangs from: the rod is
    // a closed solid, a holder, and stays out of the garment (the sheet builder hangs the cloth from it).
    Scene s = test::empty_scene("curtain.glb");
    int node = add_node(s, "Curtain", 0, {0, 0, 0});
    const int rod = add_mesh(s, "Curtain-0", node, "Wood", box({-0.1, 2.0, -0.02}, {1.1, 2.04, 0.02}));
    const int cloth = add_mesh(s, "Curtain-1", node, "Fabric", strip({0, 2.0, 0}, 1.0, 1.5, 6));
    ModelGarments found = find_garments(s);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.class_name, "curtain");
    EXPECT_EQ(g.matched_by, "mesh");  // import names the primitives Curtain-0, Curtain-1: each a match
    ASSERT_EQ(g.parts.size(), 1u);
    EXPECT_EQ(g.parts[0].mesh, cloth);
    EXPECT_EQ(g.holders, std::vector<int>{rod});
    // A node of closed meshes only stays whole: a closed thin slab (a curtain modelled with a front
    // and a back face, 2 cm apart on a 1 m width) is not left with nothing.
    Scene shell = test::empty_scene("shell.glb");
    int shell_node = add_node(shell, "Curtain", 0, {0, 0, 0});
    add_mesh(shell, "Curtain-0", shell_node, "Fabric", box({0, 0, 0}, {1, 1, 0.02}));
    ModelGarments whole = find_garments(shell);
    ASSERT_EQ(whole.garments.size(), 1u);
    EXPECT_EQ(whole.garments[0].parts.size(), 1u);
    EXPECT_TRUE(whole.garments[0].holders.empty());
    // A closed solid as thick as it is wide (a 1 m crate called "Curtain") is no cloth at all.
    Scene crate = test::empty_scene("crate.glb");
    add_mesh(crate, "Curtain-0", add_node(crate, "Curtain", 0, {0, 0, 0}), "Fabric", box({0, 0, 0}, {1, 1, 1}));
    ModelGarments solid = find_garments(crate);
    EXPECT_TRUE(solid.garments.empty());
    ASSERT_EQ(solid.not_garments.size(), 1u);
    EXPECT_NE(solid.not_garments[0].verdict.find("a solid, not cloth"), std::string::npos) << solid.not_garments[0].verdict;
}

TEST(FindGarments, SlotsThatSayAClassStopTheMeshNameFallback) {
    // Goal_Flag: one mesh "Goal_Flag" with a Metal pole and a Flag cloth; the pole is not a flag.
    Scene s = test::empty_scene("Goal_Flag.glb");
    int node = add_node(s, "Goal_Flag", 0, {0, 0, 0});
    add_mesh(s, "Goal_Flag-0", node, "Metal", strip({0, 0, 0}, 0.1, 2.0, 2));
    add_mesh(s, "Goal_Flag-1", node, "Flag", strip({0.1, 2.0, 0}, 0.9, 0.5, 4));
    ModelGarments found = find_garments(s);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].name, "Flag");
    EXPECT_EQ(found.garments[0].matched_by, "material");
    ASSERT_EQ(found.garments[0].parts.size(), 1u);
    EXPECT_EQ(found.garments[0].parts[0].mesh, 1);
}

TEST(FindGarments, ConfigRulesOverrideNamesAndCanSayNone) {
    Scene s = test::empty_scene("models/Couch_Medium2.glb");
    int node = add_node(s, "Couch", 0, {0, 0, 0});
    add_mesh(s, "Couch", node, "Couch_Blue", strip({0, 2, 0}, 1.0, 1.5, 4));
    add_mesh(s, "Couch", node, "Hair_Tassel", strip({0, 2, 0.2}, 0.2, 0.3, 2));
    ConfigResult config = parse_garment_config(R"({
        "schema": "weft.config/1",
        "garments": [
            {"file": "Couch_*.glb", "material": "Couch_Blue", "class": "curtain", "fabric": "cotton"},
            {"file": "Couch_*.glb", "material": "Hair_Tassel", "class": "none"},
            {"file": "Other.glb", "mesh": "Couch", "class": "cape"}
        ]})", "cfg.json");
    ASSERT_EQ(config.error, "");
    GarmentOptions options;
    options.config = config.config;
    ModelGarments found = find_garments(s, options);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.class_name, "curtain");
    EXPECT_EQ(g.matched_by, "config");
    EXPECT_EQ(g.matched_name, "Couch_Blue");
    EXPECT_EQ(g.rule_pointer, "/garments/0");
    EXPECT_EQ(g.rule_target, "material Couch_Blue");
    EXPECT_EQ(g.fabric, "cotton");
    ASSERT_EQ(found.not_garments.size(), 1u);
    EXPECT_EQ(found.not_garments[0].not_garment_reason,
              "config rule /garments/1 (material Hair_Tassel) says it is not a garment");

    // Without the config the names decide: Hair_Tassel is hair, Couch_Blue nothing.
    ModelGarments plain = find_garments(s);
    ASSERT_EQ(plain.garments.size(), 1u);
    EXPECT_EQ(plain.garments[0].name, "Hair_Tassel");
}

TEST(FindGarments, ClassSelection) {
    Body b;
    add_skinned_mesh(b.s, "H", b.head, "Hair", b.skin, strip({0, 1.7, 0}, 0.05, 0.3, 3),
                     [](uint32_t) { return Weights{{2, 1.0}}; });
    add_skinned_mesh(b.s, "S", b.hips, "Skirt", b.skin, strip({-0.2, 1.0, 0.1}, 0.4, 0.4, 3),
                     [](uint32_t) { return Weights{{0, 1.0}}; });
    GarmentOptions options;
    options.selected = {"skirt"};
    ModelGarments found = find_garments(b.s, options);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].class_name, "skirt");
    EXPECT_EQ(found.garments[0].verdict, "will not move: welded to Hips");
    EXPECT_EQ(find_garments(b.s).garments.size(), 2u);
}

TEST(FindGarments, ChainWeightedGeometryOnABodyMaterialIsAChainGarment) {
    // The Fox: the tail is part of the body mesh on material `Main`, weighted to Tail1..Tail3.
    Scene s = test::empty_scene("Fox.glb");
    int body = add_node(s, "Body", 0, {0, 0.5, 0});
    int back = add_node(s, "Back", body, {0, 0, -0.2});
    int t1 = add_node(s, "Tail1", back, {0, 0, -0.1});
    int t2 = add_node(s, "Tail2", t1, {0, 0, -0.15});
    int t3 = add_node(s, "Tail3", t2, {0, 0, -0.15});
    int skin = add_skin(s, {body, back, t1, t2, t3});
    Strip geometry = strip({-0.1, 0.7, 0.2}, 0.2, 0.3, 3);              // body: 8 vertices
    test::append(geometry, strip({-0.03, 0.55, -0.3}, 0.06, 0.4, 4));  // tail: 10 vertices
    add_skinned_mesh(s, "Fox", add_node(s, "Fox", 0, {0, 0, 0}), "Main", skin, geometry, [](uint32_t v) {
        if (v < 8) return Weights{{0, 1.0}};
        if (v < 10) return Weights{{1, 0.5}, {2, 0.5}};
        return Weights{{v < 14 ? 3 : 4, 1.0}};
    });
    ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    EXPECT_EQ(found.chains[0].name, "Tail1");
    EXPECT_EQ(found.chains[0].parent, back);
    EXPECT_NEAR(found.chains[0].length, 0.3, 1e-12);
    EXPECT_EQ(found.chain_vertices[0], 10u);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.class_name, "tail");
    EXPECT_EQ(g.matched_by, "chain");
    EXPECT_EQ(g.name, "Tail1");
    EXPECT_EQ(g.vertex_count, 10u);
    EXPECT_EQ(g.triangle_count, 8u);
    EXPECT_TRUE(g.moves);
    EXPECT_EQ(g.body_bone, back);
    EXPECT_FALSE(found.found_by_name);
    EXPECT_EQ(found.verdict, "no garment found by slot (materials seen: Main); 1 garment moves on authored chains");
}

TEST(FindGarments, ATailStubIsNoGarment) {
    // The same tail chain (0.3 m) on a body 2 m long: 0.15 of it, too short to swing.
    Scene s = test::empty_scene("Stag.glb");
    int body = add_node(s, "Body", 0, {0, 0.5, 0});
    int back = add_node(s, "Back", body, {0, 0, -0.2});
    int t1 = add_node(s, "Tail1", back, {0, 0, -0.1});
    int t2 = add_node(s, "Tail2", t1, {0, 0, -0.15});
    int t3 = add_node(s, "Tail3", t2, {0, 0, -0.15});
    int skin = add_skin(s, {body, back, t1, t2, t3});
    Strip geometry = strip({-1.0, 0.7, 0.2}, 2.0, 0.3, 3);             // body: 8 vertices, 2 m across
    test::append(geometry, strip({-0.03, 0.55, -0.3}, 0.06, 0.4, 4));  // tail: 10 vertices
    add_skinned_mesh(s, "Stag", add_node(s, "Stag", 0, {0, 0, 0}), "Main", skin, geometry, [](uint32_t v) {
        if (v < 8) return Weights{{0, 1.0}};
        if (v < 10) return Weights{{1, 0.5}, {2, 0.5}};
        return Weights{{v < 14 ? 3 : 4, 1.0}};
    });
    ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    EXPECT_TRUE(found.garments.empty());
    ASSERT_EQ(found.not_garments.size(), 1u);
    EXPECT_EQ(found.not_garments[0].not_garment_reason,
              "a stub, not a tail that swings: its chain is 300 mm long, 0.15 of the body's 2000 mm (a tail needs "
              "1/6; docs/garments-by-geometry.md#tails)");
}

TEST(FindGarments, ATiePaintedOnTheShirtIsSewnInAndATieThatHangsIsNot) {
    // A shirt front 0.3 m wide from 1.4 m down to 1.0 m, cut by the exporter into its left and right
    // parts around a tie 60 mm wide: painted on, the tie's every edge is the shirt's; modelled, it
    // hangs 20 mm in front of the shirt.
    auto suit = [](double tie_z) {
        Scene s = test::empty_scene("Suit.glb");
        const int node = add_node(s, "Suit", 0, {0, 0, 0});
        add_mesh(s, "Shirt_L", node, "Shirt", strip({-0.15, 1.4, 0.1}, 0.12, 0.4, 4));
        add_mesh(s, "Shirt_R", node, "Shirt", strip({0.03, 1.4, 0.1}, 0.12, 0.4, 4));
        add_mesh(s, "Tie", node, "TieTexture", strip({-0.03, 1.4, tie_z}, 0.06, 0.4, 4));
        return find_garments(s);
    };
    const ModelGarments painted = suit(0.1);
    EXPECT_TRUE(painted.garments.empty());
    ASSERT_EQ(painted.not_garments.size(), 1u);
    EXPECT_EQ(painted.not_garments[0].not_garment_reason,
              "sewn into the body all round: every open edge is an edge of the mesh around it and no point lies "
              "farther than 0 mm from that seam, 0.00 of its span (a garment that hangs needs 0.25; "
              "docs/garments-by-geometry.md#sewn-in)");
    const ModelGarments hanging = suit(0.12);
    ASSERT_GE(hanging.garments.size(), 1u);
    EXPECT_EQ(hanging.garments[0].class_name, "necktie");  // name matches come first
    EXPECT_EQ(hanging.garments[0].matched_by, "material");
    EXPECT_TRUE(hanging.not_garments.empty());
}

TEST(FindGarments, MeshRidingAChainJointMoves) {
    Scene s = test::empty_scene("sphere-collider.gltf");
    int a = add_node(s, "Spring A", 0, {0, 2, 0});
    int b = add_node(s, "Spring B", a, {0, -2, 0});
    s.springs.push_back({"", "VRMC_springBone", {}, {a, b}, {}});
    add_mesh(s, "Sphere Yellow", b, "Sphere Material Yellow", strip({0, 0.2, 0}, 0.2, 0.4, 2));
    ModelGarments found = find_garments(s);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].class_name, "spring");
    EXPECT_EQ(found.garments[0].matched_by, "chain");
    EXPECT_TRUE(found.garments[0].moves);
    EXPECT_EQ(found.garments[0].body_bone, 0);  // wholly on the chain: the bone the chain hangs from
    EXPECT_EQ(found.chain_vertices[0], 6u);
}

TEST(FindGarments, NoGarmentListsTheMaterialsSeen) {
    Body b;
    b.add_torso("106");
    ModelGarments found = find_garments(b.s);
    EXPECT_TRUE(found.garments.empty());
    EXPECT_TRUE(found.chains.empty());
    EXPECT_EQ(found.verdict, "no garment found by slot (materials seen: 106)");
}

TEST(FindGarments, MalformedInfluencesAndIndicesAreRefusedBeforeAnyStageSeesThem) {
    // A bone index past the skin, a triangle past the vertices and a NaN position: the import's
    // invariant pass refuses the scene, so find_garments (which relies on the invariants) never sees it.
    Body b;
    int m = add_skinned_mesh(b.s, "H", b.head, "Hair", b.skin, strip({0, 1.7, 0}, 0.05, 0.3, 3),
                             [](uint32_t v) { return v == 0 ? Weights{{57, 1.0}} : Weights{{2, 1.0}}; });
    b.s.meshes[static_cast<size_t>(m)].indices.push_back(1000);  // a triangle out of range
    b.s.meshes[static_cast<size_t>(m)].indices.push_back(0);
    b.s.meshes[static_cast<size_t>(m)].indices.push_back(1);
    b.s.meshes[static_cast<size_t>(m)].positions[3] = Vec3{NAN, 0, 0};
    Issues issues;
    EXPECT_FALSE(enforce_scene_invariants(b.s, issues));
    ASSERT_TRUE(has_error(issues));
    bool named = false;
    for (const Issue& i : issues)
        named = named || i.code == "JOINT_OUT_OF_RANGE" || i.code == "INDEX_OUT_OF_RANGE" || i.code == "NON_FINITE_POSITION";
    EXPECT_TRUE(named) << issues.front().code << ": " << issues.front().message;
}

TEST(FindGarments, ASceneKeepingItsInvariantsIsFoundAsBefore) {
    Body b;
    add_skinned_mesh(b.s, "H", b.head, "Hair", b.skin, strip({0, 1.7, 0}, 0.05, 0.3, 3),
                     [](uint32_t) { return Weights{{2, 1.0}}; });
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(b.s, issues));
    ModelGarments found = find_garments(b.s);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].triangle_count, 6u);
    EXPECT_EQ(found.garments[0].body_bone, b.head);
}

TEST(GarmentsToJson, CarriesNamesBoundsAndVerdicts) {
    Body b;
    add_skinned_mesh(b.s, "Cube.014", b.head, "Hair_Black", b.skin, strip({-0.1, 1.7, 0.05}, 0.2, 0.3, 3),
                     [](uint32_t) { return Weights{{2, 1.0}}; });
    nlohmann::json j = garments_to_json(b.s, find_garments(b.s));
    ASSERT_EQ(j["garments"].size(), 1u);
    const auto& g = j["garments"][0];
    EXPECT_EQ(g["name"], "Hair_Black");
    EXPECT_EQ(g["matched_by"], "material");
    EXPECT_EQ(g["meshes"][0]["mesh"], "Cube.014");
    EXPECT_EQ(g["meshes"][0]["node"], "Head");
    EXPECT_EQ(g["bounds"]["min"], nlohmann::json({-0.1, 1.4, 0.05}));
    EXPECT_EQ(g["bounds"]["max"], nlohmann::json({0.1, 1.7, 0.05}));
    EXPECT_EQ(g["body_bone"], "Head");
    EXPECT_EQ(g["welded_to"], "Head");
    EXPECT_EQ(g["verdict"], "will not move: welded to Head");
    EXPECT_FALSE(g.contains("reason"));
    EXPECT_EQ(j["materials"], nlohmann::json({"Hair_Black"}));
    EXPECT_TRUE(j["chains"].empty());
    EXPECT_EQ(bounds_to_json(Bounds{}), nullptr);
}

}  // namespace
}  // namespace weft
