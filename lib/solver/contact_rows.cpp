#include "solver/contact_rows.h"

#include <algorithm>
#include <cmath>

namespace weft::contact_rows {

namespace {

/// Collider c (spheres first, then capsules) at `fraction` of the way from last step's placement.
SurfacePoint collider_surface(const ContactState& s, size_t c, double fraction, const Vec3& xi) {
    const size_t sphere_count = s.spheres.size();
    if (c < sphere_count) {
        SphereCollider sphere = s.spheres[c];
        if (c < s.spheres_prev.size()) sphere.centre = s.spheres_prev[c].centre + (sphere.centre - s.spheres_prev[c].centre) * fraction;
        return surface_point(sphere, xi);
    }
    const size_t q = c - sphere_count;
    CapsuleCollider capsule = s.capsules[q];
    if (q < s.capsules_prev.size()) {
        capsule.a = s.capsules_prev[q].a + (capsule.a - s.capsules_prev[q].a) * fraction;
        capsule.b = s.capsules_prev[q].b + (capsule.b - s.capsules_prev[q].b) * fraction;
    }
    return surface_point(capsule, xi);
}

}  // namespace

ContactState initial_state(size_t n) {
    ContactState s;
    s.count.assign(n, 0);
    s.rows.assign(n, {});
    return s;
}

uint32_t detect(const ContactModel& model, ContactState& st, const ContactInputs& in, double fraction, const SolverConstants& constants) {
    const size_t total = st.spheres.size() + st.capsules.size();
    const double ag = constants.alpha * constants.gamma;
    uint32_t rows = 0;
    for (uint32_t i : in.free_particles) {
        std::array<Contact, max_contacts> previous = st.rows[i];
        uint8_t previous_count = st.count[i];
        st.count[i] = 0;
        if (total == 0) continue;
        const Vec3& xi = in.x[i];
        // The particle stands for the skin round it: it keeps its collision radius clear as well.
        const double clearance = model.thickness + (i < model.radius.size() ? model.radius[i] : 0.0);
        // Look a trust radius ahead: a particle predicted just clear can be pulled in by its rows
        // during the sweep, and an inactive one-sided row costs one dot product.
        double band = std::isfinite(in.trust_radius[i]) ? in.trust_radius[i] : in.reach;
        std::array<Contact, max_contacts> best{};
        int found = 0;
        for (size_t c = 0; c < total; ++c) {
            const SurfacePoint sp = collider_surface(st, c, fraction, xi);
            double c0 = sp.distance - clearance;
            if (!(c0 < band)) continue;
            Contact contact;
            contact.collider = static_cast<uint32_t>(c);
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
        for (int s = 0; s < found; ++s) {
            for (int p = 0; p < previous_count; ++p)
                if (previous[p].collider == best[s].collider) best[s].lambda = previous[p].lambda * ag;
            st.rows[i][s] = best[s];
        }
        st.count[i] = static_cast<uint8_t>(found);
        rows += static_cast<uint32_t>(found);
    }
    const SelfContactInputs self_in{in.free_particles, in.x, in.x_prev, in.mass, in.trust_radius, in.reach, in.inv_h2};
    return rows + self_contact_rows::detect(model.self, st.self, self_in, constants);
}

void reset(ContactState& s) {
    std::fill(s.count.begin(), s.count.end(), uint8_t{0});
    self_contact_rows::reset(s.self);
}

void update_duals(ContactState& s, const std::vector<uint32_t>& free_particles, const Vec3* x) {
    for (uint32_t i : free_particles)
        for (int q = 0; q < s.count[i]; ++q) {
            Contact& c = s.rows[i][q];
            c.lambda = std::min(c.k * (c.c0 + dot(c.normal, x[i] - c.anchor)) + c.lambda, 0.0);
        }
    self_contact_rows::update_duals(s.self, free_particles, x);
}

void add_local_energy(const ContactState& s, uint32_t i, const Vec3& xi, double& e) {
    for (int q = 0; q < s.count[i]; ++q) {
        const Contact& c = s.rows[i][q];
        e += row_energy(c.k, c.lambda, c.c0 + dot(c.normal, xi - c.anchor), -solver_infinity, 0);
    }
    self_contact_rows::add_local_energy(s.self, i, xi, e);
}

}  // namespace weft::contact_rows
