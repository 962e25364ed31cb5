// Reading the JSON a command wrote, for the tests that check it. Inline: every suite's sources already
// compile gtest and json, and a source of its own cost ~10 s of compile time under the sanitizers.
#pragma once
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace weft::test {

/// The document in `path`. A file that cannot be read fails the calling test (naming it); a text that
/// does not parse is json's discarded value, which every lookup the tests make then fails on.
inline nlohmann::json read_json_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in.is_open()) ADD_FAILURE() << path << ": cannot be opened";
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) ADD_FAILURE() << path << ": cannot be read";
    return nlohmann::json::parse(text, nullptr, false);
}

/// The row of bake-report.json's `models` for the model baked from `input` (as the report names it),
/// or null when the report has none.
inline const nlohmann::json* bake_report_model(const nlohmann::json& report, const std::string& input) {
    if (!report.is_object() || !report.contains("models") || !report["models"].is_array()) return nullptr;
    for (const nlohmann::json& m : report["models"])
        if (m.is_object() && m.value("input", "") == input) return &m;
    return nullptr;
}

}  // namespace weft::test
