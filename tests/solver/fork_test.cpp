// A solver is a shared model and a copyable state: a fork continues bit for bit where its parent
// stood, and neither disturbs the other.
#include <gtest/gtest.h>

#include <cstring>

#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

bool same_bits(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)) == 0;
}

/// Holders swaying along x: input that keeps the cloth awake and moving.
StepInput swaying(const ClothProxy& proxy, int step) {
    StepInput in;
    in.holders.assign(proxy.pins.size(), Pose{});
    for (Pose& h : in.holders) h.position = {0.05 * std::sin(0.2 * step), 0, 0};
    return in;
}

TEST(Fork, AForkContinuesBitForBitAndLeavesItsParentAlone) {
    const ClothProxy sheet = test::grid_sheet_proxy(6, 5, 0.05, 0.2);
    Solver solver(sheet, *find_fabric("cotton"));
    for (int s = 0; s < 40; ++s) solver.step(swaying(sheet, s));
    const std::vector<Vec3> before = solver.state().x;

    Solver fork = solver.fork();
    EXPECT_EQ(fork.model().get(), solver.model().get());  // the model is shared, not cooked again
    for (int s = 40; s < 100; ++s) fork.step(swaying(sheet, s));
    EXPECT_TRUE(same_bits(solver.state().x, before));      // the parent did not move
    EXPECT_FALSE(same_bits(fork.state().x, before));       // the fork did

    for (int s = 40; s < 100; ++s) solver.step(swaying(sheet, s));
    EXPECT_TRUE(same_bits(solver.state().x, fork.state().x));
    EXPECT_TRUE(same_bits(solver.state().v, fork.state().v));

    // A state handed to a new solver of the same model continues the same way too.
    Solver rebuilt(solver.model(), solver.solver_state());
    for (int s = 100; s < 130; ++s) {
        solver.step(swaying(sheet, s));
        rebuilt.step(swaying(sheet, s));
    }
    EXPECT_TRUE(same_bits(solver.state().x, rebuilt.state().x));
}

TEST(Fork, AStateOfAnotherModelIsRefused) {
    const ClothProxy small = test::chain_proxy(4, 0.1, 0.05);
    const ClothProxy large = test::chain_proxy(9, 0.1, 0.05);
    Solver a(small, *find_fabric("rope"));
    Solver b(large, *find_fabric("rope"));
    EXPECT_THROW(Solver(a.model(), b.solver_state()), std::invalid_argument);
}

}  // namespace
}  // namespace weft
