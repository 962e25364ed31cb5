#include <gtest/gtest.h>

#include "garment/classes.h"
#include "garment/config.h"

namespace weft {
namespace {

std::string class_of(std::string_view name) {
    static const std::vector<GarmentClass> classes = default_garment_classes();
    int c = classify_name(name, classes);
    return c < 0 ? "-" : classes[static_cast<size_t>(c)].name;
}

TEST(SplitWords, SeparatorsDigitsAndCamelHumps) {
    EXPECT_EQ(split_words("MI_Hair_2"), (std::vector<std::string>{"mi", "hair", "2"}));
    EXPECT_EQ(split_words("FrontHair_L_End"), (std::vector<std::string>{"front", "hair", "l", "end"}));
    EXPECT_EQ(split_words("HAIRBand"), (std::vector<std::string>{"hair", "band"}));
    EXPECT_EQ(split_words("Tail1"), (std::vector<std::string>{"tail", "1"}));
    EXPECT_EQ(split_words("mixamorig:LeftUpLeg"), (std::vector<std::string>{"mixamorig", "left", "up", "leg"}));
    EXPECT_EQ(split_words("J_Sec_Hair1_01"), (std::vector<std::string>{"j", "sec", "hair", "1", "01"}));
    EXPECT_EQ(split_words("Chair"), (std::vector<std::string>{"chair"}));
    EXPECT_EQ(split_words("  "), (std::vector<std::string>{}));
    EXPECT_EQ(split_words("前髪Hair"), (std::vector<std::string>{"前髪", "hair"}));
}

TEST(ClassifyName, HairMatchesOnWordBoundariesOnly) {
    EXPECT_EQ(class_of("Hair_Black"), "hair");
    EXPECT_EQ(class_of("MI_Hair_2"), "hair");
    EXPECT_EQ(class_of("hair"), "hair");
    EXPECT_EQ(class_of("HAIR"), "hair");
    EXPECT_EQ(class_of("FrontHair_L"), "hair");
    EXPECT_EQ(class_of("HairBall_Center_End"), "hair");
    EXPECT_EQ(class_of("Hairs.001"), "hair");
    EXPECT_EQ(class_of("Chair"), "-");
    EXPECT_EQ(class_of("Armchair_Seat"), "-");
    EXPECT_EQ(class_of("Hairline"), "-");  // a face region, not hair
    EXPECT_EQ(class_of("Eyebrows"), "-");
}

TEST(ClassifyName, EveryDefaultClassByATypicalName) {
    EXPECT_EQ(class_of("Skirt_F_01"), "skirt");
    EXPECT_EQ(class_of("MiniSkirts"), "skirt");
    EXPECT_EQ(class_of("Knight_Cape"), "cape");
    EXPECT_EQ(class_of("cloak.002"), "cape");
    EXPECT_EQ(class_of("Landscape"), "-");
    EXPECT_EQ(class_of("Escape_Hatch"), "-");
    EXPECT_EQ(class_of("Ribbon_end"), "ribbon");
    EXPECT_EQ(class_of("Tail8"), "tail");
    EXPECT_EQ(class_of("Tails"), "tail");
    EXPECT_EQ(class_of("Retail_Sign"), "-");
    EXPECT_EQ(class_of("CoatTail_L"), "coat_tails");
    EXPECT_EQ(class_of("coat_tails"), "coat_tails");
    EXPECT_EQ(class_of("Sleeves"), "sleeve");
    EXPECT_EQ(class_of("J_Sec_L_Sode1"), "sleeve");
    EXPECT_EQ(class_of("Scarves"), "scarf");
    EXPECT_EQ(class_of("Flag"), "flag");
    EXPECT_EQ(class_of("banner_blue"), "banner");  // hangs from its top; a flag flies from a pole
    EXPECT_EQ(class_of("Pennant"), "flag");
    EXPECT_EQ(class_of("Front Sail"), "sail");
    EXPECT_EQ(class_of("Awning_Striped"), "awning");
    EXPECT_EQ(class_of("Bed_Blanket"), "blanket");
    EXPECT_EQ(class_of("tableCloth"), "tablecloth");
    EXPECT_EQ(class_of("Tent"), "-");  // a tent is found by its shape only (a pack's "tent" can be a solid roof)
    EXPECT_EQ(class_of("Curtain_Left"), "curtain");
    EXPECT_EQ(class_of("Couch_Blue"), "-");
    EXPECT_EQ(class_of("knight_texture"), "-");
}

TEST(ClassifyName, LongerMatchWinsSoPonytailIsHairNotTail) {
    EXPECT_EQ(class_of("Pony_Tail_01"), "hair");
    EXPECT_EQ(class_of("Ponytail"), "hair");
    EXPECT_EQ(class_of("Coat_Tail_R"), "coat_tails");
}

TEST(ClassifyName, NonAsciiPatternsMatchAsSubstrings) {
    EXPECT_EQ(class_of("前髪_01"), "hair");
    EXPECT_EQ(class_of("スカート"), "skirt");
    EXPECT_EQ(class_of("顔"), "-");
}

TEST(MatchPattern, WildcardsPluralsAndWordCounts) {
    EXPECT_EQ(match_pattern("braid*", "Braided_L"), 1);
    EXPECT_EQ(match_pattern("braid", "Braided_L"), 0);
    EXPECT_EQ(match_pattern("coat tail", "Coat_Tails"), 2);
    EXPECT_EQ(match_pattern("coat tail", "Tail_Coat"), 0);  // words in order
    EXPECT_EQ(match_pattern("sash", "Sashes"), 1);
    EXPECT_EQ(match_pattern("hair", ""), 0);
}

TEST(CheckPattern, RefusesUnusablePatterns) {
    EXPECT_EQ(check_pattern("hair"), "");
    EXPECT_EQ(check_pattern("braid*"), "");
    EXPECT_EQ(check_pattern("coat tail"), "");
    EXPECT_NE(check_pattern(""), "");
    EXPECT_NE(check_pattern("__"), "");
    EXPECT_NE(check_pattern("ha*ir"), "");
    EXPECT_NE(check_pattern("hair *"), "");
}

TEST(ClassifyName, EarlierClassWinsATie) {
    std::vector<GarmentClass> classes{{"first", {"cloth"}}, {"second", {"cloth"}}};
    EXPECT_EQ(classify_name("Cloth_01", classes), 0);
    EXPECT_EQ(find_class(classes, "second"), 1);
    EXPECT_EQ(find_class(classes, "third"), -1);
}

}  // namespace
}  // namespace weft
