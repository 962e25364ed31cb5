// The sheet path of one model, moved here from tools/weft/cmd_sheet.cpp so `weft sheet` and
// `weft bake` share it (one place bakes one model).
#include "pipeline/sheet_model.h"

#include <map>
#include <set>
#include <sstream>

#include "garment/classes.h"
#include "pipeline/issue_json.h"
#include "pipeline/pipeline_codes.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "scene/import.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

}  // namespace

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

SheetSelection sheet_selection(const Garment& g, const ModelGarments& found) {
    SheetSelection s;
    s.garment.name = g.name;
    s.garment.garment_class = g.class_name;
    s.matched_by = "garment";
    s.fabric = g.fabric;
    s.pin = g.pin;
    s.repair = g.repair;
    for (const GarmentPart& part : g.parts) s.garment.meshes.push_back(part.mesh);
    std::set<int> bones;
    for (int c : g.chains)
        if (c >= 0 && static_cast<size_t>(c) < found.chains.size())
            bones.insert(found.chains[c].joints.begin(), found.chains[c].joints.end());
    s.garment.garment_bones.assign(bones.begin(), bones.end());
    if (g.matched_by == kMatchedByChain)
        s.skip_reason = "found by its authored chains, not by name: a rig garment (its joints are the particles), "
                        "not a sheet";
    return s;
}

SheetBuildResult build_selected_sheet(const Scene& scene, const SheetSelection& s, SheetOptions options, bool pin_given,
                                      const std::string& model_label) {
    if (!s.fabric.empty()) options.fabric = s.fabric;
    if (s.repair) options.repair = true;
    if (!pin_given && !s.pin.is_null()) {
        if (std::string why = apply_pin_json(s.pin, options); !why.empty()) {
            SheetBuildResult refused;
            refused.issues.push_back({"BAD_OPTION", Severity::error,
                                      model_label + ": garment '" + s.garment.name + "': the config's pin: " + why, ""});
            return refused;
        }
    }
    return build_sheet(scene, s.garment, options);
}

namespace {

std::string class_of_name(const std::string& name, const std::vector<GarmentClass>& classes) {
    const int c = classify_name(name, classes);
    return c >= 0 ? classes[c].name : "sheet";
}

/// The garments to build: by material or mesh name, by garment name among those lib/garment
/// finds, or every garment it finds. Sets `error` when a selection names nothing.
std::vector<SheetSelection> select_garments(const Scene& scene, const SheetModelOptions& o, std::string& error) {
    const GarmentOptions& gopt = o.garments;
    std::vector<SheetSelection> out;
    if (!o.material.empty() || !o.mesh.empty()) {
        const bool by_material = !o.material.empty();
        const std::string& name = by_material ? o.material : o.mesh;
        SheetSelection s;
        s.garment.name = name;
        s.garment.garment_class = class_of_name(name, gopt.config.classes);
        s.matched_by = by_material ? "material" : "mesh";
        for (size_t m = 0; m < scene.meshes.size(); ++m) {
            const Mesh& mesh = scene.meshes[m];
            const bool hit = by_material ? (mesh.material >= 0 && scene.materials[mesh.material] == name)
                                         : (mesh.name == name || mesh.node_name == name);
            if (hit) s.garment.meshes.push_back(static_cast<int>(m));
        }
        if (s.garment.meshes.empty()) {
            error = std::string("no ") + (by_material ? "material" : "mesh or node") + " is called '" + name + "'";
            return {};
        }
        out.push_back(std::move(s));
        return out;
    }
    ModelGarments found = find_garments(scene, gopt);
    for (const Garment& g : found.garments) {
        if (!o.garment.empty() && g.name != o.garment) continue;
        out.push_back(sheet_selection(g, found));
    }
    if (out.empty()) {
        if (!o.garment.empty()) {
            error = "no garment is called '" + o.garment + "'";
            if (!found.garments.empty()) {
                error += " (found:";
                for (const Garment& g : found.garments) error += " '" + g.name + "'";
                error += ")";
            }
        } else {
            error = "no garment found by name (" + found.verdict +
                    "); name the cloth with --material NAME or --mesh NAME";
        }
    }
    return out;
}

}  // namespace

SheetModelResult sheet_model(const fs::path& model, const fs::path& out_dir, const SheetModelOptions& o) {
    SheetModelResult result;
    json& report = result.report;
    report["schema"] = sheet_json_schema;
    report["weft_version"] = WEFT_VERSION;
    report["model"] = o.model_label;
    report["output_dir"] = o.out_label;
    json selection = nullptr;
    if (!o.garment.empty()) selection = {{"garment", o.garment}};
    if (!o.material.empty()) selection = {{"material", o.material}};
    if (!o.mesh.empty()) selection = {{"mesh", o.mesh}};
    report["options"] = {{"selection", selection},
                         {"pin", o.pin.empty() ? json(nullptr) : json(o.pin)},
                         {"pin_weight", o.sheet.pin_weight},
                         {"weld_tolerance", o.sheet.weld_tolerance ? json(*o.sheet.weld_tolerance) : json(nullptr)},
                         {"repair", o.sheet.repair},
                         {"config", o.config_label.empty() ? json(nullptr) : json(o.config_label)}};
    json garments = json::array();
    int built = 0, refused = 0, skipped = 0;
    std::ostringstream summary;
    summary << "weft sheet " << o.model_label << " -> " << o.out_label << "\n";

    ImportResult imported = import_scene(model, o.import);
    result.imported = imported.ok();
    json import_issues = json::array();
    for (const Issue& i : imported.issues) import_issues.push_back(issue_json(i));
    report["import_issues"] = std::move(import_issues);
    result.issues = imported.issues;
    std::string error;
    std::vector<SheetSelection> selected;
    if (!imported.ok()) {
        for (const Issue& i : imported.issues)
            if (i.severity == Severity::error) result.messages.push_back(i.message + " [" + i.code + "]");
        error = "the model was refused on import";
    } else {
        selected = select_garments(imported.scene, o, error);
        if (!error.empty()) {
            result.messages.push_back(o.model_label + ": " + error);
            result.issues.push_back(make_issue(kNoGarmentFound, o.model_label + ": " + error, ""));
        }
    }

    std::set<std::string> stems;
    for (const SheetSelection& s : selected) {
        json g;
        g["name"] = s.garment.name;
        g["class"] = s.garment.garment_class;
        g["matched_by"] = s.matched_by;
        json meshes = json::array();
        for (int m : s.garment.meshes) {
            const Mesh& mesh = imported.scene.meshes[m];
            meshes.push_back({{"name", mesh.name},
                              {"node", mesh.node_name},
                              {"material", mesh.material >= 0 ? imported.scene.materials[mesh.material] : ""}});
        }
        g["meshes"] = std::move(meshes);
        g["proxy"] = nullptr;
        if (!s.skip_reason.empty()) {
            ++skipped;
            g["status"] = "skipped";
            g["reason"] = s.skip_reason;
            g["issues"] = json::array();
            summary << "  " << s.garment.name << " (" << s.garment.garment_class << "): skipped: " << s.skip_reason << "\n";
            garments.push_back(std::move(g));
            continue;
        }

        Issues issues;
        const SheetBuildResult r = build_selected_sheet(imported.scene, s, o.sheet, !o.pin.empty(), o.model_label);
        issues.insert(issues.end(), r.issues.begin(), r.issues.end());

        if (r.proxy) {
            const std::string stem = garment_file_stem(unique_garment_name(s.garment.name, stems));
            const fs::path path = out_dir / (stem + ".clothproxy");
            if (std::string why = save_proxy(*r.proxy, path); !why.empty()) {
                issues.push_back(make_issue(kWriteFailed, why, ""));
            } else {
                result.written.push_back(stem + ".clothproxy");
                g["proxy"] = stem + ".clothproxy";
                g["frame"] = r.proxy->frame.node;
                json pins = json::array();
                for (const Pin& pin : r.proxy->pins) pins.push_back({{"holder", pin.holder}, {"particles", pin.particles.size()}});
                g["pins"] = std::move(pins);
                g["fabric"] = r.proxy->suggested_fabric;
            }
        }
        const bool ok = !has_error(issues) && !g["proxy"].is_null();
        if (ok) ++built;
        else ++refused;
        g["status"] = ok ? "built" : "refused";
        g["stats"] = sheet_stats_json(r.stats);
        json list = json::array();
        for (const Issue& i : issues) {
            list.push_back(issue_json(i));
            if (i.severity == Severity::error) result.messages.push_back(i.message + " [" + i.code + "]");
            if (i.severity == Severity::warning) result.messages.push_back("warning: " + i.message + " [" + i.code + "]");
        }
        g["issues"] = std::move(list);
        result.issues.insert(result.issues.end(), issues.begin(), issues.end());

        const SheetStats& st = r.stats;
        summary << "  " << s.garment.name << " (" << s.garment.garment_class << "): ";
        if (ok) {
            summary << "built " << g["proxy"].get<std::string>() << ": " << st.particles << " particles from "
                    << st.source_vertices << " vertices, " << st.edges << " edges, " << st.hinges << " hinges, "
                    << st.triangles << " triangles, " << st.colours << " colours (" << st.smallest_colour << ".."
                    << st.largest_colour << "), " << st.held << " held";
            for (const Pin& pin : r.proxy->pins) summary << (&pin == &r.proxy->pins.front() ? " by " : ", ") << pin.holder;
            summary << ", " << st.total_mass << " kg";
            if (st.dropped_triangles) summary << ", " << st.dropped_triangles << " triangles dropped (--repair)";
            summary << "\n";
        } else {
            std::map<std::string, int> counts;
            for (const Issue& i : issues)
                if (i.severity == Severity::error) ++counts[i.code];
            summary << "refused:";
            for (const auto& [code, n] : counts) summary << " " << n << " " << code;
            summary << "\n";
        }
        garments.push_back(std::move(g));
    }
    if (!error.empty()) summary << "  " << error << "\n";

    report["garments"] = std::move(garments);
    report["built"] = built;
    report["refused"] = refused;
    report["skipped"] = skipped;
    report["error"] = error.empty() ? json(nullptr) : json(error);
    result.passed = error.empty() && refused == 0 && built > 0;
    report["passed"] = result.passed;
    result.summary = summary.str();
    return result;
}

}  // namespace weft
