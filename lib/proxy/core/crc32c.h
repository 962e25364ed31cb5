// CRC-32C (Castagnoli), the checksum over a .clothproxy payload (schemas/clothproxy-format.md#2-header-32-bytes).
// Chosen over CRC-32 (zlib) for its larger Hamming distance at the lengths proxies have, and over
// FNV/xxHash because a CRC guarantees to catch every burst error up to 32 bits (a torn write, a
// flipped byte); it is the checksum iSCSI, ext4, LevelDB and Snappy framing use, and SSE4.2 and
// ARMv8 compute it in hardware. It guards against corruption, not tampering.
#pragma once
#include <cstdint>
#include <span>

namespace weft {

/// CRC-32C of `bytes` (reflected, polynomial 0x1EDC6F41, initial and final XOR 0xFFFFFFFF), continuing
/// from `crc` (the CRC of the bytes before; 0 to start). crc32c("123456789") == 0xE3069283.
/// Uses the SSE4.2 instruction when the CPU has it, else crc32c_portable.
uint32_t crc32c(std::span<const uint8_t> bytes, uint32_t crc = 0);

/// The same function without hardware help (slicing-by-8 tables); tests compare the two.
uint32_t crc32c_portable(std::span<const uint8_t> bytes, uint32_t crc = 0);

}  // namespace weft
