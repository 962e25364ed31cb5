// How a subcommand joins the `weft` command line: each cmd_*.cpp registers itself with a static
// CommandRegistration, so adding a command touches no other file.
#pragma once
#include <CLI/CLI.hpp>

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <thread>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "batch/model_limits.h"
#include "io/issue.h"
#include "outputs/model_output.h"

namespace weft::cli {

/// Exit statuses shared by every command (docs/architecture.md#exit-status).
enum ExitCode : int {
    exit_ok = 0,          ///< everything was read, built and passed
    exit_refused = 1,     ///< some input was refused or some gate failed; the rest was still processed
    exit_usage = 2,       ///< the command line was wrong
};

/// Adds the subcommand's options to `app` and returns the function that runs it after parsing.
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

struct CommandInfo {
    std::string name;
    std::string description;
    CommandSetup setup;
    int order;  ///< position in --help
};

std::vector<CommandInfo>& command_registry();

struct CommandRegistration {
    CommandRegistration(std::string name, std::string description, int order, CommandSetup setup) {
        command_registry().push_back({std::move(name), std::move(description), std::move(setup), order});
    }
};

/// -q / -v, the same on every command (gltfpack's and glTF-Transform's shape), all on standard error:
/// by default progress, the summary, errors and warnings; -q errors only; -v infos too.
struct Verbosity {
    bool quiet = false;
    bool verbose = false;
};

inline void add_verbosity(CLI::App& app, Verbosity& v) {
    auto* quiet = app.add_flag("-q,--quiet", v.quiet, "No progress, summary or warnings on standard error; errors only");
    auto* verbose = app.add_flag("-v,--verbose", v.verbose, "Infos too, besides errors and warnings");
    quiet->excludes(verbose);
}

/// An option value that names a file or folder: an empty one is a usage error rather than "here"
/// (`-o ''` used to write into the current folder).
inline const CLI::Validator non_empty_path{
    [](std::string& value) { return value.empty() ? std::string("an empty path names nothing") : std::string(); },
    "PATH", "NonEmptyPath"};

/// A number option: NaN and infinities are usage errors (CLI11's Range lets NaN through, since every
/// comparison with it is false).
inline const CLI::Validator finite_number{
    [](std::string& value) {
        try {
            size_t used = 0;
            const double v = std::stod(value, &used);
            if (used != value.size()) return std::string("'" + value + "' is not a number");
            if (!std::isfinite(v)) return std::string("'" + value + "' is not a finite number");
        } catch (const std::exception&) {
            return std::string("'" + value + "' is not a number");
        }
        return std::string();
    },
    "NUMBER", "FiniteNumber"};

/// A limit's value past its ceiling (a huge number meant as "no limit"): said in the option's
/// unit with the way to ask for none, rather than CLI11's "not in range 0.000000 to 31536000.000000".
inline CLI::Validator limit_at_most(double ceiling, const std::string& unit, const std::string& ceiling_words) {
    return CLI::Validator(
        [=](std::string& value) {
            try {
                size_t used = 0;
                const double v = std::stod(value, &used);
                if (used != value.size()) return std::string("'" + value + "' is not a number");
                if (v < 0) return std::string("'" + value + "' is negative: give 0 for no limit");
                if (v > ceiling)
                    return std::string("'" + value + "' " + unit + " is more than " + ceiling_words + ": give 0 for no limit");
            } catch (const std::exception&) {
                return std::string("'" + value + "' is not a number");
            }
            return std::string();
        },
        "", "LimitAtMost");
}
inline const CLI::Validator time_limit_range = limit_at_most(kTimeLimitCeiling, "s", "a year (31536000 s)");
inline const CLI::Validator memory_limit_range =
    limit_at_most(static_cast<double>(kMaxMemoryMibCeiling), "MiB", "128 TiB (134217728 MiB)");

/// Most models baked at once (-j): more would only share the same cores.
inline constexpr int kMaxJobs = 256;

/// `-j N` as make and ninja take it, where 0 means "as many as there are cores": the cores this
/// process may run on (its CPU affinity, as `nproc` counts them), at least 1 and at most kMaxJobs.
inline int jobs_for(int requested) {
    if (requested > 0) return requested;
    cpu_set_t allowed;
    int cores = ::sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : 0;
    if (cores <= 0) cores = static_cast<int>(std::thread::hardware_concurrency());
    return std::clamp(cores, 1, kMaxJobs);
}

inline void add_jobs_option(CLI::App& app, int& jobs, const std::string& what) {
    app.add_option("-j,--jobs", jobs, what + "; 0 = one per core")->check(CLI::Range(0, kMaxJobs))->capture_default_str();
}

/// Writes one of a command's own files (a page, bake-report.json) as a model's are written
/// (outputs/model_output.h: atomically, only over a regular file); on failure prints why with its
/// code (OUTPUT_NOT_REGULAR, OUTPUT_UNWRITABLE) and returns false.
inline bool write_command_output(std::ostream& err, const std::string& who, const std::filesystem::path& path,
                                 const std::string& text) {
    Issues issues;
    if (write_model_output(path, text, issues)) return true;
    for (const Issue& i : issues) err << who << ": " << i.message << " [" << i.code << "]\n";
    return false;
}

/// Prints `issues` as "PREFIX: severity: message [CODE]" lines (errors always, warnings unless
/// `v.quiet`, infos with `v.verbose`), folding a code after its first `keep` lines into one "and N more like it"
/// line, so one model with 32 defects of one kind reads as three of them and a count.
inline void print_issues(std::ostream& err, const std::string& prefix, const Issues& issues, const Verbosity& v,
                         size_t keep = 3) {
    std::map<std::string, size_t> seen;
    std::vector<std::string> order;
    for (const Issue& i : issues) {
        if (i.severity == Severity::warning && v.quiet) continue;
        if (i.severity == Severity::info && !v.verbose) continue;
        size_t& n = seen[i.code];
        if (n == 0) order.push_back(i.code);
        if (++n <= keep) {
            err << prefix << ": " << severity_name(i.severity) << ": " << i.message;
            if (!i.code.empty()) err << " [" << i.code << "]";
            err << "\n";
        }
    }
    for (const std::string& code : order)
        if (seen[code] > keep)
            err << prefix << ": and " << seen[code] - keep << " more like it" << (code.empty() ? "" : " [" + code + "]")
                << "\n";
}

}  // namespace weft::cli
