// weft.sheet/1, its summary and its messages, from the record.
#include "outputs/sheet_report.h"

#include <map>
#include <sstream>

#include "outputs/issue_json.h"
#include "pipeline/pipeline_codes.h"

namespace weft {

using nlohmann::json;

json sheet_stats_json(const SheetStats& s) {
    return {{"source_vertices", s.source_vertices},
            {"source_triangles", s.source_triangles},
            {"particles", s.particles},
            {"edges", s.edges},
            {"boundary_edges", s.boundary_edges},
            {"hinges", s.hinges},
            {"triangles", s.triangles},
            {"islands", s.islands},
            {"closed_islands", s.closed_islands},
            {"held", s.held},
            {"pins", s.pins},
            {"colours", s.colours},
            {"largest_colour", s.largest_colour},
            {"smallest_colour", s.smallest_colour},
            {"repeated_index_triangles", s.repeated_index_triangles},
            {"zero_area_triangles", s.zero_area_triangles},
            {"duplicate_triangles", s.duplicate_triangles},
            {"dropped_triangles", s.dropped_triangles},
            {"non_manifold_edges", s.non_manifold_edges},
            {"inconsistent_edges", s.inconsistent_edges},
            {"non_finite_vertices", s.non_finite_vertices},
            {"weld_tolerance", s.weld_tolerance},
            {"pin_tolerance", s.pin_tolerance},
            {"area", s.area},
            {"total_mass", s.total_mass},
            {"max_d_geo", s.max_d_geo}};
}

namespace {

/// What stopped the bake itself (an exception, memory): not the model's fault, never a sheet's.
bool stopped_the_bake(const Issue& i) { return i.code == kInternalError.code || i.code == kOutOfMemory.code; }

int count_status(const ModelRecord& r, SheetStatus status) {
    int n = 0;
    for (const SheetedGarment& g : r.sheets) n += g.status == status;
    return n;
}

/// The report's head: which model, where, with which options.
json report_head(const ModelRecord& r, const ModelOptions& o) {
    const SheetOnlyOptions only = o.sheet_only.value_or(SheetOnlyOptions{});
    json report;
    report["schema"] = sheet_json_schema;
    report["weft_version"] = WEFT_VERSION;
    report["model"] = r.model.string();
    report["output_dir"] = r.out_dir.string();
    json selection = nullptr;
    if (!only.garment.empty()) selection = {{"garment", only.garment}};
    if (!only.material.empty()) selection = {{"material", only.material}};
    if (!only.mesh.empty()) selection = {{"mesh", only.mesh}};
    report["options"] = {{"selection", selection},
                         {"pin", only.pin.empty() ? json(nullptr) : json(only.pin)},
                         {"pin_weight", o.sheet.pin_weight},
                         {"weld_tolerance", o.sheet.weld_tolerance ? json(*o.sheet.weld_tolerance) : json(nullptr)},
                         {"repair", o.sheet.repair},
                         {"config", only.config_label.empty() ? json(nullptr) : json(only.config_label)}};
    return report;
}

/// One selected garment's entry.
json garment_json(const ModelRecord& r, const SheetedGarment& g) {
    json entry;
    entry["name"] = g.name;
    entry["class"] = g.class_name;
    entry["matched_by"] = g.found_by;
    json meshes = json::array();
    for (int m : g.meshes) {
        const Mesh& mesh = r.scene.meshes[static_cast<size_t>(m)];
        meshes.push_back({{"name", mesh.name},
                          {"node", mesh.node_name},
                          {"material", mesh.material >= 0 ? r.scene.materials[static_cast<size_t>(mesh.material)] : ""}});
    }
    entry["meshes"] = std::move(meshes);
    entry["proxy"] = g.proxy_file.empty() ? json(nullptr) : json(g.proxy_file);
    entry["status"] = sheet_status_name(g.status);
    if (g.status == SheetStatus::skipped) {
        entry["reason"] = g.skip_reason;
        entry["issues"] = json::array();
        return entry;
    }
    if (!g.proxy_file.empty()) {
        entry["frame"] = g.built.proxy->frame.node;
        json pins = json::array();
        for (const Pin& pin : g.built.proxy->pins) pins.push_back({{"holder", pin.holder}, {"particles", pin.particles.size()}});
        entry["pins"] = std::move(pins);
        entry["fabric"] = g.built.proxy->suggested_fabric;
    }
    entry["stats"] = sheet_stats_json(g.built.stats);
    entry["issues"] = issues_json(g.issues);
    return entry;
}

/// One garment's summary line: skipped, built (what it is made of), or refused (its error codes, counted).
void summary_line(std::ostringstream& out, const SheetedGarment& g) {
    out << "  " << g.name << " (" << g.class_name << "): ";
    if (g.status == SheetStatus::skipped) {
        out << "skipped: " << g.skip_reason << "\n";
        return;
    }
    if (g.status == SheetStatus::refused) {
        std::map<std::string, int> counts;
        for (const Issue& i : g.issues)
            if (i.severity == Severity::error) ++counts[i.code];
        out << "refused:";
        for (const auto& [code, n] : counts) out << " " << n << " " << code;
        out << "\n";
        return;
    }
    const SheetStats& st = g.built.stats;
    out << "built " << g.proxy_file << ": " << st.particles << " particles from " << st.source_vertices << " vertices, "
        << st.edges << " edges, " << st.hinges << " hinges, " << st.triangles << " triangles, " << st.colours
        << " colours (" << st.smallest_colour << ".." << st.largest_colour << "), " << st.held << " held";
    const std::vector<Pin>& pins = g.built.proxy->pins;
    for (const Pin& pin : pins) out << (&pin == &pins.front() ? " by " : ", ") << pin.holder;
    out << ", " << st.total_mass << " kg";
    if (st.dropped_triangles) out << ", " << st.dropped_triangles << " triangles dropped";
    out << "\n";
}

}  // namespace

std::string sheet_report_error(const ModelRecord& r) {
    if (!r.imported) return "the model was refused on import";
    return r.sheet_selection_error;
}

bool sheet_report_passed(const ModelRecord& r) {
    for (const Issue& i : r.issues)
        if (stopped_the_bake(i)) return false;
    return sheet_report_error(r).empty() && count_status(r, SheetStatus::refused) == 0 &&
           count_status(r, SheetStatus::built) > 0 && !has_error(r.validation_issues);
}

json sheet_report_json(const ModelRecord& r, const ModelOptions& o) {
    json report = report_head(r, o);
    report["import_issues"] = issues_json(r.import_issues);
    json garments = json::array();
    for (const SheetedGarment& g : r.sheets) garments.push_back(garment_json(r, g));
    report["garments"] = std::move(garments);
    report["built"] = count_status(r, SheetStatus::built);
    report["refused"] = count_status(r, SheetStatus::refused);
    report["skipped"] = count_status(r, SheetStatus::skipped);
    const std::string error = sheet_report_error(r);
    report["error"] = error.empty() ? json(nullptr) : json(error);
    report["validation"] = r.proxy_validation ? json{{"file", "validation.json"},
                                                     {"passed", !has_error(r.validation_issues)},
                                                     {"issues", issues_json(r.validation_issues)}}
                                              : json(nullptr);
    report["passed"] = sheet_report_passed(r);
    return report;
}

std::string sheet_report_text(const ModelRecord& r) {
    std::ostringstream out;
    out << "weft sheet " << r.model.string() << " -> " << r.out_dir.string() << "\n";
    for (const SheetedGarment& g : r.sheets) summary_line(out, g);
    if (const std::string error = sheet_report_error(r); !error.empty()) out << "  " << error << "\n";
    return out.str();
}

Issues sheet_report_messages(const ModelRecord& r) {
    Issues out;
    auto keep = [&](const Issue& i) {
        if (i.severity != Severity::info) out.push_back(i);
    };
    if (!r.imported) {
        for (const Issue& i : r.issues)
            if (i.severity == Severity::error) out.push_back(i);
        return out;
    }
    // The selection's error as it reads in the report, no code: the exit status says it failed.
    if (!r.sheet_selection_error.empty()) out.push_back({"", Severity::error, r.model.string() + ": " + r.sheet_selection_error, ""});
    for (const SheetedGarment& g : r.sheets)
        for (const Issue& i : g.issues) keep(i);
    for (const Issue& i : r.validation_issues) keep(i);
    for (const Issue& i : r.issues)
        if (stopped_the_bake(i)) out.push_back(i);
    return out;
}

}  // namespace weft
