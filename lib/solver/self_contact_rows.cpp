#include "solver/self_contact_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace weft::self_contact_rows {

namespace {

/// The point of triangle (a, b, c) nearest to p, as barycentric weights of a, b, c (Christer Ericson,
/// "Real-Time Collision Detection", 2005, the closest point on a triangle by its Voronoi regions).
std::array<double, 3> nearest_weights(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 ab = b - a, ac = c - a, ap = p - a;
    const double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return {1, 0, 0};
    const Vec3 bp = p - b;
    const double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return {0, 1, 0};
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        const double v = d1 / (d1 - d3);
        return {1 - v, v, 0};
    }
    const Vec3 cp = p - c;
    const double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return {0, 0, 1};
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        const double w = d2 / (d2 - d6);
        return {1 - w, 0, w};
    }
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
        const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return {0, 1 - w, w};
    }
    const double denom = va + vb + vc;
    if (!(denom > 0)) return {1, 0, 0};  // a degenerate triangle: its first corner
    const double v = vb / denom, w = vc / denom;
    return {1 - v - w, v, w};
}

Vec3 blend(const std::array<double, 3>& w, const Vec3& a, const Vec3& b, const Vec3& c) {
    return a * w[0] + b * w[1] + c * w[2];
}

int64_t cell_of(double v, double cell) { return static_cast<int64_t>(std::floor(v / cell)); }

/// Matthias Teschner, Bruno Heidelberger, Matthias Müller, Danat Pomeranets, Markus Gross, "Optimized
/// Spatial Hashing for Collision Detection of Deformable Objects", VMV 2003: three large primes, xor.
uint64_t cell_hash(int64_t x, int64_t y, int64_t z) {
    return (static_cast<uint64_t>(x) * 73856093u) ^ (static_cast<uint64_t>(y) * 19349663u) ^
           (static_cast<uint64_t>(z) * 83492791u);
}

bool excluded(const SelfContactModel& m, uint32_t i, uint32_t t) {
    const auto begin = m.excluded.begin() + m.excluded_offset[i], end = m.excluded.begin() + m.excluded_offset[i + 1];
    return std::binary_search(begin, end, t);
}

/// The hash of every triangle with finite corners, by the cells its box at `x` covers; returns the cell edge.
double build_hash(const SelfContactModel& m, SelfContactState& s, const Vec3* x) {
    const size_t t_count = m.triangles.size();
    // A cell no smaller than half the largest triangle, so a triangle covers at most 3 cells a side
    // even when the cloth is torn apart.
    double cell = m.cell;
    std::vector<uint8_t> finite(t_count, 1);
    for (size_t t = 0; t < t_count; ++t) {
        const Vec3 &a = x[m.triangles[t][0]], &b = x[m.triangles[t][1]], &c = x[m.triangles[t][2]];
        if (!is_finite(a) || !is_finite(b) || !is_finite(c)) {
            finite[t] = 0;
            continue;
        }
        for (int k = 0; k < 3; ++k) {
            const double extent = std::max({a[k], b[k], c[k]}) - std::min({a[k], b[k], c[k]});
            cell = std::max(cell, extent / 2);
        }
    }
    s.cells.resize(t_count);
    s.boxes.resize(t_count);
    size_t entries = 0;
    for (size_t t = 0; t < t_count; ++t) {
        std::array<int64_t, 6>& box = s.cells[t];
        if (!finite[t]) {
            box = {1, 1, 1, 0, 0, 0};  // empty: covers no cell
            continue;
        }
        const Vec3 &a = x[m.triangles[t][0]], &b = x[m.triangles[t][1]], &c = x[m.triangles[t][2]];
        for (int k = 0; k < 3; ++k) {
            s.boxes[t][k] = std::min({a[k], b[k], c[k]});
            s.boxes[t][k + 3] = std::max({a[k], b[k], c[k]});
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
    std::vector<uint32_t> fill(s.bucket_offset.begin(), s.bucket_offset.end() - 1);
    // Triangles enter their buckets in ascending order: a bucket lists them ascending.
    for (size_t t = 0; t < t_count; ++t)
        each_cell(t, [&](uint64_t b) { s.bucket_triangles[fill[b]++] = static_cast<uint32_t>(t); });
    return cell;
}

/// The triangles whose box comes within `radius` of p, ascending, each once.
void gather(const SelfContactState& s, double cell, const Vec3& p, double radius, std::vector<uint32_t>& out) {
    const size_t buckets = s.bucket_offset.size() - 1;
    std::array<int64_t, 6> query;
    for (int k = 0; k < 3; ++k) {
        query[k] = cell_of(p[k] - radius, cell);
        query[k + 3] = cell_of(p[k] + radius, cell);
    }
    out.clear();
    for (int64_t ix = query[0]; ix <= query[3]; ++ix)
        for (int64_t iy = query[1]; iy <= query[4]; ++iy)
            for (int64_t iz = query[2]; iz <= query[5]; ++iz) {
                const uint64_t b = cell_hash(ix, iy, iz) & (buckets - 1);
                for (uint32_t q = s.bucket_offset[b]; q < s.bucket_offset[b + 1]; ++q) {
                    const uint32_t t = s.bucket_triangles[q];
                    const std::array<double, 6>& box = s.boxes[t];
                    if (s.cells[t][0] > s.cells[t][3]) continue;  // a non-finite triangle
                    if (box[0] <= p.x + radius && p.x - radius <= box[3] && box[1] <= p.y + radius &&
                        p.y - radius <= box[4] && box[2] <= p.z + radius && p.z - radius <= box[5])
                        out.push_back(t);
                }
            }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
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
    // The distance a particle searches (detect): the thickness and its trust radius, the shortest
    // distance row at it (docs/solver.md#trust-region), or the reach where it has none.
    std::vector<double> band(n, std::numeric_limits<double>::infinity());
    for (size_t e = 0; e < proxy.edges.size(); ++e)
        for (uint32_t end : proxy.edges[e]) band[end] = std::min(band[end], proxy.rest_length[e]);
    for (size_t k = 0; k < proxy.skips.size(); ++k)
        for (uint32_t end : proxy.skips[k]) band[end] = std::min(band[end], proxy.skip_rest_length[k]);
    const double far = weft::reach(proxy);
    SelfContactState at_rest;
    const double cell = build_hash(m, at_rest, m.rest.data());
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
        gather(at_rest, cell, m.rest[i], radius, near);
        for (uint32_t t : near) {
            const std::array<uint32_t, 3>& tri = m.triangles[t];
            const Vec3 &a = m.rest[tri[0]], &b = m.rest[tri[1]], &c = m.rest[tri[2]];
            if (length(m.rest[i] - blend(nearest_weights(m.rest[i], a, b, c), a, b, c)) < radius) out.push_back(t);
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        m.excluded.insert(m.excluded.end(), out.begin(), out.end());
        m.excluded_offset[i + 1] = static_cast<uint32_t>(m.excluded.size());
    }
    return m;
}

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
    std::vector<uint8_t> free(n, 0);
    for (uint32_t i : in.free_particles) free[i] = 1;
    const double cell = build_hash(m, s, in.x);
    std::vector<uint32_t> candidates;
    struct Pair {
        uint32_t triangle;
        std::array<double, 3> weights;
        Vec3 normal;
        double c0;
    };
    for (uint32_t i : in.free_particles) {
        const Vec3& p = in.x[i];
        if (!is_finite(p)) continue;
        // Look a trust radius ahead, as the collider contacts do (contact_rows.cpp): the sweep moves
        // a particle at most that far per iteration, and an inactive row costs one dot product.
        const double band = std::isfinite(in.trust_radius[i]) ? in.trust_radius[i] : in.reach;
        const double radius = m.thickness + band;
        gather(s, cell, p, radius, candidates);

        std::array<Pair, max_self_contacts> best{};
        int found = 0;
        for (uint32_t t : candidates) {
            const std::array<uint32_t, 3>& tri = m.triangles[t];
            if (excluded(m, i, t)) continue;
            const Vec3 &a = in.x[tri[0]], &b = in.x[tri[1]], &c = in.x[tri[2]];
            const std::array<double, 3> w = nearest_weights(p, a, b, c);
            const Vec3 away = p - blend(w, a, b, c);
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
            int slot = found < max_self_contacts ? found++ : -1;
            if (slot < 0) {
                int worst = 0;
                for (int k = 1; k < max_self_contacts; ++k)
                    if (best[k].c0 > best[worst].c0) worst = k;
                if (pair.c0 < best[worst].c0) slot = worst;
            }
            if (slot >= 0) best[slot] = pair;
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
    std::vector<uint32_t> fill(s.first.begin(), s.first.end() - 1);
    const double ag = constants.alpha * constants.gamma;
    for (const auto& [owner, row] : s.found) {
        SelfContact& placed = s.rows[fill[owner]++];
        placed = row;
        for (uint32_t q = s.previous_first[owner]; q < s.previous_first[owner + 1]; ++q)
            if (s.previous_rows[q].vertex == row.vertex && s.previous_rows[q].triangle == row.triangle)
                placed.lambda = s.previous_rows[q].lambda * ag;
    }
    return static_cast<uint32_t>(s.rows.size());
}

void reset(SelfContactState& s) {
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
