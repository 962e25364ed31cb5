// Cloth on props found by geometry (garment/prop_sheets.h, docs/garments-by-geometry.md#cloth-on-props),
// on generated props: each a rigid frame (poles, yards, a bed, a table) on materials that name no
// class and a sheet of cloth on another, so only the shape can say what is cloth and what it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "garment/garments.h"
#include "garment/prop_sheets.h"
#include "scene/import.h"
#include "support/paths.h"
#include "scene_builder.h"

namespace weft {
namespace {
namespace prop_fixture {

using test::Strip;

/// A closed box from `lo` to `hi`: rigid geometry, as thick as it is wide.
Strip block(Vec3 lo, Vec3 hi) {
    Strip b;
    for (int k = 0; k < 8; ++k)
        b.positions.push_back({(k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z});
    const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces) b.indices.insert(b.indices.end(), {f[0], f[1], f[2], f[0], f[2], f[3]});
    return b;
}

/// A single-sided grid of nu x nv quads, the point at (s, t) in [0,1]^2 given by `at`.
Strip grid(int nu, int nv, const std::function<Vec3(double, double)>& at) {
    Strip g;
    for (int j = 0; j <= nv; ++j)
        for (int i = 0; i <= nu; ++i) g.positions.push_back(at(double(i) / nu, double(j) / nv));
    const uint32_t row = static_cast<uint32_t>(nu + 1);
    for (uint32_t j = 0; j < static_cast<uint32_t>(nv); ++j)
        for (uint32_t i = 0; i < static_cast<uint32_t>(nu); ++i) {
            const uint32_t a = j * row + i, b = a + 1, c = a + row, d = c + 1;
            g.indices.insert(g.indices.end(), {a, c, b, b, c, d});
        }
    return g;
}

/// A flat grid from `corner` along `u` and `v`.
Strip panel(Vec3 corner, Vec3 u, Vec3 v, int nu, int nv) {
    return grid(nu, nv, [=](double s, double t) { return corner + u * s + v * t; });
}

Strip joined(std::vector<Strip> parts) {
    Strip all;
    for (const Strip& p : parts) test::append(all, p);
    return all;
}

/// The prop finder over every mesh of `s`, nothing taken by a name.
std::vector<PropSheet> sheets_of(const Scene& s) {
    StaticSurfaceInput input;
    input.mesh_static.assign(s.meshes.size(), 1);
    for (const Mesh& m : s.meshes) input.vertex_taken.emplace_back(m.positions.size(), 0);
    return find_prop_sheets(s, input, {});
}

/// A prop: the rigid frame on node "Frame" (material "Brown"), the cloth on node `cloth_node` (material "Red").
struct Prop {
    Scene s = test::empty_scene("prop.glb");
    int frame_mesh = -1, cloth_mesh = -1;
    Prop(const Strip& frame, const Strip& cloth, const std::string& cloth_node = "Cloth") {
        frame_mesh = test::add_mesh(s, "Frame", test::add_node(s, "Frame", 0, {0, 0, 0}), "Brown", frame);
        cloth_mesh = test::add_mesh(s, cloth_node, test::add_node(s, cloth_node, 0, {0, 0, 0}), "Red", cloth);
    }
    std::vector<PropSheet> sheets() const { return sheets_of(s); }
};

/// A flag: 0.9 m x 0.6 m flying from a 2.5 m pole along its left edge.
Prop flag() {
    return Prop(block({-0.03, 0, -0.03}, {0.03, 2.5, 0.03}), panel({0.03, 2.4, 0}, {0.9, 0, 0}, {0, -0.6, 0}, 9, 6));
}

/// A banner: 1 m x 1.2 m hanging flat from a crossbar on a post, its top row on the bar's underside.
Prop banner() {
    const Strip frame = joined({block({-0.6, 2.0, -0.03}, {0.6, 2.05, 0.03}), block({-0.66, 0, -0.03}, {-0.6, 2.05, 0.03})});
    return Prop(frame, panel({-0.5, 2.0, 0}, {1.0, 0, 0}, {0, -1.2, 0}, 10, 12));
}

/// A curtain: the banner's rod with the cloth gathered in pleats 5 cm wide and 6 cm deep.
Prop curtain() {
    const Strip frame = joined({block({-0.6, 2.0, -0.03}, {0.6, 2.05, 0.09}), block({-0.66, 0, -0.03}, {-0.6, 2.05, 0.09})});
    const Strip cloth = grid(20, 12, [](double s, double t) {
        const int column = static_cast<int>(std::lround(s * 20));
        return Vec3{-0.5 + s, 2.0 - 1.2 * t, (column % 2) * 0.06};
    });
    return Prop(frame, cloth);
}

/// A square sail, 1.4 m x 1.8 m, between a yard at its head and a boom at its foot, in front of a mast.
Prop sail() {
    const Strip frame = joined({block({-0.05, 0, -0.15}, {0.05, 3.2, -0.05}), block({-0.8, 2.9, -0.05}, {0.8, 3.0, 0.05}),
                                block({-0.8, 1.0, -0.05}, {0.8, 1.1, 0.05})});
    return Prop(frame, panel({-0.7, 2.9, 0.05}, {1.4, 0, 0}, {0, -1.8, 0}, 10, 12));
}

/// A market awning: 2 m x 1.5 m, sloping from 2.4 m at the back to 2.1 m at the front, on four posts.
Prop awning() {
    std::vector<Strip> posts;
    for (double x : {0.0, 1.94})
        for (double z : {0.0, 1.44}) {
            const double top = 2.4 - 0.3 * (z + 0.03) / 1.5;
            posts.push_back(block({x, 0, z}, {x + 0.06, top, z + 0.06}));
        }
    return Prop(joined(posts), grid(10, 8, [](double s, double t) { return Vec3{2.0 * s, 2.4 - 0.3 * t, 1.5 * t}; }));
}

/// An A-frame tent: canvas from a ridge pole 1.5 m up down to the ground 1 m either side, on two uprights.
Prop tent() {
    const Strip frame = joined({block({-1.05, 1.45, -0.03}, {1.05, 1.51, 0.03}), block({-1.05, 0, -0.03}, {-0.99, 1.45, 0.03}),
                                block({0.99, 0, -0.03}, {1.05, 1.45, 0.03})});
    const Strip canvas = grid(10, 12, [](double s, double t) {
        const double z = -1 + 2 * t;
        return Vec3{-0.95 + 1.9 * s, 1.51 * (1 - std::fabs(z)), z};
    });
    return Prop(frame, canvas);
}

/// Cloth lying on a rigid top `top` metres high, `width` x `length`, hanging `drop` over both long
/// sides, 6 cm out from them.
Strip draped(double top, double width, double length, double drop) {
    const double side = drop + 0.06, total = 2 * side + width;
    return grid(24, 10, [=](double s, double t) {
        const double d = s * total, z = 0.2 + (length - 0.4) * t;
        if (d < side) return Vec3{-0.06 + 0.06 * d / side, top + 0.01 - (side - d) * drop / side, z};
        if (d > side + width) return Vec3{width + 0.06 * (d - side - width) / side, top + 0.01 - (d - side - width) * drop / side, z};
        return Vec3{d - side, top + 0.01, z};
    });
}

/// A bed 1.4 m x 2 m, its top 0.45 m up, a headboard 1 m high; the blanket hangs 0.3 m over its sides.
Prop bed(double drop = 0.3) {
    const Strip frame = joined({block({0, 0, 0}, {1.4, 0.45, 2.0}), block({0, 0, -0.05}, {1.4, 1.0, 0})});
    return Prop(frame, draped(0.45, 1.4, 2.0, drop));
}

/// A table 1.2 m x 0.8 m, its top 0.76 m up on four legs; the cloth hangs 0.25 m over its sides.
Prop table() {
    std::vector<Strip> parts{block({0, 0.72, 0}, {1.2, 0.76, 0.8})};
    for (double x : {0.02, 1.12})
        for (double z : {0.02, 0.72}) parts.push_back(block({x, 0, z}, {x + 0.06, 0.72, z + 0.06}));
    return Prop(joined(parts), draped(0.76, 1.2, 0.8, 0.25));
}

/// Whether every vertex of the rigid frame stayed out of every sheet found.
bool frame_left_out(const Prop& p, const std::vector<PropSheet>& sheets) {
    for (const PropSheet& sheet : sheets)
        if (sheet.vertices.count(p.frame_mesh)) return false;
    return true;
}

}  // namespace prop_fixture

using prop_fixture::Prop;

struct Expected {
    const char* name;
    std::function<Prop()> make;
    const char* class_name;
};

TEST(PropSheets, EachPropsClothIsFoundWithTheClassItsShapeSays) {
    const std::vector<Expected> cases = {
        {"flag", prop_fixture::flag, "flag"},          {"banner", prop_fixture::banner, "banner"},
        {"curtain", prop_fixture::curtain, "curtain"}, {"sail", prop_fixture::sail, "sail"},
        {"awning", prop_fixture::awning, "awning"},    {"tent", prop_fixture::tent, "tent"},
        {"bed", [] { return prop_fixture::bed(); }, "blanket"}, {"table", prop_fixture::table, "tablecloth"},
    };
    for (const Expected& c : cases) {
        SCOPED_TRACE(c.name);
        const Prop p = c.make();
        const std::vector<PropSheet> sheets = p.sheets();
        ASSERT_EQ(sheets.size(), 1u);
        EXPECT_EQ(sheets[0].class_name, c.class_name) << sheets[0].rule;
        // All of the cloth, and nothing of the frame: the rigid part stays rigid and holds it.
        ASSERT_EQ(sheets[0].vertices.count(p.cloth_mesh), 1u);
        EXPECT_EQ(sheets[0].vertices.at(p.cloth_mesh).size(), p.s.meshes[static_cast<size_t>(p.cloth_mesh)].positions.size());
        EXPECT_TRUE(prop_fixture::frame_left_out(p, sheets));
        EXPECT_EQ(sheets[0].materials, std::vector<std::string>{"Red"});
        EXPECT_FALSE(sheets[0].measurements.empty());
    }
}

TEST(PropSheets, TheRulesMeasurementsAreWhatTheyRead) {
    const std::vector<PropSheet> flag = prop_fixture::flag().sheets();
    ASSERT_EQ(flag.size(), 1u);
    std::map<std::string, double> m(flag[0].measurements.begin(), flag[0].measurements.end());
    EXPECT_DOUBLE_EQ(m.at("upright"), 1.0);      // a vertical sheet
    EXPECT_DOUBLE_EQ(m.at("held_height"), 1.0);  // held all the way down its pole edge
    EXPECT_DOUBLE_EQ(m.at("held_across"), 0.0);  // and nowhere across
    const std::vector<PropSheet> bed = prop_fixture::bed().sheets();
    ASSERT_EQ(bed.size(), 1u);
    std::map<std::string, double> b(bed[0].measurements.begin(), bed[0].measurements.end());
    EXPECT_NEAR(b.at("top_height"), 0.45 / 1.52, 0.002);  // the top's height over the model's shorter side (the bed and the overhang)
    EXPECT_GE(b.at("hangs_below_top"), 0.1);
}

TEST(PropSheets, RigidPropsAndClothThatDoesNotHangStayRigid) {
    // A blanket lying folded on the bed, hanging over nothing: it rests, nothing of it moves.
    EXPECT_TRUE(prop_fixture::bed(0.0).sheets().empty());
    // A plank as thick as it is wide beside a post, and a sheet touching nothing.
    Prop plank(prop_fixture::block({0, 0, 0}, {0.1, 2, 0.1}), prop_fixture::block({0.1, 1.5, 0}, {0.3, 1.7, 0.2}));
    EXPECT_TRUE(plank.sheets().empty());
    Prop loose(prop_fixture::block({0, 0, 0}, {0.1, 2, 0.1}),
               prop_fixture::panel({1, 2, 0}, {1, 0, 0}, {0, -1, 0}, 6, 6));
    EXPECT_TRUE(loose.sheets().empty());
    // A thin sheet on a material that says a rigid substance: a wooden sign board is no banner.
    Prop board = prop_fixture::banner();
    board.s.materials[static_cast<size_t>(board.s.meshes[static_cast<size_t>(board.cloth_mesh)].material)] = "Wood_Light";
    EXPECT_TRUE(board.sheets().empty());
    EXPECT_TRUE(not_cloth_material_name("Wood_Light"));
    EXPECT_TRUE(not_cloth_material_name("leaves"));
    EXPECT_FALSE(not_cloth_material_name("RoofTiles_Red"));
}

TEST(PropSheets, FindGarmentsNamesTheClothAfterItsNodeAndLeavesTheFrameOut) {
    const Prop p = prop_fixture::sail();
    Scene s = p.s;
    s.nodes[static_cast<size_t>(s.meshes[static_cast<size_t>(p.cloth_mesh)].node)].name = "Front Sail Cloth";
    s.meshes[static_cast<size_t>(p.cloth_mesh)].node_name = "Front Sail Cloth";
    // The node's name says sail: that is a name match, not this rule. A neutral node name leaves it to geometry.
    const ModelGarments by_name = find_garments(s);
    ASSERT_EQ(by_name.garments.size(), 1u);
    EXPECT_EQ(by_name.garments[0].matched_by, "node");
    const ModelGarments found = find_garments(p.s);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.class_name, "sail");
    EXPECT_EQ(g.name, "Cloth");
    EXPECT_EQ(g.matched_by, "geometry");
    ASSERT_EQ(g.parts.size(), 1u);
    EXPECT_EQ(g.parts[0].mesh, p.cloth_mesh);
    EXPECT_EQ(g.parts[0].triangles, p.s.meshes[static_cast<size_t>(p.cloth_mesh)].triangle_count());
    // A class not asked for is not looked for.
    GarmentOptions only_flags;
    only_flags.selected = {"flag"};
    EXPECT_TRUE(find_garments(p.s, only_flags).garments.empty());
}

TEST(PropSheets, ABannerNamedWithItsPoleInOneMeshLeavesThePoleOutToHoldIt) {
    // One mesh, material "Banner": a 2.5 m pole with a crossbar and the cloth hanging from the bar.
    Scene s = test::empty_scene("banner.glb");
    const Strip pole = prop_fixture::joined(
        {prop_fixture::block({-0.66, 0, -0.03}, {-0.6, 2.05, 0.03}), prop_fixture::block({-0.6, 2.0, -0.03}, {0.6, 2.05, 0.03})});
    const Strip cloth = prop_fixture::panel({-0.5, 2.0, 0}, {1.0, 0, 0}, {0, -1.2, 0}, 10, 12);
    const int mesh = test::add_mesh(s, "Banner", test::add_node(s, "Banner", 0, {0, 0, 0}), "Banner",
                                    prop_fixture::joined({pole, cloth}));
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.class_name, "banner");
    ASSERT_EQ(g.parts.size(), 1u);
    EXPECT_EQ(g.parts[0].mesh, mesh);
    // The pole's 16 vertices are left out; the cloth's (11 x 13) stay.
    ASSERT_EQ(g.parts[0].vertices.size(), cloth.positions.size());
    EXPECT_EQ(g.parts[0].vertices.front(), static_cast<uint32_t>(pole.positions.size()));
    EXPECT_EQ(g.parts[0].triangles, cloth.indices.size() / 3);
    // A name match that is one closed solid throughout is no cloth at all.
    const NameMatchCut solid = cut_name_match(s, {{mesh, std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}}});
    EXPECT_FALSE(solid.sheet);
    EXPECT_TRUE(solid.all_closed);
    std::vector<uint32_t> everything(s.meshes[static_cast<size_t>(mesh)].positions.size());
    for (uint32_t v = 0; v < everything.size(); ++v) everything[v] = v;
    const NameMatchCut cut = cut_name_match(s, {{mesh, everything}});
    EXPECT_TRUE(cut.sheet);
    EXPECT_FALSE(cut.all_closed);
    ASSERT_EQ(cut.rigid.count(mesh), 1u);
    EXPECT_EQ(cut.rigid.at(mesh).size(), pole.positions.size());
}

}  // namespace

TEST(PropSheets, ARunnerThatIsTheMiddleOfItsTablesTopIsATablecloth) {
    // testdata/sheets/table_runner.glb: the runner lies flush between two strips of the table's top,
    // whose own face under it is not modelled (the slab's underside 9 cm below); its ends meet their
    // hanging parts on the line the underside's edge runs along; and its 12 vertices are so coarse
    // that a quarter of its median edge (0.6 m) reaches the hem, 12 cm below the underside.
    ImportResult imported = import_scene(test::testdata_dir() / "sheets" / "table_runner.glb");
    ASSERT_TRUE(imported.ok());
    const ModelGarments found = find_garments(imported.scene);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.class_name, "tablecloth");
    EXPECT_EQ(g.name, "Runner");
    EXPECT_EQ(g.matched_by, "geometry");
    // All of the runner (its top, both ends and both hanging parts), nothing of the table.
    ASSERT_EQ(g.parts.size(), 1u);
    EXPECT_EQ(imported.scene.meshes[static_cast<size_t>(g.parts[0].mesh)].node_name, "Runner");
    EXPECT_EQ(g.parts[0].triangles, 10u);

    const std::vector<PropSheet> sheets = prop_fixture::sheets_of(imported.scene);
    ASSERT_EQ(sheets.size(), 1u);
    std::map<std::string, double> m(sheets[0].measurements.begin(), sheets[0].measurements.end());
    // It lies where the top is flush with it (0.96 of its 1.21 m²) and down the slab's ends, the
    // underside under them (0.108): 0.88 at least. Without the flush top, 0.1 at most.
    EXPECT_GE(m.at("lying_share"), (0.96 + 0.108) / 1.212 - 0.001);
    EXPECT_LE(m.at("lying_share"), 1.0);
    EXPECT_NEAR(m.at("top_height"), 0.76 / 0.8, 0.001);           // its top's height over the table's depth
    EXPECT_NEAR(m.at("hangs_below_top"), (0.76 - 0.55) / 1.6, 0.001);  // the hem 21 cm below the top, 1.6 m long
}

TEST(PropSheets, ACoverModelledLyingOnItsMattressIsABlanketApartFromIt) {
    // testdata/sheets/covered_mattress.glb: the mattress is an open box (no thickness: sheet, as
    // Kenney's), and the cover on its own node is modelled lying on it, its top the mattress's top over
    // the same corners, so each edge of the top's outline carries four triangles, two of each node.
    // Joined there, mattress and cover were one piece held all round the mattress, and no rule took
    // it; apart, the cover lies on the mattress and hangs free over its four sides.
    ImportResult imported = import_scene(test::testdata_dir() / "sheets" / "covered_mattress.glb");
    ASSERT_TRUE(imported.ok());
    const ModelGarments found = find_garments(imported.scene);
    ASSERT_EQ(found.garments.size(), 1u);
    const Garment& g = found.garments[0];
    EXPECT_EQ(g.class_name, "blanket");
    EXPECT_EQ(g.name, "Cover");
    EXPECT_EQ(g.matched_by, "geometry");
    // The cover whole (its top and four drops), nothing of the mattress or the frame.
    ASSERT_EQ(g.parts.size(), 1u);
    EXPECT_EQ(imported.scene.meshes[static_cast<size_t>(g.parts[0].mesh)].node_name, "Cover");
    EXPECT_EQ(g.parts[0].triangles, 10u);

    const std::vector<PropSheet> sheets = prop_fixture::sheets_of(imported.scene);
    ASSERT_EQ(sheets.size(), 1u);
    std::map<std::string, double> m(sheets[0].measurements.begin(), sheets[0].measurements.end());
    // It lies on the mattress's top (2.4 m² of its 4.36: the drops are 0.306 m long on its 6.4 m
    // outline) and hangs 0.3 m below it over 2.12 m (the hems 6 cm out either end).
    const double drop = std::hypot(0.3, 0.06), area = 2.0 * 1.2 + 2 * (2.0 + 1.2) * drop;
    EXPECT_NEAR(m.at("lying_share"), 2.4 / area, 0.001);
    EXPECT_NEAR(m.at("hangs_below_top"), 0.3 / 2.12, 0.001);
    EXPECT_NEAR(m.at("top_height"), 0.45 / 1.32, 0.001);  // the top's height over the bed's width, hems included
}

}  // namespace weft

namespace weft {

TEST(PropSheets, ADoubledFlagInAChildOfANodeNamedForItIsFound) {
    // testdata/sheets/pole_flag.glb, Kenney's castle flags in small: the node `FlagPole` is named for
    // the flag and carries the pole and a finial on the cloth's material, which the name takes; the
    // cloth is its child `Group 1`, 16 tall quads modelled as doubled faces. Two things hid it: a
    // class a name had found was never looked for again, and over doubled faces every edge is
    // shared by four triangles, so no two triangles joined into a region and the flag was no piece.
    ImportResult imported = import_scene(test::testdata_dir() / "sheets" / "pole_flag.glb");
    ASSERT_TRUE(imported.ok());
    const Scene& scene = imported.scene;
    const ModelGarments found = find_garments(scene);
    ASSERT_EQ(found.garments.size(), 2u);
    EXPECT_EQ(found.garments[0].name, "FlagPole");  // the finial, as the name found it
    EXPECT_EQ(found.garments[0].matched_by, "mesh");
    const Garment& flag = found.garments[1];
    EXPECT_EQ(flag.class_name, "flag");
    EXPECT_EQ(flag.name, "Group 1");
    EXPECT_EQ(flag.matched_by, "geometry");
    // Both sides of the cloth: its 68 vertices, front and back, and nothing of the pole.
    ASSERT_EQ(flag.parts.size(), 1u);
    EXPECT_EQ(scene.meshes[static_cast<size_t>(flag.parts[0].mesh)].node_name, "Group 1");
    EXPECT_EQ(flag.parts[0].vertices.size(), 68u);
    EXPECT_EQ(flag.parts[0].triangles, 64u);

    // The finder alone, the finial taken as the name takes it (the pole, rigid, left to hold): one
    // piece, held along the pole.
    StaticSurfaceInput input;
    input.mesh_static.assign(scene.meshes.size(), 1);
    for (const Mesh& m : scene.meshes) {
        const bool finial = m.node_name == "FlagPole" && scene.materials[static_cast<size_t>(m.material)] == "Roof";
        input.vertex_taken.emplace_back(m.positions.size(), finial);
    }
    const std::vector<PropSheet> sheets = find_prop_sheets(scene, input, {"flag"});
    ASSERT_EQ(sheets.size(), 1u);
    std::map<std::string, double> m(sheets[0].measurements.begin(), sheets[0].measurements.end());
    EXPECT_NEAR(m.at("upright"), 1.0, 1e-3);
    EXPECT_NEAR(m.at("held_height"), 1.0, 1e-3);  // the whole hoist, 1.8 to 2.8 m
    EXPECT_LE(m.at("held_across"), 0.25);
}

}  // namespace weft
