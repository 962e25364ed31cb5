// docs/solver.md#teleport, #velocity-clamp, #inertia: teleport, fast locomotion and the velocity clamp, inertia.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <vector>

#include "solver/solver.h"
#include "measures.h"
#include "test_proxies.h"

namespace weft {
namespace {

using test::particle;

// docs/measurements.md, table M1: nothing teleports, nothing is clamped, and the headroom over the
// clamp is at least the reference's smallest, 5.7x, for every library entry (the bone-chain entries
// too). 20 links at 10 cm, fifteen seconds; the table's cells are in measurements_test.
TEST(Motion, SprintNeverReachesTheClamp) {
    for (const Fabric& f : fabric_library()) {
        const test::SprintRun run = test::sprint(f);
        EXPECT_EQ(run.teleports, 0) << f.name;
        EXPECT_EQ(run.clamped, 0u) << f.name;
        // The clamp is four times the correction authority shortest_row·substeps·iterations/dt.
        EXPECT_NEAR(run.clamp / (4 * 0.1 * f.substeps * f.iterations * 60), 1.0, 1e-12) << f.name;
        EXPECT_GT(run.peak, 1.0) << f.name;  // it did swing
        EXPECT_GE(run.clamp / run.peak, 5.7) << f.name << " peak " << run.peak;  // the reference's smallest headroom
    }
}

/// A 16-link rope at 10 cm swinging on a frame that has been moving, then teleported a kilometre.
struct TeleportRun {
    int teleports = 0;
    double teleport_step_speed = -1;
    double shift = 0;  ///< how far the tip moved in the frame during the teleport step
    double peak_after = 0;
    std::vector<double> clamp_from_teleport;  ///< the step's velocity clamp, from the teleport step on
};

TeleportRun teleport_rope(TeleportMode mode) {
    ClothProxy rope = test::chain_proxy(16, 0.1, 0.05);
    Solver solver(rope, *find_fabric("rope"));
    StepInput in;
    in.teleport_mode = mode;
    const uint32_t tip = particle(rope, 16);
    TeleportRun run;
    for (int s = 0; s < 240; ++s) {
        in.frame.position.x = s < 120 ? 0.02 * s * s / 60.0 : in.frame.position.x + (s == 180 ? 1000 : 0.0);
        const Vec3 before = solver.state().x[tip];
        StepStats st = solver.step(in);
        if (s >= 180) run.clamp_from_teleport.push_back(st.velocity_clamp / solver.velocity_clamp(in.dt));
        if (st.teleported != Teleported::none) {
            ++run.teleports;
            run.teleport_step_speed = st.max_speed;
            run.shift = distance(before, solver.state().x[tip]);
        } else if (s > 180) {
            run.peak_after = std::max(run.peak_after, st.max_speed);
        }
    }
    return run;
}

// Table M3 (docs/measurements.md): "Reset: 1 teleport, peak speed 0.000 m/s, first-step local shift 1.4890 m" —
// re-seeded on the animated pose at rest; "Keep: peak 5.582 m/s, shift 0.0779 m" — the swing it was
// already carrying, moved one ordinary step.
TEST(Motion, TeleportResetPeaksAtZeroAndKeepCarriesTheSwing) {
    TeleportRun reset = teleport_rope(TeleportMode::reset);
    EXPECT_EQ(reset.teleports, 1);
    EXPECT_EQ(reset.teleport_step_speed, 0.0);
    TeleportRun keep = teleport_rope(TeleportMode::keep);
    EXPECT_EQ(keep.teleports, 1);
    EXPECT_GT(keep.teleport_step_speed, 0.05);
    EXPECT_LT(keep.shift, reset.shift);
    EXPECT_LT(keep.shift, 0.2);
    // What each ends with (docs/measurements.md, table M3): Reset's rope stays where it was put, still
    // to the reference's "0.000 m/s" (below 5e-4: the first substeps' λ rebuilding the rows' tension);
    // Keep's goes on swinging at the speed it carried through the jump.
    EXPECT_LT(reset.peak_after, 5e-4);
    EXPECT_NEAR(reset.shift, 0.4625, 0.005);  // the tip's swing out from straight down at the jump
    // Reset ramps the velocity clamp back from nothing over 20 steps; Keep never lowers it.
    ASSERT_GE(reset.clamp_from_teleport.size(), 22u);
    for (size_t k = 0; k <= 21; ++k)
        EXPECT_NEAR(reset.clamp_from_teleport[k], std::min(1.0, k / 20.0), 1e-12) << "step " << k << " after the reset";
    for (double c : keep.clamp_from_teleport) EXPECT_EQ(c, 1.0);
    EXPECT_GT(keep.peak_after, 1.0);
    EXPECT_NEAR(keep.peak_after, keep.teleport_step_speed, 0.05 * keep.teleport_step_speed);
    // Keep's figures, weft's values for this script, which swings the rope on an anchor that stops a
    // second before the jump: the reference's anchor motion is not published (the page). Peak 1.89 m/s
    // ±3% and shift 0.0328 m ±0.005, each well within a third of what tells Keep from Reset (0.43 m of shift).
    EXPECT_NEAR(keep.peak_after, 1.89, 0.03 * 1.89);
    EXPECT_NEAR(keep.shift, 0.0328, 0.005);
}

// docs/solver.md#fast-cloth: a step whose fastest particle would cross more than speed_substep_ratio
// (0.5) × the shortest row in one substep of four sweeps is split. A 10-link rope of 10 cm links (2x4): still, it
// takes its own 2 substeps; kicked 20 m/s sideways it would cross 0.167 m a substep against 0.05 m, so
// its next step takes 4x; kicked 100 m/s, the cap (8x); the frame lurching from rest to 9 m/s
// kicks it inertia × 9 = 7.2 m/s (0.06 m a substep), 2x — the kick counts in the step it is felt.
// At ratio 0 nothing splits.
TEST(Motion, FastClothSplitsItsStep) {
    const ClothProxy rope = test::chain_proxy(10, 0.1, 0.05);
    const Fabric f = *find_fabric("rope");
    SolverConstants fixed;
    fixed.speed_substep_ratio = 0;
    Solver split(rope, f), plain(rope, f, fixed);
    StepInput in;
    EXPECT_EQ(split.step(in).substeps, f.substeps);
    EXPECT_EQ(plain.step(in).substeps, f.substeps);
    split.add_velocity({0, 0, 20});
    plain.add_velocity({0, 0, 20});
    EXPECT_EQ(split.step(in).substeps, 4 * f.substeps);
    EXPECT_EQ(plain.step(in).substeps, f.substeps);
    Solver fastest(rope, f), lurch(rope, f);
    fastest.step(in);
    fastest.add_velocity({0, 0, 100});
    EXPECT_EQ(fastest.step(in).substeps, SolverConstants{}.max_speed_split * f.substeps);
    lurch.step(in);
    StepInput moving = in;
    moving.frame.position = {9.0 / 60, 0, 0};
    EXPECT_EQ(lurch.step(moving).substeps, 2 * f.substeps);
    // The split counts sweeps: at 2 iterations a substep the same rope is held to a quarter of a row
    // (0.025 m), so the 20 m/s kick takes 7x and the lurch 3x; past 4 iterations nothing more is
    // credited, so at 6 it splits as at 4.
    for (const auto& [iterations, kicked, lurched] : {std::tuple{2u, 7u, 3u}, std::tuple{6u, 4u, 2u}}) {
        Fabric g = f;
        g.iterations = iterations;
        Solver kick(rope, g), lurching(rope, g);
        kick.step(in);
        kick.add_velocity({0, 0, 20});
        EXPECT_EQ(kick.step(in).substeps, kicked * g.substeps) << iterations << " iterations";
        lurching.step(in);
        EXPECT_EQ(lurching.step(moving).substeps, lurched * g.substeps) << iterations << " iterations";
    }
}

// Table M2 (docs/measurements.md): "inertia 0: 0.0000 m, welded into the anchor frame ... Monotone, and zero at zero to
// the last digit".
// Behind ±9 m/s, the reference's own setup, the lags are a known divergence (the page: 0.72 / 0.95 / 0.97 / 0.98 m
// against 0.20 / 0.37 / 0.53 / 0.65): from inertia 0.5 on the kick swings the 1 m rope past horizontal.
// Asserted at weft's values within a third of the least step between two inertias (0.75 to 1: 0.011 m).
TEST(Motion, InertiaIsADialAndZeroMeansNoLag) {
    EXPECT_EQ(test::inertia_lag(0.0, 9.0), 0.0);
    EXPECT_EQ(test::inertia_lag(0.0, 9.0), test::inertia_lag(0.0, 0.0));
    double previous = 0;
    for (const auto& [inertia, sprinting] : {std::pair{0.25, 0.7212}, std::pair{0.5, 0.9531}, std::pair{0.75, 0.9723},
                                             std::pair{1.0, 0.9832}}) {
        double lag = test::inertia_lag(inertia, 9.0);
        EXPECT_GT(lag, previous) << "inertia " << inertia;
        EXPECT_NEAR(lag, sprinting, 0.003) << "inertia " << inertia;
        previous = lag;
    }
}

// A turning frame swings the cloth outwards: the centrifugal term of the frame (docs/solver.md#inertia). The rope hangs 20 cm
// off the spin axis (on it, it would stay put by symmetry).
TEST(Motion, SpinningFrameFlaresTheCloth) {
    ClothProxy rope = test::chain_proxy(8, 0.1, 0.05);
    for (Vec3& r : rope.rest_position) r.x += 0.2;
    Solver solver(rope, *find_fabric("rope"));
    StepInput in;
    double angle = 0;
    for (int s = 0; s < 300; ++s) {
        angle += 6.0 / 60;  // 6 rad/s about y
        in.frame.rotation = Quat::from_axis_angle({0, 1, 0}, angle);
        solver.step(in);
    }
    const Vec3 tip = solver.state().x[particle(rope, 8)];
    EXPECT_GT(std::hypot(tip.x, tip.z), 0.5);  // ω²r against g: flung well out from the axis
    Solver still(rope, *find_fabric("rope"));
    StepInput rest;
    for (int s = 0; s < 300; ++s) still.step(rest);
    EXPECT_LT(std::hypot(still.state().x[particle(rope, 8)].x, still.state().x[particle(rope, 8)].z), 0.21);
}

}  // namespace
}  // namespace weft
