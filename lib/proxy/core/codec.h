// The .clothproxy binary format: the file a runtime loads (docs/architecture.md#files). Versioned, little-endian,
// a table of typed sections, a CRC-32C over the payload. The layout, byte by byte, is
// schemas/clothproxy-format.md; this header is the contract.
//
// Bytes in, bytes out: reading and writing files is proxy/file/proxy_file.h, a layer above, so an
// embedded runtime links no file I/O. decode_proxy (and load_proxy) are safe to use for untrusted input: every count is checked against
// the bytes left before anything is allocated (allocation stays within a small multiple of the file's
// size), every index against what it indexes, every number for what it may be; the first fault is
// returned as a named error with its section and byte offset, never a crash or an out-of-bounds read.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "proxy/core/proxy_check.h"

namespace weft {

/// The first 8 bytes of every .clothproxy, PNG style: a high-bit byte (caught by 7-bit transfers),
/// "WCP", CR LF (caught by line-ending conversion), ^Z (stops DOS `type`), LF.
inline constexpr std::array<uint8_t, 8> proxy_magic{0x89, 'W', 'C', 'P', '\r', '\n', 0x1A, '\n'};
inline constexpr uint32_t proxy_format_version = 5;  ///< bumped whenever an older reader would misread a file;
                                                     ///< 2 added the render mesh's binding (RTRI, BTRI, BCRD),
                                                     ///< 3 the collision radius (CRAD), 4 the hinges' reference
                                                     ///< area (BREF), 5 the virtual particles (VLNK, VPOS)
inline constexpr uint64_t proxy_header_size = 32;    ///< bytes before the section table
inline constexpr uint64_t proxy_section_entry_size = 32;

/// What decoding produced: a proxy, or the first fault named, located and explained.
struct DecodeResult {
    std::optional<ClothProxy> proxy;      ///< set exactly when code is ok
    std::string error;                    ///< "" on success; else one line: code, byte offset, section, what is wrong (load_proxy, proxy/file/proxy_file.h, prefixes the path)
    ProxyError code = ProxyError::ok;     ///< the named error (proxy_error_code gives "TRUNCATED", ...)
    uint64_t offset = 0;                  ///< byte offset in the file where the fault was found; 0 when ok
    std::string section;                  ///< "header", "section table", or the section's tag ("EDGE"); "" when ok

    bool ok() const { return proxy.has_value(); }
};

/// Encodes a proxy. Deterministic: the same proxy gives the same bytes, and decode_proxy gives back a
/// proxy whose every double is bit-identical (-0.0, +inf d_geo). Does not validate: a proxy that
/// check_proxy refuses encodes, and decoding it fails with the fault's named error (save_proxy refuses
/// to write one). Throws std::length_error for a string longer than 4 GiB - 1.
std::vector<uint8_t> encode_proxy(const ClothProxy& proxy);

/// Decodes a whole .clothproxy (exactly its bytes: fewer is TRUNCATED, more is TRAILING_BYTES), then
/// runs find_proxy_fault on the result. Safe for untrusted input.
DecodeResult decode_proxy(std::span<const uint8_t> bytes);

/// The CRC-32C of bytes [16, size) of a .clothproxy: the value its header's bytes 12..15 hold
/// (little-endian). 0 for fewer than 16 bytes. For tools and tests that patch a file on purpose.
uint32_t proxy_checksum(std::span<const uint8_t> file);

}  // namespace weft
