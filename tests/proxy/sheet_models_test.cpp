// The sheet builder end to end on the shared third-party models (WEFT_SHARED_MODELS, MANIFEST.md):
// imported with lib/scene, built, checked by the codec's validator and the brute-force checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "proxy/core/proxy_check.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_test_scenes.h"
#include "scene/import.h"
#include "support/paths.h"

namespace weft {
namespace {

std::vector<int> meshes_where(const Scene& s, const std::function<bool(const Mesh&)>& keep) {
    std::vector<int> out;
    for (size_t m = 0; m < s.meshes.size(); ++m)
        if (keep(s.meshes[m])) out.push_back(static_cast<int>(m));
    return out;
}

std::vector<int> meshes_with_material(const Scene& s, const std::string& material) {
    return meshes_where(s, [&](const Mesh& m) { return m.material >= 0 && s.materials[m.material] == material; });
}

std::vector<Vec3> positions_of(const Scene& s, const std::vector<int>& meshes) {
    std::vector<Vec3> all;
    for (int m : meshes) all.insert(all.end(), s.meshes[m].positions.begin(), s.meshes[m].positions.end());
    return all;
}

ClothProxy build_model_ok(const Scene& scene, const SheetGarment& g, const SheetOptions& o, SheetStats& stats, Issues* issues = nullptr) {
    SheetBuildResult r = build_sheet(scene, g, o);
    stats = r.stats;
    if (issues) *issues = r.issues;
    if (!r.proxy) {
        for (const Issue& i : r.issues) ADD_FAILURE() << i.code << ": " << i.message;
        return {};
    }
    EXPECT_EQ(check_proxy(*r.proxy), "");
    test::expect_colouring_valid(*r.proxy);
    test::expect_d_geo_matches_floyd_warshall(*r.proxy);
    test::expect_vertices_map_to_their_particles(*r.proxy, positions_of(scene, g.meshes), stats.weld_tolerance);
    return std::move(*r.proxy);
}

std::map<std::string, int> count_codes(const Issues& issues) {
    std::map<std::string, int> counts;
    for (const Issue& i : issues) ++counts[i.code];
    return counts;
}

TEST(SheetModels, GoalFlagHangsFromItsPole) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Goal_Flag.glb");
    Scene scene = test::import_ok(file);
    SheetGarment g{"Flag", "flag", meshes_with_material(scene, "Flag"), {}};
    ASSERT_EQ(g.meshes.size(), 1u);
    SheetOptions o = source_resolution_options();
    ASSERT_EQ(parse_pin_rule("nearest:Metal", o), "");  // the pole shares the flag's node: name its material
    SheetStats stats;
    ClothProxy p = build_model_ok(scene, g, o, stats);
    // MANIFEST.md: 73 distinct positions, 136 triangles, 8 boundary edges.
    EXPECT_EQ(stats.source_vertices, 94u);
    EXPECT_EQ(p.particle_count(), 73u);
    EXPECT_EQ(p.triangles.size(), 136u);
    EXPECT_EQ(stats.boundary_edges, 8u);
    EXPECT_EQ(stats.non_manifold_edges, 0u);
    EXPECT_LE(p.colour_count(), 8u);
    // The hoist: the 8 vertices wrapped round the pole (14 to 42 mm from it; the next column is 58 mm).
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "Goal_Flag");
    EXPECT_EQ(p.pins[0].particles.size(), 8u);
    for (uint32_t q : p.pins[0].particles) EXPECT_LT(p.frame.rest_world.transform_point(p.rest_position[q]).x, 0.0);
    // The fly end is the farthest from the hoist along the cloth: about the flag's 0.9 m length.
    EXPECT_GT(stats.max_d_geo, 0.85);
    EXPECT_LT(stats.max_d_geo, 1.1);
    EXPECT_EQ(p.frame.node, "Goal_Flag");
}

TEST(SheetModels, BannerClothHangsAndItsBracketsAreRigid) {
    // Cloth and pole in one primitive: the brackets are two closed boxes (8 vertices, 12 triangles
    // each) in the banner's mesh. A closed piece is a solid, held rigid by the frame; the cloth,
    // one open piece, hangs from its top row.
    WEFT_REQUIRE_SHARED_MODEL(file, "kaykit_banner_blue/banner_blue.gltf");
    Scene scene = test::import_ok(file);
    ASSERT_EQ(scene.meshes.size(), 1u);
    SheetGarment g{"banner_blue", "flag", {0}, {}};
    SheetOptions o = source_resolution_options();
    ASSERT_EQ(parse_pin_rule("top", o), "");
    SheetStats stats;
    Issues issues;
    ClothProxy p = build_model_ok(scene, g, o, stats, &issues);
    // MANIFEST.md: 67 positions, 97 triangles, 27 boundary edges.
    EXPECT_EQ(p.particle_count(), 67u);
    EXPECT_EQ(p.triangles.size(), 97u);
    EXPECT_EQ(stats.boundary_edges, 27u);
    EXPECT_EQ(stats.islands, 3u);
    EXPECT_EQ(stats.closed_islands, 2u);
    EXPECT_EQ(count_codes(issues)["CLOSED_ISLAND_HELD"], 2);
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "banner_blue");
    EXPECT_EQ(stats.held, 16u + 6u);  // both brackets, and the six vertices of the fold's top at y = 3.727
    size_t top = 0;
    for (uint32_t q : p.pins[0].particles)
        top += std::abs(p.frame.rest_world.transform_point(p.rest_position[q]).y - 3.7275) < 1e-3;
    EXPECT_EQ(top, 6u);
    // Every cloth particle hangs from the top: d_geo finite everywhere, the hem about 3.4 m down.
    for (double d : p.d_geo) EXPECT_TRUE(std::isfinite(d));
    EXPECT_GT(stats.max_d_geo, 3.0);
}

TEST(SheetModels, KnightCapeRidesTheChest) {
    WEFT_REQUIRE_SHARED_MODEL(file, "kaykit_Knight.glb");
    Scene scene = test::import_ok(file);
    std::vector<int> cape = meshes_where(scene, [](const Mesh& m) { return m.node_name == "Knight_Cape"; });
    ASSERT_EQ(cape.size(), 1u);
    SheetGarment g{"Knight_Cape", "cape", cape, {}};
    SheetStats stats;
    ClothProxy p = build_model_ok(scene, g, source_resolution_options(), stats);
    // MANIFEST.md: 56 vertices, 84 triangles, 26 boundary edges; unskinned, parented to `chest`.
    EXPECT_EQ(p.particle_count(), 56u);
    EXPECT_EQ(p.triangles.size(), 84u);
    EXPECT_EQ(stats.boundary_edges, 26u);
    EXPECT_EQ(p.frame.node, "chest");
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "chest");
    // The default for a sheet under a bone: its top row, here the 7 collar vertices at 1.20-1.24 m
    // (the next are at 1.09 m).
    EXPECT_EQ(p.pins[0].particles.size(), 7u);
    for (uint32_t q : p.pins[0].particles)
        EXPECT_GT(p.frame.rest_world.transform_point(p.rest_position[q]).y, 1.19);
    // Rest positions are relative to the chest: frame · rest = scene position.
    const int chest = scene.find_node("chest");
    ASSERT_GE(chest, 0);
    EXPECT_NEAR(p.frame.rest_world.translation_part().y, scene.nodes[chest].world.translation_part().y, 1e-12);
    EXPECT_EQ(p.suggested_fabric, "denim");
}

TEST(SheetModels, CouchIsRefusedWithEveryDefectNamed) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Couch_Medium2.glb");
    Scene scene = test::import_ok(file);
    SheetGarment g{"Couch", "curtain", meshes_with_material(scene, "Couch_Mustard"), {}};
    ASSERT_EQ(g.meshes.size(), 1u);
    // MANIFEST.md counted with exact-position welding: 17 triangles with repeated indices, 24
    // zero-area triangles, 23 edges shared by more than 2 triangles, 16 duplicated triangles.
    SheetOptions exact = source_resolution_options();
    exact.weld_tolerance = 0.0;
    SheetBuildResult r = build_sheet(scene, g, exact);
    EXPECT_FALSE(r.proxy.has_value());
    std::map<std::string, int> counts = count_codes(r.issues);
    EXPECT_EQ(counts["REPEATED_INDEX_TRIANGLE"], 17);
    EXPECT_EQ(counts["ZERO_AREA_TRIANGLE"], 24);
    EXPECT_EQ(counts["NON_MANIFOLD_EDGE"], 23);
    EXPECT_EQ(counts["DUPLICATE_TRIANGLE"], 16);
    EXPECT_EQ(counts.size(), 4u);
    // Repeated indices, triangles whose corners weld into one (both lie on one edge) and copies of
    // a face or of such a triangle are dropped with a warning. The two collinear triangles (its
    // neighbours could meet along one at a T) and the non-manifold edges refuse.
    int zero_area_errors = 0;
    for (const Issue& i : r.issues) {
        if (i.code == "ZERO_AREA_TRIANGLE") zero_area_errors += i.severity == Severity::error;
        else EXPECT_EQ(i.severity, i.code == "NON_MANIFOLD_EDGE" ? Severity::error : Severity::warning) << i.code;
        EXPECT_NE(i.message.find("quaternius_Couch_Medium2.glb: "), std::string::npos) << i.message;
        EXPECT_NE(i.message.find("mesh '" + scene.meshes[g.meshes[0]].name + "'"), std::string::npos) << i.message;
        EXPECT_FALSE(i.pointer.empty());
    }
    EXPECT_EQ(zero_area_errors, 2);
    // The default weld (1e-5 of the couch's 5.2 m) also joins two pairs of positions 1.2e-7 m apart
    // that exact welding keeps: two more triangles collapse (the collinear two among them) and three
    // more duplicate. Every defect left lies on one edge or copies a face: all dropped with a
    // warning, and the edges left are manifold, so the couch is built as --repair builds it.
    SheetBuildResult d = build_sheet(scene, g, source_resolution_options());
    EXPECT_TRUE(d.proxy.has_value());
    counts = count_codes(d.issues);
    EXPECT_EQ(counts["REPEATED_INDEX_TRIANGLE"], 17);
    EXPECT_EQ(counts["ZERO_AREA_TRIANGLE"], 26);
    EXPECT_EQ(counts["NON_MANIFOLD_EDGE"], 0);
    EXPECT_EQ(counts["DUPLICATE_TRIANGLE"], 19);
    EXPECT_FALSE(has_error(d.issues));
    EXPECT_EQ(d.stats.dropped_triangles, 775u - 732u);
    // Repaired, the degenerate triangles go and every edge is manifold: the couch is five closed
    // cushions and frames, each a solid held rigid — nothing to simulate, but nothing refused.
    SheetOptions repair = source_resolution_options();
    repair.repair = true;
    SheetStats stats;
    Issues issues;
    ClothProxy p = build_model_ok(scene, g, repair, stats, &issues);
    EXPECT_EQ(stats.non_manifold_edges, 0u);
    EXPECT_EQ(stats.dropped_triangles, 775u - 732u);
    EXPECT_EQ(p.triangles.size(), 732u);
    EXPECT_EQ(stats.closed_islands, 5u);
    EXPECT_EQ(stats.held, p.particle_count());
    for (const Issue& i : issues) EXPECT_NE(i.severity, Severity::error) << i.message;
}

}  // namespace
}  // namespace weft
