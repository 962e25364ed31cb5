// `weft bake` (docs/commands.md, `weft bake`): every model under the inputs through one pipeline, in parallel, with
// incremental skips, one report for the whole run.
//
//   walk      INPUT files as given, folders recursively for every extension Assimp reads plus .vrm;
//             sorted by relative path then input index, so the order never depends on the listing
//   per model OUT/<relative path>/ gets one bake_model (bake_model.h) with sheets: rig proxies from authored
//             chains (and, with grow_cloth, from chains grown where a garment has none), a sheet
//             proxy for every other garment found by name, the grown model, one sidecar for all of
//             them and report.json; with validate, validation.json (every proxy validated in memory by
//             the validate stage, lib/validate); last bake-stamp.json (input hash,
//             the files the model references, options hash, tool version). A stamp that matches
//             means nothing is rebuilt (skipped)
//   run       N worker processes take models in order (a crash, an out-of-memory or a runaway model
//             fails only that model: CRASHED, OUT_OF_MEMORY, TIMED_OUT); any exception is that
//             model's INTERNAL_ERROR
//   report    bake-report.json (schemas/bake-report.schema.json), models in walk order, counts per
//             code, timings in their own fields so the rest is byte-identical from run to run
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "garment/garments.h"
#include "io/issue.h"
#include "batch/bake_model.h"
#include "batch/bake_rows.h"
#include "io/atomic_file.h"
#include "pipeline/cloth_summary.h"
#include "pipeline/model_status.h"
#include "pipeline/pipeline_codes.h"
#include "pipeline/model_options.h"
#include "proxy/sheet_builder.h"
#include "validate/validate.h"

namespace weft {

inline constexpr const char* bake_report_schema = "weft.bake-report/2";

struct BakeOptions {
    std::vector<std::filesystem::path> inputs;  ///< files or folders
    std::filesystem::path out_dir;
    int jobs = 1;                               ///< worker processes (threads without isolate), >= 1
    ModelOptions model = bake_preset();         ///< every model's: grow_cloth, garments (the config, config_file),
                                                ///< grow, rig and sheet options, validate (validation.json, gate codes
                                                ///< as issues), page, force, options_text (bake_model.h)
    bool isolate = true;                        ///< each model in a worker process (a crash fails only that model); false: threads
    int out_lock_fd = -1;                       ///< the descriptor holding OUT for this run (flock), closed in each
                                                ///< worker: a worker lingering after a killed driver keeps no hold
    uint64_t max_memory_bytes = uint64_t(4) << 30;  ///< with isolate: address space per worker (setrlimit), 0 = unlimited
    double time_limit_seconds = 300;            ///< with isolate: wall time per model before TIMED_OUT, 0 = unlimited
};

struct ExitingWorkers;

/// How many models came to each outcome (docs/architecture.md#exit-status). A model found unchanged
/// is counted under the outcome its stamp recorded, and again in `unchanged_*`.
struct BakeTotals {
    size_t models = 0, built = 0, refused = 0, failed = 0;
    size_t unchanged_built = 0, unchanged_refused = 0;
    size_t input_errors = 0;  ///< inputs the walk could not read (INPUT_LINK_LOOP, INPUT_NOT_REGULAR, INPUT_UNREADABLE)
};

/// "13 models: 12 built (12 unchanged), 1 refused (1 unchanged), 0 failed", then ", 1 input not read"
/// when the walk could not read one: the summary line's words, the same as the report's totals.
std::string bake_totals_text(const BakeTotals& totals);

struct BakeResult {
    BakeRows models;                      ///< walk order, kept in a temporary file (bake_rows.h)
    Issues run_issues;                    ///< INPUT_NOT_FOUND and the like, not tied to a model
    double seconds = 0;
    /// The worker processes told to exit, waited for when the last copy of this result goes: the
    /// caller writes its report while they give back their memory.
    std::shared_ptr<ExitingWorkers> exiting_workers;

    /// The run's counts, as the summary line, bake-report.json's totals and the index say them.
    BakeTotals totals() const;
    /// 0: every model built (now or, unchanged, before) and every input read; 1: a model refused or
    /// failed, or an input the walk could not read (docs/architecture.md#exit-status).
    int exit_code() const;
};

/// Every model file under the inputs, sorted; INPUT_NOT_FOUND for inputs that do not exist. Files
/// under `exclude` (the output folder) are left out.
std::vector<BakeInput> walk_inputs(const std::vector<std::filesystem::path>& inputs,
                                   const std::filesystem::path& exclude, Issues& issues);

/// Whether `path` has an extension Assimp reads or .vrm (case-insensitive).
bool is_model_file(const std::filesystem::path& path);

/// One model's options: options.model with its folder out_dir/<relative>/ inside out_dir, and the
/// reports naming it and its folder by relative path (the same for any OUT).
ModelOptions bake_model_options(const BakeInput& input, const BakeOptions& options);

/// The bake report's row of one model: a pure function of its record.
BakeModelResult bake_row(const BakeInput& input, const ModelRecord& record);

/// Called after each model with how many are done of how many.
using BakeProgress = std::function<void(const BakeModelResult& model, size_t done, size_t total)>;

/// INPUT_NOT_FOUND for each input that does not exist (a dangling link included; a link loop is the
/// walk's INPUT_LINK_LOOP): the command line checks them before anything is written.
Issues missing_inputs(const std::vector<std::filesystem::path>& inputs);

/// Bakes every model; `progress` (may be empty) is called after each model, from worker threads
/// but never two at a time.
BakeResult bake(const BakeOptions& options, const BakeProgress& progress);

/// One model's element of the report's "models" and of its "timings"' "models".
nlohmann::json bake_model_row_json(const BakeModelResult& model);
nlohmann::json bake_model_timing_json(const BakeModelResult& model);
/// The report without its rows: both row arrays empty, `extra` (the depfile's warnings) among the
/// run's issues and counted.
nlohmann::json bake_report_head(const BakeResult& result, const BakeOptions& options, const Issues& extra = {});

/// The run's report (schemas/bake-report.schema.json) as bake_json_text writes it, handed to `sink`
/// a model at a time: the driver never holds the whole report, however many models there are.
void write_bake_report(const BakeResult& result, const BakeOptions& options, const Issues& extra, const TextSink& sink);
/// The same report whole, parsed (for tests and callers that want the tree).
nlohmann::json bake_report_json(const BakeResult& result, const BakeOptions& options);

/// OUT/index.html (outputs/view_page.h) written a model at a time; `head` is bake_report_head's.
void write_bake_index(const BakeResult& result, const nlohmann::json& head, const TextSink& sink);

/// Make/Ninja depfile: `target` depends on every input of every model, sorted, each once. A path
/// no depfile can name (a newline, a carriage return or a tab in it, or a trailing ':' or '\\') is
/// left out, with a DEPFILE_UNREPRESENTABLE warning in `unrepresentable` when given.
void write_bake_depfile(const BakeResult& result, const std::string& target, Issues* unrepresentable, const TextSink& sink);
std::string bake_depfile(const BakeResult& result, const std::string& target, Issues* unrepresentable = nullptr);

/// JSON text as weft bake writes it (two-space indent, a final newline); a string that is not valid
/// UTF-8 (a file name's bytes) is written with each invalid byte as \\xHH (io/utf8_text.h).
std::string bake_json_text(const nlohmann::json& j);

}  // namespace weft
