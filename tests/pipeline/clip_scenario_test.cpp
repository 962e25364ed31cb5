// Clip scenarios (docs/validation.md#clips): a model's own animation, sampled at the step rate,
// drives what holds the cloth. On the generated skeleton whose Walk has a closed form
// (testdata/clip_skeleton.glb) the held end of a chain hanging from the hand follows the hand's
// path at every sampled step; a clip the model lacks is refused with CLIP_NOT_FOUND.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "garment/scene_builder.h"
#include "validate/model/clip_motions.h"
#include "validate/model/rig_validate.h"
#include "scene/import.h"
#include "support/paths.h"
#include "solver/test_proxies.h"
#include "testdata/fixtures.h"
#include "validate/validate.h"

namespace weft {
namespace {

Scene clip_skeleton() {
    ImportResult r = import_scene(test::testdata_dir() / "clip_skeleton.glb");
    EXPECT_TRUE(r.ok());
    return r.scene;
}

/// A 4-link chain hanging from the hand (its particle 0 at the hand's bind position), in a frame on
/// `frame_node` standing at `frame_rest`.
ClothProxy chain_on_hand(const std::string& frame_node, const Vec3& frame_rest) {
    ClothProxy p = test::chain_proxy(4, 0.05, 0.01);
    const Vec3 hand_bind{testdata::kClipHandReach, testdata::kClipHipsHeight + testdata::kClipArmRise, 0};
    p.frame.node = frame_node;
    p.frame.rest_world = Mat4::translation(frame_rest);
    for (Vec3& x : p.rest_position) x = x + (hand_bind - frame_rest);
    p.pins.resize(1);
    p.pins[0].holder = "Hand";
    p.suggested_fabric = "cotton";
    return p;
}

/// Runs Walk on `proxy` and returns, per scripted step, the held particle's world position.
std::vector<Vec3> held_path(const ClothProxy& proxy, const std::function<Pose(uint32_t)>& frame_at, ProxyValidation* out) {
    const Scene scene = clip_skeleton();
    ValidationOptions options;
    options.scenarios.clear();
    options.clip_choice = ClipChoice::parse("Walk");
    Issues issues;
    add_clip_scenarios(scene, "clip_skeleton.glb", options, issues);
    EXPECT_TRUE(issues.empty());
    const uint32_t held = test::particle(proxy, 0);
    std::vector<Vec3> path;
    options.observer = [&](Scenario scenario, uint32_t step, const Pose&, const ClothState& state) {
        EXPECT_EQ(scenario, Scenario::clip);
        path.push_back(frame_at(step - 1).apply(state.x[held]));
    };
    *out = validate_proxy(proxy, options);
    return path;
}

TEST(ClipScenario, HeldEndFollowsTheHandInClosedForm) {
    const Vec3 frame_rest{0, 0.2, 0};
    const ClothProxy proxy = chain_on_hand("", frame_rest);  // the frame is the model's root: it stands still
    ProxyValidation v;
    const std::vector<Vec3> path = held_path(proxy, [&](uint32_t) { return Pose{frame_rest, {}}; }, &v);
    ASSERT_FALSE(v.refused);
    ASSERT_EQ(v.scenarios.size(), 1u);
    EXPECT_EQ(v.scenarios[0].clip, "Walk");
    ValidationReport report;
    report.proxies.push_back(v);
    EXPECT_EQ(report_json(report)["proxies"][0]["scenarios"][0]["name"], "clip:Walk");
    // Blend, 121 frames (2 s at 60 Hz, both ends), then 2 s holding the last (more than half of 151).
    const uint32_t frames = 121;
    ASSERT_EQ(path.size(), clip_blend_steps + frames + clip_hold_min_steps);
    // The hand's first frame is its bind pose, so the blend holds still; then the hand's path.
    for (uint32_t s = 0; s < path.size(); ++s) {
        const double t = s < clip_blend_steps ? 0.0 : std::min<double>(s - clip_blend_steps, frames - 1) * validation_dt;
        EXPECT_NEAR(distance(path[s], testdata::clip_skeleton_hand(t)), 0.0, 1e-6) << "step " << s << ", t = " << t;
    }
    // It walked 2 m and turned the arm a half turn: the hand ended 2.5 m from where it began.
    EXPECT_NEAR(distance(path.back(), path.front()), std::hypot(1.0, 2.0), 1e-6);
    EXPECT_GT(v.scenarios[0].peak_speed, 0.1);  // the chain swung
}

TEST(ClipScenario, FrameOnTheHipsRidesThem) {
    const Vec3 hips_bind{0, testdata::kClipHipsHeight, 0};
    const ClothProxy proxy = chain_on_hand("Hips", hips_bind);
    ProxyValidation v;
    const auto hips_at = [&](uint32_t s) {
        const double t = s < clip_blend_steps ? 0.0 : std::min<double>(s - clip_blend_steps, 120) * validation_dt;
        return Pose{hips_bind + Vec3{0, 0, testdata::kClipWalkSpeed * t}, {}};
    };
    const std::vector<Vec3> path = held_path(proxy, hips_at, &v);
    ASSERT_FALSE(v.refused);
    ASSERT_FALSE(path.empty());
    for (uint32_t s = clip_blend_steps; s < path.size(); ++s) {
        const double t = std::min<double>(s - clip_blend_steps, 120) * validation_dt;
        EXPECT_NEAR(distance(path[s], testdata::clip_skeleton_hand(t)), 0.0, 1e-6) << "step " << s;
    }
    // In the hips' frame the walk's 1 m/s is the frame's motion, not the cloth's: the chain moves
    // slower in it than in the standing frame, which sees the hand's whole path.
    const Vec3 frame_rest{0, 0.2, 0};
    ProxyValidation standing;
    held_path(chain_on_hand("", frame_rest), [&](uint32_t) { return Pose{frame_rest, {}}; }, &standing);
    ASSERT_FALSE(standing.refused);
    EXPECT_LT(v.scenarios[0].peak_speed, standing.scenarios[0].peak_speed - 0.2);
}

/// The clip skeleton with a 3-joint tail hanging from the hand and a skinned ribbon on it: its top
/// row on the hand, one vertex `hips_vertex` on the hips (body bones both), the rest on the tail.
struct TailedSkeleton {
    Scene scene;
    RigGarment garment;
    Vec3 hips_vertex;
};
TailedSkeleton tailed_skeleton() {
    TailedSkeleton t;
    t.scene = clip_skeleton();
    Scene& s = t.scene;
    const int hips = s.find_node("Hips"), arm = s.find_node("Arm"), hand = s.find_node("Hand");
    int parent = hand;
    std::vector<int> tail;
    for (const char* name : {"Tail0", "Tail1", "Tail2"}) parent = test::add_node(s, name, parent, {0, -0.05, 0}), tail.push_back(parent);
    const int skin = test::add_skin(s, {hips, arm, hand, tail[0], tail[1], tail[2]});
    const Vec3 hand_bind{testdata::kClipHandReach, testdata::kClipHipsHeight + testdata::kClipArmRise, 0};
    test::Strip ribbon = test::strip(hand_bind, 0.02, 0.15, 3);  // rows at the hand and each tail joint
    t.hips_vertex = hand_bind - Vec3{0, 0.5, 0};
    ribbon.positions.push_back(t.hips_vertex);
    const uint32_t h = static_cast<uint32_t>(ribbon.positions.size() - 1);
    ribbon.indices.insert(ribbon.indices.end(), {h, 2, 0});  // hips, the tail's first row, the hand
    test::add_skinned_mesh(s, "Ribbon", hips, "Ribbon", skin, ribbon, [&](uint32_t v) {
        if (v == h) return std::vector<std::pair<int, double>>{{0, 1.0}};
        return std::vector<std::pair<int, double>>{{2 + static_cast<int>(v / 2), 1.0}};  // row 0: the hand, row k: Tail(k-1)
    });
    t.garment.name = "Ribbon";
    t.garment.garment_class = "ribbon";
    RigChain chain;
    chain.name = "Tail0";
    chain.joints = tail;
    t.garment.chains.push_back(chain);
    return t;
}

// In a clip scenario the skinned mesh is posed with the body's bones where the clip has them, not at
// bind (docs/validation.md#clips). Walk turns the arm a half turn about the hips while they walk 2 m,
// so at its last frame the hand stands where it began mirrored through the hips' axis: a sphere on the
// hips at that spot holds the hand's vertex at its centre, and the edge from the hips' vertex (0.5 m
// below the hand at bind) to the hand's reaches sqrt(0.5² + 1²) / 0.5 of its bind length.
TEST(ClipScenario, SkinnedMeshFollowsTheClipsSkeleton) {
    const TailedSkeleton t = tailed_skeleton();
    const RigBuildResult built = build_rig(t.scene, t.garment);
    ASSERT_TRUE(built.proxy) << (built.issues.empty() ? "" : built.issues[0].message);
    ValidationOptions options;
    options.scenarios.clear();
    options.clip_choice = ClipChoice::parse("Walk");
    Issues issues;
    add_clip_scenarios(t.scene, "clip_skeleton.glb", options, issues);
    ASSERT_TRUE(issues.empty());
    const double radius = 0.1;
    options.body.spheres.push_back({{-testdata::kClipHandReach, testdata::kClipHipsHeight + testdata::kClipArmRise, 0}, radius});
    options.body.sphere_bones.push_back("Hips");
    options.body.collide = false;  // measured only: the chain's particles pass through it freely
    options.stop_early = false;    // the depth at the walk's last frame is the subject, far past the gate's limit
    const RigProxyValidation v = validate_rig_mesh(t.scene, t.garment, built, options);
    ASSERT_FALSE(v.solver.refused) << v.solver.refused->message;
    ASSERT_EQ(v.poses.size(), 1u);
    const MeshPoseStats& walk = v.poses[0];
    EXPECT_EQ(walk.scenario, Scenario::clip);
    EXPECT_EQ(walk.clip, "Walk");
    ASSERT_TRUE(walk.max_penetration);
    // The hand's vertex, at the sphere's centre, is on body bones alone: the scalp's, held by
    // SCALP_DISPLACEMENT and not measured for depth. The deepest is the tail's first row, one 5 cm
    // link from the hand whichever way the tail hangs.
    EXPECT_NEAR(*walk.max_penetration, radius - 0.05, 1e-5);
    EXPECT_EQ(walk.max_penetration_mesh, "Ribbon");
    EXPECT_EQ(walk.max_penetration_vertex, 2u);
    EXPECT_GE(walk.max_edge_stretch, std::hypot(0.5, 1.0) / 0.5 - 1e-5);  // the hips' vertex and the hand's
    // The tail's vertices ride the particles the moving frame carries: a tail left where it was bound
    // while the hand walks 2 m would stretch its 5 cm edges forty times.
    EXPECT_LT(walk.max_edge_stretch, 3.5);
    // The hand's and the hips' vertices are on body bones alone: where the clip's own skinning puts them.
    EXPECT_LT(walk.max_scalp_displacement, 1e-6);
    ASSERT_EQ(v.mesh_gates.size(), 3u);  // MESH_STRETCH, SCALP_DISPLACEMENT, PENETRATION
    for (const MeshGateResult& g : v.mesh_gates) EXPECT_EQ(g.clip, "Walk") << g.gate;
    RigModelValidation model;
    model.proxies.push_back(v);
    const nlohmann::json j = rig_validation_json(model);
    EXPECT_EQ(j["proxies"][0]["mesh"]["scenarios"][0]["scenario"], "clip:Walk");
    EXPECT_EQ(j["proxies"][0]["gates"].back()["scenario"], "clip:Walk");
    EXPECT_NE(v.mesh_gates[0].message.find("garment 'Ribbon' clip:Walk (step "), std::string::npos) << v.mesh_gates[0].message;
}

TEST(ClipChoiceTest, UnknownClipIsRefusedByNameWithTheModelsClips) {
    const Scene scene = clip_skeleton();
    ValidationOptions options;
    const size_t scripted = options.scenarios.size();
    options.clip_choice = ClipChoice::parse("Walk, Sprint");
    Issues issues;
    add_clip_scenarios(scene, "models/clip_skeleton.glb", options, issues);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].code, "CLIP_NOT_FOUND");
    EXPECT_EQ(issues[0].severity, Severity::error);
    EXPECT_EQ(issues[0].message, "models/clip_skeleton.glb: no animation clip 'Sprint'; its 2 clips: Walk, Wave");
    EXPECT_EQ(options.scenarios.size(), scripted);  // no clip scenario ran
    EXPECT_TRUE(options.clips.empty());
}

TEST(ClipChoiceTest, DefaultsAreTheClipsThatSayWalkRunIdleJump) {
    const Scene scene = clip_skeleton();
    std::string error;
    const std::vector<int> chosen = choose_clips(scene, ClipChoice::parse(""), "m", error);
    ASSERT_EQ(chosen.size(), 1u);  // Wave says none of them
    EXPECT_EQ(scene.clips[static_cast<size_t>(chosen[0])].name, "Walk");
    EXPECT_EQ(choose_clips(scene, ClipChoice::parse("all"), "m", error).size(), 2u);
    EXPECT_TRUE(choose_clips(scene, ClipChoice::parse("none"), "m", error).empty());
    EXPECT_TRUE(error.empty());
    // The most generic name wins each word ("idle" before "Idle_Sword"), one that says no other word
    // first ("Jump_Idle" is no jump); file order breaks a tie.
    Scene many;
    for (const char* name : {"Idle_Sword", "Walking_B", "idle", "Walking_A", "Run_Left", "Run", "Jump_Idle", "Jump_Full_Long", "Death"})
        many.clips.push_back(Clip{name, 1.0, {}});
    std::vector<std::string> names;
    for (int c : choose_clips(many, ClipChoice::parse(""), "m", error)) names.push_back(many.clips[static_cast<size_t>(c)].name);
    EXPECT_EQ(names, (std::vector<std::string>{"Walking_B", "Run", "idle", "Jump_Full_Long"}));
}

TEST(ClipChoiceTest, ConfigNamesClipsPerFileUnlessTheCommandLineDoes) {
    const ConfigResult r = parse_garment_config(
        R"({"schema": "weft.config/1", "clips": [{"file": "clip_*.glb", "clips": ["Wave", "Walk"]}, {"clips": "none"}]})",
        "weft.json");
    ASSERT_EQ(r.error, "");
    const ClipChoice mine = configured_clips(r.config, "models/clip_skeleton.glb", ClipChoice::parse(""));
    EXPECT_EQ(mine.mode, ClipChoice::named);
    EXPECT_EQ(mine.names, (std::vector<std::string>{"Wave", "Walk"}));
    EXPECT_EQ(configured_clips(r.config, "models/knight.glb", ClipChoice::parse("")).mode, ClipChoice::none);
    EXPECT_EQ(configured_clips(r.config, "models/clip_skeleton.glb", ClipChoice::parse("all")).mode, ClipChoice::all);
    EXPECT_EQ(configured_clips(GarmentConfig{}, "models/clip_skeleton.glb", ClipChoice::parse("")).mode, ClipChoice::defaults);
    const ConfigResult bad = parse_garment_config(R"({"schema": "weft.config/1", "clips": [{"clips": "Walk"}]})", "weft.json");
    EXPECT_NE(bad.error.find("/clips/0/clips: must be \"all\", \"none\" or a list of clip names"), std::string::npos) << bad.error;
}

}  // namespace
}  // namespace weft

namespace weft {
namespace {

// Budgets (docs/bad-inputs.md#budgets): a clip keyed out to t = 1e5 s made a 9-million-step
// scenario (2.1 GB, or OUT_OF_MEMORY for the whole model). It is cut to a clip's budget by name and
// the model's other clips play whole.
TEST(ClipBudget, ATooLongClipIsCutByNameAndTheOthersPlayWhole) {
    Scene scene = clip_skeleton();
    const int walk = find_clip(scene, "Walk");
    ASSERT_GE(walk, 0);
    Clip endless = scene.clips[static_cast<size_t>(walk)];
    endless.name = "Endless";
    endless.duration = 1e5;
    scene.clips.push_back(endless);
    scene.animations.push_back("Endless");
    ValidationOptions options;
    options.clip_choice = ClipChoice::parse("Endless, Walk");
    Issues issues;
    add_clip_scenarios(scene, "m.glb", options, issues);
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].code, "CLIP_OVER_BUDGET");
    EXPECT_EQ(issues[0].severity, Severity::warning);
    EXPECT_EQ(issues[0].message, "m.glb: clip 'Endless' lasts 100000 s: validation plays its first 120 s (a clip's budget of 120 s)");
    EXPECT_EQ(issues[0].pointer, "/animations/" + std::to_string(scene.clips.size() - 1));
    ASSERT_EQ(options.clips.size(), 2u);
    EXPECT_EQ(options.clips[0].frames.size(), 7201u);  // 120 s at 60 Hz, both ends
    EXPECT_EQ(options.clips[1].frames.size(), sample_clip(scene, scene.clips[static_cast<size_t>(walk)]).frames.size());
    EXPECT_GT(options.clips[1].frames.size(), 2u);
}

TEST(ClipBudget, ClipsPastTheModelsSampledPosesAreLeftOutByName) {
    // The model's budget of sampled poses scaled down to 100 frames of its nodes (the default's
    // 8,000,000 would be 448 MB here): the rule is the same.
    Scene scene = clip_skeleton();
    const uint64_t nodes = scene.nodes.size();
    const ClipBudget budget{kMaxClipSeconds, 100 * nodes};
    Clip a = scene.clips[static_cast<size_t>(find_clip(scene, "Walk"))];
    a.name = "A";
    a.duration = 1;  // 61 frames
    Clip b = a;
    b.name = "B";  // 61 more would pass 100: cut to the 39 left
    Clip c = a;
    c.name = "C";  // none left
    for (const Clip& clip : {a, b, c}) {
        scene.clips.push_back(clip);
        scene.animations.push_back(clip.name);
    }
    ValidationOptions options;
    options.clip_choice = ClipChoice::parse("A, B, C");
    Issues issues;
    add_clip_scenarios(scene, "m.glb", options, issues, 0, budget);
    ASSERT_EQ(issues.size(), 2u);
    const std::string poses = std::to_string(100 * nodes);
    EXPECT_EQ(issues[0].code, "CLIP_OVER_BUDGET");
    EXPECT_EQ(issues[0].message, "m.glb: clip 'B' lasts 1 s: validation plays its first 0.633333 s (what is left of the model's budget of " +
                                     poses + " sampled node poses)");
    EXPECT_EQ(issues[1].code, "CLIP_OVER_BUDGET");
    EXPECT_EQ(issues[1].message, "m.glb: clip 'C' was not played: the clips before it used the model's budget of " + poses +
                                     " sampled node poses (" + std::to_string(nodes) + " nodes a frame)");
    ASSERT_EQ(options.clips.size(), 2u);  // C left out, no scenario for it
    EXPECT_EQ(options.clips[0].name, "A");
    EXPECT_EQ(options.clips[0].frames.size(), 61u);
    EXPECT_EQ(options.clips[1].name, "B");
    EXPECT_EQ(options.clips[1].frames.size(), 39u);
}

}  // namespace
}  // namespace weft
