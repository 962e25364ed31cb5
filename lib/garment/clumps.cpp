#include "garment/clumps.h"

#include <algorithm>
#include <cmath>

#include "geom/topology.h"
#include "geom/weld.h"

namespace weft {

uint32_t GarmentSurface::part_of(uint32_t source) const {
    auto it = std::upper_bound(part_first.begin(), part_first.end(), source);
    return static_cast<uint32_t>(it - part_first.begin()) - 1;
}

GarmentSurface weld_garment(const Scene& scene, const Garment& garment, double relative) {
    GarmentSurface s;
    std::vector<Vec3> source_position;
    std::vector<uint32_t> source_triangles;
    s.part_first.push_back(0);
    for (const GarmentPart& part : garment.parts) {
        if (part.mesh < 0 || static_cast<size_t>(part.mesh) >= scene.meshes.size()) {
            s.part_mesh.push_back(part.mesh);
            s.part_first.push_back(s.part_first.back());
            continue;
        }
        const Mesh& mesh = scene.meshes[static_cast<size_t>(part.mesh)];
        std::vector<uint32_t> local(mesh.positions.size(), UINT32_MAX);
        for (uint32_t v : part.vertices) {
            if (v >= mesh.positions.size() || local[v] != UINT32_MAX) continue;
            local[v] = static_cast<uint32_t>(s.mesh_vertex.size());
            s.mesh_vertex.push_back(v);
            source_position.push_back(mesh.positions[v]);
        }
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
            if (a >= local.size() || b >= local.size() || c >= local.size()) continue;
            if (local[a] == UINT32_MAX || local[b] == UINT32_MAX || local[c] == UINT32_MAX) continue;
            source_triangles.insert(source_triangles.end(), {local[a], local[b], local[c]});
        }
        s.part_mesh.push_back(part.mesh);
        s.part_first.push_back(static_cast<uint32_t>(s.mesh_vertex.size()));
    }

    s.weld_tolerance = weld_tolerance_for(source_position, relative);
    WeldResult weld = weld_positions(source_position, s.weld_tolerance);
    s.welded = std::move(weld.remap);
    s.position.reserve(weld.first.size());
    for (uint32_t f : weld.first) s.position.push_back(source_position[f]);

    for (size_t t = 0; t + 2 < source_triangles.size(); t += 3) {
        uint32_t a = s.welded[source_triangles[t]], b = s.welded[source_triangles[t + 1]],
                 c = s.welded[source_triangles[t + 2]];
        if (a == b || b == c || a == c) continue;
        if (!is_finite(s.position[a]) || !is_finite(s.position[b]) || !is_finite(s.position[c])) continue;
        s.triangles.insert(s.triangles.end(), {a, b, c});
    }
    return s;
}

std::vector<Clump> island_clumps(const GarmentSurface& surface) {
    const EdgeTable table = build_edge_table(surface.triangles, surface.welded_count());
    const Islands islands = find_islands(table);
    std::vector<uint32_t> vertex_island(surface.welded_count(), UINT32_MAX);
    for (uint32_t t = 0; t < surface.triangle_count(); ++t)
        for (int k = 0; k < 3; ++k) vertex_island[surface.triangles[3 * t + k]] = islands.island[t];

    // Islands are numbered by their lowest triangle, so the numbers are dense: 0..count-1.
    std::vector<Clump> clumps(islands.count);
    for (uint32_t i = 0; i < islands.count; ++i) clumps[i].island = i;
    for (uint32_t v = 0; v < surface.welded_count(); ++v)
        if (vertex_island[v] != UINT32_MAX) clumps[vertex_island[v]].vertices.push_back(v);
    return clumps;
}

double azimuth(const Vec3& point, const WedgeAxis& axis) {
    const Vec3 side = cross(axis.direction, axis.front);  // front turned a quarter right-handed about the axis
    const Vec3 r = point - axis.origin;
    double x = dot(r, axis.front), y = dot(r, side);
    if (x == 0 && y == 0) return 0;
    return std::atan2(y, x);
}

std::vector<Clump> wedge_clumps(const GarmentSurface& surface, std::span<const uint32_t> vertices,
                                const WedgeAxis& axis, int panels, uint32_t island) {
    std::vector<Clump> out;
    if (panels < 1) return out;
    const double width = 2 * M_PI / panels;
    std::vector<Clump> by_panel(static_cast<size_t>(panels));
    for (uint32_t v : vertices) {
        if (v >= surface.welded_count() || !is_finite(surface.position[v])) continue;
        double a = azimuth(surface.position[v], axis) + width / 2;  // panel 0 centred on front
        // A column of vertices on a boundary (a ring of 24 around 12 panels has one on every
        // boundary) always goes to the panel past it; without the margin, rounding in atan2 sends
        // some such columns one way and some the other, and the panels come out uneven.
        long k = static_cast<long>(std::floor(a / width + 1e-9));
        k = ((k % panels) + panels) % panels;
        by_panel[static_cast<size_t>(k)].vertices.push_back(v);
    }
    for (int k = 0; k < panels; ++k) {
        Clump& c = by_panel[static_cast<size_t>(k)];
        if (c.vertices.empty()) continue;
        std::sort(c.vertices.begin(), c.vertices.end());
        c.wedge = k;
        c.island = island;
        out.push_back(std::move(c));
    }
    return out;
}

double angular_coverage(std::span<const Vec3> points, const WedgeAxis& axis) {
    std::vector<double> angles;
    angles.reserve(points.size());
    const Vec3 side = cross(axis.direction, axis.front);
    for (const Vec3& p : points) {
        Vec3 r = p - axis.origin;
        double x = dot(r, axis.front), y = dot(r, side);
        if (x == 0 && y == 0) continue;
        angles.push_back(std::atan2(y, x));
    }
    if (angles.size() < 2) return 0;
    std::sort(angles.begin(), angles.end());
    double gap = angles.front() + 2 * M_PI - angles.back();
    for (size_t i = 1; i < angles.size(); ++i) gap = std::max(gap, angles[i] - angles[i - 1]);
    return std::clamp(2 * M_PI - gap, 0.0, 2 * M_PI);
}

}  // namespace weft
