#include "proxy/sheet_layers.h"

#include <cmath>
#include <limits>

#include "geom/topology.h"

namespace weft::sheet_detail {

namespace {

/// Closed but where it is held: at least one border edge, and both ends of every one held.
bool closed_but_held(const EdgeTable& table, std::span<const int> holder) {
    uint32_t border = 0;
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        if (table.face_count(e) != 1) continue;
        if (holder[table.edges[e][0]] < 0 || holder[table.edges[e][1]] < 0) return false;
        ++border;
    }
    return border > 0;
}

/// The axis the area-weighted normals agree on most: the leading eigenvector of Σ A·n·nᵀ (a slab's
/// faces both lie across it), by power iteration from the largest triangle's normal.
Vec3 principal_normal(std::span<const Vec3> normal, std::span<const double> area) {
    double m[3][3] = {};
    size_t largest = 0;
    for (size_t t = 0; t < normal.size(); ++t) {
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) m[r][c] += area[t] * normal[t][r] * normal[t][c];
        if (area[t] > area[largest]) largest = t;
    }
    Vec3 axis = normal[largest];
    for (int it = 0; it < 64; ++it) {
        Vec3 next;
        for (int r = 0; r < 3; ++r) next[r] = m[r][0] * axis.x + m[r][1] * axis.y + m[r][2] * axis.z;
        const double l = length(next);
        if (!(l > 0)) return {};
        axis = next / l;
    }
    return axis;
}

/// Whether the kept triangles are one piece through the edges they share.
bool one_piece(const EdgeTable& table, std::span<const uint8_t> keep) {
    const size_t t_count = keep.size();
    std::vector<std::vector<uint32_t>> next(t_count);
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        const auto f = table.faces(e);
        for (size_t a = 0; a < f.size(); ++a)
            for (size_t b = a + 1; b < f.size(); ++b)
                if (keep[f[a]] && keep[f[b]]) {
                    next[f[a]].push_back(f[b]);
                    next[f[b]].push_back(f[a]);
                }
    }
    std::vector<uint8_t> seen(t_count, 0);
    std::vector<uint32_t> stack;
    size_t reached = 0, kept = 0;
    for (size_t t = 0; t < t_count; ++t) kept += keep[t];
    for (size_t t = 0; t < t_count && stack.empty() && reached == 0; ++t)
        if (keep[t]) {
            stack.push_back(static_cast<uint32_t>(t));
            seen[t] = 1;
        }
    while (!stack.empty()) {
        const uint32_t t = stack.back();
        stack.pop_back();
        ++reached;
        for (uint32_t u : next[t])
            if (!seen[u]) {
                seen[u] = 1;
                stack.push_back(u);
            }
    }
    return reached == kept;
}

}  // namespace

std::vector<uint8_t> one_face_of_two(std::span<const Vec3> position, std::span<const std::array<uint32_t, 3>> triangles,
                                     std::span<const int> holder, Vec3* principal) {
    std::vector<uint32_t> flat;
    flat.reserve(3 * triangles.size());
    for (const auto& t : triangles) flat.insert(flat.end(), t.begin(), t.end());
    const EdgeTable table = build_edge_table(flat, static_cast<uint32_t>(position.size()));
    if (!closed_but_held(table, holder)) return {};
    std::vector<Vec3> normal(triangles.size());
    std::vector<double> area(triangles.size());
    double total = 0;
    for (size_t t = 0; t < triangles.size(); ++t) {
        const auto& [a, b, c] = triangles[t];
        const Vec3 n = cross(position[b] - position[a], position[c] - position[a]);
        area[t] = 0.5 * length(n);
        normal[t] = area[t] > 0 ? n / (2 * area[t]) : Vec3{};
        total += area[t];
    }
    const Vec3 axis = principal_normal(normal, area);
    double along = 0, against = 0;
    for (size_t t = 0; t < triangles.size(); ++t) (dot(normal[t], axis) >= 0 ? along : against) += area[t];
    if (!(along >= kTwoSidedFaceShare * total && against >= kTwoSidedFaceShare * total)) return {};
    const bool keep_along = along >= against;
    std::vector<uint8_t> keep(triangles.size());
    for (size_t t = 0; t < triangles.size(); ++t) keep[t] = (dot(normal[t], axis) >= 0) == keep_along;
    bool held = false, free = false;
    for (size_t t = 0; t < triangles.size(); ++t)
        if (keep[t])
            for (uint32_t v : triangles[t]) (holder[v] >= 0 ? held : free) = true;
    if (!held || !free || !one_piece(table, keep)) return {};
    if (principal) *principal = axis;
    return keep;
}

namespace {

/// Where the line x + s·d meets triangle abc (Tomas Möller, Ben Trumbore, "Fast, minimum storage
/// ray-triangle intersection", 1997): s, or NaN when it misses.
double line_hits(const Vec3& x, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 e1 = b - a, e2 = c - a, p = cross(d, e2);
    const double det = dot(e1, p);
    if (!(std::fabs(det) > 1e-300)) return std::numeric_limits<double>::quiet_NaN();
    const Vec3 t = x - a;
    const double u = dot(t, p) / det;
    const Vec3 q = cross(t, e1);
    const double v = dot(d, q) / det;
    // A line through a vertex or along an edge of the other face hits one of its triangles whatever
    // the rounding: a triangle's own edges are taken a hair wide.
    constexpr double edge = 1e-9;
    if (u < -edge || v < -edge || u + v > 1 + edge) return std::numeric_limits<double>::quiet_NaN();
    return dot(e2, q) / det;
}

}  // namespace

void move_to_mid_surface(std::vector<Vec3>& position, std::span<const std::array<uint32_t, 3>> triangles,
                         std::span<const uint8_t> keep, std::span<const int> holder, const Vec3& axis) {
    std::vector<uint8_t> on_kept(position.size(), 0), on_other(position.size(), 0);
    for (size_t t = 0; t < triangles.size(); ++t)
        for (uint32_t v : triangles[t]) (keep[t] ? on_kept : on_other)[v] = 1;
    const std::vector<Vec3> before = position;
    for (uint32_t v = 0; v < position.size(); ++v) {
        if (!on_kept[v] || on_other[v] || holder[v] >= 0) continue;  // the rim and the hold are on both faces
        double nearest = std::numeric_limits<double>::infinity();
        for (size_t t = 0; t < triangles.size(); ++t) {
            if (keep[t]) continue;
            const auto& [a, b, c] = triangles[t];
            const double s = line_hits(before[v], axis, before[a], before[b], before[c]);
            if (std::fabs(s) < std::fabs(nearest)) nearest = s;
        }
        if (std::isfinite(nearest)) position[v] = before[v] + axis * (0.5 * nearest);
    }
}

}  // namespace weft::sheet_detail
