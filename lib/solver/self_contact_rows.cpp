#include "solver/self_contact_rows.h"

#include "solver/keep_deepest.h"

#include "geom/nearest_on_triangle.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft::self_contact_rows {

namespace {

Vec3 blend(const std::array<double, 3>& w, const Vec3& a, const Vec3& b, const Vec3& c) {
    return a * w[0] + b * w[1] + c * w[2];
}

/// The cell of coordinate `v`, saturated: the cast of a double beyond int64_t's range (a particle flung
/// to 1e300 m by a hostile proxy) or of NaN is undefined.
int64_t cell_of(double v, double cell) {
    constexpr double kLimit = 4.0e18;  // below 2^63
    const double q = std::clamp(std::floor(v / cell), -kLimit, kLimit);
    return q == q ? static_cast<int64_t>(q) : 0;
}

/// Matthias Teschner, Bruno Heidelberger, Matthias Müller, Danat Pomeranets, Markus Gross, "Optimized
/// Spatial Hashing for Collision Detection of Deformable Objects", VMV 2003: three large primes, xor.
uint64_t cell_hash(int64_t x, int64_t y, int64_t z) {
    return (static_cast<uint64_t>(x) * 73856093u) ^ (static_cast<uint64_t>(y) * 19349663u) ^
           (static_cast<uint64_t>(z) * 83492791u);
}

/// The hash of every triangle with finite corners at `x`, by the cells its box covers; returns the cell
/// edge, no smaller than `least`. Each triangle's box is kept (`boxes`) for the box test of `gather`.
double build_hash(const SelfContactModel& m, SelfContactState& s, const Vec3* x, double least) {
    const size_t t_count = m.triangles.size();
    // A cell no smaller than half the largest triangle, so a triangle covers at most 3 cells a side
    // even when the cloth is torn apart.
    double cell = least;
    s.cells.resize(t_count);
    s.boxes.resize(t_count);
    for (size_t t = 0; t < t_count; ++t) {
        const Vec3 &a = x[m.triangles[t][0]], &b = x[m.triangles[t][1]], &c = x[m.triangles[t][2]];
        if (!is_finite(a) || !is_finite(b) || !is_finite(c)) {
            s.cells[t] = {1, 1, 1, 0, 0, 0};  // empty: covers no cell
            continue;
        }
        s.cells[t] = {};
        for (int k = 0; k < 3; ++k) {
            s.boxes[t][k] = std::min({a[k], b[k], c[k]});
            s.boxes[t][k + 3] = std::max({a[k], b[k], c[k]});
            cell = std::max(cell, (s.boxes[t][k + 3] - s.boxes[t][k]) / 2);
        }
    }
    size_t entries = 0;
    for (size_t t = 0; t < t_count; ++t) {
        std::array<int64_t, 6>& box = s.cells[t];
        if (box[0] > box[3]) continue;
        for (int k = 0; k < 3; ++k) {
            box[k] = cell_of(s.boxes[t][k], cell);
            box[k + 3] = cell_of(s.boxes[t][k + 3], cell);
        }
        entries += static_cast<size_t>((box[3] - box[0] + 1) * (box[4] - box[1] + 1) * (box[5] - box[2] + 1));
    }
    size_t buckets = 1;
    while (buckets < 2 * entries) buckets *= 2;
    s.bucket_offset.assign(buckets + 1, 0);
    auto each_cell = [&](size_t t, auto&& f) {
        const std::array<int64_t, 6>& box = s.cells[t];
        for (int64_t ix = box[0]; ix <= box[3]; ++ix)
            for (int64_t iy = box[1]; iy <= box[4]; ++iy)
                for (int64_t iz = box[2]; iz <= box[5]; ++iz) f(cell_hash(ix, iy, iz) & (buckets - 1));
    };
    for (size_t t = 0; t < t_count; ++t) each_cell(t, [&](uint64_t b) { ++s.bucket_offset[b + 1]; });
    for (size_t b = 0; b < buckets; ++b) s.bucket_offset[b + 1] += s.bucket_offset[b];
    s.bucket_triangles.resize(entries);
    s.fill.assign(s.bucket_offset.begin(), s.bucket_offset.end() - 1);
    for (size_t t = 0; t < t_count; ++t)
        each_cell(t, [&](uint64_t b) { s.bucket_triangles[s.fill[b]++] = static_cast<uint32_t>(t); });
    s.seen.assign(t_count, UINT32_MAX);
    return cell;
}

/// The triangles whose box comes within `radius` of p, ascending, each once, leaving out those already
/// stamped `mark` in `seen` (a caller's exclusions). A triangle is stamped when first met, so one that
/// covers several of the cells searched is tested once and an excluded one is passed over before its
/// box is read; only the few in reach are sorted. `mark` must differ from every earlier query's.
void gather(SelfContactState& s, double cell, const Vec3& p, double radius, uint32_t mark, std::vector<uint32_t>& out) {
    // Raw pointers: `out` may be one of s's vectors, and its growth would otherwise make every load of
    // the others be repeated.
    const uint64_t mask = s.bucket_offset.size() - 2;  // the bucket count, a power of two, less one
    const uint32_t* offset = s.bucket_offset.data();
    const uint32_t* entry = s.bucket_triangles.data();
    const std::array<double, 6>* boxes = s.boxes.data();
    uint32_t* seen = s.seen.data();
    const Vec3 lo = p - Vec3{radius, radius, radius}, hi = p + Vec3{radius, radius, radius};
    const int64_t x0 = cell_of(lo.x, cell), x1 = cell_of(hi.x, cell), y0 = cell_of(lo.y, cell),
                  y1 = cell_of(hi.y, cell), z0 = cell_of(lo.z, cell), z1 = cell_of(hi.z, cell);
    out.clear();
    for (int64_t ix = x0; ix <= x1; ++ix)
        for (int64_t iy = y0; iy <= y1; ++iy)
            for (int64_t iz = z0; iz <= z1; ++iz) {
                const uint64_t b = cell_hash(ix, iy, iz) & mask;
                for (uint32_t q = offset[b], end = offset[b + 1]; q < end; ++q) {
                    const uint32_t t = entry[q];
                    if (seen[t] == mark) continue;
                    seen[t] = mark;
                    const std::array<double, 6>& box = boxes[t];
                    if (box[0] <= hi.x && lo.x <= box[3] && box[1] <= hi.y && lo.y <= box[4] && box[2] <= hi.z &&
                        lo.z <= box[5])
                        out.push_back(t);
                }
            }
    std::sort(out.begin(), out.end());
}

}  // namespace

SelfContactModel build(const ClothProxy& proxy, double thickness, bool enabled) {
    SelfContactModel m;
    if (!enabled || proxy.triangles.empty()) return m;
    m.enabled = true;
    m.thickness = thickness;
    m.triangles = proxy.triangles;
    m.rest = proxy.rest_position;
    const size_t n = proxy.particle_count();
    std::vector<std::vector<uint32_t>> adjacent(n);
    double total = 0;
    for (size_t e = 0; e < proxy.edges.size(); ++e) {
        adjacent[proxy.edges[e][0]].push_back(proxy.edges[e][1]);
        adjacent[proxy.edges[e][1]].push_back(proxy.edges[e][0]);
        total += proxy.rest_length[e];
    }
    for (const std::array<uint32_t, 3>& t : proxy.triangles)  // a triangle's corners are neighbours whatever the edges say
        for (int k = 0; k < 3; ++k) {
            adjacent[t[k]].push_back(t[(k + 1) % 3]);
            adjacent[t[(k + 1) % 3]].push_back(t[k]);
        }
    const double mean_edge = proxy.edges.empty() ? 0.0 : total / static_cast<double>(proxy.edges.size());
    m.cell = std::max(thickness + mean_edge, 1e-6);
    // Any margin finds the same rows (the lists' guarantee, docs/solver.md#self-contact): a wider one
    // lists more triangles to measure each substep but makes the lists again less often. One thickness
    // lasted a substep or two on a moving sheet, where making the lists (the hash and every particle's
    // gathering) cost more than the substep's measuring; a thickness and half a mean edge took nearly
    // all of a wider margin's gain on the shared models' sheets without its cost on a sheet that
    // barely moves (docs/measurements.md#self-contacts-lists-on-small-sheets).
    m.margin = thickness + 0.5 * mean_edge;
    // The distance a particle searches (detect): the thickness and its trust radius, the shortest
    // distance row at it (docs/solver.md#trust-region), or the reach where it has none.
    std::vector<double> band(n, std::numeric_limits<double>::infinity());
    for (size_t e = 0; e < proxy.edges.size(); ++e)
        for (uint32_t end : proxy.edges[e]) band[end] = std::min(band[end], proxy.rest_length[e]);
    for (size_t k = 0; k < proxy.skips.size(); ++k)
        for (uint32_t end : proxy.skips[k]) band[end] = std::min(band[end], proxy.skip_rest_length[k]);
    const double far = weft::reach(proxy);
    SelfContactState at_rest;
    const double cell = build_hash(m, at_rest, m.rest.data(), m.cell);
    std::vector<std::vector<uint32_t>> corner_of(n);  // per particle, the triangles it is a corner of
    for (uint32_t t = 0; t < m.triangles.size(); ++t)
        for (uint32_t k : m.triangles[t]) corner_of[k].push_back(t);
    m.excluded_offset.assign(n + 1, 0);
    std::vector<uint32_t> ring, near, out;
    for (uint32_t i = 0; i < n; ++i) {
        ring.assign(1, i);
        for (uint32_t j : adjacent[i]) {
            ring.push_back(j);
            ring.insert(ring.end(), adjacent[j].begin(), adjacent[j].end());
        }
        std::sort(ring.begin(), ring.end());
        ring.erase(std::unique(ring.begin(), ring.end()), ring.end());
        const double radius = thickness + (std::isfinite(band[i]) ? band[i] : far);
        out.clear();
        for (uint32_t j : ring) out.insert(out.end(), corner_of[j].begin(), corner_of[j].end());
        gather(at_rest, cell, m.rest[i], radius, i, near);
        for (uint32_t t : near) {
            const std::array<uint32_t, 3>& tri = m.triangles[t];
            const Vec3 &a = m.rest[tri[0]], &b = m.rest[tri[1]], &c = m.rest[tri[2]];
            if (length(m.rest[i] - nearest_on_triangle(m.rest[i], a, b, c).point) < radius) out.push_back(t);
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        m.excluded.insert(m.excluded.end(), out.begin(), out.end());
        m.excluded_offset[i + 1] = static_cast<uint32_t>(m.excluded.size());
    }
    return m;
}

namespace {
/// The search distance of particle i: the thickness and a trust radius ahead, as the collider contacts
/// look (contact_rows.cpp): the sweep moves a particle at most that far per iteration, and an inactive
/// row costs one dot product.
double search_distance(const SelfContactModel& m, const SelfContactInputs& in, uint32_t i) {
    return m.thickness + (std::isfinite(in.trust_radius[i]) ? in.trust_radius[i] : in.reach);
}

/// Whether the candidate lists still hold every triangle within each particle's search distance. A
/// particle's distance to a triangle changes by at most its own displacement plus the largest of the
/// corners', both taken relative to any common translation (which moves nothing closer): the middle
/// of the displacements' box. While twice the largest such drift stays inside the margin, no triangle
/// off a list can have come within the search distance (Loup Verlet, "Computer experiments on
/// classical fluids", 1967: the neighbour list with a skin).
bool lists_hold(const SelfContactModel& m, const SelfContactState& s, const SelfContactInputs& in, size_t n) {
    if (s.listed_at.size() != n || s.listed_for != in.free_particles) return false;
    Vec3 lo{solver_infinity, solver_infinity, solver_infinity}, hi = -lo;
    for (size_t i = 0; i < n; ++i) {
        const Vec3 d = in.x[i] - s.listed_at[i];
        if (!is_finite(d)) return false;
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], d[k]);
            hi[k] = std::max(hi[k], d[k]);
        }
    }
    const Vec3 common = (lo + hi) * 0.5;
    double drift2 = 0;
    for (size_t i = 0; i < n; ++i) drift2 = std::max(drift2, length_squared(in.x[i] - s.listed_at[i] - common));
    // A tenth of the margin spare: the distances are computed in floating point.
    return 2 * std::sqrt(drift2) <= 0.9 * m.margin;
}

/// Lists each free particle's candidates at the predicted positions: the triangles go into a spatial
/// hash by the cells their boxes cover, and each free particle, in ascending order, gathers those whose
/// box is within its reach, its excluded triangles stamped beforehand so they are passed over unread
/// (most of a dense sheet's triangles in reach are the particle's own neighbours), then measures the
/// rest. Each list comes out ascending, whatever the hash order.
void list_candidates(const SelfContactModel& m, SelfContactState& s, const SelfContactInputs& in, size_t n) {
    s.listed_at.assign(in.x, in.x + n);
    s.listed_for = in.free_particles;
    double reach_max = 0;
    for (uint32_t i : in.free_particles) reach_max = std::max(reach_max, search_distance(m, in, i) + m.margin);
    const double cell = build_hash(m, s, in.x, std::max(reach_max, 1e-6));
    s.candidate_first.assign(n + 1, 0);
    s.candidates.clear();
    for (uint32_t i : in.free_particles) {
        const Vec3& p = in.x[i];
        if (!is_finite(p)) continue;
        for (uint32_t q = m.excluded_offset[i]; q < m.excluded_offset[i + 1]; ++q) s.seen[m.excluded[q]] = i;
        const double reach = search_distance(m, in, i) + m.margin;
        gather(s, cell, p, reach, i, s.near);
        for (uint32_t t : s.near) {
            const std::array<uint32_t, 3>& tri = m.triangles[t];
            if (length(p - nearest_on_triangle(p, in.x[tri[0]], in.x[tri[1]], in.x[tri[2]]).point) < reach)
                s.candidates.push_back(t);
        }
        s.candidate_first[i + 1] = static_cast<uint32_t>(s.candidates.size());
    }
    // Free particles are visited in ascending order: a particle's list starts where the last one's ended.
    for (size_t i = 0; i < n; ++i) s.candidate_first[i + 1] = std::max(s.candidate_first[i + 1], s.candidate_first[i]);
}

}  // namespace

uint32_t detect(const SelfContactModel& m, SelfContactState& s, const SelfContactInputs& in, const SolverConstants& constants) {
    if (!m.enabled) return 0;
    const size_t n = m.rest.size();
    std::swap(s.first, s.previous_first);
    std::swap(s.rows, s.previous_rows);
    if (s.previous_first.size() != n + 1) {  // the first detection: nothing to carry over
        s.previous_first.assign(n + 1, 0);
        s.previous_rows.clear();
    }
    s.found.clear();
    s.free.assign(n, 0);
    for (uint32_t i : in.free_particles) s.free[i] = 1;
    const std::vector<uint8_t>& free = s.free;
    if (!lists_hold(m, s, in, n)) list_candidates(m, s, in, n);
    struct Pair {
        uint32_t triangle;
        std::array<double, 3> weights;
        Vec3 normal;
        double c0;
    };
    for (uint32_t i : in.free_particles) {
        const Vec3& p = in.x[i];
        if (!is_finite(p)) continue;
        const double radius = search_distance(m, in, i);
        std::array<Pair, max_self_contacts> best{};
        int found = 0;
        for (uint32_t q = s.candidate_first[i]; q < s.candidate_first[i + 1]; ++q) {
            const uint32_t t = s.candidates[q];
            const std::array<uint32_t, 3>& tri = m.triangles[t];
            const Vec3 &a = in.x[tri[0]], &b = in.x[tri[1]], &c = in.x[tri[2]];
            const TrianglePoint near = nearest_on_triangle(p, a, b, c);
            const std::array<double, 3>& w = near.weights;
            const Vec3 away = p - near.point;
            const double gap = length(away);
            if (!(gap < radius)) continue;
            // The side the particle began the substep on decides the normal: a particle the
            // prediction carried through the triangle is pushed back, not on through.
            const Vec3 before = in.x_prev[i] - blend(w, in.x_prev[tri[0]], in.x_prev[tri[1]], in.x_prev[tri[2]]);
            Vec3 normal = gap > 0 ? away / gap : normalize(cross(b - a, c - a));
            if (!(length_squared(normal) > 0)) continue;
            double signed_gap = gap;
            if (dot(normal, before) < 0) {
                normal = -normal;
                signed_gap = -gap;
            }
            const Pair pair{t, w, normal, signed_gap - m.thickness};
            // Keep the nearest max_self_contacts; equal depths keep the lower triangle (found first).
            keep_deepest(best, found, pair, [](const Pair& p) { return p.c0; });
        }
        // The pair's clearance C = n·(x_i − Σ w_k·x_k) − thickness is shared among its free particles
        // as a projection would share it, by inverse mass times the square of each one's weight in C
        // (1 for the particle, w_k for corner k): each gets a plane of its own, n for the particle and
        // −n for a corner, offset by its share of C, so the rows together restore the whole clearance
        // and a corner the contact point hardly touches is hardly asked to move.
        for (int q = 0; q < found; ++q) {
            const Pair& pair = best[q];
            const std::array<uint32_t, 3>& tri = m.triangles[pair.triangle];
            double shared = 1 / in.mass[i];
            for (int k = 0; k < 3; ++k)
                if (free[tri[k]]) shared += pair.weights[k] * pair.weights[k] / in.mass[tri[k]];
            auto add = [&](uint32_t owner, const Vec3& normal, double weight) {
                const double share = weight / in.mass[owner] / shared;
                if (!(share > 1e-9)) return;  // a corner the contact point is not on
                SelfContact row;
                row.vertex = i;
                row.triangle = pair.triangle;
                row.gradient = normal;
                row.c0 = pair.c0 * share;
                row.anchor = in.x[owner];
                row.k = constants.k_min_ratio * in.mass[owner] * in.inv_h2;
                s.found.emplace_back(owner, row);
            };
            add(i, pair.normal, 1);
            for (int k = 0; k < 3; ++k)
                if (free[tri[k]]) add(tri[k], -pair.normal, pair.weights[k]);
        }
    }
    // Group by particle, keeping the order found (a counting sort: stable, so deterministic).
    s.first.assign(n + 1, 0);
    for (const auto& f : s.found) ++s.first[f.first + 1];
    for (size_t i = 0; i < n; ++i) s.first[i + 1] += s.first[i];
    s.rows.resize(s.found.size());
    s.fill.assign(s.first.begin(), s.first.end() - 1);
    const double ag = constants.alpha * constants.gamma;
    for (const auto& [owner, row] : s.found) {
        SelfContact& placed = s.rows[s.fill[owner]++];
        placed = row;
        for (uint32_t q = s.previous_first[owner]; q < s.previous_first[owner + 1]; ++q)
            if (s.previous_rows[q].vertex == row.vertex && s.previous_rows[q].triangle == row.triangle)
                placed.lambda = s.previous_rows[q].lambda * ag;
    }
    return static_cast<uint32_t>(s.rows.size());
}

void reset(SelfContactState& s) {
    s.listed_at.clear();
    s.first.clear();
    s.rows.clear();
    s.previous_first.clear();
    s.previous_rows.clear();
}

void update_duals(SelfContactState& s, const std::vector<uint32_t>& free_particles, const Vec3* x) {
    if (s.first.empty()) return;
    for (uint32_t i : free_particles)
        for (uint32_t r = s.first[i]; r < s.first[i + 1]; ++r) {
            SelfContact& c = s.rows[r];
            c.lambda = std::min(c.k * (c.c0 + dot(c.gradient, x[i] - c.anchor)) + c.lambda, 0.0);
        }
}

void add_local_energy(const SelfContactState& s, uint32_t i, const Vec3& xi, double& e) {
    if (s.first.empty()) return;
    for (uint32_t r = s.first[i]; r < s.first[i + 1]; ++r) {
        const SelfContact& c = s.rows[r];
        e += row_energy(c.k, c.lambda, c.c0 + dot(c.gradient, xi - c.anchor), -solver_infinity, 0);
    }
}

}  // namespace weft::self_contact_rows
