// Writing outputs a build system can trust (docs/architecture.md#conventions): every file goes to a temporary name in
// its own folder and is renamed over the target, so a run killed at any moment leaves the target
// either complete or absent, never truncated.
#pragma once
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// Writes `bytes` to `path` atomically (temporary file in the same folder, then rename; no fsync,
/// so atomic against a killed process, not durable against power loss).
/// Creates missing parent folders. Refuses a target that exists and is not a regular file (a FIFO,
/// a device node, a symbolic link, a folder: refuse_special_output). Returns "" on success, else a message naming the path and the
/// system's reason.
std::string write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes);
std::string write_file_atomic(const std::filesystem::path& path, std::string_view text);

/// Where a producer puts its text, piece by piece.
using TextSink = std::function<void(std::string_view)>;

/// The same, for a file too large to hold whole (a bake's report of a library): `produce` hands
/// its text to the sink in pieces, written as they come. Nothing is renamed over `path` unless every
/// piece was written; an exception from `produce` leaves no temporary and is passed on.
std::string write_file_atomic(const std::filesystem::path& path, const std::function<void(const TextSink&)>& produce);

/// Temporaries of this process are named after `owner_pid` (not this process's id) and numbered
/// from `first_number` on: a worker process of weft bake names the driver, which is what a later
/// run checks is alive (and the driver's death ends its workers), and numbers from its own id times
/// a million so two workers never pick the same name.
void set_temporary_owner(long owner_pid, uint64_t first_number);

/// The process id in `name` when it is one of write_file_atomic's temporaries ("<file>.tmp.<pid>.<n>"),
/// else 0.
long temporary_owner(std::string_view name);

/// Removes the temporaries in `dir` (not recursive) whose writing process is gone (killed mid-write):
/// they are never renamed, and a build folder should not collect them. Returns how many.
size_t remove_stale_temporaries(const std::filesystem::path& dir);

/// What `path` is when it exists and is not a regular file ("a FIFO", "a character device", "a
/// symbolic link", "a folder", ...; the path itself, not what a link points to), else nullptr.
const char* file_kind_name(const std::filesystem::path& path);

/// "" when `path` is absent or a regular file, else a message naming it and its kind: outputs
/// replace only regular files (write_file_atomic refuses the rest with this message).
std::string refuse_special_output(const std::filesystem::path& path);

/// Reads a whole file. Only a regular file is read: a FIFO, a device or a socket is refused by name
/// without blocking (opened non-blocking, its type checked on the descriptor). Returns "" on success, else a message naming the path and the reason
/// (missing, a directory, unreadable, larger than `max_bytes`).
std::string read_file(const std::filesystem::path& path, std::vector<uint8_t>& out,
                      uint64_t max_bytes = uint64_t(4) << 30);

}  // namespace weft
