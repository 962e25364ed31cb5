// A model's rig validation as reports write it: the "validation" object of report.json
// (schemas/rig-report.schema.json) and its lines for people.
#include <cmath>

#include <nlohmann/json.hpp>

#include "io/format_text.h"
#include "validate/model/rig_validate.h"

namespace weft {
namespace {

using json = nlohmann::json;

json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json pose_json(const std::optional<MeshPoseStats>& st, bool named = false) {
    if (!st) return nullptr;
    json j = {{"step", st->step},
            {"max_edge_stretch", number(st->max_edge_stretch)},
            {"max_edge_stretch_edge", st->max_edge_stretch_mesh.empty()
                                          ? json(nullptr)
                                          : json{{"mesh", st->max_edge_stretch_mesh},
                                                 {"vertices", {st->max_edge_stretch_vertices[0], st->max_edge_stretch_vertices[1]}}}},
            {"max_scalp_displacement", number(st->max_scalp_displacement)},
            {"max_scalp_vertex", st->max_scalp_mesh.empty() ? json(nullptr)
                                                            : json{{"mesh", st->max_scalp_mesh}, {"vertex", st->max_scalp_vertex}}}};
    if (named) j["scenario"] = scenario_label(st->scenario, st->clip);
    if (st->max_penetration) {  // only with body colliders
        j["max_penetration"] = number(*st->max_penetration);
        j["max_penetration_vertex"] = st->max_penetration_mesh.empty()
                                          ? json(nullptr)
                                          : json{{"mesh", st->max_penetration_mesh}, {"vertex", st->max_penetration_vertex}};
        j["max_penetration_past_hull"] = number(*st->max_penetration_past_hull);
        j["max_penetration_past_hull_vertex"] =
            st->max_penetration_past_hull_mesh.empty()
                ? json(nullptr)
                : json{{"mesh", st->max_penetration_past_hull_mesh}, {"vertex", st->max_penetration_past_hull_vertex}};
    }
    return j;
}

const ScenarioStats* scenario_of(const ProxyValidation& v, Scenario scenario) {
    for (const ScenarioStats& s : v.scenarios)
        if (s.scenario == scenario) return &s;
    return nullptr;
}

}  // namespace

json rig_validation_json(const RigModelValidation& validation, bool timings) {
    json proxies = json::array();
    for (const RigProxyValidation& p : validation.proxies) {
        const ProxyValidation& v = p.solver;
        const ScenarioStats* hang = scenario_of(v, Scenario::hang);
        const ScenarioStats* idle = scenario_of(v, Scenario::idle);
        double max_strain = 0;
        for (const ScenarioStats& s : v.scenarios) max_strain = std::max(max_strain, s.max_strain);
        json gates = json::array();
        for (const GateResult& g : v.gates)
            gates.push_back({{"gate", gate_code(g.gate)},
                             {"scenario", scenario_label(g.scenario, g.clip)},
                             {"passed", g.passed},
                             {"value", g.value ? number(*g.value) : json(nullptr)},
                             {"limit", g.limit ? number(*g.limit) : json(nullptr)},
                             {"message", g.message}});
        for (const MeshGateResult& g : p.mesh_gates)
            gates.push_back({{"gate", g.gate},
                             {"scenario", scenario_label(g.scenario, g.clip)},
                             {"passed", g.passed},
                             {"value", number(g.value)},
                             {"limit", number(g.limit)},
                             {"message", g.message}});
        proxies.push_back(
            {{"garment", p.garment},
             {"passed", p.passed()},
             {"refused", v.refused ? json{{"code", v.refused->code}, {"message", v.refused->message}} : json(nullptr)},
             {"fabric", v.fabric.empty() ? json(nullptr) : json(v.fabric)},
             {"particles", v.particles},
             {"sleep_step", hang && hang->sleep_step ? json(*hang->sleep_step) : json(nullptr)},
             {"max_strain", v.refused ? json(nullptr) : number(max_strain)},
             {"idle_jitter_mean", idle && idle->idle_jitter_mean ? number(*idle->idle_jitter_mean) : json(nullptr)},
             {"idle_jitter_worst", idle && idle->idle_jitter_worst ? number(*idle->idle_jitter_worst) : json(nullptr)},
             {"mesh",
              {{"vertices", p.mesh_vertices},
               {"edges", p.mesh_edges},
               {"scalp_vertices", p.scalp_vertices},
               {"hull_radius", number(p.hull_radius)},
               {"hang", pose_json(p.hang)},
               {"idle", pose_json(p.idle)},
               {"scenarios", [&] {
                    json all = json::array();
                    for (const MeshPoseStats& st : p.poses) all.push_back(pose_json(st, true));
                    return all;
                }()}}},
             {"gates", gates}});
        if (p.render_penetration_limit > 0) proxies.back()["mesh"]["penetration_limit"] = number(p.render_penetration_limit);
        if (timings) proxies.back()["timing"] = {{"ms", number(p.ms)}};
    }
    return {{"passed", validation.passed()},
            {"limits",
             {{"max_strain", validation.limits.max_strain},
              {"max_energy_rise", validation.limits.max_energy_rise},
              {"max_sleep_step", validation.limits.max_sleep_step ? json(*validation.limits.max_sleep_step) : json(nullptr)},
              {"max_mesh_stretch", validation.mesh_limits.max_mesh_stretch},
              {"max_scalp_displacement", validation.mesh_limits.max_scalp_displacement},
              {"max_motion_mesh_stretch", validation.mesh_limits.max_motion_mesh_stretch},
              {"max_motion_scalp_displacement", validation.mesh_limits.max_motion_scalp_displacement}}},
            {"proxies", proxies}};
}

std::string rig_validation_text(const RigModelValidation& validation) {
    std::string out;
    for (const RigProxyValidation& p : validation.proxies) {
        const ProxyValidation& v = p.solver;
        out += "  validate " + p.garment + ": ";
        if (v.refused) {
            out += "REFUSED " + v.refused->code + ": " + v.refused->message + "\n";
            continue;
        }
        const ScenarioStats* hang = scenario_of(v, Scenario::hang);
        const ScenarioStats* idle = scenario_of(v, Scenario::idle);
        out += v.fabric;
        if (hang) out += hang->sleep_step ? format_text(", slept at %u", *hang->sleep_step) : std::string(", never slept");
        if (idle && idle->idle_jitter_mean)
            out += format_text(", idle jitter %.4f deg/frame (worst %.4f)", *idle->idle_jitter_mean, *idle->idle_jitter_worst);
        if (p.hang) out += format_text(", mesh stretch %.4f", p.hang->max_edge_stretch);
        if (p.idle) out += format_text(" (idle %.4f)", p.idle->max_edge_stretch);
        const double scalp = std::max(p.hang ? p.hang->max_scalp_displacement : 0.0, p.idle ? p.idle->max_scalp_displacement : 0.0);
        if (p.hang || p.idle) out += format_text(", scalp moved %.2f mm", scalp * 1000);
        out += format_text(", %.0f ms: %s\n", p.ms, p.passed() ? "PASS" : "FAIL");
    }
    return out;
}

}  // namespace weft
