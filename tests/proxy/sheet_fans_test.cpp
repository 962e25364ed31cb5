// Cloth meshes as artists make them (docs/proxy.md#fans, docs/proxy.md#winding): a piece meeting a
// sheet on an edge the sheet runs straight on across is split off, or dropped and drawn when it is a
// partition within the sheet's thickness; an orientable piece wound inconsistently is re-wound.
// The fixtures are testdata/bad/*.glb (tools/testdata/bad_inputs.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "proxy/core/proxy_check.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_codes.h"
#include "proxy/sheet_test_scenes.h"
#include "support/paths.h"

namespace weft {
namespace {

SheetGarment whole(const Scene& s) {
    SheetGarment g;
    g.name = "Cape";
    for (size_t m = 0; m < s.meshes.size(); ++m) g.meshes.push_back(static_cast<int>(m));
    return g;
}

SheetOptions top_pinned() {
    SheetOptions o = source_resolution_options();
    o.pin = PinRule::top;
    return o;
}

std::vector<Issue> fan_issues(const SheetBuildResult& r, const std::string& code) {
    std::vector<Issue> out;
    std::copy_if(r.issues.begin(), r.issues.end(), std::back_inserter(out), [&](const Issue& i) { return i.code == code; });
    return out;
}

bool fan_mentions(const Issue& i, const std::string& text) { return i.message.find(text) != std::string::npos; }

SheetBuildResult build_fixture(const std::string& name, const SheetOptions& options) {
    const Scene scene = test::import_ok(test::testdata_dir() / "bad" / name);
    return build_sheet(scene, whole(scene), options);
}

TEST(SheetFans, NewCodesAreInTheTable) {
    for (const char* code : {"FAN_SPLIT", "WINDING_REORIENTED"}) {
        const IssueCode* c = find_sheet_code(code);
        ASSERT_NE(c, nullptr) << code;
        EXPECT_EQ(c->severity, Severity::warning) << code;
    }
}

TEST(SheetFans, FinStandingSquareIsSplitOffAsAPieceOfItsOwn) {
    SheetBuildResult r = build_fixture("fin_sheet.glb", top_pinned());
    ASSERT_TRUE(r.proxy.has_value()) << (r.issues.empty() ? "" : r.issues.front().message);
    EXPECT_EQ(check_proxy(*r.proxy), "");
    const auto w = fan_issues(r, "FAN_SPLIT");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_TRUE(fan_mentions(w[0], "1 edge is shared by 3 triangles")) << w[0].message;
    EXPECT_TRUE(fan_mentions(w[0], "turning at most 0°")) << w[0].message;
    EXPECT_TRUE(fan_mentions(w[0], "turning at least 90°")) << w[0].message;
    EXPECT_TRUE(fan_mentions(w[0], "1 piece split off")) << w[0].message;
    EXPECT_TRUE(fan_issues(r, "NON_MANIFOLD_EDGE").empty());
    // The sheet's 9 particles and the fin's 4 (its own copies of the edge's two ends); the sheet's 8
    // interior edges and the fin's diagonal hinge, none across the fan; two pieces.
    EXPECT_EQ(r.proxy->particle_count(), 13u);
    EXPECT_EQ(r.proxy->hinges.size(), 9u);
    EXPECT_EQ(r.proxy->triangles.size(), 10u);
    EXPECT_EQ(r.stats.islands, 2u);
    EXPECT_EQ(r.stats.non_manifold_edges, 0u);
}

TEST(SheetFans, LowFinIsAPartitionDroppedAndDrawn) {
    SheetBuildResult r = build_fixture("partition_sheet.glb", top_pinned());
    ASSERT_TRUE(r.proxy.has_value()) << (r.issues.empty() ? "" : r.issues.front().message);
    EXPECT_EQ(check_proxy(*r.proxy), "");
    const auto w = fan_issues(r, "FAN_SPLIT");
    ASSERT_EQ(w.size(), 1u);
    EXPECT_TRUE(fan_mentions(w[0], "1 partition (2 triangles")) << w[0].message;
    // Simulated: the sheet alone. Drawn: the sheet and the partition, bound to it.
    EXPECT_EQ(r.proxy->particle_count(), 9u);
    EXPECT_EQ(r.proxy->triangles.size(), 8u);
    EXPECT_EQ(r.proxy->render_triangles.size(), 10u);
    EXPECT_EQ(r.stats.dropped_triangles, 2u);
    EXPECT_EQ(r.stats.islands, 1u);
}

TEST(SheetFans, ClothSharingAnEdgeWithARodHangsFromIt) {
    SheetOptions o = source_resolution_options();  // automatic pin: unskinned, no bone: touching
    SheetBuildResult r = build_fixture("cloth_on_rod.glb", o);
    ASSERT_TRUE(r.proxy.has_value()) << (r.issues.empty() ? "" : r.issues.front().message);
    EXPECT_EQ(check_proxy(*r.proxy), "");
    const auto w = fan_issues(r, "FAN_SPLIT");
    ASSERT_EQ(w.size(), 1u);
    // The rod's faces turn 30° across its bottom edge (a 12-gon), the cloth 75° from either.
    EXPECT_TRUE(fan_mentions(w[0], "2 edges are shared by 3 triangles")) << w[0].message;
    EXPECT_TRUE(fan_mentions(w[0], "turning at most 30°")) << w[0].message;
    EXPECT_TRUE(fan_mentions(w[0], "turning at least 75°")) << w[0].message;
    EXPECT_EQ(r.stats.islands, 2u);
    EXPECT_EQ(r.stats.closed_islands, 1u);
    // The cloth's top row (y = 1.0) is held, its lower rows are free.
    const ClothProxy& p = *r.proxy;
    size_t held_top = 0, free_below = 0, cloth_below = 0;
    for (uint32_t i = 0; i < p.particle_count(); ++i) {
        const Vec3 x = p.rest_position[i];
        if (std::abs(x.z) > 1e-9 || x.y > 1.0 + 1e-9) continue;  // the rod's particles
        if (std::abs(x.y - 1.0) < 1e-9) held_top += p.inverse_mass[i] == 0;
        else ++cloth_below, free_below += p.inverse_mass[i] > 0;
    }
    EXPECT_GE(held_top, 3u);
    EXPECT_EQ(cloth_below, 6u);
    EXPECT_EQ(free_below, 6u);
}

TEST(SheetFans, EvenFanOfThreeIsStillRefusedByEdge) {
    // Three triangles 120° apart round one edge: no pair runs straight on.
    test::TriMesh m;
    m.positions = {{0, 0, 0}, {0, 1, 0}, {1, 0.5, 0}, {-0.5, 0.5, 0.866}, {-0.5, 0.5, -0.866}};
    m.add_triangle(0, 1, 2);
    m.add_triangle(1, 0, 3);
    m.add_triangle(1, 0, 4);
    Scene scene = test::scene_of(m, "Fan");
    SheetBuildResult r = build_sheet(scene, whole(scene), top_pinned());
    EXPECT_FALSE(r.proxy.has_value());
    EXPECT_EQ(fan_issues(r, "NON_MANIFOLD_EDGE").size(), 1u);
    EXPECT_TRUE(fan_issues(r, "FAN_SPLIT").empty());
}

TEST(SheetFans, FinSharingTheSheetsVerticesIsRefused) {
    // The fin's triangle names the sheet's own vertices 1 and 4: no vertex of its own to split.
    const Scene scene = test::import_ok(test::testdata_dir() / "bad" / "non_manifold_sheet.glb");
    SheetBuildResult r = build_sheet(scene, whole(scene), top_pinned());
    EXPECT_FALSE(r.proxy.has_value());
    EXPECT_EQ(fan_issues(r, "NON_MANIFOLD_EDGE").size(), 1u);
}

TEST(SheetFans, BannerWithOneFlippedFaceIsRewound) {
    SheetBuildResult r = build_fixture("flipped_winding.glb", top_pinned());
    ASSERT_TRUE(r.proxy.has_value()) << (r.issues.empty() ? "" : r.issues.front().message);
    EXPECT_EQ(check_proxy(*r.proxy), "");
    EXPECT_TRUE(fan_issues(r, "INCONSISTENT_WINDING").empty());
    const auto w = fan_issues(r, "WINDING_REORIENTED");
    ASSERT_EQ(w.size(), 1u);
    // The middle quad's first triangle (8), the fewest to reverse.
    EXPECT_TRUE(fan_mentions(w[0], "1 triangle (mesh 'Sheet' triangle 8 ")) << w[0].message;
    EXPECT_EQ(r.stats.inconsistent_edges, 3u);
    // Every simulated triangle now faces the way the sheet does (+Z).
    const ClothProxy& p = *r.proxy;
    for (const auto& t : p.triangles) {
        const Vec3 n = cross(p.rest_position[t[1]] - p.rest_position[t[0]], p.rest_position[t[2]] - p.rest_position[t[0]]);
        EXPECT_GT(n.z, 0) << t[0] << " " << t[1] << " " << t[2];
    }
}

}  // namespace
}  // namespace weft
