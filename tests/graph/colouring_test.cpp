#include <gtest/gtest.h>

#include <cmath>

#include "graph/colouring.h"
#include "graph/csr.h"
#include "graph/geodesic.h"

namespace weft {
namespace {

// A w x h grid of nodes with the quad diagonals and the bend-stencil diagonals of a sheet.
std::vector<std::array<uint32_t, 2>> grid_pairs(uint32_t w, uint32_t h) {
    std::vector<std::array<uint32_t, 2>> pairs;
    auto id = [w](uint32_t x, uint32_t y) { return y * w + x; };
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            if (x + 1 < w) pairs.push_back({id(x, y), id(x + 1, y)});
            if (y + 1 < h) pairs.push_back({id(x, y), id(x, y + 1)});
            if (x + 1 < w && y + 1 < h) {
                pairs.push_back({id(x, y), id(x + 1, y + 1)});
                pairs.push_back({id(x + 1, y), id(x, y + 1)});  // a hinge's wing-to-wing diagonal
            }
        }
    return pairs;
}

TEST(Csr, DeduplicatesAndDropsSelfLoops) {
    std::vector<std::array<uint32_t, 2>> pairs{{0, 1}, {1, 0}, {1, 1}, {2, 1}, {0, 1}};
    CsrGraph g = build_csr(3, pairs);
    ASSERT_EQ(g.node_count(), 3u);
    EXPECT_EQ(std::vector<uint32_t>(g.neighbours(0).begin(), g.neighbours(0).end()), (std::vector<uint32_t>{1}));
    EXPECT_EQ(std::vector<uint32_t>(g.neighbours(1).begin(), g.neighbours(1).end()), (std::vector<uint32_t>{0, 2}));
    EXPECT_EQ(std::vector<uint32_t>(g.neighbours(2).begin(), g.neighbours(2).end()), (std::vector<uint32_t>{1}));
}

TEST(Colouring, GridSheetColoursInAtMostEight) {
    auto pairs = grid_pairs(64, 64);
    CsrGraph g = build_csr(64 * 64, pairs);
    Colouring c = colour_greedy(g);
    EXPECT_LE(c.colour_count, 8u);
    EXPECT_EQ(validate_colouring(g, c.colour, c.colour_count), -1);
}

TEST(Colouring, ValidatorCatchesAClash) {
    auto pairs = grid_pairs(4, 4);
    CsrGraph g = build_csr(16, pairs);
    Colouring c = colour_greedy(g);
    c.colour[5] = c.colour[6];
    EXPECT_NE(validate_colouring(g, c.colour, c.colour_count), -1);
}

// A colour equal to the count is out of range (colours are 0..count-1): the validator names that
// node, even when no neighbour shares it. A 4-node path coloured 0,1,0,1 claimed as 1 colour, then 2.
TEST(Colouring, ValidatorCatchesAColourOutOfRange) {
    std::vector<std::array<uint32_t, 2>> pairs{{0, 1}, {1, 2}, {2, 3}};
    CsrGraph g = build_csr(4, pairs);
    std::vector<uint32_t> colour{0, 1, 0, 1};
    EXPECT_EQ(validate_colouring(g, colour, 2), -1);
    EXPECT_EQ(validate_colouring(g, colour, 1), 1);  // node 1's colour 1 is not below 1
    colour[3] = 2;
    EXPECT_EQ(validate_colouring(g, colour, 2), 3);
    EXPECT_EQ(validate_colouring(g, colour, 3), -1);
}

// Greedy colouring gives a path two colours and a triangle three, lowest first.
TEST(Colouring, GreedyTakesTheLowestFreeColour) {
    std::vector<std::array<uint32_t, 2>> path{{0, 1}, {1, 2}, {2, 3}};
    Colouring p = colour_greedy(build_csr(4, path));
    EXPECT_EQ(p.colour, (std::vector<uint32_t>{0, 1, 0, 1}));
    EXPECT_EQ(p.colour_count, 2u);
    std::vector<std::array<uint32_t, 2>> triangle{{0, 1}, {1, 2}, {2, 0}};
    Colouring t = colour_greedy(build_csr(3, triangle));
    EXPECT_EQ(t.colour, (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(t.colour_count, 3u);
}

TEST(Colouring, FixedNodesNeverBlock) {
    // A star around a held centre: the leaves share only the held node, so all take colour 0.
    std::vector<std::array<uint32_t, 2>> pairs{{0, 1}, {0, 2}, {0, 3}};
    CsrGraph g = build_csr(4, pairs);
    std::vector<uint8_t> fixed{1, 0, 0, 0};
    Colouring c = colour_greedy(g, fixed);
    EXPECT_EQ(c.colour_count, 1u);
    EXPECT_EQ(validate_colouring(g, c.colour, c.colour_count, fixed), -1);
}

TEST(Colouring, AGraphOfHeldParticlesOnlyIsOneColour) {
    // A proxy its pins hold whole (a rigid bracket): every particle colour 0, one colour range, valid.
    std::vector<std::array<uint32_t, 2>> pairs{{0, 1}, {1, 2}, {2, 0}};
    CsrGraph g = build_csr(3, pairs);
    std::vector<uint8_t> fixed{1, 1, 1};
    Colouring c = colour_greedy(g, fixed);
    EXPECT_EQ(c.colour, (std::vector<uint32_t>{0, 0, 0}));
    EXPECT_EQ(c.colour_count, 1u);
    EXPECT_EQ(validate_colouring(g, c.colour, c.colour_count, fixed), -1);
    // No particles at all: no colour.
    EXPECT_EQ(colour_greedy(build_csr(0, {})).colour_count, 0u);
}

TEST(Geodesic, EveryPartReachesItsOwnHoldAndTiesGoToTheLowerSource) {
    // Two parts: a square 0-1-2-3 held at opposite corners 0 and 2 (1 and 3 are 1 m from each, a tie),
    // and a path 4-5-6 held at 6. Each part's particles hang from their own part's hold.
    std::vector<std::array<uint32_t, 2>> edges{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}};
    std::vector<double> len{1, 1, 1, 1, 0.5, 0.25};
    std::vector<uint32_t> sources{2, 6, 0};
    GeodesicResult r = geodesic_distance(7, edges, len, sources);
    EXPECT_EQ(r.distance, (std::vector<double>{0, 1, 0, 1, 0.75, 0.25, 0}));
    EXPECT_EQ(r.nearest, (std::vector<uint32_t>{0, 0, 2, 0, 6, 6, 6}));
    // The edges run both ways: the same part held at 4 instead reaches 6 through 5.
    GeodesicResult back = geodesic_distance(7, edges, len, std::vector<uint32_t>{4});
    EXPECT_EQ(back.distance[6], 0.75);
    EXPECT_TRUE(std::isinf(back.distance[0]));
}

TEST(Geodesic, MultiSourceMatchesHandComputed) {
    // A path 0-1-2-3-4 with unit edges, held at both ends: the middle is 2 from either, and the
    // tie goes to the lower source.
    std::vector<std::array<uint32_t, 2>> edges{{0, 1}, {1, 2}, {2, 3}, {3, 4}};
    std::vector<double> len{1, 1, 1, 1};
    std::vector<uint32_t> sources{4, 0};
    GeodesicResult r = geodesic_distance(5, edges, len, sources);
    EXPECT_EQ(r.distance, (std::vector<double>{0, 1, 2, 1, 0}));
    EXPECT_EQ(r.nearest, (std::vector<uint32_t>{0, 0, 0, 4, 4}));
}

TEST(Geodesic, UnreachedIsInfinite) {
    std::vector<std::array<uint32_t, 2>> edges{{0, 1}, {2, 3}};
    std::vector<double> len{0.5, 0.5};
    std::vector<uint32_t> sources{0};
    GeodesicResult r = geodesic_distance(4, edges, len, sources);
    EXPECT_EQ(r.distance[1], 0.5);
    EXPECT_TRUE(std::isinf(r.distance[2]));
    EXPECT_EQ(r.nearest[3], UINT32_MAX);
}

}  // namespace
}  // namespace weft
