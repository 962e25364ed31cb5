// The content hash (io/content_hash.h): XXH64's reference values, computed with the reference
// library (libxxhash 0.8.1, XXH64(data, len, seed)), so the stamps and sidecars weft writes hash
// the same as every other XXH64 implementation.
#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "io/content_hash.h"

namespace weft {
namespace {

uint64_t hash_of(std::string_view text, uint64_t seed = 0) {
    return xxh64({reinterpret_cast<const uint8_t*>(text.data()), text.size()}, seed);
}

TEST(ContentHash, MatchesTheReferenceOnShortInputs) {
    // Below 32 bytes only the tail steps run: 1-byte, 4-byte and their mix.
    EXPECT_EQ(hash_of(""), 0xef46db3751d8e999ull);
    EXPECT_EQ(hash_of("a"), 0xd24ec4f1a98c6e5bull);
    EXPECT_EQ(hash_of("abc"), 0x44bc2cf5ad770999ull);
    EXPECT_EQ(hash_of("weft"), 0x99c31036b47915a4ull);
}

TEST(ContentHash, MatchesTheReferenceOnStripesAndTails) {
    // 62 bytes: one 32-byte stripe, three 8-byte words, a 4-byte word and two single bytes.
    EXPECT_EQ(hash_of("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"), 0x7639d419de614eedull);
    // 771 bytes, every byte value: 24 stripes and a 3-byte tail, high bytes read as unsigned.
    std::vector<uint8_t> bytes;
    for (int r = 0; r < 3; ++r)
        for (int b = 0; b < 256; ++b) bytes.push_back(static_cast<uint8_t>(b));
    for (char c : std::string_view("xyz")) bytes.push_back(static_cast<uint8_t>(c));
    EXPECT_EQ(xxh64(bytes), 0xe921a1b45bd779f8ull);
}

TEST(ContentHash, SeedAndEveryByteChangeIt) {
    EXPECT_EQ(hash_of("abc", 1), 0xbea9ca8199328908ull);
    std::vector<uint8_t> bytes(100, 7);
    const uint64_t base = xxh64(bytes);
    for (size_t i = 0; i < bytes.size(); ++i) {
        bytes[i] ^= 1;
        EXPECT_NE(xxh64(bytes), base) << "flipping byte " << i;
        bytes[i] ^= 1;
    }
}

TEST(ContentHash, TextIsPrefixedSixteenHexDigits) {
    EXPECT_EQ(content_hash_text(0xef46db3751d8e999ull), "xxh64:ef46db3751d8e999");
    EXPECT_EQ(content_hash_text(0x1ull), "xxh64:0000000000000001");
}

}  // namespace
}  // namespace weft
