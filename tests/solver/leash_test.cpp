// docs/solver.md#tether, #strain-limit, #slack: the tether is what makes a low budget viable; the strain-limit row backs up the
// stretch rows; slack leashes a particle to its animated pose.
#include <gtest/gtest.h>

#include <cmath>

#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

/// Worst max over particles of |x − x_hold| / d_geo during `steps` steps of the rig dropped from
/// horizontal (table L1 of docs/measurements.md).
double worst_tether_ratio(const ClothProxy& rig, uint32_t substeps, uint32_t iterations, bool tethers, int steps = 600) {
    Fabric f = *find_fabric("rope");
    f.substeps = substeps;
    f.iterations = iterations;
    f.strain_limit = false;
    f.bend = 0.1;
    SolverConstants c;
    c.tethers = tethers;
    c.sleep = false;
    Solver solver(rig, f, c);
    StepInput in;
    double worst = 0;
    for (int s = 0; s < steps; ++s) {
        solver.step(in);
        for (uint32_t i = 0; i < rig.particle_count(); ++i)
            if (rig.inverse_mass[i] > 0)
                worst = std::max(worst, distance(solver.state().x[i], solver.state().x[rig.nearest_held[i]]) / rig.d_geo[i]);
    }
    return worst;
}

// Table L1 (docs/measurements.md): a 30-link x 3-strand rig at 5 cm, authored horizontally and
// dropped through ninety degrees, stays within 1.0155 of its tether at 1x1 (the gate here is 1.02); without tethers the same
// rig at the same budget rubber-bands (1.4650 in the reference).
TEST(Leash, TetheredRigHoldsItsReachAtOneByOne) {
    ClothProxy rig = test::strand_rig_proxy(3, 30, 0.05, 0.01);
    const double tethered = worst_tether_ratio(rig, 1, 1, true);
    EXPECT_LT(tethered, 1.02);
    EXPECT_GE(tethered, 1.0);
    const double untethered = worst_tether_ratio(rig, 1, 1, false);
    EXPECT_GT(untethered, 1.2);
    // And at 2x4 the tether is inside a quarter of a percent (reference: 1.0012).
    EXPECT_LT(worst_tether_ratio(rig, 2, 4, true, 300), 1.0025);
}

/// Worst link length / rest length while a 24-link rope at 5 cm drops from horizontal (table S1 of docs/measurements.md).
double worst_link_strain(bool strain_limit, double stretch) {
    ClothProxy rope = test::chain_proxy(24, 0.05, 0.02, {1, 0, 0});
    Fabric f = *find_fabric("rope");
    f.substeps = 1;
    f.iterations = 1;
    f.strain_limit = strain_limit;
    f.stretch = stretch;
    SolverConstants c;
    c.sleep = false;
    c.tethers = false;
    Solver solver(rope, f, c);
    StepInput in;
    double worst = 0;
    for (int s = 0; s < 300; ++s) {
        solver.step(in);
        for (size_t e = 0; e < rope.edges.size(); ++e)
            worst = std::max(worst, distance(solver.state().x[rope.edges[e][0]], solver.state().x[rope.edges[e][1]]) / rope.rest_length[e]);
    }
    return worst;
}

// Table S1 (docs/measurements.md): the row removes 34-38% of the peak over-stretch at a low budget; it does
// not reach its own allowance.
TEST(Leash, StrainLimitRowRemovesPeakOverStretch) {
    const double without = worst_link_strain(false, 1.0);
    const double with = worst_link_strain(true, 1.0);
    EXPECT_LT(with - 1, 0.8 * (without - 1)) << "with " << with << " without " << without;
    EXPECT_GT(with, strain_allowance(1.0));
}

// docs/solver.md#slack: a slack row is not built at slack = 1 (it provably cannot bind); below 1 every free
// particle a hold reaches gets one, and a tether each.
TEST(Leash, SlackRowsOnlyBelowOne) {
    ClothProxy sheet = test::grid_sheet_proxy(5, 5, 0.05, 0.1);
    Fabric f = *find_fabric("cotton");
    EXPECT_EQ(Solver(sheet, f).row_counts().slack, 20u);
    EXPECT_EQ(Solver(sheet, f).row_counts().tether, 20u);
    f.slack = 1;
    EXPECT_EQ(Solver(sheet, f).row_counts().slack, 0u);
}

// docs/solver.md#slack: the slack row pulls a particle back within 2·slack·d_geo of its animated position. A
// sheet authored horizontally and dropped: at slack 0.2 its far edge ends nearer its animated
// (horizontal) pose than with no slack row.
TEST(Leash, SlackHoldsTheSheetNearItsAnimatedPose) {
    ClothProxy sheet = test::grid_sheet_proxy(6, 6, 0.05, 0.2);
    auto worst_leash = [&](double slack) {
        Fabric f = *find_fabric("cotton");
        f.slack = slack;
        Solver solver(sheet, f);
        StepInput in;
        for (int s = 0; s < 300; ++s) solver.step(in);
        std::vector<Vec3> pose = solver.animated_pose();
        double worst = 0;
        for (uint32_t i = 0; i < sheet.particle_count(); ++i)
            if (sheet.inverse_mass[i] > 0) worst = std::max(worst, distance(solver.state().x[i], pose[i]) / sheet.d_geo[i]);
        return worst;
    };
    const double leashed = worst_leash(0.2), free = worst_leash(1.0);
    EXPECT_LT(leashed, 2 * 0.2 * 1.05);
    EXPECT_GT(free, 1.0);
}

}  // namespace
}  // namespace weft
