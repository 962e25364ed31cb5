// Text from outside (file names, names inside model files) as valid UTF-8. File names and Assimp's
// names are raw bytes, while every report, sidecar and glTF weft writes is JSON, whose strings must
// be UTF-8 (RFC 8259 section 8.1): nlohmann refuses to write an invalid sequence (type_error.316), which
// would silence a whole report. Valid UTF-8 is RFC 3629's (Unicode 15, Table 3-7): shortest form,
// no surrogates, nothing past U+10FFFF. Two repairs, for two uses:
//   utf8_escaped  a file name: each invalid byte as the four characters \xHH (upper-case hex), so the
//                 name stays recognisable and the bytes can be recovered;
//   valid_utf8    a name inside a model: each ill-formed sequence as one U+FFFD per maximal subpart
//                 (Unicode 15 section 3.9's advice, what browsers do), repaired once where it
//                 enters the Scene.
#pragma once
#include <string>
#include <string_view>

namespace weft {

/// Whether `text` is well-formed UTF-8.
bool is_valid_utf8(std::string_view text);

/// `text` unchanged when it is valid UTF-8, else each byte outside a valid sequence as \xHH.
std::string utf8_escaped(std::string_view text);

/// `text` with every ill-formed sequence replaced by U+FFFD; valid text comes back unchanged.
std::string valid_utf8(std::string_view text);

/// `text` with A-Z lowered and every other byte kept: names are compared case-insensitively this way,
/// whatever the machine's locale.
std::string ascii_lower(std::string_view text);

}  // namespace weft
