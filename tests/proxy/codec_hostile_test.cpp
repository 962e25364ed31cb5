// The loader is the attack surface (docs/architecture.md#files): truncated, oversized, inconsistent and hostile
// files are refused with a named error, a section and a byte offset; never a crash, an out-of-bounds
// read (every prefix is decoded from a heap block of exactly its size, so ASan sees a one-byte
// overrun) or an allocation the file's size does not bound.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <set>

#include "io/atomic_file.h"
#include "proxy/codec_fixtures.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "support/paths.h"

// --- allocation accounting: the largest single request and the total while armed -----------------
// The replacement operator new/delete pair is malloc/free on purpose; GCC, seeing both inlined,
// takes it for a mismatched pair.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
namespace {
std::atomic<bool> g_counting{false};
std::atomic<size_t> g_largest{0};
std::atomic<size_t> g_total{0};
}  // namespace

void* operator new(size_t size) {
    if (g_counting.load(std::memory_order_relaxed)) {
        g_total += size;
        size_t prev = g_largest.load();
        while (size > prev && !g_largest.compare_exchange_weak(prev, size)) {
        }
    }
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): every form that reaches
// the replaced operator delete must come from the replaced operator new.
void* operator new(size_t size, const std::nothrow_t&) noexcept {
    try {
        return ::operator new(size);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace weft {
namespace {

struct Allocations {
    size_t largest = 0;
    size_t total = 0;
};

template <typename F>
Allocations count_allocations(F&& f) {
    g_largest = 0;
    g_total = 0;
    g_counting = true;
    f();
    g_counting = false;
    return {g_largest.load(), g_total.load()};
}

// --- byte surgery on valid files ------------------------------------------------------------------

uint32_t get32(const std::vector<uint8_t>& b, size_t at) {
    return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
uint64_t get64(const std::vector<uint8_t>& b, size_t at) { return get32(b, at) | uint64_t(get32(b, at + 4)) << 32; }
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int k = 0; k < 4; ++k) b[at + k] = static_cast<uint8_t>(v >> (8 * k));
}
void put64(std::vector<uint8_t>& b, size_t at, uint64_t v) {
    put32(b, at, static_cast<uint32_t>(v));
    put32(b, at + 4, static_cast<uint32_t>(v >> 32));
}
void reseal(std::vector<uint8_t>& b) { put32(b, 12, proxy_checksum(b)); }

constexpr uint32_t tag(const char (&s)[5]) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
           uint32_t(uint8_t(s[3])) << 24;
}

// Table entry of the section with `t` in a file encode_proxy wrote.
size_t entry_of(const std::vector<uint8_t>& b, uint32_t t) {
    for (size_t i = 0; i < get32(b, 24); ++i)
        if (get32(b, 32 + 32 * i) == t) return 32 + 32 * i;
    ADD_FAILURE() << "no such section";
    return 0;
}
uint64_t data_of(const std::vector<uint8_t>& b, uint32_t t) { return get64(b, entry_of(b, t) + 16); }

// A file as its sections, to drop, duplicate, retag or resize them and lay the file out again.
struct RawSection {
    uint32_t tag;
    uint32_t type;
    uint64_t count;
    std::vector<uint8_t> payload;
};

std::vector<RawSection> split(const std::vector<uint8_t>& b) {
    std::vector<RawSection> s;
    for (size_t i = 0; i < get32(b, 24); ++i) {
        size_t e = 32 + 32 * i;
        uint64_t off = get64(b, e + 16), size = get64(b, e + 24);
        s.push_back({get32(b, e), get32(b, e + 4), get64(b, e + 8),
                     std::vector<uint8_t>(b.begin() + off, b.begin() + off + size)});
    }
    return s;
}

std::vector<uint8_t> assemble(const std::vector<RawSection>& sections) {
    std::vector<uint8_t> b(32 + 32 * sections.size(), 0);
    const uint8_t magic[8] = {0x89, 'W', 'C', 'P', 0x0D, 0x0A, 0x1A, 0x0A};
    std::memcpy(b.data(), magic, 8);
    put32(b, 8, proxy_format_version);
    put32(b, 24, static_cast<uint32_t>(sections.size()));
    for (size_t i = 0; i < sections.size(); ++i) {
        size_t e = 32 + 32 * i;
        put32(b, e, sections[i].tag);
        put32(b, e + 4, sections[i].type);
        put64(b, e + 8, sections[i].count);
        put64(b, e + 16, b.size());
        put64(b, e + 24, sections[i].payload.size());
        b.insert(b.end(), sections[i].payload.begin(), sections[i].payload.end());
        b.resize((b.size() + 7) / 8 * 8, 0);
    }
    put64(b, 16, b.size());
    reseal(b);
    return b;
}

RawSection& section(std::vector<RawSection>& s, uint32_t t) {
    for (auto& r : s)
        if (r.tag == t) return r;
    throw std::runtime_error("no such section");
}

std::vector<uint8_t> golden() { return encode_proxy(test::small_proxy()); }

DecodeResult decode_exact(const std::vector<uint8_t>& bytes, size_t len) {
    // A heap block of exactly `len` bytes: one byte read past it is an ASan report.
    std::unique_ptr<uint8_t[]> block(new uint8_t[len]);
    if (len) std::memcpy(block.get(), bytes.data(), len);
    return decode_proxy(std::span<const uint8_t>(block.get(), len));
}

// --- truncated, extended, flipped ---------------------------------------------------------------

TEST(CodecHostile, EveryTruncatedPrefixFailsAsTruncated) {
    for (const ClothProxy& proxy : {test::small_proxy(), test::rig_proxy(), test::grid_proxy(6, 5)}) {
        std::vector<uint8_t> bytes = encode_proxy(proxy);
        for (size_t len = 0; len < bytes.size(); ++len) {
            DecodeResult r = decode_exact(bytes, len);
            ASSERT_FALSE(r.ok()) << len;
            ASSERT_EQ(r.code, ProxyError::truncated) << len << ": " << r.error;
            ASSERT_EQ(r.offset, len) << r.error;
            ASSERT_FALSE(r.error.empty());
        }
        EXPECT_TRUE(decode_exact(bytes, bytes.size()).ok());
    }
}

TEST(CodecHostile, OneExtraByteFailsAsTrailing) {
    std::vector<uint8_t> bytes = golden();
    const size_t size = bytes.size();
    bytes.push_back(0);
    DecodeResult r = decode_exact(bytes, bytes.size());
    EXPECT_EQ(r.code, ProxyError::trailing_bytes) << r.error;
    EXPECT_EQ(r.offset, size);
    EXPECT_EQ(r.error, "TRAILING_BYTES at byte " + std::to_string(size) + " (header): 1 bytes after the " +
                           std::to_string(size) + " the header declares");
}

TEST(CodecHostile, EveryFlippedByteIsRefusedByTheRightCheck) {
    const std::vector<uint8_t> good = golden();
    for (size_t i = 0; i < good.size(); ++i) {
        std::vector<uint8_t> bytes = good;
        bytes[i] ^= 0x10;
        DecodeResult r = decode_exact(bytes, bytes.size());
        ASSERT_FALSE(r.ok()) << "flipping byte " << i << " went unnoticed";
        ProxyError expected = i < 8    ? ProxyError::bad_magic
                              : i < 12 ? ProxyError::unsupported_version
                              : i < 16 ? ProxyError::checksum_mismatch
                              : i < 24 ? ProxyError::trailing_bytes  // file size 0x10 smaller or larger
                                       : ProxyError::checksum_mismatch;
        if (i >= 16 && i < 24 && (good[i] & 0x10) == 0) expected = ProxyError::truncated;
        ASSERT_EQ(r.code, expected) << "byte " << i << ": " << r.error;
    }
}

TEST(CodecHostile, RejectsWrongMagicVersionAndChecksumByName) {
    std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    DecodeResult r = decode_exact(png, png.size());
    EXPECT_EQ(r.code, ProxyError::bad_magic);
    EXPECT_EQ(r.offset, 1u);
    EXPECT_EQ(r.section, "header");

    std::vector<uint8_t> v6 = golden();
    put32(v6, 8, 6);
    r = decode_exact(v6, v6.size());
    EXPECT_EQ(r.code, ProxyError::unsupported_version);
    EXPECT_EQ(r.error, "UNSUPPORTED_VERSION at byte 8 (header): format version 6, this reader knows version 5 only");

    // A file of the fourth version (before virtual particles) is refused by name, with the fix.
    std::vector<uint8_t> v4 = golden();
    put32(v4, 8, 4);
    r = decode_exact(v4, v4.size());
    EXPECT_EQ(r.code, ProxyError::unsupported_version);
    EXPECT_NE(r.error.find("format version 4, written before a rig's render vertices far off their links were collided "
                           "as virtual particles"),
              std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("Build the proxy again with this weft"), std::string::npos) << r.error;

    // A file of the third version (before hinges were scaled to the source mesh) is refused by name, with the fix.
    std::vector<uint8_t> v3 = golden();
    put32(v3, 8, 3);
    r = decode_exact(v3, v3.size());
    EXPECT_EQ(r.code, ProxyError::unsupported_version);
    EXPECT_NE(r.error.find("format version 3, written before a sheet's hinges were scaled to its source mesh's hinge area"),
              std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("Build the proxy again with this weft"), std::string::npos) << r.error;

    // A file of the second version (before particles carried a collision radius) is refused by name, with the fix.
    std::vector<uint8_t> v2 = golden();
    put32(v2, 8, 2);
    r = decode_exact(v2, v2.size());
    EXPECT_EQ(r.code, ProxyError::unsupported_version);
    EXPECT_NE(r.error.find("format version 2, written before particles carried a collision radius"), std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("Build the proxy again with this weft"), std::string::npos) << r.error;

    // A file of the first version (before the render mesh was bound) is refused by name, with the fix.
    std::vector<uint8_t> v1 = golden();
    put32(v1, 8, 1);
    r = decode_exact(v1, v1.size());
    EXPECT_EQ(r.code, ProxyError::unsupported_version);
    EXPECT_NE(r.error.find("format version 1, written before the render mesh was bound"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("Build the proxy again with this weft"), std::string::npos) << r.error;

    std::vector<uint8_t> crc = golden();
    put32(crc, 12, get32(crc, 12) ^ 1);
    r = decode_exact(crc, crc.size());
    EXPECT_EQ(r.code, ProxyError::checksum_mismatch);
    EXPECT_EQ(r.offset, 12u);
}

// --- hostile counts: refused before anything is allocated ---------------------------------------

TEST(CodecHostile, FourByteFileFailsWithoutAllocatingMuch) {
    std::vector<uint8_t> tiny = {0x89, 'W', 'C', 'P'};
    DecodeResult r;
    Allocations a = count_allocations([&] { r = decode_exact(tiny, tiny.size()); });
    EXPECT_EQ(r.code, ProxyError::truncated);
    EXPECT_LT(a.largest, 1024u);
}

TEST(CodecHostile, HugeElementCountFailsFastWithoutAllocating) {
    for (uint64_t count : {uint64_t(1) << 31, uint64_t(1) << 32, ~uint64_t(0), ~uint64_t(0) / 24 + 1}) {
        std::vector<uint8_t> bytes = golden();
        put64(bytes, entry_of(bytes, tag("RPOS")) + 8, count);
        reseal(bytes);
        DecodeResult r;
        Allocations a = count_allocations([&] { r = decode_exact(bytes, bytes.size()); });
        EXPECT_EQ(r.code, ProxyError::bad_section) << r.error;
        EXPECT_EQ(r.offset, entry_of(bytes, tag("RPOS")) + 8);
        EXPECT_LT(a.largest, 4096u) << "count " << count;
    }
}

TEST(CodecHostile, HugeSectionSizeAndTableFailWithoutAllocating) {
    std::vector<uint8_t> bytes = golden();
    put64(bytes, entry_of(bytes, tag("EDGE")) + 24, uint64_t(1) << 62);
    reseal(bytes);
    DecodeResult r;
    Allocations a = count_allocations([&] { r = decode_exact(bytes, bytes.size()); });
    EXPECT_EQ(r.code, ProxyError::bad_section) << r.error;
    EXPECT_NE(r.error.find("run past the end"), std::string::npos) << r.error;
    EXPECT_LT(a.largest, 4096u);

    bytes = golden();
    put32(bytes, 24, 0xFFFFFFFFu);  // a table of 2^32 - 1 entries
    reseal(bytes);
    a = count_allocations([&] { r = decode_exact(bytes, bytes.size()); });
    EXPECT_EQ(r.code, ProxyError::bad_section) << r.error;
    EXPECT_EQ(r.offset, 24u);
    EXPECT_LT(a.largest, 4096u);
}

TEST(CodecHostile, HugeStringCountsAndLengthsFailWithoutAllocating) {
    std::vector<uint8_t> bytes = golden();
    put64(bytes, entry_of(bytes, tag("JNTN")) + 8, uint64_t(1) << 31);
    reseal(bytes);
    DecodeResult r;
    Allocations a = count_allocations([&] { r = decode_exact(bytes, bytes.size()); });
    EXPECT_EQ(r.code, ProxyError::bad_section) << r.error;
    EXPECT_LT(a.largest, 4096u);

    auto s = split(golden());
    RawSection& holders = section(s, tag("PINH"));
    put32(holders.payload, 0, 0xFFFFFFFFu);  // the first holder claims 4 GiB - 1 bytes
    bytes = assemble(s);
    a = count_allocations([&] { r = decode_exact(bytes, bytes.size()); });
    EXPECT_EQ(r.code, ProxyError::bad_string) << r.error;
    EXPECT_EQ(r.offset, data_of(bytes, tag("PINH")));
    EXPECT_LT(a.largest, 4096u);
}

TEST(CodecHostile, ValidDecodeAllocatesWithinABoundOfTheFileSize) {
    // The worst a file can make the decoder allocate is a list of empty strings (32 bytes of
    // std::string per 4 bytes of file) and the coupling graph of its rows.
    std::vector<uint8_t> bytes = encode_proxy(test::grid_proxy(40, 40));
    DecodeResult r;
    Allocations a = count_allocations([&] { r = decode_exact(bytes, bytes.size()); });
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_LT(a.total, 16 * bytes.size());

    auto s = split(golden());
    RawSection& joints = section(s, tag("JNTN"));
    joints.count = 50000;
    joints.payload.assign(4 * 50000, 0);
    bytes = assemble(s);
    a = count_allocations([&] { r = decode_exact(bytes, bytes.size()); });
    EXPECT_EQ(r.code, ProxyError::count_mismatch) << r.error;  // 50000 names for 7 particles
    EXPECT_LT(a.total, 16 * bytes.size());
}

// --- one file per named error ---------------------------------------------------------------------

struct NamedErrorCase {
    ProxyError code;
    std::function<std::vector<uint8_t>()> make;
    std::function<uint64_t(const std::vector<uint8_t>&)> offset;  ///< where the error must point
    std::string section;
    std::string says;  ///< a fragment the message must contain
};

std::vector<uint8_t> encoded(const std::function<void(ClothProxy&)>& edit) {
    ClothProxy p = test::small_proxy();
    edit(p);
    return encode_proxy(p);
}

std::vector<uint8_t> retabled(const std::function<void(std::vector<RawSection>&)>& edit) {
    auto s = split(golden());
    edit(s);
    return assemble(s);
}

auto at(uint64_t v) {
    return [v](const std::vector<uint8_t>&) { return v; };
}
auto in(uint32_t t, uint64_t element_bytes = 0) {
    return [t, element_bytes](const std::vector<uint8_t>& b) { return data_of(b, t) + element_bytes; };
}

std::vector<NamedErrorCase> named_error_cases() {
    const size_t golden_size = golden().size();
    return {
        {ProxyError::bad_magic, [] { auto b = golden(); b[3] = 'Q'; return b; }, at(3), "header", "not a .clothproxy"},
        {ProxyError::unsupported_version, [] { auto b = golden(); put32(b, 8, 0); return b; }, at(8), "header", "version 0"},
        {ProxyError::bad_header, [] { auto b = golden(); put32(b, 28, 7); reseal(b); return b; }, at(28), "header", "reserved"},
        {ProxyError::bad_header,
         [] { auto b = golden(); b.resize(b.size() + 4); put64(b, 16, b.size()); reseal(b); return b; },
         at(16), "header", "not a multiple of 8"},
        {ProxyError::truncated, [] { auto b = golden(); return std::vector<uint8_t>(b.begin(), b.end() - 8); }, at(golden_size - 8), "header",
         "declares " + std::to_string(golden_size)},
        {ProxyError::trailing_bytes, [] { auto b = golden(); b.resize(b.size() + 8); return b; }, at(golden_size), "header",
         "8 bytes after"},
        {ProxyError::trailing_bytes,
         [] { auto b = golden(); b.resize(b.size() + 8); put64(b, 16, b.size()); reseal(b); return b; },
         at(golden_size), "section table", "8 bytes after the last section"},
        {ProxyError::checksum_mismatch, [] { auto b = golden(); b[b.size() - 9] ^= 0xFF; return b; }, at(12), "header",
         "CRC-32C"},
        {ProxyError::bad_section, [] { return retabled([](auto& s) { s[4].tag = tag("ZZZZ"); }); }, at(32 + 4 * 32),
         "section table", "entry 4 (ZZZZ): unknown tag"},
        {ProxyError::bad_section, [] { return retabled([](auto& s) { s[4].tag = 0x01020304; }); }, at(32 + 4 * 32),
         "section table", "(0x01020304): unknown tag"},
        {ProxyError::bad_section, [] { return retabled([](auto& s) { section(s, tag("EDGE")).type = 5; }); },
         [](const auto& b) { return entry_of(b, tag("EDGE")) + 4; }, "section table", "element type 5, expected 4 (u32x2)"},
        {ProxyError::bad_section,
         [] { auto b = golden(); size_t e = entry_of(b, tag("IMAS")); put64(b, e + 16, get64(b, e + 16) + 8); reseal(b); return b; },
         [](const auto& b) { return entry_of(b, tag("IMAS")) + 16; }, "section table", "sections are packed"},
        {ProxyError::bad_section,
         [] { auto b = golden(); size_t e = entry_of(b, tag("RPOS")); put64(b, e + 8, get64(b, e + 8) - 1); reseal(b); return b; },
         [](const auto& b) { return entry_of(b, tag("RPOS")) + 8; }, "section table", "do not fit its 168 bytes"},
        {ProxyError::bad_section, [] { return retabled([](auto& s) { section(s, tag("MASS")).count = 2;
                                                                     section(s, tag("MASS")).payload.resize(16); }); },
         [](const auto& b) { return entry_of(b, tag("MASS")) + 8; }, "section table", "must be exactly 1"},
        {ProxyError::bad_section,
         [] { auto b = golden(); b[data_of(b, tag("GRMT")) + 4] = 1; reseal(b); return b; },  // "Flag" + padding
         in(tag("GRMT"), 4), "GRMT", "padding byte"},
        {ProxyError::bad_section, [] { return retabled([](auto& s) { section(s, tag("PINH")).payload.push_back(0); }); },
         in(tag("PINH"), 8), "PINH, pins", "1 bytes left over"},
        {ProxyError::duplicate_section, [] { return retabled([](auto& s) { s.insert(s.begin() + 1, s[0]); }); },
         at(32 + 32), "section table", "appears twice"},
        {ProxyError::missing_section, [] { return retabled([](auto& s) { s.pop_back(); }); }, at(24), "section table",
         "VPOS (virtual_rest_position) is missing"},
        {ProxyError::missing_section, [] { return retabled([](auto& s) { s.erase(s.begin() + 2); }); }, at(32 + 2 * 32),
         "section table", "CLAS (class) is missing before it"},
        {ProxyError::bad_string, [] { return encoded([](ClothProxy& p) { p.garment = "Fl\xFF" "ag"; }); },
         in(tag("GRMT")), "GRMT, garment", "not clean UTF-8"},
        {ProxyError::bad_string, [] { return encoded([](ClothProxy& p) { p.pins[0].holder = std::string("Po\0le", 5); }); },
         in(tag("PINH")), "PINH, pins", "string 0 is not clean UTF-8"},
        {ProxyError::bad_string, [] { return encoded([](ClothProxy& p) { p.source_meshes[1].material = "\xC0\xAF"; }); },
         in(tag("SMMT"), 4 + 8), "SMMT, source_meshes", "string 1"},  // after "Fahne_ä", 8 bytes
        {ProxyError::count_mismatch, [] { return encoded([](ClothProxy& p) { p.inverse_mass.pop_back(); }); },
         in(tag("IMAS")), "IMAS, inverse_mass", "6 entries for 7 particles"},
        {ProxyError::count_mismatch, [] { return encoded([](ClothProxy& p) { p.source_meshes[1].vertex_count = 4; }); },
         in(tag("VPRT")), "VPRT, vertex_particle", "source_meshes cover 9"},
        {ProxyError::count_mismatch, [] { return retabled([](auto& s) { auto& c = section(s, tag("PINC")); c.payload[0] = 3; }); },
         in(tag("PINC")), "PINC, pins", "add up to 3, PINP holds 2"},
        {ProxyError::count_mismatch, [] { return retabled([](auto& s) { auto& m = section(s, tag("SMVR")); m.count = 1;
                                                                        m.payload.resize(8); }); },
         in(tag("SMVR")), "SMVR, source_meshes", "1 entries for 2 source meshes"},
        {ProxyError::index_out_of_range, [] { return encoded([](ClothProxy& p) { p.edges[5] = {3, 7}; }); },
         in(tag("EDGE"), 5 * 8), "EDGE, edges", "edges[5] = (3, 7): particle 7 out of range (7 particles)"},
        {ProxyError::index_out_of_range, [] { return encoded([](ClothProxy& p) { p.hinges[0][3] = 4000000000u; }); },
         in(tag("HNGE")), "HNGE, hinges", "particle 4000000000 out of range"},
        {ProxyError::index_out_of_range, [] { return encoded([](ClothProxy& p) { p.vertex_particle[6] = 9; }); },
         in(tag("VPRT"), 6 * 4), "VPRT, vertex_particle", "vertex_particle[6] = 9"},
        {ProxyError::index_out_of_range,
         [] { return encoded([](ClothProxy& p) { p.virtual_link = {{0, 0, 2}, {2, 4, 7}}; p.virtual_rest_position.assign(2, {}); }); },
         in(tag("VLNK"), 1 * 12), "VLNK, virtual_link", "virtual_link[1] = (2, 4, 7): particle 7 out of range"},
        {ProxyError::index_out_of_range, [] { return encoded([](ClothProxy& p) { p.source[3] = 8; }); },
         in(tag("PSRC"), 3 * 4), "PSRC, source", "source[3] = 8 out of range (8 source vertices)"},
        {ProxyError::non_finite, [] { return encoded([](ClothProxy& p) { p.rest_position[5].y = NAN; }); },
         in(tag("RPOS"), 5 * 24), "RPOS, rest_position", "rest_position[5]"},
        {ProxyError::non_finite, [] { return encoded([](ClothProxy& p) { p.rest_length[2] = INFINITY; }); },
         in(tag("ELEN"), 2 * 8), "ELEN, rest_length", "rest_length[2] = inf is not finite"},
        {ProxyError::non_finite, [] { return encoded([](ClothProxy& p) { p.d_geo[2] = -INFINITY; }); },
         in(tag("DGEO"), 2 * 8), "DGEO, d_geo", "only +inf is allowed"},
        {ProxyError::non_finite, [] { return encoded([](ClothProxy& p) { p.frame.rest_world.m[14] = NAN; }); },
         in(tag("FRMX"), 14 * 8), "FRMX, frame", "frame.rest_world[14]"},
        {ProxyError::bad_value, [] { return encoded([](ClothProxy& p) { p.inverse_mass[4] = -4; }); },
         in(tag("IMAS"), 4 * 8), "IMAS, inverse_mass", "inverse_mass[4] = -4 is negative"},
        {ProxyError::bad_value, [] { return encoded([](ClothProxy& p) { p.kind = static_cast<ProxyKind>(9); }); },
         in(tag("KIND")), "KIND, kind", "kind 9"},
        {ProxyError::bad_value, [] { return encoded([](ClothProxy& p) { p.edges[7] = {6, 6}; }); },
         in(tag("EDGE"), 7 * 8), "EDGE, edges", "names particle 6 twice"},
        {ProxyError::bad_value, [] { return encoded([](ClothProxy& p) { p.nearest_held[3] = 0; }); },
         in(tag("NHLD"), 3 * 4), "NHLD, nearest_held", "d_geo = inf but nearest_held = 0"},
        {ProxyError::bad_colour_ranges, [] { return encoded([](ClothProxy& p) { p.colour_ranges = {0, 4, 6, 6}; }); },
         in(tag("COLR"), 3 * 4), "COLR, colour_ranges", "must cover every particle"},
        {ProxyError::bad_colour_ranges, [] { return encoded([](ClothProxy& p) { p.colour_ranges = {0, 5, 4, 7}; }); },
         in(tag("COLR"), 2 * 4), "COLR, colour_ranges", "colours overlap"},
        {ProxyError::bad_colouring, [] { return encoded([](ClothProxy& p) { p.colour_ranges = {0, 5, 6, 7}; }); },
         in(tag("COLR")), "COLR, colour_ranges", "particles 2 and 4 share colour 0"},
        {ProxyError::bad_pin, [] { return encoded([](ClothProxy& p) { p.pins[0].particles = {0, 1, 2}; }); },
         in(tag("PINC")), "PINC, pins", "particle 2 has inverse_mass 4, so it is not held"},
        {ProxyError::bad_pin, [] { return encoded([](ClothProxy& p) { p.pins.push_back({"Hand", {1, 0}}); }); },
         in(tag("PINC"), 4), "PINC, pins", "strictly ascending"},
    };
}

TEST(CodecHostile, EveryNamedErrorHasAFileThatProducesIt) {
    std::set<ProxyError> produced;
    for (const NamedErrorCase& c : named_error_cases()) {
        std::vector<uint8_t> bytes = c.make();
        DecodeResult r = decode_exact(bytes, bytes.size());
        SCOPED_TRACE(proxy_error_code(c.code) + std::string(" / ") + c.says);
        EXPECT_FALSE(r.ok());
        EXPECT_FALSE(r.proxy.has_value());
        EXPECT_EQ(proxy_error_code(r.code), std::string(proxy_error_code(c.code))) << r.error;
        EXPECT_EQ(r.offset, c.offset(bytes)) << r.error;
        EXPECT_EQ(r.section, c.section) << r.error;
        EXPECT_NE(r.error.find(c.says), std::string::npos) << r.error;
        EXPECT_EQ(r.error.rfind(std::string(proxy_error_code(c.code)) + " at byte " + std::to_string(r.offset) + " (" +
                                    c.section + "): ",
                                0),
                  0u)
            << r.error;
        produced.insert(r.code);
    }
    // UNREADABLE comes from load_proxy: a folder named like a proxy.
    auto dir = test::scratch_dir("codec_named_unreadable");
    std::filesystem::create_directories(dir / "folder.clothproxy");
    DecodeResult r = load_proxy(dir / "folder.clothproxy");
    EXPECT_EQ(r.code, ProxyError::unreadable) << r.error;
    EXPECT_NE(r.error.find("folder.clothproxy"), std::string::npos);
    produced.insert(r.code);

    for (uint32_t e = 1; e <= static_cast<uint32_t>(ProxyError::bad_pin); ++e)
        EXPECT_TRUE(produced.count(static_cast<ProxyError>(e))) << proxy_error_code(static_cast<ProxyError>(e))
                                                                  << " has no test producing it";
}

TEST(CodecHostile, ResealedSingleByteMutationsNeverCrashAndAcceptedFilesAreCanonical) {
    // A fuzzing pass the suite always runs: every byte of the table and payload, three ways, with
    // the checksum fixed up so the structural checks see it. Anything accepted must be sound and must
    // re-encode to exactly the bytes it came from (the format has one canonical form).
    const std::vector<uint8_t> good = golden();
    size_t accepted = 0;
    for (size_t i = 16; i < good.size(); ++i)
        for (uint8_t x : {uint8_t(0x01), uint8_t(0x80), uint8_t(0xFF)}) {
            std::vector<uint8_t> bytes = good;
            bytes[i] ^= x;
            if (i >= 16 && i < 24) continue;  // the file size: covered by EveryFlippedByte...
            reseal(bytes);
            DecodeResult r = decode_exact(bytes, bytes.size());
            if (!r.ok()) {
                ASSERT_FALSE(r.error.empty());
                ASSERT_LE(r.offset, bytes.size());
                continue;
            }
            ++accepted;
            ASSERT_EQ(check_proxy(*r.proxy), "") << "byte " << i;
            ASSERT_EQ(encode_proxy(*r.proxy), bytes) << "byte " << i;
        }
    EXPECT_GT(accepted, 0u);  // flipping a position's mantissa bit is a different, sound proxy
}

}  // namespace
}  // namespace weft
