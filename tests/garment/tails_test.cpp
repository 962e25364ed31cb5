// Tails on authored chains: the ones that are the body (garment/tail_body.h) and roots that carry
// body skin (garment/chain_root.h), on the generated quadruped (tools/testdata make_quadruped).
#include <gtest/gtest.h>

#include "garment/chain_root.h"
#include "garment/garments.h"
#include "garment/tail_body.h"
#include "testdata/fixtures.h"

namespace weft {
namespace {

using testdata::make_quadruped;
using testdata::QuadrupedOptions;

QuadrupedOptions thick_tail() {
    QuadrupedOptions o;
    o.tail_root_radius = 0.28;
    return o;
}

TEST(TailIsBody, ASlenderTailIsAGarment) {
    const Scene s = make_quadruped();
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    const std::optional<TailSection> section = measure_tail_section(s, found.chains[0]);
    ASSERT_TRUE(section);
    // A quarter of the way down (0.35 m) the tail's radius is 0.8 x 0.06 m; the median ray meets a
    // ten-sided ring between its corners and its flats (0.95 of the radius).
    EXPECT_NEAR(section->width, 2 * 0.048, 0.008);
    EXPECT_NEAR(section->chain_length, 1.4, 1e-9);
    EXPECT_LT(section->share(), kTailIsBody);
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].class_name, "tail");
    EXPECT_EQ(found.garments[0].name, "Tail1");
    EXPECT_TRUE(found.garments[0].moves);
    EXPECT_TRUE(found.not_garments.empty());
}

TEST(TailIsBody, ATailAsThickAsTheBodyIsFoundAndNotAGarment) {
    const Scene s = make_quadruped(thick_tail());
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    const std::optional<TailSection> section = measure_tail_section(s, found.chains[0]);
    ASSERT_TRUE(section);
    EXPECT_NEAR(section->width, 2 * 0.224, 0.03);
    EXPECT_GT(section->share(), 0.3);
    EXPECT_TRUE(found.garments.empty());
    ASSERT_EQ(found.not_garments.size(), 1u);
    const Garment& tail = found.not_garments[0];
    EXPECT_EQ(tail.name, "Tail1");
    EXPECT_EQ(tail.class_name, "tail");
    EXPECT_EQ(tail.matched_by, "chain");
    EXPECT_EQ(tail.not_garment_rule, kTailIsBodyRule);
    char want[256];
    std::snprintf(want, sizeof want,
                  "the body, not a tail that swings: a quarter of the way down its chain it is %.0f mm wide, %.2f of "
                  "its 1400 mm length (a tail that swings is at most 1/5; docs/garments-by-geometry.md#tails-that-are-the-body)",
                  section->width * 1000, section->share());
    EXPECT_EQ(tail.not_garment_reason, want);
    EXPECT_EQ(found.verdict, "no garment found by slot (materials seen: Main); 1 garment on authored chains is not one "
                             "(a stub, or the body)");
}

TEST(TailIsBody, ATailTheConfigNamesIsBuiltWhateverItMeasures) {
    Scene s = make_quadruped(thick_tail());
    s.source_path = "Trex.glb";
    GarmentOptions options;
    ConfigResult config = parse_garment_config(
        R"({"schema": "weft.config/1", "garments": [{"file": "Trex*", "node": "Tail1", "class": "tail"}]})", "weft.json");
    ASSERT_EQ(config.error, "");
    options.config = config.config;
    const ModelGarments named = find_garments(s, options);
    ASSERT_EQ(named.garments.size(), 1u);
    EXPECT_EQ(named.garments[0].name, "Tail1");
    EXPECT_TRUE(named.garments[0].moves);
    EXPECT_TRUE(named.not_garments.empty());
    // The rule names another file: the tail is the body again.
    s.source_path = "Snake.glb";
    EXPECT_TRUE(find_garments(s, options).garments.empty());
}

TEST(RootCarriesBody, AHaunchOnTheTailsRootLeavesTheRootToTheAnimation) {
    QuadrupedOptions haunch;
    haunch.haunch_on_tail = true;
    const Scene s = make_quadruped(haunch);
    const int tail1 = s.find_node("Tail1"), tail2 = s.find_node("Tail2");
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    const Chain& chain = found.chains[0];
    EXPECT_EQ(chain.name, "Tail1");
    EXPECT_EQ(chain.animated_root, tail1);
    EXPECT_EQ(chain.parent, tail1);
    ASSERT_EQ(chain.joints.size(), 4u);
    EXPECT_EQ(chain.joints.front(), tail2);
    EXPECT_NEAR(chain.length, 1.05, 1e-9);
    // Measured on the chain as authored: the haunch's top ring, 45% on Tail1, from 0.55 m and more.
    std::vector<Chain> authored{as_authored(s, chain)};
    EXPECT_EQ(authored[0].joints.front(), tail1);
    EXPECT_NEAR(authored[0].length, 1.4, 1e-9);
    const RootLever lever = measure_root_lever(s, authored, 0);
    EXPECT_NEAR(lever.weight, 0.45, 1e-6);
    EXPECT_GT(lever.distance, 0.5);
    EXPECT_GT(lever.lever, kMaxRootLever);
    // The tail still swings, and is still a tail: the skin its root weights is the body's now.
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].name, "Tail1");
    EXPECT_TRUE(found.garments[0].moves);
}

TEST(RootCarriesBody, ATailWhoseRootCarriesOnlyTheTailIsSimulatedFromItsRoot) {
    const Scene s = make_quadruped();
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    EXPECT_EQ(found.chains[0].animated_root, -1);
    EXPECT_EQ(found.chains[0].joints.front(), s.find_node("Tail1"));
    EXPECT_EQ(found.chains[0].parent, s.find_node("Back"));
    EXPECT_LT(measure_root_lever(s, found.chains, 0).lever, kMaxRootLever);
}

}  // namespace
}  // namespace weft
