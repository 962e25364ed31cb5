// Authoring mistakes refused by name (docs/proxy.md#authoring-checks): every defect reported, each naming
// the file, mesh, element and what to do; --repair drops triangle defects and counts them, and
// never accepts a non-manifold edge.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "proxy/core/proxy_check.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_codes.h"
#include "proxy/sheet_test_scenes.h"

namespace weft {
namespace {

using test::TriMesh;

SheetGarment all_meshes(const Scene& s) {
    SheetGarment g;
    g.name = "Sheet";
    for (size_t m = 0; m < s.meshes.size(); ++m) g.meshes.push_back(static_cast<int>(m));
    return g;
}

std::vector<Issue> with_code(const SheetBuildResult& r, const std::string& code) {
    std::vector<Issue> out;
    std::copy_if(r.issues.begin(), r.issues.end(), std::back_inserter(out), [&](const Issue& i) { return i.code == code; });
    return out;
}

bool mentions(const Issue& i, const std::string& text) { return i.message.find(text) != std::string::npos; }

TEST(SheetRefusal, EveryCodeIsInTheTable) {
    for (const char* code : {"EMPTY_GARMENT", "BAD_OPTION", "INDEX_OUT_OF_RANGE", "NON_FINITE_VERTEX",
                             "REPEATED_INDEX_TRIANGLE", "ZERO_AREA_TRIANGLE", "DUPLICATE_TRIANGLE", "NON_MANIFOLD_EDGE",
                             "DOUBLED_FACES", "FAN_SPLIT", "WINDING_REORIENTED", "INCONSISTENT_WINDING", "PIN_TARGET_NOT_FOUND", "PIN_VERTEX_OUT_OF_RANGE",
                             "PIN_HOLDER_NOT_FOUND", "NON_FINITE_FRAME", "CLOSED_ISLAND_HELD", "HELD_WHERE_IT_TOUCHES", "NOTHING_HELD", "EVERYTHING_HELD",
                             "COLOURING_INVALID"})
        EXPECT_NE(find_sheet_code(code), nullptr) << code;
}

TEST(SheetRefusal, MoebiusStripIsOneSided) {
    TriMesh m = test::moebius(12);
    Scene scene = test::scene_of(m, "Strip");
    SheetBuildResult r = build_sheet(scene, all_meshes(scene), source_resolution_options());
    EXPECT_FALSE(r.proxy.has_value());
    auto w = with_code(r, "INCONSISTENT_WINDING");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].severity, Severity::error);
    // The closing quad's triangle 22 (22, 1, 0) and the first quad's triangle 1 (0, 3, 1) both run
    // 1 -> 0.
    EXPECT_TRUE(mentions(w[0], "in_memory.glb")) << w[0].message;
    EXPECT_TRUE(mentions(w[0], "mesh 'Strip' triangle 1 (0, 3, 1)")) << w[0].message;
    EXPECT_TRUE(mentions(w[0], "mesh 'Strip' triangle 22 (22, 1, 0)")) << w[0].message;
    EXPECT_TRUE(mentions(w[0], "one-sided")) << w[0].message;
    EXPECT_EQ(w[0].pointer, "/meshes/Strip/triangles/22");
    EXPECT_EQ(r.stats.inconsistent_edges, 1u);
    // --repair does not touch winding.
    SheetOptions repair = source_resolution_options();
    repair.repair = true;
    EXPECT_FALSE(build_sheet(scene, all_meshes(scene), repair).proxy.has_value());
}

TEST(SheetRefusal, OneFlippedTriangleIsRewoundNotRefused) {
    TriMesh m = test::grid(4, 4, 0.1);
    std::swap(m.indices[3 * 8 + 1], m.indices[3 * 8 + 2]);  // triangle 8, interior
    Scene scene = test::scene_of(m);
    SheetBuildResult r = build_sheet(scene, all_meshes(scene), source_resolution_options());
    EXPECT_TRUE(with_code(r, "INCONSISTENT_WINDING").empty());
    auto w = with_code(r, "WINDING_REORIENTED");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].severity, Severity::warning);
    EXPECT_TRUE(mentions(w[0], "1 triangle (mesh 'Sheet' triangle 8 ")) << w[0].message;
    EXPECT_EQ(w[0].pointer, "/meshes/Sheet/triangles/8");
    EXPECT_EQ(r.stats.inconsistent_edges, 3u);
}

TEST(SheetRefusal, FanOfThreeIsNonManifoldEvenWhenRepairing) {
    TriMesh m = test::fan_of_three();
    Scene scene = test::scene_of(m, "Fan");
    for (bool repair : {false, true}) {
        SheetOptions o = source_resolution_options();
        o.repair = repair;
        SheetBuildResult r = build_sheet(scene, all_meshes(scene), o);
        EXPECT_FALSE(r.proxy.has_value());
        auto nm = with_code(r, "NON_MANIFOLD_EDGE");
        ASSERT_EQ(nm.size(), 1u);
        EXPECT_EQ(nm[0].severity, Severity::error);
        EXPECT_TRUE(mentions(nm[0], "mesh 'Fan' vertex 0 at (0, 0, 0)")) << nm[0].message;
        EXPECT_TRUE(mentions(nm[0], "mesh 'Fan' vertex 1 at (0, 1, 0)")) << nm[0].message;
        EXPECT_TRUE(mentions(nm[0], "shared by 3 triangles")) << nm[0].message;
        EXPECT_TRUE(mentions(nm[0], "triangle 0 (0, 1, 2), mesh 'Fan' triangle 1 (1, 0, 3), mesh 'Fan' triangle 2 (1, 0, 4)"))
            << nm[0].message;
        EXPECT_EQ(nm[0].pointer, "/meshes/Fan/edges/0-1");
        EXPECT_EQ(r.stats.non_manifold_edges, 1u);
    }
}

// A 3 x 3 grid (8 triangles) with one of each triangle defect appended.
TriMesh grid_with_defects() {
    TriMesh m = test::grid(3, 3, 0.5);  // vertices 0..8
    m.positions.push_back({0.25, 0, 0});   // 9: on the bottom edge between 0 and 1
    m.positions.push_back({1e-9, 0, 0});   // 10: vertex 0 again, within the weld tolerance
    m.add_triangle(4, 4, 5);  // 8: repeated index
    m.add_triangle(0, 9, 1);  // 9: collinear
    m.add_triangle(10, 0, 3); // 10: 10 welds onto 0
    m.add_triangle(1, 4, 0);  // 11: triangle 0 (0, 1, 4) again, the same way round (a back, wound
                              // against it, would be doubled faces: docs/proxy.md#doubled-faces)
    return m;
}

TEST(SheetRefusal, TriangleDefectsAreEachNamed) {
    TriMesh m = grid_with_defects();
    Scene scene = test::scene_of(m, "Cloth");
    SheetBuildResult r = build_sheet(scene, all_meshes(scene), source_resolution_options());
    EXPECT_FALSE(r.proxy.has_value());
    auto rep = with_code(r, "REPEATED_INDEX_TRIANGLE");
    ASSERT_EQ(rep.size(), 1u);
    EXPECT_TRUE(mentions(rep[0], "mesh 'Cloth' triangle 8 (4, 4, 5) names vertex 4 twice, at (0.5, 0.5, 0)")) << rep[0].message;
    EXPECT_TRUE(mentions(rep[0], "lying on one edge. Dropped.")) << rep[0].message;
    auto zero = with_code(r, "ZERO_AREA_TRIANGLE");
    ASSERT_EQ(zero.size(), 2u);
    EXPECT_TRUE(mentions(zero[0], "triangle 9 (0, 9, 1)")) << zero[0].message;
    EXPECT_TRUE(mentions(zero[0], "on one line")) << zero[0].message;
    EXPECT_TRUE(mentions(zero[1], "triangle 10 (10, 0, 3)")) << zero[1].message;
    EXPECT_TRUE(mentions(zero[1], "weld into one")) << zero[1].message;
    auto dup = with_code(r, "DUPLICATE_TRIANGLE");
    ASSERT_EQ(dup.size(), 1u);
    EXPECT_TRUE(mentions(dup[0], "triangle 11 (1, 4, 0)")) << dup[0].message;
    EXPECT_TRUE(mentions(dup[0], "as mesh 'Cloth' triangle 0 (0, 1, 4)")) << dup[0].message;
    EXPECT_EQ(dup[0].pointer, "/meshes/Cloth/triangles/11");
    EXPECT_EQ(r.stats.repeated_index_triangles, 1u);
    EXPECT_EQ(r.stats.zero_area_triangles, 2u);
    EXPECT_EQ(r.stats.duplicate_triangles, 1u);
    // The refusing pass judges the file's own edges: (0, 1) carries triangles 0, 9 (0-9-1 has
    // sides 0-9, 9-1, 1-0) and 11, so it is non-manifold too.
    EXPECT_GE(r.stats.non_manifold_edges, 1u);
    // Unambiguous, dropped with a warning whatever the options: the repeated index and the
    // collapsed triangle lie on one edge, the copy is the same face twice. The collinear triangle
    // (its neighbours could meet along it at a T) and the edge it makes non-manifold refuse.
    for (const Issue& i : r.issues) {
        const bool dropped = i.code == "REPEATED_INDEX_TRIANGLE" || i.code == "DUPLICATE_TRIANGLE" ||
                             (i.code == "ZERO_AREA_TRIANGLE" && mentions(i, "weld into one"));
        EXPECT_EQ(i.severity, dropped ? Severity::warning : Severity::error) << i.code << ": " << i.message;
    }
    EXPECT_TRUE(mentions(zero[0], "--repair")) << zero[0].message;
    EXPECT_TRUE(mentions(dup[0], "the same face twice. Dropped.")) << dup[0].message;
}

TEST(SheetRefusal, RepairDropsTriangleDefectsAndCountsThem) {
    TriMesh m = grid_with_defects();
    Scene scene = test::scene_of(m, "Cloth");
    SheetOptions o = source_resolution_options();
    o.repair = true;
    EXPECT_EQ(parse_pin_rule("top", o), "");
    SheetBuildResult r = build_sheet(scene, all_meshes(scene), o);
    ASSERT_TRUE(r.proxy.has_value());
    EXPECT_EQ(check_proxy(*r.proxy), "");
    EXPECT_EQ(r.stats.dropped_triangles, 4u);
    EXPECT_EQ(r.stats.triangles, 8u);
    EXPECT_EQ(r.stats.particles, 9u);  // vertex 9 is in no kept triangle; 10 welded onto 0
    EXPECT_EQ(r.proxy->vertex_particle[9], no_particle);
    EXPECT_EQ(r.proxy->vertex_particle[10], r.proxy->vertex_particle[0]);
    EXPECT_EQ(with_code(r, "REPEATED_INDEX_TRIANGLE").at(0).severity, Severity::warning);
    EXPECT_TRUE(mentions(with_code(r, "ZERO_AREA_TRIANGLE").at(0), "Dropped (--repair)."));
    EXPECT_EQ(with_code(r, "ZERO_AREA_TRIANGLE").size(), 2u);
    EXPECT_TRUE(with_code(r, "NON_MANIFOLD_EDGE").empty());
    nlohmann::json used = nlohmann::json::parse(r.proxy->builder_options);
    EXPECT_EQ(used["repair"], true);
}

/// A 4 x 4 grid modelled as doubled faces, as artists make a two-sided flag: the front's triangles,
/// then the back's over copies of its vertices (at the same positions, their own normals), each
/// wound the other way; `same_way` winds the back like the front (a face copied, not a back).
TriMesh doubled_grid(bool same_way = false) {
    TriMesh m = test::grid(4, 4, 0.25);
    const uint32_t nv = m.vertex_count(), nt = m.triangle_count();
    for (uint32_t v = 0; v < nv; ++v) m.positions.push_back(m.positions[v]);
    for (uint32_t t = 0; t < nt; ++t) {
        const uint32_t a = m.indices[3 * t] + nv, b = m.indices[3 * t + 1] + nv, c = m.indices[3 * t + 2] + nv;
        same_way ? m.add_triangle(a, b, c) : m.add_triangle(a, c, b);
    }
    return m;
}

TEST(SheetRefusal, DoubledFacesAreOneLayerWithBothSidesBound) {
    const TriMesh m = doubled_grid();
    Scene scene = test::scene_of(m, "Flag");
    SheetOptions o = source_resolution_options();
    EXPECT_EQ(parse_pin_rule("top", o), "");
    const SheetBuildResult r = build_sheet(scene, all_meshes(scene), o);
    ASSERT_TRUE(r.proxy.has_value());
    EXPECT_EQ(check_proxy(*r.proxy), "");
    // One warning for the piece, naming the first back and its front; nothing refused.
    const auto doubled = with_code(r, "DOUBLED_FACES");
    ASSERT_EQ(doubled.size(), 1u);
    EXPECT_EQ(doubled[0].severity, Severity::warning);
    EXPECT_TRUE(mentions(doubled[0], "18 triangles (mesh 'Flag' triangle 18 (16, 21, 17) over mesh 'Flag' triangle 0 (0, 1, 5)"))
        << doubled[0].message;
    EXPECT_EQ(doubled[0].pointer, "/meshes/Flag/triangles/18");
    EXPECT_TRUE(with_code(r, "DUPLICATE_TRIANGLE").empty());
    EXPECT_TRUE(with_code(r, "NON_MANIFOLD_EDGE").empty());
    // One layer: the front's 16 particles and 18 triangles, the back's dropped and counted.
    EXPECT_EQ(r.stats.particles, 16u);
    EXPECT_EQ(r.stats.triangles, 18u);
    EXPECT_EQ(r.stats.duplicate_triangles, 18u);
    EXPECT_EQ(r.stats.dropped_triangles, 18u);
    EXPECT_EQ(r.proxy->triangles.size(), 18u);
    // Both sides drawn and bound: every back vertex rides its front twin's particle.
    EXPECT_EQ(r.proxy->render_triangles.size(), 36u);
    for (uint32_t v = 0; v < 16; ++v) {
        EXPECT_EQ(r.proxy->vertex_particle[16 + v], r.proxy->vertex_particle[v]) << v;
        EXPECT_NE(r.proxy->binding_triangle[16 + v], no_triangle) << v;
    }
    EXPECT_EQ(r.stats.bound_vertices, 32u);
}

TEST(SheetRefusal, ABackOverPartOfTheSheetFollowsTheSheetsWinding) {
    // The back listed first, and over all but one triangle of the front: the front's lone triangle
    // says which way the sheet runs, so the later twins (the front) are kept.
    const TriMesh doubled = doubled_grid();
    TriMesh m;
    m.positions = doubled.positions;
    m.indices.assign(doubled.indices.begin() + 3 * 18, doubled.indices.end() - 3);  // backs 0..16
    m.indices.insert(m.indices.end(), doubled.indices.begin(), doubled.indices.begin() + 3 * 18);  // fronts 17..34
    Scene scene = test::scene_of(m, "Cloth");
    SheetOptions o = source_resolution_options();
    EXPECT_EQ(parse_pin_rule("top", o), "");
    const SheetBuildResult r = build_sheet(scene, all_meshes(scene), o);
    ASSERT_TRUE(r.proxy.has_value());
    const auto doubled_faces = with_code(r, "DOUBLED_FACES");
    ASSERT_EQ(doubled_faces.size(), 1u);
    EXPECT_TRUE(mentions(doubled_faces[0], "17 triangles (mesh 'Cloth' triangle 0 (16, 21, 17) over mesh 'Cloth' triangle 17 (0, 1, 5)"))
        << doubled_faces[0].message;
    EXPECT_TRUE(with_code(r, "INCONSISTENT_WINDING").empty());
    EXPECT_EQ(r.stats.triangles, 18u);
    EXPECT_EQ(r.stats.dropped_triangles, 17u);
    EXPECT_EQ(r.proxy->render_triangles.size(), 35u);
    // The proxy runs the front's way: the triangle over vertices 0, 1, 5 runs 0 -> 1 -> 5, as the front does.
    EXPECT_EQ(r.proxy->render_triangles.front(), (std::array<uint32_t, 3>{0, 1, 5}));
    const uint32_t p0 = r.proxy->vertex_particle[0], p1 = r.proxy->vertex_particle[1], p5 = r.proxy->vertex_particle[5];
    int front_way = 0;
    for (const auto& t : r.proxy->triangles)
        for (int k = 0; k < 3; ++k)
            front_way += t[k] == p0 && t[(k + 1) % 3] == p1 && t[(k + 2) % 3] == p5;
    EXPECT_EQ(front_way, 1);
}

TEST(SheetRefusal, DoubledFacesThatAreNotABackAreStillRefused) {
    // A face copied the same way round is no back: each copy is the same face twice, dropped by
    // name with a warning (unambiguous: the two are one), the sheet built on the first.
    Scene copied = test::scene_of(doubled_grid(true), "Flag");
    SheetOptions top = source_resolution_options();
    EXPECT_EQ(parse_pin_rule("top", top), "");
    SheetBuildResult r = build_sheet(copied, all_meshes(copied), top);
    ASSERT_TRUE(r.proxy.has_value());
    EXPECT_EQ(with_code(r, "DUPLICATE_TRIANGLE").size(), 18u);
    for (const Issue& i : with_code(r, "DUPLICATE_TRIANGLE")) {
        EXPECT_EQ(i.severity, Severity::warning);
        EXPECT_TRUE(mentions(i, "the same way round: the same face twice. Dropped.")) << i.message;
    }
    EXPECT_EQ(r.proxy->triangles.size(), 18u);
    EXPECT_EQ(r.proxy->render_triangles.size(), 36u);
    EXPECT_EQ(r.stats.dropped_triangles, 18u);
    EXPECT_TRUE(with_code(r, "DOUBLED_FACES").empty());
    // Three copies of a triangle: which two are the sheet is not for weft to guess.
    TriMesh thrice = doubled_grid();
    thrice.add_triangle(0, 1, 5);
    Scene three = test::scene_of(thrice, "Flag");
    r = build_sheet(three, all_meshes(three), source_resolution_options());
    EXPECT_FALSE(r.proxy.has_value());
    EXPECT_EQ(with_code(r, "DUPLICATE_TRIANGLE").size(), 2u);  // the back and the third copy of triangle 0
    ASSERT_EQ(with_code(r, "DOUBLED_FACES").size(), 1u);
    EXPECT_TRUE(mentions(with_code(r, "DOUBLED_FACES")[0], "17 triangles")) << with_code(r, "DOUBLED_FACES")[0].message;
}

TEST(SheetRefusal, NonFiniteVertexIsNamed) {
    TriMesh m = test::grid(3, 3, 0.5);
    m.positions[4] = {0.5, NAN, 0};
    m.positions.push_back({INFINITY, 0, 0});  // 9: in no triangle, so no finding
    Scene scene = test::scene_of(m, "Cloth");
    SheetBuildResult r = build_sheet(scene, all_meshes(scene), source_resolution_options());
    EXPECT_FALSE(r.proxy.has_value());
    auto nf = with_code(r, "NON_FINITE_VERTEX");
    ASSERT_EQ(nf.size(), 1u);
    EXPECT_TRUE(mentions(nf[0], "mesh 'Cloth' vertex 4 at (0.5, nan, 0)")) << nf[0].message;
    EXPECT_EQ(nf[0].pointer, "/meshes/Cloth/vertices/4");
    // The triangles round it are not also blamed for having no area.
    EXPECT_TRUE(with_code(r, "ZERO_AREA_TRIANGLE").empty());
    SheetOptions repair = source_resolution_options();
    repair.repair = true;
    EXPECT_FALSE(build_sheet(scene, all_meshes(scene), repair).proxy.has_value());
}

TEST(SheetRefusal, IndexOutOfRangeIsNamedNotRead) {
    TriMesh m = test::quad();
    m.add_triangle(0, 2, 99);
    Scene scene = test::scene_of(m, "Cloth");
    SheetBuildResult r = build_sheet(scene, all_meshes(scene), source_resolution_options());
    EXPECT_FALSE(r.proxy.has_value());
    auto bad = with_code(r, "INDEX_OUT_OF_RANGE");
    ASSERT_EQ(bad.size(), 1u);
    EXPECT_TRUE(mentions(bad[0], "mesh 'Cloth' triangle 2 names vertex 99, but the mesh has 4 vertices")) << bad[0].message;
    scene.meshes[0].indices.push_back(1);  // 10 indices
    EXPECT_EQ(with_code(build_sheet(scene, all_meshes(scene), source_resolution_options()), "INDEX_OUT_OF_RANGE").size(), 2u);
}

TEST(SheetRefusal, NothingLeftIsAnEmptyGarment) {
    TriMesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    m.add_triangle(0, 1, 2);
    Scene scene = test::scene_of(m);
    SheetOptions repair = source_resolution_options();
    repair.repair = true;
    SheetBuildResult r = build_sheet(scene, all_meshes(scene), repair);
    EXPECT_FALSE(r.proxy.has_value());
    EXPECT_EQ(with_code(r, "EMPTY_GARMENT").size(), 1u);
}

}  // namespace
}  // namespace weft
