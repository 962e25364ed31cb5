// What `weft bake` and `weft view MODELS` share around lib/batch's bake(): the inputs checked before
// anything is written, one progress line per model, then the run's files (bake-report.json, the
// depfile, index.html) and the summary line, all in the words of docs/architecture.md#exit-status.
#pragma once
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "batch/bake.h"
#include "command.h"

namespace weft::cli {

/// False, with "WHO: PATH: no such file or folder; nothing baked [INPUT_NOT_FOUND]" on standard error
/// for each, when an INPUT does not exist: checked before the output folder is touched.
bool inputs_exist(const std::vector<std::filesystem::path>& inputs, const std::string& who);

/// False, with one "WHO: cannot write into OUT: why; nothing baked [OUTPUT_UNWRITABLE]" line on
/// standard error, when OUT is not a folder this process can create and write into (a read-only
/// folder or file system, a file in the way): checked once, before any model is baked, rather than
/// failing every model and every file of the run with the same words.
bool out_writable(const std::filesystem::path& out, const std::string& who);

/// OUT held for this run alone: an exclusive lock on the folder itself (flock), released when the
/// process ends. Two bakes into one OUT at once each wrote their files whole, but a model's folder
/// could end with the grown model of one run and the sidecar and stamp of the other (both exiting 0,
/// the next run calling the mix unchanged). Returns -1, with one "WHO: cannot write into OUT: another
/// weft is writing into it; nothing baked [OUTPUT_UNWRITABLE]" line on standard error, when another
/// process holds it; else the descriptor holding the lock (kept open for the run).
int hold_out(const std::filesystem::path& out, const std::string& who);

/// The progress callback: "[3/13] model: refused (unchanged)" per model (an updating line on a
/// terminal), then its issues as `verbosity` says.
BakeProgress bake_progress(const std::string& who, const Verbosity& verbosity);

/// Where the run's files go and what is printed.
struct BakeFinish {
    std::string who;                  ///< "weft bake", "weft view"
    std::filesystem::path out;        ///< OUT: bake-report.json and, with `page`, index.html
    std::filesystem::path report;     ///< --report FILE too; empty: none
    std::filesystem::path depfile;    ///< --depfile FILE; empty: none
    bool json = false;                ///< the report on standard output
    bool page = true;                 ///< OUT/index.html
    Verbosity verbosity;
};

/// Writes the run's files and prints the summary line ("WHO: 13 models: 12 built (12 unchanged), 1
/// refused (1 unchanged), 0 failed -> OUT") and, when index.html was written, where it is. Returns
/// the exit status: the report's, or 1 when one of these files could not be written.
int finish_bake(const BakeResult& result, const BakeOptions& options, const BakeFinish& finish);

}  // namespace weft::cli
