#include "outputs/rig_report.h"

#include <cmath>

#include "outputs/issue_json.h"
#include "outputs/sheet_report.h"
#include "scene/hierarchy.h"

namespace weft {
namespace {

using json = nlohmann::json;

double round6(double v) {
    const double r = std::round(v * 1e6) / 1e6;
    return r == 0 ? 0.0 : r;
}

}  // namespace

namespace {
/// The report's "grow" object: what growing did per garment, null when grow_cloth was not asked.
json grow_report_json(const ModelRecord& r) {
    const Scene& scene = r.scene;
    auto name_of = [&](int node) {
        return has_node(scene, node) ? json(scene.nodes[static_cast<size_t>(node)].name) : json(nullptr);
    };
    if (!r.grow) return nullptr;
    json list = json::array();
    for (const GrownGarment& gg : r.grow->garments) {
        json clumps = json::array();
        for (const ClumpReport& c : gg.clumps)
            clumps.push_back({{"shape", clump_shape_name(c.shape)},
                              {"island", c.island},
                              {"wedge", c.wedge >= 0 ? json(c.wedge) : json(nullptr)},
                              {"vertices", c.vertices},
                              {"length", round6(c.length)},
                              {"holder", name_of(c.holder)},
                              {"dropped", c.dropped.empty() ? json(nullptr) : json(c.dropped)},
                              {"reason", c.reason},
                              {"chain", c.chain >= 0 ? json(r.grow->chains[static_cast<size_t>(c.chain)].name) : json(nullptr)}});
        json caps = json::array();
        for (const CapReport& c : gg.caps)
            caps.push_back({{"island", c.island}, {"vertices", c.vertices}, {"width", round6(c.width)}, {"length", round6(c.length)}});
        size_t bones = 0;
        json chains = json::array();
        for (int c : gg.chains) {
            const GrownChain& chain = r.grow->chains[static_cast<size_t>(c)];
            bones += chain.joints.size();
            chains.push_back(chain.name);
        }
        list.push_back({{"name", gg.name},
                        {"class", gg.class_name},
                        {"outcome", gg.outcome},
                        {"chains", chains},
                        {"bones", bones},
                        {"dropped", {{"too_short", gg.dropped_short}, {"too_few_vertices", gg.dropped_small}}},
                        {"caps", caps},
                        {"clumps", clumps}});
    }
    return {{"chains", r.grow->chains.size()}, {"bones", r.grow->bone_count()}, {"garments", list}};
}

}  // namespace

json rig_report_json(const ModelRecord& r, bool timings) {
    json garments = json::array();
    for (size_t i = 0; i < r.garments.garments.size(); ++i) {
        const Garment& g = r.garments.garments[i];
        json entry = {{"name", g.name},
                      {"class", g.class_name},
                      {"matched_by", g.matched_by},
                      {"moves", i < r.plans.size() ? r.plans[i].moves() : g.moves},
                      {"action", i < r.plans.size() ? r.plans[i].action : std::string("stays")},
                      {"verdict", i < r.plans.size() ? r.plans[i].verdict : g.verdict}};
        if (g.matched_by == kMatchedByGeometry) {
            json measured = json::object();
            for (const auto& [name, value] : g.geometry_measurements) measured[name] = value;
            entry["found_by"] = {{"method", g.matched_by}, {"class", g.geometry_class}, {"rule", g.geometry_rule},
                                 {"measurements", std::move(measured)}};
        }
        garments.push_back(std::move(entry));
    }
    json not_garments = json::array();
    for (const Garment& g : r.garments.not_garments)
        not_garments.push_back({{"name", g.name}, {"class", g.class_name}, {"reason", g.not_garment_reason}});

    const json grow = grow_report_json(r);

    json proxies = json::array();
    for (const RiggedGarment& g : r.rigs) {
        const RigStats& s = g.built.stats;
        json chains = json::array();
        for (const RigChain& c : g.input.chains) chains.push_back(c.name);
        proxies.push_back({{"garment", g.name},
                           {"class", g.class_name},
                           {"found_by", g.found_by},
                           {"file", g.proxy_file.empty() ? json(nullptr) : json(g.proxy_file)},
                           {"built", g.built.proxy.has_value()},
                           {"chains", chains},
                           {"particles", s.particles},
                           {"held", s.held},
                           {"joints", s.joints},
                           {"tips", s.tips},
                           {"edges", s.edges},
                           {"neighbour_links", s.neighbour_links},
                           {"skips", s.skips},
                           {"pins", s.pins},
                           {"colours", s.colours},
                           {"mass", round6(s.total_mass)},
                           {"max_d_geo", round6(s.max_d_geo)},
                           {"frame", g.built.proxy ? json(g.built.proxy->frame.node) : json(nullptr)},
                           {"fabric", g.built.proxy ? json(g.built.proxy->suggested_fabric) : json(nullptr)}});
    }
    json sheets = json::array();
    for (const SheetedGarment& g : r.sheets)
        sheets.push_back({{"garment", g.name},
                          {"class", g.class_name},
                          {"found_by", g.found_by},
                          {"file", g.proxy_file.empty() ? json(nullptr) : json(g.proxy_file)},
                          {"built", g.built.proxy.has_value()},
                          {"stats", sheet_stats_json(g.built.stats)},
                          {"frame", g.built.proxy ? json(g.built.proxy->frame.node) : json(nullptr)},
                          {"fabric", g.built.proxy ? json(g.built.proxy->suggested_fabric) : json(nullptr)}});
    // What the fit kept and what it left out, and why (docs/colliders.md#fit): the sidecar lists the
    // colliders a runtime uses; a collider that is missing is answered here.
    json left_out = json::array();
    for (const LeftOutCollider& l : r.body.left_out) left_out.push_back({{"node", l.bone}, {"reason", l.reason}});
    size_t fitted = 0, declared = 0;
    for (const BodyCollider& c : r.body.colliders) (c.origin == "declared" ? declared : fitted) += 1;
    const json colliders = {{"fitted", fitted}, {"declared", declared}, {"left_out", std::move(left_out)}};
    json grown_model = nullptr;
    if (!r.grown_model_file.empty()) {
        grown_model = {{"file", r.grown_model_file}, {"method", r.grown_model_method}};
        if (r.grown_model_method == "patched") {
            grown_model["nodes_added"] = r.patch.nodes_added;
            grown_model["primitives_reweighted"] = r.patch.primitives_reweighted;
            grown_model["vertices_reweighted"] = r.patch.vertices_reweighted;
            grown_model["images_embedded"] = r.patch.images_embedded;
            grown_model["vertices_kept_at_rest"] = r.patch.vertices_kept_at_rest;
        }
        grown_model["spring_bones"] = spring_bones_json(r.springs);
    }

    return {{"schema", "weft.rig-report/1"},
            {"tool", {{"name", "weft"}, {"version", WEFT_VERSION}}},
            {"model", r.model.string()},
            {"content_hash", r.content_hash.empty() ? json(nullptr) : json(r.content_hash)},
            {"imported", r.imported},
            {"exit_code", r.exit_code()},
            {"verdict", r.garments.verdict},
            {"garments", garments},
            {"not_garments", not_garments},
            {"grow", grow},
            {"proxies", proxies},
            {"sheets", sheets},
            {"colliders", colliders},
            {"grown_model", grown_model},
            {"sidecar", r.sidecar_file.empty() ? json(nullptr) : json(r.sidecar_file)},
            {"validation", r.validation ? rig_validation_json(*r.validation, timings) : json(nullptr)},
            {"issues", issues_json(r.issues)}};
}

json spring_bones_json(const SpringsWritten& w) {
    json changes = json::array();
    for (const SpringChange& c : w.changes)
        changes.push_back({{"spring", c.spring}, {"joint", c.joint.empty() ? json(nullptr) : json(c.joint)}, {"parameter", c.parameter},
                           {"before", c.before}, {"after", c.after}});
    json out = {{"format", w.format.empty() ? json(nullptr) : json(w.format)},
                {"authored_springs", w.authored_springs},
                {"springs_added", w.springs_added},
                {"joints_added", w.joints_added},
                {"tips_added", w.tips_added},
                {"colliders_added", w.colliders_added},
                {"collider_groups_added", w.collider_groups_added},
                {"collider_nodes_added", w.collider_nodes_added},
                {"changes", std::move(changes)}};
    if (!w.note.empty()) out["note"] = w.note;
    return out;
}

std::string rig_report_text(const ModelRecord& r) {
    std::ostringstream out;
    out << r.model.string() << ": ";
    if (!r.imported) {
        out << "refused\n";
    } else {
        out << r.garments.verdict << "\n";
    }
    if (r.grow)
        for (const GrownGarment& gg : r.grow->garments) {
            out << "  grow " << gg.name << " (" << gg.class_name << "): " << gg.outcome;
            if (!gg.caps.empty()) out << "; " << gg.caps.size() << (gg.caps.size() == 1 ? " cap" : " caps") << " cut into wedges";
            if (gg.dropped_short + gg.dropped_small > 0)
                out << "; dropped " << gg.dropped_short << " short and " << gg.dropped_small << " small clumps";
            out << "\n";
        }
    for (const RiggedGarment& g : r.rigs) {
        out << "  proxy " << g.name << " (" << g.class_name << ", " << g.found_by << "): ";
        if (!g.built.proxy) {
            out << "not built\n";
            continue;
        }
        const RigStats& s = g.built.stats;
        out << g.input.chains.size() << (g.input.chains.size() == 1 ? " chain, " : " chains, ") << s.particles
            << " particles (" << s.held << " held), " << s.pins << (s.pins == 1 ? " pin" : " pins") << ", frame "
            << g.built.proxy->frame.node << ", " << round6(s.total_mass) << " kg";
        if (!g.proxy_file.empty()) out << " -> " << g.proxy_file;
        out << "\n";
    }
    for (const SheetedGarment& g : r.sheets) {
        out << "  sheet " << g.name << " (" << g.class_name << ", " << g.found_by << "): ";
        if (!g.built.proxy) {
            out << "not built\n";
            continue;
        }
        const SheetStats& s = g.built.stats;
        out << s.particles << " particles (" << s.held << " held), " << s.pins << (s.pins == 1 ? " pin" : " pins")
            << ", frame " << g.built.proxy->frame.node << ", " << round6(s.total_mass) << " kg";
        if (!g.proxy_file.empty()) out << " -> " << g.proxy_file;
        out << "\n";
    }
    if (r.validation) out << rig_validation_text(*r.validation);
    if (!r.grown_model_file.empty()) {
        out << "  grown model -> " << r.grown_model_file << " (" << r.grown_model_method << ")\n";
        const SpringsWritten& w = r.springs;
        if (!w.format.empty() || w.authored_springs > 0) {
            out << "  spring bones" << (w.format.empty() ? "" : " (" + w.format + ")") << ": " << w.authored_springs << " authored kept";
            if (!w.changes.empty()) out << " (" << w.changes.size() << (w.changes.size() == 1 ? " value" : " values") << " changed as asked)";
            out << ", " << w.springs_added << " added, " << w.colliders_added << " body colliders\n";
            for (const SpringChange& c : w.changes)
                out << "    " << c.spring << (c.joint.empty() ? "" : " " + c.joint) << " " << c.parameter << ": " << c.before.dump() << " -> "
                    << c.after.dump() << "\n";
            if (!w.note.empty()) out << "    " << w.note << "\n";
        }
    }
    if (!r.sidecar_file.empty()) out << "  sidecar -> " << r.sidecar_file << "\n";
    for (const Issue& i : r.issues)
        if (i.severity != Severity::info) out << "  " << severity_name(i.severity) << " " << i.code << ": " << i.message << "\n";
    return out.str();
}

}  // namespace weft
