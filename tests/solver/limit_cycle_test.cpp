// docs/solver.md#sleep: a cloth caught in a cycle of its own step, with nothing changing, sleeps; one that
// settles sleeps exactly when it did before the cycle watch.
#include <gtest/gtest.h>

#include "solver/cycle_watch.h"
#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

/// A denim awning: an n x n grid at 12 cm in the horizontal x-z plane held along its front (z = 0) and
/// back rows, the back row moved out by `stretch`: the cloth is cut shorter than its frame, stretched
/// taut past the strain limit's allowance (1.003 in denim), as a modelled awning often is.
ClothProxy taut_awning(uint32_t n, double stretch) {
    const double spacing = 0.6 / (n - 1);
    test::ProxyDraft d = test::grid_draft(n, n, spacing, 0.4 * 0.36, false);
    for (uint32_t ix = 0; ix < n; ++ix) d.held[(n - 1) * n + ix] = 1;
    ClothProxy p = test::finish_proxy(d);
    for (uint32_t ix = 0; ix < n; ++ix) p.rest_position[test::particle(p, (n - 1) * n + ix)].z *= stretch;
    return p;
}

/// The step the awning falls asleep at in a still hang (self-contact on, as validation runs), or -1.
int sleep_step(const ClothProxy& awning, double* last_speed = nullptr) {
    SolverConstants c;
    c.self_contact = true;
    Solver solver(awning, *find_fabric("denim"), c);
    StepInput still;
    for (int s = 1; s <= 1500; ++s) {
        const StepStats st = solver.step(still);
        if (last_speed) *last_speed = st.max_speed;
        if (st.fell_asleep) return s;
    }
    return -1;
}

// Stretched 3%, the 6 x 6 awning's strain-limit rows hold in one substep and let go in the next: its
// positions repeat at every step's end to 1e-16 m while the speed its last substep reads stays 3.6 mm/s,
// fifteen times the sleep speed (0.24 mm/s). Before the cycle watch it never slept in 1,500 steps;
// now it sleeps at the end of the fourth watch (step 121: the first watch begins after step 1), the
// first three of which began while it still settled towards the cycle.
TEST(LimitCycle, AClothGoingRoundACycleSleeps) {
    double speed = 0;
    EXPECT_EQ(sleep_step(taut_awning(6, 1.03), &speed), 121);
    EXPECT_GT(speed, 10 * 1e-3 * 0.24);  // it slept while its speed still read above the sleep speed
}

// The cycle watch asks for a return to within a millionth of the sleep speed's step, which a settling
// cloth reaches long after it is slower than the sleep speed for 30 steps: the same awning at the
// stretches that settle sleeps at the step it did before the watch.
TEST(LimitCycle, ASettlingClothSleepsWhenItDidBefore) {
    EXPECT_EQ(sleep_step(taut_awning(6, 1.005)), 85);
    EXPECT_EQ(sleep_step(taut_awning(10, 1.015)), 97);
    EXPECT_EQ(sleep_step(taut_awning(14, 1.03)), 101);
}

/// Feeds a watch of `length` steps a particle going round a three-step loop of the given size (its
/// positions repeating exactly, as a cycle of the solver's step does) for `watches` watches; true if
/// any watch's end reported a closed cycle.
bool watch_reports_a_cycle(double loop, double ball, uint32_t length, int watches) {
    const std::vector<Vec3> loop_points = {{0, 0, 0}, {loop, 0, 0}, {0, loop, 0}};
    CycleWatch watch;
    std::vector<Vec3> x(2, Vec3{5, 5, 5});  // particle 0 is held and not watched
    const std::vector<uint32_t> watched = {1};
    bool reported = false;
    for (int step = 0; step < watches * static_cast<int>(length) + 1; ++step) {
        x[1] = loop_points[step % 3];
        reported = watch.closed(x, watched, 1e-9, ball, length) || reported;
    }
    return reported;
}

// A loop smaller than the ball (the way the sleep speed goes in a watch) is a cycle to sleep; the same
// loop wider than the ball is motion someone would see stop, and a watch never reports it, however
// exactly it repeats. (flag_meshopt.glb's hang: a three-step loop of about 40 um per step.)
TEST(LimitCycle, TheWatchReportsOnlyACycleInsideItsBall) {
    EXPECT_TRUE(watch_reports_a_cycle(40e-6, 0.5e-3, 30, 3));
    EXPECT_FALSE(watch_reports_a_cycle(40e-6, 30e-6, 30, 3));
    EXPECT_FALSE(watch_reports_a_cycle(1e-3, 0.5e-3, 30, 3));
    // A watch whose start is never met again (a cloth still going somewhere) reports nothing.
    CycleWatch drifting;
    std::vector<Vec3> x(1);
    bool reported = false;
    for (int step = 0; step < 200; ++step) {
        x[0] = Vec3{1e-7 * step, 0, 0};
        reported = drifting.closed(x, {0}, 1e-9, 1.0, 30) || reported;
    }
    EXPECT_FALSE(reported);
}

}  // namespace
}  // namespace weft
