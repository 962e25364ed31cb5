// Still steps (docs/validation.md#still-steps): a scenario step the measuring loop does not hand the
// solver, because the cloth slept through the last one and the input has not changed since the one
// before it. Each test runs a scenario beside a shadow solver stepped at every step with the same
// input and asserts the run saw the shadow's state, bit for bit, after every step, and counted the
// same awake steps: so no step was passed over that the solver would have woken to.
#include <gtest/gtest.h>

#include "solver/test_proxies.h"
#include "validate/validate.h"

namespace weft {
namespace {

/// A scripted step's input as the measuring loop builds it (no body), the kick applied to `shadow`.
StepInput scripted(Solver& shadow, Scenario scenario, uint32_t s, uint32_t steps) {
    const ClothProxy& proxy = shadow.proxy();
    const FramedStep framed_step = framed(script_step(scenario, s, steps, shadow.row_counts().pose > 0), rest_frame_pose(proxy));
    if (!(framed_step.kick == Vec3{})) shadow.add_velocity(framed_step.kick);
    StepInput in;
    in.teleport_mode = scenario == Scenario::teleport_keep ? TeleportMode::keep : TeleportMode::reset;
    in.frame = framed_step.frame;
    in.holders.assign(proxy.pins.size(), framed_step.holders);
    return in;
}

TEST(StillSteps, AScriptedRunSeesEveryStepTheSolverWouldHaveTaken) {
    const ClothProxy chain = test::chain_proxy(6, 0.08, 0.05);
    const Fabric cotton = *find_fabric("cotton");
    Solver fresh(chain, cotton);
    Solver settled = fresh.fork();
    const uint32_t settle_steps = settle(settled);
    for (Scenario scenario : {Scenario::hang, Scenario::swing, Scenario::teleport_reset}) {
        const bool hang = scenario == Scenario::hang;
        const uint32_t steps = default_steps(scenario);
        Solver shadow = (hang ? fresh : settled).fork();
        uint32_t compared = 0, shadow_awake = 0;
        const StepObserver observe = [&](Scenario, uint32_t step, const Pose&, const ClothState& state) {
            const StepInput in = scripted(shadow, scenario, step - 1, steps);
            shadow_awake += !shadow.step(in).asleep;
            compared += shadow.state().x == state.x;
        };
        const ScenarioStats stats =
            run_scenario((hang ? fresh : settled).fork(), hang ? 0 : settle_steps, scenario, steps, nullptr, {}, observe);
        EXPECT_EQ(compared, steps) << scenario_name(scenario);
        EXPECT_EQ(stats.steps_awake, shadow_awake) << scenario_name(scenario);
        ASSERT_TRUE(stats.sleep_step) << scenario_name(scenario);
        // What still steps are for: most of a settling scenario is slept through.
        EXPECT_LT(stats.steps_awake, steps / 2) << scenario_name(scenario);
    }
}

// A clip that carries the frame at a steady speed, then stops: the cloth sleeps while the frame moves
// (a steady speed is not felt: docs/solver.md#inertia), every moving step changes the input, and the
// stop wakes it. Only the steps after it has slept again, at the last frame, are still.
TEST(StillSteps, AClipThatStopsWakesTheCloth) {
    ClothProxy chain = test::chain_proxy(6, 0.08, 0.05);
    chain.frame.node = "root";
    for (Pin& pin : chain.pins) pin.holder = "root";
    const Fabric cotton = *find_fabric("cotton");
    ASSERT_GT(cotton.inertia, 0);
    ClipMotion clip;
    clip.name = "glide";
    clip.nodes = {"root"};
    // 1/64 m a frame: binary fractions, so the frame's speed is the same to the last bit from frame to frame.
    for (int k = 0; k < 400; ++k) clip.frames.push_back({Pose{{k / 64.0, 0, 0}, {}}});
    Solver settled(chain, cotton);
    const uint32_t settle_steps = settle(settled);
    const ClipBinding binding = bind_clip(clip, chain, nullptr);
    const uint32_t steps = clip_default_steps(clip);
    Solver shadow = settled.fork();
    uint32_t compared = 0, shadow_awake = 0, woke_after_sleep = 0;
    bool shadow_slept = false;
    const StepObserver observe = [&](Scenario, uint32_t step, const Pose&, const ClothState& state) {
        StepInput in, colliders;
        place_clip_step(clip_step(clip, step - 1), binding, rest_frame_pose(chain), nullptr, in, colliders);
        const StepStats ss = shadow.step(in);
        shadow_awake += !ss.asleep;
        if (shadow_slept && !ss.asleep) ++woke_after_sleep;
        shadow_slept = shadow_slept || ss.fell_asleep;
        compared += shadow.state().x == state.x;
    };
    const ScenarioStats stats = run_scenario(settled.fork(), settle_steps, Scenario::clip, steps, nullptr, {}, observe, nullptr,
                                             &clip);
    EXPECT_EQ(compared, steps);
    EXPECT_EQ(stats.steps_awake, shadow_awake);
    EXPECT_GT(woke_after_sleep, 0u);  // the stop (or the blend's end) woke a sleeping cloth
    ASSERT_TRUE(stats.sleep_step);
    EXPECT_LT(*stats.sleep_step, clip_blend_steps + 400u);  // asleep while the frame still moved
}

}  // namespace
}  // namespace weft
