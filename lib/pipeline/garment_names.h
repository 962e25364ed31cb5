// A garment's name as a file in a model's output folder (docs/architecture.md#files): one rule for
// every command that writes proxies, so `weft sheet`, `weft rig` and `weft bake` name the same
// garment's file the same way.
#pragma once
#include <set>
#include <string>

namespace weft {

/// A garment name as a file stem: ASCII letters and digits, '.', '_' and '-' kept, and the letters of
/// every other script (well-formed UTF-8 from U+00A0, but no Unicode space, joiner or bidirectional
/// control); every other byte '_' (a space, '/', ':', a control, an invalid byte); a leading '_'
/// where the stem would be empty or hidden.
std::string garment_file_stem(const std::string& name);

/// `wanted`, or `wanted_2`, `wanted_3`, ... : the first whose file stem is not in `used_stems`
/// (which it joins). Two garments of one model never share a file.
std::string unique_garment_name(const std::string& wanted, std::set<std::string>& used_stems);

}  // namespace weft
