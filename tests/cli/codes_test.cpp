// `weft codes` (one table of every stage's codes, the docs list generated from it): the
// committed docs/issue-codes.md is exactly `weft codes --markdown`; codes are unique per stage, well
// formed, and a code two stages share means the same severity in both; every code a bake of the
// fixtures (good models beside the bad corpus) reports is in the table.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "batch/issue_codes.h"
#include "support/paths.h"
#include "testdata_copy.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

bool screaming_snake(std::string_view code) {
    if (code.empty() || code.front() == '_' || code.back() == '_') return false;
    for (char c : code)
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

std::map<std::string, Severity> severity_of_code() {
    std::map<std::string, Severity> out;
    for (const StageCodes& stage : every_issue_code())
        for (const IssueCode& c : stage.codes) out.emplace(std::string(c.code), c.severity);
    return out;
}

TEST(Codes, DocsPageIsTheGeneratedTable) {
    const test::CommandResult r = test::run_weft({"codes", "--markdown"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, issue_codes_markdown());
    std::ifstream in(test::source_dir() / "docs" / "issue-codes.md", std::ios::binary);
    std::stringstream committed;
    committed << in.rdbuf();
    EXPECT_EQ(committed.str(), r.out)
        << "docs/issue-codes.md is stale: regenerate it with `build/tools/weft/weft codes --markdown > docs/issue-codes.md`";
}

TEST(Codes, EveryStageListsEachCodeOnceAndSharedCodesAgree) {
    std::map<std::string, Severity> first;
    size_t total = 0;
    for (const StageCodes& stage : every_issue_code()) {
        EXPECT_FALSE(stage.codes.empty()) << stage.stage;
        std::set<std::string_view> seen;
        for (const IssueCode& c : stage.codes) {
            ++total;
            EXPECT_TRUE(screaming_snake(c.code)) << stage.stage << ": " << c.code;
            EXPECT_TRUE(seen.insert(c.code).second) << stage.stage << " lists " << c.code << " twice";
            EXPECT_FALSE(c.description.empty()) << c.code;
            EXPECT_EQ(c.description.back(), '.') << c.code << ": a sentence";
            auto [it, inserted] = first.emplace(std::string(c.code), c.severity);
            if (!inserted) {
                EXPECT_EQ(it->second, c.severity) << c.code << " has two severities";
            }
        }
    }
    EXPECT_GE(total, 80u);
    const test::CommandResult r = test::run_weft({"codes", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    size_t listed = 0;
    for (const json& stage : j["stages"]) listed += stage["codes"].size();
    EXPECT_EQ(listed, total);
}

TEST(Codes, EveryCodeABakeOfTheFixturesReportsIsInTheTable) {
    const fs::path out = test::scratch_dir("codes_bake") / "out";
    const fs::path in = test::testdata_without_dense_sheet("codes_bake_in");  // its one code is the holes sheet's too
    const test::CommandResult r = test::run_weft({"bake", in.string(), "-o", out.string(), "-q", "--grow-cloth"});
    ASSERT_EQ(r.exit_code, 1) << r.err;  // testdata/bad is refused by design
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(out / "bake-report.json", bytes), "");
    const json report = json::parse(bytes.begin(), bytes.end());
    const std::map<std::string, Severity> table = severity_of_code();
    std::set<std::string> reported;
    for (const json& m : report["models"])
        for (const json& i : m["issues"]) {
            const std::string code = i["code"];
            reported.insert(code);
            auto it = table.find(code);
            ASSERT_NE(it, table.end()) << code << " (" << m["input"] << ") is in no stage's table";
            EXPECT_EQ(severity_name(it->second), i["severity"].get<std::string>()) << code << " in " << m["input"];
        }
    EXPECT_GE(reported.size(), 20u);  // the bad corpus: at least 20 kinds of bad input, each its own code
}

}  // namespace
}  // namespace weft
