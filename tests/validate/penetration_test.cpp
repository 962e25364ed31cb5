// PENETRATION: a skirt round two legs, kicked forward, swings its back panel through the thighs
// without body colliders and does not with them (docs/validation.md#penetration).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "solver/test_proxies.h"
#include "solver/tube_skirt.h"
#include "body/body_shapes.h"
#include "validate/validate.h"

namespace weft {
namespace {

constexpr uint32_t kAround = 24, kDown = 11;
constexpr double kWaist = 0.2, kDrop = 0.05;

/// A tube skirt of radius kWaist hanging from its held waist ring at the origin.
ClothProxy skirt() { return test::tube_skirt(kAround, kDown, kWaist, kDrop); }

/// Two thighs, 9 cm either side, 8 cm thick, from just under the waist to the knees: clear of the
/// skirt at rest by 3 cm.
BodyShapes legs() {
    BodyShapes b;
    b.capsules.push_back({{0.09, -0.1, 0}, {0.09, -0.5, 0}, 0.08});
    b.capsules.push_back({{-0.09, -0.1, 0}, {-0.09, -0.5, 0}, 0.08});
    return b;
}

ValidationOptions swing_only() {
    ValidationOptions o;
    o.scenarios = {{Scenario::swing, 240}};
    o.stop_early = false;  // how deep the whole swing goes is the subject, past the gate's limit too
    return o;
}

TEST(Penetration, SkirtKickedThroughTheLegsPenetratesWithoutCollidersAndNotWithThem) {
    const ClothProxy proxy = skirt();
    const BodyShapes body = legs();

    // Without colliders: the same legs, only measured (the solver does not see them).
    ValidationOptions bare = swing_only();
    double deepest = 0;
    bare.observer = [&](Scenario, uint32_t, const Pose& holders, const ClothState& state) {
        StepInput in;
        place_body(body, holders, in);
        deepest = std::fmax(deepest, deepest_inside(in, state.x, state.inverse_mass).depth);
    };
    ProxyValidation without = validate_proxy(proxy, bare);
    ASSERT_FALSE(without.refused);
    for (const GateResult& g : without.gates) EXPECT_NE(g.gate, Gate::penetration);  // no body, no gate
    const double thickness = find_fabric("cotton")->thickness;
    EXPECT_GT(deepest, 0.03) << "the back panel swings 3 cm or more into a thigh";

    // Measured only (BodyShapes::collide off): the same run, the same depth, now in the report.
    ValidationOptions measured = swing_only();
    measured.body = body;
    measured.body.collide = false;
    ProxyValidation m = validate_proxy(proxy, measured);
    ASSERT_TRUE(m.scenarios[0].max_penetration);
    EXPECT_DOUBLE_EQ(*m.scenarios[0].max_penetration, deepest);
    EXPECT_EQ(m.scenarios[0].final_positions, without.scenarios[0].final_positions);

    ValidationOptions with = swing_only();
    with.body = body;
    ProxyValidation v = validate_proxy(proxy, with);
    ASSERT_FALSE(v.refused);
    ASSERT_EQ(v.scenarios.size(), 1u);
    ASSERT_TRUE(v.scenarios[0].max_penetration);
    EXPECT_LE(*v.scenarios[0].max_penetration, thickness);
    bool gated = false;
    for (const GateResult& g : v.gates)
        if (g.gate == Gate::penetration) {
            gated = true;
            EXPECT_TRUE(g.passed) << g.message;
            EXPECT_DOUBLE_EQ(*g.limit, thickness);
        }
    EXPECT_TRUE(gated);

    // The gate fails what it should: the bare run's depth against the same limit.
    ScenarioStats s = without.scenarios[0];
    s.max_penetration = deepest;
    s.max_penetration_particle = 0;
    s.max_penetration_step = 1;
    bool failed = false;
    for (const GateResult& g : evaluate_gates(std::span(&s, 1), without.energy_scale, GateLimits{}, thickness))
        if (g.gate == Gate::penetration) failed = !g.passed;
    EXPECT_TRUE(failed);
}

TEST(Penetration, AColliderTheClothRestsInsideIsLeftOutForThatCloth) {
    const ClothProxy proxy = skirt();
    BodyShapes body = legs();
    body.spheres.push_back({{0, -0.3, 0.2}, 0.05});     // on the skirt's front at rest
    body.spheres.push_back({{0, -0.3, 0.197}, 0.001});  // inside the fabric's thickness of it, no deeper
    size_t left_out = 0;
    const BodyShapes kept = body_clear_of_rest(body, proxy, find_fabric("cotton")->thickness, &left_out);
    EXPECT_EQ(left_out, 2u);
    EXPECT_EQ(kept.capsules.size(), 2u);
    EXPECT_TRUE(kept.spheres.empty());

    ValidationOptions o = swing_only();
    o.body = body;
    ProxyValidation v = validate_proxy(proxy, o);
    EXPECT_EQ(v.body_colliders, 2u);
    EXPECT_EQ(v.body_colliders_left_out, 2u);
    ASSERT_TRUE(v.scenarios[0].max_penetration);
    EXPECT_LE(*v.scenarios[0].max_penetration, find_fabric("cotton")->thickness);
}

TEST(Penetration, HeldParticlesInsideAColliderAreNotPenetration) {
    // docs/validation.md#penetration: the particles the body holds (a skirt's waistband sewn into the
    // hips, hair roots in the scalp) sit where the body puts them; only free particles penetrate. The
    // hips here are a sphere the held waist ring sits 16 mm inside; the first free ring is 10 mm
    // outside it at rest, more than cotton's thickness, so the sphere stays a collider for this skirt.
    const ClothProxy proxy = skirt();
    const double thickness = find_fabric("cotton")->thickness;
    const Vec3 centre{0, 0.1, 0};
    const double hips = std::hypot(kWaist, 0.1) + 0.016;
    ASSERT_GT(std::hypot(kWaist, 0.1 + kDrop) - hips, thickness);
    BodyShapes body;
    body.spheres.push_back({centre, hips});
    ValidationOptions o = swing_only();
    o.body = body;
    const ProxyValidation v = validate_proxy(proxy, o);
    ASSERT_FALSE(v.refused);
    EXPECT_EQ(v.body_colliders, 1u);
    EXPECT_EQ(v.body_colliders_left_out, 0u);
    ASSERT_TRUE(v.scenarios[0].max_penetration);
    // The free particles swing against the hips and the collider holds them out to the thickness.
    EXPECT_LE(*v.scenarios[0].max_penetration, thickness);
    if (v.scenarios[0].max_penetration_particle != no_particle) {
        EXPECT_FALSE(proxy.held(v.scenarios[0].max_penetration_particle)) << v.scenarios[0].max_penetration_particle;
    }
    for (const GateResult& g : v.gates) {
        if (g.gate == Gate::penetration) { EXPECT_TRUE(g.passed) << g.message; }
    }
    // The depth itself, on the rest pose: the held ring 16 mm inside is not counted, a free particle
    // is, wherever it is.
    StepInput in;
    place_body(body, Pose{}, in);
    std::vector<double> inverse_mass(proxy.particle_count());
    for (uint32_t i = 0; i < proxy.particle_count(); ++i) inverse_mass[i] = proxy.held(i) ? 0.0 : 1.0;
    EXPECT_NEAR(deepest_inside(in, proxy.rest_position).depth, 0.016, 1e-12);  // every particle: the ring
    EXPECT_EQ(deepest_inside(in, proxy.rest_position, inverse_mass).depth, 0.0);
    std::vector<Vec3> pushed = proxy.rest_position;
    const uint32_t free_one = kAround;  // the first particle of the first free ring
    pushed[free_one] = centre + normalize(pushed[free_one] - centre) * (hips - 0.005);
    const Depth d = deepest_inside(in, pushed, inverse_mass);
    EXPECT_NEAR(d.depth, 0.005, 1e-12);
    EXPECT_EQ(d.index, free_one);
}

TEST(Penetration, BodyRidesTheHolders) {
    BodyShapes rest;
    rest.spheres.push_back({{0, 1, 0}, 0.1});
    StepInput in;
    place_body(rest, Pose{{5, 0, 0}, Quat::from_axis_angle({0, 0, 1}, std::numbers::pi / 2)}, in);
    ASSERT_EQ(in.spheres.size(), 1u);
    EXPECT_NEAR(distance(in.spheres[0].centre, {4, 0, 0}), 0, 1e-12);
    const std::vector<Vec3> x = {{4.05, 0, 0}, {9, 9, 9}};
    const Depth d = deepest_inside(in, x);
    EXPECT_NEAR(d.depth, 0.05, 1e-12);
    EXPECT_EQ(d.index, 0u);
}

}  // namespace
}  // namespace weft
