// Body colliders fitted to generated limbs: a cylinder's capsule within 2% of its radius, a ball's
// sphere, small bones merged, a garment's own bone left out where it would trap the garment's roots,
// and config edits.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "body/body_colliders.h"
#include "garment/garments.h"
#include "garment/scene_builder.h"

namespace weft {
namespace {

using namespace weft::test;

/// An open tube of `segments` x `rings` vertices, radius `r` (flaring to `r_end`), from `base` along
/// unit `axis` for `len`.
Strip tube(Vec3 base, Vec3 axis, double r, double len, int segments, int rings, double r_end = -1) {
    if (r_end < 0) r_end = r;
    Vec3 side = normalize(cross(axis, std::fabs(axis.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 0, 1}));
    Vec3 up = cross(axis, side);
    Strip st;
    for (int k = 0; k < rings; ++k)
        for (int s = 0; s < segments; ++s) {
            double a = 2 * std::numbers::pi * s / segments;
            const double f = double(k) / (rings - 1), rk = r + (r_end - r) * f;
            st.positions.push_back(base + axis * (len * f) + side * (rk * std::cos(a)) + up * (rk * std::sin(a)));
        }
    for (int k = 0; k + 1 < rings; ++k)
        for (int s = 0; s < segments; ++s) {
            uint32_t a = uint32_t(k * segments + s), b = uint32_t(k * segments + (s + 1) % segments);
            uint32_t c = a + uint32_t(segments), d = b + uint32_t(segments);
            st.indices.insert(st.indices.end(), {a, c, b, b, c, d});
        }
    return st;
}

/// A UV sphere of radius `r` about `centre`.
Strip ball(Vec3 centre, double r, int segments, int rings) {
    Strip st;
    for (int k = 1; k < rings; ++k) {
        double polar = std::numbers::pi * k / rings;
        for (int s = 0; s < segments; ++s) {
            double a = 2 * std::numbers::pi * s / segments;
            st.positions.push_back(centre + Vec3{r * std::sin(polar) * std::cos(a), r * std::cos(polar), r * std::sin(polar) * std::sin(a)});
        }
    }
    for (int k = 0; k + 2 < rings; ++k)
        for (int s = 0; s < segments; ++s) {
            uint32_t a = uint32_t(k * segments + s), b = uint32_t(k * segments + (s + 1) % segments);
            st.indices.insert(st.indices.end(), {a, a + uint32_t(segments), b});
        }
    return st;
}

const BodyCollider* on(const BodyColliders& body, const std::string& bone) {
    for (const BodyCollider& c : body.colliders)
        if (c.bone == bone) return &c;
    return nullptr;
}

/// Hips at 1 m, a thigh 0.1 m to the side going down 0.42 m (tilted 10° outwards), a head above.
struct Body {
    Scene scene = empty_scene();
    int hips, thigh, knee, head;
    int skin;
    Vec3 thigh_axis = normalize(Vec3{std::sin(10 * std::numbers::pi / 180), -std::cos(10 * std::numbers::pi / 180), 0});
    static constexpr double thigh_radius = 0.07;
    static constexpr double head_radius = 0.1;
    Body() {
        hips = add_node(scene, "Hips", 0, {0, 1, 0});
        thigh = add_node(scene, "Thigh", hips, {0.1, 0, 0});
        knee = add_node(scene, "Knee", thigh, thigh_axis * 0.42);
        head = add_node(scene, "Head", hips, {0, 0.6, 0});
        skin = add_skin(scene, {hips, thigh, knee, head});
        add_skinned_mesh(scene, "Leg", 0, "Body", skin, tube({0.1, 1, 0}, thigh_axis, thigh_radius, 0.42, 32, 15),
                         [](uint32_t) { return std::vector<std::pair<int, double>>{{1, 1.0}}; });
        add_skinned_mesh(scene, "Head", 0, "Body", skin, ball({0, 1.7, 0}, head_radius, 32, 16),
                         [](uint32_t) { return std::vector<std::pair<int, double>>{{3, 1.0}}; });
    }
};

TEST(BodyColliders, CapsuleFittedToACylinderLimbIsWithinTwoPercentOfItsRadius) {
    Body b;
    BodyColliders body = fit_body_colliders(b.scene, find_garments(b.scene));
    const BodyCollider* thigh = on(body, "Thigh");
    ASSERT_NE(thigh, nullptr);
    EXPECT_EQ(thigh->shape, ColliderShape::capsule);
    EXPECT_EQ(thigh->origin, "fitted");
    EXPECT_NEAR(thigh->radius, Body::thigh_radius, 0.02 * Body::thigh_radius);
    EXPECT_EQ(thigh->vertices, 32u * 15u);
    // The bone sits at the tube's top; the core runs down the tube's axis, a radius in from each end.
    const Vec3 a = thigh->a, bb = thigh->b;
    const Vec3 top = length(a) < length(bb) ? a : bb, bottom = length(a) < length(bb) ? bb : a;
    EXPECT_NEAR(distance(top, b.thigh_axis * Body::thigh_radius), 0, 1e-3);
    EXPECT_NEAR(distance(bottom, b.thigh_axis * (0.42 - Body::thigh_radius)), 0, 1e-3);
    // The skin is the surface the capsule stands for: side vertices sit on it, only the rims at the
    // ends are outside the caps.
    EXPECT_LT(thigh->worst_distance, 0.45 * Body::thigh_radius);
    // A model-space point a radius and a half out from the axis is outside, one at half a radius inside.
    const Mat4 rigid = bone_rigid_placement(b.scene, b.thigh);
    const Vec3 mid = Vec3{0.1, 1, 0} + b.thigh_axis * 0.21;
    const Vec3 out = normalize(cross(b.thigh_axis, {0, 0, 1}));
    EXPECT_NEAR(collider_distance(*thigh, rigid, mid + out * (1.5 * Body::thigh_radius)), 0.5 * thigh->radius, 1e-9);
    EXPECT_LT(collider_distance(*thigh, rigid, mid + out * (0.5 * Body::thigh_radius)), 0);
}

TEST(BodyColliders, EqualWeightsGoToTheNearestJointWhateverOrderTheFileStoresThem) {
    // The tube's top ring sits on the Thigh's joint, weighted half Hips, half Thigh (a writer's
    // float rounding a few ulps apart); a file may store either bone first. Both orders fit one
    // collider, and the ring belongs to the Thigh, whose origin it rings.
    auto fit = [](bool hips_first, float tilt) {
        Scene scene = empty_scene();
        const int hips = add_node(scene, "Hips", 0, {0, 1.3, 0});
        const int thigh = add_node(scene, "Thigh", hips, {0.1, -0.3, 0});
        const int skin = add_skin(scene, {hips, thigh});
        add_skinned_mesh(scene, "Leg", 0, "Body", skin, tube({0.1, 1, 0}, {0, -1, 0}, Body::thigh_radius, 0.42, 32, 15),
                         [hips_first, tilt](uint32_t v) {
                             if (v >= 32) return std::vector<std::pair<int, double>>{{1, 1.0}};
                             const double hips = 0.5 + tilt, thigh = 0.5 - tilt;
                             return hips_first ? std::vector<std::pair<int, double>>{{0, hips}, {1, thigh}}
                                               : std::vector<std::pair<int, double>>{{1, thigh}, {0, hips}};
                         });
        return fit_body_colliders(scene, find_garments(scene));
    };
    for (float tilt : {0.0f, 3e-6f, -3e-6f}) {
        const BodyColliders one = fit(true, tilt), other = fit(false, tilt);
        const BodyCollider* a = on(one, "Thigh");
        const BodyCollider* b = on(other, "Thigh");
        ASSERT_NE(a, nullptr);
        ASSERT_NE(b, nullptr);
        EXPECT_EQ(a->vertices, 32u * 15u) << "tilt " << tilt;
        EXPECT_EQ(b->vertices, 32u * 15u) << "tilt " << tilt;
        EXPECT_EQ(a->radius, b->radius);
        EXPECT_EQ(distance(a->a, b->a), 0.0);
        EXPECT_EQ(distance(a->b, b->b), 0.0);
        EXPECT_EQ(on(one, "Hips"), nullptr);
    }
}

TEST(BodyColliders, RoundPartGetsASphere) {
    Body b;
    BodyColliders body = fit_body_colliders(b.scene, find_garments(b.scene));
    const BodyCollider* head = on(body, "Head");
    ASSERT_NE(head, nullptr);
    EXPECT_EQ(head->shape, ColliderShape::sphere);
    EXPECT_NEAR(head->radius, Body::head_radius, 0.02 * Body::head_radius);
    EXPECT_NEAR(distance(head->a, {0, 0.1, 0}), 0, 2e-3);  // the head bone is 0.1 m below the ball's centre
    EXPECT_EQ(head->a, head->b);
}

TEST(BodyColliders, SmallBonesMergeIntoTheirParent) {
    Body b;
    const int finger = add_node(b.scene, "Finger", b.knee, {0, -0.05, 0});
    b.scene.skins[0].joints.push_back(finger);
    b.scene.skins[0].inverse_bind.push_back(b.scene.nodes[size_t(finger)].world.inverted());
    const Vec3 at = b.scene.nodes[size_t(finger)].world.translation_part();
    add_skinned_mesh(b.scene, "Toe", 0, "Body", 0, tube(at, {0, -1, 0}, 0.01, 0.02, 8, 3),
                     [](uint32_t) { return std::vector<std::pair<int, double>>{{4, 1.0}}; });
    BodyColliders body = fit_body_colliders(b.scene, find_garments(b.scene));
    EXPECT_EQ(on(body, "Finger"), nullptr);
    // Knee has no skin of its own, so the toe's vertices climb to the thigh.
    const BodyCollider* thigh = on(body, "Thigh");
    ASSERT_NE(thigh, nullptr);
    EXPECT_EQ(thigh->merged, (std::vector<std::string>{"Finger", "Knee"}));
    EXPECT_EQ(thigh->vertices, 32u * 15u + 24u);
}

TEST(BodyColliders, BonesThinnerThanTheMinimumRadiusMergeIntoTheirParent) {
    // A hand 30 cm beside the hips: a palm 3 cm round and two fingers 8 mm round, each finger long
    // and dense enough to pass the span and count rules. Cloth particles centimetres apart pass
    // either side of a finger, so the fingers become part of the hand's collider.
    auto hand_body = [](Body& b, int& hand) {
        hand = add_node(b.scene, "Hand", b.hips, {0.3, 0, 0});
        const int f1 = add_node(b.scene, "Finger1", hand, {0.015, -0.08, 0});
        const int f2 = add_node(b.scene, "Finger2", hand, {-0.015, -0.08, 0});
        for (int n : {hand, f1, f2}) {
            b.scene.skins[0].joints.push_back(n);
            b.scene.skins[0].inverse_bind.push_back(b.scene.nodes[size_t(n)].world.inverted());
        }
        add_skinned_mesh(b.scene, "Palm", 0, "Body", 0, tube({0.3, 1, 0}, {0, -1, 0}, 0.03, 0.08, 16, 6),
                         [](uint32_t) { return std::vector<std::pair<int, double>>{{4, 1.0}}; });
        add_skinned_mesh(b.scene, "Finger1", 0, "Body", 0, tube({0.315, 0.92, 0}, {0, -1, 0}, 0.008, 0.07, 8, 8),
                         [](uint32_t) { return std::vector<std::pair<int, double>>{{5, 1.0}}; });
        add_skinned_mesh(b.scene, "Finger2", 0, "Body", 0, tube({0.285, 0.92, 0}, {0, -1, 0}, 0.008, 0.07, 8, 8),
                         [](uint32_t) { return std::vector<std::pair<int, double>>{{6, 1.0}}; });
    };
    Body b;
    int hand = -1;
    hand_body(b, hand);
    BodyColliders body = fit_body_colliders(b.scene, find_garments(b.scene));
    EXPECT_EQ(on(body, "Finger1"), nullptr);
    EXPECT_EQ(on(body, "Finger2"), nullptr);
    const BodyCollider* h = on(body, "Hand");
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->merged, (std::vector<std::string>{"Finger1", "Finger2"}));
    EXPECT_EQ(h->vertices, 16u * 6u + 2u * 8u * 8u);
    EXPECT_GE(h->radius, BodyColliderOptions{}.min_radius);

    // Without the rule each finger keeps a collider 8 mm round.
    Body bare;
    hand_body(bare, hand);
    BodyColliderOptions no_minimum;
    no_minimum.min_radius = 0;
    BodyColliders fingers = fit_body_colliders(bare.scene, find_garments(bare.scene), no_minimum);
    ASSERT_NE(on(fingers, "Finger1"), nullptr);
    EXPECT_NEAR(on(fingers, "Finger1")->radius, 0.008, 0.02 * 0.008);
    EXPECT_TRUE(on(fingers, "Hand")->merged.empty());

    // A thin part longer than the collider it would join is a limb, not a digit: a stick arm 9 mm round
    // and 40 cm long off the 20 cm head keeps its own capsule, and the head's sphere stays round.
    Body stick;
    const int arm = add_node(stick.scene, "Arm", stick.head, {0.1, 0, 0});
    stick.scene.skins[0].joints.push_back(arm);
    stick.scene.skins[0].inverse_bind.push_back(stick.scene.nodes[size_t(arm)].world.inverted());
    add_skinned_mesh(stick.scene, "Arm", 0, "Body", 0, tube({0.1, 1.6, 0}, {1, 0, 0}, 0.009, 0.4, 8, 20),
                     [](uint32_t) { return std::vector<std::pair<int, double>>{{4, 1.0}}; });
    BodyColliders limb = fit_body_colliders(stick.scene, find_garments(stick.scene));
    ASSERT_NE(on(limb, "Arm"), nullptr);
    EXPECT_NEAR(on(limb, "Arm")->radius, 0.009, 0.02 * 0.009);
    ASSERT_NE(on(limb, "Head"), nullptr);
    EXPECT_EQ(on(limb, "Head")->shape, ColliderShape::sphere);
    EXPECT_NEAR(on(limb, "Head")->radius, Body::head_radius, 0.02 * Body::head_radius);
}

TEST(BodyColliders, TheBoneAGarmentHangsFromIsLeftOutWhereItWouldTrapItsRoots) {
    Body b;
    // A skirt round the hips, skinned to them, its waist inside the hips' skin.
    add_skinned_mesh(b.scene, "Pelvis", 0, "Body", b.skin, tube({0, 0.9, 0}, {0, 1, 0}, 0.15, 0.25, 24, 6),
                     [](uint32_t) { return std::vector<std::pair<int, double>>{{0, 1.0}}; });
    add_skinned_mesh(b.scene, "Skirt", 0, "Skirt", b.skin, tube({0, 1.05, 0}, {0, -1, 0}, 0.14, 0.45, 24, 8, 0.45),
                     [](uint32_t) { return std::vector<std::pair<int, double>>{{0, 1.0}}; });
    const ModelGarments garments = find_garments(b.scene);
    ASSERT_EQ(garments.garments.size(), 1u);
    BodyColliders body = fit_body_colliders(b.scene, garments);
    EXPECT_EQ(on(body, "Hips"), nullptr);
    ASSERT_EQ(body.left_out.size(), 1u);
    EXPECT_EQ(body.left_out[0].bone, "Hips");
    EXPECT_NE(body.left_out[0].reason.find("garment 'Skirt'"), std::string::npos) << body.left_out[0].reason;
    EXPECT_NE(on(body, "Thigh"), nullptr);  // what the skirt swings against stays
    // The skirt's own vertices are not body: the thigh's fit is the same as without it.
    EXPECT_NEAR(on(body, "Thigh")->radius, Body::thigh_radius, 0.02 * Body::thigh_radius);
}

TEST(BodyColliders, AColliderReachingThroughAGarmentAtRestShrinksToClearIt) {
    Body b;
    // A straight skirt 22 cm round: the tilted thigh comes within 6 cm of it at the knee.
    add_skinned_mesh(b.scene, "Skirt", 0, "Skirt", b.skin, tube({0, 1.05, 0}, {0, -1, 0}, 0.22, 0.45, 48, 10),
                     [](uint32_t) { return std::vector<std::pair<int, double>>{{0, 1.0}}; });
    const Scene& scene = b.scene;
    BodyColliders body = fit_body_colliders(scene, find_garments(scene));
    const BodyCollider* thigh = on(body, "Thigh");
    ASSERT_NE(thigh, nullptr);
    EXPECT_EQ(thigh->cleared, "Skirt");
    EXPECT_NEAR(thigh->fitted_radius, Body::thigh_radius, 0.02 * Body::thigh_radius);
    EXPECT_LT(thigh->radius, 0.8 * Body::thigh_radius);
    EXPECT_GT(thigh->radius, 0.5 * Body::thigh_radius);
    const Mat4 rigid = bone_rigid_placement(scene, b.thigh);
    double nearest = INFINITY;
    for (const Vec3& p : scene.meshes.back().positions) nearest = std::min(nearest, collider_distance(*thigh, rigid, p));
    EXPECT_NEAR(nearest, BodyColliderOptions{}.rest_clearance, 1e-9);
    // Shrunk, more of its skin is outside it.
    EXPECT_LT(thigh->inside_share, 0.5);

    // Tighter still, clearing it would take more than half the radius: left out, and said why.
    Body tight;
    add_skinned_mesh(tight.scene, "Skirt", 0, "Skirt", tight.skin, tube({0, 1.05, 0}, {0, -1, 0}, 0.2, 0.45, 48, 10),
                     [](uint32_t) { return std::vector<std::pair<int, double>>{{0, 1.0}}; });
    BodyColliders none = fit_body_colliders(tight.scene, find_garments(tight.scene));
    EXPECT_EQ(on(none, "Thigh"), nullptr);
    ASSERT_FALSE(none.left_out.empty());
    EXPECT_EQ(none.left_out[0].bone, "Thigh");
    EXPECT_NE(none.left_out[0].reason.find("reaches through 'Skirt' at rest"), std::string::npos) << none.left_out[0].reason;
}

TEST(BodyColliders, ConfigAddsRemovesAndResizes) {
    Body b;
    BodyColliderOptions options;
    options.edits.push_back({ColliderEdit::remove, "Head", {}, {}, ColliderShape::sphere, {}, {}, ""});
    options.edits.push_back({ColliderEdit::resize, "Thigh", {}, 1.5, ColliderShape::sphere, {}, {}, ""});
    options.edits.push_back({ColliderEdit::add, "Hips", 0.2, {}, ColliderShape::sphere, {0, 0.05, 0}, {}, ""});
    options.edits.push_back({ColliderEdit::remove, "Nobody", {}, {}, ColliderShape::sphere, {}, {}, ""});
    BodyColliders body = fit_body_colliders(b.scene, find_garments(b.scene), options);
    EXPECT_EQ(on(body, "Head"), nullptr);
    ASSERT_NE(on(body, "Thigh"), nullptr);
    EXPECT_NEAR(on(body, "Thigh")->radius, 1.5 * Body::thigh_radius, 0.03 * Body::thigh_radius);
    EXPECT_EQ(on(body, "Thigh")->origin, "config");
    ASSERT_NE(on(body, "Hips"), nullptr);
    EXPECT_EQ(on(body, "Hips")->radius, 0.2);
    ASSERT_EQ(body.warnings.size(), 1u);
    EXPECT_NE(body.warnings[0].find("Nobody"), std::string::npos);
}

TEST(BodyColliders, DeclaredCollidersAreUsedAsDeclared) {
    Body b;
    b.scene.colliders.push_back({b.head, {0, 0.1, 0.02}, 0.09, {}});
    BodyColliders body = fit_body_colliders(b.scene, find_garments(b.scene));
    const BodyCollider& last = body.colliders.back();
    EXPECT_EQ(last.origin, "declared");
    EXPECT_EQ(last.bone, "Head");
    EXPECT_EQ(last.radius, 0.09);
    EXPECT_NEAR(distance(last.a, {0, 0.1, 0.02}), 0, 1e-12);
    EXPECT_EQ(last.shape, ColliderShape::sphere);
    EXPECT_EQ(last.a, last.b);

    // A VRMC_springBone capsule stays a capsule from its offset to its tail, in the bone's space.
    b.scene.colliders.push_back({b.head, {-0.05, 0.1, 0}, 0.04, Vec3{0.05, 0.1, 0}});
    body = fit_body_colliders(b.scene, find_garments(b.scene));
    const BodyCollider& capsule = body.colliders.back();
    EXPECT_EQ(capsule.origin, "declared");
    EXPECT_EQ(capsule.shape, ColliderShape::capsule);
    EXPECT_EQ(capsule.radius, 0.04);
    EXPECT_NEAR(distance(capsule.a, {-0.05, 0.1, 0}), 0, 1e-12);
    EXPECT_NEAR(distance(capsule.b, {0.05, 0.1, 0}), 0, 1e-12);
    // Its middle is inside: two end spheres would leave a point on the axis half way 2 cm outside both.
    const Mat4 head = bone_rigid_placement(b.scene, b.head);
    const Vec3 middle = head.transform_point({0, 0.1, 0.035});
    EXPECT_NEAR(collider_distance(capsule, head, middle), -0.005, 1e-9);
}

}  // namespace
}  // namespace weft
