// The codec's file side: a .clothproxy read from or written to disk. Kept apart from the codec
// (proxy/core/codec.h, bytes only) so the embeddable runtime (lib/runtime) links no file I/O: a game
// hands it bytes it read its own way.
#pragma once
#include <filesystem>
#include <string>

#include "proxy/core/codec.h"

namespace weft {

/// Reads `path` (io read_file) and decodes it; `error` names the file. UNREADABLE when it cannot be read.
DecodeResult load_proxy(const std::filesystem::path& path);

/// Checks the proxy (check_proxy), encodes it and writes it atomically (io write_file_atomic).
/// Returns "" on success, else a message naming the file and why nothing was written.
std::string save_proxy(const ClothProxy& proxy, const std::filesystem::path& path);

}  // namespace weft
