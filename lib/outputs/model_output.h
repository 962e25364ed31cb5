// Writing one of a model's files (docs/bad-inputs.md): atomically, and only over a regular file.
#pragma once
#include <filesystem>
#include <string>

#include "io/atomic_file.h"
#include "io/issue.h"

namespace weft {

/// Writes `text` to `path` by rename (io/atomic_file.h). A FIFO, a device, a link or a folder in
/// the way is OUTPUT_NOT_REGULAR, any other failure OUTPUT_UNWRITABLE; false then.
bool write_model_output(const std::filesystem::path& path, const std::string& text, Issues& issues);
/// The same for text made piece by piece (io/atomic_file.h's streamed write_file_atomic).
bool write_model_output(const std::filesystem::path& path, const std::function<void(const TextSink&)>& produce,
                        Issues& issues);

/// Whether `path`, resolved (links followed as far as they exist), is `dir` or inside it; false for
/// an empty `dir`. When either cannot be resolved (a folder removed or unreadable while it is read)
/// `error` is set and the answer is false: say so rather than guess where it leads.
bool is_under(const std::filesystem::path& path, const std::filesystem::path& dir, std::error_code& error);
bool is_under(const std::filesystem::path& path, const std::filesystem::path& dir);

}  // namespace weft
