// Writing outputs a build system can trust (DESIGN.md §4): every file goes to a temporary name in
// its own folder and is renamed over the target, so a run killed at any moment leaves the target
// either complete or absent, never truncated.
#pragma once
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// Writes `bytes` to `path` atomically (temporary file in the same folder, then rename; no fsync,
/// so atomic against a killed process, not durable against power loss).
/// Creates missing parent folders. Returns "" on success, else a message naming the path and the
/// system's reason.
std::string write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes);
std::string write_file_atomic(const std::filesystem::path& path, std::string_view text);

/// The process id in `name` when it is one of write_file_atomic's temporaries ("<file>.tmp.<pid>.<n>"),
/// else 0.
long temporary_owner(std::string_view name);

/// Removes the temporaries in `dir` (not recursive) whose writing process is gone (killed mid-write):
/// they are never renamed, and a build folder should not collect them. Returns how many.
size_t remove_stale_temporaries(const std::filesystem::path& dir);

/// Reads a whole file. Returns "" on success, else a message naming the path and the reason
/// (missing, a directory, unreadable, larger than `max_bytes`).
std::string read_file(const std::filesystem::path& path, std::vector<uint8_t>& out,
                      uint64_t max_bytes = uint64_t(4) << 30);

}  // namespace weft
