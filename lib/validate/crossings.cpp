#include "validate/crossings.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "geom/nearest_on_triangle.h"

namespace weft {

namespace {

/// Sign of the volume a, b, c, d span: which side of plane (a, b, c) d lies on.
double side(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) { return dot(cross(b - a, c - a), d - a); }

/// Segment p-q passes through the interior of triangle (a, b, c): its ends strictly either side of the
/// plane, and the line strictly inside the three edges (the scalar triple products of Christer Ericson,
/// "Real-Time Collision Detection", 2005, line against triangle, all of one sign).
bool segment_crosses(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
    const double sp = side(a, b, c, p), sq = side(a, b, c, q);
    if (!((sp > 0 && sq < 0) || (sp < 0 && sq > 0))) return false;
    const Vec3 pq = q - p, pa = a - p, pb = b - p, pc = c - p;
    const double u = dot(pq, cross(pc, pb)), v = dot(pq, cross(pa, pc)), w = dot(pq, cross(pb, pa));
    return (u > 0 && v > 0 && w > 0) || (u < 0 && v < 0 && w < 0);
}

/// Two triangles in general position cross exactly when an edge of one passes through the other.
bool triangles_cross(const std::array<Vec3, 3>& s, const std::array<Vec3, 3>& t) {
    for (int k = 0; k < 3; ++k) {
        if (segment_crosses(s[k], s[(k + 1) % 3], t[0], t[1], t[2])) return true;
        if (segment_crosses(t[k], t[(k + 1) % 3], s[0], s[1], s[2])) return true;
    }
    return false;
}

bool share_corner(const std::array<uint32_t, 3>& a, const std::array<uint32_t, 3>& b) {
    for (uint32_t i : a)
        if (i == b[0] || i == b[1] || i == b[2]) return true;
    return false;
}

/// The distance between segments p1-q1 and p2-q2 (Ericson, "Real-Time Collision Detection", 2005,
/// section 5.1.9: the closest points of the two lines, each clamped to its segment in turn).
double segment_distance(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
    const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    double s = 0, t = 0;
    if (!(a > 0)) {
        t = e > 0 ? std::clamp(f / e, 0.0, 1.0) : 0;
    } else {
        const double c = dot(d1, r);
        if (!(e > 0)) {
            s = std::clamp(-c / a, 0.0, 1.0);
        } else {
            const double b = dot(d1, d2), denominator = a * e - b * b;
            s = denominator > 0 ? std::clamp((b * f - c * e) / denominator, 0.0, 1.0) : 0;
            t = (b * s + f) / e;
            if (t < 0) t = 0, s = std::clamp(-c / a, 0.0, 1.0);
            else if (t > 1) t = 1, s = std::clamp((b - c) / a, 0.0, 1.0);
        }
    }
    return length((p1 + d1 * s) - (p2 + d2 * t));
}

/// The distance between two triangles that do not cross: the nearest of a corner to the other
/// triangle and of an edge to an edge of the other.
double triangle_distance(const std::array<Vec3, 3>& s, const std::array<Vec3, 3>& t) {
    double nearest = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 3; ++k) {
        nearest = std::min(nearest, length(nearest_on_triangle(s[k], t[0], t[1], t[2]).point - s[k]));
        nearest = std::min(nearest, length(nearest_on_triangle(t[k], s[0], s[1], s[2]).point - t[k]));
        for (int j = 0; j < 3; ++j)
            nearest = std::min(nearest, segment_distance(s[k], s[(k + 1) % 3], t[j], t[(j + 1) % 3]));
    }
    return nearest;
}

double longest_edge(const std::array<Vec3, 3>& s) {
    return std::max({length(s[1] - s[0]), length(s[2] - s[1]), length(s[0] - s[2])});
}

/// The pair did not cross at rest but lay nearer than `thickness` and kTouchShare of its longest edge.
bool touched_at_rest(const std::array<Vec3, 3>& s, const std::array<Vec3, 3>& t, double thickness) {
    if (triangles_cross(s, t)) return false;
    const double reach = std::min(thickness, kTouchShare * std::max(longest_edge(s), longest_edge(t)));
    return triangle_distance(s, t) < reach;
}

struct CellEntry {
    int64_t x, y, z;
    uint32_t triangle;
    bool operator<(const CellEntry& o) const {
        if (x != o.x) return x < o.x;
        if (y != o.y) return y < o.y;
        if (z != o.z) return z < o.z;
        return triangle < o.triangle;
    }
    bool same_cell(const CellEntry& o) const { return x == o.x && y == o.y && z == o.z; }
};

/// The pairs of usable triangles sharing no corner whose boxes overlap, each once, as a << 32 | b
/// with a < b.
std::vector<uint64_t> candidate_pairs(std::span<const Vec3> x, std::span<const std::array<uint32_t, 3>> triangles) {
    const size_t count = triangles.size();
    std::vector<std::array<Vec3, 2>> box(count);  // lo, hi
    std::vector<uint8_t> usable(count, 0);
    double extent_sum = 0, extent_max = 0;
    size_t used = 0;
    for (size_t t = 0; t < count; ++t) {
        const std::array<uint32_t, 3>& tri = triangles[t];
        if (tri[0] >= x.size() || tri[1] >= x.size() || tri[2] >= x.size()) continue;
        const Vec3 &a = x[tri[0]], &b = x[tri[1]], &c = x[tri[2]];
        if (!is_finite(a) || !is_finite(b) || !is_finite(c)) continue;
        usable[t] = 1;
        for (int k = 0; k < 3; ++k) {
            box[t][0][k] = std::min({a[k], b[k], c[k]});
            box[t][1][k] = std::max({a[k], b[k], c[k]});
            const double e = box[t][1][k] - box[t][0][k];
            extent_max = std::max(extent_max, e);
            extent_sum += e;
        }
        ++used;
    }
    if (used < 2) return {};
    // Cells of about a triangle's size, and never under a quarter of the largest: a torn-apart sheet
    // then costs at most 125 cells a triangle.
    const double cell = std::max({extent_sum / (3.0 * static_cast<double>(used)), extent_max / 4, 1e-9});
    std::vector<CellEntry> entries;
    entries.reserve(used * 8);
    for (size_t t = 0; t < count; ++t) {
        if (!usable[t]) continue;
        int64_t lo[3], hi[3];
        for (int k = 0; k < 3; ++k) {
            lo[k] = static_cast<int64_t>(std::floor(box[t][0][k] / cell));
            hi[k] = static_cast<int64_t>(std::floor(box[t][1][k] / cell));
        }
        for (int64_t i = lo[0]; i <= hi[0]; ++i)
            for (int64_t j = lo[1]; j <= hi[1]; ++j)
                for (int64_t k = lo[2]; k <= hi[2]; ++k) entries.push_back({i, j, k, static_cast<uint32_t>(t)});
    }
    std::sort(entries.begin(), entries.end());
    std::vector<uint64_t> pairs;
    for (size_t begin = 0; begin < entries.size();) {
        size_t end = begin + 1;
        while (end < entries.size() && entries[end].same_cell(entries[begin])) ++end;
        for (size_t p = begin; p < end; ++p)
            for (size_t q = p + 1; q < end; ++q) {
                const uint32_t a = entries[p].triangle, b = entries[q].triangle;
                bool overlap = true;
                for (int k = 0; k < 3 && overlap; ++k)
                    overlap = box[a][0][k] <= box[b][1][k] && box[b][0][k] <= box[a][1][k];
                if (overlap && !share_corner(triangles[a], triangles[b])) pairs.push_back(uint64_t{a} << 32 | b);
            }
        begin = end;
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    return pairs;
}

std::array<Vec3, 3> corners(std::span<const Vec3> x, const std::array<uint32_t, 3>& t) { return {x[t[0]], x[t[1]], x[t[2]]}; }

}  // namespace

uint32_t count_crossing_triangles(std::span<const Vec3> x, std::span<const std::array<uint32_t, 3>> triangles) {
    uint32_t crossing = 0;
    for (uint64_t pair : candidate_pairs(x, triangles))
        if (triangles_cross(corners(x, triangles[pair >> 32]), corners(x, triangles[pair & 0xffffffffu]))) ++crossing;
    return crossing;
}

uint32_t count_crossing_triangles(std::span<const Vec3> x, std::span<const std::array<uint32_t, 3>> triangles,
                                  std::span<const Vec3> rest, double thickness) {
    uint32_t crossing = 0;
    for (uint64_t pair : candidate_pairs(x, triangles)) {
        const std::array<uint32_t, 3>& s = triangles[pair >> 32];
        const std::array<uint32_t, 3>& t = triangles[pair & 0xffffffffu];
        if (!triangles_cross(corners(x, s), corners(x, t))) continue;
        // A rest pose with fewer particles than x (never so in a proxy) excuses nothing.
        const bool at_rest = rest.size() == x.size() && is_finite(rest[s[0]]) && is_finite(rest[s[1]]) &&
                             is_finite(rest[s[2]]) && is_finite(rest[t[0]]) && is_finite(rest[t[1]]) && is_finite(rest[t[2]]);
        if (at_rest && touched_at_rest(corners(rest, s), corners(rest, t), thickness)) continue;
        ++crossing;
    }
    return crossing;
}

}  // namespace weft
