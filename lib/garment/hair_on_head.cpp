#include "garment/hair_on_head.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "garment/clumps.h"
#include "garment/garment_facts.h"
#include "geom/nearest_on_triangle.h"

namespace weft {

namespace {

/// A triangle of the rest of the model and its box, for a cheap lower bound on its distance.
struct BodyTriangle {
    Vec3 a, b, c;
    Bounds box;
};

/// Distance from p to a box (0 inside it).
double box_distance(const Vec3& p, const Bounds& box) {
    const double dx = std::max({box.min.x - p.x, 0.0, p.x - box.max.x});
    const double dy = std::max({box.min.y - p.y, 0.0, p.y - box.max.y});
    const double dz = std::max({box.min.z - p.z, 0.0, p.z - box.max.z});
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

/// The body's triangles bucketed in a uniform grid over the region measured (Christer Ericson,
/// "Real-Time Collision Detection", 2005, section 7.1), so a point tries the cells around it ring by
/// ring, nearest first, and stops once no farther cell can hold a nearer triangle: a dense head costs
/// what its triangles near the hair's ends cost, not all of them for every point.
class TriangleGrid {
public:
    static constexpr int kCellsPerAxis = 32;

    TriangleGrid(std::vector<BodyTriangle> triangles, const Bounds& region) : triangles_(std::move(triangles)) {
        const Vec3 extent = region.size();
        cell_ = std::max({extent.x, extent.y, extent.z, 1e-9}) / kCellsPerAxis;
        origin_ = region.min;
        const double e[3] = {extent.x, extent.y, extent.z};
        for (int a = 0; a < 3; ++a) cells_[a] = std::clamp(static_cast<int>(std::ceil(e[a] / cell_)), 1, kCellsPerAxis);
        offsets_.assign(static_cast<size_t>(cells_[0]) * cells_[1] * cells_[2] + 1, 0);
        for (int pass = 0; pass < 2; ++pass) {  // count, then fill (CSR)
            std::vector<uint32_t> cursor;
            if (pass == 1) {
                for (size_t c = 1; c < offsets_.size(); ++c) offsets_[c] += offsets_[c - 1];
                items_.resize(offsets_.back());
                cursor.assign(offsets_.begin(), offsets_.end() - 1);
            }
            for (uint32_t t = 0; t < triangles_.size(); ++t) {
                const std::array<int, 3> lo = index_of(triangles_[t].box.min), hi = index_of(triangles_[t].box.max);
                for (int x = lo[0]; x <= hi[0]; ++x)
                    for (int y = lo[1]; y <= hi[1]; ++y)
                        for (int z = lo[2]; z <= hi[2]; ++z) {
                            const size_t c = flat(x, y, z);
                            if (pass == 0) ++offsets_[c + 1];
                            else items_[cursor[c]++] = t;
                        }
            }
        }
        seen_.assign(triangles_.size(), 0);
    }

    /// The distance from p to the nearest triangle, or `cap` when none is nearer.
    double nearest(const Vec3& p, double cap) {
        ++stamp_;
        double best = cap;
        const std::array<int, 3> at = index_of(p);
        for (int ring = 0; ring <= kCellsPerAxis; ++ring) {
            for (int x = at[0] - ring; x <= at[0] + ring; ++x)
                for (int y = at[1] - ring; y <= at[1] + ring; ++y)
                    for (int z = at[2] - ring; z <= at[2] + ring; ++z) {
                        if (std::max({std::abs(x - at[0]), std::abs(y - at[1]), std::abs(z - at[2])}) != ring) continue;
                        if (x < 0 || y < 0 || z < 0 || x >= cells_[0] || y >= cells_[1] || z >= cells_[2]) continue;
                        const size_t c = flat(x, y, z);
                        for (uint32_t k = offsets_[c]; k < offsets_[c + 1]; ++k) {
                            const uint32_t t = items_[k];
                            if (seen_[t] == stamp_) continue;
                            seen_[t] = stamp_;
                            const BodyTriangle& tri = triangles_[t];
                            if (box_distance(p, tri.box) < best)
                                best = std::min(best, distance(p, nearest_on_triangle(p, tri.a, tri.b, tri.c).point));
                        }
                    }
            if (best <= ring * cell_) break;  // every cell beyond this ring is farther than best
        }
        return best;
    }

private:
    std::array<int, 3> index_of(const Vec3& p) const {
        const double v[3] = {p.x - origin_.x, p.y - origin_.y, p.z - origin_.z};
        std::array<int, 3> i{};
        for (int a = 0; a < 3; ++a)
            i[static_cast<size_t>(a)] = static_cast<int>(std::clamp(std::floor(v[a] / cell_), 0.0, double(cells_[a] - 1)));
        return i;
    }
    size_t flat(int x, int y, int z) const {
        return (static_cast<size_t>(x) * static_cast<size_t>(cells_[1]) + static_cast<size_t>(y)) * static_cast<size_t>(cells_[2]) +
               static_cast<size_t>(z);
    }

    std::vector<BodyTriangle> triangles_;
    Vec3 origin_;
    double cell_ = 1;
    std::array<int, 3> cells_{1, 1, 1};
    std::vector<uint32_t> offsets_, items_;  ///< per cell, the triangles whose box overlaps it (CSR)
    std::vector<uint32_t> seen_;             ///< per triangle, the last query that tried it
    uint32_t stamp_ = 0;
};

/// The garment's welded vertices in the lowest quarter of its height.
std::vector<Vec3> lowest_quarter(const GarmentSurface& surface, double lowest, double top) {
    const double cut = lowest + 0.25 * (top - lowest);
    std::vector<Vec3> points;
    for (const Vec3& p : surface.position)
        if (is_finite(p) && p.y <= cut) points.push_back(p);
    return points;
}

/// Every triangle with no corner in the garment whose box comes within `reach` of `near`.
std::vector<BodyTriangle> body_triangles_near(const Scene& scene, const Garment& hair, const Bounds& near, double reach) {
    Bounds grown = near;
    grown.min = grown.min - Vec3{reach, reach, reach};
    grown.max = grown.max + Vec3{reach, reach, reach};
    std::vector<std::vector<char>> in_hair(scene.meshes.size());
    for (const GarmentPart& part : hair.parts) {
        std::vector<char>& in = in_hair[static_cast<size_t>(part.mesh)];
        in.assign(scene.meshes[static_cast<size_t>(part.mesh)].positions.size(), 0);
        for (uint32_t v : part.vertices) in[v] = 1;
    }
    std::vector<BodyTriangle> out;
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        for (size_t t = 0; t < mesh.triangle_count(); ++t) {
            const uint32_t i[3] = {mesh.indices[3 * t], mesh.indices[3 * t + 1], mesh.indices[3 * t + 2]};
            bool skip = false;
            BodyTriangle tri;
            for (uint32_t k : i) {
                skip = skip || k >= mesh.positions.size() || !is_finite(mesh.positions[k]) ||
                       (!in_hair[m].empty() && in_hair[m][k]);
                if (!skip) tri.box.add(mesh.positions[k]);
            }
            if (skip || tri.box.max.x < grown.min.x || tri.box.min.x > grown.max.x || tri.box.max.y < grown.min.y ||
                tri.box.min.y > grown.max.y || tri.box.max.z < grown.min.z || tri.box.min.z > grown.max.z)
                continue;
            tri.a = mesh.positions[i[0]], tri.b = mesh.positions[i[1]], tri.c = mesh.positions[i[2]];
            out.push_back(tri);
        }
    }
    return out;
}

/// The share of the welded vertices in front of the head joint, on the side the model faces.
double share_in_front_of_head(const GarmentSurface& surface, const HumanoidBones& bones) {
    size_t in_front = 0, counted = 0;
    for (const Vec3& p : surface.position) {
        if (!is_finite(p)) continue;
        ++counted;
        in_front += bones.front * (p.z - bones.head_at.z) > 0;
    }
    return counted ? static_cast<double>(in_front) / static_cast<double>(counted) : 0;
}

}  // namespace

HairOnHead measure_hair_on_head(const Scene& scene, const Garment& hair, const HumanoidBones& bones) {
    HairOnHead r;
    if (!bones.humanoid()) return r;
    const GarmentSurface surface = weld_garment(scene, hair);
    double lowest = INFINITY, top = -INFINITY;
    for (const Vec3& p : surface.position)
        if (is_finite(p)) lowest = std::min(lowest, p.y), top = std::max(top, p.y);
    r.head_height = top - bones.neck_at.y;
    r.below_neck = bones.neck_at.y - lowest;
    if (!(r.head_height > 0) || !std::isfinite(r.head_height)) return r;
    const std::vector<Vec3> low = lowest_quarter(surface, lowest, top);
    Bounds near;
    for (const Vec3& p : low) near.add(p);
    std::vector<BodyTriangle> body = body_triangles_near(scene, hair, near, r.head_height);
    if (low.empty()) return r;
    if (body.empty()) {
        r.alone = true;
        r.front_share = share_in_front_of_head(surface, bones);
        return r;
    }
    Bounds region = near;
    for (const BodyTriangle& t : body) region.add(t.box);
    TriangleGrid grid(std::move(body), region);
    std::vector<double> distance(low.size());
    for (size_t k = 0; k < low.size(); ++k) distance[k] = grid.nearest(low[k], r.head_height);
    const auto middle = distance.begin() + static_cast<std::ptrdiff_t>(distance.size() / 2);
    std::nth_element(distance.begin(), middle, distance.end());
    r.clearance = *middle;
    r.measured = true;
    return r;
}

std::string hair_on_head_reason(const HairOnHead& m) {
    char share[32], limit[32];
    std::snprintf(share, sizeof share, "%.3f", m.share());
    std::snprintf(limit, sizeof limit, "%.2f", kHairOnHeadClearance);
    return std::string("hair lying on the head: it ends ") + garment_detail::millimetres(std::fabs(m.below_neck)) +
           (m.below_neck > 0 ? " below" : " above") + " the neck joint and its lowest quarter lies " + garment_detail::millimetres(m.clearance) + " (" +
           share + " of the head's " + garment_detail::millimetres(m.head_height) +
           ") from the body; hair that moves stands " + limit +
           " clear (docs/garments-by-geometry.md#hair-lying-on-the-head)";
}

std::string facial_hair_reason(const HairOnHead& m) {
    char front[32], limit[32];
    std::snprintf(front, sizeof front, "%.2f", m.front_share);
    std::snprintf(limit, sizeof limit, "%.1f", kFacialHairFront);
    return std::string("facial hair lying on the jaw, a hair piece alone: it ends ") + garment_detail::millimetres(-m.below_neck) +
           " above the neck joint and " + front + " of it lies in front of the head joint (facial hair from " + limit +
           "; docs/garments-by-geometry.md#a-hair-piece-alone)";
}

std::string alone_hair_reason(const HairOnHead& m) {
    char share[32], limit[32];
    std::snprintf(share, sizeof share, "%.2f", m.end_above_neck());
    std::snprintf(limit, sizeof limit, "%.3f", kAloneHairEnd);
    return std::string("hair lying on the head, a hair piece alone: it ends ") + garment_detail::millimetres(-m.below_neck) +
           " above the neck joint, " + share + " of the head's " + garment_detail::millimetres(m.head_height) +
           "; with no head in the file to measure its clearance against, hair that hangs ends within " + limit +
           " of it (docs/garments-by-geometry.md#a-hair-piece-alone)";
}

void judge_hair_on_head(const Scene& scene, const HumanoidBones& bones, Garment& g) {
    if (g.class_name != "hair" || g.moves || g.matched_by == kMatchedByConfig || !g.rule_pointer.empty() ||
        !g.not_garment_reason.empty())
        return;
    const HairOnHead measured = measure_hair_on_head(scene, g, bones);
    if (measured.lies_on_face()) {
        g.stays_reason = facial_hair_reason(measured);
        g.verdict = "will not move: " + g.stays_reason;
        return;
    }
    if (measured.alone_ends_on_head()) {
        g.stays_reason = alone_hair_reason(measured);
        g.verdict = "will not move: " + g.stays_reason;
        return;
    }
    if (!measured.measured) return;
    g.head_clearance = measured.share();
    g.head_height = measured.head_height;
    g.below_neck = measured.below_neck;
    const bool lies = g.matched_by == kMatchedByGeometry ? measured.found_by_shape_lies() : measured.lies_on_head();
    if (!lies) return;
    g.stays_reason = hair_on_head_reason(measured);
    g.verdict = "will not move: " + g.stays_reason;
}

}  // namespace weft
