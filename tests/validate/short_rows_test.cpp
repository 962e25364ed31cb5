// Proxies whose rows are millimetres long have a velocity clamp so low that the sprint's frame
// motion, and the idle's breathing, are teleports to the solver. Every scenario measures such a
// step (its shift against the step's starting positions) instead of reading positions only the
// teleport scenarios kept: a 5 cm ribbon of 3 mm rows, a flag with one column 1 mm from its edge.
#include <gtest/gtest.h>

#include <cmath>

#include "solver/test_proxies.h"
#include "validate/validate.h"

namespace weft {
namespace {

const ScenarioStats& short_rows_stats(const ProxyValidation& v, Scenario s) {
    for (const ScenarioStats& st : v.scenarios)
        if (st.scenario == s) return st;
    throw std::out_of_range("scenario not run");
}

ProxyValidation run_short_rows(const ClothProxy& proxy, Scenario scenario, uint32_t steps) {
    ValidationOptions o;
    o.scenarios = {{scenario, steps}};
    // What these rows do to the clamp and the teleport test is the subject, not self-contact: with rows
    // shorter than the fabric's thickness nearly every triangle is a neighbour to exclude, and
    // self-contact makes the ribbon's 180 steps about 30 times slower (docs/solver.md#self-contact).
    o.self_contact = false;
    o.stop_early = false;  // every step's clamp and teleport figures are the subject, failing or not
    return validate_proxy(proxy, o);
}

TEST(ShortRows, RibbonOfThreeMillimetreRowsSprintsAndIdles) {
    // 16 x 16 at 3.2 mm: 5 cm across, 0.125 g (the rows and the mass per particle of a 10 cm, 0.5 g
    // ribbon of 32 x 32; what the clamp reads is the row length, and a quarter of the particles is a
    // quarter of the cost).
    const ClothProxy ribbon = test::flag_proxy(16, 16, 0.1 / 31, 0.0005 / 4);
    {
        const Scenario s = Scenario::idle;
        const ProxyValidation v = run_short_rows(ribbon, s, 120);
        ASSERT_FALSE(v.refused) << v.refused->message;
        const ScenarioStats& st = short_rows_stats(v, s);
        EXPECT_EQ(st.steps, 120u);
        if (st.teleports > 0) {
            ASSERT_TRUE(st.teleport_shift);
            EXPECT_TRUE(std::isfinite(*st.teleport_shift));
            EXPECT_GE(*st.teleport_shift, 0.0);
        }
    }
    // The sprint's frame outruns the clamp of 3 mm rows (about 6 m/s): the solver takes it as a jump.
    const ScenarioStats sprint = short_rows_stats(run_short_rows(ribbon, Scenario::sprint, 60), Scenario::sprint);
    EXPECT_LT(sprint.velocity_clamp, 10.0);
    EXPECT_GT(sprint.teleports, 0u);
    ASSERT_TRUE(sprint.teleport_shift);  // measured against the step's own starting positions
    EXPECT_TRUE(std::isfinite(*sprint.teleport_shift));
}

TEST(ShortRows, FlagWithOneColumnOneMillimetreFromItsEdge) {
    test::ProxyDraft draft = test::grid_draft(8, 8, 0.125, 0.2, true);  // 1 m flag
    // The last column moved to 1 mm from the one before it: one row of 1 mm sets the clamp.
    for (uint32_t iy = 0; iy < 8; ++iy) {
        Vec3& x = draft.position[iy * 8 + 7];
        x.x = draft.position[iy * 8 + 6].x + 0.001;
    }
    const ClothProxy flag = test::finish_proxy(draft);
    for (Scenario s : {Scenario::sprint, Scenario::idle}) {
        SCOPED_TRACE(scenario_name(s));
        const ProxyValidation v = run_short_rows(flag, s, 120);
        ASSERT_FALSE(v.refused) << v.refused->message;
        EXPECT_EQ(short_rows_stats(v, s).steps, 120u);
    }
}

}  // namespace
}  // namespace weft
