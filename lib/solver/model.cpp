// Cooking the solver model from a ClothProxy, a fabric and the constants (docs/solver.md#the-step; docs/architecture.md#stages).
#include "solver/model.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "solver/message.h"

namespace weft {

namespace {

/// The per-particle arrays must match the particle count, every number be usable, every nearest held
/// particle be held.
std::string particle_error(const ClothProxy& p, const std::string& who) {
    const size_t n = p.particle_count();
    auto size_is = [&](size_t size, size_t want, const char* field) -> std::string {
        if (size == want) return {};
        return solver_message(who, field, " has ", size, " entries for ", want, " particles");
    };
    for (std::string e : {size_is(p.inverse_mass.size(), n, "inverse_mass"), size_is(p.d_geo.size(), n, "d_geo"),
                          size_is(p.nearest_held.size(), n, "nearest_held")})
        if (!e.empty()) return e;
    if (!p.collision_radius.empty() && p.collision_radius.size() != n)
        return solver_message(who, "collision_radius has ", p.collision_radius.size(), " entries for ", n, " particles");
    for (size_t i = 0; i < p.collision_radius.size(); ++i)
        if (!(p.collision_radius[i] >= 0 && std::isfinite(p.collision_radius[i])))
            return solver_message(who, "particle ", i, " has collision radius ", p.collision_radius[i]);
    if (p.rest_length.size() != p.edges.size())
        return solver_message(who, "rest_length has ", p.rest_length.size(), " entries for ", p.edges.size(), " edges");
    if (p.skip_rest_length.size() != p.skips.size())
        return solver_message(who, "skip_rest_length has ", p.skip_rest_length.size(), " entries for ", p.skips.size(), " skips");
    for (size_t i = 0; i < n; ++i) {
        if (!is_finite(p.rest_position[i])) return solver_message(who, "particle ", i, " has a non-finite rest position");
        double w = p.inverse_mass[i];
        if (!(w >= 0 && std::isfinite(w))) return solver_message(who, "particle ", i, " has inverse mass ", w);
        if (!(p.d_geo[i] >= 0)) return solver_message(who, "particle ", i, " has d_geo ", p.d_geo[i]);
        uint32_t h = p.nearest_held[i];
        if (h != no_particle && (h >= n || p.inverse_mass[h] != 0))
            return solver_message(who, "particle ", i, " names nearest held particle ", h, ", which is not a held particle");
        if (std::isfinite(p.d_geo[i]) && h == no_particle)
            return solver_message(who, "particle ", i, " has a finite d_geo but no nearest held particle");
    }
    return {};
}

/// Rows name particles in range, none twice, and distance rows have a usable rest length.
template <class Rows>
std::string row_error(const Rows& rows, const std::vector<double>* rest, const char* field, size_t n, const std::string& who) {
    for (size_t r = 0; r < rows.size(); ++r) {
        for (size_t k = 0; k < rows[r].size(); ++k) {
            if (rows[r][k] >= n) return solver_message(who, field, " ", r, " names particle ", rows[r][k], " of ", n);
            for (size_t q = 0; q < k; ++q)
                if (rows[r][q] == rows[r][k]) return solver_message(who, field, " ", r, " names particle ", rows[r][k], " twice");
        }
        if (rest) {
            double l = (*rest)[r];
            if (!(l > 0 && std::isfinite(l))) return solver_message(who, field, " ", r, " has rest length ", l);
        }
    }
    return {};
}

/// What the solver indexes without checking, checked once: a proxy that fails here would make the
/// step read out of bounds or divide by zero. (The codec's check_proxy is stricter; this is the
/// solver's own floor, so a proxy built in code gets a named error too.)
std::string proxy_error(const ClothProxy& p) {
    const size_t n = p.particle_count();
    const std::string who = "proxy '" + p.garment + "': ";
    if (n == 0) return who + "has no particles";
    if (n >= no_particle) return who + "too many particles";
    if (std::string e = particle_error(p, who); !e.empty()) return e;
    for (std::string e : {row_error(p.edges, &p.rest_length, "edge", n, who), row_error(p.skips, &p.skip_rest_length, "skip", n, who),
                          row_error(p.hinges, nullptr, "hinge", n, who), row_error(p.triangles, nullptr, "triangle", n, who)})
        if (!e.empty()) return e;
    if (p.virtual_rest_position.size() != p.virtual_link.size())
        return solver_message(who, "virtual_rest_position has ", p.virtual_rest_position.size(), " entries for ",
                              p.virtual_link.size(), " virtual particles");
    for (size_t v = 0; v < p.virtual_link.size(); ++v) {
        const auto& l = p.virtual_link[v];
        if (l[0] >= n || l[1] >= n || l[2] >= n || l[1] == l[2] || !is_finite(p.virtual_rest_position[v]) ||
            !(distance(p.rest_position[l[1]], p.rest_position[l[2]]) > 0))
            return solver_message(who, "virtual particle ", v, " names particles (", l[0], ", ", l[1], ", ", l[2],
                                  ") of ", n, " or no link, or has a non-finite rest position");
    }
    if (p.colour_ranges.size() < 2 || p.colour_ranges.front() != 0 || p.colour_ranges.back() != n)
        return who + "colour_ranges must run from 0 to the particle count";
    for (size_t c = 1; c < p.colour_ranges.size(); ++c)
        if (p.colour_ranges[c] < p.colour_ranges[c - 1]) return solver_message(who, "colour range ", c - 1, " ends before it starts");
    for (size_t k = 0; k < p.pins.size(); ++k)
        for (uint32_t q : p.pins[k].particles) {
            if (q >= n) return solver_message(who, "pin ", k, " ('", p.pins[k].holder, "') names particle ", q, " of ", n);
            if (p.inverse_mass[q] != 0)
                return solver_message(who, "pin ", k, " ('", p.pins[k].holder, "') names particle ", q,
                                      ", which is not held (inverse mass ", p.inverse_mass[q], ")");
        }
    return {};
}

/// Masses. A held particle has no mass in the proxy; released, it takes an equal share of what
/// total_mass leaves after the free particles.
void cook_masses(SolverModel& m, const ClothProxy& p) {
    m.mass.assign(m.n, 0);
    double free_mass = 0;
    size_t held = 0, free_count = 0;
    for (size_t i = 0; i < m.n; ++i) {
        if (p.inverse_mass[i] > 0) {
            m.mass[i] = 1 / p.inverse_mass[i];
            free_mass += m.mass[i];
            ++free_count;
        } else {
            ++held;
        }
    }
    double share = held ? (p.total_mass - free_mass) / static_cast<double>(held) : 0;
    if (!(share > 0 && std::isfinite(share))) share = free_count ? free_mass / static_cast<double>(free_count) : 1.0;
    m.released_mass = share;
    for (size_t i = 0; i < m.n; ++i)
        if (p.inverse_mass[i] == 0) m.mass[i] = share;
}

/// The trust radius (docs/solver.md#trust-region) and the correction authority's length (docs/solver.md#correction-authority).
void cook_trust_radius(SolverModel& m) {
    m.trust_radius.assign(m.n, solver_infinity);
    m.shortest_row = solver_infinity;
    for (size_t e = 0; e < m.distance.count(); ++e) {
        double r = m.distance.rest[e];
        const auto& ends = m.distance.ends[e];
        m.trust_radius[ends[0]] = std::min(m.trust_radius[ends[0]], r);
        m.trust_radius[ends[1]] = std::min(m.trust_radius[ends[1]], r);
        m.shortest_row = std::min(m.shortest_row, r);
    }
}

/// Each virtual particle's offset from its carrier and its link at rest (docs/colliders.md#virtual-particles).
void cook_virtual_particles(ContactModel& c, const ClothProxy& p) {
    c.virtual_link = p.virtual_link;
    c.virtual_rest = p.virtual_rest_position;
    for (size_t v = 0; v < p.virtual_link.size(); ++v) {
        const auto& l = p.virtual_link[v];
        c.virtual_offset.push_back(p.virtual_rest_position[v] - p.rest_position[l[0]]);
        c.virtual_rest_link.push_back(p.rest_position[l[2]] - p.rest_position[l[1]]);
    }
}

}  // namespace

std::shared_ptr<const SolverModel> SolverModel::build(const ClothProxy& p, const Fabric& fabric, const SolverConstants& constants) {
    if (std::string e = fabric_error(fabric); !e.empty()) throw std::invalid_argument(e);
    if (std::string e = proxy_error(p); !e.empty()) throw std::invalid_argument(e);
    if (!(constants.k_min_ratio > 0 && constants.k_max_ratio >= constants.k_min_ratio && constants.alpha >= 0 &&
          constants.gamma > 0 && constants.beta >= 0 && constants.clamp_ratio > 0))
        throw std::invalid_argument("solver constants out of range (need k_max >= k_min > 0, α >= 0, γ > 0, β >= 0)");
    auto m = std::make_shared<SolverModel>();
    m->proxy = &p;
    m->fabric = fabric;
    m->constants = constants;
    m->n = p.particle_count();
    // Held particles and their pins: a particle two pins name goes to the lower one (docs/solver.md#holds).
    m->held_pin.assign(m->n, no_pin);
    for (size_t k = 0; k < p.pins.size(); ++k)
        for (uint32_t q : p.pins[k].particles)
            if (m->held_pin[q] == no_pin) m->held_pin[q] = static_cast<uint32_t>(k);
    cook_masses(*m, p);
    m->distance = distance_rows::build(p, fabric);
    m->hinge = hinge_rows::build(p, fabric);
    m->tethers = constants.tethers;
    m->slack = slack_rows::build(fabric);
    m->pose = pose_rows::build(fabric);
    m->contact = {fabric.thickness, fabric.friction, self_contact_rows::build(p, fabric.thickness, constants.self_contact),
                  p.collision_radius, constants.span_contacts && p.kind == ProxyKind::rig ? p.edges : std::vector<std::array<uint32_t, 2>>{},
                  p.rest_position, {}, {}, {}, {}};  // spans on a rig's links only, for now (docs/colliders.md#spans)
    if (constants.virtual_contacts) cook_virtual_particles(m->contact, p);
    cook_trust_radius(*m);
    m->sweep = sweep_blocks::build(p, m->distance, constants.threads);
    distance_rows::reorder(m->distance, sweep_blocks::first_read_order(m->sweep, m->distance));
    sweep_blocks::lay_out_rows(m->sweep, m->distance);
    m->reach = weft::reach(p);
    Vec3 t, scale;
    p.frame.rest_world.decompose(t, m->rest_frame_rotation, scale);
    return m;
}

}  // namespace weft
