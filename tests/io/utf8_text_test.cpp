// The two repairs of io/utf8_text.h: escaped bytes for file names, U+FFFD for names in models.
#include <gtest/gtest.h>

#include "io/utf8_text.h"

namespace weft {
namespace {

TEST(Utf8Text, ValidTextIsKeptByBothRepairs) {
    for (const std::string s : {"", "plain", "Z\xC3\xBCrich", "\xE2\x82\xAC", "\xF0\x9F\x98\x80"}) {
        EXPECT_TRUE(is_valid_utf8(s)) << s;
        EXPECT_EQ(utf8_escaped(s), s);
        EXPECT_EQ(valid_utf8(s), s);
    }
}

TEST(Utf8Text, IllFormedSequencesAreRefused) {
    // A Latin-1 byte, an overlong '/', a surrogate, past U+10FFFF, a truncated sequence.
    for (const std::string s : {"caf\xE9", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "a\xE2\x82"})
        EXPECT_FALSE(is_valid_utf8(s)) << s;
}

TEST(Utf8Text, FileNamesKeepTheirBytesAsHexEscapes) {
    EXPECT_EQ(utf8_escaped("caf\xE9.glb"), "caf\\xE9.glb");
    EXPECT_EQ(utf8_escaped("a\xE2\x82"), "a\\xE2\\x82");
    EXPECT_TRUE(is_valid_utf8(utf8_escaped("\xFF\xFE\xC3\xBC")));
    EXPECT_EQ(utf8_escaped("\xFF\xC3\xBC"), "\\xFF\xC3\xBC");  // the valid pair after it is kept
}

TEST(Utf8Text, ModelNamesGetOneReplacementPerMaximalSubpart) {
    const std::string fffd = "\xEF\xBF\xBD";
    EXPECT_EQ(valid_utf8("caf\xE9"), "caf" + fffd);
    EXPECT_EQ(valid_utf8("a\xE2\x82"), "a" + fffd);                  // E2 82 is one maximal subpart
    EXPECT_EQ(valid_utf8("\xC0\xAF"), fffd + fffd);                  // C0 starts nothing: two
    EXPECT_EQ(valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);       // a surrogate's bytes, one each
}

}  // namespace
}  // namespace weft
