#include "solver/virtual_rows.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <tuple>


namespace weft {

Vec3 virtual_position(const Vec3& carrier, const Vec3& from, const Vec3& to, const Vec3& rest_link, const Vec3& offset) {
    return carrier + Quat::between(rest_link, to - from).rotate(offset);
}

Vec3 virtual_turn_gradient(const Vec3& from, const Vec3& to, const Vec3& rest_link, const Vec3& offset, const Vec3& n) {
    return virtual_turn_gradient(link_turn_terms(from, to, rest_link), offset, n);
}

LinkTurnTerms link_turn_terms(const Vec3& from, const Vec3& to, const Vec3& rest_link) {
    // The shortest turn from unit u to unit w is R = I + [k]x + [k]x²/(1 + c), k = u × w, c = u·w
    // (Rodrigues' formula with sin θ = |k|, 1 − cos θ = |k|²/(1 + c)).
    LinkTurnTerms t;
    const Vec3 d = to - from;
    t.dl = length(d);
    const double ul = length(rest_link);
    if (!(t.dl > 0) || !(ul > 0)) return t;
    t.u = rest_link / ul;
    t.w = d / t.dl;
    t.k = cross(t.u, t.w);
    t.c1 = 1 + dot(t.u, t.w);
    if (!(t.c1 > 1e-6)) return t;  // turned half round: the shortest turn has no derivative there
    t.kk = dot(t.k, t.k);
    t.ku = cross(t.k, t.u);
    t.defined = true;
    return t;
}

Vec3 virtual_turn_gradient(const LinkTurnTerms& t, const Vec3& offset, const Vec3& n) {
    // n·R·o differentiated in w, then carried to `to` through w = d/|d|: ∂w/∂d = (I − w·wᵀ)/|d|.
    if (!t.defined) return {};
    const Vec3 &u = t.u, &w = t.w, &k = t.k, &o = offset;
    const double c1 = t.c1;
    const double ko = dot(k, o), nk = dot(n, k), no = dot(n, o);
    const Vec3 grad = cross(cross(o, n), u) + (cross(n, u) * ko + cross(o, u) * nk - t.ku * (2 * no)) / c1 -
                      u * ((nk * ko - no * t.kk) / (c1 * c1));
    return (grad - w * dot(w, grad)) / t.dl;
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

/// The reach from the carrier within which a point `offset` from it (a billionth and a nanometre more
/// for rounding: a turn keeps lengths) may find a collider's box: its look-ahead is `band` times
/// (1 + its distance / the link's length), at most the same with that bound. A collider further off
/// than this is further than the point's own box test reaches, so passing over it loses no row; a
/// longer offset gives a longer reach, so a link's longest offset bounds all its points'.
double carrier_reach(const ContactModel& model, double offset_length, double band, double link_length) {
    const double offset = offset_length * (1 + 1e-9) + 1e-9;
    const double lever = link_length > 0 ? band * (1 + offset / link_length) : band;
    return offset + (model.thickness + lever) * (1 + 1e-9) + box_margin;
}

/// Groups the virtual particles by their link (carrier, from, to and its rest direction), in the order
/// they first name it, with each link's longest offset; once, unless the model's particles change.
void group_links(const ContactModel& model, VirtualLinks& g) {
    if (g.of.size() == model.virtual_link.size()) return;
    g = {};
    // Keyed on the rest direction's bits, so one link's points share a turn only where theirs is the same to the bit.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint64_t, uint64_t, uint64_t>, uint32_t> index;
    for (size_t v = 0; v < model.virtual_link.size(); ++v) {
        const auto& l = model.virtual_link[v];
        const Vec3& r = model.virtual_rest_link[v];
        const auto key = std::make_tuple(l[0], l[1], l[2], std::bit_cast<uint64_t>(r.x), std::bit_cast<uint64_t>(r.y),
                                         std::bit_cast<uint64_t>(r.z));
        const auto [it, added] = index.try_emplace(key, static_cast<uint32_t>(g.link.size()));
        if (added) {
            g.link.push_back(l);
            g.rest_link.push_back(r);
            g.offset.push_back(0);
        }
        g.of.push_back(it->second);
        g.offset_length.push_back(length(model.virtual_offset[v]));
        g.offset[it->second] = std::max(g.offset[it->second], g.offset_length.back());
    }
    const size_t links = g.link.size();
    g.reach.assign(links, VirtualLinks::Reach::unseen);
    g.band.assign(links, 0);
    g.length.assign(links, 0);
    g.turn.assign(links, Quat{});
    g.near_from.assign(links, 0);
    g.near_to.assign(links, 0);
    g.terms_formed.assign(links, 0);
    g.terms.assign(links, LinkTurnTerms{});
}

/// Link k as this substep has it: whether a particle of it is free, its look-ahead and length, the
/// colliders its longest point may reach from the carrier and, where there are some, its turn.
void form_link(const ContactModel& model, ContactState& st, const ContactInputs& in, uint32_t k) {
    VirtualLinks& g = st.virtual_links;
    const auto& link = g.link[k];
    g.reach[k] = VirtualLinks::Reach::none;
    if (!st.free[link[0]] && !st.free[link[1]] && !st.free[link[2]]) return;
    const Vec3 &xc = in.x[link[0]], &xf = in.x[link[1]], &xt = in.x[link[2]];
    double band = 0;
    for (uint32_t q : link)
        if (st.free[q]) band = std::max(band, virtual_look_ahead(in, q));
    g.band[k] = band;
    g.length[k] = distance(xf, xt);
    const double reach = carrier_reach(model, g.offset[k], band, g.length[k]);
    g.near_from[k] = static_cast<uint32_t>(g.near.size());
    for (uint32_t c = 0; c < st.boxes.size(); ++c)
        if (!outside_box(st.boxes[c], xc, reach)) g.near.push_back(c);
    g.near_to[k] = static_cast<uint32_t>(g.near.size());
    if (g.near_to[k] == g.near_from[k]) return;
    g.turn[k] = Quat::between(g.rest_link[k], xt - xf);
    g.reach[k] = VirtualLinks::Reach::some;
}

/// Virtual particle v's contact with collider c, `depth` past its allowed clearance at `normal`: its
/// gradient on each particle of the link (the carrier translates the point, the link's ends turn it; a
/// particle named twice gets both), shared as a projection would share it (by inverse mass times the
/// squared gradient) among the free particles, where they carry enough of the point (min_span_free_weight).
void share_contact(const ContactModel& model, ContactState& st, const ContactInputs& in, const SolverConstants& constants,
                   uint32_t v, uint32_t c, const Vec3& normal, double depth) {
    const auto& link = model.virtual_link[v];
    VirtualLinks& g = st.virtual_links;
    const uint32_t k = g.of[v];
    if (!g.terms_formed[k]) {
        g.terms[k] = link_turn_terms(in.x[link[1]], in.x[link[2]], g.rest_link[k]);
        g.terms_formed[k] = 1;
    }
    const Vec3 turn = virtual_turn_gradient(g.terms[k], model.virtual_offset[v], normal);
    std::array<uint32_t, 3> who{};
    std::array<Vec3, 3> grad{};
    int ends = 0;
    const std::pair<uint32_t, Vec3> shares[3] = {{link[0], normal}, {link[1], -1.0 * turn}, {link[2], turn}};
    for (const auto& [q, g] : shares) {
        int e = 0;
        while (e < ends && who[e] != q) ++e;
        if (e == ends) who[ends++] = q;
        grad[e] += g;
    }
    std::array<double, 3> size{};  // each end's |gradient|, taken once for both loops
    double free_weight = 0, denominator = 0;
    for (int e = 0; e < ends; ++e)
        if (st.free[who[e]]) {
            size[e] = length(grad[e]);
            free_weight += size[e];
            denominator += length_squared(grad[e]) / in.mass[who[e]];
        }
    if (free_weight < min_span_free_weight || !(denominator > 0)) return;
    for (int e = 0; e < ends; ++e) {
        const uint32_t q = who[e];
        const double gl = size[e];
        if (!st.free[q] || !(gl > 0)) continue;
        const SpanHit hit{static_cast<uint32_t>(model.spans.size()) + v, c, grad[e] / gl, depth};
        add_span_share(st, in, constants, q, hit, depth * (gl / in.mass[q]) / denominator);
    }
}

}  // namespace

void find_virtual_rows(const ContactModel& model, ContactState& st, const ContactInputs& in, const SolverConstants& constants) {
    if (model.virtual_link.empty() || st.placed.empty()) return;
    measure_rest_depth(model, st);
    VirtualLinks& g = st.virtual_links;
    group_links(model, g);
    std::fill(g.reach.begin(), g.reach.end(), VirtualLinks::Reach::unseen);
    std::fill(g.terms_formed.begin(), g.terms_formed.end(), uint8_t{0});
    g.near.clear();
    const size_t colliders = st.placed.size();
    for (uint32_t v = 0; v < model.virtual_link.size(); ++v) {
        const uint32_t k = g.of[v];
        if (g.reach[k] == VirtualLinks::Reach::unseen) form_link(model, st, in, k);
        if (g.reach[k] == VirtualLinks::Reach::none) continue;
        const Vec3& xc = in.x[g.link[k][0]];
        const uint32_t* near = g.near.data() + g.near_from[k];
        const uint32_t* near_end = g.near.data() + g.near_to[k];
        const double own_reach = carrier_reach(model, g.offset_length[v], g.band[k], g.length[k]);
        if (std::all_of(near, near_end, [&](uint32_t c) { return outside_box(st.boxes[c], xc, own_reach); })) continue;
        // Where the point is: virtual_position's sum, with its link's turn formed once.
        const Vec3 p = xc + g.turn[k].rotate(model.virtual_offset[v]);
        // The point moves about (1 + its distance from the carrier / the link's length) times as far as
        // the link's particles: its look-ahead is theirs times that lever.
        double band = g.band[k];
        if (g.length[k] > 0) band *= 1 + distance(p, xc) / g.length[k];
        const double reach = model.thickness + band;
        for (const uint32_t* c = near; c != near_end; ++c) {
            const std::array<double, 6>& box = st.boxes[*c];
            if (box[0] > p.x + reach || box[1] > p.y + reach || box[2] > p.z + reach || box[3] < p.x - reach ||
                box[4] < p.y - reach || box[5] < p.z - reach)
                continue;
            const SurfacePoint sp = surface_point(st.placed[*c], p);
            const double depth = sp.distance - model.thickness - st.virtual_rest_depth[v * colliders + *c];
            if (depth < band) share_contact(model, st, in, constants, v, *c, sp.normal, depth);
        }
    }
}

}  // namespace contact_rows
}  // namespace weft
