#include "validate/gates.h"

#include <cstdio>
#include <string>

#include "io/format_text.h"

namespace weft {

namespace {

std::string link_name(const LinkRef& link) {
    return format_text("%s %u (particles %u-%u)", link.kind == LinkRef::edge ? "edge" : "skip", link.index, link.a,
                  link.b);
}

GateResult result(Gate gate, const ScenarioStats& s) {
    GateResult r;
    r.gate = gate;
    r.scenario = s.scenario;
    r.clip = s.clip;
    return r;
}

}  // namespace

const char* gate_code(Gate gate) {
    switch (gate) {
        case Gate::non_finite: return "NON_FINITE";
        case Gate::never_slept: return "NEVER_SLEPT";
        case Gate::strain: return "STRAIN";
        case Gate::energy_rising: return "ENERGY_RISING";
        case Gate::penetration: return "PENETRATION";
        case Gate::self_intersection: return "SELF_INTERSECTION";
        case Gate::mesh_stretch: return "MESH_STRETCH";
        case Gate::face_inside_out: return "FACE_INSIDE_OUT";
    }
    return "NON_FINITE";
}

namespace {

GateResult finite_gate(const ScenarioStats& s, const char* name) {
    GateResult finite = result(Gate::non_finite, s);
    finite.passed = !s.non_finite_step;
    if (s.non_finite_step) {
        finite.value = *s.non_finite_step;
        finite.message = *s.non_finite_step == 0
                             ? format_text("%s: a position or velocity went non-finite while settling, before the "
                                      "script began", name)
                             : format_text("%s: a position, velocity or energy went non-finite at step %u", name,
                                      *s.non_finite_step);
    } else {
        finite.message = format_text("%s: every value finite over %u steps", name, s.steps);
    }
    return finite;
}

GateResult sleep_gate(const ScenarioStats& s, const char* name, const GateLimits& limits) {
    GateResult sleep = result(Gate::never_slept, s);
    const uint32_t limit = limits.max_sleep_step.value_or(s.steps);
    sleep.limit = limit;
    if (s.sleep_step) sleep.value = *s.sleep_step;
    sleep.passed = s.sleep_step && *s.sleep_step <= limit;
    if (!s.sleep_step)
        sleep.message = format_text("%s: never slept in %u steps (limit: asleep by step %u; docs/measurements.md table Z1)", name,
                               s.steps, limit);
    else
        sleep.message = format_text("%s: slept at step %u (limit %u)", name, *s.sleep_step, limit);
    return sleep;
}

GateResult strain_gate(const ScenarioStats& s, const char* name, const GateLimits& limits) {
    GateResult strain = result(Gate::strain, s);
    strain.value = s.max_strain;
    strain.limit = limits.max_strain;
    strain.passed = s.max_strain <= limits.max_strain;
    if (!s.max_strain_link)
        strain.message = format_text("%s: no edges to stretch (limit %.4g)", name, limits.max_strain);
    else if (s.max_strain_step == 0)
        strain.message = format_text("%s: worst strain %.4f on %s in the starting pose (limit %.4g)", name,
                                s.max_strain, link_name(*s.max_strain_link).c_str(), limits.max_strain);
    else
        strain.message = format_text("%s: worst strain %.4f on %s at step %u (limit %.4g)", name, s.max_strain,
                                link_name(*s.max_strain_link).c_str(), s.max_strain_step, limits.max_strain);
    return strain;
}

GateResult energy_gate(const ScenarioStats& s, const char* name, const GateLimits& limits, double energy_scale) {
    GateResult energy = result(Gate::energy_rising, s);
    const double fraction = *s.total_energy_trend / energy_scale;
    energy.value = fraction;
    energy.limit = limits.max_energy_rise;
    energy.passed = fraction <= limits.max_energy_rise;
    energy.message = format_text("%s: total energy changed %+.3g J over the last %u undriven steps, %+.3g of the "
                            "energy scale %.3g J (limit %+.3g)",
                            name, *s.total_energy_trend, s.trend_steps, fraction, energy_scale,
                            limits.max_energy_rise);
    return energy;
}

/// A particle inside a body collider deeper than the fabric's thickness allows (docs/validation.md#penetration).
GateResult particle_penetration_gate(const ScenarioStats& s, const char* name, const GateLimits& limits, double thickness) {
    GateResult pen = result(Gate::penetration, s);
    pen.value = *s.max_penetration;
    pen.limit = limits.max_penetration * thickness;
    pen.passed = *s.max_penetration <= *pen.limit;
    if (s.max_penetration_particle == no_particle)
        pen.message = format_text("%s: no particle inside a body collider (limit %.4g m)", name, *pen.limit);
    else
        pen.message = format_text("%s: particle %u %.4g m inside a body collider at step %u (limit %.4g m: %.3g "
                                  "of the fabric's %.4g m thickness)",
                                  name, s.max_penetration_particle, *s.max_penetration, s.max_penetration_step,
                                  *pen.limit, limits.max_penetration, thickness);
    return pen;
}

/// A bound sheet's render vertices deeper in the body than at rest (docs/validation.md#bound-sheets).
GateResult render_penetration_gate(const ScenarioStats& s, const char* name, const GateLimits& limits, double thickness) {
    GateResult pen = result(Gate::penetration, s);
    pen.value = *s.max_render_penetration;
    pen.limit = limits.max_penetration * thickness;
    pen.passed = *s.max_render_penetration <= *pen.limit;
    if (s.max_render_penetration_step == 0)
        pen.message = format_text("%s: no render vertex deeper in a body collider than at rest (limit %.4g m)", name,
                                  *pen.limit);
    else
        pen.message = format_text("%s: render vertex %u%s %.4g m deeper in a body collider than at rest at step %u "
                                  "(limit %.4g m)",
                                  name, s.max_render_penetration_vertex,
                                  s.max_render_penetration_mesh.empty()
                                      ? ""
                                      : format_text(" of mesh '%s'", s.max_render_penetration_mesh.c_str()).c_str(),
                                  *s.max_render_penetration, s.max_render_penetration_step, *pen.limit);
    if (!pen.passed) pen.message += ": the render mesh between the particles cuts the body";
    return pen;
}

GateResult crossing_gate(const ScenarioStats& s, const char* name, const GateLimits& limits, uint32_t rest_crossings) {
    GateResult self = result(Gate::self_intersection, s);
    self.value = *s.crossings;
    self.limit = static_cast<double>(rest_crossings) + limits.max_crossings;
    self.passed = *s.crossings <= *self.limit;
    self.message = format_text("%s: %u crossing triangle pairs at the end (limit %.0f: the rest pose's %u + %u)",
                               name, *s.crossings, *self.limit, rest_crossings, limits.max_crossings);
    return self;
}

GateResult mesh_stretch_gate(const ScenarioStats& s, const char* name, const GateLimits& limits) {
    GateResult mesh = result(Gate::mesh_stretch, s);
    mesh.value = *s.max_mesh_stretch;
    mesh.limit = limits.max_mesh_stretch;
    mesh.passed = *s.max_mesh_stretch <= limits.max_mesh_stretch;
    mesh.message = format_text("%s: worst render-mesh edge %.4fx its rest length, vertices %u-%u at step %u (limit %.4g)",
                               name, *s.max_mesh_stretch, s.max_mesh_stretch_vertices[0],
                               s.max_mesh_stretch_vertices[1], s.max_mesh_stretch_step, limits.max_mesh_stretch);
    if (s.max_thickness_stretch)
        mesh.message += format_text(", on the cloth (its thickness removed; as drawn %.4fx, vertices %u-%u at step %u)",
                                    *s.max_thickness_stretch, s.max_thickness_stretch_vertices[0],
                                    s.max_thickness_stretch_vertices[1], s.max_thickness_stretch_step);
    if (!mesh.passed) mesh.message += ": the visible garment tears while the proxy holds";
    return mesh;
}

/// Judged at the end, as crossings are: a crease whipped through for a few steps of a run unfolds, a
/// face left inside out stays in sight (docs/validation.md#two-sided-sheets).
GateResult inside_out_gate(const ScenarioStats& s, const char* name) {
    GateResult face = result(Gate::face_inside_out, s);
    face.value = *s.inside_out_faces;
    face.limit = 0.0;
    face.passed = *s.inside_out_faces == 0;
    const auto& v = s.min_face_area_ratio_vertices;
    face.message = format_text("%s: %u render faces inside out at the end (limit 0); over the run %u steps had one, "
                               "the least face area as drawn %.3fx its rest along the cloth, vertices %u-%u-%u at step %u",
                               name, *s.inside_out_faces, s.inside_out_steps, s.min_face_area_ratio.value_or(1.0), v[0],
                               v[1], v[2], s.min_face_area_ratio_step);
    if (!face.passed) face.message += ": the cloth bent tighter than its modelled thickness and a face turned inside out";
    return face;
}

}  // namespace

std::string stopped_note(const ScenarioStats& s) {
    if (!s.stopped_step) return "";
    return format_text(" (judged up to step %u: the run stopped there, %s having failed for good)", *s.stopped_step,
                       s.stopped_gate.c_str());
}

std::vector<GateResult> evaluate_gates(std::span<const ScenarioStats> scenarios, double energy_scale,
                                       const GateLimits& limits, double thickness, uint32_t rest_crossings) {
    std::vector<GateResult> out;
    for (const ScenarioStats& s : scenarios) {
        const size_t first = out.size();
        const std::string label = scenario_label(s.scenario, s.clip);
        const char* name = label.c_str();
        out.push_back(finite_gate(s, name));
        // A run stopped early (docs/validation.md#early-exit) never reached its end: whether hang slept by
        // then is judged only when it did.
        if (s.scenario == Scenario::hang && (!s.stopped_step || s.sleep_step)) out.push_back(sleep_gate(s, name, limits));
        out.push_back(strain_gate(s, name, limits));
        if (s.total_energy_trend) out.push_back(energy_gate(s, name, limits, energy_scale));
        if (s.max_penetration) out.push_back(particle_penetration_gate(s, name, limits, thickness));
        if (s.max_render_penetration) out.push_back(render_penetration_gate(s, name, limits, thickness));
        if (s.crossings) out.push_back(crossing_gate(s, name, limits, rest_crossings));
        if (s.max_mesh_stretch) out.push_back(mesh_stretch_gate(s, name, limits));
        if (s.inside_out_faces) out.push_back(inside_out_gate(s, name));
        if (s.stopped_step)  // docs/validation.md#early-exit: what was judged, on how much of the run
            for (size_t g = first; g < out.size(); ++g) out[g].message += stopped_note(s);
    }
    return out;
}

bool all_passed(std::span<const GateResult> results) {
    for (const GateResult& r : results)
        if (!r.passed) return false;
    return true;
}

}  // namespace weft
