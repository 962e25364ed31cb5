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

namespace weft {

using nlohmann::json;

BakeTotals BakeResult::totals() const {
    BakeTotals t;
    t.models = models.size();
    for (const BakeModelResult& m : models) {
        switch (m.status) {
            case ModelStatus::built: ++t.built; t.unchanged_built += m.unchanged ? 1 : 0; break;
            case ModelStatus::refused: ++t.refused; t.unchanged_refused += m.unchanged ? 1 : 0; break;
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

json bake_report_json(const BakeResult& result, const BakeOptions& o) {
    json report;
    report["schema"] = bake_report_schema;
    report["weft_version"] = WEFT_VERSION;
    report["grow_cloth"] = o.model.grow_cloth;
    report["validate"] = o.model.validate.has_value();
    std::map<std::string, int> counts;
    json run_issues = json::array();
    for (const Issue& i : result.run_issues) {
        run_issues.push_back(issue_json(i));
        ++counts[i.code];
    }
    json models = json::array();
    json timings = json::array();
    for (const BakeModelResult& m : result.models) {
        json issues = json::array();
        for (const Issue& i : m.issues) {
            issues.push_back(issue_json(i));
            ++counts[i.code];
        }
        models.push_back({{"input", m.input.relative},
                          {"output_dir", m.input.relative},
                          {"status", model_status_name(m.status)},
                          {"unchanged", m.unchanged},
                          {"input_hash", m.input_hash},
                          {"cloth", cloth_summary_json(m.cloth)},
                          {"outputs", m.outputs},
                          {"issues", std::move(issues)}});
        timings.push_back({{"input", m.input.relative},
                           {"seconds", m.seconds.total},
                           {"stages",
                            {{"hash", m.seconds.hash},
                             {"import", m.seconds.import},
                             {"garments", m.seconds.garments},
                             {"grow", m.seconds.grow},
                             {"build", m.seconds.build},
                             {"write", m.seconds.write},
                             {"validate", m.seconds.validate},
                             {"page", m.seconds.page}}}});
    }
    const BakeTotals t = result.totals();
    report["issues"] = std::move(run_issues);
    report["models"] = std::move(models);
    report["counts"] = counts;
    report["totals"] = {{"models", t.models},
                        {"built", t.built},
                        {"refused", t.refused},
                        {"failed", t.failed},
                        {"unchanged", {{"built", t.unchanged_built}, {"refused", t.unchanged_refused}}},
                        {"input_errors", t.input_errors}};
    report["summary"] = bake_totals_text(t);
    report["exit_code"] = result.exit_code();
    report["timings"] = {{"total_seconds", result.seconds}, {"jobs", o.jobs}, {"models", std::move(timings)}};
    return report;
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

std::string bake_depfile(const BakeResult& result, const std::string& target, Issues* unrepresentable) {
    std::set<std::string> deps;
    for (const BakeModelResult& m : result.models) deps.insert(m.depends.begin(), m.depends.end());
    std::string text = depfile_escape(target).value_or("bake-report.json") + ":";
    for (const std::string& d : deps) {
        if (std::optional<std::string> escaped = depfile_escape(d)) {
            text += " \\\n  " + *escaped;
        } else if (unrepresentable) {
            unrepresentable->push_back(make_issue(kDepfileUnrepresentable, utf8_escaped(d) + ": holds a newline, a carriage return or a tab, or ends in ':' or '\\', "
                                                          "which no depfile can name; left out of the depfile (rename the file to have it tracked)",
                                        ""));
        }
    }
    return text + "\n";
}

std::string bake_json_text(const json& j) { return json_text(j); }

}  // namespace weft
