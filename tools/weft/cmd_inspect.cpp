// weft inspect MODEL... [model flags: --classes, --no-grow, --config, --fabric, ...] [--json] [--report FILE]:
// what is in each model and what `weft bake` with the same flags will do with each garment. It is bake's
// own record pass (batch/bake_model.h under inspect_preset: import, garments, grow, plan, build),
// stopped before anything is written, so it cannot say other than bake does. A readable summary on
// standard output; --json puts the report (schemas/inspect.schema.json) there instead, --report
// writes it to a file. Every file is reported; a refused one is one line on standard error, and
// the exit status is 1. Progress goes to standard error, on a terminal only.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "command.h"
#include "model_flags.h"
#include "garment/config.h"
#include "garment/garment_json.h"
#include "garment/garments.h"
#include "grow/grow.h"
#include "grow/plan.h"
#include "io/atomic_file.h"
#include "batch/bake.h"
#include "batch/bake_model.h"
#include "pipeline/garment_names.h"
#include "outputs/issue_json.h"
#include "scene/import.h"

namespace weft::cli {
namespace {

using nlohmann::json;

constexpr const char* kInspectSchema = "weft.inspect/1";

/// inspect takes the model flags that decide what bake builds (model_flags.h); it validates nothing.
constexpr unsigned kInspectFlags = model_flags_input | model_flags_grow | model_flags_fabric | model_flags_limits;

struct InspectOptions {
    std::vector<std::string> models;
    bool json = false;
    std::string report;
    ModelFlags flags;
    Verbosity verbosity;
};

/// What bake would write for the model: each proxy's file, kind, garment and whether it builds.
json proxies_json(const ModelRecord& r) {
    json proxies = json::array();
    for (const RiggedGarment& g : r.rigs)
        proxies.push_back({{"file", garment_file_stem(g.name) + ".clothproxy"}, {"kind", "rig"}, {"garment", g.name},
                           {"class", g.class_name}, {"built", g.built.proxy.has_value() && !has_error(g.built.issues)}});
    for (const SheetedGarment& g : r.sheets)
        proxies.push_back({{"file", g.file_stem.empty() ? json(nullptr) : json(g.file_stem + ".clothproxy")}, {"kind", "sheet"},
                           {"garment", g.name}, {"class", g.class_name}, {"built", g.status == SheetStatus::built}});
    return proxies;
}

/// The model as imported, and the garments as planned, from the record of bake's own pass.
void describe_model(const ModelRecord& r, json& model) {
    const Scene& scene = r.grow ? r.imported_scene : r.scene;  // the model as given, before bones grew
    size_t vertices = 0, triangles = 0, morphs = 0, joints = 0;
    for (const Mesh& m : scene.meshes) {
        vertices += m.vertex_count();
        triangles += m.triangle_count();
        morphs += static_cast<size_t>(std::max(0, m.morph_target_count));
    }
    for (const Skin& s : scene.skins) joints += s.joints.size();
    const Bounds bounds = scene.bounds();
    model["format"] = scene.format;
    model["unit_scale"] = scene.unit_scale;
    model["up_axis"] = scene.up_axis;
    model["counts"] = {{"nodes", scene.nodes.size()},   {"meshes", scene.meshes.size()},
                       {"materials", scene.materials.size()}, {"skins", scene.skins.size()},
                       {"joints", joints},               {"vertices", vertices},
                       {"triangles", triangles},         {"morph_targets", morphs},
                       {"animations", scene.animations.size()}};
    model["bounds"] = bounds_to_json(bounds);
    model["height"] = bounds.empty() ? 0.0 : std::round(bounds.size().y * 1e6) / 1e6;
    json garments = garments_to_json(scene, r.garments);
    garments["verdict"] = r.garments.verdict;  // what bake makes move (planned_verdict)
    for (size_t i = 0; i < r.plans.size(); ++i) {
        const GarmentPlan& plan = r.plans[i];
        json& g = garments["garments"][i];
        g["action"] = plan.action;
        g["moves"] = plan.moves();
        g["verdict"] = plan.verdict;
        const json held = plan.held_by >= 0 ? json(r.scene.nodes[static_cast<size_t>(plan.held_by)].name) : json(nullptr);
        g["welded_to"] = plan.action == "stays" ? held : json(nullptr);
        g["held_by"] = plan.action == "sheet" ? held : json(nullptr);
    }
    for (auto it = garments.begin(); it != garments.end(); ++it) model[it.key()] = it.value();
    model["proxies"] = proxies_json(r);
}

/// One model's report entry, from bake's record pass stopped before writing (inspect_preset);
/// `refusal` is set to the line for standard error when it is refused.
json inspect_one(const std::string& path, const ModelOptions& options, std::string& refusal) {
    const ModelRecord r = bake_model(path, options);
    json model;
    model["file"] = path;
    // A model that could not be finished (OUT_OF_MEMORY, INTERNAL_ERROR: the last issue) is refused
    // like one that could not be read.
    const bool unfinished = r.status == ModelStatus::failed && !r.issues.empty();
    if (!r.imported || unfinished) {
        const Issue* first = unfinished ? &r.issues.back() : nullptr;
        for (const Issue& i : r.issues)
            if (i.severity == Severity::error && !first) first = &i;
        model["status"] = "refused";
        model["error"] = first ? issue_json(*first) : json(nullptr);
        model["issues"] = issues_json(unfinished ? r.issues : r.import_issues);
        refusal = first ? first->message + " [" + first->code + "]" : path + ": refused";
        return model;
    }
    model["status"] = "ok";
    model["issues"] = issues_json(r.issues);
    describe_model(r, model);
    return model;
}

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string vec_text(const json& v) {
    return "(" + fixed(v[0].get<double>(), 3) + ", " + fixed(v[1].get<double>(), 3) + ", " +
           fixed(v[2].get<double>(), 3) + ")";
}

std::string bounds_text(const json& b) {
    if (b.is_null()) return "empty";
    return vec_text(b["min"]) + " .. " + vec_text(b["max"]) + " m";
}

void print_garment(std::ostream& out, const json& g, const json& chains) {
    out << "    " << g["class"].get<std::string>() << "  " << g["name"].get<std::string>() << "  (by "
        << g["matched_by"].get<std::string>();
    if (g["matched_by"] == "config") out << " rule " << g["rule"]["pointer"].get<std::string>();
    out << ")  " << g["vertices"].get<size_t>() << " vertices, " << g["triangles"].get<size_t>() << " triangles, "
        << g["pieces"].get<size_t>() << (g["pieces"] == 1 ? " piece" : " pieces") << ", span "
        << fixed(g["span"].get<double>(), 3) << " m\n";
    out << "      bounds " << bounds_text(g["bounds"]);
    if (!g["body_bone"].is_null()) out << ", held by " << g["body_bone"].get<std::string>();
    out << "\n";
    if (g.contains("reason")) {
        out << "      NOT A GARMENT: " << g["reason"].get<std::string>() << "\n";
        return;
    }
    if (g.contains("found_by")) {
        out << "      found by " << g["found_by"]["rule"].get<std::string>() << " (";
        bool first = true;
        for (auto it = g["found_by"]["measurements"].begin(); it != g["found_by"]["measurements"].end(); ++it) {
            out << (first ? "" : ", ") << it.key() << " " << it.value().dump();
            first = false;
        }
        out << ")\n";
    }
    out << "      " << (g["moves"].get<bool>() ? "MOVES" : "WILL NOT MOVE") << ": " << g["verdict"].get<std::string>();
    if (!g["chains"].empty()) {
        out << " (chains:";
        for (const auto& c : g["chains"]) out << " " << chains[c.get<size_t>()]["name"].get<std::string>();
        out << ")";
    }
    out << "\n";
}

void print_summary(std::ostream& out, const json& model) {
    out << model["file"].get<std::string>() << "\n";
    if (model["status"] == "refused") {
        out << "  REFUSED: " << model["error"]["message"].get<std::string>() << "\n\n";
        return;
    }
    const json& c = model["counts"];
    out << "  " << model["format"].get<std::string>() << ", " << c["meshes"].get<size_t>() << " meshes, "
        << c["vertices"].get<size_t>() << " vertices, " << c["triangles"].get<size_t>() << " triangles, "
        << c["joints"].get<size_t>() << " joints, " << c["animations"].get<size_t>() << " animations\n";
    out << "  bounds " << bounds_text(model["bounds"]) << ", height " << fixed(model["height"].get<double>(), 3) << " m\n";
    out << "  materials:";
    for (const auto& m : model["materials"]) out << " " << m.get<std::string>();
    out << "\n";
    const json& chains = model["chains"];
    if (!model["garments"].empty()) out << "  garments:\n";
    for (const auto& g : model["garments"]) print_garment(out, g, chains);
    if (!model["not_garments"].empty()) out << "  name matches that are not garments:\n";
    for (const auto& g : model["not_garments"]) print_garment(out, g, chains);
    if (!chains.empty()) out << "  authored chains:\n";
    for (const auto& ch : chains) {
        out << "    " << ch["class"].get<std::string>() << "  ";
        bool first = true;
        for (const auto& j : ch["joints"]) {
            out << (first ? "" : " > ") << j.get<std::string>();
            first = false;
        }
        out << "  (" << fixed(ch["length"].get<double>(), 3) << " m";
        if (!ch["parent_bone"].is_null()) out << ", from " << ch["parent_bone"].get<std::string>();
        if (ch.contains("animated_root"))
            out << ", root " << ch["animated_root"].get<std::string>() << " left to the animation: it carries body skin";
        out << ", weights " << ch["vertices"].get<size_t>() << " vertices; by";
        for (const auto& f : ch["found_by"]) out << " " << f.get<std::string>();
        out << ")\n";
    }
    if (!model["proxies"].empty()) {
        out << "  weft bake writes:";
        for (const auto& p : model["proxies"]) {
            if (!p["built"].get<bool>()) {
                out << " " << p["garment"].get<std::string>() << " (" << p["kind"].get<std::string>() << ", refused)";
                continue;
            }
            out << " " << p["file"].get<std::string>() << " (" << p["kind"].get<std::string>() << ")";
        }
        out << "\n";
    }
    out << "  verdict: " << model["verdict"].get<std::string>() << "\n\n";
}

int run_inspect(const InspectOptions& given) {
    // Folders are walked as `weft bake` walks them (every format Assimp reads, and .vrm; sorted).
    InspectOptions o = given;
    o.models.clear();
    for (const std::string& m : given.models) {
        std::error_code ec;
        // A folder named like a model (`dir.glb`) is one input the report refuses, not a tree to walk.
        if (!std::filesystem::is_directory(m, ec) || is_model_file(m)) {
            o.models.push_back(m);  // a file, or a missing one the report refuses by name
            continue;
        }
        Issues none;
        for (const BakeInput& in : walk_inputs({std::filesystem::path(m)}, {}, none)) o.models.push_back(in.path.string());
    }
    ModelOptions options = inspect_preset();
    if (!apply_model_flags(o.flags, kInspectFlags, given.models, "weft inspect", options)) return exit_usage;

    const auto watchdog = apply_model_limits(o.flags, "weft inspect");
    const bool progress = !o.verbosity.quiet && isatty(STDERR_FILENO) != 0;
    json models = json::array();
    size_t refused = 0;
    for (size_t i = 0; i < o.models.size(); ++i) {
        if (progress) std::cerr << "\rinspect [" << i + 1 << "/" << o.models.size() << "] " << o.models[i] << "\033[K" << std::flush;
        std::string refusal;
        {
            ModelWatchdog::Armed armed(*watchdog, o.models[i]);
            models.push_back(inspect_one(o.models[i], options, refusal));
        }
        if (!refusal.empty()) {
            if (progress) std::cerr << "\r\033[K";
            std::cerr << "weft inspect: refused: " << refusal << "\n";
            ++refused;
        }
    }
    if (progress) std::cerr << "\r\033[K" << std::flush;

    json report;
    report["schema"] = kInspectSchema;
    report["weft_version"] = WEFT_VERSION;
    report["options"] = {{"classes", options.grow.classes},
                         {"config", options.config_file.empty() ? json(nullptr) : json(options.config_file.generic_string())},
                         {"min_garment_span", options.garments.config.min_garment_span.value_or(kDefaultMinGarmentSpan)},
                         {"fabric", o.flags.fabric.empty() ? json(nullptr) : json(o.flags.fabric)}};
    report["options"]["grow"] = options.grow_cloth;
    report["files"] = o.models.size();
    report["refused"] = refused;
    report["models"] = std::move(models);

    const std::string text = report.dump(2) + "\n";
    int status = refused ? exit_refused : exit_ok;
    if (!o.report.empty()) {
        if (std::string why = write_file_atomic(o.report, std::string_view(text)); !why.empty()) {
            std::cerr << "weft inspect: --report: " << why << "\n";
            status = exit_refused;
        }
    }
    if (o.json) {
        std::cout << text;
    } else {
        std::ostringstream out;
        for (const auto& m : report["models"]) print_summary(out, m);
        out << o.models.size() - refused << " of " << o.models.size() << " files read";
        if (refused) out << ", " << refused << " refused";
        out << "\n";
        std::cout << out.str();
    }
    return status;
}

const CommandRegistration inspect_registration{
    "inspect", "What is in a model: garments, authored chains, and what will or will not move", 10,
    [](CLI::App& app) {
        auto options = std::make_shared<InspectOptions>();
        app.add_option("models", options->models, "Model files (glTF, GLB, VRM, FBX, ...) or folders (walked as bake walks them)")
            ->required();
        app.add_flag("--json", options->json, "Print the report as JSON (schemas/inspect.schema.json) on standard output");
        app.add_option("--report", options->report, "Also write the JSON report to this file")->check(non_empty_path);
        add_model_flags(app, options->flags, kInspectFlags);
        add_verbosity(app, options->verbosity);
        return [options] { return run_inspect(*options); };
    }};

}  // namespace
}  // namespace weft::cli
