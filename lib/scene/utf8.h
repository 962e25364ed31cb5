// Names from model files as valid UTF-8. Assimp hands names over as raw bytes (an FBX or OBJ name
// can hold anything), while every report, sidecar and glTF weft writes is JSON, whose strings must
// be UTF-8 (RFC 8259 §8.1): nlohmann refuses to write an invalid sequence (type_error.316), which
// would silence a whole report. The importer repairs each name once, where it enters the Scene.
#pragma once
#include <string>
#include <string_view>

namespace weft {

/// Whether `text` is well-formed UTF-8 (Unicode 15, Table 3-7: no overlong forms, no surrogates,
/// nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// `text` with every ill-formed sequence replaced by U+FFFD (one per maximal subpart, as
/// Unicode 15 §3.9 recommends and browsers do); valid text comes back unchanged.
std::string valid_utf8(std::string_view text);

}  // namespace weft
