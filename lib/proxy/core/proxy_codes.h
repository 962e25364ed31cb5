// Every reason load_proxy refuses a .clothproxy file (proxy_check.h's ProxyError, by the name
// proxy_error_code gives it), in the stage tables' shape (io/issue.h IssueCode) for the docs and for
// `weft validate` / `weft bake --validate`, which report a refused proxy under its code.
#pragma once
#include <string_view>

#include "io/issue.h"

namespace weft {

inline constexpr IssueCode proxy_file_codes[] = {
    {"UNREADABLE", Severity::error, "The proxy file could not be read (missing, a folder, permissions)."},
    {"BAD_MAGIC", Severity::error, "The first 8 bytes are not the .clothproxy magic: not a proxy file."},
    {"UNSUPPORTED_VERSION", Severity::error, "A format version this reader does not know."},
    {"BAD_HEADER", Severity::error, "Header fields out of their legal range (reserved bits, file size)."},
    {"TRUNCATED", Severity::error, "Fewer bytes than the header declares."},
    {"TRAILING_BYTES", Severity::error, "More bytes than the header declares, or bytes after the last section."},
    {"CHECKSUM_MISMATCH", Severity::error, "The CRC-32C over the payload disagrees with the header's."},
    {"BAD_SECTION", Severity::error, "A section entry that is unknown, mistyped, misplaced or sized wrongly."},
    {"DUPLICATE_SECTION", Severity::error, "A section tag that appears twice in the section table."},
    {"MISSING_SECTION", Severity::error, "A section format version 1 requires is absent."},
    {"BAD_STRING", Severity::error, "A string that is not UTF-8, holds a NUL byte or overruns its section."},
    {"COUNT_MISMATCH", Severity::error, "Arrays that must agree in length do not."},
    {"INDEX_OUT_OF_RANGE", Severity::error, "A particle or source-vertex index past the end of its array."},
    {"NON_FINITE", Severity::error, "NaN or infinity where only finite numbers are allowed."},
    {"BAD_VALUE", Severity::error, "A finite number or enum outside its legal range, or a degenerate row."},
    {"BAD_COLOUR_RANGES", Severity::error, "Colour ranges that do not start at 0, overlap, or do not end at the particle count."},
    {"BAD_COLOURING", Severity::error, "Two free particles one row couples share a colour."},
    {"BAD_PIN", Severity::error, "A pin naming particles out of order, twice, or not held."},
};

}  // namespace weft
