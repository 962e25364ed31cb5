// Clumps (lib/garment/clumps.h): islands over the mesh's own edges after welding, radial wedges,
// and how much of the turn round an axis a piece covers (docs/growth.md#clumps).
#include <gtest/gtest.h>

#include <cmath>

#include "garment/clumps.h"
#include "garment/garments.h"
#include "grow/grow_scenes.h"

namespace weft {
namespace {

using namespace grow_test;

Garment whole_mesh_garment(const Scene& s, int mesh) {
    Garment g;
    g.name = "Hair";
    g.class_name = "hair";
    GarmentPart part;
    part.mesh = mesh;
    for (uint32_t v = 0; v < s.meshes[static_cast<size_t>(mesh)].positions.size(); ++v) part.vertices.push_back(v);
    g.parts.push_back(part);
    return g;
}

TEST(Clumps, TwoStrandsPassingCloseStayTwoIslands) {
    Body b = make_body();
    const int m = add_mesh(b.scene, "Hair", "Hair");
    // 1 mm apart along X, never sharing an edge: clustering by position would merge them.
    add_strip(b.scene.meshes[size_t(m)], {0.0, 1.6, 0.1}, 0.02, 0.3, 6, 2);
    add_strip(b.scene.meshes[size_t(m)], {0.021, 1.6, 0.1}, 0.02, 0.3, 6, 2);
    const GarmentSurface surface = weld_garment(b.scene, whole_mesh_garment(b.scene, m));
    const std::vector<Clump> islands = island_clumps(surface);
    ASSERT_EQ(islands.size(), 2u);
    EXPECT_EQ(islands[0].vertices.size(), 14u);
    EXPECT_EQ(islands[1].vertices.size(), 14u);
    EXPECT_EQ(islands[0].wedge, -1);
}

TEST(Clumps, ASeamSplitStrandWeldsIntoOneIsland) {
    Body b = make_body();
    const int m = add_mesh(b.scene, "Hair", "Hair");
    Mesh& mesh = b.scene.meshes[size_t(m)];
    // Two halves with their own copies of the vertices on the seam between them (a UV seam).
    add_strip(mesh, {0, 1.6, 0.1}, 0.02, 0.15, 3, 2);
    add_strip(mesh, {0, 1.45, 0.1}, 0.02, 0.15, 3, 2);
    const GarmentSurface surface = weld_garment(b.scene, whole_mesh_garment(b.scene, m));
    EXPECT_EQ(surface.source_count(), 16u);
    EXPECT_EQ(surface.welded_count(), 14u);
    const std::vector<Clump> islands = island_clumps(surface);
    ASSERT_EQ(islands.size(), 1u);
    EXPECT_EQ(islands[0].vertices.size(), 14u);
}

TEST(Clumps, PartOfFindsEachSourceVertexsPart) {
    Body b = make_body();
    const int m0 = add_mesh(b.scene, "Hair", "Hair");
    const int m1 = add_mesh(b.scene, "Hair2", "Hair");
    add_strip(b.scene.meshes[size_t(m0)], {0, 1.6, 0.1}, 0.02, 0.1, 1, 2);
    add_strip(b.scene.meshes[size_t(m1)], {0.5, 1.6, 0.1}, 0.02, 0.1, 2, 2);
    Garment g = whole_mesh_garment(b.scene, m0);
    g.parts.push_back(whole_mesh_garment(b.scene, m1).parts.front());
    const GarmentSurface surface = weld_garment(b.scene, g);
    ASSERT_EQ(surface.part_first, (std::vector<uint32_t>{0, 4, 10}));
    EXPECT_EQ(surface.part_of(3), 0u);
    EXPECT_EQ(surface.part_of(4), 1u);
    EXPECT_EQ(surface.mesh_vertex[4], 0u);
    EXPECT_EQ(island_clumps(surface).size(), 2u);
}

TEST(Clumps, WedgesCutARingIntoEqualPanelsFromTheFront) {
    Body b = make_body();
    const int m = add_mesh(b.scene, "Skirt", "Skirt");
    add_band(b.scene.meshes[size_t(m)], {0, 1.0, 0}, 0.15, 0.25, 0.4, 24, 2, 0);
    const GarmentSurface surface = weld_garment(b.scene, whole_mesh_garment(b.scene, m));
    std::vector<uint32_t> all(surface.welded_count());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    const WedgeAxis axis{{0, 1.0, 0}, {0, 1, 0}, {0, 0, 1}};
    const std::vector<Clump> wedges = wedge_clumps(surface, all, axis, 12, 7);
    ASSERT_EQ(wedges.size(), 12u);
    for (const Clump& w : wedges) {
        EXPECT_EQ(w.vertices.size(), 6u) << "panel " << w.wedge;  // two columns of three rings
        EXPECT_EQ(w.island, 7u);
    }
    // Panel 3 is a quarter turn from the front, right-handed about +Y: towards +X.
    for (uint32_t v : wedges[3].vertices) {
        EXPECT_GT(surface.position[v].x, 0.1);
        EXPECT_NEAR(azimuth(surface.position[v], axis), M_PI / 2, M_PI / 12 + 1e-9);
    }
    // Panel 0 faces +Z.
    for (uint32_t v : wedges[0].vertices) EXPECT_GT(surface.position[v].z, 0.1);
}

TEST(Clumps, AVertexOnAPanelBorderGoesPastIt) {
    GarmentSurface surface;
    surface.position = {{std::sin(M_PI / 12), 0, std::cos(M_PI / 12)}, {-std::sin(M_PI / 12), 0, std::cos(M_PI / 12)}};
    const WedgeAxis axis{{0, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    const std::vector<uint32_t> both{0, 1};
    const std::vector<Clump> wedges = wedge_clumps(surface, both, axis, 12, 0);
    // +15 degrees is panel 1's first; -15 degrees is panel 0's first.
    ASSERT_EQ(wedges.size(), 2u);
    EXPECT_EQ(wedges[0].wedge, 0);
    EXPECT_EQ(wedges[0].vertices, (std::vector<uint32_t>{1}));
    EXPECT_EQ(wedges[1].wedge, 1);
    EXPECT_EQ(wedges[1].vertices, (std::vector<uint32_t>{0}));
}

TEST(Clumps, AngularCoverageOfAHalfRingIsPi) {
    std::vector<Vec3> half, full;
    for (int i = 0; i <= 12; ++i) half.push_back({std::sin(M_PI * i / 12), 0.3, std::cos(M_PI * i / 12)});
    for (int i = 0; i < 24; ++i) full.push_back({std::sin(M_PI * i / 12), 0, std::cos(M_PI * i / 12)});
    const WedgeAxis axis{{0, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    EXPECT_NEAR(angular_coverage(half, axis), M_PI, 1e-12);
    EXPECT_NEAR(angular_coverage(full, axis), 2 * M_PI - M_PI / 12, 1e-12);
    // Points on the axis have no azimuth.
    EXPECT_EQ(angular_coverage(std::vector<Vec3>{{0, 1, 0}, {0, 2, 0}}, axis), 0.0);
}

}  // namespace
}  // namespace weft
