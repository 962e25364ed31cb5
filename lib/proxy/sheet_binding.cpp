#include "proxy/sheet_binding.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "geom/nearest_on_triangle.h"
#include "proxy/core/render_binding.h"
#include "proxy/sheet_detail.h"

namespace weft::sheet_detail {

namespace {

constexpr int kBindingIterations = 8;  // near the cloth the iteration settles in two or three

// Solves [e1 e2 n] (u, v, h) = d by Cramer's rule; false when the three are (nearly) coplanar.
bool solve_frame(const Vec3& e1, const Vec3& e2, const Vec3& n, const Vec3& d, Vec3& out) {
    const double det = dot(e1, cross(e2, n));
    const double scale = length(e1) * length(e2) * length(n);
    if (!(std::abs(det) > 1e-9 * scale)) return false;
    out = {dot(d, cross(e2, n)) / det, dot(e1, cross(d, n)) / det, dot(e1, cross(e2, d)) / det};
    return is_finite(out);
}

/// The coordinates (u, v, h) that place `q` on the triangle (a, b, c) of `x`, as deform_render_mesh
/// places it with particle normals `normal`; false where no frame of the triangle solves.
bool solve_binding(const Vec3& q, const std::array<uint32_t, 3>& triangle, const std::vector<Vec3>& x,
                   const std::vector<Vec3>& normal, Vec3& kept) {
    // Named, not a structured binding: the lambda below captures them (clang refuses bindings there).
    const uint32_t a = triangle[0], b = triangle[1], c = triangle[2];
    const Vec3 e1 = x[b] - x[a], e2 = x[c] - x[a], d = q - x[a];
    // Along the face normal first, then along the normal interpolated where that lands, so the
    // rest pose gives the source position back (docs/proxy.md#binding). Far from its triangle
    // (a pole bound to the cloth it holds) the iteration can run away: the interpolated normal
    // turns with the extrapolated coordinates and an offset of metres swings with it. So every
    // iterate is placed as deform_render_mesh places it and the nearest to the source is kept.
    const auto placed_at = [&](const Vec3& k) {
        const Vec3 n = normal[a] * (1 - k.x - k.y) + normal[b] * k.x + normal[c] * k.y;
        const double l = length(n);
        return x[a] * (1 - k.x - k.y) + x[b] * k.x + x[c] * k.y + (l > 0 ? n * (k.z / l) : Vec3{});
    };
    Vec3 k;
    if (!solve_frame(e1, e2, normalize(cross(e1, e2)), d, k)) return false;
    kept = k;
    double kept_error = distance(placed_at(k), q);
    for (int i = 0; i < kBindingIterations && kept_error > 0; ++i) {
        const Vec3 n = normal[a] * (1 - k.x - k.y) + normal[b] * k.x + normal[c] * k.y;
        Vec3 next;
        if (!(length(n) > 0) || !solve_frame(e1, e2, normalize(n), d, next)) break;
        k = next;
        if (const double e = distance(placed_at(k), q); e < kept_error) kept = k, kept_error = e;
    }
    // Where that leaves the vertex off its place (it converges slowly far from the triangle),
    // Newton's method on the placement itself, its Jacobian by differences, finishes it.
    const double size = std::max(length(e1), length(e2));
    for (int i = 0; i < kBindingIterations && kept_error > 1e-12 * (size + std::abs(kept.z)); ++i) {
        const Vec3 r = placed_at(kept) - q;
        const double step[3] = {1e-7, 1e-7, 1e-7 * (size + std::abs(kept.z))};
        Vec3 column[3];
        for (int j = 0; j < 3; ++j) {
            Vec3 moved = kept;
            (j == 0 ? moved.x : j == 1 ? moved.y : moved.z) += step[j];
            column[j] = (placed_at(moved) - q - r) / step[j];
        }
        Vec3 delta;
        if (!solve_frame(column[0], column[1], column[2], r * -1.0, delta)) break;
        const Vec3 next = kept + delta;
        const double e = distance(placed_at(next), q);
        if (!(e < kept_error)) break;
        kept = next, kept_error = e;
    }
    return true;
}

}  // namespace

BindingStats bind_render_mesh(ClothProxy& proxy, std::span<const Vec3> position, std::span<const uint8_t> bind) {
    BindingStats stats;
    const size_t vertices = position.size();
    stats.vertices = static_cast<uint32_t>(vertices);
    const std::vector<Vec3>& x = proxy.rest_position;
    std::vector<Vec3> normal(x.size());
    particle_normals(proxy, x, normal);

    // Each particle's lowest triangle and its corner there.
    std::vector<uint32_t> first_triangle(x.size(), no_triangle);
    std::vector<uint8_t> first_corner(x.size(), 0);
    for (uint32_t t = 0; t < proxy.triangles.size(); ++t)
        for (uint8_t k = 0; k < 3; ++k) {
            const uint32_t p = proxy.triangles[t][k];
            if (first_triangle[p] == no_triangle) first_triangle[p] = t, first_corner[p] = k;
        }
    // Triangle bounds, for pruning the nearest-triangle search.
    struct Box {
        Vec3 lo, hi;
    };
    std::vector<Box> box(proxy.triangles.size());
    for (size_t t = 0; t < box.size(); ++t) {
        const auto& [a, b, c] = proxy.triangles[t];
        box[t] = {min(min(x[a], x[b]), x[c]), max(max(x[a], x[b]), x[c])};
    }

    proxy.binding_triangle.assign(vertices, no_triangle);
    proxy.binding_coordinates.assign(vertices, Vec3{});
    for (size_t v = 0; v < vertices; ++v) {
        if (!bind[v]) continue;
        const Vec3& q = position[v];
        const uint32_t p = v < proxy.vertex_particle.size() ? proxy.vertex_particle[v] : no_particle;
        if (p != no_particle && first_triangle[p] != no_triangle) {
            proxy.binding_triangle[v] = first_triangle[p];
            proxy.binding_coordinates[v] = first_corner[p] == 1 ? Vec3{1, 0, 0} : first_corner[p] == 2 ? Vec3{0, 1, 0} : Vec3{};
            continue;
        }
        // The nearest triangle (the lowest index on a tie).
        uint32_t best = no_triangle;
        double best_d2 = std::numeric_limits<double>::infinity();
        for (uint32_t t = 0; t < proxy.triangles.size(); ++t) {
            const Vec3 outside = max(max(box[t].lo - q, q - box[t].hi), Vec3{});
            if (length_squared(outside) >= best_d2) continue;
            const auto& [a, b, c] = proxy.triangles[t];
            const double d2 = length_squared(nearest_on_triangle(q, x[a], x[b], x[c]).point - q);
            if (d2 < best_d2) best_d2 = d2, best = t;
        }
        if (best == no_triangle) continue;
        Vec3 kept;
        if (!solve_binding(q, proxy.triangles[best], x, normal, kept)) continue;
        proxy.binding_triangle[v] = best;
        proxy.binding_coordinates[v] = kept;
    }

    std::vector<Vec3> placed(vertices);
    deform_render_mesh(proxy, x, normal, placed);
    double sum = 0;
    for (size_t v = 0; v < vertices; ++v) {
        if (proxy.binding_triangle[v] == no_triangle) continue;
        ++stats.bound;
        const double e = distance(placed[v], position[v]);
        stats.rest_error_max = std::max(stats.rest_error_max, e);
        sum += e;
    }
    stats.rest_error_mean = stats.bound ? sum / stats.bound : 0;
    return stats;
}

}  // namespace weft::sheet_detail
