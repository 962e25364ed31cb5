// The checked step (solver/checked_step.h): hostile input refused by name and nothing changed; a step
// that goes non-finite undone; and the undo puts back everything a step writes, so a solver that took
// a step and was put back continues bit for bit as one that never took it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "solver/checked_step.h"
#include "solver/test_proxies.h"

namespace weft {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Solver hanging_sheet() {
    static const ClothProxy proxy = test::grid_sheet_proxy(8, 8, 0.05, 0.3);
    return Solver(proxy, *find_fabric("cotton"));
}

StepInput plain_input(const Solver& s) {
    StepInput in;
    in.holders.assign(s.proxy().pins.size(), Pose{});
    return in;
}

void expect_same_positions(const Solver& a, const Solver& b) {
    ASSERT_EQ(a.state().x.size(), b.state().x.size());
    for (size_t i = 0; i < a.state().x.size(); ++i) {
        EXPECT_EQ(a.state().x[i], b.state().x[i]) << "particle " << i;
        EXPECT_EQ(a.state().v[i], b.state().v[i]) << "particle " << i;
    }
}

TEST(CheckedStep, HostileInputIsRefusedByNameAndChangesNothing) {
    Solver s = hanging_sheet();
    SolverState undo;
    for (int k = 0; k < 5; ++k) ASSERT_EQ(checked_step(s, plain_input(s), &undo), StepCheck::ok);
    const Solver before = s.fork();
    struct Case {
        const char* what;
        StepInput in;
        StepCheck expected;
    };
    std::vector<Case> cases;
    for (double dt : {0.0, -0.01, kNaN, double(INFINITY), 1e300, max_step_seconds * 1.5}) {
        StepInput in = plain_input(s);
        in.dt = dt;
        cases.push_back({"dt", in, StepCheck::bad_dt});
    }
    StepInput in = plain_input(s);
    in.frame.position.y = kNaN;
    cases.push_back({"frame position", in, StepCheck::bad_frame});
    in = plain_input(s);
    in.frame.rotation = Quat{0, 0, 0, 1.5};
    cases.push_back({"frame rotation not unit", in, StepCheck::bad_frame});
    in = plain_input(s);
    in.gravity.x = INFINITY;
    cases.push_back({"gravity", in, StepCheck::bad_frame});
    in = plain_input(s);
    in.holders[0].position.z = -INFINITY;
    cases.push_back({"holder", in, StepCheck::bad_holder});
    in = plain_input(s);
    in.holders.push_back(Pose{});
    cases.push_back({"holder count", in, StepCheck::bad_holder});
    in = plain_input(s);
    in.spheres.push_back({{0, kNaN, 0}, 0.1});
    cases.push_back({"sphere", in, StepCheck::bad_collider});
    in = plain_input(s);
    in.capsules.push_back({{0, 0, 0}, {0, 1, 0}, -0.1});
    cases.push_back({"capsule radius", in, StepCheck::bad_collider});
    for (const Case& c : cases) {
        EXPECT_EQ(checked_step(s, c.in, &undo), c.expected) << c.what << ": " << step_check_name(c.expected);
        expect_same_positions(s, before);
    }
}

TEST(CheckedStep, AStepThatGoesNonFiniteIsUndoneAndTheSolverGoesOnAsIfItNeverHappened) {
    Solver s = hanging_sheet();
    SolverState undo;
    // Some history first: a sphere to rest on (contact rows and their multipliers), a kick, holders that move.
    StepInput in = plain_input(s);
    in.spheres.push_back({{0.15, -0.2, 0.15}, 0.12});
    for (int k = 0; k < 40; ++k) {
        in.holders[0].position.x = 0.01 * std::sin(0.2 * k);
        ASSERT_EQ(checked_step(s, in, &undo), StepCheck::ok);
    }
    Solver never = s.fork();
    StepInput huge = in;
    huge.spheres.push_back({{0, 0, 0}, std::numeric_limits<double>::max()});
    EXPECT_EQ(checked_step(s, huge, &undo), StepCheck::non_finite);
    expect_same_positions(s, never);
    // Every field a step writes was put back: the two go on identically, whatever comes.
    for (int k = 40; k < 140; ++k) {
        in.holders[0].position.x = 0.01 * std::sin(0.2 * k);
        if (k == 90) in.spheres.clear();
        ASSERT_EQ(checked_step(s, in, &undo), StepCheck::ok);
        ASSERT_EQ(checked_step(never, in, nullptr), StepCheck::ok);
    }
    expect_same_positions(s, never);
}

TEST(CheckedStep, WithoutABufferANonFiniteStepIsReportedAndLeftForTheCallerThatStopsThere) {
    Solver s = hanging_sheet();
    StepInput in = plain_input(s);
    in.spheres.push_back({{0, 0, 0}, std::numeric_limits<double>::max()});
    EXPECT_EQ(checked_step(s, in, nullptr), StepCheck::non_finite);
    bool finite = true;
    for (const Vec3& x : s.state().x) finite = finite && is_finite(x);
    EXPECT_FALSE(finite);
}

}  // namespace
}  // namespace weft
