// A bake's output folder as the tests compare it: every file by relative path, with its bytes, less
// what records the run rather than the models (bake-report.json's timings, the times index.html
// shows: docs/commands.md#hermetic-outputs).
#pragma once
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "io/atomic_file.h"

namespace weft::test {

inline std::map<std::string, std::string> output_tree(const std::filesystem::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        std::vector<uint8_t> bytes;
        EXPECT_EQ(read_file(e.path(), bytes), "");
        std::string text(bytes.begin(), bytes.end());
        const std::string rel = e.path().lexically_relative(dir).generic_string();
        if (rel == "bake-report.json") {
            nlohmann::json j = nlohmann::json::parse(text);
            EXPECT_TRUE(j.contains("timings")) << "the report's timings moved: update this helper and the docs";
            j.erase("timings");
            text = j.dump();
        } else if (rel == "index.html") {
            text = std::regex_replace(text, std::regex(R"(<(td|span) class="time"[^>]*>[^<]*</(td|span)>)"), "");
        }
        out[rel] = std::move(text);
    }
    return out;
}

}  // namespace weft::test
