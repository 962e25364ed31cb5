// The files a model may read beside itself. A glTF buffer or image URI, an OBJ `mtllib`, a Collada
// <init_from>: every one is a path the model's author chose, so a model handed over by someone else
// could name `../../etc/passwd`, an absolute path, a percent-encoded `..`, a symlink out of its
// folder or a FIFO. Its bytes would become particle positions in a written proxy and its name a
// build dependency, or the read would block forever. So a model reads only regular files inside
// its own folder (ImportOptions::allow_outside_folder lifts the folder rule, never the file-kind
// one), each opened without blocking.
#pragma once
#include <filesystem>
#include <string>

#include "io/issue.h"

namespace weft {

/// Why a referenced file cannot be read; `code` is null when it can.
struct ReferenceCheck {
    std::filesystem::path path;  ///< the file the name resolves to (folder / name, or name when absolute)
    const IssueCode* code = nullptr;  ///< null, kFileOutsideFolder, kNotAFile or kReferencedFileMissing (import_codes.h)
    std::string problem;         ///< "" or why, for a message: "resolves outside the model's folder ..."
};

/// Checks the file `name` (already percent-decoded) that a model in `folder` refers to: it must
/// exist, be a regular file (after following links), and, unless `allow_outside`, resolve (links
/// followed) inside `folder` or a folder below it.
ReferenceCheck check_reference(const std::filesystem::path& folder, const std::filesystem::path& name,
                               bool allow_outside);

/// Opens `path` read-only without blocking (a FIFO swapped in after the check cannot hang the read)
/// and returns the descriptor, or -1 with `problem` set when it cannot be opened or is not a
/// regular file once open.
int open_regular_file(const std::filesystem::path& path, std::string& problem);

}  // namespace weft
