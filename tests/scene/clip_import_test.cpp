// Animation clips imported into the Scene (scene/clip.h): key times in seconds whatever the file's
// ticks, channels bound to nodes, the skeleton's world transforms sampled from them in closed form,
// and the invariants enforce_scene_invariants keeps for clips (docs/validation.md#clips).
#include <gtest/gtest.h>

#include <cmath>

#include "scene/clip.h"
#include "scene/import.h"
#include "scene/import_helpers.h"
#include "scene/invariants.h"
#include "support/paths.h"
#include "testdata/fixtures.h"

namespace weft::test {
namespace {

TEST(ClipImport, WalkIsTheClosedFormItWasWrittenAs) {
    const ImportResult r = import_scene(testdata_dir() / "clip_skeleton.glb");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Scene& s = r.scene;
    ASSERT_EQ(s.clips.size(), 2u);
    EXPECT_EQ(s.animations, (std::vector<std::string>{"Walk", "Wave"}));
    const Clip& walk = s.clips[static_cast<size_t>(find_clip(s, "Walk"))];
    EXPECT_NEAR(walk.duration, testdata::kClipWalkSeconds, 1e-6);  // Assimp's glTF ticks are milliseconds
    EXPECT_NEAR(s.clips[static_cast<size_t>(find_clip(s, "Wave"))].duration, 1.0, 1e-6);
    ASSERT_EQ(walk.channels.size(), 2u);
    EXPECT_EQ(s.nodes[static_cast<size_t>(walk.channels[0].node)].name, "Hips");
    EXPECT_EQ(s.nodes[static_cast<size_t>(walk.channels[1].node)].name, "Arm");
    const int hand = s.find_node("Hand");
    ASSERT_GE(hand, 0);
    // Between keys too: linear translation, slerp of turns under 180 degrees, both exact.
    for (double t : {0.0, 0.1, 0.25, 0.6, 1.01, 1.5, 2.0}) {
        const Vec3 at = clip_world(s, walk, t)[static_cast<size_t>(hand)].translation_part();
        const Vec3 want = testdata::clip_skeleton_hand(t);
        EXPECT_NEAR(distance(at, want), 0.0, 1e-6) << "t = " << t;
    }
    // Held past its end, and the rest pose where a clip does not reach.
    EXPECT_NEAR(distance(clip_world(s, walk, 5.0)[static_cast<size_t>(hand)].translation_part(),
                         testdata::clip_skeleton_hand(testdata::kClipWalkSeconds)), 0.0, 1e-6);
    EXPECT_EQ(find_clip(s, "Run"), -1);
}

TEST(ClipImport, InvariantsDropWhatASamplerCannotUse) {
    ImportResult r = import_scene(testdata_dir() / "clip_skeleton.glb");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    Scene s = r.scene;
    Clip bad;
    bad.name = "Broken";
    bad.duration = 0;
    ClipChannel outside;  // a node the scene lacks
    outside.node = 99;
    outside.translation = {{0, {1, 2, 3}}};
    ClipChannel arm;
    arm.node = s.find_node("Arm");
    arm.translation = {{1.0, {0, 0, 1}}, {0.5, {0, 0, 0.5}}, {0.5, {9, 9, 9}}, {0.75, {NAN, 0, 0}}, {-1, {0, 0, 0}}};
    arm.rotation = {{0, {0, 0, 0, 0}}, {0.2, {0, 0, 0, 2}}};
    ClipChannel twice = arm;  // the same node a second time
    bad.channels = {outside, arm, twice};
    s.clips.push_back(bad);
    Issues issues;
    ASSERT_TRUE(enforce_scene_invariants(s, issues));
    size_t clip_invalid = 0;
    for (const Issue& i : issues) {
        if (i.code != "CLIP_INVALID") continue;
        ++clip_invalid;
        EXPECT_EQ(i.severity, Severity::warning);
        EXPECT_NE(i.message.find("clip 'Broken'"), std::string::npos) << i.message;
    }
    EXPECT_EQ(clip_invalid, 3u);  // the node it lacks, the node twice, the keys
    const Clip& fixed = s.clips.back();
    ASSERT_EQ(fixed.channels.size(), 1u);
    const ClipChannel& c = fixed.channels[0];
    ASSERT_EQ(c.translation.size(), 2u);  // sorted, the repeated time keeps its first key, NaN and t < 0 gone
    EXPECT_EQ(c.translation[0].time, 0.5);
    EXPECT_EQ(c.translation[0].value.z, 0.5);
    EXPECT_EQ(c.translation[1].time, 1.0);
    ASSERT_EQ(c.rotation.size(), 1u);      // the zero rotation gone, the other normalised
    EXPECT_DOUBLE_EQ(c.rotation[0].value.w, 1.0);
    EXPECT_EQ(fixed.duration, 1.0);        // raised to its latest key
}

TEST(ClipImport, WitchClipsInSeconds) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_umw_Witch.gltf");
    const ImportResult r = import_scene(file);
    ASSERT_TRUE(r.ok()) << issues_text(r);
    ASSERT_EQ(r.scene.clips.size(), 24u);  // MANIFEST: 24 animations
    const int walk = find_clip(r.scene, "Walk");
    ASSERT_GE(walk, 0);
    // A walk cycle lasts about a second or two, not a thousand (ticks) nor a thousandth.
    EXPECT_GT(r.scene.clips[static_cast<size_t>(walk)].duration, 0.5);
    EXPECT_LT(r.scene.clips[static_cast<size_t>(walk)].duration, 3.0);
    for (const Clip& c : r.scene.clips) EXPECT_FALSE(c.channels.empty()) << c.name;
}

}  // namespace
}  // namespace weft::test
