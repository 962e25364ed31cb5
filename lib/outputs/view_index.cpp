// OUT/index.html (view_page.h): a dashboard of the bake from bake-report.json, every value escaped
// for where it lands and every link relative (docs/view.md#what-a-page-shows).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "outputs/html_text.h"
#include "outputs/view_page.h"
#include "outputs/view_style.h"
#include "pipeline/cloth_summary.h"

// The index's script (web/src/index.js: sorting and filters), generated at build time, and its CSP hash.
extern "C" const char weft_index_script[];
extern "C" const unsigned long weft_index_script_length;
extern "C" const char weft_index_script_csp_hash[];

namespace weft {

using json = nlohmann::json;

namespace {

std::string text_of(const json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

long count_of(const json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? it->get<long>() : -1;
}

/// A gate's value for people: millimetres for metres, else four figures.
std::string gate_number(double v, const std::string& gate) {
    char text[48];
    if (gate == "PENETRATION" || gate == "SCALP_DISPLACEMENT") std::snprintf(text, sizeof text, "%.1f mm", v * 1000);
    else std::snprintf(text, sizeof text, "%.4g", v);
    return text;
}

/// What became of the model, in words (docs/architecture.md#exit-status), and the filter's kind.
std::pair<std::string, std::string> outcome_words(const json& m) {
    const std::string status = text_of(m, "status");
    const json cloth = m.value("cloth", json::object());
    std::string words, kind;
    if (status == "built") {
        if (count_of(cloth, "garments") == 0) words = "no garment found", kind = "no-garment";
        else if (count_of(cloth, "proxies") > 0) words = "cloth built", kind = "cloth";
        else words = "garments found, none moves", kind = "none-moving";
    } else {
        kind = status.empty() ? "failed" : status;
        words = kind;
        for (const json& i : m.value("issues", json::array()))
            if (text_of(i, "severity") == "error") {
                words += ": " + text_of(i, "code") + ": " + text_of(i, "message");
                break;
            }
    }
    if (m.value("unchanged", false)) words += " (unchanged)";
    return {words, kind};
}

/// The model's files the dashboard links, by what they are.
std::string file_links(const std::string& folder, const json& outputs) {
    std::string links;
    auto link = [&](const std::string& file, const std::string& label) {
        const std::string href = relative_href(folder + "/" + file);
        if (!href.empty()) links += "<a href=\"" + html_text(href) + "\">" + html_text(label) + "</a> ";
    };
    for (const json& f : outputs) {
        if (!f.is_string()) continue;
        const std::string name = f.get<std::string>();
        if (name == "report.json" || name == "validation.json") link(name, name);
        else if (name.ends_with(".cloth.json")) link(name, "sidecar");
        else if (name.ends_with(".glb") || name.ends_with(".vrm")) link(name, "grown model");
    }
    return links;
}

std::string worst_gate_cell(const json& cloth) {
    const auto it = cloth.find("worst_gate");
    if (it == cloth.end() || !it->is_object()) return "<td class=\"num\" data-sort=\"-1\"></td>";
    const json& g = *it;
    const std::string gate = text_of(g, "gate");
    const double value = g.value("value", 0.0), limit = g.value("limit", 0.0);
    const bool passed = g.value("passed", true);
    const double near = std::min(gate_nearness(gate, value, limit), 1e9);
    char sort[32];
    std::snprintf(sort, sizeof sort, "%.6g", passed ? near : 1e6 + near);
    return "<td class=\"gate\" data-sort=\"" + std::string(sort) + "\"><span class=\"" + (passed ? "good" : "bad") + "\">" +
           html_text(gate) + " " + gate_number(value, gate) + (passed ? " &le; " : " &gt; ") + gate_number(limit, gate) +
           "</span><br><span class=\"muted\">" + html_text(text_of(g, "scenario")) + ", " + html_text(text_of(g, "proxy")) +
           "</span></td>";
}

std::string issues_cell(const json& m) {
    std::map<std::string, std::pair<int, std::string>> by_code;  // code -> count, severity
    for (const json& i : m.value("issues", json::array())) {
        auto& [count, severity] = by_code[text_of(i, "code")];
        ++count;
        if (severity != "error") severity = text_of(i, "severity");
    }
    std::string cell = "<td class=\"codes\">";
    bool first = true;
    for (const auto& [code, entry] : by_code) {
        // A long code wraps at its underscores, not mid-word, when the column is narrow.
        std::string shown;
        for (char c : html_text(code)) shown += c == '_' ? std::string("_<wbr>") : std::string(1, c);
        cell += std::string(first ? "" : ", ") + "<span class=\"" + (entry.second == "error" ? "bad" : "muted") + "\">" +
                shown + (entry.first > 1 ? " &times;" + std::to_string(entry.first) : "") + "</span>";
        first = false;
    }
    return cell + "</td>";
}

std::string count_cell(long n) {
    return n < 0 ? "<td class=\"num\" data-sort=\"-1\">&ndash;</td>"
                 : "<td class=\"num\" data-sort=\"" + std::to_string(n) + "\">" + std::to_string(n) + "</td>";
}

}  // namespace

std::string view_index_row(const json& m, std::optional<double> seconds) {
    const std::string name = text_of(m, "input");
    const std::string folder = m.contains("output_dir") ? text_of(m, "output_dir") : name;
    const auto [words, kind] = outcome_words(m);
    const json cloth = m.value("cloth", json::object());
    const json outputs = m.value("outputs", json::array());
    bool has_page = false, has_thumb = false;
    for (const json& f : outputs) {
        has_page = has_page || f == "view.html";
        has_thumb = has_thumb || f == "thumbnail.png";
    }
    const std::string page = has_page ? relative_href(folder + "/view.html") : "";
    const std::string thumb = has_thumb ? relative_href(folder + "/thumbnail.png") : "";
    std::string row = "<tr data-outcome=\"" + html_text(text_of(m, "status")) + "\" data-kind=\"" + html_text(kind) + "\">";
    row += "<td>" + (thumb.empty() ? std::string() : "<img class=\"thumb\" alt=\"\" src=\"" + html_text(thumb) + "\">") + "</td>";
    row += "<td class=\"path\" data-sort=\"" + html_text(name) + "\">" +
           (page.empty() ? html_text(name) : "<a href=\"" + html_text(page) + "\">" + html_text(name) + "</a>") + "</td>";
    const char* tone = kind == "refused" || kind == "failed" ? "bad" : kind == "cloth" ? "good" : "warn";
    row += "<td class=\"why " + std::string(tone) + "\" data-sort=\"" + html_text(kind) + "\">" + html_text(words) + "</td>";
    row += count_cell(count_of(cloth, "garments")) + count_cell(count_of(cloth, "moving")) + count_cell(count_of(cloth, "passing")) +
           count_cell(count_of(cloth, "proxies"));
    row += worst_gate_cell(cloth);
    char time[64] = "";
    if (seconds) std::snprintf(time, sizeof time, "<td class=\"time\" data-sort=\"%.3f\">%.2f s</td>", *seconds, *seconds);
    row += seconds ? time : "<td class=\"time\" data-sort=\"0\"></td>";
    row += "<td class=\"files\">" + file_links(folder, outputs) + "</td>" + issues_cell(m) + "</tr>\n";
    return row;
}

std::string view_index_kind(const json& model) { return outcome_words(model).second; }

namespace {

/// The totals in the summary line's words, and the kinds the filters pick.
std::string totals_html(const json& report, const std::map<std::string, int>& counted) {
    std::map<std::string, int> kinds = counted;
    std::string html = "<div class=\"totals\" id=\"totals\"><b>" + html_text(text_of(report, "summary")) + "</b>";
    const auto issues = report.value("issues", json::array());
    if (!issues.empty()) html += "<br><span class=\"bad\">" + std::to_string(issues.size()) + " input issues: " +
                                 html_text(text_of(issues[0], "message")) + "</span>";
    html += "<br><span>cloth built: " + std::to_string(kinds["cloth"]) + "</span><span>no garment found: " +
            std::to_string(kinds["no-garment"]) + "</span><span>garments found, none moves: " + std::to_string(kinds["none-moving"]) +
            "</span><span>refused: " + std::to_string(kinds["refused"]) + "</span><span>failed: " + std::to_string(kinds["failed"]) +
            "</span>";
    const json timings = report.value("timings", json::object());
    if (timings.contains("total_seconds") && timings["total_seconds"].is_number()) {
        char t[96];
        std::snprintf(t, sizeof t, "<span class=\"time\">in %.1f s</span>", timings["total_seconds"].get<double>());
        html += t;
    }
    return html + "</div>\n";
}

}  // namespace

std::string view_index_head(const json& report, const std::map<std::string, int>& kinds) {
    std::string page = page_head("weft bake", weft_index_script_csp_hash);
    page += "<header><h1>weft bake</h1>\n" + totals_html(report, kinds);
    page += "<div class=\"filters\"><label><input type=\"checkbox\" id=\"only-problems\"> refused and failed only</label>"
            "<label><input type=\"checkbox\" id=\"hide-no-garment\"> hide no garment found</label>"
            "<span class=\"muted\" id=\"shown\"></span></div></header>\n<main style=\"padding: 8px 16px\">\n";
    page += "<table id=\"models\">\n<thead><tr><th data-type=\"none\"></th><th>model</th><th>outcome</th>"
            "<th data-type=\"num\" title=\"garments found\">found</th><th data-type=\"num\" title=\"garments planned to move\">moving</th>"
            "<th data-type=\"num\" title=\"proxies that passed every gate\">passing</th><th data-type=\"num\">proxies</th>"
            "<th data-type=\"num\" title=\"the gate nearest its limit, a failed one first\">worst gate</th>"
            "<th data-type=\"num\">time</th><th data-type=\"none\">files</th><th>issues by code</th></tr></thead>\n<tbody>\n";
    return page;
}

std::string view_index_tail() {
    std::string page = "</tbody>\n</table>\n</main>\n<script>";
    page.append(weft_index_script, weft_index_script_length);
    page += "</script>\n</body>\n</html>\n";
    return page;
}

std::string view_index_html(const json& report) {
    const json models = report.value("models", json::array());
    std::map<std::string, int> kinds;
    for (const json& m : models) ++kinds[view_index_kind(m)];
    std::map<std::string, double> seconds;
    const json timings = report.value("timings", json::object());
    for (const json& t : timings.value("models", json::array()))
        if (t.is_object() && t.contains("seconds") && t["seconds"].is_number()) seconds[text_of(t, "input")] = t["seconds"].get<double>();
    std::string page = view_index_head(report, kinds);
    for (const json& m : models) {
        if (!m.is_object()) continue;
        const auto t = seconds.find(text_of(m, "input"));
        page += view_index_row(m, t != seconds.end() ? std::optional<double>(t->second) : std::nullopt);
    }
    return page + view_index_tail();
}

}  // namespace weft
