// A garment's name as a file in a model's output folder (docs/architecture.md#files): one rule for
// every command that writes proxies, so `weft sheet`, `weft rig` and `weft bake` name the same
// garment's file the same way.
#pragma once
#include <cstddef>
#include <set>
#include <string>

namespace weft {

/// A garment name as a file stem: ASCII letters and digits, '.', '_' and '-' kept, and the letters of
/// every other script (well-formed UTF-8 from U+00A0, but no Unicode space, joiner or bidirectional
/// control); every other byte '_' (a space, '/', ':', a control, an invalid byte); a leading '_'
/// where the stem would be empty or hidden. A stem longer than `max_file_stem_bytes` keeps its first
/// bytes (whole UTF-8 sequences) and ends in '-' and 16 hex digits of a hash of the whole stem, so
/// every file named from it, its temporary included, fits a file system's 255-byte name and two long
/// names that differ only at the end still name two files.
std::string garment_file_stem(const std::string& name);

/// The longest file stem garment_file_stem gives, in bytes: 255 (NAME_MAX) less the longest suffix weft
/// puts after a stem (".clothproxy") and a temporary's (".tmp.<pid>.<counter>", docs/outputs.md).
inline constexpr size_t max_file_stem_bytes = 180;

/// `wanted`, or `wanted_2`, `wanted_3`, ... : the first whose file stem is not in `used_stems`
/// (which it joins). Two garments of one model never share a file.
std::string unique_garment_name(const std::string& wanted, std::set<std::string>& used_stems);

}  // namespace weft
