// The embeddable runtime's C interface (lib/runtime/weft_runtime.h) called as a game calls it: a
// chain's joints turned as their links are, its tip left unturned, colliders checked before they are
// taken. tests/cli/runtime_test.cpp runs its C example against `weft validate`.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "proxy/core/codec.h"
#include "runtime/weft_runtime.h"
#include "solver/test_proxies.h"

namespace weft {
namespace {

struct LoadedRuntime {
    weft_runtime* rt = nullptr;
    explicit LoadedRuntime(const ClothProxy& proxy, const char* fabric) {
        const std::vector<uint8_t> bytes = encode_proxy(proxy);
        char error[256] = "";
        rt = weft_runtime_load(bytes.data(), bytes.size(), fabric, error, sizeof error);
        EXPECT_NE(rt, nullptr) << error;
    }
    ~LoadedRuntime() { weft_runtime_free(rt); }
    Vec3 position(uint32_t i) const {
        std::vector<double> x(3 * weft_runtime_particle_count(rt));
        weft_runtime_positions(rt, x.data());
        return {x[3 * i], x[3 * i + 1], x[3 * i + 2]};
    }
};

Quat turn_of(const weft_pose& p) { return Quat{p.rotation[0], p.rotation[1], p.rotation[2], p.rotation[3]}; }

TEST(RuntimeCalls, AJointTurnsAsItsLinkDoesAndTheTipStaysUnturned) {
    // Six links of 10 cm authored along +x from the held particle 0, dropped: each joint's turn takes
    // its rest link onto the link it now has, the shortest way; the tip has no child and no turn.
    const ClothProxy proxy = test::chain_proxy(6, 0.1, 0.05, {1, 0, 0}, false);
    LoadedRuntime r(proxy, "rope");
    ASSERT_NE(r.rt, nullptr);
    weft_pose frame;
    weft_runtime_rest_frame(r.rt, &frame);
    ASSERT_EQ(weft_runtime_set_frame(r.rt, &frame), WEFT_OK);
    for (int s = 0; s < 20; ++s) ASSERT_EQ(weft_runtime_step(r.rt, 1.0 / 60), WEFT_OK);
    for (uint32_t k = 0; k < 6; ++k) {
        const uint32_t joint = test::particle(proxy, k), child = test::particle(proxy, k + 1);
        weft_pose p;
        ASSERT_EQ(weft_runtime_joint_transform(r.rt, joint, &p), WEFT_OK);
        const Vec3 rest = normalize(proxy.rest_position[child] - proxy.rest_position[joint]);
        const Vec3 now = normalize(r.position(child) - r.position(joint));
        EXPECT_LT(dot(now, rest), 0.99) << "link " << k << " has turned as it fell";
        EXPECT_LT(distance(turn_of(p).rotate(rest), now), 1e-9) << "joint " << k;
        // The shortest arc: its axis is across both links.
        const Vec3 axis{p.rotation[0], p.rotation[1], p.rotation[2]};
        EXPECT_NEAR(dot(axis, rest), 0, 1e-12);
        EXPECT_NEAR(dot(axis, now), 0, 1e-12);
        EXPECT_EQ(Vec3(p.position[0], p.position[1], p.position[2]), r.position(joint));
    }
    weft_pose tip;
    ASSERT_EQ(weft_runtime_joint_transform(r.rt, test::particle(proxy, 6), &tip), WEFT_OK);
    EXPECT_EQ(tip.rotation[0], 0);
    EXPECT_EQ(tip.rotation[1], 0);
    EXPECT_EQ(tip.rotation[2], 0);
    EXPECT_EQ(tip.rotation[3], 1);
    EXPECT_EQ(weft_runtime_joint_transform(r.rt, 7, &tip), WEFT_ERROR_ARGUMENT);
}

TEST(RuntimeCalls, CollidersAreCheckedBeforeTheyAreTakenAndThenHeld) {
    // A rope hanging straight down from the origin, and a 10 cm ball put 30 cm below its top, 8 cm
    // off its line: the ball is taken and pushes the rope off it. A negative radius or a NaN is refused.
    const ClothProxy proxy = test::chain_proxy(10, 0.05, 0.02, {0, -1, 0}, false);
    LoadedRuntime r(proxy, "rope");
    ASSERT_NE(r.rt, nullptr);
    weft_pose frame;
    weft_runtime_rest_frame(r.rt, &frame);
    ASSERT_EQ(weft_runtime_set_frame(r.rt, &frame), WEFT_OK);
    const double negative[4] = {0.05, -0.3, 0, -0.1};
    EXPECT_EQ(weft_runtime_set_colliders(r.rt, negative, 1), WEFT_ERROR_COLLIDER);
    const double nan[4] = {0.05, -0.3, 0, std::nan("")};
    EXPECT_EQ(weft_runtime_set_colliders(r.rt, nan, 1), WEFT_ERROR_COLLIDER);
    const double ball[4] = {0.08, -0.3, 0, 0.1};
    ASSERT_EQ(weft_runtime_set_colliders(r.rt, ball, 1), WEFT_OK);
    const Vec3 centre{0.08, -0.3, 0};
    for (int s = 0; s < 120; ++s) ASSERT_EQ(weft_runtime_step(r.rt, 1.0 / 60), WEFT_OK);
    for (uint32_t i = 0; i < weft_runtime_particle_count(r.rt); ++i)
        EXPECT_GT(distance(r.position(i), centre), 0.1) << "particle " << i << " outside the ball";
    EXPECT_LT(r.position(test::particle(proxy, 6)).x, -0.01);  // pushed off its line, away from the ball
}

}  // namespace
}  // namespace weft
