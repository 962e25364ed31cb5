// The scenario scripts (lib/validate/scenario.h): what the frame and the holders do, step by step.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "validate/scenario.h"

namespace weft {
namespace {

TEST(Scenario, NamesRoundTripAndTeleportMeansBothModes) {
    for (Scenario s : all_scenarios()) {
        std::vector<Scenario> parsed = parse_scenario(scenario_name(s));
        ASSERT_EQ(parsed.size(), 1u) << scenario_name(s);
        EXPECT_EQ(parsed[0], s);
    }
    EXPECT_EQ(parse_scenario("teleport"), (std::vector<Scenario>{Scenario::teleport_reset, Scenario::teleport_keep}));
    EXPECT_TRUE(parse_scenario("Hang").empty());
    EXPECT_TRUE(parse_scenario("").empty());
    EXPECT_EQ(all_scenarios().size(), 6u);
}

TEST(Scenario, DefaultStepsLetSilkSleepInHang) {
    // docs/validation.md#hang: the slowest library fabric needs ~770 steps to sleep.
    EXPECT_GE(default_steps(Scenario::hang), 770u * 3 / 2);
    EXPECT_FALSE(settles_first(Scenario::hang));
    for (Scenario s : all_scenarios()) {
        if (s != Scenario::hang) {
            EXPECT_TRUE(settles_first(s)) << scenario_name(s);
        }
    }
}

// docs/validation.md#sprint: sprint, stop dead, sprint back, stop dead, one second a phase, at 9 m/s.
TEST(Scenario, SprintIsANineMetrePerSecondSquareWaveThenStandsStill) {
    const uint32_t steps = default_steps(Scenario::sprint);
    ASSERT_EQ(steps, 720u);
    auto velocity = [&](uint32_t s) {
        return (script_step(Scenario::sprint, s, steps).frame.position.z -
                script_step(Scenario::sprint, s - 1, steps).frame.position.z) / validation_dt;
    };
    EXPECT_EQ(script_step(Scenario::sprint, 0, steps).frame.position, (Vec3{0, 0, 0}));
    for (uint32_t s = 1; s < steps; ++s) {
        const uint32_t phase = (s - 1) / sprint_phase_steps;
        const double want = s > 480 ? 0.0 : (phase % 4 == 0 ? 9.0 : (phase % 4 == 2 ? -9.0 : 0.0));
        EXPECT_NEAR(velocity(s), want, 1e-9) << "step " << s;
    }
    // Back exactly where it started after each whole cycle, and it never turns.
    EXPECT_EQ(script_step(Scenario::sprint, 240, steps).frame.position, (Vec3{0, 0, 0}));
    EXPECT_EQ(script_step(Scenario::sprint, 719, steps).frame.position, (Vec3{0, 0, 0}));
    EXPECT_NEAR(script_step(Scenario::sprint, 60, steps).frame.position.z, 9.0, 1e-12);
    for (uint32_t s = 0; s < steps; ++s) {
        ScriptStep st = script_step(Scenario::sprint, s, steps);
        EXPECT_EQ(st.frame.rotation.w, 1.0);
        EXPECT_EQ(st.holders, Pose{});
    }
}

TEST(Scenario, TeleportSwaysForOneSecondThenJumpsAKilometre) {
    const uint32_t steps = default_steps(Scenario::teleport_reset);
    for (Scenario s : {Scenario::teleport_reset, Scenario::teleport_keep}) {
        for (uint32_t i = 0; i < 60; ++i) {
            Vec3 p = script_step(s, i, steps).holders.position;
            EXPECT_LE(std::fabs(p.x), teleport_sway_amplitude + 1e-12);
            EXPECT_EQ(p.y, 0.0);
        }
        EXPECT_NEAR(script_step(s, 15, steps).holders.position.x, 0.2, 1e-12);  // a quarter period in
        EXPECT_EQ(script_step(s, 60, steps).holders.position, (Vec3{1000, 0, 0}));
        EXPECT_EQ(script_step(s, steps - 1, steps).holders.position, (Vec3{1000, 0, 0}));
        EXPECT_TRUE(script_step(s, 60, steps).driven);
        EXPECT_FALSE(script_step(s, 61, steps).driven);
    }
    // A short run still jumps, a fifth of the way in.
    EXPECT_EQ(script_step(Scenario::teleport_keep, 6, 30).holders.position.x, 1000.0);
    EXPECT_LT(script_step(Scenario::teleport_keep, 5, 30).holders.position.x, 1.0);
}

/// The angle of a unit quaternion's rotation, radians.
double idle_turn_angle(const Quat& q) { return 2 * std::acos(std::min(1.0, std::fabs(q.w))); }

TEST(Scenario, IdleBreathesSwaysAndTurns) {
    const uint32_t steps = default_steps(Scenario::idle);
    const ScriptStep start = script_step(Scenario::idle, 0, steps);
    EXPECT_EQ(start.holders.position, (Vec3{0, 0, 0}));
    EXPECT_EQ(start.holders.rotation.w, 1.0);  // the first step is the settled pose
    // The breath: ±3 mm along y every four seconds.
    EXPECT_NEAR(script_step(Scenario::idle, 60, steps).holders.position.y, 0.003, 1e-15);  // a quarter breath
    EXPECT_NEAR(script_step(Scenario::idle, 180, steps).holders.position.y, -0.003, 1e-15);
    EXPECT_NEAR(script_step(Scenario::idle, 240, steps).holders.position.y, 0.0, 1e-15);
    // The sway: ±3 mm along x every eight seconds, at its widest two seconds in.
    EXPECT_NEAR(script_step(Scenario::idle, 120, steps).holders.position.x, 0.003, 1e-15);
    EXPECT_NEAR(script_step(Scenario::idle, 360, steps).holders.position.x, -0.003, 1e-15);
    // The chest's turn: ±0.2° about the vertical with the breath.
    const Quat turned = script_step(Scenario::idle, 60, steps).holders.rotation;
    EXPECT_NEAR(idle_turn_angle(turned) * 180 / std::numbers::pi, 0.2, 1e-9);
    EXPECT_NEAR(std::fabs(turned.y), std::sin(0.1 * std::numbers::pi / 180), 1e-12);  // about y only
    double widest_x = 0, widest_turn = 0;
    for (uint32_t s = 0; s < steps; ++s) {
        ScriptStep st = script_step(Scenario::idle, s, steps);
        widest_x = std::max(widest_x, std::fabs(st.holders.position.x));
        widest_turn = std::max(widest_turn, idle_turn_angle(st.holders.rotation));
        EXPECT_EQ(st.holders.position.z, 0.0);
        EXPECT_TRUE(st.driven);
    }
    EXPECT_NEAR(widest_x, 0.003, 1e-6);
    EXPECT_NEAR(widest_turn * 180 / std::numbers::pi, 0.2, 1e-6);
}

// The energy trend is fitted over the undriven last third: every script but idle must have one.
TEST(Scenario, EveryScriptButIdleLeavesItsLastThirdUndriven) {
    for (Scenario s : all_scenarios()) {
        if (s == Scenario::idle) continue;
        for (uint32_t steps : {default_steps(s), 90u, 7u}) {
            for (uint32_t i = steps - steps / 3; i < steps; ++i) {
                ScriptStep st = script_step(s, i, steps);
                EXPECT_FALSE(st.driven) << scenario_name(s) << " step " << i << " of " << steps;
                EXPECT_EQ(st.kick, Vec3{});
            }
        }
    }
    EXPECT_EQ(script_step(Scenario::swing, 0, 900).kick, (Vec3{0, 0, 3}));
    EXPECT_TRUE(script_step(Scenario::swing, 0, 900).driven);
    EXPECT_EQ(script_step(Scenario::swing, 1, 900).kick, Vec3{});
}

}  // namespace
}  // namespace weft
