#include "grow/clump_fit.h"

#include <algorithm>
#include <cmath>

#include "scene/bind_pose.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"

namespace weft {

// ---- the bone a clump hangs from --------------------------------------------------------------


double distance_to_segment(const Vec3& p, const BoneSegment& s) {
    double t = std::clamp(dot(p - s.origin, s.direction), 0.0, s.length);
    return distance(p, s.origin + s.direction * t);
}

BoneSegment BoneGeometry::segment(int node) {
    auto cached = segments_.find(node);
    if (cached != segments_.end()) return cached->second;
    BoneSegment s;
    s.origin = bind_world(scene_, node).translation_part();
    Vec3 incoming;
    if (const int parent = scene_.nodes[static_cast<size_t>(node)].parent; parent >= 0) {
        Vec3 d = s.origin - bind_world(scene_, parent).translation_part();
        if (length(d) > 1e-9) incoming = normalize(d);
    }
    int best = -1;
    double best_score = 0;
    Vec3 best_offset;
    for (int c : scene_.nodes[static_cast<size_t>(node)].children) {
        Vec3 v = bind_world(scene_, c).translation_part() - s.origin;
        if (length(v) < 1e-6) continue;
        double score = length(incoming) > 0 ? dot(normalize(v), incoming) : normalize(v).y;
        if (score > best_score) best = c, best_score = score, best_offset = v;
    }
    if (best >= 0) {
        s.direction = normalize(best_offset);
        s.length = length(best_offset);
    } else {
        if (length(incoming) > 0) s.direction = incoming;
        s.length = carried_extent(node, s);
    }
    segments_.emplace(node, s);
    return s;
}

double BoneGeometry::carried_extent(int node, const BoneSegment& s) const {
    double extent = 0;
    for (const Mesh& mesh : scene_.meshes) {
        if (!is_skinned(mesh)) continue;
        for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
            int heaviest = -1;
            double w_best = 0;
            for (const BoneWeight& bw : influences(scene_, mesh, v)) {
                const double w = bw.weight;
                if (w > w_best || (w == w_best && bw.bone < heaviest)) heaviest = bw.bone, w_best = w;
            }
            if (heaviest != node || !is_finite(mesh.positions[v])) continue;
            extent = std::max(extent, dot(mesh.positions[v] - s.origin, s.direction));
        }
    }
    return extent;
}

// ---- the garment's vertices and weights -------------------------------------------------------


Surface make_surface(const Scene& scene, const Garment& garment) {
    Surface out;
    out.s = weld_garment(scene, garment);
    const uint32_t nw = out.s.welded_count(), ns = out.s.source_count();
    out.source_offsets.assign(nw + 1, 0);
    for (uint32_t v = 0; v < ns; ++v) ++out.source_offsets[out.s.welded[v] + 1];
    for (uint32_t w = 0; w < nw; ++w) out.source_offsets[w + 1] += out.source_offsets[w];
    out.source_list.resize(ns);
    std::vector<uint32_t> fill(out.source_offsets.begin(), out.source_offsets.end() - 1);
    for (uint32_t v = 0; v < ns; ++v) out.source_list[fill[out.s.welded[v]]++] = v;

    out.weights.resize(nw);
    for (uint32_t w = 0; w < nw; ++w) {
        if (out.source_offsets[w] == out.source_offsets[w + 1]) continue;
        const uint32_t v = out.source_list[out.source_offsets[w]];
        for (const BoneWeight& bw : influences(scene, out.mesh_of(scene, v), out.s.mesh_vertex[v]))
            out.weights[w].push_back({bw.bone, static_cast<double>(bw.weight)});
    }
    return out;
}

/// The node carrying most of the clump's weight (ties to the lower node), or -1.
int holder_of(const Surface& surface, const std::vector<uint32_t>& vertices) {
    std::map<int, double> total;
    for (uint32_t w : vertices)
        for (const auto& [node, weight] : surface.weights[w]) total[node] += weight;
    int best = -1;
    double best_w = 0;
    for (const auto& [node, weight] : total)
        if (weight > best_w) best = node, best_w = weight;  // map order: ties keep the lower node
    return best;
}

// ---- anchoring and the polyline ----------------------------------------------------------------


Anchored anchor_clump(const Surface& surface, const std::vector<uint32_t>& vertices, const BoneSegment& bone) {
    Anchored a;
    if (vertices.empty()) return a;
    auto at = [&](uint32_t v) -> const Vec3& { return surface.s.position[v]; };
    // The clump's two ends: its extremes along its own line (two farthest-point sweeps from its
    // centroid), each end the centroid of the vertices within a fiftieth of the line's length of
    // it, so a strand's root row or a panel's waistband stays whole.
    Vec3 centre;
    for (uint32_t v : vertices) centre += at(v);
    centre = centre / double(vertices.size());
    auto farthest = [&](const Vec3& from) {
        Vec3 best = from;
        double best_d = -1;
        for (uint32_t v : vertices)
            if (const double d = distance(at(v), from); d > best_d) best_d = d, best = at(v);
        return best;
    };
    const Vec3 p = farthest(centre), q = farthest(p);
    const double line = distance(p, q);
    const Vec3 along = line > 0 ? (q - p) / line : Vec3{0, 1, 0};
    Vec3 end_p, end_q;
    size_t count_p = 0, count_q = 0;
    for (uint32_t v : vertices) {
        const double t = dot(at(v) - p, along);
        if (t <= 0.02 * line) end_p += at(v), ++count_p;
        if (t >= 0.98 * line) end_q += at(v), ++count_q;
    }
    end_p = count_p ? end_p / double(count_p) : p;
    end_q = count_q ? end_q / double(count_q) : q;
    // The anchored end is the one nearer the bone (measured to its segment: a head bone sits at
    // the skull's base, and the crown a fringe grows from is farther from that point than the
    // fringe's tips are); where both are as near, the upper one: a hanging piece hangs from its top.
    const double dp = distance_to_segment(end_p, bone), dq = distance_to_segment(end_q, bone);
    if (std::fabs(dp - dq) > 0.01 * line)
        a.anchor = dp < dq ? end_p : end_q;
    else
        a.anchor = end_p.y >= end_q.y ? end_p : end_q;
    a.reach.resize(vertices.size());
    for (size_t i = 0; i < vertices.size(); ++i) {
        a.reach[i] = distance(at(vertices[i]), a.anchor);
        a.length = std::max(a.length, a.reach[i]);
    }
    return a;
}

/// docs/growth.md#anchor-and-polyline: bin the vertices by distance from the anchored end and join the bins'
/// centroids, so the chain follows the piece's own curve; then resample to `segments` equal lengths.
std::vector<Vec3> fit_polyline(const Surface& surface, const std::vector<uint32_t>& vertices, const Anchored& a,
                               int segments) {
    const int bins = std::max(2 * segments, 6);
    const double width = a.length / bins;
    std::vector<Vec3> sum(static_cast<size_t>(bins));
    std::vector<size_t> count(static_cast<size_t>(bins), 0);
    Vec3 tip_sum;
    size_t tip_count = 0;
    for (size_t i = 0; i < vertices.size(); ++i) {
        const Vec3& x = surface.s.position[vertices[i]];
        int b = width > 0 ? static_cast<int>(a.reach[i] / width) : 0;
        b = std::clamp(b, 0, bins - 1);
        sum[static_cast<size_t>(b)] += x;
        ++count[static_cast<size_t>(b)];
        // The tip is where the geometry ends: the centroid of the farthest half bin.
        if (a.reach[i] >= a.length - width / 2) tip_sum += x, ++tip_count;
    }
    std::vector<Vec3> raw{a.anchor};
    for (int b = 0; b < bins; ++b)
        if (count[static_cast<size_t>(b)]) raw.push_back(sum[static_cast<size_t>(b)] / double(count[static_cast<size_t>(b)]));
    if (tip_count) raw.push_back(tip_sum / double(tip_count));

    std::vector<double> cumulative{0};
    for (size_t i = 1; i < raw.size(); ++i) cumulative.push_back(cumulative.back() + distance(raw[i - 1], raw[i]));
    const double total = cumulative.back();
    std::vector<Vec3> out;
    for (int k = 0; k <= segments; ++k) {
        const double at = total * k / segments;
        size_t i = 1;
        while (i + 1 < raw.size() && cumulative[i] < at) ++i;
        const double span = cumulative[i] - cumulative[i - 1];
        const double t = span > 0 ? std::clamp((at - cumulative[i - 1]) / span, 0.0, 1.0) : 0.0;
        out.push_back(raw.size() > 1 ? raw[i - 1] + (raw[i] - raw[i - 1]) * t : raw[0]);
    }
    return out;
}


Projection project(const std::vector<Vec3>& line, const std::vector<double>& cumulative, const Vec3& x) {
    Projection best;
    best.distance = INFINITY;
    for (size_t k = 0; k + 1 < line.size(); ++k) {
        const Vec3 d = line[k + 1] - line[k];
        const double len2 = length_squared(d);
        const double t = len2 > 0 ? std::clamp(dot(x - line[k], d) / len2, 0.0, 1.0) : 0.0;
        const double dist = distance(x, line[k] + d * t);
        if (dist < best.distance) {
            best.segment = static_cast<int>(k);
            best.t = t;
            best.distance = dist;
            best.along = cumulative[k] + t * (cumulative[k + 1] - cumulative[k]);
        }
    }
    return best;
}

// ---- bones -------------------------------------------------------------------------------------

/// A rotation whose +Y is `y` and whose +Z is as close to `z_hint` as that allows (falling back on
/// `x_hint` when `z_hint` is parallel to `y`): each bone's axis along its segment, its twist
/// following the bone it hangs from.
Mat3 frame_along(const Vec3& y, const Vec3& z_hint, const Vec3& x_hint) {
    Vec3 x = cross(y, z_hint);
    if (length(x) < 1e-6) {
        Vec3 z = cross(x_hint, y);
        x = cross(y, z);
    }
    x = normalize(x);
    const Vec3 z = cross(x, y);
    Mat3 r;
    for (int i = 0; i < 3; ++i) {
        r.m[i][0] = x[i];
        r.m[i][1] = y[i];
        r.m[i][2] = z[i];
    }
    return r;
}

Mat4 rigid(const Vec3& position, const Mat3& rotation) {
    Mat4 m;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) m.at(r, c) = rotation.m[r][c];
        m.at(r, 3) = position[r];
    }
    return m;
}

Vec3 column(const Mat4& m, int c) { return normalize(Vec3{m.at(0, c), m.at(1, c), m.at(2, c)}); }

/// A skirt panel anchored at its waistband: the centroid of its top fiftieth (by height), so the
/// chain roots where the skirt meets the hips, whatever bone its hem is weighted to.
Anchored anchor_at_top(const Surface& surface, const std::vector<uint32_t>& vertices) {
    Anchored a;
    if (vertices.empty()) return a;
    double top = -INFINITY, bottom = INFINITY;
    for (uint32_t v : vertices) top = std::max(top, surface.s.position[v].y), bottom = std::min(bottom, surface.s.position[v].y);
    Vec3 sum;
    size_t count = 0;
    for (uint32_t v : vertices)
        if (surface.s.position[v].y >= top - 0.02 * (top - bottom)) sum += surface.s.position[v], ++count;
    a.anchor = sum / double(count);
    a.reach.resize(vertices.size());
    for (size_t i = 0; i < vertices.size(); ++i) {
        a.reach[i] = distance(surface.s.position[vertices[i]], a.anchor);
        a.length = std::max(a.length, a.reach[i]);
    }
    return a;
}

}  // namespace weft
