#include "geom/surface_shape.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "geom/line_triangle.h"

namespace weft {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Corners {
    Vec3 a, b, c;
};

Corners corners(std::span<const Vec3> p, std::span<const uint32_t> idx, uint32_t t) {
    return {p[idx[3 * size_t(t)]], p[idx[3 * size_t(t) + 1]], p[idx[3 * size_t(t) + 2]]};
}

/// Where the ray o + s·d (s > 0) meets triangle abc: s, or +infinity when it misses.
double ray_hits(const Vec3& o, const Vec3& d, const Corners& k) {
    const double along = line_meets_triangle(o, d, k.a, k.b, k.c);
    return along > 0 ? along : kInf;
}

}  // namespace

void symmetric_eigen(const std::array<std::array<double, 3>, 3>& m, std::array<double, 3>& values,
                     std::array<Vec3, 3>& vectors) {
    double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) a[i][j] = m[i][j];
    for (int sweep = 0; sweep < 64; ++sweep) {
        const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        if (!(off > 1e-30 * (a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]))) break;
        for (int p = 0; p < 2; ++p)
            for (int q = p + 1; q < 3; ++q) {
                if (a[p][q] == 0) continue;
                const double theta = 0.5 * std::atan2(2 * a[p][q], a[q][q] - a[p][p]);
                const double c = std::cos(theta), s = std::sin(theta);
                for (int k = 0; k < 3; ++k) {
                    const double kp = a[k][p], kq = a[k][q];
                    a[k][p] = c * kp - s * kq;
                    a[k][q] = s * kp + c * kq;
                }
                for (int k = 0; k < 3; ++k) {
                    const double pk = a[p][k], qk = a[q][k];
                    a[p][k] = c * pk - s * qk;
                    a[q][k] = s * pk + c * qk;
                }
                for (int k = 0; k < 3; ++k) {
                    const double kp = v[k][p], kq = v[k][q];
                    v[k][p] = c * kp - s * kq;
                    v[k][q] = s * kp + c * kq;
                }
            }
    }
    std::array<int, 3> order{0, 1, 2};
    // Descending values; ties keep the lower index first.
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return a[x][x] > a[y][y]; });
    for (int i = 0; i < 3; ++i) {
        values[i] = a[order[i]][order[i]];
        vectors[i] = normalize(Vec3{v[0][order[i]], v[1][order[i]], v[2][order[i]]});
    }
}

double inward_distance(std::span<const Vec3> positions, std::span<const uint32_t> triangle_indices,
                       std::span<const uint32_t> triangles, uint32_t t) {
    const Corners k = corners(positions, triangle_indices, t);
    const Vec3 n = cross(k.b - k.a, k.c - k.a);
    if (!(length(n) > 0)) return kInf;
    const Vec3 inward = -normalize(n);
    const Vec3 from = (k.a + k.b + k.c) / 3.0;
    double best = kInf;
    for (uint32_t u : triangles) {
        if (u == t) continue;
        const Corners o = corners(positions, triangle_indices, u);
        if (!(dot(cross(o.b - o.a, o.c - o.a), inward) > 0)) continue;  // faces away: not the other side
        // The ray cannot reach a triangle wholly behind its start or farther than the best so far.
        const double near = std::min({dot(o.a - from, inward), dot(o.b - from, inward), dot(o.c - from, inward)});
        const double far = std::max({dot(o.a - from, inward), dot(o.b - from, inward), dot(o.c - from, inward)});
        if (far <= 0 || near >= best) continue;
        best = std::min(best, ray_hits(from, inward, o));
    }
    return best;
}

SurfaceShape measure_surface(std::span<const Vec3> positions, std::span<const uint32_t> triangle_indices,
                             std::span<const uint32_t> triangles) {
    SurfaceShape shape;
    std::array<std::array<double, 3>, 3> spread{}, normals{};
    for (uint32_t t : triangles) {
        const Corners k = corners(positions, triangle_indices, t);
        const Vec3 n = cross(k.b - k.a, k.c - k.a);
        const double area = 0.5 * length(n);
        if (!(area > 0)) continue;
        shape.area += area;
        shape.centre += (k.a + k.b + k.c) * (area / 3);
        const Vec3 u = n / (2 * area);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) normals[r][c] += area * u[r] * u[c];
    }
    if (!(shape.area > 0)) return shape;
    shape.centre = shape.centre / shape.area;
    for (uint32_t t : triangles) {
        const Corners k = corners(positions, triangle_indices, t);
        const double area = 0.5 * length(cross(k.b - k.a, k.c - k.a));
        for (const Vec3& p : {k.a, k.b, k.c}) {
            const Vec3 d = p - shape.centre;
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) spread[r][c] += area / 3 * d[r] * d[c];
        }
    }
    std::array<double, 3> values{};
    symmetric_eigen(spread, values, shape.axes);
    for (int i = 0; i < 3; ++i) {
        double lo = kInf, hi = -kInf;
        for (uint32_t t : triangles)
            for (int c = 0; c < 3; ++c) {
                const double s = dot(positions[triangle_indices[3 * size_t(t) + c]], shape.axes[i]);
                lo = std::min(lo, s);
                hi = std::max(hi, s);
            }
        shape.extent[i] = hi - lo;
    }
    std::array<Vec3, 3> normal_axes{};
    symmetric_eigen(normals, values, normal_axes);
    shape.normal_axis = normal_axes[0];
    shape.flatness = values[0] / shape.area;

    // Thickness: the area-weighted median of the samples' inward distances, a miss counting 0.
    const size_t stride = std::max<size_t>(1, (triangles.size() + kThicknessSamples - 1) / kThicknessSamples);
    std::vector<std::pair<double, double>> samples;  // (distance, area)
    double sampled = 0, faced = 0;
    for (size_t i = 0; i < triangles.size(); i += stride) {
        const Corners k = corners(positions, triangle_indices, triangles[i]);
        const double area = 0.5 * length(cross(k.b - k.a, k.c - k.a));
        if (!(area > 0)) continue;
        const double d = inward_distance(positions, triangle_indices, triangles, triangles[i]);
        sampled += area;
        if (std::isfinite(d)) faced += area;
        samples.push_back({std::isfinite(d) ? d : 0.0, area});
    }
    std::sort(samples.begin(), samples.end());
    // The median, and the quartiles either side of it (how even the thickness is).
    const auto quantile = [&](double share) {
        double accumulated = 0;
        for (const auto& [d, area] : samples)
            if ((accumulated += area) >= share * sampled) return d;
        return samples.empty() ? 0.0 : samples.back().first;
    };
    shape.thickness = quantile(0.5);
    shape.thickness_quartiles = {quantile(0.25), quantile(0.75)};
    shape.faced_share = sampled > 0 ? faced / sampled : 0;
    return shape;
}

}  // namespace weft
