// A hand beside a skirt (docs/colliders.md#fit, thin bones). Fitted finger by finger, its capsules are
// thinner than the gap between the skirt's particles: kicked into them the particles stay out while
// the skin between them goes through (the skirt is a sheet whose render mesh is bound between its
// particles, so PENETRATION sees that skin: docs/validation.md#bound-sheets). Fitted as one hand, as
// weft fits it, a hand resting against the skirt is left out whole, as a thigh is, where each thin
// finger alone would have shrunk past it and stayed.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "body/body_colliders.h"
#include "garment/garments.h"
#include "garment/scene_builder.h"
#include "body/body_in_scene.h"
#include "solver/test_proxies.h"
#include "solver/tube_skirt.h"
#include "validate/validate.h"

namespace weft {
namespace {

constexpr uint32_t kAround = 24, kDown = 9;
constexpr double kWaist = 0.2, kDrop = 0.05;

/// A tube skirt of radius kWaist hanging from its held waist ring at the origin, particles 5.2 cm apart
/// round it; its render mesh is bound at each triangle's edge midpoints and centroid, between particles.
ClothProxy bound_tube_skirt() {
    ClothProxy p = test::tube_skirt(kAround, kDown, kWaist, kDrop);
    const Vec3 at[4] = {{0.5, 0, 0}, {0.5, 0.5, 0}, {0, 0.5, 0}, {1.0 / 3, 1.0 / 3, 0}};
    for (uint32_t t = 0; t < p.triangles.size(); ++t) {
        const uint32_t first = static_cast<uint32_t>(p.binding_triangle.size());
        for (const Vec3& c : at) {
            p.binding_triangle.push_back(t);
            p.binding_coordinates.push_back(c);
        }
        p.render_triangles.push_back({first, first + 1, first + 2});
        p.render_triangles.push_back({first, first + 1, first + 3});
    }
    return p;
}

/// A hand hanging in front of the skirt's hem, 4 cm clear of it: a palm and four fingers 8 mm round,
/// 2.2 cm apart across the skirt, each finger's bone below the palm's.
struct Hand {
    Scene scene = test::empty_scene();
    Hand() {
        const int root = test::add_node(scene, "Root", -1, {0, 0, 0});
        const int hand = test::add_node(scene, "Hand", root, {0, -0.2, 0.27});
        std::vector<int> joints = {root, hand};
        for (int f = 0; f < 4; ++f) joints.push_back(test::add_node(scene, "Finger" + std::to_string(f + 1), hand, {0.022 * (f - 1.5), -0.08, 0}));
        const int skin = test::add_skin(scene, joints);
        test::add_skinned_mesh(scene, "Palm", 0, "Body", skin, tube({0, -0.2, 0.27}, {0, -1, 0}, 0.03, 0.08, 16, 6),
                         [](uint32_t) { return std::vector<std::pair<int, double>>{{1, 1.0}}; });
        for (int f = 0; f < 4; ++f)
            test::add_skinned_mesh(scene, "Finger" + std::to_string(f + 1), 0, "Body", skin,
                             tube({0.022 * (f - 1.5), -0.28, 0.27}, {0, -1, 0}, 0.008, 0.09, 8, 10),
                             [f](uint32_t) { return std::vector<std::pair<int, double>>{{2 + f, 1.0}}; });
    }
    /// An open tube as the body tests make it: radius r from base along unit axis for len.
    static test::Strip tube(Vec3 base, Vec3 axis, double r, double len, int segments, int rings) {
        Vec3 side = normalize(cross(axis, std::fabs(axis.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 0, 1}));
        Vec3 up = cross(axis, side);
        test::Strip st;
        for (int k = 0; k < rings; ++k)
            for (int s = 0; s < segments; ++s) {
                const double a = 2 * std::numbers::pi * s / segments;
                st.positions.push_back(base + axis * (len * k / (rings - 1)) + side * (r * std::cos(a)) + up * (r * std::sin(a)));
            }
        for (int k = 0; k + 1 < rings; ++k)
            for (int s = 0; s < segments; ++s) {
                const uint32_t a = uint32_t(k * segments + s), b = uint32_t(k * segments + (s + 1) % segments);
                st.indices.insert(st.indices.end(), {a, a + uint32_t(segments), b, b, a + uint32_t(segments), b + uint32_t(segments)});
            }
        return st;
    }
};

ProxyValidation kicked_into(const BodyShapes& body) {
    ValidationOptions o;
    o.scenarios = {{Scenario::swing, 240}};  // every free particle 3 m/s forward (+z), into the hand
    o.body = body;
    o.stop_early = false;  // how deep the whole swing takes the skin is the subject, failing or not
    return validate_proxy(bound_tube_skirt(), o);
}

TEST(HandCollider, FingerCapsulesLetTheSkinBetweenParticlesThrough) {
    const Hand h;
    BodyColliderOptions per_finger;
    per_finger.min_radius = 0;
    const BodyColliders fingers = fit_body_colliders(h.scene, find_garments(h.scene), per_finger);
    ASSERT_EQ(fingers.colliders.size(), 5u);  // the palm and four fingers 8 mm round
    const ProxyValidation cut = kicked_into(body_shapes(h.scene, fingers));
    ASSERT_FALSE(cut.refused);
    const ScenarioStats& s = cut.scenarios[0];
    ASSERT_TRUE(s.max_penetration && s.max_render_penetration);
    const double thickness = find_fabric("cotton")->thickness;
    EXPECT_LE(*s.max_penetration, thickness);            // every particle stays out (0 mm)
    EXPECT_GT(*s.max_render_penetration, thickness + 0.003);  // the skin between them does not (10.9 mm)
    EXPECT_FALSE(cut.passed());

    // Fitted as a hand (the default), the fingers are one collider of it.
    const BodyColliders hand = fit_body_colliders(h.scene, find_garments(h.scene));
    ASSERT_EQ(hand.colliders.size(), 1u);
    EXPECT_EQ(hand.colliders[0].bone, "Hand");
    EXPECT_EQ(hand.colliders[0].merged, (std::vector<std::string>{"Finger1", "Finger2", "Finger3", "Finger4"}));
}

TEST(HandCollider, AHandRestingAgainstASkirtIsLeftOutAsAWholeNotFingerByFinger) {
    // The Witch's pose: the hand hangs against the skirt. Each finger shrinks to clear it and stays;
    // the palm reaches through it.
    Hand h;
    test::Strip skirt = Hand::tube({0, -0.15, 0}, {0, -1, 0}, 0.245, 0.3, 48, 8);
    test::add_skinned_mesh(h.scene, "Skirt", 0, "Skirt", 0, skirt, [](uint32_t) { return std::vector<std::pair<int, double>>{{0, 1.0}}; });
    const ModelGarments garments = find_garments(h.scene);
    ASSERT_EQ(garments.garments.size(), 1u);
    BodyColliderOptions per_finger;
    per_finger.min_radius = 0;
    const BodyColliders fingers = fit_body_colliders(h.scene, garments, per_finger);
    EXPECT_EQ(fingers.colliders.size(), 4u);  // each finger clears the skirt; the palm reaches through it
    const BodyColliders hand = fit_body_colliders(h.scene, garments);
    EXPECT_TRUE(hand.colliders.empty());
    ASSERT_EQ(hand.left_out.size(), 1u);
    EXPECT_EQ(hand.left_out[0].bone, "Hand");
    EXPECT_NE(hand.left_out[0].reason.find("reaches through 'Skirt' at rest"), std::string::npos) << hand.left_out[0].reason;
}

}  // namespace
}  // namespace weft
