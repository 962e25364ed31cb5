#include <gtest/gtest.h>

#include <algorithm>

#include "geom/test_meshes.h"
#include "geom/topology.h"
#include "geom/weld.h"

namespace weft {
namespace {

std::vector<uint32_t> faces_of(const EdgeTable& t, uint32_t e) { return {t.faces(e).begin(), t.faces(e).end()}; }

uint32_t find_edge(const EdgeTable& t, uint32_t a, uint32_t b) {
    std::array<uint32_t, 2> key{std::min(a, b), std::max(a, b)};
    auto it = std::lower_bound(t.edges.begin(), t.edges.end(), key);
    return it != t.edges.end() && *it == key ? static_cast<uint32_t>(it - t.edges.begin()) : no_edge;
}

TEST(EdgeTable, Quad) {
    test::TriMesh m = test::quad();
    EdgeTable t = build_edge_table(m.indices, m.vertex_count());
    ASSERT_EQ(t.edge_count(), 5u);
    EXPECT_EQ(t.edges, (std::vector<std::array<uint32_t, 2>>{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {2, 3}}));
    EXPECT_EQ(faces_of(t, 1), (std::vector<uint32_t>{0, 1}));  // the diagonal
    EdgeCounts c = count_edges(t);
    EXPECT_EQ(c.boundary, 4u);
    EXPECT_EQ(c.interior, 1u);
    EXPECT_EQ(c.non_manifold, 0u);
    // Triangle 0 = (0,1,2): sides (0,1), (1,2), (2,0).
    EXPECT_EQ(t.triangle_edges[0], (std::array<uint32_t, 3>{0, 3, 1}));
}

TEST(EdgeTable, GridCountsMatchTheFormula) {
    for (auto [nx, ny] : {std::pair{2u, 2u}, {5u, 3u}, {64u, 64u}}) {
        test::TriMesh m = test::grid(nx, ny);
        EdgeTable t = build_edge_table(m.indices, m.vertex_count());
        EXPECT_EQ(t.edge_count(), (nx - 1) * ny + nx * (ny - 1) + (nx - 1) * (ny - 1)) << nx << "x" << ny;
        EdgeCounts c = count_edges(t);
        EXPECT_EQ(c.boundary, 2 * (nx - 1) + 2 * (ny - 1));
        EXPECT_EQ(c.non_manifold, 0u);
        EXPECT_EQ(c.interior + c.boundary, t.edge_count());
        // Every triangle's three sides name edges that list it.
        for (uint32_t tri = 0; tri < m.triangle_count(); ++tri)
            for (uint32_t e : t.triangle_edges[tri]) {
                auto f = faces_of(t, e);
                EXPECT_NE(std::find(f.begin(), f.end(), tri), f.end());
            }
    }
}

TEST(EdgeTable, CylinderHasNoBoundaryAroundOnlyAtItsRims) {
    test::TriMesh m = test::cylinder(12, 5);
    EdgeTable t = build_edge_table(m.indices, m.vertex_count());
    EdgeCounts c = count_edges(t);
    EXPECT_EQ(c.boundary, 2u * 12u);  // the two rims, nothing along the closing seam
    EXPECT_EQ(t.edge_count(), 12u * 5u + 2u * 12u * 4u);
    // The same tube with a UV seam is open along the seam until welded.
    test::TriMesh s = test::cylinder(12, 5, 0.5, 1.0, true);
    EXPECT_EQ(count_edges(build_edge_table(s.indices, s.vertex_count())).boundary, 2u * 12u + 2u * 4u);
    WeldResult w = weld_positions(s.positions, 1e-6);
    std::vector<uint32_t> welded(s.indices.size());
    for (size_t i = 0; i < welded.size(); ++i) welded[i] = w.remap[s.indices[i]];
    EXPECT_EQ(count_edges(build_edge_table(welded, static_cast<uint32_t>(w.unique_count()))).boundary, 2u * 12u);
}

TEST(EdgeTable, FanOfThreeIsNonManifold) {
    test::TriMesh m = test::fan_of_three();
    EdgeTable t = build_edge_table(m.indices, m.vertex_count());
    uint32_t e = find_edge(t, 0, 1);
    ASSERT_NE(e, no_edge);
    EXPECT_EQ(t.face_count(e), 3u);
    EXPECT_EQ(faces_of(t, e), (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(count_edges(t).non_manifold, 1u);
}

TEST(EdgeTable, RepeatedVertexTriangleListsItsEdgeOnce) {
    // (0,0,1) has sides (0,0) (no edge), (0,1) and (1,0): one edge, listed once for the triangle.
    std::vector<uint32_t> idx{0, 1, 2, 0, 0, 1};
    EdgeTable t = build_edge_table(idx, 3);
    uint32_t e = find_edge(t, 0, 1);
    EXPECT_EQ(faces_of(t, e), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(t.triangle_edges[1][0], no_edge);
    EXPECT_EQ(t.triangle_edges[1][1], e);
    EXPECT_EQ(t.triangle_edges[1][2], e);
    // A triangle naming one vertex three times has no edge at all.
    std::vector<uint32_t> point{2, 2, 2};
    EdgeTable p = build_edge_table(point, 3);
    EXPECT_EQ(p.edge_count(), 0u);
    EXPECT_EQ(find_islands(p).count, 1u);
}

TEST(EdgeTable, HugeFanSortsItsApexBucket) {
    // 200 triangles round vertex 0 (a cone apex): the apex bucket takes the non-insertion path.
    std::vector<uint32_t> idx;
    for (uint32_t i = 1; i <= 200; ++i) idx.insert(idx.end(), {0, i, i % 200 + 1});
    EdgeTable t = build_edge_table(idx, 201);
    EXPECT_EQ(t.edge_count(), 400u);
    EXPECT_TRUE(std::is_sorted(t.edges.begin(), t.edges.end()));
    EXPECT_EQ(count_edges(t).boundary, 200u);  // the rim
    EXPECT_EQ(count_edges(t).interior, 200u);  // the spokes
    EXPECT_EQ(faces_of(t, find_edge(t, 0, 1)), (std::vector<uint32_t>{0, 199}));
}

TEST(Orientation, ConsistentGridNeedsNoFlip) {
    test::TriMesh m = test::grid(6, 5);
    Orientation o = orient_triangles(m.indices, build_edge_table(m.indices, m.vertex_count()));
    EXPECT_TRUE(o.inconsistent.empty());
    EXPECT_EQ(std::count(o.flip.begin(), o.flip.end(), 1), 0);
    EXPECT_EQ(o.island_orientable, (std::vector<uint8_t>{1}));
}

TEST(Orientation, OneFlippedTriangleIsNamed) {
    test::TriMesh m = test::grid(4, 4);
    std::swap(m.indices[3 * 8 + 1], m.indices[3 * 8 + 2]);  // triangle 8 (an interior one) wound backwards
    EdgeTable t = build_edge_table(m.indices, m.vertex_count());
    Orientation o = orient_triangles(m.indices, t);
    EXPECT_EQ(o.inconsistent.size(), 3u);  // it is interior: all three of its edges disagree
    for (uint32_t e : o.inconsistent) {
        auto f = faces_of(t, e);
        EXPECT_TRUE(f[0] == 8 || f[1] == 8);
    }
    for (uint32_t tri = 0; tri < m.triangle_count(); ++tri) EXPECT_EQ(o.flip[tri], tri == 8 ? 1 : 0) << tri;
    EXPECT_EQ(o.island_orientable, (std::vector<uint8_t>{1}));
}

TEST(Orientation, MoebiusStripIsOneSided) {
    test::TriMesh m = test::moebius(12);
    EdgeTable t = build_edge_table(m.indices, m.vertex_count());
    EdgeCounts c = count_edges(t);
    EXPECT_EQ(c.non_manifold, 0u);
    EXPECT_EQ(c.boundary, 24u);  // one boundary loop twice the length of the centre line
    Orientation o = orient_triangles(m.indices, t);
    ASSERT_EQ(o.island_orientable.size(), 1u);
    EXPECT_EQ(o.island_orientable[0], 0);
    // Every quad is wound the same way along the strip, so only the closing edge disagrees.
    ASSERT_EQ(o.inconsistent.size(), 1u);
    EXPECT_EQ(t.edges[o.inconsistent[0]], (std::array<uint32_t, 2>{0, 1}));
}

TEST(Orientation, CylinderIsTwoSided) {
    test::TriMesh m = test::cylinder(10, 4);
    Orientation o = orient_triangles(m.indices, build_edge_table(m.indices, m.vertex_count()));
    EXPECT_TRUE(o.inconsistent.empty());
    EXPECT_EQ(o.island_orientable, (std::vector<uint8_t>{1}));
}

TEST(Islands, TwoPiecesAndTheFan) {
    test::TriMesh m = test::two_pieces();
    Islands is = find_islands(build_edge_table(m.indices, m.vertex_count()));
    EXPECT_EQ(is.count, 2u);
    EXPECT_EQ(is.island, (std::vector<uint32_t>{0, 0, 1, 1}));
    // A non-manifold edge still joins its triangles into one piece.
    test::TriMesh f = test::fan_of_three();
    EXPECT_EQ(find_islands(build_edge_table(f.indices, f.vertex_count())).count, 1u);
    // Triangles touching at a vertex only are separate pieces.
    std::vector<uint32_t> bowtie{0, 1, 2, 0, 3, 4};
    EXPECT_EQ(find_islands(build_edge_table(bowtie, 5)).count, 2u);
}

}  // namespace
}  // namespace weft
