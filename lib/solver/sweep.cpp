// The hot phases of a substep: penalties and warm start, contact detection, the colour sweep of
// vertex updates (seed 002 §5), and the dual update of the hard rows.
#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/solver_impl.h"

namespace weft {

namespace {

constexpr double kNoBound = std::numeric_limits<double>::infinity();

/// ∫ fc dC of a row with penalty k, multiplier λ and force clamp [fmin, fmax], up to a constant: the
/// energy the vertex update descends (seed 002 §5.3 audit).
inline double row_energy(double k, double lambda, double c, double fmin, double fmax) {
    if (!(k > 0)) return 0;
    double u = k * c + lambda;
    if (u > fmax) return (fmax * fmax + 2 * fmax * (u - fmax)) / (2 * k);
    if (u < fmin) return (fmin * fmin + 2 * fmin * (u - fmin)) / (2 * k);
    return u * u / (2 * k);
}

}  // namespace

void Solver::Impl::set_penalties() {
    for (size_t e = 0; e < link_ends.size(); ++e) {
        double scale = link_m_eff[e] * inv_h2;
        if (link_hard[e])
            link[e].k = link_kappa[e] * scale;
        else
            link[e].k = link_soft_ratio[e] ? link_soft_k[e] * scale : link_soft_k[e];
    }
    if (strain_rows)
        for (size_t e = 0; e < edge_count; ++e) link[e].strain_k = strain_kappa[e] * link_m_eff[e] * inv_h2;
    for (size_t b = 0; b < hinge_ends.size(); ++b) hinge_k[b] = fabric.bend * hinge_m_eff[b] * inv_h2;
    for (uint32_t i : free_particles) {
        double scale = mass[i] * inv_h2;  // a unary row, or one whose other end is kinematic
        tether_k[i] = tether_kappa[i] * scale;
        slack_k[i] = slack_kappa[i] * scale;
    }
}

void Solver::Impl::warm_start() {
    // seed 002 §2: λ ← α·γ·λ and k ← clamp(γ·k, k_min, k_max), hard rows only (§3).
    const double ag = constants.alpha * constants.gamma;
    const double g = constants.gamma;
    const double kmin = constants.k_min_ratio;
    const double kmax = constants.k_max_ratio;
    auto decay = [&](std::vector<double>& lambda, std::vector<double>& kappa) {
        for (double& l : lambda) l *= ag;
        for (double& k : kappa) k = std::clamp(k * g, kmin, kmax);
    };
    for (LinkRow& r : link) {
        r.lambda *= ag;
        r.strain_lambda *= ag;
    }
    for (double& k : link_kappa) k = std::clamp(k * g, kmin, kmax);
    for (double& k : strain_kappa) k = std::clamp(k * g, kmin, kmax);
    decay(tether_lambda, tether_kappa);
    decay(slack_lambda, slack_kappa);
}

void Solver::Impl::detect_contacts(double fraction) {
    const size_t sphere_count = spheres.size();
    const size_t total = sphere_count + capsules.size();
    const double ag = constants.alpha * constants.gamma;
    for (uint32_t i : free_particles) {
        std::array<Contact, max_contacts> previous = contacts[i];
        uint8_t previous_count = contact_count[i];
        contact_count[i] = 0;
        if (total == 0) continue;
        const Vec3& xi = state.x[i];
        // Look a trust radius ahead: a particle predicted just clear can be pulled in by its rows
        // during the sweep, and an inactive one-sided row costs one dot product.
        double band = std::isfinite(trust_radius[i]) ? trust_radius[i] : reach;
        std::array<Contact, max_contacts> best{};
        int found = 0;
        for (size_t c = 0; c < total; ++c) {
            SurfacePoint sp;
            if (c < sphere_count) {
                SphereCollider s = spheres[c];
                if (c < spheres_prev.size())
                    s.centre = spheres_prev[c].centre + (s.centre - spheres_prev[c].centre) * fraction;
                sp = surface_point(s, xi);
            } else {
                size_t q = c - sphere_count;
                CapsuleCollider s = capsules[q];
                if (q < capsules_prev.size()) {
                    s.a = capsules_prev[q].a + (s.a - capsules_prev[q].a) * fraction;
                    s.b = capsules_prev[q].b + (s.b - capsules_prev[q].b) * fraction;
                }
                sp = surface_point(s, xi);
            }
            double c0 = sp.distance - fabric.thickness;
            if (!(c0 < band)) continue;
            Contact contact;
            contact.collider = static_cast<uint32_t>(c);
            contact.normal = sp.normal;
            contact.c0 = c0;
            contact.anchor = xi;
            contact.friction_anchor = state.x_prev[i];
            contact.k = constants.k_min_ratio * mass[i] * inv_h2;
            // Keep the deepest max_contacts; equal depths keep the lower collider index (found first).
            int slot = found < max_contacts ? found++ : -1;
            if (slot < 0) {
                int worst = 0;
                for (int s = 1; s < max_contacts; ++s)
                    if (best[s].c0 > best[worst].c0) worst = s;
                if (c0 < best[worst].c0) slot = worst;
            }
            if (slot >= 0) best[slot] = contact;
        }
        for (int s = 0; s < found; ++s) {
            for (int p = 0; p < previous_count; ++p)
                if (previous[p].collider == best[s].collider) best[s].lambda = previous[p].lambda * ag;
            contacts[i][s] = best[s];
        }
        contact_count[i] = static_cast<uint8_t>(found);
        if (stats) stats->contacts += static_cast<uint32_t>(found);
    }
}

Accumulated Solver::Impl::accumulate(uint32_t i, const Vec3& xi) const {
    Accumulated a = accumulate_unary(i, xi);
    const Vec3* x = state.x.data();
    // Distance rows: stretch (hard or soft), skips (soft), and each stretch edge's strain limit, which
    // shares the edge's gradient (a row without one has strain_k = strain_lambda = 0: never active).
    const LinkRow* rows = link.data();
    for (uint32_t q = link_offsets[i], end = link_offsets[i + 1]; q < end; ++q) {
        const LinkIncidence inc = link_incidences[q];
        const Vec3 d = xi - x[inc.other];
        const double l2 = length_squared(d);
        if (!(l2 > 0)) continue;  // coincident ends have no direction; the row has nothing to say
        const double inv_l = 1 / std::sqrt(l2);
        const double l = l2 * inv_l;
        const Vec3 g = d * inv_l;
        const LinkRow& r = rows[inc.link];
        double fc = r.k * (l - r.rest) + r.lambda;
        double s = fc > 0 ? fc : 0.0;
        double k_along = r.k;
        const double u = r.strain_k * (l - r.strain_rest) + r.strain_lambda;
        if (u > 0) {  // [0, ∞): only a force that shortens the edge (seed 002 §10)
            fc += u;
            s += u;
            k_along += r.strain_k;
        }
        a.f -= g * fc;
        s *= inv_l;
        a.h.add_diagonal(s);
        a.h.add_outer(g, k_along - s);
    }
    // Hinges, through the per-particle bending operator (rows.md; see solver_impl.h).
    if (!bend_diagonal.empty()) {
        const double dk = bend_diagonal[i] * inv_h2;
        Vec3 c = xi * bend_diagonal[i] - bend_rest[i];
        for (uint32_t q = bend_offsets[i], end = bend_offsets[i + 1]; q < end; ++q)
            c += x[bend_neighbours[q].other] * bend_neighbours[q].coefficient;
        a.f -= c * inv_h2;
        a.h.add_diagonal(dk);
    }
    // Tether to the nearest held particle, radius d_geo, only pulling in (seed 000 §19.3, 002 §10).
    const uint32_t p = tether_centre[i];
    if (p != no_particle) add_leash_row(a, xi, x[p], tether_radius[i], tether_k[i], tether_lambda[i]);
    return a;
}

double Solver::Impl::local_energy(uint32_t i, const Vec3& xi) const {
    const double mh = mass[i] * inv_h2;
    double e = 0.5 * mh * length_squared(xi - state.y[i]);
    const Vec3* x = state.x.data();
    for (uint32_t q = link_offsets[i]; q < link_offsets[i + 1]; ++q) {
        const LinkIncidence inc = link_incidences[q];
        double l = distance(xi, x[inc.other]);
        const LinkRow& r = link[inc.link];
        e += row_energy(r.k, r.lambda, l - r.rest, -kNoBound, kNoBound);
        e += row_energy(r.strain_k, r.strain_lambda, l - r.strain_rest, 0, kNoBound);
    }
    for (uint32_t q = hinge_offsets[i]; q < hinge_offsets[i + 1]; ++q) {
        const HingeIncidence inc = hinge_incidences[q];
        const auto& ends = hinge_ends[inc.hinge];
        const auto& w = hinge_w[inc.hinge];
        Vec3 c = -hinge_rest[inc.hinge];
        for (int s = 0; s < 4; ++s) c += (static_cast<uint32_t>(s) == inc.slot ? xi : x[ends[s]]) * w[s];
        e += 0.5 * hinge_k[inc.hinge] * length_squared(c);
    }
    if (tether_centre[i] != no_particle)
        e += row_energy(tether_k[i], tether_lambda[i], distance(xi, x[tether_centre[i]]) - tether_radius[i], 0, kNoBound);
    if (slack_rows && std::isfinite(slack_radius[i]))
        e += row_energy(slack_k[i], slack_lambda[i], distance(xi, animated[i]) - slack_radius[i], 0, kNoBound);
    if (pose_rows && pose_k[i] > 0) e += 0.5 * pose_k[i] * length_squared(xi - animated[i] - pose_lift);
    for (int s = 0; s < contact_count[i]; ++s) {  // friction is not conservative and is left out
        const Contact& c = contacts[i][s];
        e += row_energy(c.k, c.lambda, c.c0 + dot(c.normal, xi - c.anchor), -kNoBound, 0);
    }
    return e;
}

void Solver::Impl::sweep_colour(uint32_t begin, uint32_t end) {
    const bool audit = constants.energy_audit;
    uint64_t updates = 0, capped = 0;
    for (uint32_t i = begin; i < end; ++i) {
        if (state.inverse_mass[i] == 0) continue;
        const Vec3 xi = state.x[i];
        const Accumulated a = accumulate(i, xi);
        const Ldlt3 f = ldlt_factor(a.h);
        // H ⪰ (m/h²)·I by construction (seed 002 §5.3), so this only trips on a non-finite input,
        // which is then left for the caller's finiteness gate rather than spread by the solve.
        if (!f.positive_definite()) continue;
        Vec3 dx = ldlt_solve(f, a.f);
        // The trust region: no further than the shortest incident row (seed 002 §5.3).
        const double r = trust_radius[i];
        const double l2 = length_squared(dx);
        if (l2 > r * r) {
            dx *= r / std::sqrt(l2);
            ++capped;
        }
        if (audit) {
            double e0 = local_energy(i, xi);
            double e1 = local_energy(i, xi + dx);
            // The local energy scale: the energy the update's own quadratic model gives a move across
            // the trust radius, ½·(tr H / 3)·r² (the Hessian's mean curvature, the inertial m/h²
            // included). The inertial term alone would measure a soft row 1e7 times stiffer than
            // its particle's m/h² against an energy it cannot resolve (docs/measurements.md, table V1).
            double rr = std::isfinite(r) ? r : std::sqrt(l2);
            double scale = 0.5 * (a.h.xx + a.h.yy + a.h.zz) / 3 * rr * rr + std::fabs(e0);
            double rise = (e1 - e0) / scale;
            if (rise > 1e-12) {
                ++stats->climbing_updates;
                stats->worst_climb = std::max(stats->worst_climb, rise);
            }
        }
        state.x[i] = xi + dx;
        ++updates;
    }
    if (stats) {
        stats->vertex_updates += updates;
        stats->capped_updates += capped;
    }
}

void Solver::Impl::update_duals() {
    // λ ← clamp(k·C + λ, fmin, fmax) for hard rows only (seed 002 §3), and the penalty ramp
    // k ← min(k + β·|C|, k_max) while a row is not held at a clamp (inert while k_min = k_max, §2).
    const bool ramp = constants.k_max_ratio > constants.k_min_ratio;
    const double kmax = constants.k_max_ratio;
    auto grow = [&](double& kappa, double c, double scale) {
        if (ramp && scale > 0) kappa = std::min(kappa + constants.beta * std::fabs(c) / scale, kmax);
    };
    const Vec3* x = state.x.data();
    for (size_t e = 0; e < link_ends.size(); ++e) {
        const bool hard = link_hard[e] != 0;
        const bool strain = strain_rows && e < edge_count;  // soft stretch rows can carry one too
        if ((!hard && !strain) || link_m_eff[e] == 0) continue;
        const double scale = link_m_eff[e] * inv_h2;
        const double l = distance(x[link_ends[e][0]], x[link_ends[e][1]]);
        LinkRow& r = link[e];
        if (hard) {
            double c = l - r.rest;
            r.lambda += r.k * c;
            grow(link_kappa[e], c, scale);
        }
        if (strain) {
            double c = l - r.strain_rest;
            double u = r.strain_k * c + r.strain_lambda;
            r.strain_lambda = std::max(u, 0.0);
            if (u > 0) grow(strain_kappa[e], c, scale);
        }
    }
    for (uint32_t i : free_particles) {
        const double scale = mass[i] * inv_h2;
        if (tether_centre[i] != no_particle) {
            double c = distance(x[i], x[tether_centre[i]]) - tether_radius[i];
            double u = tether_k[i] * c + tether_lambda[i];
            tether_lambda[i] = std::max(u, 0.0);
            if (u > 0) grow(tether_kappa[i], c, scale);
        }
        if (slack_rows && std::isfinite(slack_radius[i])) {
            double c = distance(x[i], animated[i]) - slack_radius[i];
            double u = slack_k[i] * c + slack_lambda[i];
            slack_lambda[i] = std::max(u, 0.0);
            if (u > 0) grow(slack_kappa[i], c, scale);
        }
        for (int s = 0; s < contact_count[i]; ++s) {
            Contact& c = contacts[i][s];
            c.lambda = std::min(c.k * (c.c0 + dot(c.normal, x[i] - c.anchor)) + c.lambda, 0.0);
        }
    }
}

}  // namespace weft
