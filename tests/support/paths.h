// Where the tests find their inputs and the programs they run.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace weft::test {

std::filesystem::path shared_models_dir();  ///< WEFT_SHARED_MODELS (third-party models); may be absent
std::filesystem::path testdata_dir();       ///< testdata/ in the source tree (generated fixtures)
std::filesystem::path source_dir();         ///< the repository root
std::filesystem::path binary_dir();         ///< the CMake build folder
std::filesystem::path weft_exe();           ///< the built `weft` command

/// A shared model by file name, or an empty path (and the caller skips) when the shared folder is absent.
std::filesystem::path shared_model(const std::string& name);

/// The config the golden bake gives the shared models (tests/golden/weft.json): it names the Casual
/// man's short hair, which lies on his head and is grown only where a user names it, so the tests
/// that grow a cap keep growing his (docs/garments-by-geometry.md#hair-lying-on-the-head).
std::filesystem::path shared_models_config();

/// A fresh, empty folder under the build tree for one test's outputs.
std::filesystem::path scratch_dir(const std::string& test_name);

struct CommandResult {
    int exit_code = -1;   ///< the process's exit status; 128+signal when killed
    std::string out;      ///< everything written to standard output
    std::string err;      ///< everything written to standard error
};

/// Runs a program with arguments (no shell), capturing both streams.
CommandResult run_command(const std::vector<std::string>& argv);

/// Runs `weft` with the given arguments.
CommandResult run_weft(const std::vector<std::string>& args);

/// Why the Node tools of tests/js cannot run `package` (a folder under tests/js/node_modules, e.g.
/// "ajv"), or "" when they can: node on the PATH, `npm ci` run in tests/js (scripts/test.sh runs it
/// first) and not older than tests/js/package-lock.json. A test that needs one fails with this message
/// rather than with whatever a missing or stale module would make of its input.
std::string js_tools_missing(const std::string& package);

/// Validates a JSON document against schemas/<schema_file> with Ajv (tests/js). Returns an empty
/// string when it validates, else Ajv's errors (or why Ajv could not run).
std::string schema_errors(const std::string& json_text, const std::string& schema_file);

}  // namespace weft::test

/// Skips the test when a shared model is not available (CI clones without the models still pass).
#define WEFT_REQUIRE_SHARED_MODEL(var, name)                                   \
    const std::filesystem::path var = ::weft::test::shared_model(name);        \
    if (var.empty()) GTEST_SKIP() << "shared model " << name << " not present"
