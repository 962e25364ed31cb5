// A bake's rows kept in a temporary file and its report, depfile and page written a model at a time
// (lib/batch/bake_rows.h, docs/measurements.md#the-cost-curve-a-library-of-10-to-1000-models): the rows
// read back as they were put, and the pieces join into exactly the files the whole report makes.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch/bake.h"
#include "batch/bake_rows.h"
#include "outputs/json_text.h"
#include "outputs/view_page.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

BakeModelResult some_row(size_t k, bool utf8 = false) {
    BakeModelResult r;
    r.input = {fs::path("/models") / ("m" + std::to_string(k) + ".glb"), "m" + std::to_string(k) + ".glb", k % 2};
    r.status = k % 3 == 0 ? ModelStatus::built : k % 3 == 1 ? ModelStatus::refused : ModelStatus::failed;
    r.unchanged = k % 4 == 1;
    r.cloth.garments = k;
    r.cloth.proxies = k / 2;
    r.issues.push_back({k % 2 ? "NON_MANIFOLD" : "NO_GARMENT", k % 2 ? Severity::error : Severity::warning,
                        "model m" + std::to_string(k) + (utf8 ? ": UTF-8 \u00e9" : ": \xff not UTF-8"), "/meshes/" + std::to_string(k)});
    r.outputs = {"report.json", "m" + std::to_string(k) + ".cloth.json"};
    r.depends = {"/models/m" + std::to_string(k) + ".glb", "/models/shared.bin"};
    r.input_hash = "xxh64:" + std::to_string(1000 + k);
    r.seconds.import = 0.25 * static_cast<double>(k);
    r.seconds.total = 1.5 * static_cast<double>(k);
    return r;
}

void expect_same_row(const BakeModelResult& a, const BakeModelResult& b) {
    EXPECT_EQ(a.input.path, b.input.path);
    EXPECT_EQ(a.input.relative, b.input.relative);
    EXPECT_EQ(a.input.input_index, b.input.input_index);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.unchanged, b.unchanged);
    EXPECT_EQ(a.cloth.garments, b.cloth.garments);
    EXPECT_EQ(a.cloth.proxies, b.cloth.proxies);
    ASSERT_EQ(a.issues.size(), b.issues.size());
    for (size_t i = 0; i < a.issues.size(); ++i) {
        EXPECT_EQ(a.issues[i].code, b.issues[i].code);
        EXPECT_EQ(a.issues[i].severity, b.issues[i].severity);
        EXPECT_EQ(a.issues[i].message, b.issues[i].message);
        EXPECT_EQ(a.issues[i].pointer, b.issues[i].pointer);
    }
    EXPECT_EQ(a.outputs, b.outputs);
    EXPECT_EQ(a.depends, b.depends);
    EXPECT_EQ(a.input_hash, b.input_hash);
    EXPECT_EQ(a.seconds.import, b.seconds.import);
    EXPECT_EQ(a.seconds.total, b.seconds.total);
}

// Put out of order, as workers finish; read back in walk order, every field as it was put, the
// statuses and the issue counts kept beside them without reading a row.
TEST(BakeRows, RowsPutInAnyOrderReadBackAsPut) {
    BakeRows rows;
    rows.resize(7);
    for (size_t k : {3u, 0u, 6u, 1u, 5u, 2u, 4u}) rows.put(k, some_row(k));
    ASSERT_EQ(rows.size(), 7u);
    size_t k = 0;
    for (const BakeModelResult& r : rows) {
        SCOPED_TRACE(k);
        expect_same_row(r, some_row(k));
        EXPECT_EQ(rows.status(k), some_row(k).status);
        EXPECT_EQ(rows.unchanged(k), some_row(k).unchanged);
        ++k;
    }
    EXPECT_EQ(k, 7u);
    EXPECT_EQ(rows.issue_counts().at("NON_MANIFOLD"), 3);
    EXPECT_EQ(rows.issue_counts().at("NO_GARMENT"), 4);
    // Moved, the rows go with their file.
    BakeRows moved = std::move(rows);
    expect_same_row(moved[5], some_row(5));
}

TEST(BakeRows, ARowNeverPutIsAFailedModelOfNoInput) {
    BakeRows rows;
    rows.resize(2);
    rows.put(1, some_row(1));
    EXPECT_EQ(rows[0].status, ModelStatus::failed);
    EXPECT_TRUE(rows[0].input.relative.empty());
    EXPECT_TRUE(rows[0].issues.empty());
    EXPECT_EQ(rows[1].input.relative, "m1.glb");
}

// Where the temporary cannot grow (a full disk; here a file size limit), the rows stay in memory,
// those already written read back into it: nothing lost, nothing thrown. In a child process, whose
// limit ends with it.
TEST(BakeRows, AFullTemporaryKeepsTheRowsInMemory) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        BakeRows rows;
        rows.resize(4);
        rows.put(0, some_row(0));  // in the file
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{1, 1};  // the file already holds more: every later write fails
        ::setrlimit(RLIMIT_FSIZE, &limit);
        for (size_t k : {2u, 1u, 3u}) rows.put(k, some_row(k));
        int wrong = 0;
        for (size_t k = 0; k < 4; ++k) {
            const BakeModelResult r = rows[k];
            wrong += r.input.relative != some_row(k).input.relative || r.issues.size() != 1 ||
                     r.issues[0].message != some_row(k).issues[0].message || r.depends != some_row(k).depends;
        }
        ::_exit(wrong);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "rows read back wrong";
}

BakeResult some_result(size_t n, bool utf8 = false) {
    BakeResult result;
    result.models.resize(n);
    for (size_t k = 0; k < n; ++k) result.models.put(k, some_row(k, utf8));
    result.run_issues.push_back({"INPUT_UNREADABLE", Severity::error, "/models/x.glb: unreadable", ""});
    result.seconds = 12.5;
    return result;
}

std::string joined(const std::function<void(const TextSink&)>& produce, size_t* pieces = nullptr) {
    std::string text;
    size_t count = 0;
    produce([&](std::string_view piece) {
        text += piece;
        ++count;
    });
    if (pieces) *pieces = count;
    return text;
}

// The report written a model at a time is, byte for byte, the whole report as json_text writes it
// (its rows in walk order, a non-UTF-8 message escaped in its own row), for none, one and many rows;
// the depfile's warnings join the run's issues and counts.
TEST(BakeRows, TheReportInPiecesIsTheWholeReport) {
    BakeOptions o;
    o.jobs = 2;
    for (size_t n : {0u, 1u, 9u}) {
        SCOPED_TRACE(n);
        const BakeResult result = some_result(n);
        const Issues extra = {{"DEPFILE_UNREPRESENTABLE", Severity::warning, "a\nb: holds a newline", ""}};
        size_t pieces = 0;
        const std::string streamed = joined([&](const TextSink& s) { write_bake_report(result, o, extra, s); }, &pieces);
        const json whole = json::parse(streamed);
        EXPECT_EQ(streamed, json_text(whole));
        EXPECT_GE(pieces, 2 * n + 1) << "a piece a row of each array, at least";
        ASSERT_EQ(whole["models"].size(), n);
        ASSERT_EQ(whole["timings"]["models"].size(), n);
        for (size_t k = 0; k < n; ++k) {
            // As json_text writes a row: its invalid byte escaped (\xFF), the rest as it was.
            EXPECT_EQ(whole["models"][k], json::parse(json_text(bake_model_row_json(some_row(k)))));
            EXPECT_EQ(whole["timings"]["models"][k], bake_model_timing_json(some_row(k)));
        }
        EXPECT_EQ(whole["issues"].size(), 2u);
        EXPECT_EQ(whole["issues"][1]["code"], "DEPFILE_UNREPRESENTABLE");
        EXPECT_EQ(whole["counts"].value("DEPFILE_UNREPRESENTABLE", 0), 1);
        EXPECT_EQ(whole["counts"].value("NO_GARMENT", 0), static_cast<int>((n + 1) / 2));
        EXPECT_EQ(whole["totals"]["models"], n);
        EXPECT_EQ(whole["timings"]["total_seconds"], 12.5);
        EXPECT_EQ(whole["exit_code"], 1);
        // Without the extra issues, bake_report_json is the same report.
        EXPECT_EQ(json_text(bake_report_json(result, o)), joined([&](const TextSink& s) { write_bake_report(result, o, {}, s); }));
    }
}

// The page in pieces is the page of the whole report: its head's totals count every row's kind.
TEST(BakeRows, TheIndexInPiecesIsTheIndexOfTheWholeReport) {
    BakeOptions o;
    const BakeResult result = some_result(6, true);
    const json head = bake_report_head(result, o);
    const std::string streamed = joined([&](const TextSink& s) { write_bake_index(result, head, s); });
    EXPECT_EQ(streamed, view_index_html(bake_report_json(result, o)));
    EXPECT_NE(streamed.find("refused: 2"), std::string::npos);
    EXPECT_NE(streamed.find("m5.glb"), std::string::npos);
}

// Sorted and each once: the shared buffer two models name is listed once.
TEST(BakeRows, TheDepfileListsEachInputOnceSorted) {
    const BakeResult result = some_result(3);
    const std::string text = bake_depfile(result, "out/bake-report.json");
    EXPECT_EQ(text, "out/bake-report.json: \\\n  /models/m0.glb \\\n  /models/m1.glb \\\n  /models/m2.glb \\\n  /models/shared.bin\n");
}

}  // namespace
}  // namespace weft
