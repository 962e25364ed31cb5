// The page's proxies (view_parts.h): each at rest, and each run it was validated under with its
// verdict, gates, worst step, figures and as many of its recorded frames as the size budget allows
// (docs/view.md#what-a-page-shows, #the-size-budget).
#include <algorithm>
#include <cmath>
#include <limits>

#include "outputs/view_packing.h"
#include "outputs/view_parts.h"
#include "pipeline/cloth_summary.h"
#include "validate/gates.h"
#include "validate/scenario.h"

namespace weft {

using json = nlohmann::json;

namespace {

std::vector<float> world_positions(const Pose& frame, const std::vector<Vec3>& x) {
    std::vector<float> out;
    out.reserve(3 * x.size());
    for (const Vec3& p : x) {
        const Vec3 w = frame.apply(p);
        out.insert(out.end(), {float(w.x), float(w.y), float(w.z)});
    }
    return out;
}

json numbers_json(const std::vector<double>& values) {
    json out = json::array();
    for (double v : values) out.push_back(short_number(v));
    return out;
}

json pairs_json(const auto& rows) {
    std::vector<uint32_t> flat;
    for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.end());
    return indices_json(flat);
}

/// A rig's particles on the skeleton: for each chain joint the solver poses, its node (page index;
/// -1 for a particle that poses none) and the particle after it on its chain (-1 at a tip), so the
/// page poses those joints, and the render vertices they weight, from the particles as the solver
/// moved them (lib/validate/model/rig_validate.h). A chain's first particle is its anchor, a body
/// bone the clip moves: a particle poses its joint when its joint's parent is another particle's.
void chain_json(const ClothProxy& p, const Scene& scene, ViewNodes& nodes, json& out) {
    const size_t n = p.joint_name.size();
    std::vector<int> node_of(n, -1);
    std::map<int, size_t> particle_of;
    for (size_t i = 0; i < n; ++i) {
        node_of[i] = p.joint_name[i].empty() ? -1 : scene.find_node(p.joint_name[i]);
        if (node_of[i] >= 0) particle_of.emplace(node_of[i], i);
    }
    auto parent_particle = [&](size_t i) -> long {
        if (node_of[i] < 0) return -1;
        const auto it = particle_of.find(scene.nodes[static_cast<size_t>(node_of[i])].parent);
        return it == particle_of.end() ? -1 : static_cast<long>(it->second);
    };
    std::vector<std::vector<uint32_t>> linked(n);
    for (const auto& e : p.edges)
        if (e[0] < n && e[1] < n) {
            linked[e[0]].push_back(e[1]);
            linked[e[1]].push_back(e[0]);
        }
    std::vector<int> page(n, -1), next(n, -1);
    for (size_t i = 0; i < n; ++i) {
        if (parent_particle(i) < 0) continue;  // an anchor, or a particle of no joint
        page[i] = nodes.add(node_of[i]);
        nodes.chain[static_cast<size_t>(page[i])] = 1;
        // The next particle: a linked one whose joint is this one's child, else a linked tip (no joint).
        for (uint32_t j : linked[i])
            if (parent_particle(j) == static_cast<long>(i) || (node_of[j] < 0 && next[i] < 0)) next[i] = static_cast<int>(j);
    }
    out["joint_nodes"] = page;
    out["next"] = next;
}

/// What a page shows a gate's value in.
const char* gate_unit(std::string_view gate) {
    if (gate == "STRAIN" || gate == "MESH_STRETCH") return "length / rest";
    if (gate == "PENETRATION" || gate == "SCALP_DISPLACEMENT") return "m";
    if (gate == "ENERGY_RISING") return "of the energy scale";
    if (gate == "NON_FINITE" || gate == "NEVER_SLEPT") return "step";
    if (gate == "SELF_INTERSECTION") return "crossing pairs";
    if (gate == "FACE_INSIDE_OUT") return "faces";
    return "";
}

/// The step a solver gate's value was measured at: where it failed or came nearest.
uint32_t gate_step(const GateResult& g, const ScenarioStats& s) {
    switch (g.gate) {
        case Gate::non_finite: return s.non_finite_step.value_or(s.steps);
        case Gate::never_slept: return s.sleep_step.value_or(s.steps);
        case Gate::strain: return s.max_strain_step;
        case Gate::penetration:
            return s.max_render_penetration && g.value == s.max_render_penetration ? s.max_render_penetration_step
                                                                                  : s.max_penetration_step;
        case Gate::mesh_stretch: return s.max_mesh_stretch_step;
        default: return s.steps;  // judged at the end, or a trend over the last third: its end
    }
}

uint32_t mesh_gate_step(const MeshGateResult& g, const MeshPoseStats& pose) {
    if (g.gate == "SCALP_DISPLACEMENT") return pose.max_scalp_step;
    if (g.gate == "PENETRATION") return pose.max_penetration_step;
    return pose.step;
}

/// How near its limit a gate came (gate_nearness); NaN when the gate has no value to compare.
double nearness(const json& gate) {
    if (!gate.contains("value") || !gate.contains("limit")) return std::numeric_limits<double>::quiet_NaN();
    return gate_nearness(gate["gate"].get<std::string>(), gate["value"].get<double>(), gate["limit"].get<double>());
}

json gate_json(std::string code, bool passed, const std::string& message, std::optional<double> value,
               std::optional<double> limit, uint32_t step, const char* from) {
    json g = {{"gate", code}, {"passed", passed}, {"message", message}, {"unit", gate_unit(code)}, {"step", step}, {"from", from}};
    if (value) g["value"] = short_number(*value);
    if (limit) g["limit"] = short_number(*limit);
    return g;
}

/// Every gate of run `k`: the solver's, then (a rig's) the skinned mesh's; and the worst of them.
void gates_json(const ViewProxy& vp, size_t k, json& out) {
    const ProxyValidation& v = *vp.validation;
    const ScenarioStats& s = v.scenarios[k];
    const std::string label = scenario_label(s.scenario, s.clip);
    json gates = json::array();
    for (const GateResult& g : v.gates)
        if (scenario_label(g.scenario, g.clip) == label)
            gates.push_back(gate_json(gate_code(g.gate), g.passed, g.message, g.value, g.limit, gate_step(g, s), "proxy"));
    if (vp.mesh) {
        const MeshPoseStats* pose = nullptr;
        for (const MeshPoseStats& p : vp.mesh->poses)
            if (scenario_label(p.scenario, p.clip) == label) pose = &p;
        for (const MeshGateResult& g : vp.mesh->mesh_gates)
            if (pose && scenario_label(g.scenario, g.clip) == label)
                gates.push_back(gate_json(g.gate, g.passed, g.message, g.value, g.limit, mesh_gate_step(g, *pose), "mesh"));
    }
    bool passed = true;
    const json* worst = nullptr;
    double worst_nearness = 0;
    for (const json& g : gates) {
        passed = passed && g["passed"].get<bool>();
        const double n = nearness(g);
        if (std::isnan(n)) continue;
        const bool failed = !g["passed"].get<bool>();
        if (!worst || (failed && (*worst)["passed"].get<bool>()) || (failed == !(*worst)["passed"].get<bool>() && n > worst_nearness)) {
            worst = &g;
            worst_nearness = n;
        }
    }
    out["passed"] = passed;
    out["worst"] = worst ? json{{"gate", (*worst)["gate"]}, {"step", (*worst)["step"]}, {"passed", (*worst)["passed"]}} : json();
    out["gates"] = std::move(gates);
}

/// Each figure's per-step values, at most `points` of them: a bucket of steps keeps its largest
/// (the peaks a gate judges stay in sight).
json figures_json(const ScenarioTrace& t, size_t points = 600) {
    const size_t n = t.steps.size();
    const size_t every = std::max<size_t>(1, (n + points - 1) / points);
    json series;
    const std::pair<const char*, double StepFigures::*> figures[] = {{"max_speed", &StepFigures::max_speed},
                                                                       {"max_strain", &StepFigures::max_strain},
                                                                       {"kinetic_energy", &StepFigures::kinetic_energy},
                                                                       {"total_energy", &StepFigures::total_energy}};
    for (const auto& [name, field] : figures) {
        std::vector<double> values;
        for (size_t b = 0; b < n; b += every) {
            double top = -std::numeric_limits<double>::infinity();
            for (size_t i = b; i < std::min(n, b + every); ++i) top = std::max(top, t.steps[i].*field);
            values.push_back(top);
        }
        series[name] = series_json(values);
    }
    return {{"every", every}, {"count", (n + every - 1) / every}, {"series", std::move(series)}};
}

/// The frames of `t` a run keeps: at most `cap`, spread evenly, the first, the last and the one
/// showing the worst gate's step (the last frame at or before it) always among them.
std::vector<size_t> kept_frames(const ScenarioTrace& t, uint32_t cap, uint32_t worst_step) {
    const size_t n = t.frames.size();
    std::vector<size_t> keep;
    if (n <= cap) {
        for (size_t k = 0; k < n; ++k) keep.push_back(k);
        return keep;
    }
    for (uint32_t i = 0; i + 1 < cap; ++i) keep.push_back(static_cast<size_t>(std::llround(double(i) * double(n - 1) / (cap - 1))));
    keep.push_back(n - 1);
    size_t worst = 0;
    while (worst + 1 < n && t.frame_steps[worst + 1] <= worst_step) ++worst;
    keep.push_back(worst);
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    return keep;
}

json frames_json(const ScenarioTrace& t, const Pose& frame, uint32_t cap, uint32_t worst_step) {
    std::vector<float> all;
    std::vector<uint32_t> steps;
    for (size_t k : kept_frames(t, cap, worst_step)) {
        const std::vector<float>& f = t.frames[k];
        std::vector<Vec3> x(f.size() / 3);
        for (size_t i = 0; i < x.size(); ++i) x[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
        const std::vector<float> w = world_positions(frame, x);
        all.insert(all.end(), w.begin(), w.end());
        steps.push_back(t.frame_steps[k]);
    }
    const Bounds3 q = bounds_of(all);
    return {{"every", t.frame_every}, {"recorded", t.frames.size()}, {"steps", steps}, {"bounds", bounds_json(q)},
            {"positions", quantise(all, q)}};
}

}  // namespace

json proxy_rest_json(const ViewProxy& vp, const Scene* scene, ViewNodes& nodes) {
    const ClothProxy& p = vp.proxy;
    const Pose frame = rest_frame_pose(p);
    const std::vector<float> rest = world_positions(frame, p.rest_position);
    const Bounds3 q = bounds_of(rest);
    std::vector<uint32_t> colour(p.particle_count(), 0);
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c)
        for (uint32_t i = p.colour_ranges[c]; i < p.colour_ranges[c + 1] && i < colour.size(); ++i) colour[i] = uint32_t(c);
    std::vector<double> mass(p.particle_count(), 0), d_geo(p.particle_count(), -1);
    for (size_t i = 0; i < p.particle_count(); ++i) {
        mass[i] = p.inverse_mass[i] > 0 ? 1 / p.inverse_mass[i] : 0;  // 0: held or read-only
        if (std::isfinite(p.d_geo[i])) d_geo[i] = p.d_geo[i];         // -1: nothing holds it
    }
    json pins = json::array();
    for (const Pin& pin : p.pins) {
        json j = {{"holder", pin.holder}, {"particles", pin.particles}};
        const int node = scene ? scene->find_node(pin.holder) : -1;
        if (node >= 0) {
            const auto& m = scene->nodes[static_cast<size_t>(node)].world.m;
            j["holder_position"] = {short_number(m[12]), short_number(m[13]), short_number(m[14])};
        }
        pins.push_back(std::move(j));
    }
    json out = {{"file", vp.file},
                {"garment", p.garment},
                {"garment_class", p.garment_class},
                {"kind", p.kind == ProxyKind::rig ? "rig" : "sheet"},
                {"particles", p.particle_count()},
                {"colours", p.colour_ranges.empty() ? 0 : p.colour_ranges.size() - 1},
                {"bounds", bounds_json(q)},
                {"rest", quantise(rest, q)},
                {"colour", indices_json(colour)},
                {"mass", numbers_json(mass)},
                {"d_geo", numbers_json(d_geo)},
                {"edges", pairs_json(p.edges)},
                {"skips", pairs_json(p.skips)},
                {"triangles", pairs_json(p.triangles)},
                {"pins", pins}};
    if (!p.joint_name.empty()) out["joints"] = p.joint_name;
    if (scene) {
        // A clip moves the cloth with what holds it: its first pin's holder, else its frame's node
        // (lib/validate/clip_motion.h: the particles are recorded relative to that holder).
        const int rides = p.pins.empty() ? scene->find_node(p.frame.node) : scene->find_node(p.pins.front().holder);
        out["rides"] = nodes.add(rides);
        if (p.kind == ProxyKind::rig) chain_json(p, *scene, nodes, out);
    }
    if (vp.validation) {
        out["fabric"] = vp.validation->fabric;
        out["passed"] = vp.validation->passed() && (!vp.mesh || vp.mesh->passed());
        if (vp.validation->refused) out["refused"] = vp.validation->refused->message;
        out["energy_scale"] = short_number(vp.validation->energy_scale);
        out["velocity_clamp"] = short_number(vp.validation->velocity_clamp);
    }
    return out;
}

FramePlan plan_frames(const std::vector<ViewProxy>& proxies, size_t budget) {
    // The largest cap whose frames fit: the cost only grows with the cap, so a bisection finds it.
    auto cost = [&](uint32_t cap) {
        size_t values = 0;
        for (const ViewProxy& vp : proxies)
            if (vp.validation)
                for (const ScenarioTrace& t : vp.validation->traces)
                    values += (t.frames.size() <= cap ? t.frames.size() : cap + 1) * 3 * vp.proxy.particle_count();
        return values;
    };
    uint32_t most = 2;
    for (const ViewProxy& vp : proxies)
        if (vp.validation)
            for (const ScenarioTrace& t : vp.validation->traces) most = std::max<uint32_t>(most, static_cast<uint32_t>(t.frames.size()));
    if (cost(most) <= budget) return {most};
    uint32_t lo = 2, hi = most;  // a run keeps its first and last frames whatever the budget
    while (lo + 1 < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        (cost(mid) <= budget ? lo : hi) = mid;
    }
    return {lo};
}

json scenarios_json(const ViewProxy& vp, const FramePlan& plan, const std::map<std::string, int>& clips) {
    json scenarios = json::array();
    if (!vp.validation) return scenarios;
    const ProxyValidation& v = *vp.validation;
    const Pose frame = rest_frame_pose(vp.proxy);
    for (size_t k = 0; k < v.scenarios.size(); ++k) {
        const ScenarioStats& s = v.scenarios[k];
        json out = {{"scenario", scenario_label(s.scenario, s.clip)},
                    {"kind", scenario_name(s.scenario)},
                    {"steps", s.steps},
                    {"settle_steps", s.settle_steps}};
        if (s.scenario == Scenario::clip) {
            const auto it = clips.find(s.clip);
            if (it != clips.end()) out["clip"] = it->second;
        }
        if (s.sleep_step) out["sleep_step"] = *s.sleep_step;
        gates_json(vp, k, out);
        if (k < v.traces.size()) {
            const ScenarioTrace& t = v.traces[k];
            out["figures"] = figures_json(t);
            const uint32_t worst = out["worst"].is_object() ? out["worst"]["step"].get<uint32_t>() : 0;
            if (!t.frames.empty()) out["frames"] = frames_json(t, frame, plan.cap, worst);
        }
        scenarios.push_back(std::move(out));
    }
    return scenarios;
}

}  // namespace weft
