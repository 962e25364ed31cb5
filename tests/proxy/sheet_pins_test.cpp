// What holds a sheet (docs/proxy.md#pins) and the frame it rides.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "proxy/core/proxy_check.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_test_scenes.h"
#include "scene/import.h"
#include "support/paths.h"

namespace weft {
namespace {

using test::TriMesh;

/// Adds a closed 5 cm box (a bracket: a solid, no border) with its lowest corner at `corner`, its
/// faces wound outward (corner k = x + 2y + 4z). Returns the index of its first corner.
uint32_t add_pins_box(TriMesh& m, const Vec3& corner) {
    const uint32_t b = m.vertex_count();
    for (int k = 0; k < 8; ++k)
        m.positions.push_back({corner.x + 0.05 * (k & 1), corner.y + 0.05 * ((k >> 1) & 1), corner.z + 0.05 * (k >> 2)});
    const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces) {
        m.add_triangle(b + f[0], b + f[1], b + f[2]);
        m.add_triangle(b + f[0], b + f[2], b + f[3]);
    }
    return b;
}

ClothProxy build_pins_ok(const Scene& scene, const SheetGarment& g, const SheetOptions& o, Issues* issues = nullptr) {
    SheetBuildResult r = build_sheet(scene, g, o);
    if (issues) *issues = r.issues;
    if (!r.proxy) {
        for (const Issue& i : r.issues) ADD_FAILURE() << i.code << ": " << i.message;
        return {};
    }
    EXPECT_EQ(check_proxy(*r.proxy), "");
    test::expect_colouring_valid(*r.proxy);
    test::expect_d_geo_matches_floyd_warshall(*r.proxy);
    return std::move(*r.proxy);
}

SheetOptions rule(const std::string& text) {
    SheetOptions o = source_resolution_options();
    EXPECT_EQ(parse_pin_rule(text, o), "");
    return o;
}

const Pin* pin_of(const ClothProxy& p, const std::string& holder) {
    for (const Pin& pin : p.pins)
        if (pin.holder == holder) return &pin;
    return nullptr;
}

std::vector<uint32_t> particles_of(const ClothProxy& p, std::initializer_list<uint32_t> vertices) {
    std::vector<uint32_t> out;
    for (uint32_t v : vertices) out.push_back(test::particle_of(p, v));
    std::sort(out.begin(), out.end());
    return out;
}

bool has_code(const Issues& issues, const std::string& code) {
    return std::any_of(issues.begin(), issues.end(), [&](const Issue& i) { return i.code == code; });
}

// A 4 x 5 grid (rows y = 0..4, 10 cm apart) skinned to Hips(2) > Spine(3) > Chest(4) > CapeBone(5):
//   row 4: Chest 1.0            held by Chest
//   row 3: Spine 0.5, Chest 0.5 held, a tie: the lower node, Spine
//   row 2: Chest 0.995, Cape 0.005  held by Chest (0.995 >= 0.99)
//   row 1: Chest 0.9, Cape 0.1      free at 0.99, held at 0.89 (0.9f is a hair under 0.9)
//   row 0: Cape 1.0             free
Scene skinned_cape() {
    TriMesh m = test::grid(4, 5, 0.1);
    Scene s = test::scene_of(m, "CapeMesh");
    int hips = test::add_node(s, "Hips", 0, Mat4::translation({0, 1, 0}));
    int spine = test::add_node(s, "Spine", hips, Mat4::translation({0, 1.2, 0}));
    int chest = test::add_node(s, "Chest", spine,
                               Mat4::from_trs({0, 1.4, 0}, Quat::from_axis_angle({0, 1, 0}, 0.3), {1, 1, 1}));
    int cape = test::add_node(s, "CapeBone", chest, Mat4::translation({0, 1.3, -0.1}));
    s.skins.push_back({"Armature", {hips, spine, chest, cape}, std::vector<Mat4>(4)});
    Mesh& mesh = s.meshes[0];
    mesh.skin = 0;
    mesh.influence_offsets.push_back(0);
    for (uint32_t v = 0; v < m.vertex_count(); ++v) {
        switch (v / 4) {
            case 4: mesh.influences.push_back({2, 1.0f}); break;
            case 3: mesh.influences.insert(mesh.influences.end(), {{1, 0.5f}, {2, 0.5f}}); break;
            case 2: mesh.influences.insert(mesh.influences.end(), {{2, 0.995f}, {3, 0.005f}}); break;
            case 1: mesh.influences.insert(mesh.influences.end(), {{2, 0.9f}, {3, 0.1f}}); break;
            default: mesh.influences.push_back({3, 1.0f}); break;
        }
        mesh.influence_offsets.push_back(static_cast<uint32_t>(mesh.influences.size()));
    }
    return s;
}

TEST(SheetPins, SkinnedGarmentIsHeldByItsBodyBones) {
    Scene s = skinned_cape();
    SheetGarment g{"Cape", "cape", {0}, {s.find_node("CapeBone")}};
    ClothProxy p = build_pins_ok(s, g, source_resolution_options());
    ASSERT_EQ(p.pins.size(), 2u);
    EXPECT_EQ(p.pins[0].holder, "Spine");  // pins in node order
    EXPECT_EQ(p.pins[1].holder, "Chest");
    EXPECT_EQ(p.pins[0].particles, particles_of(p, {12, 13, 14, 15}));
    EXPECT_EQ(p.pins[1].particles, particles_of(p, {8, 9, 10, 11, 16, 17, 18, 19}));
    for (uint32_t v = 0; v < 8; ++v) EXPECT_FALSE(p.held(test::particle_of(p, v))) << v;
    // The frame is the lowest node above every holder: Spine.
    EXPECT_EQ(p.frame.node, "Spine");
    EXPECT_EQ(nlohmann::json::parse(p.builder_options)["pin"], "weights");
    // Row 1 is held once the threshold drops below its 0.9.
    SheetOptions o = source_resolution_options();
    o.pin_weight = 0.89;
    ClothProxy q = build_pins_ok(s, g, o);
    EXPECT_TRUE(q.held(test::particle_of(q, 4)));
    EXPECT_FALSE(q.held(test::particle_of(q, 0)));
    // With no garment bones named, CapeBone counts as body too: the weights rule, asked for, holds
    // every vertex, as the artist's rigid skin says.
    SheetGarment rigid{"Cape", "cape", {0}, {}};
    SheetOptions weights = source_resolution_options();
    weights.pin = PinRule::weights;
    Issues said;
    ClothProxy r = build_pins_ok(s, rigid, weights, &said);
    for (uint32_t i = 0; i < r.particle_count(); ++i) EXPECT_TRUE(r.held(i));
    EXPECT_NE(pin_of(r, "CapeBone"), nullptr);
    EXPECT_TRUE(has_code(said, "EVERYTHING_HELD"));
    EXPECT_FALSE(has_code(said, "RIGID_SKIN_HELD_AT_TOP"));
    // The automatic rule holds such a rigid skin along its top band only, by the bone its weights
    // chose there (a cape skinned rigid to the spine hangs: KayKit's Ranger), and says so.
    ClothProxy top = build_pins_ok(s, rigid, source_resolution_options(), &said);
    ASSERT_EQ(top.pins.size(), 1u);
    EXPECT_EQ(top.pins[0].holder, "Chest");
    EXPECT_EQ(top.pins[0].particles, particles_of(top, {16, 17, 18, 19}));
    EXPECT_TRUE(has_code(said, "RIGID_SKIN_HELD_AT_TOP"));
    EXPECT_FALSE(has_code(said, "EVERYTHING_HELD"));
    EXPECT_EQ(nlohmann::json::parse(top.builder_options)["pin"], "weights, held at its top");
}

// A cape under the bone `chest` (a joint of the body's skin), not skinned itself: the Knight's case.
Scene cape_on_a_bone(const Mat4& chest_world) {
    TriMesh m = test::grid(5, 4, 0.2);
    for (Vec3& p : m.positions) p = p + Vec3{-0.4, 0.6, -0.2};  // scene space: hangs behind, top at 1.2 m
    Scene s = test::scene_of(m, "CapeMesh");
    int chest = test::add_node(s, "chest", 0, chest_world);
    s.skins.push_back({"Body", {chest}, {chest_world.inverted()}});
    // Move the sheet's node (1) under the bone, as the Knight's `Knight_Cape` is.
    s.nodes[0].children = {chest};
    s.nodes[chest].children.push_back(1);
    s.nodes[1].parent = chest;
    s.nodes[1].world = chest_world * Mat4::translation({0, 0.24, 0});
    return s;
}

TEST(SheetPins, UnskinnedSheetUnderABoneRidesItAndHangsFromItsTop) {
    const Mat4 chest_world = Mat4::from_trs({0.1, 0.97, 0.05}, Quat::from_axis_angle({0, 1, 0}, 0.5), {1, 1, 1});
    Scene s = cape_on_a_bone(chest_world);
    SheetGarment g{"Cape", "cape", {0}, {}};
    ClothProxy p = build_pins_ok(s, g, source_resolution_options());
    EXPECT_EQ(p.frame.node, "chest");
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "chest");
    EXPECT_EQ(p.pins[0].particles, particles_of(p, {15, 16, 17, 18, 19}));  // the top row
    EXPECT_EQ(p.suggested_fabric, "denim");
    // Rest positions are in the bone's frame: frame · rest = scene position.
    const std::vector<Vec3>& scene_positions = s.meshes[0].positions;
    for (uint32_t v = 0; v < scene_positions.size(); ++v) {
        Vec3 back = p.frame.rest_world.transform_point(p.rest_position[test::particle_of(p, v)]);
        EXPECT_NEAR(distance(back, scene_positions[v]), 0, 1e-12) << v;
    }
    Vec3 expected = chest_world.inverted().transform_point(scene_positions[0]);
    EXPECT_NEAR(distance(p.rest_position[test::particle_of(p, 0)], expected), 0, 1e-12);
    nlohmann::json used = nlohmann::json::parse(p.builder_options);
    EXPECT_EQ(used["pin"], "top");
}

TEST(SheetPins, FrameDropsTheNodesScale) {
    // FBX2glTF nodes carry scale 100 and a -90° X turn; positions are already in scene metres.
    TriMesh m = test::grid(3, 3, 0.5);
    Scene s = test::scene_of(m);
    s.nodes[1].world = Mat4::from_trs({1, 0, 2}, Quat::from_axis_angle({1, 0, 0}, -std::numbers::pi / 2), {100, 100, 100});
    ClothProxy p = build_pins_ok(s, SheetGarment{"Flag", "flag", {0}, {}}, rule("top"));
    EXPECT_EQ(p.frame.node, "SheetNode");
    Vec3 t, sc;
    Quat r;
    p.frame.rest_world.decompose(t, r, sc);
    EXPECT_NEAR(sc.x, 1, 1e-12);
    EXPECT_NEAR(sc.y, 1, 1e-12);
    EXPECT_NEAR(sc.z, 1, 1e-12);
    for (double l : p.rest_length) EXPECT_TRUE(std::abs(l - 0.5) < 1e-12 || std::abs(l - 0.5 * std::sqrt(2.0)) < 1e-12) << l;
}

// A flag beside a pole: the pole a 2 cm-radius tube round the Y axis, the flag from x = 3 cm.
Scene flag_and_pole() {
    TriMesh flag = test::grid(5, 4, 0.1);
    for (Vec3& p : flag.positions) p = p + Vec3{0.03, 1.5, 0};
    Scene s = test::scene_of(flag, "FlagMesh");
    s.nodes[1].name = "Flag";
    s.meshes[0].node_name = "Flag";
    int pole = test::add_node(s, "Pole", 0, Mat4::identity());
    test::add_mesh(s, test::cylinder(12, 2, 0.02, 2.0), "PoleMesh", pole, "Metal");
    test::add_node(s, "Anchor", 0, Mat4::translation({0.5, 2.0, 0}));
    return s;
}

TEST(SheetPins, NearestHoldsTheHoistByTheHoldersNode) {
    Scene s = flag_and_pole();
    SheetGarment g{"Flag", "flag", {0}, {}};
    const std::vector<uint32_t> hoist{0, 5, 10, 15};
    for (const char* target : {"nearest:Pole", "nearest:PoleMesh", "nearest:Metal"}) {
        ClothProxy p = build_pins_ok(s, g, rule(target));
        ASSERT_EQ(p.pins.size(), 1u) << target;
        EXPECT_EQ(p.pins[0].holder, "Pole") << target;
        EXPECT_EQ(p.pins[0].particles, particles_of(p, {0, 5, 10, 15})) << target;
    }
    // A node without geometry is measured to its origin: (0.5, 2.0) is nearest the top row's
    // corner (0.43, 1.8), 0.21 m away; the next, (0.33, 1.8), is 0.26 m away, past the 2.5 cm band.
    ClothProxy a = build_pins_ok(s, g, rule("nearest:Anchor"));
    ASSERT_EQ(a.pins.size(), 1u);
    EXPECT_EQ(a.pins[0].holder, "Anchor");
    EXPECT_EQ(a.pins[0].particles, particles_of(a, {19}));
    // A wider band reaches the next ring.
    SheetOptions wide = rule("nearest:Pole");
    wide.pin_tolerance = 0.15;
    EXPECT_EQ(build_pins_ok(s, g, wide).pins[0].particles.size(), 8u);
}

TEST(SheetPins, ByDefaultTheSheetIsHeldWhereItTouchesRigidGeometry) {
    // No flag: the pole (an unskinned mesh outside the garment) is 1 cm from the hoist, within one
    // median edge (10 cm), so it holds the hoist column, by its node.
    Scene s = flag_and_pole();
    SheetGarment g{"Flag", "flag", {0}, {}};
    Issues issues;
    ClothProxy p = build_pins_ok(s, g, source_resolution_options(), &issues);
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "Pole");
    EXPECT_EQ(p.pins[0].particles, particles_of(p, {0, 5, 10, 15}));
    EXPECT_NE(p.builder_options.find("\"pin\":\"touching\""), std::string::npos) << p.builder_options;
    ASSERT_TRUE(has_code(issues, "HELD_WHERE_IT_TOUCHES"));
    for (const Issue& i : issues)
        if (i.code == "HELD_WHERE_IT_TOUCHES") {
            EXPECT_NE(i.message.find("node 'Pole' (mesh 'PoleMesh'): 4 particles within 0.035 m"), std::string::npos)
                << i.message;
        }
    // The same rule by name.
    EXPECT_EQ(build_pins_ok(s, g, rule("touching")).pins[0].particles, p.pins[0].particles);
    // A skinned mesh is no holder: it moves with its bones, and the sheet would tear from it.
    Scene skinned = flag_and_pole();
    int bone = test::add_node(skinned, "Bone", 0, Mat4::identity());
    skinned.skins.push_back({"Skin", {bone}, {Mat4::identity()}});
    Mesh& pole = skinned.meshes[1];
    pole.skin = 0;
    pole.influence_offsets.push_back(0);
    for (size_t v = 0; v < pole.positions.size(); ++v) {
        pole.influences.push_back({0, 1.0f});
        pole.influence_offsets.push_back(static_cast<uint32_t>(pole.influences.size()));
    }
    EXPECT_TRUE(has_code(build_sheet(skinned, g, source_resolution_options()).issues, "NOTHING_HELD"));
}

TEST(SheetPins, TheHeaderStandingAboveATouchingHoldIsHeldWithIt) {
    // sheets/pleated_curtain.glb: the rod touches the hold row (y 0, every other pleat's column within
    // the band: 7 particles); the 45 mm header above it (13 particles) stands on its bending alone and
    // is held with it, by the rod's node. Nothing else: the slivers and the hem hang.
    const Scene scene = test::import_ok(test::testdata_dir() / "sheets" / "pleated_curtain.glb");
    SheetGarment g{"Curtain", "curtain", {}, {}};
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        if (scene.materials[scene.meshes[m].material] == "Fabric") g.meshes.push_back(static_cast<int>(m));
    Issues issues;
    const ClothProxy p = build_pins_ok(scene, g, SheetOptions{}, &issues);
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "Curtain");
    EXPECT_EQ(p.pins[0].particles.size(), 20u);
    for (uint32_t q = 0; q < p.particle_count(); ++q) {
        const double y = p.frame.rest_world.transform_point(p.rest_position[q])[1] - 2.5;  // the node stands at 2.5 m
        if (y > 0.02) EXPECT_TRUE(p.held(q)) << "header particle " << q << " at " << y;
        if (y < -0.02) EXPECT_FALSE(p.held(q)) << "particle " << q << " at " << y;
    }
    bool said = false;
    for (const Issue& i : issues)
        said |= i.code == "HELD_WHERE_IT_TOUCHES" && i.message.find("the header standing above it: 13 particles") != std::string::npos;
    EXPECT_TRUE(said);
}

TEST(SheetPins, NothingTouchingIsAnErrorWithTheConfigEntryThatHangsIt) {
    // The pole 0.5 m from the hoist is five median edges away: it does not touch, nothing holds
    // the sheet, and nothing skins it: refused, with the weft.json rule that hangs it.
    Scene s = flag_and_pole();
    for (Vec3& x : s.meshes[1].positions) x = x + Vec3{-0.5, 0, 0};
    SheetGarment g{"Flag", "flag", {0}, {}};
    SheetBuildResult r = build_sheet(s, g, source_resolution_options());
    EXPECT_FALSE(r.proxy.has_value());
    ASSERT_TRUE(has_code(r.issues, "NOTHING_HELD"));
    for (const Issue& i : r.issues)
        if (i.code == "NOTHING_HELD") {
            EXPECT_EQ(i.severity, Severity::error);
            EXPECT_NE(i.message.find("touches no rigid geometry of its model (within one median edge, 0.1 m)"),
                      std::string::npos)
                << i.message;
            EXPECT_NE(i.message.find(R"(weft.json (--config): {"garments": [{"file":"in_memory.glb","material":"Cloth","pin":"top"}]})"),
                      std::string::npos)
                << i.message;
        }
    // The pole 9 cm away (within the 10 cm median edge) touches again.
    for (Vec3& x : s.meshes[1].positions) x = x + Vec3{0.42, 0, 0};
    EXPECT_EQ(build_pins_ok(s, g, source_resolution_options()).pins[0].holder, "Pole");
}

TEST(SheetPins, ASheetTooCoarseToHangIsRefinedBeforeItsPinsAreChosen) {
    // sheets/coarse_tablecloth.glb: 8 vertices whose median edge is 1.1 m, so the touching band
    // (0.275 m past the top's 5 mm) reaches the drops' hems 5 cm off the table: as modelled every
    // particle is held and nothing hangs.
    const Scene scene = test::import_ok(test::testdata_dir() / "sheets" / "coarse_tablecloth.glb");
    SheetGarment g{"Cloth", "tablecloth", {}, {}};
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        if (scene.materials[scene.meshes[m].material] == "Cloth") g.meshes.push_back(static_cast<int>(m));
    Issues as_modelled;
    const ClothProxy coarse = build_pins_ok(scene, g, source_resolution_options(), &as_modelled);
    EXPECT_EQ(coarse.particle_count(), 8u);
    EXPECT_TRUE(has_code(as_modelled, "EVERYTHING_HELD"));
    EXPECT_FALSE(has_code(as_modelled, "SHEET_REFINED_TO_HANG"));

    // `automatic` refines it to its automatic edge (sqrt(1.155 x 1.87 m^2 / 256) = 9.2 cm) first; the
    // band is then a quarter of the refined median edge, and the table holds the top it carries
    // while the drops and the 5 cm the top overhangs are free.
    // (The resampler's splits halve the 1.1 m edges down to 6.9 cm, under 4/3 L: 489 particles.)
    SheetBuildResult r = build_sheet(scene, g, SheetOptions{});
    ASSERT_TRUE(r.proxy.has_value());
    const ClothProxy& p = *r.proxy;
    EXPECT_EQ(check_proxy(p), "");
    EXPECT_TRUE(has_code(r.issues, "SHEET_REFINED_TO_HANG"));
    EXPECT_FALSE(has_code(r.issues, "EVERYTHING_HELD"));
    EXPECT_GT(p.particle_count(), 300u);
    EXPECT_LT(p.particle_count(), 700u);
    EXPECT_NE(p.builder_options.find("\"resolution\":\"automatic\""), std::string::npos) << p.builder_options;
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "Table");
    uint32_t top = 0, top_held = 0, drop = 0;
    for (uint32_t q = 0; q < p.particle_count(); ++q) {
        const Vec3 x = p.frame.rest_world.transform_point(p.rest_position[q]);
        if (x[1] < 0.79) {  // on a drop
            ++drop;
            EXPECT_FALSE(p.held(q)) << "drop particle " << q << " at y " << x[1];
        } else if (std::abs(x[0]) < 0.49 && std::abs(x[2]) < 0.49) {  // on the table's top
            ++top;
            top_held += p.held(q);
        } else if (std::abs(x[0]) > 0.53 || std::abs(x[2]) > 0.53) {  // overhanging the table
            EXPECT_FALSE(p.held(q)) << "overhang particle " << q;
        }
    }
    EXPECT_GT(drop, 20u);
    EXPECT_GT(top, 50u);
    EXPECT_EQ(top_held, top);

    // A solid the closed-piece rule holds whole is not a sheet the band swallowed: kept as modelled.
    TriMesh box;
    add_pins_box(box, {0, 0, 0});
    const SheetBuildResult solid = build_sheet(test::scene_of(box), SheetGarment{"Box", "flag", {0}, {}}, SheetOptions{});
    ASSERT_TRUE(solid.proxy.has_value());
    EXPECT_EQ(solid.proxy->particle_count(), 8u);
    EXPECT_TRUE(has_code(solid.issues, "CLOSED_ISLAND_HELD"));
    EXPECT_FALSE(has_code(solid.issues, "SHEET_REFINED_TO_HANG"));
}

TEST(SheetPins, ATableclothLiesWhereItTouchesThoughTheTopUnderItIsNotModelled) {
    // sheets/topless_tablecloth.glb: the coarse cloth on a table whose top under it is left out, only
    // two strips either side (x 0.55-0.7 m each way) at its height. Refined, the strips touch the
    // top's two ends; the rest of the top lies flat at their height over the table, so it lies on the
    // table there and is held; the drops over the front and the back (5 cm past the strips' ends) hang.
    const Scene scene = test::import_ok(test::testdata_dir() / "sheets" / "topless_tablecloth.glb");
    auto cloth = [&](const char* garment_class) {
        SheetGarment g{"Cloth", garment_class, {}, {}};
        for (size_t m = 0; m < scene.meshes.size(); ++m)
            if (scene.materials[scene.meshes[m].material] == "Cloth") g.meshes.push_back(static_cast<int>(m));
        return g;
    };
    struct Count {
        uint32_t top = 0, top_held = 0, middle = 0, middle_held = 0, drop = 0, drop_held = 0;
    };
    auto count = [](const ClothProxy& p) {
        Count c;
        for (uint32_t q = 0; q < p.particle_count(); ++q) {
            const Vec3 x = p.frame.rest_world.transform_point(p.rest_position[q]);
            if (x[1] < 0.79) {
                ++c.drop, c.drop_held += p.held(q);
            } else if (std::abs(x[2]) <= 0.5) {  // over the table (its strips end at z = +-0.5)
                ++c.top, c.top_held += p.held(q);
                if (std::abs(x[0]) < 0.3) ++c.middle, c.middle_held += p.held(q);
            }
        }
        return c;
    };
    // Refined past the brute-force checks' size (build_pins_ok): checked as the coarse tablecloth is.
    auto build = [&](const char* garment_class, Issues& issues) {
        SheetBuildResult r = build_sheet(scene, cloth(garment_class), SheetOptions{});
        issues = r.issues;
        if (!r.proxy) return ClothProxy{};
        EXPECT_EQ(check_proxy(*r.proxy), "");
        return std::move(*r.proxy);
    };
    Issues issues;
    const ClothProxy p = build("tablecloth", issues);
    EXPECT_TRUE(has_code(issues, "SHEET_REFINED_TO_HANG"));
    EXPECT_FALSE(has_code(issues, "EVERYTHING_HELD"));
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "Table");
    const Count c = count(p);
    EXPECT_GT(c.middle, 30u);
    EXPECT_EQ(c.top_held, c.top);
    EXPECT_GT(c.drop, 20u);
    EXPECT_EQ(c.drop_held, 0u);
    bool lies = false;
    for (const Issue& i : issues)
        lies |= i.code == "HELD_WHERE_IT_TOUCHES" && i.message.find("where the cloth lies flat on it") != std::string::npos;
    EXPECT_TRUE(lies);

    // Only cloth that lies on its holder does so: as a banner the same sheet is held where the strips
    // touch it and its middle is free.
    Issues as_banner;
    const Count banner = count(build("banner", as_banner));
    EXPECT_GT(banner.middle, 30u);
    EXPECT_EQ(banner.middle_held, 0u);
    EXPECT_GT(banner.top_held, 0u);
}

TEST(SheetPins, AClosedPieceThinButUnevenIsASolidThatHoldsTheCloth) {
    // sheets/banner_shield.glb: a domed shield in the banner's own mesh, 0.8 m across, its thickness
    // 3 cm at the rim to 10 cm at the boss: thin for its width (median under 0.12 of it) but its
    // quartiles are not within 1.25 of each other, so it is no slab of fabric: held rigid by the frame
    // node, and it holds the cloth behind it. The banner's hem, 1.2 m down, hangs.
    const Scene scene = test::import_ok(test::testdata_dir() / "sheets" / "banner_shield.glb");
    SheetGarment g{"Banner", "banner", {}, {}};
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        if (scene.materials[scene.meshes[m].material] == "Banner") g.meshes.push_back(static_cast<int>(m));
    Issues issues;
    const ClothProxy p = build_pins_ok(scene, g, SheetOptions{}, &issues);
    EXPECT_TRUE(has_code(issues, "CLOSED_ISLAND_HELD"));
    bool shield_holds = false;
    for (const Issue& i : issues)
        shield_holds |= i.code == "HELD_WHERE_IT_TOUCHES" && i.message.find("its closed piece") != std::string::npos;
    EXPECT_TRUE(shield_holds);
    uint32_t shield = 0, hem = 0;
    for (uint32_t q = 0; q < p.particle_count(); ++q) {
        const Vec3 x = p.frame.rest_world.transform_point(p.rest_position[q]);
        if (x[2] > 0.005) {  // the shield stands in front of the cloth (z 0)
            ++shield;
            EXPECT_TRUE(p.held(q)) << "shield particle " << q;
        } else if (x[1] < 2.5 - 1.2) {
            ++hem;
            EXPECT_FALSE(p.held(q)) << "hem particle " << q;
        }
    }
    EXPECT_GT(shield, 90u);
    EXPECT_EQ(hem, 11u);
}

TEST(SheetPins, EachPieceOfARigidSkinIsHeldAtItsOwnTop) {
    // sheets/split_dress.glb: a bodice weighted whole to Chest (1.05-1.45 m) and a skirt weighted
    // whole to Hips (0.55-1.1 m) sharing no vertex with it, as a non-manifold waist is split. The
    // sheet's top band holds only the bodice's neckline; the skirt, held nowhere, fell onto the body
    // and slid there for ever. Each piece now hangs from its own top ring, by its own bone.
    const Scene scene = test::import_ok(test::testdata_dir() / "sheets" / "split_dress.glb");
    SheetGarment g{"Dress", "dress", {0}, {}};
    Issues issues;
    const ClothProxy p = build_pins_ok(scene, g, source_resolution_options(), &issues);
    ASSERT_EQ(p.particle_count(), 96u);
    EXPECT_TRUE(has_code(issues, "RIGID_SKIN_HELD_AT_TOP"));
    EXPECT_FALSE(has_code(issues, "EVERYTHING_HELD"));
    const Pin* chest = pin_of(p, "Chest");
    const Pin* hips = pin_of(p, "Hips");
    ASSERT_NE(chest, nullptr);
    ASSERT_NE(hips, nullptr);
    EXPECT_EQ(chest->particles.size(), 12u);
    EXPECT_EQ(hips->particles.size(), 12u);
    for (uint32_t q = 0; q < p.particle_count(); ++q) {
        const double y = p.frame.rest_world.transform_point(p.rest_position[q])[1];
        const bool top_ring = std::abs(y - 1.45) < 1e-6 || std::abs(y - 1.1) < 1e-6;
        EXPECT_EQ(p.held(q), top_ring) << "particle " << q << " at y " << y;
    }
    for (uint32_t q : hips->particles) EXPECT_NEAR(p.frame.rest_world.transform_point(p.rest_position[q])[1], 1.1, 1e-6);
}

TEST(SheetPins, ClosedPiecesHoldTheFabricTheyTouch) {
    // A bracket (a closed box in the sheet's own mesh, like the banner's) pierces the top row
    // between its vertices: it is held by the frame node, and holds the fabric nearest it.
    TriMesh m = test::grid(4, 3, 0.1);
    add_pins_box(m, {0.1, 0.18, -0.025});
    Scene s = test::scene_of(m);
    SheetGarment g{"Banner", "flag", {0}, {}};
    Issues issues;
    ClothProxy p = build_pins_ok(s, g, source_resolution_options(), &issues);
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "SheetNode");
    // The box's 8 corners and the one top-row vertex on its face (0.1, 0.2): the next, (0.2, 0.2),
    // is 5 cm from it, past the 2.5 cm band.
    EXPECT_EQ(p.pins[0].particles.size(), 9u);
    EXPECT_TRUE(p.held(test::particle_of(p, 9)));
    EXPECT_FALSE(p.held(test::particle_of(p, 10)));
    EXPECT_TRUE(has_code(issues, "CLOSED_ISLAND_HELD"));
    EXPECT_TRUE(has_code(issues, "HELD_WHERE_IT_TOUCHES"));
}

TEST(SheetPins, PositionalRulesHoldTheEdgesOfAFlagWhoseWidthRunsAlongZ) {
    // sheets/side_flag.glb: a row of 10 tall thin quads, 11 columns of 2 vertices (front vertex 2i + r,
    // column i from the hoist, r 0 at the bottom, 1 at the top 1.2 m higher, columns 0.15 m apart),
    // the hoist at the pole, the width along the scene's -Z (the pole's node turned a quarter about
    // Y), bellied 15 cm along X at its middle column, as doubled faces. Seen from the front the flag
    // is edge-on: the scene's X runs across its belly, and its extreme is the middle (right held
    // it; left both ends). Left and right follow its width instead, right at -Z (the fly), left at +Z
    // (the hoist), and each holds one column: the band is a quarter of the 0.15 m step between
    // columns, not of the 1.2 m median edge (which reached two columns in).
    const Scene scene = test::import_ok(test::testdata_dir() / "sheets" / "side_flag.glb");
    ASSERT_EQ(scene.meshes.size(), 1u);
    const SheetGarment g{"Flag", "flag", {0}, {}};
    const auto column = [](uint32_t i) { return std::vector<uint32_t>{2 * i, 2 * i + 1}; };
    const auto row = [](uint32_t r) {
        std::vector<uint32_t> v;
        for (uint32_t i = 0; i <= 10; ++i) v.push_back(2 * i + r);
        return v;
    };
    const auto particles_at = [](const ClothProxy& p, const std::vector<uint32_t>& vertices) {
        std::vector<uint32_t> out;
        for (uint32_t v : vertices) out.push_back(test::particle_of(p, v));
        std::sort(out.begin(), out.end());
        return out;
    };
    const struct {
        const char* rule;
        std::vector<uint32_t> vertices;
    } cases[] = {{"top", row(1)}, {"bottom", row(0)}, {"left", column(0)}, {"right", column(10)}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.rule);
        Issues issues;
        const ClothProxy p = build_pins_ok(scene, g, rule(c.rule), &issues);
        EXPECT_TRUE(has_code(issues, "DOUBLED_FACES"));
        EXPECT_EQ(p.particle_count(), 22u);  // one layer: the back's copies welded to the front
        ASSERT_EQ(p.pins.size(), 1u);
        EXPECT_EQ(p.pins[0].holder, "Group 1");
        EXPECT_EQ(p.pins[0].particles, particles_at(p, c.vertices));
    }
    // The flag stands as it was modelled: the fly 1.5 m along -Z from the hoist, the belly along +X.
    const ClothProxy p = build_pins_ok(scene, g, rule("right"));
    const Vec3 hoist = p.frame.rest_world.transform_point(p.rest_position[test::particle_of(p, 0)]);
    const Vec3 fly = p.frame.rest_world.transform_point(p.rest_position[test::particle_of(p, 20)]);
    const Vec3 middle = p.frame.rest_world.transform_point(p.rest_position[test::particle_of(p, 10)]);
    EXPECT_NEAR(hoist[2] - fly[2], 1.5, 1e-6);  // the file keeps floats
    EXPECT_NEAR(middle[0] - hoist[0], 0.15, 1e-6);
}

TEST(SheetPins, PositionalRulesPickTheirEdge) {
    TriMesh m = test::grid(4, 3, 0.1);
    Scene s = test::scene_of(m);
    SheetGarment g{"Sheet", "", {0}, {}};
    EXPECT_EQ(build_pins_ok(s, g, rule("top")).pins[0].particles.size(), 4u);
    ClothProxy right = build_pins_ok(s, g, rule("right"));
    EXPECT_EQ(right.pins[0].particles, particles_of(right, {3, 7, 11}));
    ClothProxy left = build_pins_ok(s, g, rule("left"));
    EXPECT_EQ(left.pins[0].particles, particles_of(left, {0, 4, 8}));
    ClothProxy bottom = build_pins_ok(s, g, rule("bottom"));
    EXPECT_EQ(bottom.pins[0].particles, particles_of(bottom, {0, 1, 2, 3}));
    // A band wide enough for two rows.
    SheetOptions two = rule("top");
    two.pin_tolerance = 0.11;
    EXPECT_EQ(build_pins_ok(s, g, two).pins[0].particles.size(), 8u);
    // An explicit holder.
    test::add_node(s, "Rod", 0, Mat4::identity());
    SheetOptions rod = rule("top");
    rod.pin_holder = "Rod";
    EXPECT_EQ(build_pins_ok(s, g, rod).pins[0].holder, "Rod");
    // Asked to hold nothing, it falls, and says so (a warning: it was asked for).
    Issues issues;
    ClothProxy falls = build_pins_ok(s, g, rule("none"), &issues);
    EXPECT_TRUE(falls.pins.empty());
    ASSERT_TRUE(has_code(issues, "NOTHING_HELD"));
    EXPECT_FALSE(has_code(issues, "EVERYTHING_HELD"));
    for (const Issue& i : issues)
        if (i.code == "NOTHING_HELD") { EXPECT_EQ(i.severity, Severity::warning); }
    // A band as tall as the sheet holds all of it: built, and said, because nothing will move.
    SheetOptions all = rule("top");
    all.pin_tolerance = 10;
    Issues held;
    ClothProxy rigid = build_pins_ok(s, g, all, &held);
    EXPECT_EQ(rigid.pins[0].particles.size(), rigid.particle_count());
    ASSERT_TRUE(has_code(held, "EVERYTHING_HELD"));
    EXPECT_FALSE(has_code(held, "NOTHING_HELD"));
    for (const Issue& i : held)
        if (i.code == "EVERYTHING_HELD") {
            EXPECT_EQ(i.severity, Severity::warning);
            EXPECT_NE(i.message.find("every one of its 12 particles is held (pin rule 'top"), std::string::npos) << i.message;
        }
}

TEST(SheetPins, ClosedPiecesAreHeldRigidAndTheRuleSkipsThem) {
    // A flag with a closed box above it in the same mesh, like the banner's brackets.
    TriMesh m = test::grid(4, 3, 0.1);
    const uint32_t b = add_pins_box(m, {0.1, 0.5, 0.0});
    Scene s = test::scene_of(m);
    SheetGarment g{"Banner", "flag", {0}, {}};
    Issues issues;
    ClothProxy p = build_pins_ok(s, g, rule("top"), &issues);
    EXPECT_TRUE(has_code(issues, "CLOSED_ISLAND_HELD"));
    const Pin* node = pin_of(p, "SheetNode");
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(node->particles.size(), 8u + 4u);  // the box and the flag's top row
    for (uint32_t v = b; v < b + 8; ++v) EXPECT_TRUE(p.held(test::particle_of(p, v)));
    for (uint32_t v = 8; v < 12; ++v) EXPECT_TRUE(p.held(test::particle_of(p, v)));
    for (uint32_t v = 0; v < 8; ++v) EXPECT_FALSE(p.held(test::particle_of(p, v)));
    // As fabric, the box is simulated and the top rule finds the box's top instead.
    SheetOptions fabric = rule("top");
    fabric.closed_islands_rigid = false;
    ClothProxy q = build_pins_ok(s, g, fabric);
    EXPECT_EQ(q.pins[0].particles, particles_of(q, {b + 2, b + 3, b + 6, b + 7}));
}

TEST(SheetPins, BadTargetsAreRefusedByName) {
    Scene s = flag_and_pole();
    SheetGarment g{"Flag", "flag", {0}, {}};
    SheetBuildResult r = build_sheet(s, g, rule("nearest:Mast"));
    EXPECT_FALSE(r.proxy.has_value());
    ASSERT_TRUE(has_code(r.issues, "PIN_TARGET_NOT_FOUND"));
    // The garment's own mesh is no target.
    EXPECT_TRUE(has_code(build_sheet(s, g, rule("nearest:FlagMesh")).issues, "PIN_TARGET_NOT_FOUND"));
    SheetOptions holder = rule("top");
    holder.pin_holder = "Nobody";
    EXPECT_TRUE(has_code(build_sheet(s, g, holder).issues, "PIN_HOLDER_NOT_FOUND"));
    EXPECT_TRUE(has_code(build_sheet(s, g, rule("vertices:20")).issues, "PIN_VERTEX_OUT_OF_RANGE"));
    // A vertex no triangle uses cannot be pinned either.
    s.meshes[0].positions.push_back({5, 5, 5});
    SheetBuildResult unused = build_sheet(s, g, rule("vertices:20"));
    ASSERT_TRUE(has_code(unused.issues, "PIN_VERTEX_OUT_OF_RANGE"));
    EXPECT_NE(unused.issues.back().message.find("is in no triangle"), std::string::npos) << unused.issues.back().message;
    // A config listing 400k bad vertices gets three messages and one "and N more like it", not
    // 400k lines; the rule's description lists the first eight and the count.
    SheetOptions many = source_resolution_options();
    many.pin = PinRule::vertices;
    for (uint32_t v = 0; v < 400000; ++v) many.pin_vertices.push_back(1000 + v);
    SheetBuildResult folded = build_sheet(s, g, many);
    size_t count = 0, bytes = 0;
    std::string last;
    for (const Issue& i : folded.issues)
        if (i.code == "PIN_VERTEX_OUT_OF_RANGE") ++count, bytes += i.message.size(), last = i.message;
    EXPECT_EQ(count, 4u);
    EXPECT_LT(bytes, 2000u);
    EXPECT_NE(last.find("and 399997 more pinned vertices like it"), std::string::npos) << last;
}

TEST(SheetPins, ExplicitVerticesAcrossMeshes) {
    // Two meshes: source vertices are numbered across them in garment order.
    TriMesh a = test::quad(), b = test::quad();
    for (Vec3& p : b.positions) p = p + Vec3{3, 0, 0};
    Scene s = test::scene_of(a, "A");
    test::add_mesh(s, b, "B", 1, "Cloth");
    ClothProxy p = build_pins_ok(s, SheetGarment{"Two", "", {0, 1}, {}}, rule("vertices:2,6"));
    EXPECT_EQ(p.pins[0].particles, particles_of(p, {2, 6}));
    EXPECT_EQ(p.pins[0].holder, "SheetNode");
}

}  // namespace
}  // namespace weft
