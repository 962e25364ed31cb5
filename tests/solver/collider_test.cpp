// Colliders: one-sided contact rows with thickness and friction (docs/solver.md#contacts).
#include <gtest/gtest.h>

#include <cmath>

#include "solver/collider.h"
#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

TEST(Colliders, SurfacePoints) {
    SurfacePoint s = surface_point(SphereCollider{{1, 0, 0}, 0.5}, {1, 2, 0});
    EXPECT_DOUBLE_EQ(s.distance, 1.5);
    EXPECT_EQ(s.normal, (Vec3{0, 1, 0}));
    SurfacePoint c = surface_point(CapsuleCollider{{0, 0, 0}, {0, 0, 2}, 0.25}, {0.5, 0, 1});
    EXPECT_DOUBLE_EQ(c.distance, 0.25);
    EXPECT_EQ(c.normal, (Vec3{1, 0, 0}));
    SurfacePoint end = surface_point(CapsuleCollider{{0, 0, 0}, {0, 0, 2}, 0.25}, {0, 0, 3});
    EXPECT_DOUBLE_EQ(end.distance, 0.75);
    SurfacePoint centre = surface_point(SphereCollider{{0, 0, 0}, 1}, {0, 0, 0});
    EXPECT_DOUBLE_EQ(centre.distance, -1);
    EXPECT_DOUBLE_EQ(length(centre.normal), 1);
}

/// The deepest any free particle sits inside `thickness` of the colliders, over the run.
template <class Collide>
double worst_penetration(const ClothProxy& sheet, const Fabric& f, const StepInput& base, Collide distance_of, int steps) {
    Solver solver(sheet, f);
    StepInput in = base;
    double worst = 0;
    for (int s = 0; s < steps; ++s) {
        solver.step(in);
        for (uint32_t i = 0; i < sheet.particle_count(); ++i)
            if (sheet.inverse_mass[i] > 0) worst = std::max(worst, f.thickness - distance_of(solver.state().x[i]));
    }
    return worst;
}

// A sheet held along one edge swings down onto a sphere beneath it and drapes there: no particle
// goes deeper than a millimetre into the sphere's thickness shell.
TEST(Colliders, SheetDrapesOverASphere) {
    ClothProxy sheet = test::grid_sheet_proxy(12, 12, 0.04, 0.2);
    const SphereCollider ball{{0.22, -0.25, 0.2}, 0.15};
    StepInput in;
    in.spheres = {ball};
    const Fabric f = *find_fabric("cotton");
    double worst = worst_penetration(sheet, f, in, [&](const Vec3& x) { return surface_point(ball, x).distance; }, 300);
    EXPECT_LT(worst, 1e-3);
    // Without the collider the same sheet falls straight through where the ball would be.
    StepInput none;
    double through = worst_penetration(sheet, f, none, [&](const Vec3& x) { return surface_point(ball, x).distance; }, 300);
    EXPECT_GT(through, 0.05);
}

TEST(Colliders, RopeRestsOnACapsule) {
    ClothProxy rope = test::chain_proxy(12, 0.05, 0.02, {1, 0, 0});
    const CapsuleCollider bar{{0.3, -0.1, -1}, {0.3, -0.1, 1}, 0.05};
    StepInput in;
    in.capsules = {bar};
    const Fabric f = *find_fabric("rope");
    double worst = worst_penetration(rope, f, in, [&](const Vec3& x) { return surface_point(bar, x).distance; }, 300);
    EXPECT_LT(worst, 1e-3);
}

// A particle with a collision radius keeps it clear as well (docs/solver.md#contacts): the rope
// that rests a thickness above the bar rests its radius higher with one, and as before without.
TEST(Colliders, ParticlesKeepTheirCollisionRadiusClear) {
    ClothProxy rope = test::chain_proxy(12, 0.05, 0.02, {1, 0, 0});
    const CapsuleCollider bar{{0.3, -0.1, -1}, {0.3, -0.1, 1}, 0.05};
    StepInput in;
    in.capsules = {bar};
    const Fabric f = *find_fabric("rope");
    const double radius = 0.03;
    rope.collision_radius.assign(rope.particle_count(), radius);
    auto lowest_clearance = [&](const ClothProxy& p) {
        Solver solver(p, f);
        double lowest = INFINITY;
        for (int s = 0; s < 300; ++s) {
            solver.step(in);
            if (s < 200) continue;  // settled on the bar
            for (uint32_t i = 0; i < p.particle_count(); ++i)
                if (p.inverse_mass[i] > 0) lowest = std::min(lowest, surface_point(bar, solver.state().x[i]).distance);
        }
        return lowest;
    };
    const double with = lowest_clearance(rope);
    EXPECT_GT(with, f.thickness + radius - 1e-3);
    EXPECT_LT(with, f.thickness + radius + 5e-3);  // it rests on the bar, not above it
    rope.collision_radius.clear();
    const double without = lowest_clearance(rope);
    EXPECT_NEAR(without, f.thickness, 1e-3);
}

}  // namespace
}  // namespace weft
