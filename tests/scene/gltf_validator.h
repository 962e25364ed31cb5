// Runs the Khronos glTF Validator (tests/js/validate_gltf.mjs, npm package gltf-validator) from a
// test and returns its reports.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/paths.h"

namespace weft::test {

struct ValidatorRun {
    std::string error;              ///< why the validator could not run; "" when it did
    std::vector<nlohmann::json> reports;  ///< one per file, in order: issues.numErrors, issues.messages, ...
};

inline ValidatorRun run_gltf_validator(const std::vector<std::filesystem::path>& files) {
    ValidatorRun run;
    const std::filesystem::path js = source_dir() / "tests" / "js";
    if (std::string missing = js_tools_missing("gltf-validator"); !missing.empty()) {
        run.error = missing;
        return run;
    }
    std::vector<std::string> argv{"/usr/bin/env", "node", (js / "validate_gltf.mjs").string()};
    for (const auto& f : files) argv.push_back(f.string());
    const CommandResult r = run_command(argv);
    if (r.exit_code != 0 && r.exit_code != 1) {
        run.error = "validate_gltf.mjs exited " + std::to_string(r.exit_code) + ": " + r.err;
        return run;
    }
    try {
        for (auto& report : nlohmann::json::parse(r.out)) run.reports.push_back(report);
    } catch (const std::exception& e) {
        run.error = std::string("validator output is not JSON: ") + e.what();
    }
    return run;
}

/// The report's error messages, one per line, for a failure message.
inline std::string validator_errors(const nlohmann::json& report) {
    std::string out;
    for (const auto& m : report["issues"]["messages"])
        if (m["severity"] == 0)
            out += m["code"].get<std::string>() + " " + m.value("pointer", "") + ": " +
                   m["message"].get<std::string>() + "\n";
    return out;
}

}  // namespace weft::test
