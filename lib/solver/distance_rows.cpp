#include "solver/distance_rows.h"

#include <algorithm>
#include <cmath>

namespace weft::distance_rows {

DistanceModel build(const ClothProxy& p, const Fabric& fabric) {
    DistanceModel m;
    const size_t n = p.particle_count();
    // Stretch edges, then skips (docs/solver.md#skip: a soft row to the grandparent).
    const bool hard = std::isinf(fabric.stretch_stiffness);
    m.edge_count = p.edges.size();
    for (size_t e = 0; e < p.edges.size(); ++e) {
        m.ends.push_back(p.edges[e]);
        m.rest.push_back(p.rest_length[e]);
        m.hard.push_back(hard ? 1 : 0);
        m.soft_k.push_back(hard ? 0 : fabric.stretch_stiffness);
        m.soft_ratio.push_back(0);
    }
    if (fabric.bend > 0)
        for (size_t s = 0; s < p.skips.size(); ++s) {
            m.ends.push_back(p.skips[s]);
            m.rest.push_back(p.skip_rest_length[s]);
            m.hard.push_back(0);
            m.soft_k.push_back(fabric.bend);
            m.soft_ratio.push_back(1);
        }
    m.strain_rows = fabric.strain_limit && m.edge_count > 0;
    m.strain_factor = strain_allowance(fabric.stretch);

    // Incidence lists, count -> prefix sum -> fill, in row order (deterministic).
    m.offsets.assign(n + 1, 0);
    for (const auto& e : m.ends) {
        ++m.offsets[e[0] + 1];
        ++m.offsets[e[1] + 1];
    }
    for (size_t i = 0; i < n; ++i) m.offsets[i + 1] += m.offsets[i];
    m.incidences.resize(m.offsets[n]);
    std::vector<uint32_t> fill(m.offsets.begin(), m.offsets.end() - 1);
    for (size_t e = 0; e < m.ends.size(); ++e) {
        uint32_t a = m.ends[e][0], b = m.ends[e][1];
        m.incidences[fill[a]++] = {b, static_cast<uint32_t>(e)};
        m.incidences[fill[b]++] = {a, static_cast<uint32_t>(e)};
    }
    m.authored.resize(m.count());
    for (size_t e = 0; e < m.count(); ++e) m.authored[e] = static_cast<uint32_t>(e);
    return m;
}

void reorder(DistanceModel& m, const std::vector<uint32_t>& order) {
    std::vector<uint32_t> now(m.count());
    for (size_t r = 0; r < m.count(); ++r) now[order[r]] = static_cast<uint32_t>(r);
    auto permute = [&](auto& v) {
        auto old = v;
        for (size_t r = 0; r < m.count(); ++r) v[r] = old[order[r]];
    };
    permute(m.ends);
    permute(m.rest);
    permute(m.hard);
    permute(m.soft_k);
    permute(m.soft_ratio);
    for (uint32_t& r : m.authored) r = now[r];
    for (LinkIncidence& inc : m.incidences) inc.link = now[inc.link];
}

namespace {

/// Both slots of row r: field f ← v.
void set_slots(const DistanceModel& m, DistanceState& s, size_t r, uint32_t f, double v) {
    for (const uint32_t slot : m.row_slots[r]) s.slots[RowSlots::at(slot, f)] = v;
}

/// The rows' fields but the multipliers copied to their slots.
void copy_rows_to_slots(const DistanceModel& m, DistanceState& s) {
    for (size_t r = 0; r < m.count(); ++r) {
        const LinkRow& row = s.rows[r];
        set_slots(m, s, r, RowSlots::rest, row.rest);
        set_slots(m, s, r, RowSlots::k, row.k);
        set_slots(m, s, r, RowSlots::strain_rest, row.strain_rest);
        set_slots(m, s, r, RowSlots::strain_k, row.strain_k);
    }
}

}  // namespace

DistanceState initial_state(const DistanceModel& m, const SolverConstants& constants) {
    DistanceState s;
    s.rows.reserve(m.count());
    for (size_t e = 0; e < m.count(); ++e) s.rows.push_back({m.rest[e], 0, m.rest[e], 0});
    s.m_eff.assign(m.count(), 0);
    s.kappa.assign(m.count(), constants.k_min_ratio);
    if (m.strain_rows) {
        for (size_t e = 0; e < m.edge_count; ++e) s.rows[e].strain_rest = s.rows[e].rest * m.strain_factor;
        s.strain_kappa.assign(m.edge_count, constants.k_min_ratio);
    }
    s.slots.assign(m.slot_count * RowSlots::fields, 0.0);
    copy_rows_to_slots(m, s);
    return s;
}

void refresh_masses(const DistanceModel& m, DistanceState& s, const std::vector<double>& w) {
    for (size_t e = 0; e < m.count(); ++e) {
        double sum = w[m.ends[e][0]] + w[m.ends[e][1]];
        s.m_eff[e] = sum > 0 ? 1 / sum : 0;
    }
}

void set_penalties(const DistanceModel& m, DistanceState& s, double inv_h2) {
    for (size_t e = 0; e < m.count(); ++e) {
        double scale = s.m_eff[e] * inv_h2;
        if (m.hard[e])
            s.rows[e].k = s.kappa[e] * scale;
        else
            s.rows[e].k = m.soft_ratio[e] ? m.soft_k[e] * scale : m.soft_k[e];
    }
    if (m.strain_rows)
        for (size_t e = 0; e < m.edge_count; ++e) s.rows[e].strain_k = s.strain_kappa[e] * s.m_eff[e] * inv_h2;
    for (size_t r = 0; r < m.count(); ++r) {
        set_slots(m, s, r, RowSlots::k, s.rows[r].k);
        set_slots(m, s, r, RowSlots::strain_k, s.rows[r].strain_k);
    }
}

void warm_start(const DistanceModel&, DistanceState& s, const SolverConstants& c, bool penalties) {
    const double ag = c.alpha * c.gamma;
    // Every slot, the skips' (+0 stays +0 under a finite α·γ ≥ 0) and the padding's (never read) too:
    // one pass over contiguous memory.
    const size_t vectors = s.slots.size() / (RowSlots::fields * RowSlots::lanes);
    for (size_t q = 0; q < vectors; ++q) {
        double* v = s.slots.data() + q * RowSlots::fields * RowSlots::lanes;
        for (uint32_t k = 0; k < RowSlots::lanes; ++k) {
            v[RowSlots::lambda * RowSlots::lanes + k] *= ag;
            v[RowSlots::strain_lambda * RowSlots::lanes + k] *= ag;
        }
    }
    if (!penalties) return;
    for (double& k : s.kappa) k = std::clamp(k * c.gamma, c.k_min_ratio, c.k_max_ratio);
    for (double& k : s.strain_kappa) k = std::clamp(k * c.gamma, c.k_min_ratio, c.k_max_ratio);
}

void reset(DistanceState& s, const SolverConstants& c) {
    for (size_t at = 0; at < s.slots.size(); at += RowSlots::fields * RowSlots::lanes)
        for (uint32_t k = 0; k < RowSlots::lanes; ++k)
            s.slots[at + RowSlots::lambda * RowSlots::lanes + k] = s.slots[at + RowSlots::strain_lambda * RowSlots::lanes + k] = 0;
    std::fill(s.kappa.begin(), s.kappa.end(), c.k_min_ratio);
    std::fill(s.strain_kappa.begin(), s.strain_kappa.end(), c.k_min_ratio);
}

void update_duals(const DistanceModel& m, DistanceState& s, const Vec3* x, double inv_h2, const SolverConstants& constants) {
    for (size_t e = 0; e < m.count(); ++e) {
        const bool hard = m.hard[e] != 0;
        const bool strain = m.strain_rows && e < m.edge_count;  // soft stretch rows can carry one too
        if ((!hard && !strain) || s.m_eff[e] == 0) continue;
        const double scale = s.m_eff[e] * inv_h2;
        const double l = distance(x[m.ends[e][0]], x[m.ends[e][1]]);
        const LinkRow& r = s.rows[e];
        if (hard) {
            double c = l - r.rest;
            set_slots(m, s, e, RowSlots::lambda, lambda(m, s, static_cast<uint32_t>(e)) + r.k * c);
            ramp_penalty(s.kappa[e], c, scale, constants);
        }
        if (strain) {
            double strain_l = strain_lambda(m, s, static_cast<uint32_t>(e));
            update_leash_dual(l - r.strain_rest, r.strain_k, strain_l, s.strain_kappa[e], scale, constants);
            set_slots(m, s, e, RowSlots::strain_lambda, strain_l);
        }
    }
}

bool within_strain(const DistanceModel& m, const DistanceState& s, const Vec3* x, double ratio) {
    for (size_t e = 0; e < m.edge_count; ++e) {
        if (s.m_eff[e] == 0) continue;  // both ends held: the holders' business
        const double longest = ratio * m.rest[e];
        if (length_squared(x[m.ends[e][0]] - x[m.ends[e][1]]) > longest * longest) return false;
    }
    return true;
}

void add_elastic_energy(const DistanceModel& m, const DistanceState& s, const Vec3* x, double& e) {
    for (const uint32_t r : m.authored)  // the proxy's order: the sum's bits do not depend on the layout
        if (!m.hard[r]) {
            double c = distance(x[m.ends[r][0]], x[m.ends[r][1]]) - s.rows[r].rest;
            e += 0.5 * s.rows[r].k * c * c;
        }
}

void add_local_energy(const DistanceModel& m, const DistanceState& s, uint32_t i, const Vec3& xi, const Vec3* x, double& e) {
    for (uint32_t q = m.offsets[i]; q < m.offsets[i + 1]; ++q) {
        const LinkIncidence inc = m.incidences[q];
        double l = distance(xi, x[inc.other]);
        const LinkRow& r = s.rows[inc.link];
        const uint32_t slot = m.slot[q];
        e += row_energy(r.k, s.slots[RowSlots::at(slot, RowSlots::lambda)], l - r.rest, -solver_infinity, solver_infinity);
        e += row_energy(r.strain_k, s.slots[RowSlots::at(slot, RowSlots::strain_lambda)], l - r.strain_rest, 0, solver_infinity);
    }
}

}  // namespace weft::distance_rows
