// The rig-proxy builder (lib/proxy/rig_builder.h; docs/proxy.md#rig-proxy):
// particles, holds, rows, frame, masses, d_geo and colours on hand-built skeletons, and the
// refusals by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "graph/colouring.h"
#include "grow/grow_scenes.h"
#include "proxy/colour_permute.h"
#include "proxy/core/proxy_check.h"
#include "proxy/rig_builder.h"

namespace weft {
namespace {

using namespace grow_test;

/// A body with a three-joint tail hanging back and down from the hips, each link 10 cm.
struct TailScene {
    Body body;
    std::vector<int> tail;
};

TailScene tail_scene() {
    TailScene t{make_body(), {}};
    int parent = t.body.hips;
    for (int k = 0; k < 3; ++k) {
        const int j = add_node(t.body.scene, "Tail" + std::to_string(k + 1), parent, k == 0 ? Vec3{0, 0, -0.1} : Vec3{0, -0.06, -0.08});
        t.body.scene.skins[0].joints.push_back(j);
        t.body.scene.skins[0].inverse_bind.push_back(t.body.scene.nodes[size_t(j)].world.inverted());
        t.tail.push_back(j);
        parent = j;
    }
    return t;
}

RigGarment tail_garment(const TailScene& t) {
    RigGarment g;
    g.name = "Tail";
    g.garment_class = "tail";
    g.chains.push_back({"Tail1", t.tail, t.body.hips, std::nullopt, {}});
    return g;
}

uint32_t particle_named(const ClothProxy& p, const std::string& name) {
    for (uint32_t i = 0; i < p.particle_count(); ++i)
        if (p.joint_name[i] == name) return i;
    return no_particle;
}

TEST(RigBuilder, AChainIsItsJointsAndTheBoneItHangsFrom) {
    const TailScene t = tail_scene();
    const RigBuildResult r = build_rig(t.body.scene, tail_garment(t));
    ASSERT_TRUE(r.proxy) << (r.issues.empty() ? "" : r.issues[0].message);
    const ClothProxy& p = *r.proxy;
    EXPECT_EQ(check_proxy(p), "");
    EXPECT_EQ(p.kind, ProxyKind::rig);
    EXPECT_EQ(p.garment, "Tail");
    EXPECT_EQ(p.suggested_fabric, "strand");  // fabric/fabric.h: a tail's bones -> strand (its mass: hair's)
    // Hips (held), Tail1 (the root: held with the hips), Tail2, Tail3. The last joint weights no
    // vertex, so it is an end joint and there is no tip particle.
    ASSERT_EQ(p.particle_count(), 4u);
    EXPECT_EQ(r.stats.tips, 0u);
    const uint32_t hips = particle_named(p, "Hips"), t1 = particle_named(p, "Tail1"), t2 = particle_named(p, "Tail2"),
                   t3 = particle_named(p, "Tail3");
    ASSERT_TRUE(hips != no_particle && t1 != no_particle && t2 != no_particle && t3 != no_particle);
    EXPECT_TRUE(p.held(hips));
    EXPECT_TRUE(p.held(t1));
    EXPECT_FALSE(p.held(t2));
    EXPECT_FALSE(p.held(t3));
    // One pin, by the bone the chain hangs from, holding it and the root.
    ASSERT_EQ(p.pins.size(), 1u);
    EXPECT_EQ(p.pins[0].holder, "Hips");
    std::vector<uint32_t> held{hips, t1};
    std::sort(held.begin(), held.end());
    EXPECT_EQ(p.pins[0].particles, held);
    // The frame is the nearest skin joint at or above the hanging bone: the hips themselves.
    EXPECT_EQ(p.frame.node, "Hips");
    EXPECT_NEAR(p.frame.rest_world.translation_part().y, 1.0, 1e-12);
    EXPECT_NEAR(p.rest_position[t1].z, -0.1, 1e-12);
    // Links along the chain with their bind lengths; d_geo along them to the nearest held particle.
    EXPECT_EQ(p.edges.size(), 3u);
    EXPECT_NEAR(p.d_geo[t2], 0.1, 1e-12);
    EXPECT_NEAR(p.d_geo[t3], 0.2, 1e-12);
    EXPECT_EQ(p.nearest_held[t3], t1);
    // Skins joint indices (docs/proxy.md#joint-indices): Hips is joint 0, Tail1..3 are 3..5.
    EXPECT_EQ(p.source[hips], 0u);
    EXPECT_EQ(p.source[t3], 5u);
    // Colour ranges tile the particles and the colouring is valid (colour_permute.h).
    const CsrGraph graph = coupling_graph(p);
    std::vector<uint32_t> colour(p.particle_count());
    for (uint32_t c = 0; c + 1 < p.colour_ranges.size(); ++c)
        for (uint32_t q = p.colour_ranges[c]; q < p.colour_ranges[c + 1]; ++q) colour[q] = c;
    std::vector<uint8_t> fixed(p.particle_count());
    for (uint32_t q = 0; q < p.particle_count(); ++q) fixed[q] = p.held(q);
    EXPECT_EQ(validate_colouring(graph, colour, uint32_t(p.colour_count()), fixed), -1);
}

TEST(RigBuilder, SkipRowsRunToTheGrandparentAndToTheBoneOnlyOffTheRootsVertical) {
    const TailScene t = tail_scene();
    const RigBuildResult r = build_rig(t.body.scene, tail_garment(t));
    const ClothProxy& p = *r.proxy;
    auto has_skip = [&](const std::string& a, const std::string& b) {
        const uint32_t pa = particle_named(p, a), pb = particle_named(p, b);
        return std::any_of(p.skips.begin(), p.skips.end(), [&](const auto& s) {
            return (s[0] == pa && s[1] == pb) || (s[0] == pb && s[1] == pa);
        });
    };
    // The tail's root is 10 cm behind the hips, level with them: off the vertical, so Tail2 has a
    // skip to the hips as well as Tail3 to Tail1.
    EXPECT_TRUE(has_skip("Tail3", "Tail1"));
    EXPECT_TRUE(has_skip("Tail2", "Hips"));
    EXPECT_EQ(p.skips.size(), 2u);
    EXPECT_NEAR(p.skip_rest_length[0] + p.skip_rest_length[1],
                distance(p.rest_position[particle_named(p, "Tail3")], p.rest_position[particle_named(p, "Tail1")]) +
                    distance(p.rest_position[particle_named(p, "Tail2")], p.rest_position[particle_named(p, "Hips")]),
                1e-12);

    // A chain whose root sits straight above its bone gets no skip to the bone.
    Body b = make_body();
    const int j1 = add_node(b.scene, "Crown1", b.head, {0, 0.2, 0.01});
    const int j2 = add_node(b.scene, "Crown2", j1, {0, -0.05, -0.08});
    RigGarment g{"Crown", "hair", {{"Crown1", {j1, j2}, b.head, std::nullopt, {}}}, -1};
    const RigBuildResult crown = build_rig(b.scene, g);
    ASSERT_TRUE(crown.proxy);
    EXPECT_TRUE(crown.proxy->skips.empty());
}

TEST(RigBuilder, ALastJointThatCarriesGeometryGetsATipWhereTheGeometryEnds) {
    TailScene t = tail_scene();
    // A strip weighted to Tail3 reaching 12 cm past it along the chain's last direction.
    const int m = add_mesh(t.body.scene, "TailMesh", "Fur");
    Mesh& mesh = t.body.scene.meshes[size_t(m)];
    const Vec3 t2 = t.body.scene.nodes[size_t(t.tail[1])].world.translation_part();
    const Vec3 t3 = t.body.scene.nodes[size_t(t.tail[2])].world.translation_part();
    const Vec3 dir = normalize(t3 - t2);
    for (int i = 0; i <= 2; ++i) add_vertex(mesh, t3 + dir * (0.06 * i) + Vec3{0.01, 0, 0}, 5);
    for (int i = 0; i <= 2; ++i) add_vertex(mesh, t3 + dir * (0.06 * i) + Vec3{-0.01, 0, 0}, 5);
    mesh.indices = {0, 3, 1, 1, 3, 4, 1, 4, 2, 2, 4, 5};
    const RigBuildResult r = build_rig(t.body.scene, tail_garment(t));
    ASSERT_TRUE(r.proxy);
    EXPECT_EQ(r.stats.tips, 1u);
    ASSERT_TRUE(r.chains[0].has_tip);
    EXPECT_LT(distance(r.chains[0].tip, t3 + dir * 0.12), 1e-9);
    // The tip has no joint: joint_name "" and no skin joint.
    const ClothProxy& p = *r.proxy;
    const uint32_t tip = r.chains[0].particles.back();
    EXPECT_EQ(p.joint_name[tip], "");
    EXPECT_EQ(p.source[tip], no_source);
    EXPECT_FALSE(p.held(tip));
    // Its hull: the capsule along Tail3's segment bounds the strip's 1 cm half width.
    EXPECT_NEAR(r.chains[0].hull_radius[2], 0.01, 1e-9);
    // Both particles that end that segment collide at it (docs/proxy.md#collision-radius); a chain
    // with no neighbours has no other edge the strip lies along.
    ASSERT_EQ(p.collision_radius.size(), p.particle_count());
    EXPECT_NEAR(p.collision_radius[tip], 0.01, 1e-9);
    EXPECT_NEAR(p.collision_radius[r.chains[0].particles[r.chains[0].particles.size() - 2]], 0.01, 1e-9);
    // Mass: the strip's area (0.12 x 0.02 m) at hair's 0.25 kg/m², half of Tail3's share to the tip.
    EXPECT_NEAR(r.stats.carried_area, 0.0024, 1e-12);
    const double carried = 0.0024 * 0.25;
    EXPECT_NEAR(1 / p.inverse_mass[tip], std::max(carried / 2, 0.02 * 0.06), 1e-12);
}

TEST(RigBuilder, AChainThatCarriesNothingWeighsItsLinearDensity) {
    const TailScene t = tail_scene();
    RigOptions o;
    o.linear_density = 0.05;
    const RigBuildResult r = build_rig(t.body.scene, tail_garment(t), o);
    const ClothProxy& p = *r.proxy;
    // Tail2 ends two 10 cm links, Tail3 one: half of each.
    EXPECT_NEAR(1 / p.inverse_mass[particle_named(p, "Tail2")], 0.05 * 0.1, 1e-12);
    EXPECT_NEAR(1 / p.inverse_mass[particle_named(p, "Tail3")], 0.05 * 0.05, 1e-12);
    EXPECT_NEAR(p.total_mass, 0.05 * 0.15, 1e-12);
}

// A vertex wholly on the chain but blended between two of its joints (as growing weights every
// vertex) is where its joints' rigid rides put it, weighted: each ride is a virtual-particle
// candidate on its own link, so the blend is kept out of a collider too. A vertex partly on the body
// is none (docs/colliders.md#virtual-particles).
TEST(RigBuilder, AVertexBlendedBetweenChainJointsIsAVirtualCandidateOnEachJointsLink) {
    TailScene t = tail_scene();
    Scene& scene = t.body.scene;
    const Vec3 t1 = scene.nodes[size_t(t.tail[0])].world.translation_part();
    const Vec3 t2 = scene.nodes[size_t(t.tail[1])].world.translation_part();
    const int m = add_mesh(scene, "TailMesh", "Fur");
    Mesh& mesh = scene.meshes[size_t(m)];
    const auto add_blend = [&](const Vec3& at, std::vector<Influence> weights) {
        mesh.positions.push_back(at);
        for (const Influence& w : weights) mesh.influences.push_back(w);
        mesh.influence_offsets.push_back(static_cast<uint32_t>(mesh.influences.size()));
    };
    add_blend(t2 + Vec3{0.12, 0, 0}, {{3, 0.6f}, {4, 0.4f}});   // 60% Tail1, 40% Tail2, 12 cm beside both links
    add_blend(t1 + Vec3{-0.12, 0, 0}, {{3, 1.0f}});             // wholly on Tail1
    add_blend(t2 + Vec3{0, 0.12, 0}, {{4, 0.7f}, {0, 0.3f}});   // 30% on the hips: the body's share stays put
    mesh.indices = {0, 1, 2};
    RigBuildResult r = build_rig(scene, tail_garment(t));
    ASSERT_TRUE(r.proxy) << (r.issues.empty() ? "" : r.issues[0].message);
    ASSERT_EQ(r.virtual_candidates.size(), 3u);
    std::vector<uint32_t> vertices;
    for (const VirtualCandidate& c : r.virtual_candidates) vertices.push_back(c.vertex);
    std::sort(vertices.begin(), vertices.end());
    EXPECT_EQ(vertices, (std::vector<uint32_t>{0, 0, 1}));
    const ClothProxy& p = *r.proxy;
    const uint32_t p1 = particle_named(p, "Tail1"), p2 = particle_named(p, "Tail2"), p3 = particle_named(p, "Tail3");
    std::vector<std::array<uint32_t, 3>> links_of_blend;
    for (const VirtualCandidate& c : r.virtual_candidates) {
        if (c.vertex != 0) continue;
        links_of_blend.push_back(c.link);
        EXPECT_NEAR(c.off_link, 0.12, 1e-9);  // beside Tail1's link's far end and Tail2's link's near end
    }
    std::sort(links_of_blend.begin(), links_of_blend.end());
    std::vector<std::array<uint32_t, 3>> expected{{p1, p1, p2}, {p2, p2, p3}};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(links_of_blend, expected);
    // With the radii cut to nothing (a body close round the chain), all three become virtual particles:
    // the blend's two points 0 m apart are on different links, so the spacing keeps both.
    std::fill(r.proxy->collision_radius.begin(), r.proxy->collision_radius.end(), 0.0);
    add_virtual_particles(r, 0.005);
    EXPECT_EQ(r.proxy->virtual_link.size(), 3u);
    EXPECT_EQ(r.virtual_vertices.size(), 3u);
    EXPECT_EQ(check_proxy(*r.proxy), "");
}

TEST(RigBuilder, ACapeAcrossBothShouldersIsOneProxyWithTwoPins) {
    Body b = make_body();
    const int left = add_node(b.scene, "Shoulder_L", b.spine, {0.2, 0.2, 0});
    const int right = add_node(b.scene, "Shoulder_R", b.spine, {-0.2, 0.2, 0});
    for (int j : {left, right}) {
        b.scene.skins[0].joints.push_back(j);
        b.scene.skins[0].inverse_bind.push_back(b.scene.nodes[size_t(j)].world.inverted());
    }
    const int l1 = add_node(b.scene, "Cape_L1", left, {0, 0, -0.1});
    const int l2 = add_node(b.scene, "Cape_L2", l1, {0, -0.3, 0});
    const int r1 = add_node(b.scene, "Cape_R1", right, {0, 0, -0.1});
    const int r2 = add_node(b.scene, "Cape_R2", r1, {0, -0.3, 0});
    RigGarment g{"Cape", "cape", {{"Cape_L1", {l1, l2}, left, std::nullopt, {1}}, {"Cape_R1", {r1, r2}, right, std::nullopt, {0}}}, -1};
    const RigBuildResult r = build_rig(b.scene, g);
    ASSERT_TRUE(r.proxy);
    const ClothProxy& p = *r.proxy;
    EXPECT_EQ(check_proxy(p), "");
    // One pin per shoulder, each holding its bone and the root hanging from it, in node order.
    ASSERT_EQ(p.pins.size(), 2u);
    EXPECT_EQ(p.pins[0].holder, "Shoulder_L");
    EXPECT_EQ(p.pins[1].holder, "Shoulder_R");
    EXPECT_EQ(p.pins[0].particles.size(), 2u);
    EXPECT_EQ(p.pins[1].particles.size(), 2u);
    // It rides the nearest skin joint above both shoulders.
    EXPECT_EQ(p.frame.node, "Spine");
    // The two chains are neighbours: linked at equal depth (roots and second joints).
    EXPECT_EQ(r.stats.neighbour_links, 2u);
    EXPECT_EQ(p.edges.size(), 4u + 2u);
    const uint32_t a = particle_named(p, "Cape_L2"), c = particle_named(p, "Cape_R2");
    bool linked = false;
    for (size_t e = 0; e < p.edges.size(); ++e)
        if ((p.edges[e][0] == a && p.edges[e][1] == c) || (p.edges[e][0] == c && p.edges[e][1] == a)) {
            linked = true;
            EXPECT_NEAR(p.rest_length[e], 0.4, 1e-12);
        }
    EXPECT_TRUE(linked);
}

TEST(RigBuilder, RefusesByName) {
    const TailScene t = tail_scene();
    RigGarment empty{"Nothing", "tail", {}, -1};
    RigBuildResult r = build_rig(t.body.scene, empty);
    ASSERT_FALSE(r.proxy);
    EXPECT_EQ(r.issues[0].code, "RIG_EMPTY");

    RigGarment bad = tail_garment(t);
    bad.chains[0].joints.push_back(999);
    r = build_rig(t.body.scene, bad);
    ASSERT_FALSE(r.proxy);
    EXPECT_EQ(r.issues[0].code, "RIG_JOINT_INVALID");
    EXPECT_NE(r.issues[0].message.find("chain 'Tail1': joint 3 names node 999"), std::string::npos);

    RigGarment backwards = tail_garment(t);
    std::reverse(backwards.chains[0].joints.begin(), backwards.chains[0].joints.end());
    r = build_rig(t.body.scene, backwards);
    ASSERT_FALSE(r.proxy);
    EXPECT_EQ(r.issues[0].code, "RIG_CHAIN_BROKEN");
    EXPECT_NE(r.issues[0].message.find("joint 'Tail2' does not hang below 'Tail3'"), std::string::npos);

    TailScene zero = tail_scene();
    const int dup = add_node(zero.body.scene, "Tail4", zero.tail[2], {0, 0, 0});
    RigGarment flat = tail_garment(zero);
    flat.chains[0].joints.push_back(dup);
    r = build_rig(zero.body.scene, flat);
    ASSERT_FALSE(r.proxy);
    EXPECT_EQ(r.issues[0].code, "RIG_ZERO_LENGTH_LINK");
    EXPECT_NE(r.issues[0].message.find("'Tail3' and 'Tail4' are at one position"), std::string::npos);

    RigOptions unknown;
    unknown.fabric = "velvet";
    r = build_rig(t.body.scene, tail_garment(t), unknown);
    ASSERT_FALSE(r.proxy);
    EXPECT_EQ(r.issues[0].code, "RIG_UNKNOWN_FABRIC");
}

TEST(RigBuilder, AChainWithNothingAboveItFallsAndSaysSo) {
    Scene s;
    s.source_path = "spring.gltf";
    const int a = add_node(s, "Spring A", -1, {0, 2, 0});
    const int b = add_node(s, "Spring B", a, {0, -0.5, 0});
    RigGarment g{"Spring", "spring", {{"Spring A", {a, b}, -1, std::nullopt, {}}}, -1};
    const RigBuildResult r = build_rig(s, g);
    ASSERT_TRUE(r.proxy);
    EXPECT_EQ(r.issues[0].code, "RIG_NOTHING_HELD");
    EXPECT_TRUE(r.proxy->pins.empty());
    EXPECT_EQ(r.chains[0].particles.front(), no_particle);
    for (double d : r.proxy->d_geo) EXPECT_EQ(d, INFINITY);
}

}  // namespace
}  // namespace weft
