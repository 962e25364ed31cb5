// Self-contact rows (docs/solver.md#self-contact): off by default; on, a folded sheet's upper layer
// comes to rest a thickness above its held lower layer instead of falling through it, and the runs
// stay bit-identical — run to run, with and without SIMD lanes, on one thread or several.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "solver/solver.h"
#include "solver/test_proxies.h"

namespace weft {
namespace {

constexpr double kSpacing = 0.02;

std::vector<Vec3> run(const ClothProxy& proxy, const SolverConstants& constants, uint32_t steps, uint64_t* rows = nullptr) {
    Solver solver(proxy, *find_fabric("cotton"), constants);
    StepInput in;
    in.holders.assign(proxy.pins.size(), Pose{});
    for (uint32_t s = 0; s < steps; ++s) {
        const StepStats st = solver.step(in);
        if (rows) *rows += st.contacts;
    }
    return solver.state().x;
}

bool identical(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0;
}

/// The lowest free particle of the upper layer over the lower one (clear of the fold and held edge).
double lowest_over_table(const ClothProxy& proxy, const std::vector<Vec3>& x) {
    double lowest = 1e9;
    for (uint32_t i = 0; i < proxy.particle_count(); ++i) {
        const Vec3& r = proxy.rest_position[i];
        if (proxy.inverse_mass[i] == 0 || r.y <= 0.03 || r.z < kSpacing || r.z > 15 * kSpacing - kSpacing) continue;
        lowest = std::min(lowest, x[i].y);
    }
    return lowest;
}

TEST(SelfContact, OffByDefaultAndNoRowsWithoutIt) {
    EXPECT_FALSE(SolverConstants{}.self_contact);
    const ClothProxy folded = test::folded_sheet_proxy(8, 16, kSpacing, 0);
    uint64_t rows = 0;
    const std::vector<Vec3> x = run(folded, {}, 300, &rows);
    EXPECT_EQ(rows, 0u);
    EXPECT_LT(lowest_over_table(folded, x), -0.01);  // fell through the table it lies on
}

TEST(SelfContact, UpperLayerRestsAThicknessAboveTheLowerOne) {
    const ClothProxy folded = test::folded_sheet_proxy(8, 16, kSpacing, 0);
    SolverConstants on;
    on.self_contact = true;
    uint64_t rows = 0;
    const std::vector<Vec3> x = run(folded, on, 400, &rows);
    EXPECT_GT(rows, 0u);
    const double thickness = find_fabric("cotton")->thickness;  // 6 mm
    const double lowest = lowest_over_table(folded, x);
    EXPECT_GE(lowest, 0.99 * thickness);
    EXPECT_LT(lowest, 1.5 * thickness);
    // A rig (no triangles) has nothing to collide with itself: the same bits with it on or off.
    const ClothProxy chain = test::chain_proxy(12, 0.05, 0.01);
    EXPECT_TRUE(identical(run(chain, {}, 120), run(chain, on, 120)));
}

TEST(SelfContact, StaysDeterministic) {
    const ClothProxy folded = test::folded_sheet_proxy(8, 16, kSpacing, 0.05);
    SolverConstants on;
    on.self_contact = true;
    const std::vector<Vec3> first = run(folded, on, 160);
    EXPECT_TRUE(identical(first, run(folded, on, 160)));
    SolverConstants scalar = on;
    scalar.simd = false;
    EXPECT_TRUE(identical(first, run(folded, scalar, 160)));
    SolverConstants threads = on;
    threads.threads = 3;
    threads.thread_min_particles = 1;
    EXPECT_TRUE(identical(first, run(folded, threads, 160)));
    // Forked mid-run, the fork continues bit for bit.
    Solver a(folded, *find_fabric("cotton"), on);
    StepInput in;
    in.holders.assign(folded.pins.size(), Pose{});
    for (int s = 0; s < 80; ++s) a.step(in);
    Solver b = a.fork();
    for (int s = 0; s < 80; ++s) {
        a.step(in);
        b.step(in);
    }
    EXPECT_TRUE(identical(a.state().x, b.state().x));
    EXPECT_TRUE(identical(a.state().x, first));
}

}  // namespace
}  // namespace weft
