// The vertex solve (docs/solver.md#vertex-update): per free particle, the force and Hessian of its inertial term and
// of every row kind at it (each kind's accumulate, in its own header), one 3x3 LDLᵀ Newton step,
// capped at the particle's shortest row; colour by colour, Gauss-Seidel.
#include <algorithm>
#include <cmath>

#include "solver/phases.h"

namespace weft {

namespace {

/// Every row at particle i, with i at `xi`. The order of the terms is the result's, bit for bit.
Accumulated accumulate(const SolverModel& m, const SolverState& s, uint32_t i, const Vec3& xi) {
    Accumulated a = accumulate_unary(m, s, i, xi);
    const Vec3* x = s.cloth.x.data();
    distance_rows::accumulate(m.distance, s.distance, i, xi, x, a);
    hinge_rows::accumulate(s.hinge, i, xi, x, s.substep.inv_h2, a);
    tether_rows::accumulate(s.tether, i, xi, x, a);
    return a;
}

/// The energy the vertex update at particle i descends, with i at `xi` (the energy audit).
double local_energy(const SolverModel& m, const SolverState& s, uint32_t i, const Vec3& xi) {
    const double mh = m.mass[i] * s.substep.inv_h2;
    double e = 0.5 * mh * length_squared(xi - s.cloth.y[i]);
    const Vec3* x = s.cloth.x.data();
    distance_rows::add_local_energy(m.distance, s.distance, i, xi, x, e);
    hinge_rows::add_local_energy(m.hinge, s.hinge, i, xi, x, e);
    tether_rows::add_local_energy(s.tether, i, xi, x, e);
    slack_rows::add_local_energy(m.slack, s.slack, i, xi, s.animated[i], e);
    pose_rows::add_local_energy(m.pose, s.pose, i, xi, s.animated[i], e);
    contact_rows::add_local_energy(s.contact, i, xi, e);
    return e;
}

/// The energy audit of one update (docs/solver.md#trust-region): did it raise the local energy? The scale is the
/// energy the update's own quadratic model gives a move across the trust radius, ½·(tr H / 3)·r² (the
/// Hessian's mean curvature, the inertial m/h² included). The inertial term alone would measure a soft
/// row 1e7 times stiffer than its particle's m/h² against an energy it cannot resolve
/// (docs/measurements.md, table V1).
void audit_update(const SolverModel& m, const SolverState& s, uint32_t i, const Vec3& xi, const Vec3& dx, const SymMat3& h,
                  StepStats& stats) {
    const double r = m.trust_radius[i];
    double e0 = local_energy(m, s, i, xi);
    double e1 = local_energy(m, s, i, xi + dx);
    double rr = std::isfinite(r) ? r : std::sqrt(length_squared(dx));
    double scale = 0.5 * (h.xx + h.yy + h.zz) / 3 * rr * rr + std::fabs(e0);
    double rise = (e1 - e0) / scale;
    if (rise > 1e-12) {
        ++stats.climbing_updates;
        stats.worst_climb = std::max(stats.worst_climb, rise);
    }
}

}  // namespace

void sweep_colour(const SolverModel& m, SolverState& s, uint32_t begin, uint32_t end, StepStats& stats) {
    const bool audit = m.constants.energy_audit;
    uint64_t updates = 0, capped = 0;
    for (uint32_t i = begin; i < end; ++i) {
        if (s.cloth.inverse_mass[i] == 0) continue;
        const Vec3 xi = s.cloth.x[i];
        const Accumulated a = accumulate(m, s, i, xi);
        const Ldlt3 f = ldlt_factor(a.h);
        // H ⪰ (m/h²)·I by construction (docs/solver.md#trust-region), so this only trips on a non-finite input,
        // which is then left for the caller's finiteness gate rather than spread by the solve.
        if (!f.positive_definite()) continue;
        Vec3 dx = ldlt_solve(f, a.f);
        // The trust region: no further than the shortest incident row (docs/solver.md#trust-region).
        const double r = m.trust_radius[i];
        const double l2 = length_squared(dx);
        if (l2 > r * r) {
            dx *= r / std::sqrt(l2);
            ++capped;
        }
        if (audit) audit_update(m, s, i, xi, dx, a.h, stats);
        s.cloth.x[i] = xi + dx;
        ++updates;
    }
    stats.vertex_updates += updates;
    stats.capped_updates += capped;
}

}  // namespace weft
