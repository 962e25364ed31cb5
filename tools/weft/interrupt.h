// What a bake says when it is interrupted (Ctrl-C, or a build system's SIGTERM): how many models
// were finished and that the same command again goes on from there. Every model's files are written
// atomically and stamped last (docs/commands.md, `weft bake`), so a finished model is not baked again
// and a half-baked one leaves only temporaries the next run clears; the run itself still dies of the
// signal, so a shell or build system sees an interrupted command (status 130 from a shell).
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>

namespace weft::cli {

/// Installs the SIGINT and SIGTERM handlers of this process (the bake's driver) for a run writing
/// into `out`. Worker processes forked later inherit them and simply die of the signal.
void say_progress_when_interrupted(const std::string& who, const std::filesystem::path& out);

/// Called from the progress callback: `done` of `total` models have a result, `unfinished` of them
/// failed (a failed model is not stamped: the next run bakes it again).
void note_bake_progress(size_t done, size_t total, size_t unfinished);

}  // namespace weft::cli
