// A compressed model against the uncompressed one it was made from (EXT_meshopt_compression,
// KHR_draco_mesh_compression): vertices matched by position within a material, since a coder may
// reorder them.
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "scene/scene.h"

namespace weft::test {

struct NearestVertex {
    const Mesh* mesh = nullptr;
    size_t vertex = 0;
    double distance = std::numeric_limits<double>::infinity();  ///< per-axis (Chebyshev)
};

/// The vertex of `s` with material `material` nearest to `p`.
inline NearestVertex nearest_vertex(const Scene& s, const std::string& material, const Vec3& p) {
    NearestVertex best;
    for (const Mesh& m : s.meshes) {
        if (s.materials[size_t(m.material)] != material) continue;
        for (size_t v = 0; v < m.vertex_count(); ++v) {
            const Vec3& q = m.positions[v];
            const double d = std::max({std::abs(p.x - q.x), std::abs(p.y - q.y), std::abs(p.z - q.z)});
            if (d < best.distance) best = {&m, v, d};
        }
    }
    return best;
}

/// The largest per-axis distance from each vertex of `a` to the nearest vertex of `b` with the
/// same material, over all of `a`.
inline double worst_nearest(const Scene& a, const Scene& b) {
    double worst = 0;
    for (const Mesh& m : a.meshes)
        for (const Vec3& p : m.positions)
            worst = std::max(worst, nearest_vertex(b, a.materials[size_t(m.material)], p).distance);
    return worst;
}

inline size_t triangles_of(const Scene& s, const std::string& material) {
    size_t n = 0;
    for (const Mesh& m : s.meshes)
        if (s.materials[size_t(m.material)] == material) n += m.triangle_count();
    return n;
}

}  // namespace weft::test
