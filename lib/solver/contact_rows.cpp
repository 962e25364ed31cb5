#include "solver/contact_rows.h"

#include "solver/keep_deepest.h"
#include "solver/virtual_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft::contact_rows {

namespace {

/// Collider c placed at `fraction` of the step, as a capsule (a sphere's ends coincide).
CapsuleCollider placed_collider(const ContactState& s, size_t c, double fraction) {
    const size_t sphere_count = s.spheres.size();
    if (c < sphere_count) {
        SphereCollider sphere = s.spheres[c];
        if (c < s.spheres_prev.size()) sphere.centre = s.spheres_prev[c].centre + (sphere.centre - s.spheres_prev[c].centre) * fraction;
        return {sphere.centre, sphere.centre, sphere.radius};
    }
    const size_t q = c - sphere_count;
    CapsuleCollider capsule = s.capsules[q];
    if (q < s.capsules_prev.size()) {
        capsule.a = s.capsules_prev[q].a + (capsule.a - s.capsules_prev[q].a) * fraction;
        capsule.b = s.capsules_prev[q].b + (capsule.b - s.capsules_prev[q].b) * fraction;
    }
    return capsule;
}

/// A particle's look-ahead: a particle predicted just clear can be pulled in by its rows during the
/// sweep, so its rows are found a trust radius ahead.
double look_ahead(const ContactInputs& in, uint32_t i) {
    return std::isfinite(in.trust_radius[i]) ? in.trust_radius[i] : in.reach;
}

void add_coupled_span_row(ContactState& st, const ContactInputs& in, const SolverConstants& constants, uint32_t q, uint32_t o,
                          double wq, double wo, bool first, const SpanHit& hit, double m_eff);

/// The span rows (docs/colliders.md#spans): per segment with a free end, per collider whose box it
/// reaches, the segment's point nearest the collider. Where that point lies strictly between the ends
/// and within the look-ahead of the clearance there (thickness plus the ends' radii blended by its
/// weights), each free end gets a one-sided plane carrying its share of the contact, as a projection
/// would share it: by inverse mass times the square of its weight.
void find_span_rows(const ContactModel& model, ContactState& st, const ContactInputs& in, const SolverConstants& constants) {
    const std::vector<CapsuleCollider>& placed = st.placed;
    const std::vector<std::array<double, 6>>& boxes = st.boxes;
    if (model.spans.empty()) return;
    // The rest pose is the author's: a chord of a coarse mesh laid over a round body dips into it by its
    // sagitta, and pushing it out would push the cloth off its own pose. Each span keeps what it had
    // at rest against the colliders of the first step that has them (docs/colliders.md#spans).
    const auto radius_of = [&](uint32_t i) { return i < model.radius.size() ? model.radius[i] : 0.0; };
    if (st.span_rest_colliders != placed.size() || st.span_rest_depth.size() != model.spans.size() * placed.size()) {
        st.span_rest_colliders = placed.size();
        st.span_rest_depth.assign(model.spans.size() * placed.size(), 0.0);
        if (model.rest.size() == st.span_count.size())
            for (uint32_t e = 0; e < model.spans.size(); ++e)
                for (size_t c = 0; c < placed.size(); ++c) {
                    const uint32_t i = model.spans[e][0], j = model.spans[e][1];
                    const SpanPoint p = nearest_on_span(placed[c], model.rest[i], model.rest[j]);
                    const double depth = p.surface.distance - model.thickness - ((1 - p.s) * radius_of(i) + p.s * radius_of(j));
                    st.span_rest_depth[e * placed.size() + c] = std::min(depth, 0.0);
                }
    }
    for (uint32_t e = 0; e < model.spans.size(); ++e) {
        const uint32_t i = model.spans[e][0], j = model.spans[e][1];
        const bool fi = st.free[i] != 0, fj = st.free[j] != 0;
        if (!fi && !fj) continue;
        const Vec3 &a = in.x[i], &b = in.x[j];
        const double ri = radius_of(i), rj = radius_of(j);
        const double band = std::max(fi ? look_ahead(in, i) : 0.0, fj ? look_ahead(in, j) : 0.0);
        const double reach = model.thickness + std::max(ri, rj) + band;
        const double lo[3] = {std::min(a.x, b.x) - reach, std::min(a.y, b.y) - reach, std::min(a.z, b.z) - reach};
        const double hi[3] = {std::max(a.x, b.x) + reach, std::max(a.y, b.y) + reach, std::max(a.z, b.z) + reach};
        for (const uint32_t c : st.near) {
            const std::array<double, 6>& box = boxes[c];
            if (box[0] > hi[0] || box[1] > hi[1] || box[2] > hi[2] || box[3] < lo[0] || box[4] < lo[1] || box[5] < lo[2]) continue;
            const SpanPoint p = nearest_on_span(placed[c], a, b);
            if (!(p.s > 0 && p.s < 1)) continue;  // at an end: that particle's own contact row holds it
            const double wi = 1 - p.s, wj = p.s;
            if ((fi ? wi : 0.0) + (fj ? wj : 0.0) < min_span_free_weight) continue;
            const double depth = p.surface.distance - model.thickness - (wi * ri + wj * rj) - st.span_rest_depth[e * placed.size() + c];
            if (!(depth < band)) continue;
            const double denominator = (fi ? wi * wi / in.mass[i] : 0.0) + (fj ? wj * wj / in.mass[j] : 0.0);
            const SpanHit hit{e, static_cast<uint32_t>(c), p.surface.normal, depth};
            if (fi && fj && constants.coupled_spans) {
                add_coupled_span_row(st, in, constants, i, j, wi, wj, true, hit, 1 / denominator);
                add_coupled_span_row(st, in, constants, j, i, wj, wi, false, hit, 1 / denominator);
                continue;
            }
            for (int end = 0; end < 2; ++end) {
                const uint32_t q = end == 0 ? i : j;
                const double w = end == 0 ? wi : wj;
                if (st.free[q]) add_span_share(st, in, constants, q, hit, depth * (w / in.mass[q]) / denominator);
            }
        }
    }
}

/// A span with two free ends: one row of both (docs/colliders.md#spans), its copy at end q, the other
/// end `o`; both copies carry the same C, penalty and multiplier. Each end pushed by its own share
/// instead, with a multiplier of its own, the two pushes stand in no fixed ratio, and a link held
/// against a collider by pose rows pulling both its ends rocks about its contact a little each
/// substep, the end the pose rows pull hardest pushed outwards by the other's share: measured on a
/// tail, it gained energy at a steady rate while it crept (docs/solver.md#spans-against-pose-rows).
void add_coupled_span_row(ContactState& st, const ContactInputs& in, const SolverConstants& constants, uint32_t q, uint32_t o,
                          double wq, double wo, bool first, const SpanHit& hit, double m_eff) {
    SpanContact row;
    row.span = hit.span;
    row.collider = hit.collider;
    row.normal = hit.normal;
    row.depth = hit.depth;
    row.c0 = hit.depth;
    row.anchor = in.x[q];
    row.friction_anchor = in.x_prev[q];
    row.k = constants.k_min_ratio * m_eff * in.inv_h2;
    row.weight = wq;
    row.friction_k = constants.k_min_ratio * in.mass[q] * in.inv_h2;
    row.other = o;
    row.other_weight = wo;
    row.other_anchor = in.x[o];
    row.first = first;
    keep_deepest(st.span_rows[q], st.span_count[q], row, [](const SpanContact& r) { return r.depth; });
}

/// The rows of spans and virtual particles (docs/colliders.md#spans, #virtual-particles), each free
/// particle keeping its deepest max_span_contacts of both, with a row's multiplier carried over while
/// its span (or virtual particle) and collider stay.
uint32_t detect_spans(const ContactModel& model, ContactState& st, const ContactInputs& in, const SolverConstants& constants) {
    if (st.placed.empty() || (model.spans.empty() && model.virtual_link.empty())) {
        std::fill(st.span_count.begin(), st.span_count.end(), uint8_t{0});
        return 0;
    }
    const size_t n = st.span_count.size();
    st.free.assign(n, 0);
    for (uint32_t i : in.free_particles) st.free[i] = 1;
    // The last substep's rows, to carry their multipliers over.
    st.span_previous_count.swap(st.span_count);
    st.span_previous.swap(st.span_rows);
    st.span_count.assign(n, 0);
    st.span_rows.resize(n);
    find_span_rows(model, st, in, constants);
    find_virtual_rows(model, st, in, constants);
    const double ag = constants.alpha * constants.gamma;
    uint32_t rows = 0;
    for (uint32_t i : in.free_particles) {
        for (int s = 0; s < st.span_count[i]; ++s) {
            SpanContact& row = st.span_rows[i][s];
            for (int p = 0; p < st.span_previous_count[i]; ++p) {
                const SpanContact& before = st.span_previous[i][p];
                if (before.span == row.span && before.collider == row.collider) row.lambda = before.lambda * ag;
            }
        }
        rows += st.span_count[i];
    }
    return rows;
}

}  // namespace

void add_span_share(ContactState& st, const ContactInputs& in, const SolverConstants& constants, uint32_t q, const SpanHit& hit,
                    double c0) {
    SpanContact row;
    row.span = hit.span;
    row.collider = hit.collider;
    row.normal = hit.normal;
    row.depth = hit.depth;
    row.c0 = c0;
    row.anchor = in.x[q];
    row.friction_anchor = in.x_prev[q];
    row.k = constants.k_min_ratio * in.mass[q] * in.inv_h2;
    row.friction_k = row.k;
    // A particle's deepest max_span_contacts; equal depths keep the lower span, then collider.
    keep_deepest(st.span_rows[q], st.span_count[q], row, [](const SpanContact& r) { return r.depth; });
}

ContactState initial_state(size_t n) {
    ContactState s;
    s.count.assign(n, 0);
    s.rows.assign(n, {});
    s.span_count.assign(n, 0);
    s.span_rows.assign(n, {});
    return s;
}

namespace {

/// Every collider placed once at `fraction` of the step (a sphere as a capsule whose ends coincide: the
/// same surface point to the bit), with its box (lo xyz, hi xyz) for the broad phase.
void place_colliders(ContactState& st, double fraction) {
    const size_t total = st.spheres.size() + st.capsules.size();
    st.placed.resize(total);
    st.boxes.resize(total);
    for (size_t c = 0; c < total; ++c) {
        const CapsuleCollider& k = st.placed[c] = placed_collider(st, c, fraction);
        st.boxes[c] = {std::min(k.a.x, k.b.x) - k.radius, std::min(k.a.y, k.b.y) - k.radius, std::min(k.a.z, k.b.z) - k.radius,
                       std::max(k.a.x, k.b.x) + k.radius, std::max(k.a.y, k.b.y) + k.radius, std::max(k.a.z, k.b.z) + k.radius};
    }
}

/// How far particle i looks for a collider's surface: its clearance (the fabric's thickness and its own
/// collision radius: the particle stands for the skin round it) and its look-ahead (a particle predicted
/// just clear can be pulled in by its rows during the sweep, and an inactive one-sided row costs one dot
/// product).
struct ParticleReach {
    double clearance, band;
};

ParticleReach particle_reach(const ContactModel& model, const ContactInputs& in, uint32_t i) {
    return {model.thickness + (i < model.radius.size() ? model.radius[i] : 0.0), look_ahead(in, i)};
}

/// The colliders, in index order, whose box comes within the cloth's reach of the box of its particles
/// (free and held: a span's ends may be either): the only ones a particle's or a span's own box test can
/// pass. The cloth's reach is the fabric's thickness, the largest collision radius and the largest
/// look-ahead (and the box test's margin), no less than any particle's or span's own; a particle or a
/// span inside the cloth's box is at least as far outside a collider's box along each axis as the
/// cloth's box is, so the list leaves out no collider their own tests would keep. A virtual particle
/// may lie outside the particles' box and is tested against every collider.
void near_colliders(const ContactModel& model, ContactState& st, const ContactInputs& in) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    st.near.clear();
    if (st.placed.empty() || in.free_particles.empty()) return;
    std::array<double, 6> cloth{inf, inf, inf, -inf, -inf, -inf};
    // A NaN position, radius or look-ahead is passed over here: its own test never culls on it, and it
    // finds no row either way (its distance compares false).
    for (size_t i = 0; i < st.count.size(); ++i) {
        const Vec3& x = in.x[i];
        cloth = {x.x < cloth[0] ? x.x : cloth[0], x.y < cloth[1] ? x.y : cloth[1], x.z < cloth[2] ? x.z : cloth[2],
                 x.x > cloth[3] ? x.x : cloth[3], x.y > cloth[4] ? x.y : cloth[4], x.z > cloth[5] ? x.z : cloth[5]};
    }
    double radius = 0, band = 0;
    for (double r : model.radius)
        if (r > radius) radius = r;
    for (uint32_t i : in.free_particles)
        if (look_ahead(in, i) > band) band = look_ahead(in, i);
    const double reach = model.thickness + radius + band + box_margin;
    for (uint32_t c = 0; c < st.placed.size(); ++c) {
        const std::array<double, 6>& box = st.boxes[c];
        if (box[0] - cloth[3] > reach || box[1] - cloth[4] > reach || box[2] - cloth[5] > reach || cloth[0] - box[3] > reach ||
            cloth[1] - box[4] > reach || cloth[2] - box[5] > reach)
            continue;
        st.near.push_back(c);
    }
}

/// Free particle i's deepest max_contacts rows against the near colliders, a row's multiplier carried
/// over (times α·γ) while its collider stays. Returns the rows found.
int particle_rows(const ContactModel& model, ContactState& st, const ContactInputs& in, uint32_t i, const SolverConstants& constants) {
    const uint8_t previous_count = st.count[i];
    st.count[i] = 0;
    if (st.placed.empty()) return 0;  // before the copy below: a cloth with no colliders copies no rows
    const std::array<Contact, max_contacts> previous = st.rows[i];
    const Vec3& xi = in.x[i];
    const auto [clearance, band] = particle_reach(model, in, i);
    std::array<Contact, max_contacts> best{};
    int found = 0;
    const double reach = clearance + band + box_margin;
    for (uint32_t c : st.near) {
        if (outside_box(st.boxes[c], xi, reach)) continue;
        const SurfacePoint sp = surface_point(st.placed[c], xi);
        double c0 = sp.distance - clearance;
        if (!(c0 < band)) continue;
        Contact contact;
        contact.collider = c;
        contact.normal = sp.normal;
        contact.c0 = c0;
        contact.anchor = xi;
        contact.friction_anchor = in.x_prev[i];
        contact.k = constants.k_min_ratio * in.mass[i] * in.inv_h2;
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
    const double ag = constants.alpha * constants.gamma;
    for (int s = 0; s < found; ++s) {
        for (int p = 0; p < previous_count; ++p)
            if (previous[p].collider == best[s].collider) best[s].lambda = previous[p].lambda * ag;
        st.rows[i][s] = best[s];
    }
    st.count[i] = static_cast<uint8_t>(found);
    return found;
}

}  // namespace

uint32_t detect(const ContactModel& model, ContactState& st, const ContactInputs& in, double fraction, const SolverConstants& constants) {
    place_colliders(st, fraction);
    near_colliders(model, st, in);
    uint32_t rows = 0;
    for (uint32_t i : in.free_particles) rows += static_cast<uint32_t>(particle_rows(model, st, in, i, constants));
    rows += detect_spans(model, st, in, constants);
    const SelfContactInputs self_in{in.free_particles, in.x, in.x_prev, in.mass, in.trust_radius, in.reach, in.inv_h2};
    return rows + self_contact_rows::detect(model.self, st.self, self_in, constants);
}

void reset(ContactState& s) {
    std::fill(s.count.begin(), s.count.end(), uint8_t{0});
    std::fill(s.span_count.begin(), s.span_count.end(), uint8_t{0});
    self_contact_rows::reset(s.self);
}

void update_duals(ContactState& s, const std::vector<uint32_t>& free_particles, const Vec3* x) {
    for (uint32_t i : free_particles)
        for (int q = 0; q < s.count[i]; ++q) {
            Contact& c = s.rows[i][q];
            c.lambda = std::min(c.k * (c.c0 + dot(c.normal, x[i] - c.anchor)) + c.lambda, 0.0);
        }
    for (uint32_t i : free_particles)
        for (int q = 0; q < s.span_count[i]; ++q) {
            SpanContact& c = s.span_rows[i][q];
            c.lambda = std::min(c.k * span_c(c, x[i], x) + c.lambda, 0.0);
        }
    self_contact_rows::update_duals(s.self, free_particles, x);
}

void add_local_energy(const ContactState& s, uint32_t i, const Vec3& xi, const Vec3* x, double& e) {
    for (int q = 0; q < s.count[i]; ++q) {
        const Contact& c = s.rows[i][q];
        e += row_energy(c.k, c.lambda, c.c0 + dot(c.normal, xi - c.anchor), -solver_infinity, 0);
    }
    for (int q = 0; q < s.span_count[i]; ++q) {
        const SpanContact& c = s.span_rows[i][q];
        e += row_energy(c.k, c.lambda, span_c(c, xi, x), -solver_infinity, 0);
    }
    self_contact_rows::add_local_energy(s.self, i, xi, e);
}

}  // namespace weft::contact_rows
