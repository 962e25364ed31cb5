// docs/solver.md#tether, #strain-limit, #slack: the tether is what makes a low budget viable; the strain-limit row backs up the
// stretch rows; slack leashes a particle to its animated pose.
#include <gtest/gtest.h>

#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

// Tables L1 and S1 (the tethered rig's reach, the strain-limit row's effect) are asserted cell by cell in
// measurements_test, in the reference's own setup.

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
    // Dropped, the sheet falls as far as the leash lets it: out to its radius, 2·slack·d_geo, not short of it.
    EXPECT_LT(leashed, 2 * 0.2 * 1.05);
    EXPECT_GT(leashed, 2 * 0.2 * 0.95);
    EXPECT_GT(free, 1.0);
}

}  // namespace
}  // namespace weft
