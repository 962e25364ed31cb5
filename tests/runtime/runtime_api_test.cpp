// The embeddable runtime's C interface (lib/runtime/weft_runtime.h) against hostile calls: a dt, a
// placement, a collider or a kick that is not finite (or no rotation) is refused by its own status
// and changes nothing; a step that would leave a position not finite is undone and says so. Linked
// against weft_runtime alone, as a game links it.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <vector>

#include "support/paths.h"
#include "weft_runtime.h"

namespace {

struct Runtime {
    weft_runtime* rt = nullptr;
    Runtime() {
        std::ifstream in(weft::test::testdata_dir() / "proxy" / "small.clothproxy", std::ios::binary);
        const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        char error[256] = "";
        rt = weft_runtime_load(bytes.data(), bytes.size(), nullptr, error, sizeof error);
        EXPECT_NE(rt, nullptr) << error;
        weft_pose frame;
        weft_runtime_rest_frame(rt, &frame);
        EXPECT_EQ(weft_runtime_set_frame(rt, &frame), WEFT_OK);
    }
    ~Runtime() { weft_runtime_free(rt); }
    std::vector<double> positions() const {
        std::vector<double> x(3 * weft_runtime_particle_count(rt));
        weft_runtime_positions(rt, x.data());
        return x;
    }
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN(), kInf = std::numeric_limits<double>::infinity();

/// Bit for bit: a refused or undone call leaves every coordinate as it was.
void expect_same(const std::vector<double>& a, const std::vector<double>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i], b[i]) << "coordinate " << i;
}

TEST(RuntimeApi, AHostileDtIsRefusedAndTheClothStaysAsItWas) {
    Runtime r;
    ASSERT_EQ(weft_runtime_step(r.rt, 1.0 / 60), WEFT_OK);
    const std::vector<double> before = r.positions();
    for (double dt : {0.0, -1.0 / 60, kNaN, kInf, -kInf, 1e300, 1.5}) {
        EXPECT_EQ(weft_runtime_step(r.rt, dt), WEFT_ERROR_DT) << dt;
        expect_same(r.positions(), before);
    }
    EXPECT_EQ(weft_runtime_step(r.rt, 1.0), WEFT_OK);  // the longest step taken
}

TEST(RuntimeApi, PlacementsCollidersAndKicksThatAreNotFiniteAreRefusedAndChangeNothing) {
    Runtime hostile, plain;
    weft_pose bad{{0, kNaN, 0}, {0, 0, 0, 1}};
    EXPECT_EQ(weft_runtime_set_frame(hostile.rt, &bad), WEFT_ERROR_FRAME);
    bad = {{0, 0, 0}, {0, 0, 0, 2}};  // not a rotation
    EXPECT_EQ(weft_runtime_set_frame(hostile.rt, &bad), WEFT_ERROR_FRAME);
    bad = {{kInf, 0, 0}, {0, 0, 0, 1}};
    EXPECT_EQ(weft_runtime_set_holder(hostile.rt, 0, &bad), WEFT_ERROR_HOLDER);
    bad = {{0, 0, 0}, {kNaN, 0, 0, 1}};
    EXPECT_EQ(weft_runtime_set_holder(hostile.rt, 0, &bad), WEFT_ERROR_HOLDER);
    const weft_pose identity{{0, 0, 0}, {0, 0, 0, 1}};
    EXPECT_EQ(weft_runtime_set_holder(hostile.rt, weft_runtime_pin_count(hostile.rt), &identity), WEFT_ERROR_ARGUMENT);
    const double spheres[][4] = {{0, 0, kNaN, 0.1}, {0, 0, 0, -0.1}, {0, 0, 0, kInf}};
    for (const auto& s : spheres) EXPECT_EQ(weft_runtime_set_colliders(hostile.rt, s, 1), WEFT_ERROR_COLLIDER);
    const double capsules[][7] = {{0, 0, 0, kNaN, 0, 0, 0.1}, {0, 0, 0, 1, 0, 0, -1}};
    for (const auto& c : capsules) EXPECT_EQ(weft_runtime_set_capsules(hostile.rt, c, 1), WEFT_ERROR_COLLIDER);
    EXPECT_EQ(weft_runtime_set_colliders(hostile.rt, nullptr, 2), WEFT_ERROR_ARGUMENT);
    const double kick[3] = {kInf, 0, 0};
    EXPECT_EQ(weft_runtime_add_velocity(hostile.rt, kick), WEFT_ERROR_VELOCITY);
    // Every refused call changed nothing: the two clothes step to the same positions, bit for bit.
    for (int s = 0; s < 30; ++s) {
        ASSERT_EQ(weft_runtime_step(hostile.rt, 1.0 / 60), WEFT_OK);
        ASSERT_EQ(weft_runtime_step(plain.rt, 1.0 / 60), WEFT_OK);
    }
    expect_same(hostile.positions(), plain.positions());
}

TEST(RuntimeApi, AStepThatWouldGoNonFiniteIsUndoneAndTheClothGoesOnFromWhereItWas) {
    Runtime r, plain;
    for (int s = 0; s < 10; ++s) {
        ASSERT_EQ(weft_runtime_step(r.rt, 1.0 / 60), WEFT_OK);
        ASSERT_EQ(weft_runtime_step(plain.rt, 1.0 / 60), WEFT_OK);
    }
    const std::vector<double> before = r.positions();
    // Finite, but the contact with it is not: a sphere as large as a double goes (a holder, frame or
    // kick 1e308 away only teleports the cloth there, which stays finite).
    const double huge[4] = {0, 0, 0, std::numeric_limits<double>::max()};
    ASSERT_EQ(weft_runtime_set_colliders(r.rt, huge, 1), WEFT_OK);
    EXPECT_EQ(weft_runtime_step(r.rt, 1.0 / 60), WEFT_ERROR_NON_FINITE);
    expect_same(r.positions(), before);
    // Taken away, it steps on as if the bad step had never been asked for.
    ASSERT_EQ(weft_runtime_set_colliders(r.rt, nullptr, 0), WEFT_OK);
    for (int s = 0; s < 10; ++s) {
        ASSERT_EQ(weft_runtime_step(r.rt, 1.0 / 60), WEFT_OK);
        ASSERT_EQ(weft_runtime_step(plain.rt, 1.0 / 60), WEFT_OK);
    }
    expect_same(r.positions(), plain.positions());
}

TEST(RuntimeApi, EveryStatusHasAName) {
    for (int s : {WEFT_OK, WEFT_ERROR_ARGUMENT, WEFT_ERROR_DT, WEFT_ERROR_FRAME, WEFT_ERROR_HOLDER, WEFT_ERROR_COLLIDER,
                  WEFT_ERROR_NON_FINITE, WEFT_ERROR_VELOCITY, WEFT_ERROR_MEMORY})
        EXPECT_STRNE(weft_status_name(s), "unknown status") << s;
    EXPECT_STREQ(weft_status_name(WEFT_ERROR_DT), "WEFT_ERROR_DT");
    EXPECT_STREQ(weft_status_name(42), "unknown status");
}

}  // namespace
