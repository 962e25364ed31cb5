// Self-contact rows: a free particle kept a fabric thickness clear of the sheet's own triangles,
// one-sided hard rows against the plane through the nearest point of a nearby triangle, linearised
// where they are found each substep (docs/solver.md#self-contact). Found among each particle's
// candidate list, made again only when the particles drift through its margin, in particle and
// triangle order; topological neighbours at rest never collide. Their build, detection, accumulation, energy and dual update are all here; they ride with the collider
// contacts (contact_rows.h), which call them.
#pragma once
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/row.h"

namespace weft {

inline constexpr int max_self_contacts = 4;  ///< self-contact rows per particle: the nearest triangles

/// One particle's share of a vertex–triangle contact, C = c0 + g·(x − anchor) >= 0
/// (docs/solver.md#self-contact).
struct SelfContact {
    uint32_t vertex = 0;    ///< the pair's particle
    uint32_t triangle = 0;  ///< the pair's triangle, into ClothProxy::triangles
    Vec3 gradient;          ///< unit: n for the pair's particle, −n for a corner of the triangle
    double c0 = 0;          ///< C at `anchor`: this particle's share of the pair's clearance less the thickness
    Vec3 anchor;            ///< this row's particle where C was evaluated (the predicted position)
    double lambda = 0;      ///< multiplier, <= 0 (pushes apart)
    double k = 0;           ///< penalty, N/m
};

/// Cooked once from the proxy: what collides with what.
struct SelfContactModel {
    bool enabled = false;                          ///< SolverConstants::self_contact and the proxy has triangles
    double thickness = 0;                          ///< fabric.thickness, metres: the clearance kept
    double cell = 0;                               ///< the hash's smallest cell edge, metres (thickness + mean edge)
    double margin = 0;                             ///< how much farther than its search distance a particle's
                                                   ///< candidate list reaches, metres (docs/solver.md#self-contact)
    std::vector<std::array<uint32_t, 3>> triangles;///< the proxy's
    std::vector<Vec3> rest;                        ///< the proxy's rest positions
    std::vector<uint32_t> excluded_offset, excluded;  ///< per particle, ascending: the triangles never in contact
                                                      ///< with it (a corner within two edges of it, or nearer at
                                                      ///< rest than the distance searched)
};

/// Each particle's rows this substep, and the last substep's (their multipliers carry over).
struct SelfContactState {
    std::vector<uint32_t> first;                   ///< per particle and one past: its rows are [first[i], first[i+1])
    std::vector<SelfContact> rows;
    std::vector<uint32_t> previous_first;
    std::vector<SelfContact> previous_rows;
    std::vector<std::pair<uint32_t, SelfContact>> found;  ///< this detection's rows by particle, before grouping
    // Each free particle's candidates: the triangles not excluded within its search distance plus the
    // margin where they were listed (`listed_at`), ascending; listed again once the particles have
    // drifted, relative to their common translation, far enough to use up the margin.
    std::vector<uint32_t> candidate_first, candidates;
    std::vector<Vec3> listed_at;
    std::vector<uint32_t> listed_for;              ///< the free particles the lists were made for
    std::vector<uint8_t> free;                     ///< per particle: free (kept to reuse its storage)
    // The spatial hash of the triangles, by the cells their boxes cover (listing, and build at rest),
    // kept to reuse its storage; `seen` stamps, per triangle, the particle whose query last met it.
    std::vector<uint32_t> bucket_offset, bucket_triangles, fill, seen;
    std::vector<uint32_t> near;                    ///< one particle's triangles whose box is in reach
    std::vector<std::array<int64_t, 6>> cells;     ///< per triangle, its cell box (lo xyz, hi xyz)
    std::vector<std::array<double, 6>> boxes;      ///< per triangle, its box (lo xyz, hi xyz)
};

/// What self-contact detection reads of the rest of the solver.
struct SelfContactInputs {
    const std::vector<uint32_t>& free_particles;   ///< ascending
    const Vec3* x;                                 ///< the predicted positions
    const Vec3* x_prev;                            ///< positions at the substep's start: which side each began on
    const std::vector<double>& mass;
    const std::vector<double>& trust_radius;
    double reach;
    double inv_h2;
};

namespace self_contact_rows {

/// The model for `proxy` at `thickness`; disabled when `enabled` is false or the proxy has no triangles.
SelfContactModel build(const ClothProxy& proxy, double thickness, bool enabled);
/// Finds each free particle's nearest max_self_contacts triangles within thickness + its trust radius;
/// each pair gives a row to the particle and to every free corner of the triangle, carrying a row's
/// multiplier over (scaled by α·γ) when its pair stays. Returns the rows found.
uint32_t detect(const SelfContactModel& model, SelfContactState& state, const SelfContactInputs& in,
                const SolverConstants& constants);
void reset(SelfContactState& state);
void update_duals(SelfContactState& state, const std::vector<uint32_t>& free_particles, const Vec3* x);
void add_local_energy(const SelfContactState& state, uint32_t i, const Vec3& xi, double& e);

inline void accumulate(const SelfContactState& state, uint32_t i, const Vec3& xi, Accumulated& a) {
    if (state.first.empty()) return;
    for (uint32_t r = state.first[i], end = state.first[i + 1]; r < end; ++r) {
        const SelfContact& c = state.rows[r];
        const double u = c.k * (c.c0 + dot(c.gradient, xi - c.anchor)) + c.lambda;
        if (!(u < 0)) continue;
        a.f -= c.gradient * u;
        a.h.add_outer(c.gradient, c.k);
    }
}

}  // namespace self_contact_rows
}  // namespace weft
