#pragma once
// The sources this weft was built from, as one id (cmake/source_id.cmake): bake-stamp.json records it
// beside the version, so outputs an older build wrote are rebuilt, never trusted
// (docs/format.md#the-bake-stamp); `weft --version` prints it for bug reports.

namespace weft {

/// Sixteen hex digits of a SHA-256 over lib/, tools/weft/ and the page's viewer sources.
const char* weft_source_id();

}  // namespace weft
