// Reading the JSON a command wrote, for the tests that check it.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace weft::test {

/// The document in `path`. A file that cannot be read fails the calling test (naming it); a text that
/// does not parse is json's discarded value, which every lookup the tests make then fails on.
nlohmann::json read_json_file(const std::filesystem::path& path);

/// The row of bake-report.json's `models` for the model baked from `input` (as the report names it),
/// or null when the report has none.
const nlohmann::json* bake_report_model(const nlohmann::json& report, const std::string& input);

}  // namespace weft::test
