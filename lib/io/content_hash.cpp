// XXH64 as specified by the reference implementation (github.com/Cyan4973/xxHash, doc/xxhash_spec.md):
// four lanes over 32-byte stripes, then the tail in 8-, 4- and 1-byte steps, then the avalanche.
#include "io/content_hash.h"

#include <cstdio>

namespace weft {
namespace {

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ull;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ull;

uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/// Little-endian whatever the host: compilers turn this into one load on little-endian machines.
uint64_t load64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

uint32_t load32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

uint64_t round(uint64_t acc, uint64_t lane) {
    acc += lane * kPrime2;
    return rotl(acc, 31) * kPrime1;
}

uint64_t merge(uint64_t acc, uint64_t lane) {
    acc ^= round(0, lane);
    return acc * kPrime1 + kPrime4;
}

}  // namespace

uint64_t xxh64(std::span<const uint8_t> bytes, uint64_t seed) {
    const uint8_t* p = bytes.data();
    const uint8_t* const end = p + bytes.size();
    uint64_t h = 0;
    if (bytes.size() >= 32) {
        uint64_t v1 = seed + kPrime1 + kPrime2, v2 = seed + kPrime2, v3 = seed, v4 = seed - kPrime1;
        for (const uint8_t* const last = end - 32; p <= last; p += 32) {
            v1 = round(v1, load64(p));
            v2 = round(v2, load64(p + 8));
            v3 = round(v3, load64(p + 16));
            v4 = round(v4, load64(p + 24));
        }
        h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
        h = merge(h, v1);
        h = merge(h, v2);
        h = merge(h, v3);
        h = merge(h, v4);
    } else {
        h = seed + kPrime5;
    }
    h += uint64_t(bytes.size());
    for (; end - p >= 8; p += 8) h = rotl(h ^ round(0, load64(p)), 27) * kPrime1 + kPrime4;
    if (end - p >= 4) {
        h = rotl(h ^ (uint64_t(load32(p)) * kPrime1), 23) * kPrime2 + kPrime3;
        p += 4;
    }
    for (; p < end; ++p) h = rotl(h ^ (*p * kPrime5), 11) * kPrime1;
    h ^= h >> 33;
    h *= kPrime2;
    h ^= h >> 29;
    h *= kPrime3;
    h ^= h >> 32;
    return h;
}

std::string content_hash_text(uint64_t hash) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "xxh64:%016llx", static_cast<unsigned long long>(hash));
    return buf;
}

}  // namespace weft
