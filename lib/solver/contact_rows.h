// Contact rows: one-sided hard rows C = φ(x) − thickness − radius ≥ 0 against sphere and capsule colliders,
// linearised where they are found each substep, with Coulomb friction bounded by μ·|λ_n| (docs/solver.md#rows,
// "Contact rows"). Their detection, their accumulation, their energy and their dual update are all here,
// with the span rows: the same contact taken at the point of a segment between two particles nearest a
// collider, shared between its two ends (docs/solver.md#contacts, docs/colliders.md#spans).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "solver/collider.h"
#include "solver/row.h"
#include "solver/self_contact_rows.h"
#include "solver/step.h"
#include "solver/virtual_links.h"

namespace weft {

inline constexpr int max_contacts = 2;  ///< contact rows per particle (a particle between two colliders)
inline constexpr int max_span_contacts = 4;  ///< span rows per particle: the deepest of its segments' contacts
/// A span row is made only where the span's free ends carry at least this much of its contact point
/// ((1 − s) for the first end, s for the second): nearer a held end the holder is what is inside, and
/// lifting the point from the free end alone would take a lever of more than 4 (docs/colliders.md#spans).
inline constexpr double min_span_free_weight = 0.25;

/// A one-sided contact row against a collider, linearised at detection.
struct Contact {
    uint32_t collider = 0;  ///< spheres first, then capsules
    Vec3 normal;            ///< outward unit normal at detection
    double c0 = 0;          ///< C at `anchor`: φ − thickness
    Vec3 anchor;            ///< where C was evaluated (the predicted position)
    Vec3 friction_anchor;   ///< the particle's position at the substep's start
    double lambda = 0;      ///< normal multiplier, <= 0 (pushes out)
    double k = 0;           ///< normal penalty, N/m
};

/// A span's contact at one of its free ends (docs/solver.md#contacts). With both ends free it is one
/// row of the two, C = c0 + n·(w_self·(x − anchor) + w_other·(x_other − other_anchor)) >= 0, each end
/// holding a copy with the same multiplier: the push on each end is the span's gradient there, w·n, so
/// it does no work on a motion that keeps the span on the collider (docs/colliders.md#spans). With one
/// free end, and for a virtual particle, it is that end's share alone: other = no_other, weight 1.
struct SpanContact {
    static constexpr uint32_t no_other = UINT32_MAX;
    uint32_t span = 0;      ///< the segment, into ContactModel::spans; past them, virtual particle span − spans.size()
    uint32_t collider = 0;  ///< spheres first, then capsules
    Vec3 normal;            ///< outward unit normal at the span's nearest point, at detection
    double depth = 0;       ///< the span's own C at detection (its rank among this particle's span rows)
    double c0 = 0;          ///< C at the anchors: the span's depth (both ends free) or this end's share of it
    Vec3 anchor;            ///< this end where C was evaluated (the predicted position)
    Vec3 friction_anchor;   ///< this end's position at the substep's start
    double lambda = 0;      ///< multiplier, <= 0 (pushes out); the same at both ends' copies
    double k = 0;           ///< penalty, N/m: κ·m_eff/h², m_eff = 1/Σ_free w²/m (one free end: κ·m/h² on its share)
    double weight = 1;      ///< this end's weight in the span's point, w (1 for a share)
    double friction_k = 0;  ///< this end's own κ·m/h²: its friction's stiffness, as a particle contact's
    uint32_t other = no_other;  ///< the span's other free end
    double other_weight = 0;
    Vec3 other_anchor;
    bool first = true;      ///< this end is the span's first: C sums the two ends in the span's order at both copies
};

namespace contact_rows {
/// Coulomb friction on `slide` (the particle's move from its friction anchor) across `normal`: stiffness
/// `kt` while it sticks, bounded by `bound` (μ times the row's push) while it slides.
inline void add_friction(const Vec3& normal, const Vec3& slide, double kt, double bound, Accumulated& a) {
    const Vec3 tangent = slide - normal * dot(normal, slide);
    const double t = length(tangent);
    if (kt * t > bound) kt = t > 0 ? bound / t : 0;  // sliding: the force sits on the cone
    a.f -= tangent * kt;
    a.h.add_diagonal(kt);
    a.h.add_outer(normal, -kt);
}
}  // namespace contact_rows

/// A one-sided row along `normal` with Coulomb friction on the slide from `friction_anchor`, bounded
/// by μ·|fc| (docs/solver.md#contacts): a particle's own contact and each end's share of a span's.
template <class Row>
inline void add_contact_row(const Row& c, double friction, const Vec3& xi, Accumulated& a) {
    const double u = c.k * (c.c0 + dot(c.normal, xi - c.anchor)) + c.lambda;
    if (!(u < 0)) return;
    a.f -= c.normal * u;
    a.h.add_outer(c.normal, c.k);
    contact_rows::add_friction(c.normal, xi - c.friction_anchor, c.k, friction * -u, a);
}

namespace contact_rows {
/// A span row's C with this end at `xi` and its other free end where the sweep has it, summed in the
/// span's order so both copies form the same value.
inline double span_c(const SpanContact& c, const Vec3& xi, const Vec3* x) {
    const double self = c.weight * dot(c.normal, xi - c.anchor);
    if (c.other == SpanContact::no_other) return c.c0 + self;
    const double other = c.other_weight * dot(c.normal, x[c.other] - c.other_anchor);
    return c.first ? (c.c0 + self) + other : (c.c0 + other) + self;
}
}  // namespace contact_rows

/// A span row at one of its ends: the push −fc·w·n, and Coulomb friction on this end's slide from
/// `friction_anchor`, bounded by μ times that push, at this end's own stiffness (docs/solver.md#contacts).
inline void add_span_row(const SpanContact& c, double friction, const Vec3& xi, const Vec3* x, Accumulated& a) {
    const double u = c.k * contact_rows::span_c(c, xi, x) + c.lambda;
    if (!(u < 0)) return;
    const double push = u * c.weight;
    a.f -= c.normal * push;
    a.h.add_outer(c.normal, c.k * c.weight * c.weight);
    contact_rows::add_friction(c.normal, xi - c.friction_anchor, c.friction_k, friction * -push, a);
}

struct ContactModel {
    double thickness = 0;  ///< fabric.thickness, metres
    double friction = 0;   ///< fabric.friction
    SelfContactModel self; ///< the cloth against its own triangles (docs/solver.md#self-contact)
    std::vector<double> radius;  ///< per particle, metres it collides with beyond `thickness` (ClothProxy::collision_radius,
                                 ///< docs/solver.md#contacts); empty = 0 for every particle
    std::vector<std::array<uint32_t, 2>> spans;  ///< the segments whose points collide too: a rig's edges
                                                 ///< (docs/colliders.md#spans)
    std::vector<Vec3> rest;                      ///< the proxy's rest positions: how deep each span sits at rest
    // Virtual particles (docs/colliders.md#virtual-particles): ClothProxy::virtual_link, and per virtual
    // particle its rest position, its offset from its carrier and its link (to − from), all at rest.
    std::vector<std::array<uint32_t, 3>> virtual_link;
    std::vector<Vec3> virtual_rest, virtual_offset, virtual_rest_link;
};

/// The colliders of this step and the last (a substep sees them interpolated) and each particle's rows.
struct ContactState {
    std::vector<SphereCollider> spheres, spheres_prev;
    std::vector<CapsuleCollider> capsules, capsules_prev;
    std::vector<uint8_t> count;
    std::vector<std::array<Contact, max_contacts>> rows;
    std::vector<uint8_t> span_count;
    std::vector<std::array<SpanContact, max_span_contacts>> span_rows;
    // Kept to reuse their storage: the last substep's span rows (their multipliers carry over), each
    // particle's freedom, the colliders placed for this substep and their boxes (lo xyz, hi xyz).
    /// Per span and collider (span-major), how far inside its clearance the span sat at rest against the
    /// colliders of the first step with this many colliders (<= 0): what it is allowed (docs/colliders.md#spans).
    std::vector<double> span_rest_depth;
    size_t span_rest_colliders = 0;
    std::vector<double> virtual_rest_depth;  ///< the same per virtual particle and collider (virtual-major)
    size_t virtual_rest_colliders = 0;
    VirtualLinks virtual_links;              ///< what a virtual particle's rows need of its link, once a link
    std::vector<uint8_t> span_previous_count;
    std::vector<std::array<SpanContact, max_span_contacts>> span_previous;
    std::vector<uint8_t> free;
    std::vector<CapsuleCollider> placed;
    std::vector<std::array<double, 6>> boxes;
    std::vector<uint32_t> near;  ///< the colliders within the farthest particle's reach of the cloth's box, in index order
    SelfContactState self;
};

/// What contact detection reads of the rest of the solver.
struct ContactInputs {
    const std::vector<uint32_t>& free_particles;
    const Vec3* x;                              ///< the predicted positions
    const Vec3* x_prev;                         ///< positions at the substep's start
    const std::vector<double>& mass;
    const std::vector<double>& trust_radius;
    double reach;
    double inv_h2;
};

namespace contact_rows {

/// What a box test adds to the distance it culls at: a collider's box and the particle's reach are
/// each rounded once or twice, and a pair within a few ulps of the band must still reach the exact test.
/// A nanometre is far above those roundings at any body's scale and far below any contact's.
inline constexpr double box_margin = 1e-9;

/// Whether x lies further than `reach` outside a collider's box (lo xyz, hi xyz) along some axis: its
/// surface is then further than `reach` from x, so no row at that distance is missed (the broad phase
/// of Christer Ericson, "Real-Time Collision Detection", 2005, 4.2). A NaN position is never culled, so
/// it reaches the exact test as it did before the box.
inline bool outside_box(const std::array<double, 6>& box, const Vec3& x, double reach) {
    return box[0] - x.x > reach || box[1] - x.y > reach || box[2] - x.z > reach || x.x - box[3] > reach ||
           x.y - box[4] > reach || x.z - box[5] > reach;
}


/// A span's (or virtual particle's) contact with one collider, as found: which, the normal along which
/// particle q's plane pushes, and the contact's own C (its rank among q's span rows).
struct SpanHit {
    uint32_t span = 0, collider = 0;
    Vec3 normal;
    double depth = 0;
};

/// Particle q's share of that contact, the one-sided plane c0 + normal·(x − x_q) >= 0, kept among q's
/// deepest max_span_contacts span rows (docs/colliders.md#spans).
void add_span_share(ContactState& state, const ContactInputs& in, const SolverConstants& constants, uint32_t q,
                    const SpanHit& hit, double c0);

ContactState initial_state(size_t particles);
/// Finds each free particle's deepest max_contacts rows at `fraction` of the step (the colliders
/// interpolated from the last step's), carrying a row's multiplier over when its collider stays; then
/// each span's and virtual particle's rows, each free particle keeping its deepest max_span_contacts (a
/// row's multiplier carried over while its span and collider stay); then the self-contact rows where the model has them.
/// Returns the rows found, every kind.
uint32_t detect(const ContactModel& model, ContactState& state, const ContactInputs& in, double fraction,
                const SolverConstants& constants);
void reset(ContactState& state);
void update_duals(ContactState& state, const std::vector<uint32_t>& free_particles, const Vec3* x);
/// Friction is not conservative and is left out. `x`: the other particles where the sweep has them.
void add_local_energy(const ContactState& state, uint32_t i, const Vec3& xi, const Vec3* x, double& e);

inline void accumulate(const ContactModel& model, const ContactState& state, uint32_t i, const Vec3& xi, const Vec3* x,
                       Accumulated& a) {
    for (int s = 0; s < state.count[i]; ++s) add_contact_row(state.rows[i][s], model.friction, xi, a);
    for (int s = 0; s < state.span_count[i]; ++s) add_span_row(state.span_rows[i][s], model.friction, xi, x, a);
    self_contact_rows::accumulate(state.self, i, xi, a);
}

}  // namespace contact_rows
}  // namespace weft
