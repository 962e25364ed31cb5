// Encode -> decode -> encode is exact and deterministic; files round trip through save/load.
#include <gtest/gtest.h>

#include <cmath>

#include "io/atomic_file.h"
#include "proxy/codec_fixtures.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "proxy/core/proxy_check.h"
#include "support/paths.h"

namespace weft {
namespace {

using test::bits_equal;

// Every field, doubles by bit pattern: a decoded proxy must be the encoded one exactly.
void expect_identical(const ClothProxy& a, const ClothProxy& b) {
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.garment, b.garment);
    EXPECT_EQ(a.garment_class, b.garment_class);
    EXPECT_EQ(a.suggested_fabric, b.suggested_fabric);
    EXPECT_EQ(a.source_file, b.source_file);
    ASSERT_EQ(a.source_meshes.size(), b.source_meshes.size());
    for (size_t i = 0; i < a.source_meshes.size(); ++i) {
        EXPECT_EQ(a.source_meshes[i].name, b.source_meshes[i].name);
        EXPECT_EQ(a.source_meshes[i].material, b.source_meshes[i].material);
        EXPECT_EQ(a.source_meshes[i].vertex_offset, b.source_meshes[i].vertex_offset);
        EXPECT_EQ(a.source_meshes[i].vertex_count, b.source_meshes[i].vertex_count);
    }
    EXPECT_EQ(a.builder_options, b.builder_options);
    EXPECT_EQ(a.frame.node, b.frame.node);
    for (int k = 0; k < 16; ++k) EXPECT_TRUE(bits_equal(a.frame.rest_world.m[k], b.frame.rest_world.m[k])) << k;
    ASSERT_EQ(a.rest_position.size(), b.rest_position.size());
    for (size_t i = 0; i < a.rest_position.size(); ++i)
        for (int k = 0; k < 3; ++k) EXPECT_TRUE(bits_equal(a.rest_position[i][k], b.rest_position[i][k])) << i;
    auto same_doubles = [](const std::vector<double>& x, const std::vector<double>& y) {
        if (x.size() != y.size()) return false;
        for (size_t i = 0; i < x.size(); ++i)
            if (!bits_equal(x[i], y[i])) return false;
        return true;
    };
    EXPECT_TRUE(same_doubles(a.inverse_mass, b.inverse_mass));
    EXPECT_TRUE(same_doubles(a.d_geo, b.d_geo));
    EXPECT_TRUE(same_doubles(a.rest_length, b.rest_length));
    EXPECT_TRUE(same_doubles(a.skip_rest_length, b.skip_rest_length));
    EXPECT_TRUE(bits_equal(a.total_mass, b.total_mass));
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.joint_name, b.joint_name);
    EXPECT_EQ(a.nearest_held, b.nearest_held);
    EXPECT_EQ(a.colour_ranges, b.colour_ranges);
    EXPECT_EQ(a.edges, b.edges);
    EXPECT_EQ(a.skips, b.skips);
    EXPECT_EQ(a.hinges, b.hinges);
    EXPECT_EQ(a.triangles, b.triangles);
    ASSERT_EQ(a.pins.size(), b.pins.size());
    for (size_t i = 0; i < a.pins.size(); ++i) {
        EXPECT_EQ(a.pins[i].holder, b.pins[i].holder);
        EXPECT_EQ(a.pins[i].particles, b.pins[i].particles);
    }
    EXPECT_EQ(a.vertex_particle, b.vertex_particle);
}

void expect_round_trip(const ClothProxy& proxy) {
    ASSERT_EQ(check_proxy(proxy), "");
    std::vector<uint8_t> bytes = encode_proxy(proxy);
    DecodeResult r = decode_proxy(bytes);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_EQ(r.code, ProxyError::ok);
    EXPECT_EQ(r.error, "");
    expect_identical(proxy, *r.proxy);
    EXPECT_EQ(encode_proxy(*r.proxy), bytes);  // byte-identical re-encode
    EXPECT_EQ(encode_proxy(proxy), bytes);     // deterministic
}

TEST(CodecRoundTrip, SmallSheetIsExact) { expect_round_trip(test::small_proxy()); }
TEST(CodecRoundTrip, RigChainIsExact) { expect_round_trip(test::rig_proxy()); }
TEST(CodecRoundTrip, GridSheetIsExact) { expect_round_trip(test::grid_proxy(17, 9)); }
TEST(CodecRoundTrip, EmptyProxyIsExact) { expect_round_trip(ClothProxy{}); }

TEST(CodecRoundTrip, NegativeZeroAndInfinityKeepTheirBits) {
    ClothProxy p = test::small_proxy();
    DecodeResult r = decode_proxy(encode_proxy(p));
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_TRUE(std::signbit(r.proxy->rest_position[4].z));
    EXPECT_EQ(r.proxy->rest_position[4].z, 0.0);
    EXPECT_EQ(r.proxy->d_geo[3], INFINITY);
    EXPECT_EQ(r.proxy->nearest_held[3], no_particle);
    EXPECT_TRUE(bits_equal(r.proxy->total_mass, 4 * 0.25 + 3 * 0.1));
}

TEST(CodecRoundTrip, EveryDoubleBitPatternThatIsAllowedSurvives) {
    // Subnormals, the largest finite double and values that print badly all come back bit for bit.
    ClothProxy p = test::small_proxy();
    p.rest_position[2] = {std::nextafter(0.0, 1.0), 1.7976931348623157e308, -2.2250738585072014e-308};
    p.rest_position[5] = {0.1, 1.0 / 3.0, -0.0};
    p.frame.rest_world.m[12] = -1e-300;
    expect_round_trip(p);
}

TEST(CodecFile, SaveThenLoadRoundTrips) {
    auto dir = test::scratch_dir("codec_save_load");
    ClothProxy p = test::small_proxy();
    ASSERT_EQ(save_proxy(p, dir / "nested" / "Flag.clothproxy"), "");
    DecodeResult r = load_proxy(dir / "nested" / "Flag.clothproxy");
    ASSERT_TRUE(r.ok()) << r.error;
    expect_identical(p, *r.proxy);
}

TEST(CodecFile, SaveRefusesAnUnsoundProxyAndWritesNothing) {
    auto dir = test::scratch_dir("codec_save_refuses");
    ClothProxy p = test::small_proxy();
    p.edges[0] = {0, 70};
    std::string err = save_proxy(p, dir / "bad.clothproxy");
    EXPECT_NE(err.find("bad.clothproxy"), std::string::npos) << err;
    EXPECT_NE(err.find("INDEX_OUT_OF_RANGE"), std::string::npos) << err;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad.clothproxy"));
}

TEST(CodecFile, LoadNamesAMissingFile) {
    auto dir = test::scratch_dir("codec_load_missing");
    DecodeResult r = load_proxy(dir / "absent.clothproxy");
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.code, ProxyError::unreadable);
    EXPECT_NE(r.error.find("absent.clothproxy"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("UNREADABLE"), std::string::npos) << r.error;
}

TEST(CodecFile, LoadNamesTheFileOfABadProxy) {
    auto dir = test::scratch_dir("codec_load_bad");
    std::vector<uint8_t> bytes = encode_proxy(test::small_proxy());
    bytes.pop_back();
    ASSERT_EQ(write_file_atomic(dir / "short.clothproxy", std::span<const uint8_t>(bytes)), "");
    DecodeResult r = load_proxy(dir / "short.clothproxy");
    EXPECT_EQ(r.code, ProxyError::truncated);
    EXPECT_EQ(r.error.rfind((dir / "short.clothproxy").string() + ": TRUNCATED at byte " +
                                std::to_string(bytes.size()), 0),
              0u)
        << r.error;
}

}  // namespace
}  // namespace weft
