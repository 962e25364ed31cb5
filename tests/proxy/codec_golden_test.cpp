// The golden v5 file: testdata/proxy/small.clothproxy is encode_proxy(small_proxy()), byte for byte.
// A change to the format must change this file on purpose: regenerate it (and the fuzz seed corpus)
// with   WEFT_REGENERATE_TESTDATA=1 build/tests/weft_proxy_tests --gtest_filter='CodecGolden.*'
// and bump proxy_format_version when a v1 reader would misread the new bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>

#include "io/atomic_file.h"
#include "proxy/codec_fixtures.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "proxy/core/crc32c.h"
#include "support/paths.h"

namespace weft {
namespace {

uint32_t u32_at(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
uint64_t u64_at(const std::vector<uint8_t>& b, size_t at) { return u32_at(b, at) | uint64_t(u32_at(b, at + 4)) << 32; }

bool regenerate() {
    const char* v = std::getenv("WEFT_REGENERATE_TESTDATA");
    return v && std::string(v) == "1";
}

std::filesystem::path golden_path() { return test::testdata_dir() / "proxy" / "small.clothproxy"; }

TEST(CodecGolden, RegenerateWhenAsked) {
    if (!regenerate()) GTEST_SKIP() << "set WEFT_REGENERATE_TESTDATA=1 to rewrite the golden file and seed corpus";
    ASSERT_EQ(write_file_atomic(golden_path(), std::span<const uint8_t>(encode_proxy(test::small_proxy()))), "");
    const auto corpus = test::source_dir() / "tests" / "fuzz" / "corpus" / "fuzz_proxy_decode";
    const std::pair<const char*, ClothProxy> seeds[] = {{"small.clothproxy", test::small_proxy()},
                                                        {"rig.clothproxy", test::rig_proxy()},
                                                        {"grid5x4.clothproxy", test::grid_proxy(5, 4)},
                                                        {"empty.clothproxy", ClothProxy{}}};
    for (const auto& [name, proxy] : seeds)
        ASSERT_EQ(write_file_atomic(corpus / name, std::span<const uint8_t>(encode_proxy(proxy))), "");
}

TEST(CodecGolden, SmallProxyEncodesToTheGoldenBytes) {
    std::vector<uint8_t> golden;
    ASSERT_EQ(read_file(golden_path(), golden), "");
    std::vector<uint8_t> bytes = encode_proxy(test::small_proxy());
    ASSERT_EQ(bytes.size(), golden.size());
    for (size_t i = 0; i < bytes.size(); ++i) ASSERT_EQ(bytes[i], golden[i]) << "first difference at byte " << i;
}

TEST(CodecGolden, GoldenFileDecodesToTheSmallProxy) {
    DecodeResult r = load_proxy(golden_path());
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.proxy->particle_count(), 7u);
    EXPECT_EQ(r.proxy->colour_ranges, (std::vector<uint32_t>{0, 4, 6, 7}));
    EXPECT_EQ(r.proxy->source_meshes[0].material, "Fahne_\xC3\xA4");
    EXPECT_EQ(r.proxy->pins[0].holder, "Pole");
    EXPECT_EQ(r.proxy->frame.rest_world.m[13], 2.0);
}

TEST(CodecGolden, HeaderAndTableAreLaidOutAsDocumented) {
    // schemas/clothproxy-format.md sections 2-4, read back from the bytes.
    std::vector<uint8_t> b = encode_proxy(test::small_proxy());
    const uint8_t magic[8] = {0x89, 'W', 'C', 'P', 0x0D, 0x0A, 0x1A, 0x0A};
    for (int k = 0; k < 8; ++k) EXPECT_EQ(b[k], magic[k]) << k;
    EXPECT_EQ(u32_at(b, 8), 5u);                                 // format version
    EXPECT_EQ(u32_at(b, 12), crc32c(std::span(b).subspan(16)));  // CRC-32C of bytes 16..end
    EXPECT_EQ(u64_at(b, 16), b.size());                          // file size
    EXPECT_EQ(u32_at(b, 24), 36u);                               // section count
    EXPECT_EQ(u32_at(b, 28), 0u);                                // reserved
    EXPECT_EQ(b.size() % 8, 0u);
    // Entry 0: KIND, u32, 1 element, right after the 36 x 32-byte table, 4 bytes.
    EXPECT_EQ(u32_at(b, 32), uint32_t('K' | 'I' << 8 | 'N' << 16 | 'D' << 24));
    EXPECT_EQ(u32_at(b, 36), 2u);
    EXPECT_EQ(u64_at(b, 40), 1u);
    EXPECT_EQ(u64_at(b, 48), 32u + 36u * 32u);
    EXPECT_EQ(u64_at(b, 56), 4u);
    // Entry 11: RPOS, f64x3, 7 particles x 24 bytes; particle 4's z is -0.0 (sign bit only).
    const size_t rpos = 32 + 11 * 32;
    EXPECT_EQ(u32_at(b, rpos), uint32_t('R' | 'P' << 8 | 'O' << 16 | 'S' << 24));
    EXPECT_EQ(u32_at(b, rpos + 4), 7u);
    EXPECT_EQ(u64_at(b, rpos + 8), 7u);
    EXPECT_EQ(u64_at(b, rpos + 24), 168u);
    const uint64_t z4 = u64_at(b, u64_at(b, rpos + 16) + 4 * 24 + 16);
    EXPECT_EQ(z4, 0x8000000000000000ull);
    // Entry 15: DGEO; particle 3 is +inf (0x7FF0...).
    const size_t dgeo = 32 + 15 * 32;
    EXPECT_EQ(u32_at(b, dgeo), uint32_t('D' | 'G' << 8 | 'E' << 16 | 'O' << 24));
    EXPECT_EQ(u64_at(b, u64_at(b, dgeo + 16) + 3 * 8), 0x7FF0000000000000ull);
    // Entry 26: BREF, f64, one per hinge: the source sheet's hinge area where each lies.
    const size_t bref = 32 + 26 * 32;
    EXPECT_EQ(u32_at(b, bref), uint32_t('B' | 'R' << 8 | 'E' << 16 | 'F' << 24));
    EXPECT_EQ(u64_at(b, bref + 8), 1u);
    uint64_t bits;
    const double area = test::small_proxy().hinge_reference_area.at(0);
    std::memcpy(&bits, &area, 8);
    EXPECT_EQ(u64_at(b, u64_at(b, bref + 16)), bits);
    // Every section starts 8-byte aligned, packed in table order.
    uint64_t expected = 32 + 36 * 32;
    for (size_t i = 0; i < 36; ++i) {
        const size_t e = 32 + i * 32;
        EXPECT_EQ(u64_at(b, e + 16), expected) << "entry " << i;
        expected = (u64_at(b, e + 16) + u64_at(b, e + 24) + 7) / 8 * 8;
    }
    EXPECT_EQ(expected, b.size());
    // Entries 34 and 35: VLNK (u32x3) and VPOS (f64x3), one per virtual particle: none on the sheet, two
    // on the rig, the second carried by particle 3 and turning with the link (2, 3).
    EXPECT_EQ(u32_at(b, 32 + 34 * 32), uint32_t('V' | 'L' << 8 | 'N' << 16 | 'K' << 24));
    EXPECT_EQ(u64_at(b, 32 + 34 * 32 + 8), 0u);
    const std::vector<uint8_t> rig = encode_proxy(test::rig_proxy());
    const size_t vlnk = 32 + 34 * 32, vpos = 32 + 35 * 32;
    EXPECT_EQ(u32_at(rig, vlnk + 4), 5u);
    EXPECT_EQ(u64_at(rig, vlnk + 8), 2u);
    EXPECT_EQ(u64_at(rig, vlnk + 24), 24u);
    const uint64_t second = u64_at(rig, vlnk + 16) + 12;
    EXPECT_EQ(u32_at(rig, second), 3u);
    EXPECT_EQ(u32_at(rig, second + 4), 2u);
    EXPECT_EQ(u32_at(rig, second + 8), 3u);
    EXPECT_EQ(u32_at(rig, vpos), uint32_t('V' | 'P' << 8 | 'O' << 16 | 'S' << 24));
    EXPECT_EQ(u32_at(rig, vpos + 4), 7u);
    EXPECT_EQ(u64_at(rig, vpos + 24), 48u);
}

TEST(Crc32c, KnownAnswers) {
    const std::string check = "123456789";
    std::span<const uint8_t> s(reinterpret_cast<const uint8_t*>(check.data()), check.size());
    EXPECT_EQ(crc32c(s), 0xE3069283u);  // the CRC catalogue's check value for CRC-32C
    EXPECT_EQ(crc32c_portable(s), 0xE3069283u);
    EXPECT_EQ(crc32c({}), 0u);
    std::vector<uint8_t> zeros(32, 0);
    EXPECT_EQ(crc32c(zeros), 0x8A9136AAu);  // RFC 3720 B.4: 32 bytes of zeros
    std::vector<uint8_t> ones(32, 0xFF);
    EXPECT_EQ(crc32c(ones), 0x62A8AB43u);   // RFC 3720 B.4: 32 bytes of 0xFF
}

TEST(Crc32c, HardwareAndPortableAgreeAndChain) {
    std::mt19937 rng(7);
    std::vector<uint8_t> buf(4099);
    for (auto& v : buf) v = static_cast<uint8_t>(rng());
    for (size_t len : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 1000u, 4099u}) {
        std::span<const uint8_t> s(buf.data(), len);
        EXPECT_EQ(crc32c(s), crc32c_portable(s)) << len;
        for (size_t cut : {size_t(0), len / 3, len})
            EXPECT_EQ(crc32c(s.subspan(cut), crc32c(s.first(cut))), crc32c(s)) << len << " " << cut;
    }
}

}  // namespace
}  // namespace weft
