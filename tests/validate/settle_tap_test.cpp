// Hang as the prelude (docs/validation.md#hang-steps-the-prelude): a cloth hung from rest and left
// alone takes in hang, until it sleeps, the very steps the prelude (settle) takes, so hang's run hands
// its solver on at that step instead of the prelude being stepped again apart. Each test compares the
// handed-on state, or a validation using it, with settle()'s own, bit for bit.
#include <gtest/gtest.h>

#include "solver/test_proxies.h"
#include "validate/validate.h"

namespace weft {
namespace {

TEST(HangStepsThePrelude, HangHandsOnSettlesStateAtSettlesStep) {
    const ClothProxy chain = test::chain_proxy(6, 0.08, 0.05, {1, 0, 0});  // authored level: it falls, then settles
    const Fabric cotton = *find_fabric("cotton");
    Solver fresh(chain, cotton);
    ASSERT_EQ(fresh.row_counts().pose, 0u);
    Solver apart = fresh.fork();
    const uint32_t settle_steps = settle(apart);
    ASSERT_GT(settle_steps, 40u);  // a fall to settle, not a chain already at rest
    ASSERT_LT(settle_steps, settle_max_steps);  // it sleeps: the tap fires at the step it fell asleep

    std::optional<Solver> handed;
    uint32_t handed_steps = 0, calls = 0;
    SettleTap tap{settle_input(chain), [&](const Solver& s, uint32_t steps) {
                      handed = s.fork();
                      handed_steps = steps;
                      ++calls;
                  }};
    const ScenarioStats hang = run_scenario(fresh.fork(), 0, Scenario::hang, 1500, nullptr, {}, {}, nullptr, nullptr, {},
                                            nullptr, &tap);
    ASSERT_EQ(calls, 1u);
    EXPECT_EQ(handed_steps, settle_steps);
    ASSERT_TRUE(hang.sleep_step);
    EXPECT_EQ(*hang.sleep_step, settle_steps);
    EXPECT_EQ(handed->state().x, apart.state().x);
    EXPECT_EQ(handed->state().v, apart.state().v);

    // Every scenario from either start measures the same, to the bit.
    for (Scenario scenario : {Scenario::swing, Scenario::sprint, Scenario::idle}) {
        const uint32_t steps = default_steps(scenario);
        const ScenarioStats a = run_scenario(apart.fork(), settle_steps, scenario, steps);
        const ScenarioStats b = run_scenario(handed->fork(), handed_steps, scenario, steps);
        EXPECT_EQ(a.final_positions, b.final_positions) << scenario_name(scenario);
        EXPECT_EQ(a.max_strain, b.max_strain) << scenario_name(scenario);
        EXPECT_EQ(a.peak_speed, b.peak_speed) << scenario_name(scenario);
        EXPECT_EQ(a.steps_awake, b.steps_awake) << scenario_name(scenario);
        EXPECT_EQ(a.total_energy_end, b.total_energy_end) << scenario_name(scenario);
    }
}

TEST(HangStepsThePrelude, AHangWhoseStepIsNotThePreludesHandsNothingOn) {
    const ClothProxy chain = test::chain_proxy(6, 0.08, 0.05);
    const Fabric cotton = *find_fabric("cotton");
    Solver fresh(chain, cotton);
    uint32_t calls = 0;
    SettleTap tap{settle_input(chain), [&](const Solver&, uint32_t) { ++calls; }};
    tap.input.gravity.y *= 1 + 1e-15;  // a step the prelude would not take, by one rounding
    run_scenario(fresh.fork(), 0, Scenario::hang, 1500, nullptr, {}, {}, nullptr, nullptr, {}, nullptr, &tap);
    EXPECT_EQ(calls, 0u);
    // Only hang hands on: swing kicks its first step, and any other scenario is not the prelude.
    SettleTap swing_tap{settle_input(chain), [&](const Solver&, uint32_t) { ++calls; }};
    run_scenario(fresh.fork(), 0, Scenario::swing, 300, nullptr, {}, {}, nullptr, nullptr, {}, nullptr, &swing_tap);
    EXPECT_EQ(calls, 0u);
    // A cloth whose pose rows hold its rest pose starts hang kicked (docs/validation.md#hang).
    Fabric posed = cotton;
    posed.pose = 2;
    Solver rig(chain, posed);
    ASSERT_GT(rig.row_counts().pose, 0u);
    SettleTap rig_tap{settle_input(chain), [&](const Solver&, uint32_t) { ++calls; }};
    run_scenario(rig.fork(), 0, Scenario::hang, 1500, nullptr, {}, {}, nullptr, nullptr, {}, nullptr, &rig_tap);
    EXPECT_EQ(calls, 0u);
}

// A hang run that ends before the prelude would (`--steps` shorter than the fall) hands nothing on:
// validation then settles apart, and reports what it always did.
TEST(HangStepsThePrelude, AHangShorterThanThePreludeHandsNothingOn) {
    const ClothProxy chain = test::chain_proxy(6, 0.08, 0.05, {1, 0, 0});
    const Fabric cotton = *find_fabric("cotton");
    Solver fresh(chain, cotton);
    Solver apart = fresh.fork();
    const uint32_t settle_steps = settle(apart);
    ASSERT_GT(settle_steps, 20u);
    uint32_t calls = 0;
    SettleTap tap{settle_input(chain), [&](const Solver&, uint32_t) { ++calls; }};
    run_scenario(fresh.fork(), 0, Scenario::hang, 20, nullptr, {}, {}, nullptr, nullptr, {}, nullptr, &tap);
    EXPECT_EQ(calls, 0u);

    ValidationOptions o;
    o.fabric = cotton;
    o.scenarios = {{Scenario::hang, 20}, {Scenario::swing, 200}};
    const ProxyValidation v = validate_proxy(chain, o);
    ASSERT_EQ(v.scenarios.size(), 2u);
    EXPECT_EQ(v.scenarios[1].settle_steps, settle_steps);
    const ScenarioStats swing = run_scenario(apart.fork(), settle_steps, Scenario::swing, 200);
    EXPECT_EQ(v.scenarios[1].final_positions, swing.final_positions);
    EXPECT_EQ(v.scenarios[1].max_strain, swing.max_strain);
}

// validate_proxy hands hang's state on (no shared observer) or settles apart (a run_observer, which
// sees the runs in order, keeps the prelude apart): the same report either way.
TEST(HangStepsThePrelude, AValidationReportsTheSameWithOrWithoutIt) {
    const ClothProxy sheet = test::flag_proxy(5, 4, 0.1, 0.3);
    ValidationOptions shared;
    shared.fabric = *find_fabric("cotton");
    ValidationOptions apart = shared;
    uint32_t runs_seen = 0;
    apart.run_observer = [&](const ScenarioRun&) { ++runs_seen; };
    const ProxyValidation a = validate_proxy(sheet, shared);
    const ProxyValidation b = validate_proxy(sheet, apart);
    EXPECT_EQ(runs_seen, shared.scenarios.size());
    ASSERT_EQ(a.scenarios.size(), b.scenarios.size());
    ASSERT_GT(a.scenarios.size(), 1u);
    for (size_t k = 0; k < a.scenarios.size(); ++k) {
        const ScenarioStats &x = a.scenarios[k], &y = b.scenarios[k];
        const char* name = scenario_name(x.scenario);
        EXPECT_EQ(x.settle_steps, y.settle_steps) << name;
        EXPECT_EQ(x.steps_awake, y.steps_awake) << name;
        EXPECT_EQ(x.final_positions, y.final_positions) << name;
        EXPECT_EQ(x.max_strain, y.max_strain) << name;
        EXPECT_EQ(x.total_energy_end, y.total_energy_end) << name;
        EXPECT_EQ(x.crossings, y.crossings) << name;
    }
    ASSERT_EQ(a.gates.size(), b.gates.size());
    for (size_t g = 0; g < a.gates.size(); ++g) EXPECT_EQ(a.gates[g].message, b.gates[g].message);
}

}  // namespace
}  // namespace weft
