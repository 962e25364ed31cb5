// File names are bytes; JSON text is UTF-8. A name that is not valid UTF-8 (a Latin-1 file name,
// a truncated sequence) is written into reports with every byte that is not part of a valid UTF-8
// sequence as the four characters \xHH (upper-case hex), so the report stays valid JSON, the name
// stays recognisable, and one such name never stops a report (RFC 3629 defines valid UTF-8:
// shortest form, no surrogates, nothing past U+10FFFF).
#pragma once
#include <string>
#include <string_view>

namespace weft {

/// Whether `text` is valid UTF-8 (RFC 3629).
bool is_valid_utf8(std::string_view text);

/// `text` unchanged when it is valid UTF-8, else each byte outside a valid sequence as \xHH.
std::string utf8_escaped(std::string_view text);

}  // namespace weft
