#include "solver/hinge_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "proxy/core/hinge_area.h"
#include "solver/message.h"

namespace weft::hinge_rows {

namespace {

/// cot of the angle between u and v; NaN when they are parallel (a triangle with no area).
double cotangent(const Vec3& u, const Vec3& v) {
    double s = length(cross(u, v));
    return s > 0 ? dot(u, v) / s : std::numeric_limits<double>::quiet_NaN();
}

void build_incidences(HingeModel& m, size_t n) {
    m.offsets.assign(n + 1, 0);
    for (const auto& q : m.ends)
        for (uint32_t v : q) ++m.offsets[v + 1];
    for (size_t i = 0; i < n; ++i) m.offsets[i + 1] += m.offsets[i];
    m.incidences.resize(m.offsets[n]);
    std::vector<uint32_t> fill(m.offsets.begin(), m.offsets.end() - 1);
    for (size_t b = 0; b < m.ends.size(); ++b)
        for (uint32_t s = 0; s < 4; ++s) m.incidences[fill[m.ends[b][s]]++] = {static_cast<uint32_t>(b), s};
}

}  // namespace

HingeModel build(const ClothProxy& p, const Fabric& fabric) {
    HingeModel m;
    m.bend = fabric.bend;
    if (fabric.bend > 0)
        for (size_t b = 0; b < p.hinges.size(); ++b) {
            const auto& q = p.hinges[b];
            const Vec3 &x0 = p.rest_position[q[0]], &x1 = p.rest_position[q[1]];
            const Vec3 &x2 = p.rest_position[q[2]], &x3 = p.rest_position[q[3]];
            double ca0 = cotangent(x1 - x0, x2 - x0), ca1 = cotangent(x0 - x1, x2 - x1);
            double cb0 = cotangent(x1 - x0, x3 - x0), cb1 = cotangent(x0 - x1, x3 - x1);
            std::array<double, 4> w = {ca1 + cb1, ca0 + cb0, -(ca0 + ca1), -(cb0 + cb1)};
            for (double v : w)
                if (!std::isfinite(v))
                    throw std::invalid_argument(solver_message("proxy '", p.garment, "': hinge ", b, " (particles ", q[0], ", ",
                                                               q[1], ", ", q[2], ", ", q[3],
                                                               ") has a wing triangle with no area at rest"));
            m.ends.push_back(q);
            m.w.push_back(w);
            // docs/solver.md#hinge: the ratio scaled by the hinge's area, so the bending energy per unit
            // area at a given curvature is the source mesh's there, whatever the resolution.
            const double area = hinge_area(q, p.rest_position);
            const double reference = p.hinge_reference_area.empty() ? area : p.hinge_reference_area[b];
            m.ratio.push_back(hinge_bend_ratio(fabric.bend, area, reference));
            if (hinge_bend_capped(fabric.bend, area, reference)) ++m.capped;
            m.rest.push_back(x0 * w[0] + x1 * w[1] + x2 * w[2] + x3 * w[3]);
            // Cut flat, C̄ is rounding (a few ulps of the coordinates): the hold-line turn skips it.
            const double scale = std::fabs(w[0]) + std::fabs(w[1]) + std::fabs(w[2]) + std::fabs(w[3]);
            const double coordinates = std::max({length(x0), length(x1), length(x2), length(x3), 1e-300});
            if (length(m.rest.back()) > 1e-12 * scale * coordinates) m.curved.push_back(m.ends.size() - 1);
        }
    build_incidences(m, p.particle_count());
    return m;
}

HingeState initial_state(const HingeModel& m) {
    HingeState s;
    s.m_eff.assign(m.count(), 0);
    s.k.assign(m.count(), 0);
    return s;
}

void refresh_masses(const HingeModel& m, HingeState& st, const std::vector<double>& w) {
    const size_t n = w.size();
    for (size_t b = 0; b < m.count(); ++b) {
        double s = 0, largest = 0, lever = 0;
        for (int k = 0; k < 4; ++k) {
            const double wk = std::fabs(m.w[b][k]);
            s += wk * wk * w[m.ends[b][k]];
            largest = std::max(largest, wk);
            if (w[m.ends[b][k]] > 0) lever = std::max(lever, wk);
        }
        // docs/solver.md#hinge: k = ratio·(m/Σw²)/h², generalised to unequal masses as 1/Σ(w_k²/m_k).
        // A hinge whose free ends carry no weight of their own (docs/solver.md#a-hinge-its-free-ends-cannot-bend)
        // gives them no force; 1/Σ would be the reciprocal of a rounding.
        st.m_eff[b] = s > 0 && lever > kHingeLeverFloor * largest ? 1 / s : 0;
    }
    st.bend_diagonal.assign(n, 0);
    st.bend_rest.assign(n, Vec3{});
    std::vector<std::vector<BendNeighbour>> rows(n);
    for (size_t b = 0; b < m.count(); ++b) {
        const double scale = m.ratio[b] * st.m_eff[b];
        for (int s = 0; s < 4; ++s) {
            const uint32_t i = m.ends[b][s];
            st.bend_diagonal[i] += scale * m.w[b][s] * m.w[b][s];
            st.bend_rest[i] += m.rest[b] * (scale * m.w[b][s]);
            for (int q = 0; q < 4; ++q) {
                if (q == s) continue;
                const uint32_t j = m.ends[b][q];
                const double c = scale * m.w[b][s] * m.w[b][q];
                auto it = std::find_if(rows[i].begin(), rows[i].end(), [&](const BendNeighbour& e) { return e.other == j; });
                if (it == rows[i].end())
                    rows[i].push_back({j, c});
                else
                    it->coefficient += c;
            }
        }
    }
    st.bend_offsets.assign(n + 1, 0);
    st.bend_neighbours.clear();
    for (uint32_t i = 0; i < n; ++i) {
        st.bend_neighbours.insert(st.bend_neighbours.end(), rows[i].begin(), rows[i].end());
        st.bend_offsets[i + 1] = static_cast<uint32_t>(st.bend_neighbours.size());
    }
}

void set_penalties(const HingeModel& m, HingeState& s, double inv_h2) {
    for (size_t b = 0; b < m.count(); ++b) s.k[b] = m.ratio[b] * s.m_eff[b] * inv_h2;
}

void add_elastic_energy(const HingeModel& m, const HingeState& s, const Vec3* x, double& e) {
    for (size_t b = 0; b < m.count(); ++b) {
        Vec3 c = -m.rest[b];
        for (int k = 0; k < 4; ++k) c += x[m.ends[b][k]] * m.w[b][k];
        e += 0.5 * s.k[b] * length_squared(c);
    }
}

void add_local_energy(const HingeModel& m, const HingeState& s, uint32_t i, const Vec3& xi, const Vec3* x, double& e) {
    for (uint32_t q = m.offsets[i]; q < m.offsets[i + 1]; ++q) {
        const HingeIncidence inc = m.incidences[q];
        const auto& ends = m.ends[inc.hinge];
        const auto& w = m.w[inc.hinge];
        Vec3 c = -m.rest[inc.hinge];
        for (int k = 0; k < 4; ++k) c += (static_cast<uint32_t>(k) == inc.slot ? xi : x[ends[k]]) * w[k];
        e += 0.5 * s.k[inc.hinge] * length_squared(c);
    }
}

}  // namespace weft::hinge_rows
