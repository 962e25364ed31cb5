#include "proxy/sheet_resample.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace weft::sheet_detail {

namespace {

constexpr uint32_t none = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kPasses = 64;  // every loop below converges in a handful; this only bounds a pathological input

Vec3 face_normal(const Vec3& a, const Vec3& b, const Vec3& c) { return cross(b - a, c - a); }

// The working mesh: triangles marked dead rather than erased, and per vertex the triangles that
// may use it. A vertex's list gains an entry whenever a triangle takes the vertex, and goes stale
// when a triangle dies or gives the vertex up; faces_of() prunes it in place, so a list stays as
// long as the vertex's fan and no query allocates. The order of a list is never observable: every
// caller either sorts what it reads or uses it as a set.
struct Work {
    ResampleMesh m;
    std::vector<uint8_t> dead;
    std::vector<std::vector<uint32_t>> around;
    std::vector<uint32_t> near_r, near_k, common;  // try_collapse's and the passes' working lists
    double L = 0;

    bool uses(uint32_t t, uint32_t v) const {
        const auto& x = m.triangles[t];
        return !dead[t] && (x[0] == v || x[1] == v || x[2] == v);
    }
    void rebuild_around() {
        around.assign(m.position.size(), {});
        for (uint32_t t = 0; t < m.triangles.size(); ++t)
            if (!dead[t])
                for (uint32_t v : m.triangles[t]) around[v].push_back(t);
    }
    /// The live triangles using v, each once: v's list, pruned.
    const std::vector<uint32_t>& faces_of(uint32_t v) {
        std::vector<uint32_t>& list = around[v];
        size_t kept = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            const uint32_t t = list[i];
            if (uses(t, v) && std::find(list.begin(), list.begin() + kept, t) == list.begin() + kept) list[kept++] = t;
        }
        list.resize(kept);
        return list;
    }
    /// The live triangles sharing the edge (a, b).
    std::vector<uint32_t> faces_of_edge(uint32_t a, uint32_t b) {
        std::vector<uint32_t> out;
        for (uint32_t t : faces_of(a))
            if (uses(t, b)) out.push_back(t);
        return out;
    }
    /// v's neighbours, sorted, into `out`.
    void neighbours(uint32_t v, std::vector<uint32_t>& out) {
        out.clear();
        for (uint32_t t : faces_of(v))
            for (uint32_t w : m.triangles[t])
                if (w != v) out.push_back(w);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }
    bool rigid(uint32_t t) const {
        const auto& x = m.triangles[t];
        return m.holder[x[0]] >= 0 && m.holder[x[1]] >= 0 && m.holder[x[2]] >= 0;
    }
    double len(uint32_t a, uint32_t b) const { return distance(m.position[a], m.position[b]); }
};

struct Edge {
    uint32_t a, b;   // a < b
    uint32_t faces;  // live triangles sharing it
    uint32_t t0, t1; // the first two of them
};

std::vector<Edge> edges_of(const Work& w) {
    struct Side {
        uint32_t a, b, t;
    };
    std::vector<Side> sides;
    for (uint32_t t = 0; t < w.m.triangles.size(); ++t) {
        if (w.dead[t]) continue;
        const auto& x = w.m.triangles[t];
        for (int k = 0; k < 3; ++k) {
            const uint32_t p = x[k], q = x[(k + 1) % 3];
            sides.push_back({std::min(p, q), std::max(p, q), t});
        }
    }
    std::sort(sides.begin(), sides.end(), [](const Side& l, const Side& r) {
        return l.a != r.a ? l.a < r.a : (l.b != r.b ? l.b < r.b : l.t < r.t);
    });
    std::vector<Edge> out;
    for (size_t i = 0; i < sides.size();) {
        size_t j = i;
        while (j < sides.size() && sides[j].a == sides[i].a && sides[j].b == sides[i].b) ++j;
        out.push_back({sides[i].a, sides[i].b, static_cast<uint32_t>(j - i), sides[i].t, j - i > 1 ? sides[i + 1].t : none});
        i = j;
    }
    return out;
}

// Vertex kinds for collapsing: an interior vertex may go anywhere along an edge, a border vertex
// only along its border, a locked one (held, a border corner, a vertex where borders meet) never.
enum Kind : uint8_t { interior = 0, border = 1, locked = 2 };

std::vector<uint8_t> kinds(const Work& w, const std::vector<Edge>& edges) {
    const size_t n = w.m.position.size();
    std::vector<uint8_t> kind(n, interior);
    std::vector<std::vector<uint32_t>> border_next(n);
    for (const Edge& e : edges)
        if (e.faces == 1) {
            border_next[e.a].push_back(e.b);
            border_next[e.b].push_back(e.a);
        }
    // A border turning more than this is a corner of the outline (a flag's four corners), kept.
    const double corner_cos = std::cos(30.0 * std::numbers::pi / 180.0);
    for (uint32_t v = 0; v < n; ++v) {
        if (w.m.holder[v] >= 0) {
            kind[v] = locked;
            continue;
        }
        const auto& nb = border_next[v];
        if (nb.empty()) continue;
        if (nb.size() != 2) {
            kind[v] = locked;
            continue;
        }
        const Vec3 in = normalize(w.m.position[v] - w.m.position[nb[0]]);
        const Vec3 out = normalize(w.m.position[nb[1]] - w.m.position[v]);
        kind[v] = dot(in, out) < corner_cos ? locked : border;
    }
    return kind;
}

uint32_t flip_pass(Work& w);

// Only between near-coplanar triangles does a flip keep the surface's shape.
const double kCosFlat = std::cos(20.0 * std::numbers::pi / 180.0);

// Whether every triangle around v faces within 20° of the first: the flips can reshape such a fan.
bool flat_fan(Work& w, uint32_t v) {
    const auto& fan = w.faces_of(v);
    if (fan.empty()) return false;
    const auto normal = [&](uint32_t t) {
        const auto& x = w.m.triangles[t];
        return face_normal(w.m.position[x[0]], w.m.position[x[1]], w.m.position[x[2]]);
    };
    const Vec3 n0 = normal(fan[0]);
    for (uint32_t t : fan) {
        const Vec3 n = normal(t);
        if (dot(n0, n) < kCosFlat * length(n0) * length(n)) return false;
    }
    return true;
}

// ---- collapse ---------------------------------------------------------------------------------------

// Collapses r into k if the result stays a manifold, unfolded, well-shaped surface with no edge
// longer than the split threshold. True when done.
bool try_collapse(Work& w, uint32_t r, uint32_t k) {
    const std::vector<uint32_t> shared = w.faces_of_edge(r, k);
    if (shared.empty()) return false;
    // Link condition (Dey, Edelsbrunner et al., "Topology preserving edge contraction", 1999): the
    // vertices both ends see are exactly the corners opposite the edge.
    w.neighbours(r, w.near_r);
    w.neighbours(k, w.near_k);
    w.common.clear();
    std::set_intersection(w.near_r.begin(), w.near_r.end(), w.near_k.begin(), w.near_k.end(), std::back_inserter(w.common));
    if (w.common.size() != shared.size()) return false;
    const Vec3& pk = w.m.position[k];
    const double cos_fold = std::cos(30.0 * std::numbers::pi / 180.0);
    // No triangle may come out worse than the bound or than the worst it replaces. Where r's fan is
    // flat, the flips after the pass repair what the collapse leaves (docs/proxy.md#resampling), so
    // the bound is kFlatCollapseAspect there; across a fold no flip can, and it is kCollapseAspect.
    double worst_before = flat_fan(w, r) && flat_fan(w, k) ? kFlatCollapseAspect : kCollapseAspect;
    for (uint32_t t : w.faces_of(r)) {
        const auto& x = w.m.triangles[t];
        worst_before = std::max(worst_before, triangle_aspect(w.m.position[x[0]], w.m.position[x[1]], w.m.position[x[2]]));
    }
    for (uint32_t t : w.faces_of(r)) {
        if (w.uses(t, k)) continue;
        auto x = w.m.triangles[t];
        const Vec3 before = face_normal(w.m.position[x[0]], w.m.position[x[1]], w.m.position[x[2]]);
        for (uint32_t& v : x)
            if (v == r) v = k;
        const Vec3 after = face_normal(w.m.position[x[0]], w.m.position[x[1]], w.m.position[x[2]]);
        const double lb = length(before), la = length(after);
        if (!(la > 0) || dot(before, after) < cos_fold * lb * la) return false;
        if (triangle_aspect(w.m.position[x[0]], w.m.position[x[1]], w.m.position[x[2]]) > worst_before) return false;
        for (uint32_t v : x)
            if (v != k && distance(pk, w.m.position[v]) > kSplitAbove * w.L) return false;
    }
    for (uint32_t t : shared) w.dead[t] = 1;
    for (uint32_t t : w.faces_of(r)) {
        for (uint32_t& v : w.m.triangles[t])
            if (v == r) v = k;
        w.around[k].push_back(t);
    }
    w.around[r].clear();
    return true;
}

uint32_t collapse_pass(Work& w) {
    const std::vector<Edge> edges = edges_of(w);
    const std::vector<uint8_t> kind = kinds(w, edges);
    std::vector<uint32_t> order;
    std::vector<double> length(edges.size());
    for (uint32_t e = 0; e < edges.size(); ++e) {
        length[e] = w.len(edges[e].a, edges[e].b);
        if (length[e] < kCollapseBelow * w.L) order.push_back(e);
    }
    std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return length[x] < length[y]; });
    std::vector<uint8_t> touched(w.m.position.size(), 0);
    uint32_t done = 0;
    for (uint32_t e : order) {
        const Edge& edge = edges[e];
        if (touched[edge.a] || touched[edge.b]) continue;
        if (w.rigid(edge.t0) || (edge.t1 != none && w.rigid(edge.t1))) continue;
        uint32_t r = edge.b, k = edge.a;  // remove the later vertex when the kinds tie
        if (kind[edge.a] < kind[edge.b]) std::swap(r, k);
        if (kind[r] == locked) continue;
        if (kind[r] == border && (kind[k] != border && kind[k] != locked)) continue;
        if (kind[r] == border && edge.faces != 1) continue;  // two borders pinched together
        if (!try_collapse(w, r, k)) continue;
        ++done;
        touched[r] = touched[k] = 1;
        w.neighbours(k, w.near_k);
        for (uint32_t v : w.near_k) touched[v] = 1;
    }
    return done;
}

// ---- split ------------------------------------------------------------------------------------------

uint32_t split_pass(Work& w) {
    const std::vector<Edge> edges = edges_of(w);
    struct Candidate {
        double length;
        uint32_t edge;
    };
    std::vector<Candidate> order;
    std::vector<uint8_t> wanted(edges.size(), 0);
    for (uint32_t e = 0; e < edges.size(); ++e) {
        const Edge& edge = edges[e];
        const bool all_rigid = w.rigid(edge.t0) && (edge.t1 == none || w.rigid(edge.t1));
        if (all_rigid || edge.faces > 2) continue;
        if (w.len(edge.a, edge.b) > kSplitAbove * w.L) wanted[e] = 1;
    }
    // A sliver's longest edge, while it is long enough to be worth splitting.
    {
        std::vector<std::array<uint32_t, 3>> longest;  // (a, b, triangle) of each sliver's longest edge
        for (uint32_t t = 0; t < w.m.triangles.size(); ++t) {
            if (w.dead[t] || w.rigid(t)) continue;
            const auto& x = w.m.triangles[t];
            const Vec3 &a = w.m.position[x[0]], &b = w.m.position[x[1]], &c = w.m.position[x[2]];
            if (triangle_aspect(a, b, c) <= kSliverAspect) continue;
            int k = 0;
            double best = -1;
            for (int j = 0; j < 3; ++j) {
                const double l = w.len(x[j], x[(j + 1) % 3]);
                if (l > best) best = l, k = j;
            }
            if (best <= kSliverSplitAbove * w.L) continue;
            longest.push_back({std::min(x[k], x[(k + 1) % 3]), std::max(x[k], x[(k + 1) % 3]), t});
        }
        for (const auto& s : longest) {
            auto it = std::lower_bound(edges.begin(), edges.end(), s, [](const Edge& e, const std::array<uint32_t, 3>& v) {
                return e.a != v[0] ? e.a < v[0] : e.b < v[1];
            });
            if (it != edges.end() && it->a == s[0] && it->b == s[1] && it->faces <= 2) wanted[it - edges.begin()] = 1;
        }
    }
    for (uint32_t e = 0; e < edges.size(); ++e)
        if (wanted[e]) order.push_back({w.len(edges[e].a, edges[e].b), e});
    std::stable_sort(order.begin(), order.end(), [](const Candidate& x, const Candidate& y) { return x.length > y.length; });

    std::vector<uint8_t> changed(w.m.triangles.size(), 0);
    uint32_t done = 0;
    for (const Candidate& c : order) {
        const Edge& edge = edges[c.edge];
        if (changed[edge.t0] || (edge.t1 != none && changed[edge.t1])) continue;
        const uint32_t a = edge.a, b = edge.b;
        const uint32_t m = static_cast<uint32_t>(w.m.position.size());
        w.m.position.push_back((w.m.position[a] + w.m.position[b]) * 0.5);
        w.m.holder.push_back(w.m.holder[a] >= 0 && w.m.holder[a] == w.m.holder[b] ? w.m.holder[a] : -1);
        w.m.origin.push_back(none);
        w.around.emplace_back();
        for (uint32_t t : {edge.t0, edge.t1}) {
            if (t == none) continue;
            auto x = w.m.triangles[t];
            int k = 0;
            while (!((x[k] == a && x[(k + 1) % 3] == b) || (x[k] == b && x[(k + 1) % 3] == a))) ++k;
            const uint32_t p = x[k], q = x[(k + 1) % 3], z = x[(k + 2) % 3];
            w.m.triangles[t] = {p, m, z};
            const uint32_t u = static_cast<uint32_t>(w.m.triangles.size());
            w.m.triangles.push_back({m, q, z});
            w.dead.push_back(0);
            changed[t] = 1;
            changed.push_back(1);
            w.around[m].push_back(t);
            w.around[m].push_back(u);
            w.around[q].push_back(u);
            w.around[z].push_back(u);
        }
        ++done;
    }
    return done;
}

// ---- flip -------------------------------------------------------------------------------------------

double angle_at(const Vec3& apex, const Vec3& p, const Vec3& q) {
    const Vec3 u = p - apex, v = q - apex;
    return std::atan2(length(cross(u, v)), dot(u, v));
}

uint32_t flip_pass(Work& w) {
    const std::vector<Edge> edges = edges_of(w);
    std::vector<uint8_t> changed(w.m.triangles.size(), 0);
    uint32_t done = 0;
    for (const Edge& e : edges) {
        if (e.faces != 2 || changed[e.t0] || changed[e.t1] || w.rigid(e.t0) || w.rigid(e.t1)) continue;
        auto x = w.m.triangles[e.t0];
        int k = 0;
        while (!((x[k] == e.a && x[(k + 1) % 3] == e.b) || (x[k] == e.b && x[(k + 1) % 3] == e.a))) ++k;
        const uint32_t p = x[k], q = x[(k + 1) % 3], c = x[(k + 2) % 3];
        uint32_t d = none;
        for (uint32_t v : w.m.triangles[e.t1])
            if (v != p && v != q) d = v;
        if (d == none || c == d) continue;
        const Vec3 &P = w.m.position[p], &Q = w.m.position[q], &C = w.m.position[c], &D = w.m.position[d];
        // Delaunay: the angles opposite the edge sum past pi (with a margin so a square's two
        // diagonals never trade places for ever).
        if (angle_at(C, P, Q) + angle_at(D, Q, P) <= std::numbers::pi + 1e-6) continue;
        const Vec3 n0 = face_normal(P, Q, C), n1 = face_normal(Q, P, D);
        if (dot(n0, n1) < kCosFlat * length(n0) * length(n1)) continue;
        // The new triangles (p, d, c) and (d, q, c) keep the winding and must face the same way.
        const Vec3 m0 = face_normal(P, D, C), m1 = face_normal(D, Q, C);
        const Vec3 before = n0 + n1;
        if (!(dot(m0, before) > 0 && dot(m1, before) > 0)) continue;
        w.neighbours(c, w.near_k);
        if (std::binary_search(w.near_k.begin(), w.near_k.end(), d)) continue;  // the other diagonal is an edge already
        w.m.triangles[e.t0] = {p, d, c};
        w.m.triangles[e.t1] = {d, q, c};
        w.around[d].push_back(e.t0);
        w.around[c].push_back(e.t1);
        changed[e.t0] = changed[e.t1] = 1;
        ++done;
    }
    return done;
}

}  // namespace

double triangle_aspect(const Vec3& a, const Vec3& b, const Vec3& c) {
    const double longest = std::max({distance(a, b), distance(b, c), distance(c, a)});
    const double twice_area = length(cross(b - a, c - a));
    if (!(twice_area > 0)) return std::numeric_limits<double>::infinity();
    return longest * longest / twice_area;
}

ResampleMesh resample_sheet(const ResampleMesh& mesh, double edge_length) {
    Work w;
    w.m = mesh;
    w.L = edge_length;
    w.dead.assign(w.m.triangles.size(), 0);
    w.rebuild_around();
    // Coarsen where dense, refine where long or a sliver, then even the diagonals out; the second
    // round collapses the short edges the sliver splits left.
    for (int round = 0; round < 2; ++round) {
        for (uint32_t i = 0; i < kPasses && collapse_pass(w) > 0; ++i) flip_pass(w);
        for (uint32_t i = 0; i < kPasses; ++i) {
            const uint32_t split = split_pass(w);
            const uint32_t flipped = flip_pass(w);
            if (split == 0 && flipped == 0) break;
        }
    }

    // Compact: surviving input vertices in input order, then the splits' in the order made.
    ResampleMesh out;
    std::vector<uint32_t> index(w.m.position.size(), none);
    for (uint32_t t = 0; t < w.m.triangles.size(); ++t)
        if (!w.dead[t])
            for (uint32_t v : w.m.triangles[t]) index[v] = 0;
    for (uint32_t v = 0; v < w.m.position.size(); ++v) {
        if (index[v] == none) continue;
        index[v] = static_cast<uint32_t>(out.position.size());
        out.position.push_back(w.m.position[v]);
        out.holder.push_back(w.m.holder[v]);
        out.origin.push_back(w.m.origin[v]);
    }
    for (uint32_t t = 0; t < w.m.triangles.size(); ++t)
        if (!w.dead[t]) out.triangles.push_back({index[w.m.triangles[t][0]], index[w.m.triangles[t][1]], index[w.m.triangles[t][2]]});
    return out;
}

}  // namespace weft::sheet_detail
