#include "garment/hair_on_head.h"

#include <algorithm>
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
    const std::vector<BodyTriangle> body = body_triangles_near(scene, hair, near, r.head_height);
    if (body.empty() || low.empty()) return r;
    std::vector<double> distance(low.size());
    for (size_t k = 0; k < low.size(); ++k) {
        double best = r.head_height;
        for (const BodyTriangle& t : body)
            if (box_distance(low[k], t.box) < best)
                best = std::min(best, weft::distance(low[k], nearest_on_triangle(low[k], t.a, t.b, t.c).point));
        distance[k] = best;
    }
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
    return std::string("hair lying on the head: it ends ") + garment_detail::millimetres(-m.below_neck) +
           " above the neck joint and its lowest quarter lies " + garment_detail::millimetres(m.clearance) + " (" +
           share + " of the head's " + garment_detail::millimetres(m.head_height) +
           ") from the body; hair that moves stands " + limit +
           " clear (docs/garments-by-geometry.md#hair-lying-on-the-head)";
}

void judge_hair_on_head(const Scene& scene, const HumanoidBones& bones, Garment& g) {
    if (g.class_name != "hair" || g.moves || g.matched_by == kMatchedByConfig || !g.rule_pointer.empty() ||
        !g.not_garment_reason.empty())
        return;
    const HairOnHead measured = measure_hair_on_head(scene, g, bones);
    if (!measured.measured) return;
    g.head_clearance = measured.share();
    g.head_height = measured.head_height;
    g.below_neck = measured.below_neck;
    if (!measured.lies_on_head()) return;
    g.stays_reason = hair_on_head_reason(measured);
    g.verdict = "will not move: " + g.stays_reason;
}

}  // namespace weft
