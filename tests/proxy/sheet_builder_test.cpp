// The sheet builder on hand-made meshes: rows, masses, welding, colouring, d_geo, determinism.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "proxy/core/codec.h"
#include "proxy/core/proxy_check.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_test_scenes.h"

namespace weft {
namespace {

using test::TriMesh;

SheetGarment garment_of(const Scene& s, std::string class_name = "flag") {
    SheetGarment g;
    g.name = "Sheet";
    g.garment_class = std::move(class_name);
    for (size_t m = 0; m < s.meshes.size(); ++m) g.meshes.push_back(static_cast<int>(m));
    return g;
}

SheetOptions pinned(const std::string& rule) {
    SheetOptions o = source_resolution_options();
    EXPECT_EQ(parse_pin_rule(rule, o), "");
    return o;
}

// Builds and asserts success, the codec's structural check and the brute-force colouring check.
ClothProxy build_ok(const Scene& scene, const SheetGarment& g, const SheetOptions& o, SheetStats* stats = nullptr) {
    SheetBuildResult r = build_sheet(scene, g, o);
    if (!r.proxy) {
        for (const Issue& i : r.issues) ADD_FAILURE() << i.code << ": " << i.message;
        return {};
    }
    EXPECT_EQ(check_proxy(*r.proxy), "");
    test::expect_colouring_valid(*r.proxy);
    if (stats) *stats = r.stats;
    return std::move(*r.proxy);
}

size_t edge_index(const ClothProxy& p, uint32_t a, uint32_t b) {
    for (size_t e = 0; e < p.edges.size(); ++e)
        if ((p.edges[e][0] == a && p.edges[e][1] == b) || (p.edges[e][0] == b && p.edges[e][1] == a)) return e;
    return SIZE_MAX;
}

TEST(SheetBuilder, QuadRowsAndMasses) {
    TriMesh m = test::quad();
    Scene scene = test::scene_of(m);
    SheetStats stats;
    ClothProxy p = build_ok(scene, garment_of(scene), pinned("none"), &stats);
    ASSERT_EQ(p.particle_count(), 4u);
    EXPECT_EQ(p.edges.size(), 5u);
    EXPECT_EQ(p.hinges.size(), 1u);
    EXPECT_EQ(p.triangles.size(), 2u);
    EXPECT_EQ(stats.boundary_edges, 4u);
    const uint32_t v0 = test::particle_of(p, 0), v1 = test::particle_of(p, 1), v2 = test::particle_of(p, 2),
                   v3 = test::particle_of(p, 3);
    EXPECT_DOUBLE_EQ(p.rest_length[edge_index(p, v0, v1)], 1.0);
    EXPECT_DOUBLE_EQ(p.rest_length[edge_index(p, v1, v2)], 1.0);
    EXPECT_DOUBLE_EQ(p.rest_length[edge_index(p, v0, v2)], std::sqrt(2.0));
    // The hinge: the diagonal as triangle (0,1,2) runs it, 2 -> 0, then wings 1 and 3.
    EXPECT_EQ(p.hinges[0], (std::array<uint32_t, 4>{v2, v0, v1, v3}));
    // 1 m² of the flag's cotton, 0.15 kg/m²: corners 0 and 2 sit in both triangles.
    EXPECT_NEAR(p.total_mass, 0.15, 1e-15);
    EXPECT_NEAR(1 / p.inverse_mass[v0], 0.05, 1e-15);
    EXPECT_NEAR(1 / p.inverse_mass[v2], 0.05, 1e-15);
    EXPECT_NEAR(1 / p.inverse_mass[v1], 0.025, 1e-15);
    EXPECT_NEAR(1 / p.inverse_mass[v3], 0.025, 1e-15);
    EXPECT_EQ(p.suggested_fabric, "cotton");
    EXPECT_EQ(p.garment, "Sheet");
    EXPECT_EQ(p.garment_class, "flag");
    EXPECT_EQ(p.source_file, "in_memory.glb");
    ASSERT_EQ(p.source_meshes.size(), 1u);
    EXPECT_EQ(p.source_meshes[0].name, "Sheet");
    EXPECT_EQ(p.source_meshes[0].material, "Cloth");
    EXPECT_EQ(p.source_meshes[0].vertex_count, 4u);
    // Nothing held: it falls, every d_geo infinite.
    for (double d : p.d_geo) EXPECT_TRUE(std::isinf(d));
    EXPECT_TRUE(p.pins.empty());
}

TEST(SheetBuilder, StripHasAHingePerInteriorEdge) {
    TriMesh m = test::strip(5);  // 12 vertices, 10 triangles
    Scene scene = test::scene_of(m);
    SheetStats stats;
    ClothProxy p = build_ok(scene, garment_of(scene), pinned("left"), &stats);
    EXPECT_EQ(p.particle_count(), 12u);
    EXPECT_EQ(p.edges.size(), 5u + 6u + 5u + 5u);  // bottom, verticals, top, diagonals
    EXPECT_EQ(stats.boundary_edges, 12u);
    EXPECT_EQ(p.hinges.size(), 4u + 5u);            // inner verticals, diagonals
    // Every hinge's wings sit on either side of its edge: the four particles are distinct and the
    // two triangles (x0, x1, x2) and (x1, x0, x3) are faces of the sheet.
    for (const auto& h : p.hinges) {
        auto has_face = [&](uint32_t a, uint32_t b, uint32_t c) {
            for (const auto& t : p.triangles)
                for (int r = 0; r < 3; ++r)
                    if (t[r] == a && t[(r + 1) % 3] == b && t[(r + 2) % 3] == c) return true;
            return false;
        };
        EXPECT_TRUE(has_face(h[0], h[1], h[2]));
        EXPECT_TRUE(has_face(h[1], h[0], h[3]));
    }
    // Held: the left column (x = 0), two particles, by the sheet's own node.
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "SheetNode");
    EXPECT_EQ(p.pins[0].particles.size(), 2u);
    test::expect_d_geo_matches_floyd_warshall(p);
    // Along the strip, d_geo is the distance along X (the bottom and top rows are straight lines).
    for (uint32_t v = 0; v < 12; ++v) EXPECT_NEAR(p.d_geo[test::particle_of(p, v)], m.positions[v].x, 1e-12) << v;
}

TEST(SheetBuilder, GridColoursInEightOrFewerAndHangsFromItsTop) {
    TriMesh m = test::grid(64, 64, 0.02);
    Scene scene = test::scene_of(m);
    SheetStats stats;
    ClothProxy p = build_ok(scene, garment_of(scene), pinned("top"), &stats);
    EXPECT_EQ(p.particle_count(), 64u * 64u);
    EXPECT_LE(p.colour_count(), 8u);
    EXPECT_EQ(stats.colours, p.colour_count());
    EXPECT_GE(stats.smallest_colour, 1u);
    EXPECT_LE(stats.smallest_colour, stats.largest_colour);
    EXPECT_EQ(stats.held, 64u);
    // From the top row straight down: d_geo = (63 - row) x 2 cm, nearest held = the column's top.
    for (uint32_t y = 0; y < 64; ++y)
        for (uint32_t x = 0; x < 64; ++x) {
            const uint32_t q = test::particle_of(p, y * 64 + x);
            EXPECT_NEAR(p.d_geo[q], (63 - y) * 0.02, 1e-12);
            EXPECT_EQ(p.nearest_held[q], test::particle_of(p, 63 * 64 + x));
        }
    // 64 x 64 x 2 cm = 1.26² m² of cotton.
    EXPECT_NEAR(p.total_mass, 0.15 * (63 * 0.02) * (63 * 0.02), 1e-12);
    test::expect_vertices_map_to_their_particles(p, m.positions, stats.weld_tolerance);
}

TEST(SheetBuilder, CylinderWeldsItsSeamShut) {
    TriMesh seam = test::cylinder(16, 6, 0.5, 1.0, /*uv_seam=*/true);
    TriMesh shut = test::cylinder(16, 6);
    Scene a = test::scene_of(seam), b = test::scene_of(shut);
    SheetStats sa, sb;
    ClothProxy pa = build_ok(a, garment_of(a), pinned("top"), &sa);
    ClothProxy pb = build_ok(b, garment_of(b), pinned("top"), &sb);
    EXPECT_EQ(sa.source_vertices, 6u * 17u);
    EXPECT_EQ(pa.particle_count(), 6u * 16u);
    EXPECT_EQ(pa.particle_count(), pb.particle_count());
    EXPECT_EQ(pa.edges.size(), pb.edges.size());
    EXPECT_EQ(pa.hinges.size(), pb.hinges.size());
    EXPECT_EQ(sa.boundary_edges, 2u * 16u);  // the rims only: no boundary around
    EXPECT_EQ(sa.islands, 1u);
    EXPECT_EQ(sa.closed_islands, 0u);  // open at both rims
    test::expect_vertices_map_to_their_particles(pa, seam.positions, sa.weld_tolerance);
    for (uint32_t j = 0; j < 6; ++j) EXPECT_EQ(test::particle_of(pa, j * 17 + 16), test::particle_of(pa, j * 17));
    test::expect_d_geo_matches_floyd_warshall(pa);
    EXPECT_EQ(pa.pins[0].particles.size(), 16u);  // the top ring
}

TEST(SheetBuilder, TwoPiecesOnlyOneHeld) {
    TriMesh m = test::two_pieces();
    Scene scene = test::scene_of(m);
    SheetStats stats;
    // Vertices 2 and 3 are the first piece's top edge.
    ClothProxy p = build_ok(scene, garment_of(scene), pinned("vertices:2,3"), &stats);
    EXPECT_EQ(stats.islands, 2u);
    test::expect_d_geo_matches_floyd_warshall(p);
    for (uint32_t v = 4; v < 8; ++v) {
        EXPECT_TRUE(std::isinf(p.d_geo[test::particle_of(p, v)])) << v;
        EXPECT_EQ(p.nearest_held[test::particle_of(p, v)], no_particle);
    }
    EXPECT_DOUBLE_EQ(p.d_geo[test::particle_of(p, 0)], 1.0);
    // The top rule holds both pieces' top edges.
    ClothProxy q = build_ok(scene, garment_of(scene), pinned("top"));
    for (double d : q.d_geo) EXPECT_TRUE(std::isfinite(d));
    EXPECT_EQ(q.pins[0].particles.size(), 4u);
}

TEST(SheetBuilder, WeldsAcrossPrimitivesOfOneGarment) {
    // A 6 x 5 grid cut along row 2 into two meshes, each with its own copy of that row; the lower
    // one offset by a rounding error (1e-9 m) as exporters leave it.
    TriMesh whole = test::grid(6, 5, 0.1);
    TriMesh lower, upper;
    for (uint32_t y = 0; y < 5; ++y)
        for (uint32_t x = 0; x < 6; ++x) {
            Vec3 p = whole.positions[y * 6 + x];
            if (y <= 2) lower.positions.push_back(p + Vec3{1e-9, 0, 0});
            if (y >= 2) upper.positions.push_back(p);
        }
    for (uint32_t y = 0; y < 2; ++y)
        for (uint32_t x = 0; x < 5; ++x) {
            uint32_t a = y * 6 + x;
            lower.add_triangle(a, a + 1, a + 7);
            lower.add_triangle(a, a + 7, a + 6);
            upper.add_triangle(a, a + 1, a + 7);
            upper.add_triangle(a, a + 7, a + 6);
        }
    Scene scene = test::scene_of(lower, "Lower");
    test::add_mesh(scene, upper, "Upper", 1, "Cloth");
    SheetStats stats;
    ClothProxy p = build_ok(scene, garment_of(scene), pinned("top"), &stats);
    EXPECT_EQ(stats.source_vertices, 36u);
    EXPECT_EQ(p.particle_count(), 30u);
    EXPECT_EQ(stats.islands, 1u);
    ASSERT_EQ(p.source_meshes.size(), 2u);
    EXPECT_EQ(p.source_meshes[1].name, "Upper");
    EXPECT_EQ(p.source_meshes[1].vertex_offset, 18u);
    for (uint32_t x = 0; x < 6; ++x) EXPECT_EQ(test::particle_of(p, 12 + x), test::particle_of(p, 18 + x)) << x;
    std::vector<Vec3> all = lower.positions;
    all.insert(all.end(), upper.positions.begin(), upper.positions.end());
    test::expect_vertices_map_to_their_particles(p, all, stats.weld_tolerance);
    test::expect_d_geo_matches_floyd_warshall(p);
    // With the tolerance overridden to 0 only byte-identical positions weld: two pieces.
    SheetOptions exact = pinned("top");
    exact.weld_tolerance = 0.0;
    SheetStats s0;
    build_ok(scene, garment_of(scene), exact, &s0);
    EXPECT_EQ(s0.particles, 36u);
    EXPECT_EQ(s0.islands, 2u);
}

TEST(SheetBuilder, HeldParticlesHaveNoInverseMassAndAreNamedByTheirPin) {
    TriMesh m = test::grid(5, 4, 0.1);
    Scene scene = test::scene_of(m);
    ClothProxy p = build_ok(scene, garment_of(scene), pinned("bottom"));
    ASSERT_EQ(p.pins.size(), 1u);
    size_t held = 0;
    for (uint32_t q = 0; q < p.particle_count(); ++q) {
        bool pinned_here = std::binary_search(p.pins[0].particles.begin(), p.pins[0].particles.end(), q);
        EXPECT_EQ(p.held(q), pinned_here) << q;
        held += p.held(q);
        if (p.held(q)) {
            EXPECT_EQ(p.d_geo[q], 0.0);
        }
    }
    EXPECT_EQ(held, 5u);
    for (uint32_t x = 0; x < 5; ++x) EXPECT_TRUE(p.held(test::particle_of(p, x)));
    // Total mass counts held particles too.
    EXPECT_NEAR(p.total_mass, 0.15 * 0.4 * 0.3, 1e-15);
}

TEST(SheetBuilder, ColouringIsValidForEveryRowOnEveryMesh) {
    for (TriMesh m : {test::quad(), test::strip(7), test::grid(9, 7), test::cylinder(8, 5), test::cylinder(3, 3),
                      test::two_pieces(), test::grid(40, 3)}) {
        Scene scene = test::scene_of(m);
        for (const char* rule : {"none", "top", "left"}) {
            ClothProxy p = build_ok(scene, garment_of(scene), pinned(rule));
            test::expect_d_geo_matches_floyd_warshall(p);
            test::expect_vertices_map_to_their_particles(p, m.positions, 1e-5 * 10);
        }
    }
}

TEST(SheetBuilder, ColourRangesAreOrderedAndHeldParticlesNeverBlock) {
    // With the whole top held, a held particle's two free neighbours may share a colour.
    TriMesh m = test::grid(4, 2, 0.1);
    Scene scene = test::scene_of(m);
    ClothProxy p = build_ok(scene, garment_of(scene), pinned("top"));
    // The free particles are the bottom row, a path 0-1-2-3 (every other row they share runs
    // through a held particle): two colours, the held ones sharing colour 0. Were held particles to
    // block colours, the diagonals would force a third and a fourth.
    EXPECT_EQ(p.colour_count(), 2u);
    EXPECT_EQ(p.colour_ranges, (std::vector<uint32_t>{0, 6, 8}));
}

TEST(SheetBuilder, OutputIsDeterministic) {
    TriMesh m = test::cylinder(12, 7, 0.3, 0.8, true);
    Scene scene = test::scene_of(m);
    ClothProxy a = build_ok(scene, garment_of(scene), pinned("top"));
    ClothProxy b = build_ok(scene, garment_of(scene), pinned("top"));
    EXPECT_EQ(encode_proxy(a), encode_proxy(b));
}

TEST(SheetBuilder, RecordsTheOptionsItUsed) {
    TriMesh m = test::grid(5, 5, 0.1);
    Scene scene = test::scene_of(m);
    SheetOptions o = pinned("top");
    o.fabric = "silk";
    SheetStats stats;
    ClothProxy p = build_ok(scene, garment_of(scene), o, &stats);
    nlohmann::json used = nlohmann::json::parse(p.builder_options);
    EXPECT_EQ(used["pin"], "top");
    EXPECT_EQ(used["fabric"], "silk");
    EXPECT_DOUBLE_EQ(used["areal_density"].get<double>(), 0.06);
    EXPECT_DOUBLE_EQ(used["weld_tolerance"].get<double>(), 1e-5 * std::sqrt(0.32));
    EXPECT_DOUBLE_EQ(used["pin_tolerance"].get<double>(), 0.025);  // a quarter of the median 0.1 m edge
    EXPECT_EQ(used["repair"], false);
    EXPECT_EQ(p.builder_options.find('\n'), std::string::npos);  // compact
    EXPECT_EQ(p.suggested_fabric, "silk");
    EXPECT_NEAR(p.total_mass, 0.06 * 0.16, 1e-15);
    // An explicit density wins over the fabric's.
    o.areal_density = 0.5;
    EXPECT_NEAR(build_ok(scene, garment_of(scene), o).total_mass, 0.5 * 0.16, 1e-15);
}

TEST(SheetBuilder, RefusesBadOptionsByName) {
    TriMesh m = test::quad();
    Scene scene = test::scene_of(m);
    auto code_of = [&](const SheetOptions& o) {
        SheetBuildResult r = build_sheet(scene, garment_of(scene), o);
        EXPECT_FALSE(r.proxy.has_value());
        return r.issues.empty() ? std::string() : r.issues[0].code;
    };
    SheetOptions o = source_resolution_options();
    o.weld_tolerance = -1.0;
    EXPECT_EQ(code_of(o), "BAD_OPTION");
    o = {};
    o.pin_weight = 0;
    EXPECT_EQ(code_of(o), "BAD_OPTION");
    o = {};
    o.fabric = "velvet";
    EXPECT_EQ(code_of(o), "BAD_OPTION");
    o = {};
    o.areal_density = -0.1;
    EXPECT_EQ(code_of(o), "BAD_OPTION");
    SheetGarment g = garment_of(scene);
    g.meshes = {3};
    SheetBuildResult r = build_sheet(scene, g, source_resolution_options());
    ASSERT_FALSE(r.issues.empty());
    EXPECT_EQ(r.issues[0].code, "EMPTY_GARMENT");
    g.meshes.clear();
    EXPECT_EQ(build_sheet(scene, g, source_resolution_options()).issues.at(0).code, "EMPTY_GARMENT");
}

TEST(PinRuleText, ParsesEveryForm) {
    SheetOptions o = source_resolution_options();
    EXPECT_EQ(parse_pin_rule("top", o), "");
    EXPECT_EQ(o.pin, PinRule::top);
    EXPECT_EQ(parse_pin_rule("nearest:Pole", o), "");
    EXPECT_EQ(o.pin, PinRule::nearest);
    EXPECT_EQ(o.pin_target, "Pole");
    EXPECT_EQ(parse_pin_rule("vertices:3,17,42", o), "");
    EXPECT_EQ(o.pin, PinRule::vertices);
    EXPECT_EQ(o.pin_vertices, (std::vector<uint32_t>{3, 17, 42}));
    EXPECT_NE(parse_pin_rule("nearest:", o), "");
    EXPECT_NE(parse_pin_rule("vertices:1,,2", o), "");
    EXPECT_NE(parse_pin_rule("vertices:-1", o), "");
    EXPECT_NE(parse_pin_rule("vertices:99999999999", o), "");
    EXPECT_NE(parse_pin_rule("middle", o), "");
    EXPECT_EQ(o.pin, PinRule::vertices);  // a refused rule changes nothing
}

TEST(PinRuleText, AppliesConfigJson) {
    SheetOptions o = source_resolution_options();
    EXPECT_EQ(apply_pin_json(nlohmann::json("left"), o), "");
    EXPECT_EQ(o.pin, PinRule::left);
    EXPECT_EQ(apply_pin_json(nlohmann::json::parse(R"({"vertices": [1, 2], "holder": "chest"})"), o), "");
    EXPECT_EQ(o.pin, PinRule::vertices);
    EXPECT_EQ(o.pin_vertices, (std::vector<uint32_t>{1, 2}));
    EXPECT_EQ(o.pin_holder, "chest");
    EXPECT_EQ(apply_pin_json(nlohmann::json::parse(R"({"target": "Pole", "tolerance": 0.05})"), o), "");
    EXPECT_EQ(o.pin, PinRule::nearest);
    EXPECT_EQ(o.pin_target, "Pole");
    EXPECT_DOUBLE_EQ(*o.pin_tolerance, 0.05);
    EXPECT_EQ(apply_pin_json(nlohmann::json::parse(R"({"rule": "weights", "weight": 0.9})"), o), "");
    EXPECT_EQ(o.pin, PinRule::weights);
    EXPECT_DOUBLE_EQ(o.pin_weight, 0.9);
    EXPECT_NE(apply_pin_json(nlohmann::json::parse(R"({"rule": "top", "colour": 1})"), o), "");
    EXPECT_NE(apply_pin_json(nlohmann::json::parse(R"({"vertices": [-1]})"), o), "");
    EXPECT_NE(apply_pin_json(nlohmann::json(3), o), "");
    EXPECT_EQ(o.pin, PinRule::weights);
}

}  // namespace
}  // namespace weft
