// weft bake's report (bake.h): the totals in the words of docs/architecture.md#exit-status,
// bake-report.json and the depfile.
#include "batch/bake.h"

#include <map>
#include <optional>
#include <set>

#include "io/utf8_text.h"
#include "outputs/cloth_summary_json.h"
#include "outputs/issue_json.h"
#include "outputs/json_text.h"
#include "outputs/view_page.h"

namespace weft {

using nlohmann::json;

BakeTotals BakeResult::totals() const {
    BakeTotals t;
    t.models = models.size();
    for (size_t k = 0; k < models.size(); ++k) {
        const size_t unchanged = models.unchanged(k) ? 1 : 0;
        switch (models.status(k)) {
            case ModelStatus::built: ++t.built; t.unchanged_built += unchanged; break;
            case ModelStatus::refused: ++t.refused; t.unchanged_refused += unchanged; break;
            case ModelStatus::failed: ++t.failed; break;
        }
    }
    for (const Issue& i : run_issues) t.input_errors += i.severity == Severity::error ? 1 : 0;
    return t;
}

int BakeResult::exit_code() const {
    const BakeTotals t = totals();
    return t.refused + t.failed + t.input_errors > 0 ? 1 : 0;
}

std::string bake_totals_text(const BakeTotals& t) {
    auto count = [](size_t n, const char* word, size_t unchanged) {
        return std::to_string(n) + " " + word + (unchanged ? " (" + std::to_string(unchanged) + " unchanged)" : "");
    };
    std::string text = std::to_string(t.models) + (t.models == 1 ? " model: " : " models: ") +
                       count(t.built, "built", t.unchanged_built) + ", " + count(t.refused, "refused", t.unchanged_refused) +
                       ", " + count(t.failed, "failed", 0);
    if (t.input_errors) text += ", " + std::to_string(t.input_errors) + (t.input_errors == 1 ? " input" : " inputs") + " not read";
    return text;
}

json bake_model_row_json(const BakeModelResult& m) {
    json issues = json::array();
    for (const Issue& i : m.issues) issues.push_back(issue_json(i));
    return {{"input", m.input.relative},
            {"output_dir", m.input.relative},
            {"status", model_status_name(m.status)},
            {"unchanged", m.unchanged},
            {"input_hash", m.input_hash},
            {"cloth", cloth_summary_json(m.cloth)},
            {"outputs", m.outputs},
            {"issues", std::move(issues)}};
}

json bake_model_timing_json(const BakeModelResult& m) {
    return {{"input", m.input.relative},
            {"seconds", m.seconds.total},
            {"stages",
             {{"hash", m.seconds.hash},
              {"import", m.seconds.import},
              {"garments", m.seconds.garments},
              {"grow", m.seconds.grow},
              {"build", m.seconds.build},
              {"write", m.seconds.write},
              {"validate", m.seconds.validate},
              {"page", m.seconds.page}}}};
}

json bake_report_head(const BakeResult& result, const BakeOptions& o, const Issues& extra) {
    json report;
    report["schema"] = bake_report_schema;
    report["weft_version"] = WEFT_VERSION;
    report["grow_cloth"] = o.model.grow_cloth;
    report["validate"] = o.model.validate.has_value();
    std::map<std::string, int> counts = result.models.issue_counts();
    json run_issues = json::array();
    for (const Issues* list : {&result.run_issues, &extra})
        for (const Issue& i : *list) {
            run_issues.push_back(issue_json(i));
            ++counts[i.code];
        }
    const BakeTotals t = result.totals();
    report["issues"] = std::move(run_issues);
    report["models"] = json::array();
    report["counts"] = counts;
    report["totals"] = {{"models", t.models},
                        {"built", t.built},
                        {"refused", t.refused},
                        {"failed", t.failed},
                        {"unchanged", {{"built", t.unchanged_built}, {"refused", t.unchanged_refused}}},
                        {"input_errors", t.input_errors}};
    report["summary"] = bake_totals_text(t);
    report["exit_code"] = result.exit_code();
    report["timings"] = {{"total_seconds", result.seconds}, {"jobs", o.jobs}, {"models", json::array()}};
    return report;
}

namespace {

/// `text` (a value as json_text writes it, with its final newline) placed `depth` spaces in: every
/// line after the first indented, the final newline dropped.
std::string nested(std::string text, size_t depth) {
    if (!text.empty() && text.back() == '\n') text.pop_back();
    std::string out;
    out.reserve(text.size() + 64);
    for (char c : text) {
        out += c;
        if (c == '\n') out.append(depth, ' ');
    }
    return out;
}

/// The rows of `result`, each made by `row` and placed as an array's elements `depth` spaces in.
void stream_rows(const BakeResult& result, size_t depth, json (*row)(const BakeModelResult&), const TextSink& sink) {
    const std::string indent(depth, ' ');
    for (size_t k = 0; k < result.models.size(); ++k)
        sink(indent + nested(json_text(row(result.models[k])), depth) + (k + 1 < result.models.size() ? ",\n" : "\n"));
}

}  // namespace

void write_bake_report(const BakeResult& result, const BakeOptions& o, const Issues& extra, const TextSink& sink) {
    // The head as json_text writes it, with the two row arrays empty; each is then written in its
    // place one row at a time, as json_text would have written them (a test holds the two equal).
    const std::string head = json_text(bake_report_head(result, o, extra));
    // Each array as the head has it: its key and "[]", where the rows go.
    const std::string empty_models = "\n  \"models\": []", empty_timings = "\n    \"models\": []";
    const size_t at_models = head.find(empty_models), at_timings = head.find(empty_timings);
    if (at_models == std::string::npos || at_timings == std::string::npos || at_timings < at_models)
        throw std::logic_error("bake report: its head lost the rows' places");
    auto rows = [&](size_t from, size_t at, const std::string& empty_array, size_t depth, json (*row)(const BakeModelResult&)) {
        sink(std::string_view(head).substr(from, at - from));
        if (result.models.empty()) {
            sink(empty_array);
            return;
        }
        sink(empty_array.substr(0, empty_array.size() - 1) + "\n");  // "[" and the rows below it
        stream_rows(result, depth + 2, row, sink);
        sink(std::string(depth, ' ') + "]");
    };
    rows(0, at_models, empty_models, 2, bake_model_row_json);
    rows(at_models + empty_models.size(), at_timings, empty_timings, 4, bake_model_timing_json);
    sink(std::string_view(head).substr(at_timings + empty_timings.size()));
}

void write_bake_index(const BakeResult& result, const json& head, const TextSink& sink) {
    std::map<std::string, int> kinds;
    for (size_t k = 0; k < result.models.size(); ++k) ++kinds[view_index_kind(bake_model_row_json(result.models[k]))];
    sink(view_index_head(head, kinds));
    for (size_t k = 0; k < result.models.size(); ++k) {
        const BakeModelResult m = result.models[k];
        sink(view_index_row(bake_model_row_json(m), m.seconds.total));
    }
    sink(view_index_tail());
}

json bake_report_json(const BakeResult& result, const BakeOptions& o) {
    std::string text;
    write_bake_report(result, o, {}, [&](std::string_view piece) { text += piece; });
    return json::parse(text);
}

namespace {

/// A path as Make and Ninja read it in a depfile, or nullopt when no depfile can name it. Space,
/// '#' and ':' take a backslash, and the backslashes right before them are doubled (2N+1
/// backslashes and the character read as N and the character); '$' is "$$"; any other backslash
/// stands for itself. A newline, a carriage return or a tab cannot be written in a depfile (Make
/// ends the line or the name there, Ninja too), nor can a name ending in ':' or '\' (read as the
/// rule's colon, or as escaping what follows): tested against ninja 1.11 (tests/cli/bake_hostile_test.cpp, DepfileNamesReadByNinjaRebakeWhenTouched).
std::optional<std::string> depfile_escape(const std::string& path) {
    if (path.empty() || path.find_first_of("\n\r\t") != std::string::npos || path.back() == ':' || path.back() == '\\')
        return std::nullopt;
    std::string out;
    size_t backslashes = 0;
    for (char c : path) {
        if (c == ' ' || c == '#' || c == ':') {
            out.append(backslashes, '\\');
            out += '\\';
        } else if (c == '$') {
            out += '$';
        }
        out += c;
        backslashes = c == '\\' ? backslashes + 1 : 0;
    }
    return out;
}

}  // namespace

void write_bake_depfile(const BakeResult& result, const std::string& target, Issues* unrepresentable, const TextSink& sink) {
    // Sorted and each once, as Make and Ninja need neither but a build farm's cache key does (the
    // same bytes for the same inputs): the set holds the paths alone, not the rows.
    std::set<std::string> deps;
    for (size_t k = 0; k < result.models.size(); ++k) {
        const std::vector<std::string> depends = result.models[k].depends;
        deps.insert(depends.begin(), depends.end());
    }
    sink(depfile_escape(target).value_or("bake-report.json") + ":");
    for (const std::string& d : deps) {
        if (std::optional<std::string> escaped = depfile_escape(d)) {
            sink(" \\\n  " + *escaped);
        } else if (unrepresentable) {
            unrepresentable->push_back(make_issue(kDepfileUnrepresentable, utf8_escaped(d) + ": holds a newline, a carriage return or a tab, or ends in ':' or '\\', "
                                                          "which no depfile can name; left out of the depfile (rename the file to have it tracked)",
                                        ""));
        }
    }
    sink("\n");
}

std::string bake_depfile(const BakeResult& result, const std::string& target, Issues* unrepresentable) {
    std::string text;
    write_bake_depfile(result, target, unrepresentable, [&](std::string_view piece) { text += piece; });
    return text;
}

std::string bake_json_text(const json& j) { return json_text(j); }

}  // namespace weft
