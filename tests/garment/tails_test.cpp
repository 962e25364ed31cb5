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
    // The body is 0.6 m across; its section from Back, where the tail leaves it, 5 cm above its
    // axis, reads 0.54 m at the median ray.
    EXPECT_NEAR(section->hips_width, 0.54, 0.02);
    EXPECT_LT(section->girth_share(), 0.2);
    EXPECT_FALSE(section->widens());
    EXPECT_FALSE(section->is_body());
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
    EXPECT_GT(section->girth_share(), 0.6);
    EXPECT_FALSE(section->widens());
    EXPECT_TRUE(found.garments.empty());
    ASSERT_EQ(found.not_garments.size(), 1u);
    const Garment& tail = found.not_garments[0];
    EXPECT_EQ(tail.name, "Tail1");
    EXPECT_EQ(tail.class_name, "tail");
    EXPECT_EQ(tail.matched_by, "chain");
    EXPECT_EQ(tail.not_garment_rule, kTailIsBodyRule);
    char want[400];
    std::snprintf(want, sizeof want,
                  "the body, not a tail that swings: a quarter of the way down its 1400 mm chain it is %.0f mm wide, %.2f "
                  "of the hips' %.0f mm, and only narrower beyond (%.2f of that width at 5/8; a tail that swings is under 0.37 "
                  "of the hips there, or holds its width or widens again; docs/garments-by-geometry.md#tails-that-are-the-body)",
                  section->width * 1000, section->girth_share(), section->hips_width * 1000, section->width_on / section->width);
    EXPECT_EQ(tail.not_garment_reason, want);
    EXPECT_EQ(found.verdict, "no garment found by slot (materials seen: Main); 1 garment on authored chains is not one "
                             "(a stub, or the body)");
}

// A raptor's tail: as slender for its 3 m as a fox's (0.10 of its length wide a quarter down, where
// width over length read it as a tail that swings), but half the hips' width there and only
// narrower beyond: the spine carried on out of the hips.
TEST(TailIsBody, ALongTailTaperingFromTheHipsIsTheBody) {
    QuadrupedOptions raptor;
    raptor.tail_root_radius = 0.2;
    raptor.tail_length = 3.0;
    const Scene s = make_quadruped(raptor);
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    const std::optional<TailSection> section = measure_tail_section(s, found.chains[0]);
    ASSERT_TRUE(section);
    EXPECT_NEAR(section->width, 2 * 0.16, 0.03);
    EXPECT_LT(section->width / section->chain_length, 0.12);
    EXPECT_NEAR(section->girth_share(), 0.5, 0.07);
    EXPECT_NEAR(section->widest_beyond, 2 * 0.13, 0.03);  // at 3/8: between 0.8 and 0.5 of the root's radius
    EXPECT_TRUE(section->is_body());
    EXPECT_TRUE(found.garments.empty());
    ASSERT_EQ(found.not_garments.size(), 1u);
    EXPECT_EQ(found.not_garments[0].not_garment_rule, kTailIsBodyRule);
}

// A brush: a fox's tail, narrow where it leaves the rump and fur twice as wide beyond, a quarter of
// its length wide a quarter down (width over length read it as the body) and past 0.37 of the hips'
// width there, but wider still at its middle: a tail that swings.
TEST(TailIsBody, ABushyTailThatWidensPastItsRootSwings) {
    QuadrupedOptions brush;
    brush.tail_root_radius = 0.1;
    brush.tail_taper = {2.0, 2.6, 2.0};
    const Scene s = make_quadruped(brush);
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    const std::optional<TailSection> section = measure_tail_section(s, found.chains[0]);
    ASSERT_TRUE(section);
    EXPECT_GT(section->width / section->chain_length, 0.25);
    EXPECT_GT(section->girth_share(), kTailIsBody);
    EXPECT_GT(section->widest_beyond, 1.2 * section->width);
    EXPECT_TRUE(section->widens());
    EXPECT_FALSE(section->is_body());
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].name, "Tail1");
    EXPECT_TRUE(found.not_garments.empty());
}

// A red fox's brush: as thick as the body a quarter down and never wider beyond, but it holds that
// width on to five eighths before it tapers, where a tail that is the body narrows from the hips.
TEST(TailIsBody, ABrushHoldingItsWidthSwings) {
    QuadrupedOptions brush;
    brush.tail_root_radius = 0.22;
    brush.tail_taper = {1.0, 1.0, 0.95};
    const Scene s = make_quadruped(brush);
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    const std::optional<TailSection> section = measure_tail_section(s, found.chains[0]);
    ASSERT_TRUE(section);
    EXPECT_GT(section->girth_share(), kTailIsBody);
    EXPECT_FALSE(section->widens());
    EXPECT_GT(section->width_on, kTailHolds * section->width);
    EXPECT_TRUE(section->holds());
    EXPECT_FALSE(section->is_body());
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].name, "Tail1");
    EXPECT_TRUE(found.not_garments.empty());
}

// A short tail, a zebra's: a fifth of its length wide a quarter down, which width over length
// judged the body, but a third of the hips' width there: a tail that swings.
TEST(TailIsBody, AShortTailNarrowForTheHipsSwings) {
    QuadrupedOptions zebra;
    zebra.tail_root_radius = 0.12;
    zebra.tail_length = 0.8;
    const Scene s = make_quadruped(zebra);
    const ModelGarments found = find_garments(s);
    ASSERT_EQ(found.chains.size(), 1u);
    const std::optional<TailSection> section = measure_tail_section(s, found.chains[0]);
    ASSERT_TRUE(section);
    EXPECT_GT(section->width / section->chain_length, 0.2);
    EXPECT_LT(section->girth_share(), kTailIsBody);
    EXPECT_FALSE(section->is_body());
    ASSERT_EQ(found.garments.size(), 1u);
    EXPECT_EQ(found.garments[0].name, "Tail1");
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
