#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "geom/test_meshes.h"
#include "geom/weld.h"

namespace weft {
namespace {

TEST(Weld, SeamDuplicatesWeldExactly) {
    // A tube exported with a UV seam: 8 rings of 16 + 1 vertices, the last of each ring repeating
    // the first. Welding closes it: 8 x 16 welded vertices, and each seam copy joins its twin.
    test::TriMesh m = test::cylinder(16, 8, 0.5, 1.0, /*uv_seam=*/true);
    ASSERT_EQ(m.vertex_count(), 8u * 17u);
    WeldResult w = weld_positions(m.positions, 0);
    EXPECT_EQ(w.unique_count(), 8u * 16u);
    EXPECT_EQ(w.exact_unique, 8u * 16u);
    for (uint32_t j = 0; j < 8; ++j) EXPECT_EQ(w.remap[j * 17 + 16], w.remap[j * 17]) << "ring " << j;
    for (uint32_t i = 0; i < m.vertex_count(); ++i) EXPECT_EQ(m.positions[w.first[w.remap[i]]], m.positions[i]);
}

TEST(Weld, NegativeZeroIsTheSamePoint) {
    std::vector<Vec3> p{{0.0, 0.0, 2}, {-0.0, 0.0, 2}, {0.0, -0.0, -(-2.0)}};
    WeldResult w = weld_positions(p, 0);
    EXPECT_EQ(w.unique_count(), 1u);
    EXPECT_EQ(w.remap, (std::vector<uint32_t>{0, 0, 0}));
}

TEST(Weld, NeighboursAcrossACellBoundaryWeld) {
    // Cells are 16 x tolerance = 16 mm wide, so 16 mm, 32 mm, 48 mm are cell boundaries: points
    // 0.2 mm apart on either side of one must weld, which quantising alone would miss.
    const double tol = 1e-3;
    std::vector<Vec3> p{{0.0159, 0.0321, 0.5}, {0.0161, 0.0319, 0.5}, {0.0159, 0.0321 - 1e-9, 0.5 + 1e-9}};
    WeldResult w = weld_positions(p, tol);
    EXPECT_EQ(w.unique_count(), 1u);
    // Negative coordinates straddling a boundary (floor rounds towards -inf), on all three axes.
    std::vector<Vec3> q{{-0.0161, -0.0321, -0.0479}, {-0.0159, -0.0319, -0.0481}};
    EXPECT_EQ(weld_positions(q, tol).unique_count(), 1u);
    // Exactly at the tolerance across a boundary still welds; a hair beyond does not. Binary
    // fractions, so "exactly" is exact: tolerance 2^-10, cells 2^-6, the boundary at 2^-6.
    const double t = 1.0 / 1024, b = 1.0 / 64;
    std::vector<Vec3> at{{b - t / 2, 0, 0}, {b + t / 2, 0, 0}};
    EXPECT_EQ(weld_positions(at, t).unique_count(), 1u);
    std::vector<Vec3> beyond{{b - t / 2, 0, 0}, {b + t / 2 + 1.0 / (1 << 20), 0, 0}};
    EXPECT_EQ(weld_positions(beyond, t).unique_count(), 2u);
}

TEST(Weld, BeyondTheToleranceStaysApart) {
    const double tol = 1e-3;
    std::vector<Vec3> p{{0, 0, 0}, {0.0011, 0, 0}, {0, 0.0008, 0.0008}};  // |(0, .8, .8) mm| = 1.13 mm
    WeldResult w = weld_positions(p, tol);
    EXPECT_EQ(w.unique_count(), 3u);
}

TEST(Weld, IsADistanceToTheFirstVertexNotAChain) {
    // a, b 0.8 tol apart, c 0.8 tol further: c is 1.6 tol from a, so it starts its own vertex
    // even though it is within tolerance of b.
    const double tol = 1e-3;
    std::vector<Vec3> p{{0, 0, 0}, {0.0008, 0, 0}, {0.0016, 0, 0}};
    WeldResult w = weld_positions(p, tol);
    EXPECT_EQ(w.remap, (std::vector<uint32_t>{0, 0, 1}));
    EXPECT_EQ(w.first, (std::vector<uint32_t>{0, 2}));
}

TEST(Weld, JoinsTheLowestWeldedVertexInReach) {
    // Vertex 2 is within tolerance of both earlier welded vertices; it joins the lower, whatever
    // order the hash walks its cells in.
    const double tol = 1e-3;
    std::vector<Vec3> p{{0.0009, 0, 0}, {-0.0009, 0, 0}, {0, 0, 0}};
    WeldResult w = weld_positions(p, tol);
    EXPECT_EQ(w.remap, (std::vector<uint32_t>{0, 1, 0}));
}

TEST(Weld, NonFinitePositionsNeverWeldByTolerance) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<Vec3> p{{0, 0, 0}, {nan, 0, 0}, {inf, 0, 0}, {inf, 0, 0}, {0, 0, 1e-9}};
    WeldResult w = weld_positions(p, 1e-3);
    EXPECT_EQ(w.remap[4], w.remap[0]);
    EXPECT_NE(w.remap[1], w.remap[0]);
    EXPECT_NE(w.remap[2], w.remap[0]);
    EXPECT_NE(w.remap[1], w.remap[2]);
    EXPECT_EQ(w.remap[3], w.remap[2]);  // byte-identical copies still merge in the exact pass
}

TEST(Weld, ToleranceIsRelativeToTheBoundingBox) {
    std::vector<Vec3> p{{0, 0, 0}, {3, 4, 0}, {1, 1, 0}};
    EXPECT_DOUBLE_EQ(weld_tolerance_for(p, 1e-5), 5e-5);
    EXPECT_DOUBLE_EQ(weld_tolerance_for(p, 1e-3), 5e-3);
    std::vector<Vec3> bad{{NAN, 0, 0}};
    EXPECT_EQ(weld_tolerance_for(bad), 0.0);
    EXPECT_EQ(weld_tolerance_for({}), 0.0);
}

TEST(Weld, MatchesBruteForceOnClusteredNoise) {
    // 3000 points: 600 cluster centres each repeated with jitter of up to 0.4 tol per axis
    // (so within 0.7 tol), plus exact copies. Against an O(n^2) reference of the same rule.
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> centre(-1, 1), jitter(-0.4, 0.4);
    const double tol = 1e-3;
    std::vector<Vec3> centres(600);
    for (Vec3& c : centres) c = {centre(rng), centre(rng), centre(rng)};
    std::vector<Vec3> p;
    std::uniform_int_distribution<size_t> pick(0, centres.size() - 1);
    for (int i = 0; i < 3000; ++i) {
        const Vec3& c = centres[pick(rng)];
        if (i % 5 == 0 && !p.empty()) p.push_back(p[pick(rng) % p.size()]);
        else p.push_back(c + Vec3{jitter(rng), jitter(rng), jitter(rng)} * tol);
    }
    WeldResult w = weld_positions(p, tol);

    std::vector<uint32_t> reference(p.size());
    std::vector<uint32_t> reps;
    for (uint32_t i = 0; i < p.size(); ++i) {
        uint32_t found = UINT32_MAX;
        for (uint32_t k = 0; k < reps.size() && found == UINT32_MAX; ++k)
            if (length_squared(p[reps[k]] - p[i]) <= tol * tol) found = k;
        if (found == UINT32_MAX) {
            found = static_cast<uint32_t>(reps.size());
            reps.push_back(i);
        }
        reference[i] = found;
    }
    EXPECT_EQ(w.remap, reference);
    EXPECT_EQ(w.first, reps);
    for (uint32_t i = 0; i < p.size(); ++i) EXPECT_LE(distance(p[i], p[w.first[w.remap[i]]]), tol);
    EXPECT_LT(w.unique_count(), 1200u);  // the jittered copies did weld
}

TEST(Weld, EmptyInput) {
    WeldResult w = weld_positions({}, 1e-3);
    EXPECT_EQ(w.unique_count(), 0u);
    EXPECT_TRUE(w.remap.empty());
}

}  // namespace
}  // namespace weft
