// One step, as its phases (docs/solver.md#the-step; docs/architecture.md#stages): check the input, capture the holds on the first
// step, read the frame's motion and any teleport (docs/solver.md#teleport), sleep (docs/solver.md#sleep), take the colliders, the
// teleport, the holders' targets, the tethers coming in, the frame's inertia, the velocity clamp; then
// the substeps; then the sleep test.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "solver/message.h"
#include "solver/lanes.h"
#include "solver/phases.h"
#include "solver/solver.h"

namespace weft {

namespace {

Pose inverse(const Pose& p) {
    Quat r = p.rotation.conjugate();
    return {-r.rotate(p.position), r};
}

Pose compose(const Pose& a, const Pose& b) {  // a after b
    return {a.rotation.rotate(b.position) + a.position, a.rotation * b.rotation};
}

bool finite_pose(const Pose& p) {
    return is_finite(p.position) && std::isfinite(p.rotation.x) && std::isfinite(p.rotation.y) &&
           std::isfinite(p.rotation.z) && std::isfinite(p.rotation.w);
}

/// The rotation angle of a unit quaternion, radians in [0, π].
double rotation_angle(const Quat& q) {
    double v = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    return 2 * std::atan2(v, std::fabs(q.w));
}

/// Angular velocity (world axes) carrying `from` onto `to` in `dt`.
Vec3 angular_velocity(const Quat& from, const Quat& to, double dt) {
    // An unturned frame has none: the product below, contracted into fused multiply-adds, leaves a
    // rounding residue (~1e-18) for a rotation that is not exactly unit, which would be felt and keep a
    // still cloth from ever sleeping.
    if (from.x == to.x && from.y == to.y && from.z == to.z && from.w == to.w) return {};
    Quat d = to * from.conjugate();
    if (d.w < 0) d = {-d.x, -d.y, -d.z, -d.w};
    Vec3 v{d.x, d.y, d.z};
    double s = length(v);
    if (!(s > 0)) return {};
    return v * (2 * std::atan2(s, d.w) / (s * dt));
}

void check_input(const ClothProxy& p, const StepInput& in) {
    if (!(in.dt > 0 && std::isfinite(in.dt))) throw std::invalid_argument(solver_message("step: dt = ", in.dt, ", want > 0"));
    if (!in.holders.empty() && in.holders.size() != p.pins.size())
        throw std::invalid_argument(solver_message("step: ", in.holders.size(), " holder poses for ", p.pins.size(), " pins"));
    if (!finite_pose(in.frame) || !is_finite(in.gravity)) throw std::invalid_argument("step: non-finite frame pose or gravity");
    for (size_t k = 0; k < in.holders.size(); ++k)
        if (!finite_pose(in.holders[k])) throw std::invalid_argument(solver_message("step: holder pose of pin ", k, " is not finite"));
    for (size_t c = 0; c < in.spheres.size(); ++c)
        if (!is_finite(in.spheres[c].centre) || !(in.spheres[c].radius >= 0 && std::isfinite(in.spheres[c].radius)))
            throw std::invalid_argument(solver_message("step: sphere collider ", c, " is not finite or has a negative radius"));
    for (size_t c = 0; c < in.capsules.size(); ++c)
        if (!is_finite(in.capsules[c].a) || !is_finite(in.capsules[c].b) ||
            !(in.capsules[c].radius >= 0 && std::isfinite(in.capsules[c].radius)))
            throw std::invalid_argument(solver_message("step: capsule collider ", c, " is not finite or has a negative radius"));
}

/// The first step captures the holds: each held particle's offset from its holder (docs/solver.md#holds).
void begin_holds(const SolverModel& m, SolverState& s, const StepInput& in, const std::vector<Pose>& poses) {
    s.started = true;
    s.frame_pose = in.frame;
    s.frame_velocity = {};
    s.frame_omega = {};
    s.holder_pose = poses;
    for (size_t k = 0; k < m.proxy->pins.size(); ++k) s.hold_start_rotation[k] = poses[k].rotation;
    for (uint32_t i = 0; i < m.n; ++i)
        if (m.held_pin[i] != no_pin) s.hold_offset[i] = inverse(poses[m.held_pin[i]]).apply(s.cloth.x[i]);
    s.gravity_frame = in.frame.rotation.conjugate().rotate(in.gravity);
    s.contact.spheres_prev = in.spheres;
    s.contact.capsules_prev = in.capsules;
    s.contact.spheres = in.spheres;
    s.contact.capsules = in.capsules;
}

/// What the frame and the holders did since the last step.
struct FrameMotion {
    Vec3 gravity;                       ///< in the frame's axes
    Vec3 velocity, omega;               ///< the frame's, world (the last step's across a teleport)
    bool teleport = false;
    std::vector<uint8_t> holder_jumped; ///< per pin
    bool felt = false;                  ///< the cloth feels the frame's motion (inertia > 0 and it moved or turns)
    double full_clamp = 0;              ///< the velocity clamp at full strength, m/s
};

/// Frame motion and teleports (docs/solver.md#teleport: the frame's jump in the world or any
/// holder's jump in the frame, against one threshold).
FrameMotion frame_motion(const SolverModel& m, const SolverState& s, const StepInput& in, const std::vector<Pose>& poses,
                         double full_clamp) {
    FrameMotion f;
    const double dt = in.dt;
    f.gravity = in.frame.rotation.conjugate().rotate(in.gravity);
    f.full_clamp = full_clamp;
    const double threshold = in.teleport_distance > 0 ? in.teleport_distance : full_clamp * dt;
    auto jumped = [&](const Pose& from, const Pose& to) {
        double angle = rotation_angle(to.rotation * from.rotation.conjugate());
        double chord = 2 * std::sin(std::min(angle, std::numbers::pi) / 2) * m.reach;
        return distance(from.position, to.position) > threshold || chord > threshold;
    };
    f.velocity = (in.frame.position - s.frame_pose.position) / dt;
    f.omega = angular_velocity(s.frame_pose.rotation, in.frame.rotation, dt);
    f.teleport = in.teleport || jumped(s.frame_pose, in.frame);
    const size_t pins = m.proxy->pins.size();
    f.holder_jumped.assign(pins, 0);
    for (size_t k = 0; k < pins; ++k)
        if (s.pin_holding[k] && jumped(s.holder_pose[k], poses[k])) {
            f.holder_jumped[k] = 1;
            f.teleport = true;
        }
    if (f.teleport) {  // a jump is not motion: the frame keeps the velocity it had
        f.velocity = s.frame_velocity;
        f.omega = s.frame_omega;
    }
    f.felt = m.fabric.inertia > 0 &&
             (!(f.velocity == s.frame_velocity) || !(f.omega == s.frame_omega) || !(f.omega == Vec3{}));
    return f;
}

/// Sleep (docs/solver.md#sleep): nothing is computed or written until something that matters changes.
bool anything_changed(const SolverState& s, const StepInput& in, const std::vector<Pose>& poses, const FrameMotion& f) {
    bool changed = f.teleport || f.felt || !(f.gravity == s.gravity_frame);
    for (size_t k = 0; k < poses.size() && !changed; ++k) changed = !(poses[k] == s.holder_pose[k]);
    if (changed) return true;
    const ContactState& c = s.contact;
    if (in.spheres.size() != c.spheres.size() || in.capsules.size() != c.capsules.size()) return true;
    for (size_t q = 0; q < in.spheres.size(); ++q)
        if (!(in.spheres[q].centre == c.spheres[q].centre) || in.spheres[q].radius != c.spheres[q].radius) return true;
    for (size_t q = 0; q < in.capsules.size(); ++q)
        if (!(in.capsules[q].a == c.capsules[q].a) || !(in.capsules[q].b == c.capsules[q].b) ||
            in.capsules[q].radius != c.capsules[q].radius)
            return true;
    return false;
}

/// What the next step compares against.
void finish_step(SolverState& s, const StepInput& in, const std::vector<Pose>& poses, const FrameMotion& f) {
    s.frame_pose = in.frame;
    s.frame_velocity = f.velocity;
    s.frame_omega = f.omega;
    s.holder_pose = poses;
    s.gravity_frame = f.gravity;
    s.contact.spheres_prev = in.spheres;
    s.contact.capsules_prev = in.capsules;
    s.contact.spheres = in.spheres;
    s.contact.capsules = in.capsules;
}

/// Kinematic targets at the end of the step: holder·offset; a bone nothing pins stays put.
void set_targets(const SolverModel& m, SolverState& s, const std::vector<Pose>& poses) {
    for (uint32_t i : s.kinematic_particles) {
        uint32_t k = m.held_pin[i];
        s.target[i] = k != no_pin ? poses[k].apply(s.hold_offset[i]) : s.cloth.x[i];
    }
}

/// A teleport: Reset re-seeds on the animated pose; Keep carries the shape across (a frame jump needs
/// nothing, the cloth already lives in the frame; a holder's jump is applied rigidly to what hangs
/// from it, held particles included).
Teleported teleport(const SolverModel& m, SolverState& s, const StepInput& in, const std::vector<Pose>& poses, const FrameMotion& f) {
    if (in.teleport_mode == TeleportMode::reset) {
        s.holder_pose = poses;
        set_targets(m, s, poses);
        reseed(m, s);
        return Teleported::reset;
    }
    const ClothProxy& p = *m.proxy;
    ClothState& c = s.cloth;
    for (size_t k = 0; k < p.pins.size(); ++k) {
        if (!f.holder_jumped[k]) continue;
        const Pose delta = compose(poses[k], inverse(s.holder_pose[k]));
        for (uint32_t i = 0; i < m.n; ++i) {
            uint32_t centre = c.inverse_mass[i] == 0 ? i : p.nearest_held[i];
            if (centre == no_particle || m.held_pin[centre] != k) continue;
            c.x[i] = delta.apply(c.x[i]);
            c.x_prev[i] = delta.apply(c.x_prev[i]);
            c.v[i] = delta.rotation.rotate(c.v[i]);
        }
    }
    return Teleported::keep;
}

/// Substeps for this step (docs/solver.md#fast-cloth): the fabric's, times the smallest k for which
/// the fastest free particle, at its speed once the frame's kick is felt, crosses no more than
/// speed_substep_ratio × the shortest row per speed_split_sweeps sweeps: V·h/k ≤ c·(n/N)·L, n the
/// fabric's sweeps a substep (at most N), because a sweep, not a substep, is what carries a correction
/// one row further. At most max_speed_split times.
uint32_t step_substeps(const SolverModel& m, const SolverState& s, double dt) {
    const uint32_t base = m.fabric.substeps;
    const uint32_t reference_sweeps = std::max(m.constants.speed_split_sweeps, 1u);
    // The fabric's budget even when iterating to a residual: more sweeps are not promised there.
    const uint32_t sweeps = std::clamp(m.fabric.iterations, 1u, reference_sweeps);
    const double c = m.constants.speed_substep_ratio * sweeps / reference_sweeps;
    if (!(c > 0) || !std::isfinite(m.shortest_row) || !(m.shortest_row > 0)) return base;
    double speed2 = 0;
    for (uint32_t i : s.free_particles) speed2 = std::max(speed2, dot(s.cloth.v[i], s.cloth.v[i]));
    const double k = std::ceil(std::sqrt(speed2) * dt / base / (c * m.shortest_row) - 1e-12);
    if (!(k > 1)) return base;  // slow enough, or a non-finite state (the caller's NON_FINITE, not a split)
    return base * static_cast<uint32_t>(std::min(k, static_cast<double>(std::max(m.constants.max_speed_split, 1u))));
}

/// Inertia (docs/solver.md#inertia): the cloth feels `inertia` of the frame's world motion. In the frame that is
/// the fictitious accelerations: a change of frame velocity is a kick −ΔV − Δω×x, a turning frame adds
/// −ω×(ω×x) − 2ω×v every substep. Held particles belong to their holders.
void feel_frame(const SolverModel& m, SolverState& s, const StepInput& in, const FrameMotion& f, Teleported teleported) {
    const double inertia = m.fabric.inertia;
    const Quat to_frame = in.frame.rotation.conjugate();
    if (inertia > 0 && teleported != Teleported::reset) {
        const Vec3 dv = to_frame.rotate(f.velocity - s.frame_velocity) * inertia;
        const Vec3 dw = to_frame.rotate(f.omega - s.frame_omega) * inertia;
        if (!(dv == Vec3{}) || !(dw == Vec3{}))
            for (uint32_t i : s.free_particles) s.cloth.v[i] -= dv + cross(dw, s.cloth.x[i]);
    }
    s.substep.omega_local = to_frame.rotate(f.omega);
    s.substep.fictitious_inertia = (inertia > 0 && !(f.omega == Vec3{})) ? inertia : 0;
}

/// Held particles: an equal share of what remains, exactly onto the target at the last substep; a
/// target equal to the position moves nothing by a bit (docs/solver.md#holds). Then the animated pose.
void carry_held(const SolverModel& m, SolverState& s, uint32_t remaining) {
    for (uint32_t i : s.kinematic_particles) {
        s.cloth.x_prev[i] = s.cloth.x[i];  // the substep's start (predict keeps the free particles')
        s.cloth.x[i] = remaining == 1 ? s.target[i] : s.cloth.x[i] + (s.target[i] - s.cloth.x[i]) / remaining;
    }
    if (m.constants.hold_line) find_hold_line(m, s);
    if (m.slack.enabled || m.pose.enabled) {
        turn_pins(s);  // once a pin, not once a particle; the offsets once a turn
        for (uint32_t i : s.free_particles)
            if (std::isfinite(s.slack.radius[i]) || s.pose.k[i] > 0) s.animated[i] = animated_position(m, s, i, &s.turned);
    }
}

#ifdef WEFT_SOLVER_X86
/// predict's loop where the frame does not turn and gravity is not zero, four free particles at a
/// time: each lane the scalar particle's operations in its order (std::clamp's two compares as blends).
WEFT_AVX2 void predict_avx2(SolverState& s, const Vec3& gravity, double g_length) {
    ClothState& c = s.cloth;
    const std::vector<uint32_t>& free = s.free_particles;
    const double h = s.substep.h, hh = h * h;
    const __m256d vh = _mm256_set1_pd(h), vhh = _mm256_set1_pd(hh), inv_h = _mm256_set1_pd(s.substep.inv_h);
    const __m256d g2 = _mm256_set1_pd(g_length * g_length), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    const __m256d gx = _mm256_set1_pd(gravity.x), gy = _mm256_set1_pd(gravity.y), gz = _mm256_set1_pd(gravity.z);
    const __m256d ax = _mm256_set1_pd(gravity.x * hh), ay = _mm256_set1_pd(gravity.y * hh), az = _mm256_set1_pd(gravity.z * hh);
    for (size_t g = 0; g < free.size(); g += 4) {
        int32_t at[4];
        for (size_t q = 0; q < 4; ++q) at[q] = static_cast<int32_t>(3 * free[g + q < free.size() ? g + q : g]);
        __m256d xx, xy, xz, vx, vy, vz, bx, by, bz;
        lanes::load_positions(&c.x.data()->x, at, xx, xy, xz);
        lanes::load_positions(&c.v.data()->x, at, vx, vy, vz);
        lanes::load_positions(&s.v_before.data()->x, at, bx, by, bz);
        const __m256d hvx = _mm256_mul_pd(vx, vh), hvy = _mm256_mul_pd(vy, vh), hvz = _mm256_mul_pd(vz, vh);
        alignas(32) double out[6][4];
        _mm256_store_pd(out[0], _mm256_add_pd(_mm256_add_pd(xx, hvx), ax));
        _mm256_store_pd(out[1], _mm256_add_pd(_mm256_add_pd(xy, hvy), ay));
        _mm256_store_pd(out[2], _mm256_add_pd(_mm256_add_pd(xz, hvz), az));
        const __m256d gained = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(vx, bx), gx), _mm256_mul_pd(_mm256_sub_pd(vy, by), gy)),
                                             _mm256_mul_pd(_mm256_sub_pd(vz, bz), gz));
        __m256d along = _mm256_div_pd(_mm256_mul_pd(gained, inv_h), g2);
        along = _mm256_blendv_pd(along, zero, _mm256_cmp_pd(along, zero, _CMP_LT_OQ));
        along = _mm256_blendv_pd(along, one, _mm256_cmp_pd(one, along, _CMP_LT_OQ));
        const __m256d share = _mm256_mul_pd(vhh, along);
        _mm256_store_pd(out[3], _mm256_add_pd(xx, _mm256_add_pd(hvx, _mm256_mul_pd(gx, share))));
        _mm256_store_pd(out[4], _mm256_add_pd(xy, _mm256_add_pd(hvy, _mm256_mul_pd(gy, share))));
        _mm256_store_pd(out[5], _mm256_add_pd(xz, _mm256_add_pd(hvz, _mm256_mul_pd(gz, share))));
        for (size_t q = 0; q < 4 && g + q < free.size(); ++q) {
            const uint32_t i = free[g + q];
            c.y[i] = {out[0][q], out[1][q], out[2][q]};
            c.x_prev[i] = c.x[i];
            c.x[i] = {out[3][q], out[4][q], out[5][q]};
        }
    }
}
#endif

/// Predict the inertial target y = x + h·v + h²·a, and start the sweeps from the adaptive guess.
void predict(const SolverModel& m, SolverState& s, const Vec3& gravity) {
    const double h = s.substep.h;
    const double fi = s.substep.fictitious_inertia;
    const double g_length = length(gravity);
    const Vec3 w = s.substep.omega_local;
    ClothState& c = s.cloth;
#ifdef WEFT_SOLVER_X86
    if (sweep_uses_simd(m) && !(fi > 0) && g_length > 0) {
        predict_avx2(s, gravity, g_length);
        return;
    }
#else
    (void)m;
#endif
    for (uint32_t i : s.free_particles) {
        Vec3 a = gravity;
        c.x_prev[i] = c.x[i];  // the substep's start (carry_held keeps the kinematic particles')
        if (fi > 0) a -= (cross(w, cross(w, c.x[i])) + cross(w, c.v[i]) * 2.0) * fi;
        c.y[i] = c.x[i] + c.v[i] * h + a * (h * h);
        // Start the sweeps from the adaptive guess x + h·v + w·h²·g, w the share of gravity the
        // particle's last substep actually accelerated by (Chen, Macklin et al., Vertex Block
        // Descent, 2024; the AVBD reference does the same). A cloth at
        // rest starts at rest rather than a fall below it: from the full inertial guess one sweep
        // cannot lift a 30-link chain back, and the tethered rig of docs/measurements.md table L1 rests 3% beyond its
        // tether at 1x1 instead of the table's 0.25% (0.29% from this guess).
        double along = 0;
        if (g_length > 0)
            along = std::clamp(dot(c.v[i] - s.v_before[i], gravity) * s.substep.inv_h / (g_length * g_length), 0.0, 1.0);
        c.x[i] += c.v[i] * h + gravity * (h * h * along);
    }
}

/// Warm-start the hard rows (docs/solver.md#warm-start: λ ← α·γ·λ, k ← clamp(γ·k, k_min, k_max); hard rows only),
/// then this substep's penalties from the ratios and the effective masses. Where the penalties settle
/// (penalties_settle) and h and the masses are the last substep's, the ratios and the penalties are
/// already what these passes would write, bit for bit, and only the multipliers decay.
void warm_start(const SolverModel& m, SolverState& s) {
    const double inv_h2 = s.substep.inv_h2;
    const bool settle = penalties_settle(m.constants);
    const bool kept = settle && s.penalties_inv_h2 == inv_h2;
    distance_rows::warm_start(m.distance, s.distance, m.constants, !kept);
    tether_rows::warm_start(s.tether, m.constants, !kept);
    slack_rows::warm_start(s.slack, m.constants, !kept);
    if (kept) return;
    distance_rows::set_penalties(m.distance, s.distance, inv_h2);
    hinge_rows::set_penalties(m.hinge, s.hinge, inv_h2);
    tether_rows::set_penalties(s.tether, s.free_particles, m.mass, inv_h2);
    slack_rows::set_penalties(s.slack, s.free_particles, m.mass, inv_h2);
    s.penalties_inv_h2 = settle ? inv_h2 : std::numeric_limits<double>::quiet_NaN();
}

#ifdef WEFT_SOLVER_X86
/// Four stretch edges from `e` (of `count`; past it a lane repeats edge e): their ends as coordinate
/// offsets, and which lanes are edges with a free end (m_eff ≠ 0; both ends held: the holders' business).
struct FourEdges {
    alignas(32) int32_t end[8];  ///< the first ends' x offsets, then the second ends'
    int on = 0;
};

WEFT_AVX2 inline FourEdges four_edges(const DistanceModel& m, const DistanceState& s, size_t e, size_t count) {
    FourEdges f;
    if (e + 4 <= count) {
        // The four pairs as a vector, first ends to the low half, times 3.
        const __m256i ends = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(m.ends[e].data())),
                                                         _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
        _mm256_store_si256(reinterpret_cast<__m256i*>(f.end), _mm256_add_epi32(ends, _mm256_add_epi32(ends, ends)));
        f.on = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(s.m_eff.data() + e), _mm256_setzero_pd(), _CMP_NEQ_UQ));
        return f;
    }
    for (size_t q = 0; q < 4; ++q) {
        const size_t at = e + q < count ? e + q : e;
        f.end[q] = static_cast<int32_t>(m.ends[at][0] * 3);
        f.end[q + 4] = static_cast<int32_t>(m.ends[at][1] * 3);
        if (e + q < count && s.m_eff[at] != 0) f.on |= 1 << q;
    }
    return f;
}

/// distance_rows::within_strain four edges at a time: the same answer (some edge with a free end is
/// longer than `ratio` × its rest length, squared lengths), from the same products.
WEFT_AVX2 bool within_strain_avx2(const DistanceModel& m, const DistanceState& s, const Vec3* x, double ratio) {
    const __m256d r = _mm256_set1_pd(ratio);
    const size_t count = m.edge_count;
    for (size_t e = 0; e < count; e += 4) {
        const FourEdges f = four_edges(m, s, e, count);
        if (f.on == 0) continue;
        __m256d ax, ay, az, bx, by, bz;
        lanes::load_positions(&x->x, f.end, ax, ay, az);
        lanes::load_positions(&x->x, f.end + 4, bx, by, bz);
        const __m256d dx = _mm256_sub_pd(ax, bx), dy = _mm256_sub_pd(ay, by), dz = _mm256_sub_pd(az, bz);
        const __m256d l2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
        __m256d rest;
        if (e + 4 <= count) {
            rest = _mm256_loadu_pd(m.rest.data() + e);
        } else {
            alignas(32) double pad[4] = {m.rest[e], m.rest[e], m.rest[e], m.rest[e]};
            for (size_t q = 1; e + q < count; ++q) pad[q] = m.rest[e + q];
            rest = _mm256_load_pd(pad);
        }
        const __m256d longest = _mm256_mul_pd(r, rest);
        if (_mm256_movemask_pd(_mm256_cmp_pd(l2, _mm256_mul_pd(longest, longest), _CMP_GT_OQ)) & f.on) return false;
    }
    return true;
}

/// Four free particles from `g` (past the end a lane repeats free[g]): their own coordinate offsets and
/// their tether centres' (a lane without a tether: its own), and which lanes have a tether.
struct FourTethered {
    uint32_t particle[4];
    int32_t own[4], centre[4];
    int tethered = 0;
};

inline FourTethered four_tethered(const std::vector<uint32_t>& free, const TetherState& t, size_t g) {
    FourTethered f;
    for (size_t q = 0; q < 4; ++q) {
        const bool live = g + q < free.size();
        const uint32_t i = f.particle[q] = free[live ? g + q : g];
        const uint32_t c = t.centre[i];
        f.own[q] = static_cast<int32_t>(3 * i);
        f.centre[q] = static_cast<int32_t>(3 * (live && c != no_particle ? c : i));
        if (live && c != no_particle) f.tethered |= 1 << q;
    }
    return f;
}

/// tether_rows::tighten four free particles at a time: r ← max(d_geo, min(r, |x_i − x_c|)) where a
/// particle has a tether, std::min's and std::max's compares as blends, each lane as the scalar row.
WEFT_AVX2 void tighten_avx2(TetherState& t, const ClothProxy& p, const std::vector<uint32_t>& free, const Vec3* x) {
    for (size_t g = 0; g < free.size(); g += 4) {
        const FourTethered f = four_tethered(free, t, g);
        if (f.tethered == 0) continue;
        const uint32_t* particle = f.particle;
        __m256d xx, xy, xz, cx, cy, cz;
        lanes::load_positions(&x->x, f.own, xx, xy, xz);
        lanes::load_positions(&x->x, f.centre, cx, cy, cz);
        const __m256d dx = _mm256_sub_pd(xx, cx), dy = _mm256_sub_pd(xy, cy), dz = _mm256_sub_pd(xz, cz);
        const __m256d d = _mm256_sqrt_pd(_mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz)));
        const __m256d r = lanes::load_lanes(t.radius.data(), particle), geo = lanes::load_lanes(p.d_geo.data(), particle);
        const __m256d shorter = _mm256_blendv_pd(r, d, _mm256_cmp_pd(d, r, _CMP_LT_OQ));
        alignas(32) double out[4];
        _mm256_store_pd(out, _mm256_blendv_pd(geo, shorter, _mm256_cmp_pd(geo, shorter, _CMP_LT_OQ)));
        for (int q = 0; q < 4; ++q)
            if (f.tethered & (1 << q)) t.radius[particle[q]] = out[q];
    }
}
#endif

/// Whether the sweeps may stop at the strain target (docs/solver.md#iterating-to-a-target).
bool within_strain(const SolverModel& m, const SolverState& s, double ratio) {
#ifdef WEFT_SOLVER_X86
    if (sweep_uses_simd(m)) return within_strain_avx2(m.distance, s.distance, s.cloth.x.data(), ratio);
#endif
    return distance_rows::within_strain(m.distance, s.distance, s.cloth.x.data(), ratio);
}

/// Whether the penalty ramp cannot move a penalty (k_min = k_max): the dual update is then the
/// multipliers alone, which the lanes make.
bool ramp_inert(const SolverConstants& c) { return !(c.k_max_ratio > c.k_min_ratio); }

/// Whether the lanes make the dual update (docs/solver.md#duals-in-the-sweep): while the penalty ramp is
/// inert and the particles of each colour are independent (DualLanes names every edge with a free end once).
bool duals_in_lanes(const SolverModel& m, const SolverState& s) {
    return sweep_uses_simd(m) && ramp_inert(m.constants) && m.sweep.independent(s.cloth.inverse_mass);
}

/// The dual update of every hard row (docs/solver.md#hard-and-soft-rows) and the penalty ramp (docs/solver.md#warm-start).
void update_duals(const SolverModel& m, SolverState& s, bool contacts) {
    const Vec3* x = s.cloth.x.data();
    const double inv_h2 = s.substep.inv_h2;
    if (duals_in_lanes(m, s)) {
        update_duals_in_lanes(m, s);
    } else {
        distance_rows::update_duals(m.distance, s.distance, x, inv_h2, m.constants);
        tether_rows::update_duals(s.tether, s.free_particles, m.mass, x, inv_h2, m.constants);
        slack_rows::update_duals(m.slack, s.slack, s.free_particles, m.mass, x, s.animated, inv_h2, m.constants);
    }
    if (contacts) contact_rows::update_duals(s.contact, s.free_particles, x);  // detect counted every contact row
}

/// Velocities, damping, the clamp (docs/solver.md#velocity-clamp: the clamp bounds the position too, so a clamped
/// particle moves only as far as its clamped velocity takes it). Returns the fastest unclamped speed.
double finish_velocities(SolverState& s, double decay, double clamp, StepStats& stats) {
    ClothState& c = s.cloth;
    const double h = s.substep.h;
    double unclamped = 0;
    // v_before: a kinematic particle's new velocity, a free one's from the substep's start (predict's guess).
    for (uint32_t i : s.kinematic_particles) s.v_before[i] = c.v[i] = (c.x[i] - c.x_prev[i]) * s.substep.inv_h;
    for (uint32_t i : s.free_particles) {
        s.v_before[i] = c.v[i];
        Vec3 v = (c.x[i] - c.x_prev[i]) * s.substep.inv_h * decay;
        double speed = length(v);
        unclamped = std::max(unclamped, speed);
        if (speed > clamp) {
            v = clamp > 0 ? v * (clamp / speed) : Vec3{};
            c.x[i] = c.x_prev[i] + v * h;
            ++stats.clamped;
        }
        c.v[i] = v;
    }
    return unclamped;
}

/// One substep: carry the held particles, predict, warm-start, penalties, contacts; then `iterations`
/// times a Gauss-Seidel sweep colour by colour, the hold-line turn in the last one, the dual update
/// (docs/solver.md#the-step; AVBD's primal-dual iteration); then velocities.
double substep(const SolverModel& m, SolverState& s, uint32_t index, const Vec3& gravity, double decay, double clamp,
               StepStats& stats) {
    const uint32_t substeps = s.substep.count;
    carry_held(m, s, substeps - index);  // with predict, x_prev ← x: no pass of its own over the positions
    predict(m, s, gravity);
    warm_start(m, s);
    const ContactInputs contact_in{s.free_particles, s.cloth.x.data(), s.cloth.x_prev.data(), m.mass, m.trust_radius, m.reach,
                                   s.substep.inv_h2};
    stats.contacts = contact_rows::detect(m.contact, s.contact, contact_in, static_cast<double>(index + 1) / substeps, m.constants);
    // A fixed count, or until a sweep moves nothing further than the residual tolerance and leaves no
    // stretch edge beyond the strain target (docs/solver.md#iterating-to-a-target).
    const bool to_residual = m.constants.residual_tolerance > 0, to_strain = m.constants.strain_target > 0;
    const uint32_t most = to_residual || to_strain ? std::max(m.constants.max_iterations, 1u) : m.fabric.iterations;
    const double enough = m.constants.residual_tolerance * (std::isfinite(m.shortest_row) ? m.shortest_row : m.reach);
    // Between two sweeps of a substep nothing moves the cloth, so the next sweep makes the dual update
    // as it reads each row (docs/solver.md#duals-in-the-sweep); after the last one (the hold-line turn
    // follows it) a pass does.
    const bool wait = m.constants.defer_duals && duals_in_lanes(m, s);
    bool pending = false;
    for (uint32_t it = 0; it < most; ++it) {
        stats.largest_move = 0;
        sweep(m, s, pending, stats);
        stats.largest_move = std::sqrt(stats.largest_move);
        ++stats.iterations;
        const bool done = (to_residual || to_strain) && (!to_residual || stats.largest_move <= enough) &&
                          (!to_strain || within_strain(m, s, 1 + m.constants.strain_target));
        const bool last = it + 1 == most || done;
        if (last && m.constants.hold_line && s.substep.hold_line_ok) turn_about_hold_line(m, s, stats);
        pending = wait && !last;
        if (!pending)
            update_duals(m, s, stats.contacts != 0);
        else if (stats.contacts != 0)
            contact_rows::update_duals(s.contact, s.free_particles, s.cloth.x.data());
        if (last) break;
    }
    return finish_velocities(s, decay, clamp, stats);
}

/// How near its pose at a cycle watch's start the cloth must come back, as a share of the way the sleep
/// speed goes in a step (docs/solver.md#cycles): far above rounding (a cycle of the step repeats to
/// 1e-15..1e-13 m) and far below an undamped oscillation's drift (back to within 5e-4 of that way,
/// a motion NEVER_SLEPT must catch).
constexpr double kCycleReturn = 1e-6;

/// Sleep test (docs/solver.md#sleep): `sleep_steps` consecutive steps with nothing faster than
/// sleep_speed_ratio·reach per second, or, with the inputs unchanged, a watch of as many steps in which
/// the cloth came back to its pose at the watch's start (a cycle: it would go round it forever) and
/// went no further from it than the sleep speed goes in the watch (a cycle too small to see). A proxy
/// with no free particle (a garment its pins hold whole) has nothing to move: it sleeps too.
void sleep_test(const SolverModel& m, SolverState& s, double dt, bool same_inputs, StepStats& stats) {
    const double speed = m.constants.sleep_speed_ratio * m.reach;
    const bool quiet = s.free_particles.empty() || stats.max_speed < speed;
    const bool counts = m.constants.sleep && stats.teleported == Teleported::none;
    if (!counts || !same_inputs) s.cycle.clear();
    s.quiet_steps = counts && quiet ? s.quiet_steps + 1 : 0;
    // The ball: as far as the sleep speed goes in a watch, so a cycle wider than that is motion to see.
    const double ball = speed * dt * m.constants.sleep_steps;
    const bool cycle = counts && same_inputs &&
                       s.cycle.closed(s.cloth.x, s.free_particles, kCycleReturn * speed * dt, ball, m.constants.sleep_steps);
    if (counts && (s.quiet_steps >= m.constants.sleep_steps || cycle)) {
        s.asleep = true;
        stats.fell_asleep = true;
    }
}

}  // namespace

StepStats Solver::step(const StepInput& in) {
    const SolverModel& m = *model_;
    SolverState& s = state_;
    check_input(*m.proxy, in);
    StepStats stats;
    const std::vector<Pose>& poses = in.holders.empty() ? s.holder_pose : in.holders;
    if (!s.started) begin_holds(m, s, in, poses);
    pose_rows::set_lift(m.pose, s.pose, m.rest_frame_rotation.conjugate().rotate(in.gravity));
    const FrameMotion motion = frame_motion(m, s, in, poses, velocity_clamp(in.dt));

    // Asleep, the cloth stays so while nothing that moves it changes; awake, the sleep test's cycle
    // watch follows it only while nothing does.
    const bool same_inputs = s.holder_pose.size() == poses.size() && !anything_changed(s, in, poses, motion);
    if (s.asleep) {
        if (same_inputs) {
            stats.asleep = true;
            finish_step(s, in, poses, motion);
            return stats;
        }
        wake();
    }
    s.contact.spheres = in.spheres;
    s.contact.capsules = in.capsules;
    if (s.contact.spheres_prev.size() != s.contact.spheres.size()) s.contact.spheres_prev = s.contact.spheres;
    if (s.contact.capsules_prev.size() != s.contact.capsules.size()) s.contact.capsules_prev = s.contact.capsules;

    if (motion.teleport) stats.teleported = teleport(m, s, in, poses, motion);
    s.holder_pose = poses;
    set_targets(m, s, poses);
    // Tethers only ever come in.
#ifdef WEFT_SOLVER_X86
    if (sweep_uses_simd(m))
        tighten_avx2(s.tether, *m.proxy, s.free_particles, s.cloth.x.data());
    else
#endif
        tether_rows::tighten(s.tether, *m.proxy, s.free_particles, s.cloth.x.data());
    feel_frame(m, s, in, motion, stats.teleported);
    const uint32_t substeps = step_substeps(m, s, in.dt);  // after the kick: the speeds this step starts with

    // The velocity clamp: clamp_ratio × the correction authority, ramped back from 0 after a reset.
    double clamp = motion.full_clamp;
    if (s.steps_since_reset < m.constants.reset_ramp_steps)
        clamp *= static_cast<double>(s.steps_since_reset) / m.constants.reset_ramp_steps;
    stats.velocity_clamp = clamp;

    s.substep.count = substeps;
    stats.substeps = substeps;
    s.substep.h = in.dt / substeps;
    s.substep.inv_h = 1 / s.substep.h;
    s.substep.inv_h2 = s.substep.inv_h * s.substep.inv_h;
    const double decay = std::exp(-m.fabric.damping * s.substep.h);
    double unclamped = 0;
    for (uint32_t k = 0; k < substeps; ++k) unclamped = std::max(unclamped, substep(m, s, k, motion.gravity, decay, clamp, stats));

    double fastest2 = 0;  // squared, one root after: the root is monotonic, so the same maximum
    for (uint32_t i : s.free_particles) fastest2 = std::max(fastest2, length_squared(s.cloth.v[i]));
    stats.max_speed = std::sqrt(fastest2);
    stats.max_speed_unclamped = unclamped;
    if (s.steps_since_reset != UINT64_MAX) ++s.steps_since_reset;
    sleep_test(m, s, in.dt, same_inputs, stats);
    finish_step(s, in, poses, motion);
    return stats;
}

}  // namespace weft
