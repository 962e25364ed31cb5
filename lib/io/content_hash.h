// The content hash of input files, for incremental builds: what a stamp, a sidecar and a
// report record so a rebuild can tell unchanged inputs. Not cryptographic: it catches edits, not
// an adversary.
#pragma once
#include <cstdint>
#include <span>
#include <string>

namespace weft {

/// XXH64 of `bytes` with `seed` (Yann Collet's xxHash, 64-bit; the reference's test values hold:
/// xxh64("") = 0xef46db3751d8e999, xxh64("abc") = 0x44bc2cf5ad770999). Words are read as
/// little-endian explicitly, so the value is the same on every platform and byte order. Eight
/// bytes a step in four independent lanes, where the FNV-1a it replaced took one byte a step with a
/// multiply each (6.6% of the Witch's bake in perf, where the file was also hashed twice).
uint64_t xxh64(std::span<const uint8_t> bytes, uint64_t seed = 0);

/// "xxh64:" and the hash as 16 lower-case hex digits: how files and schemas spell a content hash.
std::string content_hash_text(uint64_t hash);

}  // namespace weft
