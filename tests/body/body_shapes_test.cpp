// The body's shapes in a proxy's frame (lib/body/body_shapes.h): how deep a set of particles sits in
// them, the held ones left out (docs/validation.md#penetration).
#include <gtest/gtest.h>

#include <vector>

#include "body/body_shapes.h"

namespace weft {
namespace {

TEST(BodyShapes, DeepestInsideCountsOnlyFreeParticles) {
    // A head of radius 0.1 m and a thigh capsule; a held root 20 mm inside the head (as a grown
    // strand's root sits in the scalp), a free particle 5 mm inside the thigh, one outside both.
    BodyShapes rest;
    rest.spheres.push_back({{0, 1.6, 0}, 0.1});
    rest.capsules.push_back({{0.1, 0.9, 0}, {0.1, 0.5, 0}, 0.07});
    StepInput in;
    place_body(rest, Pose{}, in);
    const std::vector<Vec3> x = {{0, 1.6, 0.08}, {0.1 + 0.065, 0.7, 0}, {0.5, 0.5, 0.5}};
    const std::vector<double> inverse_mass = {0, 20, 20};
    const Depth all = deepest_inside(in, x);
    EXPECT_NEAR(all.depth, 0.02, 1e-12);
    EXPECT_EQ(all.index, 0u);
    const Depth free = deepest_inside(in, x, inverse_mass);
    EXPECT_NEAR(free.depth, 0.005, 1e-12);
    EXPECT_EQ(free.index, 1u);
    // Nothing free inside: no depth and no particle.
    const std::vector<double> only_root_free = {20, 0, 0};
    const std::vector<Vec3> outside = {{0, 1.8, 0}, {0.1 + 0.065, 0.7, 0}, {0.5, 0.5, 0.5}};
    const Depth none = deepest_inside(in, outside, only_root_free);
    EXPECT_EQ(none.depth, 0.0);
    EXPECT_EQ(none.index, no_particle);
}

}  // namespace
}  // namespace weft
