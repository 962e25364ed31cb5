#include "garment/sewn_in.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "garment/clumps.h"
#include "geom/topology.h"

namespace weft {

namespace {

/// Positions of the meshes not in the garment, bucketed by a grid of `cell` metres.
struct SeamGrid {
    double cell;
    std::unordered_map<uint64_t, std::vector<Vec3>> buckets;
    uint64_t key(int64_t x, int64_t y, int64_t z) const {
        return (static_cast<uint64_t>(x) * 73856093u) ^ (static_cast<uint64_t>(y) * 19349663u) ^
               (static_cast<uint64_t>(z) * 83492791u);
    }
    // Clamped so that a far-off (finite) position cannot overflow the cell index.
    int64_t at(double v) const { return static_cast<int64_t>(std::clamp(std::floor(v / cell), -1e15, 1e15)); }
    void add(const Vec3& p) { buckets[key(at(p.x), at(p.y), at(p.z))].push_back(p); }
    bool near(const Vec3& p, double tolerance) const {
        for (int64_t dx = -1; dx <= 1; ++dx)
            for (int64_t dy = -1; dy <= 1; ++dy)
                for (int64_t dz = -1; dz <= 1; ++dz) {
                    auto it = buckets.find(key(at(p.x) + dx, at(p.y) + dy, at(p.z) + dz));
                    if (it == buckets.end()) continue;
                    for (const Vec3& q : it->second)
                        if (distance(p, q) <= tolerance) return true;
                }
        return false;
    }
};

}  // namespace

SewnIn measure_sewn_in(const Scene& scene, const Garment& g) {
    SewnIn sewn;
    const GarmentSurface surface = weld_garment(scene, g);
    if (surface.triangle_count() == 0) return sewn;
    const EdgeTable table = build_edge_table(surface.triangles, surface.welded_count());
    std::vector<char> open(surface.welded_count(), 0);
    for (uint32_t e = 0; e < table.edge_count(); ++e)
        if (table.face_count(e) == 1) open[table.edges[e][0]] = open[table.edges[e][1]] = 1;
    // A seam vertex is where a vertex not in the garment lies: the exporter split one surface by material.
    const double tolerance = std::max(10 * surface.weld_tolerance, 1e-9);
    SeamGrid grid{2 * tolerance, {}};
    std::vector<std::vector<char>> in_garment(scene.meshes.size());
    for (const GarmentPart& part : g.parts) {
        std::vector<char>& in = in_garment[static_cast<size_t>(part.mesh)];
        in.assign(scene.meshes[static_cast<size_t>(part.mesh)].positions.size(), 0);
        for (uint32_t v : part.vertices) in[v] = 1;
    }
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        for (size_t v = 0; v < scene.meshes[m].positions.size(); ++v) {
            const Vec3& p = scene.meshes[m].positions[v];
            if (is_finite(p) && (in_garment[m].empty() || !in_garment[m][v])) grid.add(p);
        }
    std::vector<Vec3> seam;
    for (uint32_t w = 0; w < surface.welded_count(); ++w) {
        if (!open[w]) continue;
        if (!grid.near(surface.position[w], tolerance)) return sewn;  // a free edge: it can hang from the rest
        seam.push_back(surface.position[w]);
    }
    if (seam.empty()) return sewn;  // closed: nothing sewn
    sewn.all_round = true;
    for (const Vec3& p : surface.position) {
        if (!is_finite(p)) continue;
        double d = INFINITY;
        for (const Vec3& s : seam) d = std::min(d, distance(p, s));
        sewn.reach = std::max(sewn.reach, d);
    }
    return sewn;
}

std::string sewn_in_reason(const SewnIn& sewn, double span) {
    if (!sewn.all_round || !(span > 0) || sewn.reach >= kSewnInReach * span) return "";
    char text[240];
    std::snprintf(text, sizeof text,
                  "sewn into the body all round: every open edge is an edge of the mesh around it and no point "
                  "lies farther than %.0f mm from that seam, %.2f of its span (a garment that hangs needs %.2f; "
                  "docs/garments-by-geometry.md#sewn-in)",
                  sewn.reach * 1000, sewn.reach / span, kSewnInReach);
    return text;
}

}  // namespace weft
