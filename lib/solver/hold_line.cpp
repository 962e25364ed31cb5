// The turn about a hold line (docs/solver.md#hold-line). A cloth whose held particles lie on one line can turn about it as a rigid body, a motion no
// 3x3 vertex block makes; the sweeps stopped at a fabric's iteration count leave a gradient along
// that turn, and about a vertical line nothing restores it. So the turn gets one Newton step of its
// own in the last iteration, after the sweep and before the dual update.
#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/phases.h"

namespace weft {

void find_hold_line(const SolverModel&, SolverState& s) {
    const std::vector<uint32_t>& kinematic_particles = s.kinematic_particles;
    const std::vector<Vec3>& x = s.cloth.x;
    SubstepState& sub = s.substep;
    sub.hold_line_ok = false;
    if (kinematic_particles.size() < 2 || s.free_particles.empty()) return;
    const Vec3 o = x[kinematic_particles.front()];
    double largest = 0;
    Vec3 far = o;
    double far_d2 = 0;
    for (uint32_t p : kinematic_particles) {
        const Vec3& q = x[p];
        largest = std::max({largest, std::fabs(q.x), std::fabs(q.y), std::fabs(q.z)});
        double d2 = length_squared(q - o);
        if (d2 > far_d2) {
            far_d2 = d2;
            far = q;
        }
    }
    // "On one line, at two distinct points or more, to 2⁻¹⁶ of their largest coordinate."
    const double tolerance = std::ldexp(largest, -16);
    if (!(std::sqrt(far_d2) > tolerance)) return;
    const Vec3 axis = normalize(far - o);
    for (uint32_t p : kinematic_particles) {
        Vec3 r = x[p] - o;
        if (length(r - axis * dot(axis, r)) > tolerance) return;
    }
    sub.hold_line_ok = true;
    sub.hold_line_origin = o;
    sub.hold_line_axis = axis;
}

void turn_about_hold_line(const SolverModel& m, SolverState& s, StepStats& stats) {
    const Vec3 o = s.substep.hold_line_origin;
    const Vec3 a = s.substep.hold_line_axis;
    std::vector<Vec3>& x = s.cloth.x;
    const HingeModel& hinge = m.hinge;
    const std::vector<double>& hinge_k = s.hinge.k;
    // Internal rows are invariant under the turn (both ends turn, or one is on the axis: every
    // tether's centre is held), so only the inertial term and the unary rows enter (docs/solver.md#hold-line); and a
    // hinge whose rest pose is bent, since the turn carries C = Σ w·x round to R·C but not C̄.
    double gradient = 0, curvature = 0, path = 0;
    // The largest |t|² and one root after the loop: the root is monotonic, so the same maximum.
    double reach_perp2 = 0, trust = std::numeric_limits<double>::infinity();
    for (uint32_t i : s.free_particles) {
        const Vec3 xi = x[i];
        const Vec3 r = xi - o;
        const Vec3 t = cross(a, r);
        const Accumulated acc = accumulate_unary(m, s, i, xi);
        const Vec3 grad = -acc.f;
        gradient += dot(t, grad);
        curvature += dot(t, acc.h * t);
        // d²x/dθ² = −r⊥: the path's own curvature, near zero about a vertical axis.
        path += dot(grad, a * dot(a, r) - r);
        reach_perp2 = std::max(reach_perp2, length_squared(t));
        trust = std::min(trust, m.trust_radius[i]);
    }
    // dC/dθ = a × C (Σ w = 0, and every held end is on the axis): the gradient k·(C − C̄)·(a × C) and
    // its Gauss-Newton curvature k·|a × C|².
    for (size_t b : hinge.curved) {
        Vec3 c{};
        for (int k = 0; k < 4; ++k) c += x[hinge.ends[b][k]] * hinge.w[b][k];
        const Vec3 dc = cross(a, c);
        gradient += hinge_k[b] * dot(c - hinge.rest[b], dc);
        curvature += hinge_k[b] * length_squared(dc);
    }
    const double reach_perp = std::sqrt(reach_perp2);
    stats.hold_line = true;
    const double hessian = curvature + std::max(0.0, path);
    if (!(hessian > 0)) return;
    double theta = -gradient / hessian;
    // A descent step on the same energy, so the same trust region as a vertex update (docs/solver.md#trust-region).
    if (reach_perp > 0 && std::fabs(theta) * reach_perp > trust) theta = std::copysign(trust / reach_perp, theta);
    if (!(theta != 0) || !std::isfinite(theta)) return;
    const Quat turn = Quat::from_axis_angle(a, theta);
    for (uint32_t i : s.free_particles) x[i] = o + turn.rotate(x[i] - o);
}

}  // namespace weft
