#include "proxy/sheet_layers.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "geom/line_triangle.h"
#include "geom/topology.h"

namespace weft::sheet_detail {

namespace {

/// Closed but where it is held: both ends of every border edge held. A slab closed all round (no
/// border: an awning modelled as a thin closed solid) is closed where nothing holds it too.
bool closed_but_held(const EdgeTable& table, std::span<const int> holder) {
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        if (table.face_count(e) != 1) continue;
        if (holder[table.edges[e][0]] < 0 || holder[table.edges[e][1]] < 0) return false;
    }
    return true;
}

/// The median of the sheet's edge lengths (the upper one of an even count).
double median_edge(const EdgeTable& table, std::span<const Vec3> position) {
    std::vector<double> length_of(table.edge_count());
    for (uint32_t e = 0; e < table.edge_count(); ++e) length_of[e] = distance(position[table.edges[e][0]], position[table.edges[e][1]]);
    if (length_of.empty()) return 0;
    std::nth_element(length_of.begin(), length_of.begin() + length_of.size() / 2, length_of.end());
    return length_of[length_of.size() / 2];
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

/// A line through a vertex or along an edge of the other face hits one of its triangles whatever the
/// rounding: a triangle's own edges are taken a hair wide, in barycentric coordinates.
constexpr double kHairEdge = 1e-9;
/// Wider for a line that misses at kHairEdge: exporters round a slab's two faces apart by a few 1e-8 of
/// an edge (Quaternius' Banner: its back's outline 3e-9 m off its front's, on 0.4 m triangles).
constexpr double kRoundedEdge = 1e-6;

/// Where the line x + s·d meets triangle abc, its edges taken `edge` wide: s, or NaN when it misses.
double line_hits(const Vec3& x, const Vec3& d, const Vec3& a, const Vec3& b, const Vec3& c, double edge = kHairEdge) {
    return line_meets_triangle(x, d, a, b, c, edge);
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


/// How far the line along triangle t's normal through its centroid runs, either way, before it meets a
/// triangle facing against t: the slab's thickness there; +inf where it meets none. Either way, unlike
/// geom's inward_distance: a slab open where it is held has no inside its winding could name.
double thickness_at(size_t t, std::span<const Vec3> position, std::span<const std::array<uint32_t, 3>> triangles,
                    std::span<const Vec3> normal) {
    const auto& [a, b, c] = triangles[t];
    const Vec3 centre = (position[a] + position[b] + position[c]) / 3.0;
    double nearest = std::numeric_limits<double>::infinity();
    for (size_t u = 0; u < triangles.size(); ++u) {
        if (u == t || !(dot(normal[t], normal[u]) < 0)) continue;
        const auto& [p, q, r] = triangles[u];
        const double s = std::fabs(line_hits(centre, normal[t], position[p], position[q], position[r]));
        if (s > 0 && s < nearest) nearest = s;
    }
    return nearest;
}

/// The triangles standing within kWallAxisCosine of square to `axis` (steep) and the rest (facing).
void split_steep(std::span<const Vec3> normal, const Vec3& axis, std::vector<size_t>& steep, std::vector<size_t>& facing) {
    for (size_t t = 0; t < normal.size(); ++t) (std::fabs(dot(normal[t], axis)) < kWallAxisCosine ? steep : facing).push_back(t);
}

/// The faces' median thickness: thickness_at over the facing triangles, at most 256 of them evenly
/// spaced in triangle order; +inf when no line across meets a face looking back (no slab).
double faces_thickness(std::span<const Vec3> position, std::span<const std::array<uint32_t, 3>> triangles,
                       std::span<const Vec3> normal, std::span<const size_t> facing) {
    std::vector<double> thick;
    const size_t stride = std::max<size_t>(1, facing.size() / 256);
    for (size_t k = 0; k < facing.size(); k += stride)
        if (const double d = thickness_at(facing[k], position, triangles, normal); std::isfinite(d)) thick.push_back(d);
    if (thick.empty()) return std::numeric_limits<double>::infinity();
    std::nth_element(thick.begin(), thick.begin() + thick.size() / 2, thick.end());
    return thick[thick.size() / 2];
}

/// Which way each triangle faces along `axis`: +1 or -1, or 0 for a **wall**: a steep triangle
/// (split_steep) that is no part of a face, since the slab is thicker across it than
/// kWallThicknesses times the faces' median thickness `faces` (the strip joining a slab's faces round
/// its outline runs across the sheet; a face folded steeply, an awning's roof above its valance, is as
/// thin there as anywhere), or it lies in the plane of a wall it shares an edge with.
std::vector<int8_t> face_sides(std::span<const Vec3> position, std::span<const std::array<uint32_t, 3>> triangles,
                               const EdgeTable& table, std::span<const Vec3> normal, const Vec3& axis,
                               std::span<const size_t> steep, double faces) {
    std::vector<int8_t> side(normal.size());
    for (size_t t = 0; t < normal.size(); ++t) side[t] = dot(normal[t], axis) >= 0 ? 1 : -1;
    const double wall_beyond = kWallThicknesses * faces;
    for (size_t t : steep)
        if (thickness_at(t, position, triangles, normal) > wall_beyond) side[t] = 0;
    // A wall runs on into a tip, where the line across from a triangle's centre meets the wall
    // opposite within the thickness: a steep neighbour lying in a wall's plane is the same strip.
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t t : steep) {
            if (side[t] == 0) continue;
            for (uint32_t e : table.triangle_edges[t])
                if (e != no_edge)
                    for (uint32_t u : table.faces(e))
                    if (side[t] != 0 && u != t && side[u] == 0 && dot(normal[t], normal[u]) >= kWallPlaneCosine) side[t] = 0, grew = true;
        }
    }
    return side;
}

/// Whether every free vertex the kept face does not use (the other face's, the walls') lies over
/// the kept face: the line through it along `axis` meets a kept triangle within `reach`. Where one
/// does not, the two sides are a tube's (a sleeve round a pole) or the slab is thick, and one face
/// would leave its render vertices bound far off the cloth.
bool other_side_over_kept(std::span<const Vec3> position, std::span<const std::array<uint32_t, 3>> triangles,
                          std::span<const uint8_t> keep, std::span<const int> holder, const Vec3& axis, double reach) {
    std::vector<uint8_t> on_kept(position.size(), 0), used(position.size(), 0);
    for (size_t t = 0; t < triangles.size(); ++t)
        for (uint32_t v : triangles[t]) (keep[t] ? on_kept : used)[v] = 1;
    for (uint32_t v = 0; v < position.size(); ++v) {
        if (!used[v] || on_kept[v] || holder[v] >= 0) continue;
        bool over = false;
        for (size_t t = 0; t < triangles.size() && !over; ++t) {
            if (!keep[t]) continue;
            const auto& [a, b, c] = triangles[t];
            over = std::fabs(line_hits(position[v], axis, position[a], position[b], position[c], kRoundedEdge)) <= reach;
        }
        if (!over) return false;
    }
    return true;
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
    std::vector<size_t> steep, facing;
    split_steep(normal, axis, steep, facing);
    // One layer only where the slab is thin: a knob or a post's finial closed round its top is as
    // thick as its edges are long, and one of its sides is no cloth's surface (docs/proxy.md).
    const double faces = faces_thickness(position, triangles, normal, facing);
    const double edge = median_edge(table, position);
    if (!(faces <= kThinBelow * edge)) return {};
    const std::vector<int8_t> side = face_sides(position, triangles, table, normal, axis, steep, faces);
    double along = 0, against = 0;
    for (size_t t = 0; t < triangles.size(); ++t) {
        if (side[t] > 0) along += area[t];
        if (side[t] < 0) against += area[t];
    }
    if (!(along >= kTwoSidedFaceShare * total && against >= kTwoSidedFaceShare * total)) return {};
    const int8_t kept_side = along >= against ? 1 : -1;
    std::vector<uint8_t> keep(triangles.size());
    for (size_t t = 0; t < triangles.size(); ++t) keep[t] = side[t] == kept_side;
    bool held = false, free = false;
    for (size_t t = 0; t < triangles.size(); ++t)
        if (keep[t])
            for (uint32_t v : triangles[t]) (holder[v] >= 0 ? held : free) = true;
    if (!held || !free || !one_piece(table, keep)) return {};
    if (!other_side_over_kept(position, triangles, keep, holder, axis, kThinBelow * edge)) return {};
    if (principal) *principal = axis;
    return keep;
}

void move_to_mid_surface(std::vector<Vec3>& position, std::span<const std::array<uint32_t, 3>> triangles,
                         std::span<const uint8_t> keep, std::span<const int> holder, const Vec3& axis) {
    // The walls round a slab's outline join its two faces and are neither: a vertex of the kept face
    // on a wall still moves, and no line is measured to a wall.
    std::vector<uint8_t> wall(triangles.size(), 0);
    for (size_t t = 0; t < triangles.size(); ++t) {
        const auto& [a, b, c] = triangles[t];
        const Vec3 n = cross(position[b] - position[a], position[c] - position[a]);
        const double l = length(n);
        wall[t] = !keep[t] && !(std::fabs(dot(n, axis)) >= kWallAxisCosine * l && l > 0);
    }
    std::vector<uint8_t> on_kept(position.size(), 0), on_other(position.size(), 0);
    for (size_t t = 0; t < triangles.size(); ++t)
        if (!wall[t])
            for (uint32_t v : triangles[t]) (keep[t] ? on_kept : on_other)[v] = 1;
    const std::vector<Vec3> before = position;
    for (uint32_t v = 0; v < position.size(); ++v) {
        if (!on_kept[v] || on_other[v] || holder[v] >= 0) continue;  // the rim and the hold are on both faces
        double nearest = std::numeric_limits<double>::infinity();
        for (const double edge : {kHairEdge, kRoundedEdge}) {
            for (size_t t = 0; t < triangles.size(); ++t) {
                if (keep[t] || wall[t]) continue;
                const auto& [a, b, c] = triangles[t];
                const double s = line_hits(before[v], axis, before[a], before[b], before[c], edge);
                if (std::fabs(s) < std::fabs(nearest)) nearest = s;
            }
            if (std::isfinite(nearest)) break;
        }
        if (std::isfinite(nearest)) position[v] = before[v] + axis * (0.5 * nearest);
    }
}

}  // namespace weft::sheet_detail
