// Validation of whole proxies, and its report as JSON and as text (docs/validation.md).
#include "validate/validate.h"

#include <algorithm>
#include <array>
#include <exception>
#include <mutex>
#include <thread>

#include "proxy/core/render_binding.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "io/format_text.h"
#include "validate/crossings.h"

// ProxyValidator::Impl is defined here, its members of this file's own types. GCC warns of that
// (-Wsubobject-linkage) when the file is not the compiler's main file, as in a unity batch, though
// no other file can see Impl; silenced for this file alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsubobject-linkage"

namespace weft {

namespace {

using nlohmann::json;

/// A double as JSON: null where it is not finite (JSON has no NaN or infinity).
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

template <class T>
json optional_number(const std::optional<T>& v) {
    if (!v) return nullptr;
    if constexpr (std::is_floating_point_v<T>) return number(*v);
    return json(*v);
}

json link_json(const LinkRef& link) {
    return {{"kind", link.kind == LinkRef::edge ? "edge" : "skip"}, {"index", link.index}, {"particles", {link.a, link.b}}};
}

json scenario_json(const ScenarioStats& s, bool timings) {
    json j;
    j["name"] = scenario_label(s.scenario, s.clip);
    j["settle_steps"] = s.settle_steps;
    j["steps"] = s.steps;
    j["steps_awake"] = s.steps_awake;
    j["sleep_step"] = optional_number(s.sleep_step);
    j["non_finite_step"] = optional_number(s.non_finite_step);
    if (s.stopped_step) j["stopped_early"] = {{"step", *s.stopped_step}, {"gate", s.stopped_gate}};
    j["max_strain"] = number(s.max_strain);
    j["max_strain_link"] = s.max_strain_link ? link_json(*s.max_strain_link) : json(nullptr);
    j["max_strain_step"] = s.max_strain_step;
    j["max_skip_ratio"] = number(s.max_skip_ratio);
    j["max_skip_link"] = s.max_skip_link ? link_json(*s.max_skip_link) : json(nullptr);
    j["max_skip_step"] = s.max_skip_step;
    j["max_tether_ratio"] = number(s.max_tether_ratio);
    j["max_tether_particle"] = s.max_tether_particle == no_particle ? json(nullptr) : json(s.max_tether_particle);
    j["max_tether_step"] = s.max_tether_step;
    j["peak_speed"] = number(s.peak_speed);
    j["peak_speed_step"] = s.peak_speed_step;
    j["velocity_clamp"] = number(s.velocity_clamp);
    j["peak_speed_ratio"] = number(s.peak_speed_ratio);
    j["clamped"] = s.clamped;
    j["substeps"] = s.substeps;
    j["sweeps"] = s.sweeps;
    j["teleports"] = s.teleports;
    j["kinetic_energy_end"] = number(s.kinetic_energy_end);
    j["total_energy_end"] = number(s.total_energy_end);
    j["kinetic_energy_trend"] = optional_number(s.kinetic_energy_trend);
    j["total_energy_trend"] = optional_number(s.total_energy_trend);
    j["trend_steps"] = s.trend_steps;
    j["max_energy_step_rise"] = number(s.max_energy_step_rise);
    j["teleport_step"] = optional_number(s.teleport_step);
    j["teleport_peak_speed"] = optional_number(s.teleport_peak_speed);
    j["teleport_shift"] = optional_number(s.teleport_shift);
    j["idle_jitter_mean"] = optional_number(s.idle_jitter_mean);
    j["idle_jitter_worst"] = optional_number(s.idle_jitter_worst);
    j["idle_jitter_link"] = s.idle_jitter_worst ? link_json(s.idle_jitter_link) : json(nullptr);
    if (s.max_penetration) {  // only a run with a body measures it
        j["max_penetration"] = number(*s.max_penetration);
        j["max_penetration_particle"] = s.max_penetration_particle == no_particle ? json(nullptr) : json(s.max_penetration_particle);
        j["max_penetration_step"] = s.max_penetration_step;
    }
    if (s.crossings) j["crossings"] = *s.crossings;  // only a proxy with triangles has them
    if (s.max_mesh_stretch) {  // only a sheet with a bound render mesh measures it
        j["max_mesh_stretch"] = number(*s.max_mesh_stretch);
        j["max_mesh_stretch_vertices"] = {s.max_mesh_stretch_vertices[0], s.max_mesh_stretch_vertices[1]};
        j["max_mesh_stretch_step"] = s.max_mesh_stretch_step;
    }
    if (s.max_thickness_stretch) {  // only a two-sided sheet models a thickness
        j["max_thickness_stretch"] = number(*s.max_thickness_stretch);
        j["max_thickness_stretch_vertices"] = {s.max_thickness_stretch_vertices[0], s.max_thickness_stretch_vertices[1]};
        j["max_thickness_stretch_step"] = s.max_thickness_stretch_step;
    }
    if (s.min_face_area_ratio) {
        j["min_face_area_ratio"] = number(*s.min_face_area_ratio);
        j["min_face_area_ratio_vertices"] = s.min_face_area_ratio_vertices;
        j["min_face_area_ratio_step"] = s.min_face_area_ratio_step;
        j["inside_out_steps"] = s.inside_out_steps;
        j["inside_out_faces"] = optional_number(s.inside_out_faces);  // null: stopped early, no end to judge
    }
    if (s.max_render_penetration) {  // only a sheet with a bound render mesh, run with a body
        j["max_render_penetration"] = number(*s.max_render_penetration);
        j["max_render_penetration_vertex"] = s.max_render_penetration_vertex;
        j["max_render_penetration_mesh"] = s.max_render_penetration_mesh;
        j["max_render_penetration_step"] = s.max_render_penetration_step;
    }
    if (timings) j["timing"] = {{"ms_per_step", number(s.ms_per_step)}};
    return j;
}

json gate_json(const GateResult& g) {
    return {{"gate", gate_code(g.gate)},          {"scenario", scenario_label(g.scenario, g.clip)},
            {"passed", g.passed},                 {"value", optional_number(g.value)},
            {"limit", optional_number(g.limit)},  {"message", g.message}};
}

json proxy_json(const ProxyValidation& v, bool timings) {
    json j;
    j["file"] = v.file;
    j["garment"] = v.garment;
    j["kind"] = v.kind.empty() ? json(nullptr) : json(v.kind);
    j["particles"] = v.particles;
    j["passed"] = v.passed();
    j["refused"] = v.refused ? json{{"code", v.refused->code}, {"message", v.refused->message}} : json(nullptr);
    j["fabric"] = v.fabric.empty() ? json(nullptr) : json(v.fabric);
    j["fabric_source"] = v.fabric_source.empty() ? json(nullptr) : json(v.fabric_source);
    const bool simulated = !v.refused;
    j["rows"] = simulated ? json{{"stretch", v.rows.stretch}, {"strain_limit", v.rows.strain_limit},
                                 {"skip", v.rows.skip},       {"hinge", v.rows.hinge},
                                 {"tether", v.rows.tether},   {"slack", v.rows.slack},
                                 {"pose", v.rows.pose}}
                          : json(nullptr);
    j["reach"] = simulated ? number(v.reach) : json(nullptr);
    j["velocity_clamp"] = simulated ? number(v.velocity_clamp) : json(nullptr);
    j["energy_scale"] = simulated ? number(v.energy_scale) : json(nullptr);
    if (v.body_colliders + v.body_colliders_left_out > 0)  // only a run with a body has them
        j["body_colliders"] = {{"used", v.body_colliders}, {"left_out", v.body_colliders_left_out}, {"simulated", v.body_simulated}};
    if (v.rest_crossings) j["rest_crossings"] = *v.rest_crossings;
    json scenarios = json::array();
    for (const ScenarioStats& s : v.scenarios) scenarios.push_back(scenario_json(s, timings));
    j["scenarios"] = std::move(scenarios);
    json gates = json::array();
    for (const GateResult& g : v.gates) gates.push_back(gate_json(g));
    j["gates"] = std::move(gates);
    if (!v.mesh_gates.empty()) {  // a rig validated with its model
        json mesh = json::array();
        for (const MeshGate& g : v.mesh_gates)
            mesh.push_back({{"gate", g.gate}, {"scenario", g.scenario}, {"passed", g.passed}, {"value", number(g.value)},
                            {"limit", number(g.limit)}, {"message", g.message}});
        j["mesh_gates"] = std::move(mesh);
    }
    return j;
}

std::string scenario_line(const ScenarioStats& s) {
    std::string line = format_text("  %-15s", scenario_label(s.scenario, s.clip).c_str());
    if (s.non_finite_step) line += format_text(" NON-FINITE at step %u", *s.non_finite_step);
    if (s.stopped_step) line += format_text(" STOPPED after step %u (%s failed)", *s.stopped_step, s.stopped_gate.c_str());
    line += s.sleep_step ? format_text(" slept at %-5u", *s.sleep_step) : std::string(" never slept  ");
    line += format_text(" strain %.4f", s.max_strain);
    if (s.max_skip_link) line += format_text("  skip %.4f", s.max_skip_ratio);
    line += format_text("  tether %.4f  peak %.3g m/s (%.3f of clamp)", s.max_tether_ratio, s.peak_speed, s.peak_speed_ratio);
    if (s.total_energy_trend) line += format_text("  energy %+.2e J", *s.total_energy_trend);
    if (s.teleport_step)
        line += format_text("  teleport at %u: peak %.3f m/s, shift %.4f m", *s.teleport_step, *s.teleport_peak_speed,
                       *s.teleport_shift);
    else if (s.scenario == Scenario::teleport_reset || s.scenario == Scenario::teleport_keep)
        line += "  no teleport";
    if (s.idle_jitter_mean)
        line += format_text("  jitter %.4f deg/frame (worst %.4f)", *s.idle_jitter_mean, *s.idle_jitter_worst);
    if (s.max_penetration) line += format_text("  penetration %.4f m", *s.max_penetration);
    if (s.crossings) line += format_text("  crossings %u", *s.crossings);
    if (s.max_mesh_stretch) line += format_text("  mesh stretch %.4f", *s.max_mesh_stretch);
    if (s.max_thickness_stretch) line += format_text(" (thickness %.4f)", *s.max_thickness_stretch);
    if (s.min_face_area_ratio)
        line += format_text("  face area %.3f (inside out %u steps, %u faces at the end)", *s.min_face_area_ratio, s.inside_out_steps,
                            s.inside_out_faces.value_or(0));
    if (s.max_render_penetration) line += format_text("  render penetration %.4f m", *s.max_render_penetration);
    line += format_text("  %.3f ms/step\n", s.ms_per_step);
    return line;
}

}  // namespace

std::vector<ScenarioRun> default_scenario_runs() {
    std::vector<ScenarioRun> runs;
    for (Scenario s : all_scenarios()) runs.push_back({s, default_steps(s)});
    return runs;
}

void add_clip_runs(ValidationOptions& options, uint32_t steps) {
    for (size_t c = 0; c < options.clips.size(); ++c)
        options.scenarios.push_back({Scenario::clip, steps > 0 ? steps : clip_default_steps(options.clips[c]), c});
}

bool ProxyValidation::passed() const {
    if (refused || !all_passed(gates)) return false;
    for (const MeshGate& g : mesh_gates)
        if (!g.passed) return false;
    return true;
}

bool ValidationReport::passed() const {
    for (const ProxyValidation& p : proxies)
        if (!p.passed()) return false;
    return true;
}

Fabric suggested_fabric(const ClothProxy& proxy, std::string* source) {
    if (std::optional<Fabric> f = find_fabric(proxy.suggested_fabric)) {
        if (source) *source = "proxy";
        return *f;
    }
    if (source) *source = "garment_class";
    return *find_fabric(proxy.kind == ProxyKind::rig ? fabric_for_rig_class(proxy.garment_class)
                                                     : fabric_for_garment_class(proxy.garment_class));
}

namespace {

/// Whether the sheet was modelled two-sided and is simulated on its mid-surface
/// (docs/proxy.md#two-sided-sheets): its builder options say so. Every render vertex of such a sheet
/// stands off the mid-surface by the thickness modelled there, and its binding's offset is that.
bool models_thickness(const ClothProxy& proxy) {
    const json options = json::parse(proxy.builder_options, nullptr, false);
    return options.is_object() && options.contains("one_face") && options["one_face"].is_boolean() &&
           options["one_face"].get<bool>();
}

// The render mesh a sheet's binding places (docs/validation.md#the-bound-render-mesh): every distinct
// edge of its render triangles, measured against its length placed from the rest pose. A two-sided
// sheet's is measured twice (docs/validation.md#two-sided-sheets): on the cloth, each vertex at its
// footprint with the modelled thickness removed (what MESH_STRETCH gates: the binding), and as drawn,
// with it (the thickness stretch and each face's turn, reported apart).
class RenderMeshMeter {
public:
    explicit RenderMeshMeter(const ClothProxy& proxy) : proxy_(proxy) {
        if (proxy.binding_triangle.empty() || proxy.render_triangles.empty()) return;
        thickness_ = models_thickness(proxy);
        for (const auto& t : proxy.render_triangles)
            for (int k = 0; k < 3; ++k) {
                const uint32_t a = t[k], b = t[(k + 1) % 3];
                if (a != b && proxy.binding_triangle[a] != no_triangle && proxy.binding_triangle[b] != no_triangle)
                    edges_.push_back({std::min(a, b), std::max(a, b)});
            }
        std::sort(edges_.begin(), edges_.end());
        edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());
        normals_.resize(proxy.particle_count());
        placed_.resize(proxy.binding_triangle.size());
        deform_render_mesh(proxy, proxy.rest_position, normals_, placed_);
        if (binding_is_identity()) {  // its render mesh is its particles: STRAIN and PENETRATION measure it already
            edges_.clear();
            identity_ = true;
            return;
        }
        if (thickness_) {
            on_cloth_.resize(placed_.size());
            deform_render_mesh(proxy, proxy.rest_position, normals_, on_cloth_, 0);
            thick_edges_ = lengths_at_rest(edges_, placed_, thick_rest_);
            for (const auto& t : proxy.render_triangles) {
                // A face all but edge-on to the cloth at rest (under 6 degrees) has no side to turn; the back
                // face's are negative, facing the other way.
                const double area = turned_area(t);
                const double drawn = length(cross(placed_[t[1]] - placed_[t[0]], placed_[t[2]] - placed_[t[0]]));
                if (std::abs(area) > 0.1 * drawn) faces_.push_back(t), face_rest_.push_back(area);
            }
        }
        edges_ = lengths_at_rest(edges_, thickness_ ? on_cloth_ : placed_, rest_);
    }
    /// With a body (`rest`: at rest, as the first step would place it unmoved), render vertices are measured
    /// for depth too: each against its own depth at rest, as a rig's skin is
    /// (docs/validation.md#bound-sheets).
    void set_body(const BodyShapes& rest) {
        if (identity_ || placed_.empty()) return;
        StepInput at_rest;
        place_body(rest, Pose{}, at_rest);
        bound_depth_.assign(placed_.size(), 0.0);
        for (size_t v = 0; v < placed_.size(); ++v)
            if (proxy_.binding_triangle[v] != no_triangle)
                bound_depth_[v] = deepest_inside(at_rest, std::span(&placed_[v], 1)).depth;
    }
    bool active() const { return !edges_.empty(); }
    bool measures_thickness() const { return active() && thickness_; }
    bool measures_depth() const { return !bound_depth_.empty(); }
    /// The deepest placed render vertex (placed by the last measure()) inside `body` past its bound depth.
    void measure_depth(uint32_t step, const StepInput& body, ScenarioStats& out) {
        if (!out.max_render_penetration) out.max_render_penetration = 0.0;
        // The same mesh in the same body as the last time (a still step): nothing deeper than it was.
        if (!placed_moved_ && same_colliders(body, depth_body_)) return;
        placed_moved_ = false;
        depth_body_ = body;
        for (size_t v = 0; v < placed_.size(); ++v) {
            if (proxy_.binding_triangle[v] == no_triangle) continue;
            if (!may_be_deeper(body, placed_[v], bound_depth_[v] + *out.max_render_penetration)) continue;
            const double d = deepest_inside(body, std::span(&placed_[v], 1)).depth - bound_depth_[v];
            if (d > *out.max_render_penetration) {
                out.max_render_penetration = d;
                out.max_render_penetration_vertex = static_cast<uint32_t>(v);
                out.max_render_penetration_step = step;
            }
        }
    }
    void measure(uint32_t step, const ClothState& state, ScenarioStats& out) {
        if (std::isnan(worst_)) return;  // torn already: the first non-finite pose stays the worst
        // The particles the last step left (a sleeping cloth): the same mesh, nothing worse than it was,
        // and a face inside out then is inside out for this step too.
        if (measured_ && state.x == measured_x_) {
            if (thickness_) out.inside_out_steps += out.inside_out_faces.value_or(0) > 0;
            return;
        }
        measured_ = placed_moved_ = true;
        measured_x_ = state.x;
        deform_render_mesh(proxy_, state.x, normals_, placed_);
        if (thickness_) deform_render_mesh(proxy_, state.x, normals_, on_cloth_, 0);
        worst_ = worst_stretch(edges_, rest_, thickness_ ? on_cloth_ : placed_, step, worst_, out.max_mesh_stretch_vertices,
                               out.max_mesh_stretch_step);
        out.max_mesh_stretch = worst_;
        if (!thickness_) return;
        worst_thick_ = worst_stretch(thick_edges_, thick_rest_, placed_, step, worst_thick_,
                                     out.max_thickness_stretch_vertices, out.max_thickness_stretch_step);
        out.max_thickness_stretch = worst_thick_;
        uint32_t inside_out = 0;
        for (size_t f = 0; f < faces_.size() && !std::isnan(least_turn_); ++f) {
            const double ratio = turned_area(faces_[f]) / face_rest_[f];
            inside_out += !(ratio > 0);
            if (!(ratio >= least_turn_)) {  // NaN is worst
                least_turn_ = ratio;
                out.min_face_area_ratio_vertices = faces_[f];
                out.min_face_area_ratio_step = step;
            }
        }
        out.min_face_area_ratio = least_turn_;
        out.inside_out_steps += inside_out > 0;
        out.inside_out_faces = inside_out;  // the last step's stays
    }
    void reset() {
        worst_ = worst_thick_ = 0, least_turn_ = std::numeric_limits<double>::infinity();
        measured_ = false;
        placed_moved_ = true;
    }

private:
    /// A binding is the identity when every bound render vertex is a particle (vertex_particle), placed
    /// on it at rest, and every render edge joins two particles a stretch row joins (or one particle):
    /// a `source` sheet's (docs/validation.md#the-bound-render-mesh). Its edges stretch exactly as the
    /// proxy's do, so MESH_STRETCH would only repeat STRAIN's number.
    bool binding_is_identity() const {
        const ClothProxy& p = proxy_;
        if (p.vertex_particle.size() != p.binding_triangle.size()) return false;
        for (size_t v = 0; v < placed_.size(); ++v) {
            if (p.binding_triangle[v] == no_triangle) continue;
            const uint32_t q = p.vertex_particle[v];
            if (q == no_particle || q >= p.particle_count()) return false;
            if (distance(placed_[v], p.rest_position[q]) > 1e-9 * (1 + length(p.rest_position[q]))) return false;
        }
        std::vector<std::array<uint32_t, 2>> rows;
        rows.reserve(p.edges.size());
        for (const auto& e : p.edges) rows.push_back({std::min(e[0], e[1]), std::max(e[0], e[1])});
        std::sort(rows.begin(), rows.end());
        for (const auto& [a, b] : edges_) {
            const uint32_t qa = p.vertex_particle[a], qb = p.vertex_particle[b];
            if (qa == qb) continue;
            if (!std::binary_search(rows.begin(), rows.end(), std::array<uint32_t, 2>{std::min(qa, qb), std::max(qa, qb)}))
                return false;
        }
        return true;
    }

    /// The edges of `edges` with a length in `placed` (two vertices at one place, a seam, have none to
    /// stretch), that length going to `rest`.
    static std::vector<std::array<uint32_t, 2>> lengths_at_rest(std::span<const std::array<uint32_t, 2>> edges,
                                                               std::span<const Vec3> placed, std::vector<double>& rest) {
        std::vector<std::array<uint32_t, 2>> kept;
        for (const auto& [a, b] : edges) {
            const double l = distance(placed[a], placed[b]);
            if (!(l > 0)) continue;
            kept.push_back({a, b});
            rest.push_back(l);
        }
        return kept;
    }
    /// The worst of `worst` and every edge's length in `placed` over its rest length; where and when
    /// to `vertices` and `at` when it grew. NaN is worst: a non-finite pose tears.
    static double worst_stretch(std::span<const std::array<uint32_t, 2>> edges, std::span<const double> rest,
                                std::span<const Vec3> placed, uint32_t step, double worst, std::array<uint32_t, 2>& vertices,
                                uint32_t& at) {
        for (size_t e = 0; e < edges.size(); ++e) {
            const double ratio = distance(placed[edges[e][0]], placed[edges[e][1]]) / rest[e];
            if (!(ratio <= worst)) {
                worst = ratio;
                vertices = edges[e];
                at = step;
            }
        }
        return worst;
    }
    /// A render triangle's area as drawn (placed_) along the cloth's normal there, twice over: negative
    /// once the drawn face has turned inside out against the cloth. The cloth's normal is the one its
    /// vertices stand off along (the particle normals, normals_, interpolated at each vertex's binding),
    /// summed over its three: not its footprint's own, which on a sliver at the rim is steep to the cloth.
    double turned_area(const std::array<uint32_t, 3>& t) const {
        Vec3 cloth;
        for (const uint32_t v : t) {
            const auto& [a, b, c] = proxy_.triangles[proxy_.binding_triangle[v]];
            const Vec3& k = proxy_.binding_coordinates[v];
            cloth += normals_[a] * (1 - k.x - k.y) + normals_[b] * k.x + normals_[c] * k.y;
        }
        const double l = length(cloth);
        const auto& [a, b, c] = t;
        return l > 0 ? dot(cross(placed_[b] - placed_[a], placed_[c] - placed_[a]), cloth) / l : 0.0;
    }

    const ClothProxy& proxy_;
    std::vector<std::array<uint32_t, 2>> edges_;
    std::vector<double> rest_;
    std::vector<Vec3> normals_, placed_;
    std::vector<double> bound_depth_;  ///< per render vertex, metres inside the body at rest; empty: no body
    bool identity_ = false;
    double worst_ = 0;
    // A two-sided sheet's (thickness_): its render mesh placed on the cloth, the edges and rest lengths
    // as drawn, and the render triangles with their turned area at rest.
    bool thickness_ = false;
    std::vector<Vec3> on_cloth_;
    std::vector<std::array<uint32_t, 2>> thick_edges_;
    std::vector<double> thick_rest_;
    std::vector<std::array<uint32_t, 3>> faces_;
    std::vector<double> face_rest_;
    double worst_thick_ = 0;
    double least_turn_ = std::numeric_limits<double>::infinity();
    // What the last measure() and measure_depth() saw, so a still step is not measured again.
    bool measured_ = false;
    std::vector<Vec3> measured_x_;
    bool placed_moved_ = true;  ///< placed_ changed since measure_depth() last ran
    StepInput depth_body_;
};

}  // namespace

/// One proxy's validation: the solver and what every run measures, made once; the runs; the gates.
struct ProxyValidator::Impl {
    /// One scenario run with a slot of its own for what it measures: nothing a run writes is shared,
    /// so runs may go side by side.
    struct Run {
        const ScenarioRun* run = nullptr;
        const ClipMotion* clip = nullptr;
        StepObserver own;  // ValidationOptions::observer_for_run's
        RunStop stop;      // its early exit (docs/validation.md#early-exit)
        ScenarioStats stats;
        ScenarioTrace trace;
        std::exception_ptr error;
    };

    /// The solver's threads: the list's leftover slots, looked up when a solver asks (the list is
    /// known only once the runs are added).
    class Leftover final : public SpareCapacity {
    public:
        explicit Leftover(Impl& impl) : impl_(impl) {}
        bool try_take() override { return impl_.list && impl_.list->leftover() && impl_.list->leftover()->try_take(); }
        void give_back() override { impl_.list->leftover()->give_back(); }
        void thread_started() override { impl_.list->leftover()->thread_started(); }

    private:
        Impl& impl_;
    };

    const ClothProxy& proxy;
    const ValidationOptions& options;
    std::function<StepObserver(const ScenarioRun&, RunStop&)> observer_for_run;  // the constructor's, after the options'
    Leftover leftover{*this};  // before the solvers, which give its slots back as they end
    ProxyValidation v;
    Fabric fabric;
    std::string who;
    std::optional<BodyShapes> body_rest;
    std::optional<ClothProxy> fitted;
    std::optional<Solver> solver;
    std::optional<RenderMeshMeter> meter;
    std::vector<Run> runs;
    // One model, one prelude: hang runs from the rest state, every other scenario from a fork of one
    // settled state (the prelude is the same run for all of them), settled by the first run that needs
    // it while the others wait.
    std::optional<Solver> settled;
    uint32_t settle_steps = 0;
    std::once_flag settling;
    // Hang's run when it steps the prelude itself (docs/validation.md#hang-steps-the-prelude): run by the
    // first run that needs the settled state, which it hands on at the step the prelude ends; none
    // when the cloth's hang starts disturbed, there is no hang run, or shared observers see the runs in order.
    Run* prelude_run = nullptr;
    RunList* list = nullptr;

    Impl(const ClothProxy& p, const ValidationOptions& o, const std::string& file,
         std::function<StepObserver(const ScenarioRun&, RunStop&)> own_observer)
        : proxy(p), options(o), observer_for_run(std::move(own_observer)) {
        v.file = file;
        v.garment = proxy.garment;
        v.kind = proxy.kind == ProxyKind::rig ? "rig" : "sheet";
        v.particles = static_cast<uint32_t>(proxy.particle_count());
        if (options.fabric) {
            fabric = *options.fabric;
            v.fabric_source = "option";
        } else {
            fabric = suggested_fabric(proxy, &v.fabric_source);
        }
        v.fabric = fabric.name;
        who = file.empty() ? "proxy '" + proxy.garment + "'" : file;
        try {
            prepare();
        } catch (const std::invalid_argument& e) {
            refuse(e);
        }
    }

    void refuse(const std::invalid_argument& e) {
        v.refused = Refusal{"UNSIMULATABLE", who + ": the solver refuses it: " + e.what()};
        v.scenarios.clear();
        v.traces.clear();
        prelude_run = nullptr;
        runs.clear();
    }

    void prepare() {
        // The body first: a particle's collision radius never reaches past its room at rest in this fabric
        // (docs/proxy.md#collision-radius), whatever fabric the proxy was written for.
        body_rest = body_clear_of_rest(body_in_frame(options.body, proxy), proxy, fabric.thickness, &v.body_colliders_left_out);
        if (!options.body.empty()) fitted = collision_radius_fitted(proxy, *body_rest, fabric.thickness);
        SolverConstants constants;
        constants.self_contact = options.self_contact;
        constants.strain_target = options.strain_target;
        if (options.spare) {  // a large proxy's colours over the slots no run is waiting for (RunList::leftover)
            constants.threads = std::max(2u, std::thread::hardware_concurrency());
            constants.spare = &leftover;
        }
        solver.emplace(fitted ? *fitted : proxy, fabric, constants);
        v.rows = solver->row_counts();
        v.reach = solver->reach();
        v.velocity_clamp = solver->velocity_clamp(validation_dt);
        v.energy_scale = energy_scale(proxy);
        v.body_colliders = body_rest->spheres.size() + body_rest->capsules.size();
        v.body_simulated = options.body.collide;
        meter.emplace(proxy);
        if (!options.body.empty()) meter->set_body(*body_rest);
        // The runs, in order (a clip run with no such clip plays nothing).
        for (const ScenarioRun& run : options.scenarios) {
            const ClipMotion* clip = nullptr;
            if (run.scenario == Scenario::clip) {
                if (run.clip >= options.clips.size()) continue;  // no such clip: nothing to play
                clip = &options.clips[run.clip];
            }
            runs.push_back({&run, clip, {}, {}, {}, {}, {}});
        }
        if (!options.observer && !options.run_observer && solver->row_counts().pose == 0)
            for (Run& r : runs)
                if (r.run->scenario == Scenario::hang) {
                    prelude_run = &r;
                    break;
                }
        for (Run& r : runs) {  // the gates a run can fail for good, at their limits (gates.cpp)
            r.stop.max_strain = options.limits.max_strain;
            r.stop.max_penetration = options.limits.max_penetration * fabric.thickness;
        }
        for (Run& r : runs) {
            StepObserver given = options.observer_for_run ? options.observer_for_run(*r.run, r.stop) : StepObserver{};
            StepObserver own = observer_for_run ? observer_for_run(*r.run, r.stop) : StepObserver{};
            if (given && own)
                r.own = [given = std::move(given), own = std::move(own)](Scenario s, uint32_t step, const Pose& h, const ClothState& x) {
                    given(s, step, h, x);
                    own(s, step, h, x);
                };
            else
                r.own = given ? std::move(given) : std::move(own);
        }
    }

    const Solver& settled_start() {
        std::call_once(settling, [&] {
            const BodyShapes* body = options.body.empty() ? nullptr : &*body_rest;
            if (prelude_run) {
                SettleTap tap{settle_input(solver->proxy(), body), [&](const Solver& s, uint32_t steps) {
                                  settled = s.fork();  // without the threads that settled it
                                  settle_steps = steps;
                              }};
                run_one(*prelude_run, &tap);
                if (settled) return;  // else a step of hang was not the prelude's (or the run ended first)
            }
            Solver s = solver->fork();
            settle_steps = settle(s, body);
            settled = s.fork();  // without the threads that settled it: their slots go back now
        });
        return *settled;
    }

    /// Run `r` (hang's, with `tap`, only inside settled_start).
    void run_one(Run& r, SettleTap* tap = nullptr) {
        try {
            const BodyShapes* body = options.body.empty() ? nullptr : &*body_rest;
            const ScenarioRun& run = *r.run;
            if (options.run_observer) options.run_observer(run);
            const bool prelude = settles_first(run.scenario);
            const Solver& start = prelude ? settled_start() : *solver;
            // The bound render mesh rides the same run, posed after every step (docs/validation.md#the-bound-render-mesh).
            RenderMeshMeter own_meter = *meter;  // this run's worst and scratch
            own_meter.reset();
            const bool measured = own_meter.active() || own_meter.measures_depth();
            ScenarioStats mesh;
            StepObserver observer;
            RunList* recruiting = list;
            if (options.observer || r.own || measured || recruiting)
                observer = [&](Scenario scenario, uint32_t step, const Pose& holders, const ClothState& state) {
                    if (options.observer) options.observer(scenario, step, holders, state);
                    if (r.own) r.own(scenario, step, holders, state);
                    if (measured) own_meter.measure(step, state, mesh);
                    if (mesh.max_mesh_stretch && *mesh.max_mesh_stretch > options.limits.max_mesh_stretch)
                        r.stop.fail("MESH_STRETCH", step);
                    if (recruiting && step % 64 == 0) recruiting->recruit();  // a slot freed since the run began
                };
            ScenarioStats depth;
            BodyObserver body_observer;
            if (own_meter.measures_depth())
                body_observer = [&](uint32_t step, const StepInput& placed) {
                    own_meter.measure_depth(step, placed, depth);
                    if (depth.max_render_penetration && *depth.max_render_penetration > r.stop.max_penetration)
                        r.stop.fail("PENETRATION", step);
                };
            r.stats = run_scenario(start.fork(), prelude ? settle_steps : 0, run.scenario, run.steps,
                                   options.trace.enabled() ? &r.trace : nullptr, options.trace, observer, body, r.clip,
                                   body_observer, options.stop_early ? &r.stop : nullptr, tap);
            if (own_meter.measures_depth()) {
                r.stats.max_render_penetration = depth.max_render_penetration.value_or(0.0);
                // Named as a user finds it in the model: the mesh, then the vertex within it.
                r.stats.max_render_penetration_vertex = depth.max_render_penetration_vertex;
                for (const SourceMesh& m : proxy.source_meshes)
                    if (depth.max_render_penetration_vertex - m.vertex_offset < m.vertex_count) {
                        r.stats.max_render_penetration_mesh = m.name;
                        r.stats.max_render_penetration_vertex = depth.max_render_penetration_vertex - m.vertex_offset;
                    }
                r.stats.max_render_penetration_step = depth.max_render_penetration_step;
            }
            if (own_meter.active()) {
                r.stats.max_mesh_stretch = mesh.max_mesh_stretch.value_or(1.0);
                r.stats.max_mesh_stretch_vertices = mesh.max_mesh_stretch_vertices;
                r.stats.max_mesh_stretch_step = mesh.max_mesh_stretch_step;
            }
            if (own_meter.measures_thickness()) {  // no step measured: the rest pose, as drawn
                r.stats.max_thickness_stretch = mesh.max_thickness_stretch.value_or(1.0);
                r.stats.max_thickness_stretch_vertices = mesh.max_thickness_stretch_vertices;
                r.stats.max_thickness_stretch_step = mesh.max_thickness_stretch_step;
                r.stats.min_face_area_ratio = mesh.min_face_area_ratio.value_or(1.0);
                r.stats.min_face_area_ratio_vertices = mesh.min_face_area_ratio_vertices;
                r.stats.min_face_area_ratio_step = mesh.min_face_area_ratio_step;
                r.stats.inside_out_steps = mesh.inside_out_steps;
                // Judged at the end, which a run stopped early does not reach.
                if (!r.stats.stopped_step) r.stats.inside_out_faces = mesh.inside_out_faces.value_or(0);
            }
        } catch (...) {
            r.error = std::current_exception();
        }
    }

};

ProxyValidator::ProxyValidator(const ClothProxy& proxy, const ValidationOptions& options, const std::string& file,
                               std::function<StepObserver(const ScenarioRun& run, RunStop& stop)> observer_for_run)
    : impl_(std::make_unique<Impl>(proxy, options, file, std::move(observer_for_run))) {}

ProxyValidator::~ProxyValidator() = default;
ProxyValidator::ProxyValidator(ProxyValidator&&) noexcept = default;
ProxyValidator& ProxyValidator::operator=(ProxyValidator&&) noexcept = default;

void ProxyValidator::add_runs(RunList& list, double step_cost) {
    Impl& d = *impl_;
    d.list = &list;
    if (d.runs.empty()) return;
    if (step_cost <= 0) step_cost = d.v.particles;
    if (d.options.observer || d.options.run_observer) {  // shared observers see the runs one after the other, in order
        double cost = 0;
        for (const Impl::Run& r : d.runs) cost += r.run->steps * step_cost;
        list.add(cost, [&d] {
            for (Impl::Run& r : d.runs) {
                d.run_one(r);
                if (r.error) break;
            }
        });
        return;
    }
    for (Impl::Run& r : d.runs)
        list.add(r.run->steps * step_cost, [&d, &r] {
            if (&r != d.prelude_run) return d.run_one(r);
            try {
                d.settled_start();  // hang runs there, once, handing on the prelude
            } catch (...) {         // the prelude settled apart, and the solver refused it
                r.error = std::current_exception();
            }
        });
}

ProxyValidation ProxyValidator::finish() {
    Impl& d = *impl_;
    if (d.v.refused) return std::move(d.v);
    try {
        for (Impl::Run& r : d.runs)
            if (r.error) std::rethrow_exception(r.error);  // the first in run order, as one thread meets it
    } catch (const std::invalid_argument& e) {
        d.refuse(e);
        return std::move(d.v);
    }
    for (Impl::Run& r : d.runs) {
        d.v.scenarios.push_back(std::move(r.stats));
        if (d.options.trace.enabled()) d.v.traces.push_back(std::move(r.trace));
    }
    if (!d.proxy.triangles.empty()) d.v.rest_crossings = count_crossing_triangles(d.proxy.rest_position, d.proxy.triangles);
    d.v.gates = evaluate_gates(d.v.scenarios, d.v.energy_scale, d.options.limits, d.fabric.thickness, d.v.rest_crossings.value_or(0));
    return std::move(d.v);
}

ProxyValidation validate_proxy(const ClothProxy& proxy, const ValidationOptions& options, const std::string& file) {
    RunList list;  // before the validator: its solvers' threads hold the list's slots until they end
    ProxyValidator validator(proxy, options, file);
    validator.add_runs(list);
    list.run(options.spare);
    return validator.finish();
}

ProxyValidation validate_file(const std::filesystem::path& path, const ValidationOptions& options) {
    DecodeResult r = load_proxy(path);
    if (!r.ok()) {
        ProxyValidation v;
        v.file = path.string();
        v.refused = Refusal{proxy_error_code(r.code), r.error};
        return v;
    }
    return validate_proxy(*r.proxy, options, path.string());
}

json report_json(const ValidationReport& report, bool timings) {
    json j;
    j["schema"] = validation_json_schema;
    j["weft_version"] = WEFT_VERSION;
    j["passed"] = report.passed();
    j["dt"] = validation_dt;
    j["limits"] = {{"max_strain", report.limits.max_strain},
                   {"max_energy_rise", report.limits.max_energy_rise},
                   {"max_sleep_step", optional_number(report.limits.max_sleep_step)},
                   {"max_mesh_stretch", report.limits.max_mesh_stretch}};
    json proxies = json::array();
    for (const ProxyValidation& p : report.proxies) proxies.push_back(proxy_json(p, timings));
    j["proxies"] = std::move(proxies);
    return j;
}

std::string report_text(const ValidationReport& report) {
    std::string out;
    size_t passed = 0, failed = 0, refused = 0;
    for (const ProxyValidation& p : report.proxies) {
        const std::string name = p.file.empty() ? "proxy '" + p.garment + "'" : p.file;
        if (p.refused) {
            ++refused;
            out += format_text("%s: REFUSED %s: %s\n", name.c_str(), p.refused->code.c_str(), p.refused->message.c_str());
            continue;
        }
        (p.passed() ? passed : failed) += 1;
        out += format_text("%s: %s \"%s\", %u particles, fabric %s (%s), clamp %.4g m/s: %s\n", name.c_str(), p.kind.c_str(),
                      p.garment.c_str(), p.particles, p.fabric.c_str(),
                      p.fabric_source == "option" ? "--fabric"
                      : p.fabric_source == "proxy" ? "the proxy's suggestion"
                                                   : "its garment class",
                      p.velocity_clamp, p.passed() ? "PASS" : "FAIL");
        for (const ScenarioStats& s : p.scenarios) out += scenario_line(s);
        for (const GateResult& g : p.gates)
            if (!g.passed) out += format_text("  FAIL %s %s\n", gate_code(g.gate), g.message.c_str());
        for (const MeshGate& g : p.mesh_gates)
            if (!g.passed) out += format_text("  FAIL %s %s\n", g.gate.c_str(), g.message.c_str());
    }
    out += format_text("%zu proxies: %zu passed, %zu failed, %zu refused\n", report.proxies.size(), passed, failed, refused);
    return out;
}

}  // namespace weft

#pragma GCC diagnostic pop
