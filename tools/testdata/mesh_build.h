// Small helpers the fixture builders share: growing a Scene's node tree and a Mesh's triangles.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "scene/scene.h"

namespace weft::testdata {

/// Appends a node under `parent` (-1 for a root) with local transform `local`; fills world and
/// the parent's children. Returns its index.
int add_node(Scene& scene, const std::string& name, int parent, const Mat4& local);

/// A mesh under construction: per-vertex influences kept as lists until finish().
struct MeshBuilder {
    std::vector<Vec3> positions;
    std::vector<Vec2> uvs;
    std::vector<uint32_t> indices;
    std::vector<std::vector<Influence>> weights;  ///< one list per vertex (skinned meshes only)

    uint32_t add_vertex(const Vec3& p, const Vec2& uv, std::vector<Influence> w = {});
    void add_triangle(uint32_t a, uint32_t b, uint32_t c) { indices.insert(indices.end(), {a, b, c}); }

    /// A surface of revolution: rings at `profile` (distance along `axis` from `base`, radius),
    /// `sides` vertices each, the radius scaled by `aspect` on the second direction (an ellipse).
    /// A radius of 0 at either end is a single pole (a closed end). Wound outward (CCW seen from
    /// outside). `weight_of(p)` gives each vertex's influences; UVs are cylindrical.
    template <class WeightFn>
    void add_lathe(const Vec3& base, const Vec3& axis, const Vec3& side,
                   const std::vector<std::pair<double, double>>& profile, int sides, double aspect,
                   WeightFn weight_of);

    /// Positions, UVs, indices, area-weighted normals and (when `skin` >= 0) CSR influences.
    Mesh finish(const std::string& name, int node, int material, int skin) const;
};

/// Area-weighted vertex normals of a triangle list (unit length; +Y where a vertex has no area).
std::vector<Vec3> vertex_normals(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices);

template <class WeightFn>
void MeshBuilder::add_lathe(const Vec3& base, const Vec3& axis, const Vec3& side,
                            const std::vector<std::pair<double, double>>& profile, int sides,
                            double aspect, WeightFn weight_of) {
    const Vec3 side2 = cross(axis, side);  // turning side -> side2 is a positive turn about axis
    std::vector<std::vector<uint32_t>> rings;
    const size_t n = profile.size();
    for (size_t i = 0; i < n; ++i) {
        const auto [t, r] = profile[i];
        const double v = n > 1 ? double(i) / double(n - 1) : 0.0;
        std::vector<uint32_t> ring;
        if (r == 0) {
            const Vec3 p = base + axis * t;
            ring.push_back(add_vertex(p, {0.5, v}, weight_of(p)));
        } else {
            for (int k = 0; k < sides; ++k) {
                const double a = 2 * M_PI * k / sides;
                const Vec3 p = base + axis * t + side * (r * std::cos(a)) + side2 * (r * aspect * std::sin(a));
                ring.push_back(add_vertex(p, {double(k) / sides, v}, weight_of(p)));
            }
        }
        rings.push_back(std::move(ring));
    }
    for (size_t i = 0; i + 1 < n; ++i) {
        const auto& lo = rings[i];
        const auto& hi = rings[i + 1];
        for (int k = 0; k < sides; ++k) {
            const int k1 = (k + 1) % sides;
            if (lo.size() == 1 && hi.size() == 1) break;
            if (lo.size() == 1) {
                add_triangle(lo[0], hi[k1], hi[k]);  // start pole: faces -axis
            } else if (hi.size() == 1) {
                add_triangle(lo[k], lo[k1], hi[0]);  // end pole: faces +axis
            } else {
                add_triangle(lo[k], lo[k1], hi[k1]);
                add_triangle(lo[k], hi[k1], hi[k]);
            }
        }
    }
}

}  // namespace weft::testdata
