// Growing cloth bones (lib/grow, docs/growth.md): clumps to chains, names, orientations, drops, caps,
// skirt wedges, the re-weighting and its root blend, on hand-built scenes, the mannequin fixtures
// and the shared models.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "scene/bind_pose.h"
#include "garment/garments.h"
#include "grow/grow.h"
#include "grow/grow_codes.h"
#include "grow/plan.h"
#include "grow/grow_scenes.h"
#include "scene/import.h"
#include "support/paths.h"

namespace weft {
namespace {

using namespace grow_test;

const Issue* find_issue(const Issues& issues, const std::string& code) {
    for (const Issue& i : issues)
        if (i.code == code) return &i;
    return nullptr;
}

size_t count_issues(const Issues& issues, const std::string& code) {
    return static_cast<size_t>(std::count_if(issues.begin(), issues.end(), [&](const Issue& i) { return i.code == code; }));
}

/// Weight of node `node` on vertex v of mesh m.
double weight_on(const Scene& s, const Mesh& m, uint32_t v, int node) {
    double w = 0;
    for (uint32_t k = m.influence_offsets[v]; k < m.influence_offsets[v + 1]; ++k)
        if (s.skins[size_t(m.skin)].joints[m.influences[k].joint] == node) w += m.influences[k].weight;
    return w;
}

/// Three strands hanging from the head: 30 cm (12 rows), 40 mm (2 rows) and 20 cm with 4 vertices.
Body strands_scene() {
    Body b = make_body();
    const int m = add_mesh(b.scene, "HairMesh", "Hair");
    Mesh& mesh = b.scene.meshes[size_t(m)];
    add_strip(mesh, {-0.05, 1.65, 0.08}, 0.02, 0.30, 12, 2);
    add_strip(mesh, {0.0, 1.65, 0.08}, 0.02, 0.04, 2, 2);
    add_strip(mesh, {0.05, 1.65, 0.08}, 0.02, 0.20, 1, 2);
    return b;
}

GrowResult grow(const Scene& scene, const GrowOptions& options = {}) {
    return grow_cloth(scene, find_garments(scene), options);
}

TEST(Grow, StrandsBecomeNamedChainsAlongTheirLength) {
    const Body b = strands_scene();
    const GrowResult r = grow(b.scene);
    ASSERT_EQ(r.garments.size(), 1u);
    const GrownGarment& g = r.garments[0];
    EXPECT_EQ(g.name, "Hair");
    ASSERT_EQ(g.clumps.size(), 3u);
    ASSERT_EQ(r.chains.size(), 1u);
    EXPECT_EQ(r.bone_count(), 3u);
    EXPECT_EQ(g.outcome, "grown: 1 chains, 3 bones");

    const GrownChain& c = r.chains[0];
    EXPECT_EQ(c.name, "Hair_0");
    EXPECT_EQ(c.body_bone, b.head);
    ASSERT_EQ(c.joints.size(), 3u);
    ASSERT_EQ(c.polyline.size(), 4u);
    // The anchored end is the top (nearest the head); the chain runs down the strand's own line.
    EXPECT_NEAR(c.polyline.front().y, 1.65, 0.02);
    EXPECT_NEAR(c.polyline.back().y, 1.35, 0.02);
    EXPECT_NEAR(c.length, 0.30, 0.02);
    for (size_t k = 0; k < c.joints.size(); ++k) {
        const Node& joint = r.scene.nodes[size_t(c.joints[k])];
        EXPECT_EQ(joint.name, "Hair_0_" + std::to_string(k));
        EXPECT_EQ(joint.parent, k == 0 ? b.head : c.joints[k - 1]);
        // Its +Y axis runs along its segment, and its bind placement sits on the polyline.
        const Mat4 bind = bind_world(r.scene, c.joints[k]);
        const Vec3 axis = normalize(Vec3{bind.at(0, 1), bind.at(1, 1), bind.at(2, 1)});
        EXPECT_GT(dot(axis, normalize(c.polyline[k + 1] - c.polyline[k])), 0.999999);
        EXPECT_LT(distance(bind.translation_part(), c.polyline[k]), 1e-9);
        EXPECT_LT(distance(joint.world.translation_part(), c.polyline[k]), 1e-9);
    }
    // The new joints join the garment mesh's skin with inverse binds of their bind placements.
    const Skin& skin = r.scene.skins[0];
    ASSERT_EQ(skin.joints.size(), 6u);
    EXPECT_EQ(skin.joints[3], c.joints[0]);
}

TEST(Grow, ShortAndSmallStrandsAreDroppedWithReasons) {
    const Body b = strands_scene();
    const GrowResult r = grow(b.scene);
    const GrownGarment& g = r.garments[0];
    EXPECT_EQ(g.clumps[1].dropped, "too_short");
    // 40 mm down and 20 mm wide: a piece that squat runs corner to corner, so it measures its
    // diagonal from the top corner.
    EXPECT_NEAR(g.clumps[1].length, std::hypot(0.040, 0.020), 1e-9);
    EXPECT_EQ(g.clumps[1].reason, "45 mm from its anchored end, shorter than 60 mm");
    EXPECT_EQ(g.clumps[2].dropped, "too_few_vertices");
    EXPECT_EQ(g.clumps[2].vertices, 4u);
    EXPECT_EQ(g.dropped_short, 1u);
    EXPECT_EQ(g.dropped_small, 1u);
    EXPECT_EQ(count_issues(r.issues, "GROW_CLUMP_DROPPED"), 2u);
    // Both limits are options: lowered, all three strands grow.
    GrowOptions o;
    o.min_strand_length = 0.03;
    o.min_strand_verts = 4;
    EXPECT_EQ(grow(b.scene, o).chains.size(), 3u);
}

TEST(Grow, WeightsBlendFromTheHeadAtTheRootToTheChainAtTheTip) {
    const Body b = strands_scene();
    const GrowResult r = grow(b.scene);
    const Mesh& m = r.scene.meshes[0];
    const GrownChain& c = r.chains[0];
    for (uint32_t v = 0; v < 26; ++v) {  // the long strand's vertices
        double total = 0;
        const uint32_t n = m.influence_offsets[v + 1] - m.influence_offsets[v];
        EXPECT_LE(n, 4u);
        for (uint32_t k = m.influence_offsets[v]; k < m.influence_offsets[v + 1]; ++k) total += m.influences[k].weight;
        EXPECT_NEAR(total, 1.0, 1e-6) << "vertex " << v;
    }
    // The top row keeps the head's weight (ROOT_BLEND: the scalp stays on the skull), the bottom
    // row is all on the last joint, and half way down (past 22% of the chain) nothing is on the head.
    EXPECT_NEAR(weight_on(r.scene, m, 0, b.head), 1.0, 1e-6);
    EXPECT_NEAR(weight_on(r.scene, m, 24, c.joints[2]), 1.0, 1e-6);
    EXPECT_NEAR(weight_on(r.scene, m, 12, b.head), 0.0, 1e-9);
    // Rows 1 and 2 (2.5 and 5 cm down, 8% and 17% of the chain) hand over smoothly.
    const double row1 = weight_on(r.scene, m, 2, b.head), row2 = weight_on(r.scene, m, 4, b.head);
    EXPECT_GT(row1, row2);
    EXPECT_GT(row1, 0.5);
    EXPECT_GT(row2, 0.0);
    EXPECT_LT(row2, 0.5);
    // Between two joints a vertex splits by where it lands: row 6 (15 cm down) projects into the
    // middle of segment 1 and is shared by joints 1 and 2, in proportion to where it lands.
    const Vec3 row6 = r.scene.meshes[0].positions[12];
    const double t = dot(row6 - c.polyline[1], c.polyline[2] - c.polyline[1]) / length_squared(c.polyline[2] - c.polyline[1]);
    EXPECT_GT(t, 0.3);
    EXPECT_LT(t, 0.7);
    EXPECT_NEAR(weight_on(r.scene, m, 12, c.joints[1]), 1 - t, 1e-3);
    EXPECT_NEAR(weight_on(r.scene, m, 12, c.joints[2]), t, 1e-3);
    // Dropped strands keep their weights.
    EXPECT_NEAR(weight_on(r.scene, m, 26, b.head), 1.0, 0);
    EXPECT_EQ(r.changed_meshes, (std::vector<int>{0}));
}

TEST(Grow, TheHeadLetsGoOverTheFirstTwentyTwoPercentOfTheChain) {
    // docs/growth.md#weights: the body's weight is handed over to the chain over the first 22% of its
    // length, half of it at 11%. A strand of 60 rows at 5 mm places a row every 1.7% of the chain, so
    // the end of the handover is pinned between two rows and a blend of 0.20 or 0.30 moves it past one.
    Body b = make_body();
    const int mi = add_mesh(b.scene, "HairMesh", "Hair");
    add_strip(b.scene.meshes[size_t(mi)], {0.0, 1.65, 0.08}, 0.02, 0.30, 60, 2);
    const GrowResult r = grow(b.scene);
    ASSERT_EQ(r.chains.size(), 1u);
    const GrownChain& c = r.chains[0];
    const Mesh& m = r.scene.meshes[0];
    const Vec3 top = c.polyline.front(), down = normalize(c.polyline.back() - c.polyline.front());
    double last_held = 0, first_free = 1, nearest_half = 1, head_at_half = -1;
    for (uint32_t v = 0; v < m.positions.size(); ++v) {
        const double u = dot(m.positions[v] - top, down) / c.length;  // the strand is straight: its polyline's line
        const double head = weight_on(r.scene, m, v, b.head);
        if (head > 1e-12) last_held = std::max(last_held, u);
        else first_free = std::min(first_free, u);
        if (std::fabs(u - 0.11) < std::fabs(nearest_half - 0.11)) {
            nearest_half = u;
            head_at_half = head;
        }
    }
    EXPECT_LT(last_held, 0.22);
    EXPECT_GT(last_held, 0.20) << "the head still holds the row before 22%";
    EXPECT_GE(first_free, 0.22);
    EXPECT_LT(first_free, 0.24) << "the row after 22% is the chain's alone";
    // At half the blend the smooth handover is half done: 0.5 at 11%, within the slope over the
    // distance between that row and 11% (smoothstep's slope at its middle is 1.5 per blend).
    EXPECT_NEAR(head_at_half, 0.5, 1.5 * std::fabs(nearest_half - 0.11) / 0.22 + 1e-6) << "row at " << nearest_half;
}

TEST(Grow, SegmentsAndClassesAreOptions) {
    const Body b = strands_scene();
    GrowOptions o;
    o.hair_segments = 5;
    const GrowResult five = grow(b.scene, o);
    ASSERT_EQ(five.chains.size(), 1u);
    EXPECT_EQ(five.chains[0].joints.size(), 5u);
    EXPECT_EQ(five.scene.nodes[size_t(five.chains[0].joints[4])].name, "Hair_0_4");
    o.classes = {"skirt"};
    const GrowResult none = grow(b.scene, o);
    EXPECT_TRUE(none.chains.empty());
    EXPECT_TRUE(none.garments.empty());
    EXPECT_EQ(none.scene.nodes.size(), b.scene.nodes.size());
}

TEST(Grow, OptionsOutOfRangeAreRefusedByName) {
    GrowOptions o;
    EXPECT_EQ(grow_options_error(o), "");
    o.hair_segments = 0;
    EXPECT_EQ(grow_options_error(o), "hair_segments must be 1..64, got 0");
    o = {};
    o.skirt_panels = 2;
    EXPECT_EQ(grow_options_error(o), "skirt_panels must be 3..256, got 2");
    o = {};
    o.root_blend = 1.5;
    EXPECT_EQ(grow_options_error(o), "root_blend must be within 0..1");
    const Body b = strands_scene();
    o = {};
    o.max_influences = 1;
    const GrowResult r = grow(b.scene, o);
    ASSERT_NE(find_issue(r.issues, "GROW_OPTIONS"), nullptr);
    EXPECT_TRUE(r.chains.empty());
}

TEST(Grow, ADomeIsACapCutIntoWedgesAroundTheHeadsAxis) {
    Body b = make_body();
    const int m = add_mesh(b.scene, "HairMesh", "Hair");
    // A bob: a dome of 12 cm radius over the head, 6 rings x 24 columns.
    add_dome(b.scene.meshes[size_t(m)], {0, 1.6, 0}, 0.12, 6, 24, 2);
    const GrowResult r = grow(b.scene);
    const GrownGarment& g = r.garments[0];
    ASSERT_EQ(g.caps.size(), 1u);
    EXPECT_EQ(g.caps[0].vertices, 145u);
    EXPECT_GT(g.caps[0].width, g.caps[0].length);
    ASSERT_NE(find_issue(r.issues, "GROW_CAP_SPLIT"), nullptr);
    // Twelve wedges of two columns each, every one long enough and big enough to grow.
    ASSERT_EQ(g.clumps.size(), 12u);
    for (const ClumpReport& c : g.clumps) {
        EXPECT_EQ(c.shape, ClumpShape::cap_wedge);
        EXPECT_EQ(c.dropped, "");
    }
    ASSERT_EQ(r.chains.size(), 12u);
    // Each wedge's chain hangs from the crown down its side, and its neighbours are the panels
    // either side of it.
    for (const GrownChain& c : r.chains) {
        EXPECT_GT(c.polyline.front().y, c.polyline.back().y + 0.1);
        EXPECT_EQ(c.neighbours.size(), 2u);
    }
    EXPECT_EQ(r.chains[0].neighbours, (std::vector<int>{1, 11}));
}

TEST(Grow, ASkirtIsCutIntoRadialPanelsAroundTheUpAxis) {
    Body b = make_body();
    const int m = add_mesh(b.scene, "SkirtMesh", "Skirt");
    add_band(b.scene.meshes[size_t(m)], {0, 1.0, 0.02}, 0.15, 0.25, 0.4, 24, 5, 0);
    const GrowResult r = grow(b.scene);
    ASSERT_EQ(r.garments.size(), 1u);
    ASSERT_EQ(r.chains.size(), 12u);
    EXPECT_EQ(r.bone_count(), 48u);  // --skirt-segments 4
    for (const GrownChain& c : r.chains) {
        EXPECT_EQ(c.shape, ClumpShape::skirt_wedge);
        EXPECT_EQ(c.body_bone, b.hips);
        EXPECT_NEAR(c.polyline.front().y, 1.0, 0.01);  // the waistband
        EXPECT_NEAR(c.polyline.back().y, 0.6, 0.01);   // the hem
        EXPECT_EQ(c.neighbours.size(), 2u);
    }
    // Panel vertices are shared with the panel beside them by how far round they sit: a vertex
    // near a border has weight on both panels' chains.
    const Mesh& mesh = r.scene.meshes[0];
    const uint32_t hem_vertex = 5 * 24;  // bottom ring, column 0: 3.75 degrees round from panel 0's centre, an eighth of a panel
    double own = 0, beside = 0;
    for (int j : r.chains[0].joints) own += weight_on(r.scene, mesh, hem_vertex, j);
    for (int j : r.chains[1].joints) beside += weight_on(r.scene, mesh, hem_vertex, j);
    EXPECT_NEAR(own, 0.875, 0.01);
    EXPECT_NEAR(beside, 0.125, 0.01);
}

TEST(Grow, GarmentsThatMoveOrCannotBeGrownAreReportedNotGrown) {
    Body b = strands_scene();
    // An authored chain weighting the strands: the garment moves, nothing is grown.
    const int chain = add_node(b.scene, "Hair_1", b.head, {0, 0.05, 0.08});
    b.scene.skins[0].joints.push_back(chain);
    b.scene.skins[0].inverse_bind.push_back(b.scene.nodes[size_t(chain)].world.inverted());
    Mesh& m = b.scene.meshes[0];
    for (auto& inf : m.influences) inf.joint = 3;
    const GrowResult r = grow(b.scene);
    ASSERT_EQ(r.garments.size(), 1u);
    EXPECT_EQ(r.garments[0].outcome, "not grown: moves on 1 authored chain");
    EXPECT_NE(find_issue(r.issues, "GROW_HAS_CHAINS"), nullptr);
    EXPECT_TRUE(r.chains.empty());

    Body still = strands_scene();
    still.scene.meshes[0].skin = -1;
    still.scene.meshes[0].influence_offsets.clear();
    still.scene.meshes[0].influences.clear();
    const GrowResult unskinned = grow(still.scene);
    ASSERT_EQ(unskinned.garments.size(), 1u);
    const Issue* issue = find_issue(unskinned.issues, "GROW_NOT_SKINNED");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("mesh 'HairMesh' is not skinned"), std::string::npos);
}

// An authored chain's weight on a vertex far beyond the chain is a stray brush stroke (Godette's backpack
// vertex half on a fringe joint 30 cm above it): it goes to the vertex's other bones, once reported.
TEST(Grow, StrayChainWeightsGoToTheVertexsOtherBones) {
    Body b = strands_scene();
    const int root = add_node(b.scene, "Hair_1", b.head, {0, 0.05, 0.08});
    const int end = add_node(b.scene, "Hair_1_end", root, {0, -0.2, 0});
    for (int j : {root, end}) {
        b.scene.skins[0].joints.push_back(j);
        b.scene.skins[0].inverse_bind.push_back(b.scene.nodes[size_t(j)].world.inverted());
    }
    for (auto& inf : b.scene.meshes[0].influences) inf.joint = 3;  // the strands ride the chain
    const int body = add_mesh(b.scene, "BodyMesh", "Body");
    Mesh& m = b.scene.meshes[size_t(body)];
    // Half on the hips, half on the chain 60 cm above: stray.
    const uint32_t stray = add_vertex(m, {0, 1.05, 0.1}, 0);
    m.influences.back().weight = 0.5f;
    m.influences.push_back({3, 0.5f});
    m.influence_offsets.back() = uint32_t(m.influences.size());
    // A scalp vertex beside the chain's root, two thirds on the head: the chain's to keep.
    const uint32_t scalp = add_vertex(m, {0.02, 1.66, 0.08}, 2);
    m.influences.back().weight = 0.667f;
    m.influences.push_back({3, 0.333f});
    m.influence_offsets.back() = uint32_t(m.influences.size());
    // Far away but moved by the chain alone: nothing else could carry it, so it stays.
    const uint32_t alone = add_vertex(m, {0.3, 1.0, 0}, 3);
    m.indices = {stray, scalp, alone};

    const GrowResult r = grow(b.scene);
    const Mesh& out = r.scene.meshes[size_t(body)];
    EXPECT_DOUBLE_EQ(weight_on(r.scene, out, stray, root), 0.0);
    EXPECT_DOUBLE_EQ(weight_on(r.scene, out, stray, b.hips), 1.0);
    EXPECT_NEAR(weight_on(r.scene, out, scalp, root), 0.333, 1e-6);
    EXPECT_DOUBLE_EQ(weight_on(r.scene, out, alone, root), 1.0);
    EXPECT_EQ(r.changed_meshes, std::vector<int>{body});
    ASSERT_EQ(count_issues(r.issues, "GROW_STRAY_WEIGHT"), 1u);
    const Issue* issue = find_issue(r.issues, "GROW_STRAY_WEIGHT");
    EXPECT_EQ(issue->severity, Severity::warning);
    EXPECT_NE(issue->message.find("mesh 'BodyMesh': chain joint 'Hair_1' weighs 1 vertex up to 400 mm"), std::string::npos)
        << issue->message;
    // The strands the chain moves, and the input, are untouched.
    EXPECT_EQ(r.scene.meshes[0].influences.size(), b.scene.meshes[0].influences.size());
    EXPECT_DOUBLE_EQ(weight_on(b.scene, b.scene.meshes[size_t(body)], stray, root), 0.5);
}

TEST(Grow, IsDeterministic) {
    const Body b = strands_scene();
    GrowOptions o;
    o.min_strand_verts = 4;
    o.min_strand_length = 0.03;
    const GrowResult a = grow(b.scene, o), c = grow(b.scene, o);
    ASSERT_EQ(a.scene.nodes.size(), c.scene.nodes.size());
    for (size_t i = 0; i < a.scene.nodes.size(); ++i) {
        EXPECT_EQ(a.scene.nodes[i].name, c.scene.nodes[i].name);
        EXPECT_EQ(a.scene.nodes[i].local.m, c.scene.nodes[i].local.m);
    }
    ASSERT_EQ(a.scene.meshes[0].influences.size(), c.scene.meshes[0].influences.size());
    for (size_t i = 0; i < a.scene.meshes[0].influences.size(); ++i) {
        EXPECT_EQ(a.scene.meshes[0].influences[i].joint, c.scene.meshes[0].influences[i].joint);
        EXPECT_EQ(a.scene.meshes[0].influences[i].weight, c.scene.meshes[0].influences[i].weight);
    }
}

// ---- fixtures and shared models -------------------------------------------------------------------

GrowResult grow_file(const std::filesystem::path& file) {
    ImportResult imported = import_scene(file);
    EXPECT_TRUE(imported.ok()) << file;
    return grow(imported.scene);
}

const GrownGarment* garment_named(const GrowResult& r, const std::string& name) {
    for (const GrownGarment& g : r.garments)
        if (g.name == name) return &g;
    return nullptr;
}

TEST(GrowFixtures, MannequinGrowsSixHairStrandsAndTenSkirtPanels) {
    const GrowResult r = grow_file(test::testdata_dir() / "mannequin.glb");
    const GrownGarment* hair = garment_named(r, "Hair");
    const GrownGarment* skirt = garment_named(r, "Skirt");
    ASSERT_TRUE(hair && skirt);
    EXPECT_EQ(hair->chains.size(), 6u);
    EXPECT_EQ(hair->caps.size(), 0u);
    for (int c : hair->chains) {
        EXPECT_EQ(r.chains[size_t(c)].joints.size(), 3u);
        EXPECT_EQ(r.scene.nodes[size_t(r.chains[size_t(c)].body_bone)].name, "Head");
        EXPECT_GE(r.chains[size_t(c)].length, 0.15);
        EXPECT_LE(r.chains[size_t(c)].length, 0.34);
    }
    // The elliptical band gives the front and back panels one column of vertices each: still
    // panels (a low-poly skirt's panels are a few columns), so all twelve grow, every one rooted
    // at the waistband on Hips.
    EXPECT_EQ(skirt->chains.size(), 12u);
    EXPECT_EQ(skirt->dropped_small, 0u);
    for (int c : skirt->chains) {
        const GrownChain& chain = r.chains[size_t(c)];
        EXPECT_EQ(r.scene.nodes[size_t(chain.body_bone)].name, "Hips");
        EXPECT_NEAR(chain.polyline.front().y, 0.97, 0.01);  // the waistband ring
    }
    EXPECT_EQ(r.bone_count(), 18u + 48u);
}

TEST(GrowFixtures, AuthoredHairChainsAreUsedAndTheSkirtStillGrows) {
    const GrowResult r = grow_file(test::testdata_dir() / "mannequin_chains.glb");
    const GrownGarment* hair = garment_named(r, "Hair");
    ASSERT_TRUE(hair);
    EXPECT_EQ(hair->outcome, "not grown: moves on 6 authored chains");
    EXPECT_EQ(garment_named(r, "Skirt")->chains.size(), 12u);
}

TEST(GrowFixtures, HairLyingOnTheHeadIsNeitherGrownNorASheetUnlessNamed) {
    ImportResult cropped = import_scene(test::testdata_dir() / "hair" / "cropped.glb");
    ImportResult bob = import_scene(test::testdata_dir() / "hair" / "bob.glb");
    ASSERT_TRUE(cropped.ok() && bob.ok());
    auto hair_plan = [](const Scene& scene, const ModelGarments& found, const PlanOptions& plan) {
        const GrowResult r = grow_cloth(scene, found, {});
        const std::vector<GarmentPlan> plans = plan_garments(r.scene, found, plan, plan.grow ? &r : nullptr);
        for (size_t i = 0; i < found.garments.size(); ++i)
            if (found.garments[i].class_name == "hair") return std::pair{plans[i], *garment_named(r, "Hair")};
        ADD_FAILURE() << "no hair";
        return std::pair<GarmentPlan, GrownGarment>{};
    };
    // The cap: found, not grown, and not handed to the sheet builder without growing either.
    const ModelGarments cap = find_garments(cropped.scene);
    auto [plan, grown] = hair_plan(cropped.scene, cap, {});
    EXPECT_EQ(plan.action, "stays");
    EXPECT_EQ(plan.verdict.rfind("will not move: hair lying on the head", 0), 0u) << plan.verdict;
    EXPECT_TRUE(grown.chains.empty());
    EXPECT_EQ(grown.outcome.rfind("not grown: hair lying on the head", 0), 0u) << grown.outcome;
    EXPECT_EQ(hair_plan(cropped.scene, cap, {false, true}).first.action, "stays");  // --no-grow: no sheet
    // The bob hangs: grown as a cap cut into wedges.
    auto [bob_plan, bob_grown] = hair_plan(bob.scene, find_garments(bob.scene), {});
    EXPECT_EQ(bob_plan.action, "grown");
    EXPECT_EQ(bob_grown.chains.size(), 12u);
    // Named by a config, the cap is built as asked: grown like the bob.
    GarmentOptions named;
    ConfigResult config =
        parse_garment_config(R"({"schema": "weft.config/1", "garments": [{"material": "Hair", "class": "hair"}]})", "weft.json");
    ASSERT_EQ(config.error, "");
    named.config = std::move(config.config);
    auto [named_plan, named_grown] = hair_plan(cropped.scene, find_garments(cropped.scene, named), {});
    EXPECT_EQ(named_plan.action, "grown");
    EXPECT_GE(named_grown.chains.size(), 6u);
}

struct SharedCase {
    const char* file;
    const char* garment;
    size_t chains, bones, caps, dropped_short, dropped_small;
    const char* config = nullptr;  ///< a weft.json naming the garment, when it is grown only so
};

/// The Casual man's short hair lies on his head: it is grown only where a config names it.
constexpr const char* kCasualHairNamed =
    R"({"schema": "weft.config/1", "garments": [{"material": "Hair", "class": "hair"}]})";

TEST(GrowShared, HairWeightedToTheHeadGrowsChains) {
    // Measured on the shared models (all hair weighted wholly to the head, no cloth bones).
    const SharedCase cases[] = {
        {"quaternius_umw_Witch.gltf", "Hair_Black", 18, 54, 1, 2, 11},
        {"quaternius_men_Casual.glb", "Hair", 18, 54, 9, 17, 23, kCasualHairNamed},
        {"quaternius_Hair_Long.fbx", "MI_Hair_2", 16, 48, 2, 5, 0},
    };
    for (const SharedCase& c : cases) {
        WEFT_REQUIRE_SHARED_MODEL(path, c.file);
        GarmentOptions options;
        if (c.config) {
            ConfigResult config = parse_garment_config(c.config, "weft.json");
            ASSERT_EQ(config.error, "");
            options.config = std::move(config.config);
        }
        ImportResult imported = import_scene(path);
        ASSERT_TRUE(imported.ok()) << c.file;
        const GrowResult r = grow_cloth(imported.scene, find_garments(imported.scene, options), {});
        const GrownGarment* g = garment_named(r, c.garment);
        ASSERT_TRUE(g) << c.file;
        EXPECT_EQ(g->chains.size(), c.chains) << c.file;
        size_t bones = 0;
        for (int i : g->chains) bones += r.chains[size_t(i)].joints.size();
        EXPECT_EQ(bones, c.bones) << c.file;
        EXPECT_EQ(g->caps.size(), c.caps) << c.file;
        EXPECT_EQ(g->dropped_short, c.dropped_short) << c.file;
        EXPECT_EQ(g->dropped_small, c.dropped_small) << c.file;
        for (int i : g->chains) EXPECT_EQ(r.scene.nodes[size_t(r.chains[size_t(i)].body_bone)].name, "Head") << c.file;
    }
}

TEST(GrowShared, CasualMansShortHairLyingOnTheHeadIsNotGrown) {
    WEFT_REQUIRE_SHARED_MODEL(path, "quaternius_men_Casual.glb");
    const GrowResult r = grow_file(path);
    EXPECT_TRUE(r.chains.empty());
    const GrownGarment* hair = garment_named(r, "Hair");
    ASSERT_TRUE(hair);
    EXPECT_EQ(hair->outcome.rfind("not grown: hair lying on the head: it ends 115 mm above the neck joint", 0), 0u)
        << hair->outcome;
}

TEST(GrowShared, SuperherosEyebrowSlotGrowsNothingAndSaysWhy) {
    WEFT_REQUIRE_SHARED_MODEL(path, "quaternius_Superhero_Female_FullBody.fbx");
    const GrowResult r = grow_file(path);
    EXPECT_TRUE(r.chains.empty());
    ASSERT_EQ(r.garments.size(), 1u);
    EXPECT_EQ(r.garments[0].name, "MI_Hair_2");
    EXPECT_EQ(r.garments[0].outcome,
              "not grown: not a garment: too small to simulate: its largest piece spans 64 mm (a garment needs 100 mm)");
    EXPECT_NE(find_issue(r.issues, "GROW_NOT_A_GARMENT"), nullptr);
}


// ---- garments found by geometry, grown ---------------------------------------------------------

TEST(GrowGeometry, WitchSkirtGrowsFromItsWaistbandOnTheHips) {
    WEFT_REQUIRE_SHARED_MODEL(path, "quaternius_umw_Witch.gltf");
    ImportResult imported = import_scene(path);
    ASSERT_TRUE(imported.ok());
    const ModelGarments found = find_garments(imported.scene);
    const GrowResult r = grow_cloth(imported.scene, found, {});
    const GrownGarment* skirt = garment_named(r, "skirt");
    ASSERT_TRUE(skirt);
    EXPECT_GE(skirt->chains.size(), 8u);
    double top = -INFINITY, bottom = INFINITY;
    for (const Garment& g : found.garments)
        if (g.class_name == "skirt") top = g.bounds.max.y, bottom = g.bounds.min.y;
    for (int c : skirt->chains) {
        const GrownChain& chain = r.chains[size_t(c)];
        EXPECT_EQ(chain.shape, ClumpShape::skirt_wedge);
        EXPECT_EQ(r.scene.nodes[size_t(chain.body_bone)].name, "Hips");
        // Rooted at its panel's waistband (the band is tilted: 1.01-1.10 m), in the skirt's top
        // third, not wherever the weights reach.
        EXPECT_GT(chain.polyline.front().y, top - (top - bottom) / 3) << chain.name;
        EXPECT_GT(chain.polyline.front().y, chain.polyline.back().y + 0.1) << chain.name;  // hangs down
    }
    // bake's plan: both the hair and the skirt are grown; nothing goes to the sheet builder.
    const std::vector<GarmentPlan> plans = plan_garments(r.scene, found, {}, &r);
    ASSERT_EQ(plans.size(), 2u);
    for (const GarmentPlan& p : plans) EXPECT_EQ(p.action, "grown") << p.verdict;
}

TEST(GrowGeometry, PlanSaysSheetHeldByTheNodesBoneAndHairNeverASheet) {
    WEFT_REQUIRE_SHARED_MODEL(path, "kaykit_Knight.glb");
    ImportResult imported = import_scene(path);
    ASSERT_TRUE(imported.ok());
    const ModelGarments found = find_garments(imported.scene);
    const GrowResult r = grow_cloth(imported.scene, found, {});
    const std::vector<GarmentPlan> plans = plan_garments(r.scene, found, {}, &r);
    ASSERT_EQ(plans.size(), 1u);
    EXPECT_EQ(plans[0].action, "sheet");
    EXPECT_EQ(plans[0].verdict, "moves as a sheet held by chest");
    // The eyebrow-sized hair of the Superhero is no garment; a hair garment that grew nothing
    // stays on its bone rather than going to the sheet builder.
    const Body b = strands_scene();
    ModelGarments hair = find_garments(b.scene);
    GrowOptions none;
    none.min_strand_length = 10;  // every strand too short: nothing grows
    const GrowResult nothing = grow_cloth(b.scene, hair, none);
    const std::vector<GarmentPlan> hair_plans = plan_garments(b.scene, hair, {}, &nothing);
    ASSERT_EQ(hair_plans.size(), 1u);
    EXPECT_EQ(hair_plans[0].action, "stays");
    EXPECT_EQ(plan_garments(b.scene, hair, {false, true}, nullptr)[0].action, "sheet");  // --no-grow
}

}  // namespace
}  // namespace weft
