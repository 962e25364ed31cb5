#include "support/json_files.h"

#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

namespace weft::test {

nlohmann::json read_json_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) ADD_FAILURE() << path << ": cannot be read";
    if (!in.is_open()) ADD_FAILURE() << path << ": cannot be opened";
    return nlohmann::json::parse(text, nullptr, false);
}

const nlohmann::json* bake_report_model(const nlohmann::json& report, const std::string& input) {
    if (!report.is_object() || !report.contains("models") || !report["models"].is_array()) return nullptr;
    for (const nlohmann::json& m : report["models"])
        if (m.is_object() && m.value("input", "") == input) return &m;
    return nullptr;
}

}  // namespace weft::test
