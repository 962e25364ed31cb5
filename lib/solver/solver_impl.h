// The solver's internals, shared by its .cpp files and nothing else: the row tables, the hold
// bookkeeping and the phases of a substep. Not part of the public API.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "solver/ldlt.h"
#include "solver/solver.h"

namespace weft {

inline constexpr uint32_t no_pin = UINT32_MAX;
inline constexpr int max_contacts = 2;  ///< contact rows per particle (a particle between two colliders)

/// One incidence of a distance row on a particle: the row and the particle at its other end.
struct LinkIncidence {
    uint32_t other;
    uint32_t link;
};

/// One incidence of a hinge on a particle: the hinge and which of its four stencil slots it is.
struct HingeIncidence {
    uint32_t hinge;
    uint32_t slot;
};

/// The hot half of a distance row, one cache line's worth read together by the vertex update.
struct LinkRow {
    double rest = 0;           ///< metres
    double k = 0;              ///< this substep's penalty, N/m
    double lambda = 0;         ///< multiplier, N; 0 forever on a soft row
    double strain_rest = 0;    ///< allowance·rest, metres (the strain-limit row on the same edge)
    double strain_k = 0;       ///< N/m; 0 where the edge has no strain-limit row
    double strain_lambda = 0;  ///< >= 0
};

/// One off-diagonal entry of the bending operator: the hinges' Σ k·w·wᵀ between two particles.
struct BendNeighbour {
    uint32_t other;
    double coefficient;  ///< Σ over shared hinges of bend·m_eff·w_self·w_other, kg (× 1/h² at use)
};

/// A one-sided contact row against a collider, linearised at detection (rows.md "Contact rows").
struct Contact {
    uint32_t collider = 0;  ///< spheres first, then capsules
    Vec3 normal;            ///< outward unit normal at detection
    double c0 = 0;          ///< C at `anchor`: φ − thickness
    Vec3 anchor;            ///< where C was evaluated (the predicted position)
    Vec3 friction_anchor;   ///< the particle's position at the substep's start
    double lambda = 0;      ///< normal multiplier, <= 0 (pushes out)
    double k = 0;           ///< normal penalty, N/m
};

/// Force and Hessian accumulated for one particle.
struct Accumulated {
    Vec3 f;
    SymMat3 h;
};

struct Solver::Impl {
    const ClothProxy* proxy = nullptr;
    Fabric fabric;
    SolverConstants constants;
    ClothState state;
    size_t n = 0;

    // --- per particle ------------------------------------------------------------------------------
    std::vector<double> mass;            ///< kg of a free particle (a held one: its mass when released)
    std::vector<double> trust_radius;    ///< shortest incident row's rest length, metres (seed 002 §5.3)
    std::vector<uint32_t> held_pin;      ///< the lowest pin naming the particle; no_pin otherwise
    std::vector<Vec3> hold_offset;       ///< held: position in its holder's placement when the hold began
    std::vector<Vec3> v_before;          ///< velocity at the start of the substep (adaptive initial guess)
    std::vector<Vec3> target;            ///< kinematic: where the holder puts it at the end of the step

    // --- distance rows: stretch edges [0, edge_count), then skips -----------------------------------
    size_t edge_count = 0;
    std::vector<std::array<uint32_t, 2>> link_ends;
    std::vector<LinkRow> link;           ///< the vertex update's view of each distance row
    std::vector<double> link_m_eff;      ///< 1/(w_i + w_j), kg; 0 when both ends are kinematic
    std::vector<uint8_t> link_hard;      ///< 1 = augmented Lagrangian (stiffness ∞), 0 = pure penalty
    std::vector<double> link_soft_k;     ///< soft rows: N/m for a finite stretch stiffness, or a ratio
    std::vector<uint8_t> link_soft_ratio;///< 1 = link_soft_k is a ratio of m_eff/h² (skips), 0 = N/m
    std::vector<double> link_kappa;      ///< hard rows' penalty as a ratio of m_eff/h² (the band, §4)
    bool strain_rows = false;            ///< every stretch edge carries a strain-limit row too
    double strain_factor = 1;            ///< allowance(stretch)
    std::vector<double> strain_kappa;    ///< per stretch edge
    std::vector<uint32_t> link_offsets;  ///< CSR over particles
    std::vector<LinkIncidence> link_incidences;

    // --- hinge rows (rows.md) -----------------------------------------------------------------------
    std::vector<std::array<uint32_t, 4>> hinge_ends;
    std::vector<std::array<double, 4>> hinge_w;   ///< cotangent weights from the rest pose
    std::vector<Vec3> hinge_rest;                 ///< C̄ = Σ w_k·r_k: the rest pose's own bend, 0 when cut flat
    std::vector<size_t> curved_hinges;            ///< hinges whose C̄ is not 0 (the hold-line turn moves them)
    std::vector<double> hinge_m_eff;              ///< 1 / Σ w_k²·inverse_mass_k
    std::vector<double> hinge_k;                  ///< this substep's stiffness
    std::vector<uint32_t> hinge_offsets;
    std::vector<HingeIncidence> hinge_incidences;
    // The hinges summed per particle pair (rows.md: f −= k·w_s·C, H += k·w_s²·I is linear in x):
    // f_i −= (bend_diagonal_i·x_i + Σ_j c_ij·x_j)/h², H_i += bend_diagonal_i/h²·I. A 32x32 sheet has
    // 11 hinge incidences per particle over 12 distinct neighbours; the sum visits each neighbour once.
    std::vector<double> bend_diagonal;   ///< Σ bend·m_eff·w_s², kg
    std::vector<Vec3> bend_rest;         ///< Σ bend·m_eff·w_s·C̄, kg·m: the hinges' pull at the rest pose, taken off
    std::vector<uint32_t> bend_offsets;
    std::vector<BendNeighbour> bend_neighbours;

    // --- unary rows per particle --------------------------------------------------------------------
    std::vector<uint32_t> tether_centre;  ///< no_particle = no tether
    std::vector<double> tether_radius, tether_k, tether_lambda, tether_kappa;
    bool slack_rows = false;
    std::vector<double> slack_radius;     ///< 2·slack·d_geo; +inf = no row
    std::vector<Vec3> animated;           ///< the animated position s_i, re-centred every substep (slack, pose)
    std::vector<double> slack_k, slack_lambda, slack_kappa;
    bool pose_rows = false;               ///< fabric.pose > 0 (fabric.h)
    std::vector<double> pose_k;           ///< N/m, mass·(2π·pose)²; 0 = no row
    Quat rest_frame_rotation;             ///< the frame node's rest turn in the model (proxy.frame.rest_world)
    Vec3 pose_lift;                       ///< the pose row's centre above s_i: −(rest gravity in the frame)/ω²
    std::vector<uint8_t> contact_count;
    std::vector<std::array<Contact, max_contacts>> contacts;

    // --- holds and the frame ------------------------------------------------------------------------
    std::vector<uint8_t> pin_holding;
    std::vector<Pose> holder_pose;        ///< last step's pose per pin
    std::vector<Quat> hold_start_rotation;///< the holder's rotation when its hold began
    bool started = false;                 ///< the first step has captured the holds
    Pose frame_pose;
    Vec3 frame_velocity;                  ///< world, m/s
    Vec3 frame_omega;                     ///< world, rad/s
    Vec3 gravity_frame;
    std::vector<SphereCollider> spheres, spheres_prev;
    std::vector<CapsuleCollider> capsules, capsules_prev;

    // --- this step ------------------------------------------------------------------------------------
    double h = 0, inv_h = 0, inv_h2 = 0;
    double fictitious_inertia = 0;        ///< fabric.inertia while the frame turns, else 0
    Vec3 omega_local;                     ///< the frame's angular velocity in its own axes
    std::vector<uint32_t> free_particles; ///< ascending
    std::vector<uint32_t> kinematic_particles;  ///< ascending
    bool hold_line_ok = false;            ///< the held particles lie on one line this substep
    Vec3 hold_line_origin, hold_line_axis;

    // --- sleep and clamp ------------------------------------------------------------------------------
    bool asleep = false;
    uint32_t quiet_steps = 0;
    uint64_t steps_since_reset = UINT64_MAX;
    double shortest_row = 0;              ///< metres; +inf when the proxy has no distance rows
    double reach = 0;
    double released_mass = 0;             ///< kg a released particle gets

    StepStats* stats = nullptr;

    // solver.cpp
    void build(const ClothProxy& proxy);
    void refresh_masses();
    void build_bend_operator();
    void refresh_free_lists();
    void init_tethers();
    Vec3 animated_position(uint32_t i) const;
    double pose_omega2() const { return 4 * std::numbers::pi * std::numbers::pi * fabric.pose * fabric.pose; }
    void reseed();

    // sweep.cpp: the phases of a substep
    void set_penalties();
    void warm_start();
    void detect_contacts(double substep_fraction);
    void sweep_colour(uint32_t begin, uint32_t end);
    void update_duals();
    Accumulated accumulate(uint32_t i, const Vec3& xi) const;
    Accumulated accumulate_unary(uint32_t i, const Vec3& xi) const;
    double local_energy(uint32_t i, const Vec3& xi) const;

    // hold_line.cpp (seed 000 §5.2)
    void find_hold_line();
    void turn_about_hold_line();
};

/// Adds a distance row's force and Hessian block to `a` (rows.md): `fc` the clamped force, `k_along`
/// the penalty curvature along g (0 when the row sits at a clamp), and the PSD half of the geometric
/// stiffness (fc/L)·(I − g·gᵀ) when the row is in tension (seed 002 §5.1), added at a clamp too.
inline void add_distance_row(Accumulated& a, const Vec3& g, double inv_l, double fc, double k_along) {
    a.f -= g * fc;
    double s = fc > 0 ? fc * inv_l : 0.0;
    a.h.add_diagonal(s);
    a.h.add_outer(g, k_along - s);
}

/// A leash row (slack, tether): a hard distance row to `centre` that only pulls in, active once
/// k·(|x − centre| − radius) + λ > 0 (seed 002 §10's [0, ∞) clamp).
inline void add_leash_row(Accumulated& a, const Vec3& xi, const Vec3& centre, double radius, double k, double lambda) {
    const Vec3 d = xi - centre;
    const double l2 = length_squared(d);
    if (!(l2 > 0)) return;
    const double l = std::sqrt(l2);
    const double u = k * (l - radius) + lambda;
    if (u > 0) add_distance_row(a, d / l, 1 / l, u, k);
}

// Inline so both the vertex update (sweep.cpp) and the hold-line turn (hold_line.cpp) inline it.
inline Accumulated Solver::Impl::accumulate_unary(uint32_t i, const Vec3& xi) const {
    const double mh = mass[i] * inv_h2;
    Accumulated a{(state.y[i] - xi) * mh, SymMat3::diagonal(mh)};
    // Slack: a hard leash to the animated position, only pulling in (seed 002 §10).
    if (slack_rows && std::isfinite(slack_radius[i]))
        add_leash_row(a, xi, animated[i], slack_radius[i], slack_k[i], slack_lambda[i]);
    // Pose: a soft zero-length row to s_i + lift, so the bind pose is where the rest weight balances.
    if (pose_rows && pose_k[i] > 0) {
        a.f -= (xi - animated[i] - pose_lift) * pose_k[i];
        a.h.add_diagonal(pose_k[i]);
    }
    // Contacts: one-sided, push only; friction bounded by μ·|f_n| (rows.md).
    for (int s = 0; s < contact_count[i]; ++s) {
        const Contact& c = contacts[i][s];
        double u = c.k * (c.c0 + dot(c.normal, xi - c.anchor)) + c.lambda;
        if (!(u < 0)) continue;
        a.f -= c.normal * u;
        a.h.add_outer(c.normal, c.k);
        Vec3 slide = xi - c.friction_anchor;
        Vec3 tangent = slide - c.normal * dot(c.normal, slide);
        double t = length(tangent);
        double bound = fabric.friction * -u;
        double kt = c.k;
        if (kt * t > bound) kt = t > 0 ? bound / t : 0;  // sliding: the force sits on the cone
        a.f -= tangent * kt;
        a.h.add_diagonal(kt);
        a.h.add_outer(c.normal, -kt);
    }
    return a;
}

}  // namespace weft
