#include "solver/virtual_rows.h"

#include <algorithm>
#include <cmath>


namespace weft {

Vec3 virtual_position(const Vec3& carrier, const Vec3& from, const Vec3& to, const Vec3& rest_link, const Vec3& offset) {
    return carrier + Quat::between(rest_link, to - from).rotate(offset);
}

Vec3 virtual_turn_gradient(const Vec3& from, const Vec3& to, const Vec3& rest_link, const Vec3& offset, const Vec3& n) {
    // The shortest turn from unit u to unit w is R = I + [k]x + [k]x²/(1 + c), k = u × w, c = u·w
    // (Rodrigues' formula with sin θ = |k|, 1 − cos θ = |k|²/(1 + c)). n·R·o differentiated in w, then
    // carried to `to` through w = d/|d|, d = to − from: ∂w/∂d = (I − w·wᵀ)/|d|.
    const Vec3 d = to - from;
    const double dl = length(d);
    const double ul = length(rest_link);
    if (!(dl > 0) || !(ul > 0)) return {};
    const Vec3 u = rest_link / ul, w = d / dl, o = offset;
    const Vec3 k = cross(u, w);
    const double c1 = 1 + dot(u, w);
    if (!(c1 > 1e-6)) return {};  // turned half round: the shortest turn has no derivative there
    const double ko = dot(k, o), nk = dot(n, k), no = dot(n, o);
    const Vec3 grad = cross(cross(o, n), u) + (cross(n, u) * ko + cross(o, u) * nk - cross(k, u) * (2 * no)) / c1 -
                      u * ((nk * ko - no * dot(k, k)) / (c1 * c1));
    return (grad - w * dot(w, grad)) / dl;
}

namespace contact_rows {

namespace {

/// A particle's look-ahead (contact_rows.cpp's rule): its trust radius, or the cloth's reach.
double virtual_look_ahead(const ContactInputs& in, uint32_t i) {
    return std::isfinite(in.trust_radius[i]) ? in.trust_radius[i] : in.reach;
}

/// Each virtual particle's depth inside the fabric's thickness at rest against each collider (<= 0),
/// measured once against the colliders of the first step that has them: what it is allowed, as a span
/// is (docs/colliders.md#spans) and as validation measures a render vertex past its bind depth.
void measure_rest_depth(const ContactModel& model, ContactState& st) {
    const size_t colliders = st.placed.size(), count = model.virtual_link.size();
    if (st.virtual_rest_colliders == colliders && st.virtual_rest_depth.size() == count * colliders) return;
    st.virtual_rest_colliders = colliders;
    st.virtual_rest_depth.assign(count * colliders, 0.0);
    for (size_t v = 0; v < count; ++v)
        for (size_t c = 0; c < colliders; ++c)
            st.virtual_rest_depth[v * colliders + c] =
                std::min(surface_point(st.placed[c], model.virtual_rest[v]).distance - model.thickness, 0.0);
}

/// Whether virtual particle v, carried by a particle at `xc`, may come within its reach of some
/// collider's box, before its turn is formed: a turn keeps lengths, so the point lies its offset's
/// length from the carrier (a billionth and a nanometre more for rounding), and its look-ahead, `band`
/// times (1 + that distance / the link's length), is at most the same with that bound. A collider this
/// passes over is further off than the point's own box test would reach, so no row is lost.
bool may_reach_a_collider(const ContactModel& model, const ContactState& st, size_t v, const Vec3& xc, double band,
                          double link_length) {
    const double offset = length(model.virtual_offset[v]) * (1 + 1e-9) + 1e-9;
    const double lever = link_length > 0 ? band * (1 + offset / link_length) : band;
    const double reach = offset + (model.thickness + lever) * (1 + 1e-9) + box_margin;
    for (const std::array<double, 6>& box : st.boxes)
        if (!outside_box(box, xc, reach)) return true;
    return false;
}

}  // namespace

void find_virtual_rows(const ContactModel& model, ContactState& st, const ContactInputs& in, const SolverConstants& constants) {
    if (model.virtual_link.empty() || st.placed.empty()) return;
    measure_rest_depth(model, st);
    const size_t colliders = st.placed.size();
    for (uint32_t v = 0; v < model.virtual_link.size(); ++v) {
        const auto& link = model.virtual_link[v];
        if (!st.free[link[0]] && !st.free[link[1]] && !st.free[link[2]]) continue;
        const Vec3 &xc = in.x[link[0]], &xf = in.x[link[1]], &xt = in.x[link[2]];
        double band = 0;
        for (uint32_t q : link)
            if (st.free[q]) band = std::max(band, virtual_look_ahead(in, q));
        const double link_length = distance(xf, xt);
        if (!may_reach_a_collider(model, st, v, xc, band, link_length)) continue;
        const Vec3 p = virtual_position(xc, xf, xt, model.virtual_rest_link[v], model.virtual_offset[v]);
        // The point moves about (1 + its distance from the carrier / the link's length) times as far as
        // the link's particles: its look-ahead is theirs times that lever.
        if (link_length > 0) band *= 1 + distance(p, xc) / link_length;
        const double reach = model.thickness + band;
        for (size_t c = 0; c < colliders; ++c) {
            const std::array<double, 6>& box = st.boxes[c];
            if (box[0] > p.x + reach || box[1] > p.y + reach || box[2] > p.z + reach || box[3] < p.x - reach ||
                box[4] < p.y - reach || box[5] < p.z - reach)
                continue;
            const SurfacePoint sp = surface_point(st.placed[c], p);
            const double depth = sp.distance - model.thickness - st.virtual_rest_depth[v * colliders + c];
            if (!(depth < band)) continue;
            // The gradient of the contact on each particle of the link: the carrier translates the point,
            // the link's ends turn it; a particle named twice gets both.
            const Vec3 turn = virtual_turn_gradient(xf, xt, model.virtual_rest_link[v], model.virtual_offset[v], sp.normal);
            std::array<uint32_t, 3> who{};
            std::array<Vec3, 3> grad{};
            int ends = 0;
            const std::pair<uint32_t, Vec3> shares[3] = {{link[0], sp.normal}, {link[1], -1.0 * turn}, {link[2], turn}};
            for (const auto& [q, g] : shares) {
                int e = 0;
                while (e < ends && who[e] != q) ++e;
                if (e == ends) who[ends++] = q;
                grad[e] += g;
            }
            // Shared as a projection would share it (by inverse mass times the squared gradient), among the
            // free particles, where they carry enough of the point (min_span_free_weight).
            double free_weight = 0, denominator = 0;
            for (int e = 0; e < ends; ++e)
                if (st.free[who[e]]) {
                    free_weight += length(grad[e]);
                    denominator += length_squared(grad[e]) / in.mass[who[e]];
                }
            if (free_weight < min_span_free_weight || !(denominator > 0)) continue;
            for (int e = 0; e < ends; ++e) {
                const uint32_t q = who[e];
                const double g = length(grad[e]);
                if (!st.free[q] || !(g > 0)) continue;
                const SpanHit hit{static_cast<uint32_t>(model.spans.size()) + v, static_cast<uint32_t>(c), grad[e] / g, depth};
                add_span_share(st, in, constants, q, hit, depth * (g / in.mass[q]) / denominator);
            }
        }
    }
}

}  // namespace contact_rows
}  // namespace weft
