// Structural validation of a ClothProxy: everything the solver assumes without checking (every index
// in range, arrays agreeing in length, finite numbers, colour ranges tiling the particles, a valid
// colouring, pins naming held particles). The codec runs it on every decoded file (the loader is the
// attack surface, docs/architecture.md#files) and save_proxy on every proxy before writing it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "proxy/core/cloth_proxy.h"

namespace weft {

/// Named reasons a proxy or a .clothproxy file is refused, meshopt style: stable, never reworded.
/// proxy_error_code() gives the SCREAMING_SNAKE name used in messages, reports and docs.
enum class ProxyError : uint32_t {
    ok = 0,
    unreadable,          ///< the file could not be read (missing, a folder, permissions)
    bad_magic,           ///< the first 8 bytes are not the .clothproxy magic
    unsupported_version, ///< a format version this reader does not know
    bad_header,          ///< header fields out of their legal range (reserved bits, file size)
    truncated,           ///< fewer bytes than the header declares
    trailing_bytes,      ///< more bytes than the header declares, or after the last section
    checksum_mismatch,   ///< the CRC-32C over the payload disagrees
    bad_section,         ///< a section entry that is unknown, mistyped, misplaced or sized wrongly
    duplicate_section,   ///< a tag that appears twice in the section table
    missing_section,     ///< a required v1 section is absent
    bad_string,          ///< a string that is not UTF-8, holds a NUL byte or overruns its section
    count_mismatch,      ///< arrays that must agree in length do not
    index_out_of_range,  ///< a particle or source-vertex index past the end
    non_finite,          ///< NaN or infinity where only finite numbers are allowed
    bad_value,           ///< a finite number or enum outside its legal range, or a degenerate row
    bad_colour_ranges,   ///< colour ranges that do not start at 0, overlap, or do not end at the particle count
    bad_colouring,       ///< two free particles one row couples share a colour
    bad_pin,             ///< a pin naming particles out of order, twice, or not held
};

/// "BAD_MAGIC", "TRUNCATED", ...; "OK" for ProxyError::ok.
const char* proxy_error_code(ProxyError error);

/// The first thing structurally wrong with a proxy.
struct ProxyFault {
    ProxyError error = ProxyError::ok;
    std::string field;     ///< the offending array by its JSON key ("edges", "pins"); "" for the whole proxy
    uint64_t element = 0;  ///< index into `field` (for "pins": the pin)
    std::string message;   ///< one line naming the element and what is wrong; "" when ok

    bool ok() const { return error == ProxyError::ok; }
};

/// Finds the first structural fault, checking in a fixed order: strings, array lengths, numbers,
/// indices, degenerate rows, colour ranges, pins, d_geo and nearest_held, write-back maps, and last
/// the colouring (validate_colouring over edges, skips, every pair of a hinge and of a triangle, held
/// particles never blocking a colour). Cost O(particles + rows) plus building the coupling CSR.
ProxyFault find_proxy_fault(const ClothProxy& proxy);

/// "" when the proxy is structurally sound, else find_proxy_fault's message prefixed by its code.
/// Every pair of particles a row couples, which no colour may hold both of while both are free: the
/// edges, the skips, a hinge's six pairs and a triangle's three edges (on a sound mesh the last two
/// are edges already; repeated pairs are left for build_csr to drop). The builder colours by it and
/// check_proxy checks by it.
std::vector<std::array<uint32_t, 2>> coupled_pairs(const ClothProxy& proxy);

std::string check_proxy(const ClothProxy& proxy);

/// True when `text` is well-formed UTF-8 (no overlongs, surrogates or code points past U+10FFFF)
/// without NUL bytes: what every name in a proxy must be to survive JSON and C APIs.
bool is_clean_utf8(std::string_view text);

}  // namespace weft
