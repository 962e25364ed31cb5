// Pose rows (docs/solver.md#pose): a bone chain rests in the pose it was bound in, swings back
// to it, and sags only as far as the frame is tilted from how the model was bound.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

/// A 6-link chain at 5 cm authored straight out along +x from its held root: styled, not hanging.
ClothProxy sideways_chain() { return test::chain_proxy(6, 0.05, 0.01, {1, 0, 0}); }

double worst_distance_from_rest(const ClothProxy& proxy, const std::vector<Vec3>& x) {
    double worst = 0;
    for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, distance(x[i], proxy.rest_position[i]));
    return worst;
}

uint32_t steps_to_sleep(Solver& solver, const StepInput& in, uint32_t limit) {
    for (uint32_t s = 1; s <= limit; ++s)
        if (solver.step(in).fell_asleep) return s;
    return 0;
}

TEST(Pose, ABoneChainRestsInItsBindPoseWhereTheSeedsFabricsFall) {
    const ClothProxy chain = sideways_chain();
    StepInput in;
    Solver strand(chain, *find_fabric("strand"));
    EXPECT_EQ(strand.row_counts().pose, 6u);  // every free particle
    EXPECT_EQ(steps_to_sleep(strand, in, 600), 30u);  // in equilibrium from the first step: 30 quiet steps
    EXPECT_LT(worst_distance_from_rest(chain, strand.state().x), 1e-6);

    Solver hair(chain, *find_fabric("hair"));
    EXPECT_EQ(hair.row_counts().pose, 0u);
    for (int s = 0; s < 600; ++s) hair.step(in);
    // Its tip falls towards straight down: 30 cm out becomes most of 30 cm down.
    EXPECT_LT(hair.state().x.back().y, -0.2);
}

TEST(Pose, AKickedChainSwingsBackToItsPoseAndSleeps) {
    const ClothProxy chain = sideways_chain();
    Solver solver(chain, *find_fabric("strand"));
    solver.add_velocity({0, 0, 1});
    StepInput in;
    double widest = 0;
    uint32_t slept = 0;
    for (uint32_t s = 1; s <= 1500 && !slept; ++s) {
        if (solver.step(in).fell_asleep) slept = s;
        widest = std::max(widest, worst_distance_from_rest(chain, solver.state().x));
    }
    EXPECT_GT(widest, 0.02);  // it does move: a metre per second is centimetres of swing
    EXPECT_GT(slept, 30u);
    EXPECT_LT(slept, 1000u);
    EXPECT_LT(worst_distance_from_rest(chain, solver.state().x), 0.002);
}

TEST(Pose, TiltingTheFrameFromHowTheModelWasBoundSagsIt) {
    const ClothProxy chain = sideways_chain();
    Solver solver(chain, *find_fabric("strand"));
    StepInput in;
    // The frame turned 90° about the chain's own axis: the weight the pose rows carried along the
    // frame's −y now pulls along its z, and nothing lifts it there.
    in.frame.rotation = Quat::from_axis_angle({1, 0, 0}, std::numbers::pi / 2);
    in.teleport_mode = TeleportMode::keep;
    solver.step(in);
    for (int s = 0; s < 900; ++s) solver.step(in);
    const Vec3 tip = solver.state().x.back();
    // Gravity in the frame now pulls along its +z (R⁻¹·(0,−g,0) for a +90° turn about x), and the
    // pose rows still lift the bind weight along +y: at 2 Hz each sags g/ω² = 6.2 cm both ways.
    EXPECT_GT(tip.z, 0.03);
    EXPECT_GT(tip.y, 0.03);
}

TEST(Pose, ThePoseRowsEnergyIsCountedSoAnUndampedSwingKeepsItsEnergy) {
    const ClothProxy chain = sideways_chain();
    Fabric f = *find_fabric("strand");
    f.damping = 0;
    SolverConstants c;
    c.sleep = false;
    Solver solver(chain, f, c);
    solver.add_velocity({0, 0, 0.5});
    StepInput in;
    const Vec3 g = in.gravity;
    solver.step(in);
    const double start = solver.energy(g).total();
    double lowest = start, highest = start;
    for (int s = 0; s < 600; ++s) {
        solver.step(in);
        const double e = solver.energy(g).total();
        lowest = std::min(lowest, e);
        highest = std::max(highest, e);
    }
    // Implicit Euler loses energy and must never make it; without the pose rows' own term the
    // total would swing by the whole spring energy each period.
    EXPECT_LE(highest, start * (1 + 1e-6));
    EXPECT_GT(lowest, 0.5 * start);
    const double elastic = solver.energy(g).elastic;
    EXPECT_GT(elastic, 0);
}

}  // namespace
}  // namespace weft
