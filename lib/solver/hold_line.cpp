// The turn about a hold line (docs/solver.md#hold-line). A cloth whose held particles lie on one line can turn about it as a rigid body, a motion no
// 3x3 vertex block makes; the sweeps stopped at a fabric's iteration count leave a gradient along
// that turn, and about a vertical line nothing restores it. So the turn gets one Newton step of its
// own in the last iteration, after the sweep and before the dual update.
#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/lanes.h"
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

namespace {

/// What the turn's Newton step sums over the free particles, in their order.
struct TurnSums {
    double gradient = 0, curvature = 0, path = 0;
    double reach_perp2 = 0;  ///< the largest |t|²; one root after: the root is monotonic, so the same maximum
    double trust = std::numeric_limits<double>::infinity();
};

/// Particle i's terms: the inertial term and the unary rows along the turn's tangent t = a × r.
void add_turn_terms(const SolverModel& m, const SolverState& s, uint32_t i, const Vec3& o, const Vec3& a, TurnSums& sums) {
    const Vec3 xi = s.cloth.x[i];
    const Vec3 r = xi - o;
    const Vec3 t = cross(a, r);
    const Accumulated acc = accumulate_unary(m, s, i, xi);
    const Vec3 grad = -acc.f;
    sums.gradient += dot(t, grad);
    sums.curvature += dot(t, acc.h * t);
    // d²x/dθ² = −r⊥: the path's own curvature, near zero about a vertical axis.
    sums.path += dot(grad, a * dot(a, r) - r);
    sums.reach_perp2 = std::max(sums.reach_perp2, length_squared(t));
    sums.trust = std::min(sums.trust, m.trust_radius[i]);
}

#ifdef WEFT_SOLVER_X86
/// a·b over lanes, in dot's order.
WEFT_AVX2 inline __m256d dot_lanes(__m256d ax, __m256d ay, __m256d az, __m256d bx, __m256d by, __m256d bz) {
    return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(ax, bx), _mm256_mul_pd(ay, by)), _mm256_mul_pd(az, bz));
}

/// add_turn_terms for four free particles side by side (`live` of them), each lane's terms computed
/// as the scalar ones and added to the sums in particle order. False, having added nothing, when a
/// particle has a row the lanes do not take (lanes::unary_lanes).
WEFT_AVX2 bool add_turn_lanes(const SolverModel& m, const SolverState& s, const uint32_t* particle, int live, const Vec3& o,
                              const Vec3& a, TurnSums& sums) {
    lanes::Lanes l;
    const int32_t at[4] = {static_cast<int32_t>(particle[0] * 3), static_cast<int32_t>(particle[1] * 3),
                           static_cast<int32_t>(particle[2] * 3), static_cast<int32_t>(particle[3] * 3)};
    lanes::load_positions(&s.cloth.x.data()->x, at, l.xx, l.xy, l.xz);
    if (!lanes::unary_lanes(m, s, particle, live, l)) return false;
    const __m256d ax = _mm256_set1_pd(a.x), ay = _mm256_set1_pd(a.y), az = _mm256_set1_pd(a.z), sign = _mm256_set1_pd(-0.0);
    const __m256d rx = _mm256_sub_pd(l.xx, _mm256_set1_pd(o.x)), ry = _mm256_sub_pd(l.xy, _mm256_set1_pd(o.y));
    const __m256d rz = _mm256_sub_pd(l.xz, _mm256_set1_pd(o.z));
    const __m256d tx = _mm256_sub_pd(_mm256_mul_pd(ay, rz), _mm256_mul_pd(az, ry));
    const __m256d ty = _mm256_sub_pd(_mm256_mul_pd(az, rx), _mm256_mul_pd(ax, rz));
    const __m256d tz = _mm256_sub_pd(_mm256_mul_pd(ax, ry), _mm256_mul_pd(ay, rx));
    const __m256d gx = _mm256_xor_pd(l.fx, sign), gy = _mm256_xor_pd(l.fy, sign), gz = _mm256_xor_pd(l.fz, sign);
    const __m256d htx = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(l.hxx, tx), _mm256_mul_pd(l.hxy, ty)), _mm256_mul_pd(l.hxz, tz));
    const __m256d hty = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(l.hxy, tx), _mm256_mul_pd(l.hyy, ty)), _mm256_mul_pd(l.hyz, tz));
    const __m256d htz = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(l.hxz, tx), _mm256_mul_pd(l.hyz, ty)), _mm256_mul_pd(l.hzz, tz));
    const __m256d along = dot_lanes(ax, ay, az, rx, ry, rz);
    const __m256d px = _mm256_sub_pd(_mm256_mul_pd(ax, along), rx), py = _mm256_sub_pd(_mm256_mul_pd(ay, along), ry);
    const __m256d pz = _mm256_sub_pd(_mm256_mul_pd(az, along), rz);
    alignas(32) double term[4][4];
    _mm256_store_pd(term[0], dot_lanes(tx, ty, tz, gx, gy, gz));
    _mm256_store_pd(term[1], dot_lanes(tx, ty, tz, htx, hty, htz));
    _mm256_store_pd(term[2], dot_lanes(gx, gy, gz, px, py, pz));
    _mm256_store_pd(term[3], dot_lanes(tx, ty, tz, tx, ty, tz));
    TurnSums add = sums;  // in registers: `sums` may alias the trust radii it reads, so it would go through memory
    for (int k = 0; k < 4; ++k) {
        if (!(live & (1 << k))) continue;
        add.gradient += term[0][k];
        add.curvature += term[1][k];
        add.path += term[2][k];
        add.reach_perp2 = std::max(add.reach_perp2, term[3][k]);
        add.trust = std::min(add.trust, m.trust_radius[particle[k]]);
    }
    sums = add;
    return true;
}

/// x ← o + turn·(x − o) for four particles (`live` of them), Quat::rotate's operations in lanes.
WEFT_AVX2 void turn_lanes(SolverState& s, const uint32_t* particle, int live, const Vec3& o, const Quat& turn) {
    Vec3* x = s.cloth.x.data();
    const int32_t at[4] = {static_cast<int32_t>(particle[0] * 3), static_cast<int32_t>(particle[1] * 3),
                           static_cast<int32_t>(particle[2] * 3), static_cast<int32_t>(particle[3] * 3)};
    __m256d vx, vy, vz;
    lanes::load_positions(&x->x, at, vx, vy, vz);
    const __m256d ox = _mm256_set1_pd(o.x), oy = _mm256_set1_pd(o.y), oz = _mm256_set1_pd(o.z);
    vx = _mm256_sub_pd(vx, ox);
    vy = _mm256_sub_pd(vy, oy);
    vz = _mm256_sub_pd(vz, oz);
    const __m256d ux = _mm256_set1_pd(turn.x), uy = _mm256_set1_pd(turn.y), uz = _mm256_set1_pd(turn.z);
    const __m256d w = _mm256_set1_pd(turn.w), two = _mm256_set1_pd(2.0);
    const __m256d tx = _mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(uy, vz), _mm256_mul_pd(uz, vy)), two);
    const __m256d ty = _mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(uz, vx), _mm256_mul_pd(ux, vz)), two);
    const __m256d tz = _mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(ux, vy), _mm256_mul_pd(uy, vx)), two);
    alignas(32) double out[3][4];
    _mm256_store_pd(out[0], _mm256_add_pd(ox, _mm256_add_pd(_mm256_add_pd(vx, _mm256_mul_pd(tx, w)),
                                                            _mm256_sub_pd(_mm256_mul_pd(uy, tz), _mm256_mul_pd(uz, ty)))));
    _mm256_store_pd(out[1], _mm256_add_pd(oy, _mm256_add_pd(_mm256_add_pd(vy, _mm256_mul_pd(ty, w)),
                                                            _mm256_sub_pd(_mm256_mul_pd(uz, tx), _mm256_mul_pd(ux, tz)))));
    _mm256_store_pd(out[2], _mm256_add_pd(oz, _mm256_add_pd(_mm256_add_pd(vz, _mm256_mul_pd(tz, w)),
                                                            _mm256_sub_pd(_mm256_mul_pd(ux, ty), _mm256_mul_pd(uy, tx)))));
    for (int k = 0; k < 4; ++k)
        if (live & (1 << k)) x[particle[k]] = {out[0][k], out[1][k], out[2][k]};
}
#endif

/// The free particles four at a time: `group(particle, live)` on each four, the last padded with its first.
template <class Group>
void in_fours(const std::vector<uint32_t>& free, Group group) {
    for (size_t g = 0; g < free.size(); g += 4) {
        uint32_t particle[4];
        int live = 0;
        for (size_t k = 0; k < 4; ++k) {
            particle[k] = g + k < free.size() ? free[g + k] : free[g];
            if (g + k < free.size()) live |= 1 << k;
        }
        group(particle, live);
    }
}

/// The sums over every free particle: four side by side where the machine allows, the same sums.
TurnSums turn_sums(const SolverModel& m, const SolverState& s, const Vec3& o, const Vec3& a) {
    TurnSums sums;
#ifdef WEFT_SOLVER_X86
    if (sweep_uses_simd(m)) {
        in_fours(s.free_particles, [&](const uint32_t* particle, int live) {
            if (add_turn_lanes(m, s, particle, live, o, a, sums)) return;
            for (int k = 0; k < 4; ++k)
                if (live & (1 << k)) add_turn_terms(m, s, particle[k], o, a, sums);
        });
        return sums;
    }
#endif
    for (uint32_t i : s.free_particles) add_turn_terms(m, s, i, o, a, sums);
    return sums;
}

}  // namespace

void turn_about_hold_line(const SolverModel& m, SolverState& s, StepStats& stats) {
    const Vec3 o = s.substep.hold_line_origin;
    const Vec3 a = s.substep.hold_line_axis;
    std::vector<Vec3>& x = s.cloth.x;
    const HingeModel& hinge = m.hinge;
    const std::vector<double>& hinge_k = s.hinge.k;
    // Internal rows are invariant under the turn (both ends turn, or one is on the axis: every
    // tether's centre is held), so only the inertial term and the unary rows enter (docs/solver.md#hold-line); and a
    // hinge whose rest pose is bent, since the turn carries C = Σ w·x round to R·C but not C̄.
    const TurnSums sums = turn_sums(m, s, o, a);
    double gradient = sums.gradient, curvature = sums.curvature;
    const double path = sums.path, trust = sums.trust;
    // dC/dθ = a × C (Σ w = 0, and every held end is on the axis): the gradient k·(C − C̄)·(a × C) and
    // its Gauss-Newton curvature k·|a × C|².
    for (size_t b : hinge.curved) {
        Vec3 c{};
        for (int k = 0; k < 4; ++k) c += x[hinge.ends[b][k]] * hinge.w[b][k];
        const Vec3 dc = cross(a, c);
        gradient += hinge_k[b] * dot(c - hinge.rest[b], dc);
        curvature += hinge_k[b] * length_squared(dc);
    }
    const double reach_perp = std::sqrt(sums.reach_perp2);
    stats.hold_line = true;
    const double hessian = curvature + std::max(0.0, path);
    if (!(hessian > 0)) return;
    double theta = -gradient / hessian;
    // A descent step on the same energy, so the same trust region as a vertex update (docs/solver.md#trust-region).
    if (reach_perp > 0 && std::fabs(theta) * reach_perp > trust) theta = std::copysign(trust / reach_perp, theta);
    if (!(theta != 0) || !std::isfinite(theta)) return;
    const Quat turn = Quat::from_axis_angle(a, theta);
#ifdef WEFT_SOLVER_X86
    if (sweep_uses_simd(m)) {
        in_fours(s.free_particles, [&](const uint32_t* particle, int live) { turn_lanes(s, particle, live, o, turn); });
        return;
    }
#endif
    for (uint32_t i : s.free_particles) x[i] = o + turn.rotate(x[i] - o);
}

}  // namespace weft
