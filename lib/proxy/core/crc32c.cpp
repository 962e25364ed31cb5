#include "proxy/core/crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <nmmintrin.h>
#define WEFT_CRC32C_SSE42 1
#endif

namespace weft {

namespace {

// Slicing-by-8 (Kounavis and Berry, "A Systematic Approach to Building High Performance
// Software-Based CRC Generators", 2005): eight tables, one 8-byte word per step.
using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables make_tables() {
    Tables t{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));  // 0x1EDC6F41 reflected
        t[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; ++i)
        for (size_t s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFF];
    return t;
}

constexpr Tables tables = make_tables();

uint32_t update_portable(uint32_t c, const uint8_t* p, size_t n) {
    while (n >= 8) {
        // Bytes are combined explicitly, so the result does not depend on the host's byte order.
        uint32_t lo = (uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24) ^ c;
        uint32_t hi = uint32_t(p[4]) | uint32_t(p[5]) << 8 | uint32_t(p[6]) << 16 | uint32_t(p[7]) << 24;
        c = tables[7][lo & 0xFF] ^ tables[6][(lo >> 8) & 0xFF] ^ tables[5][(lo >> 16) & 0xFF] ^ tables[4][lo >> 24] ^
            tables[3][hi & 0xFF] ^ tables[2][(hi >> 8) & 0xFF] ^ tables[1][(hi >> 16) & 0xFF] ^ tables[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--) c = (c >> 8) ^ tables[0][(c ^ *p++) & 0xFF];
    return c;
}

#ifdef WEFT_CRC32C_SSE42
__attribute__((target("sse4.2"))) uint32_t update_sse42(uint32_t c, const uint8_t* p, size_t n) {
    uint64_t c64 = c;
    while (n >= 8) {
        uint64_t word;
        std::memcpy(&word, p, 8);  // x86 is little-endian, the order the CRC consumes bytes in
        c64 = _mm_crc32_u64(c64, word);
        p += 8;
        n -= 8;
    }
    c = static_cast<uint32_t>(c64);
    while (n--) c = _mm_crc32_u8(c, *p++);
    return c;
}

bool have_sse42() {
    static const bool yes = __builtin_cpu_supports("sse4.2");
    return yes;
}
#endif

}  // namespace

uint32_t crc32c_portable(std::span<const uint8_t> bytes, uint32_t crc) {
    return ~update_portable(~crc, bytes.data(), bytes.size());
}

uint32_t crc32c(std::span<const uint8_t> bytes, uint32_t crc) {
#ifdef WEFT_CRC32C_SSE42
    if (have_sse42()) return ~update_sse42(~crc, bytes.data(), bytes.size());
#endif
    return crc32c_portable(bytes, crc);
}

}  // namespace weft
