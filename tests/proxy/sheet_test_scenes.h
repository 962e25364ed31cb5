// Scenes built in code for the sheet-builder suites: a hand-made mesh (tests/geom/test_meshes.h)
// on a node, optionally under a bone, optionally skinned; and the brute-force checks every built
// proxy must pass.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "geom/test_meshes.h"
#include "proxy/core/cloth_proxy.h"
#include "scene/import.h"
#include "scene/scene.h"

namespace weft::test {

/// A model the test expects to import: its Scene (a failure names the file).
inline Scene import_ok(const std::filesystem::path& file) {
    ImportResult r = import_scene(file);
    EXPECT_TRUE(r.ok()) << file;
    return std::move(r.scene);
}

/// Root (node 0) -> "SheetNode" (node 1) carrying `mesh` as mesh 0, material "Cloth", in model space.
inline Scene scene_of(const TriMesh& mesh, const std::string& mesh_name = "Sheet") {
    Scene s;
    s.source_path = "in_memory.glb";
    s.format = "glb";
    s.materials = {"Cloth"};
    Node root;
    root.name = "Root";
    root.children = {1};
    Node node;
    node.name = "SheetNode";
    node.parent = 0;
    node.meshes = {0};
    s.nodes = {root, node};
    Mesh m;
    m.name = mesh_name;
    m.node_name = "SheetNode";
    m.node = 1;
    m.material = 0;
    m.positions = mesh.positions;
    m.indices = mesh.indices;
    s.meshes.push_back(std::move(m));
    return s;
}

/// Adds a node under `parent` with a world transform, returns its index.
inline int add_node(Scene& s, const std::string& name, int parent, const Mat4& world) {
    Node n;
    n.name = name;
    n.parent = parent;
    n.world = world;
    n.local = parent >= 0 ? s.nodes[parent].world.inverted() * world : world;
    s.nodes.push_back(n);
    const int index = static_cast<int>(s.nodes.size()) - 1;
    if (parent >= 0) s.nodes[parent].children.push_back(index);
    return index;
}

/// Adds a mesh on a node (and to the node's mesh list), returns its index.
inline int add_mesh(Scene& s, const TriMesh& tri, const std::string& name, int node, const std::string& material) {
    Mesh m;
    m.name = name;
    m.node = node;
    m.node_name = s.nodes[node].name;
    auto it = std::find(s.materials.begin(), s.materials.end(), material);
    m.material = static_cast<int>(it - s.materials.begin());
    if (it == s.materials.end()) s.materials.push_back(material);
    m.positions = tri.positions;
    m.indices = tri.indices;
    s.meshes.push_back(std::move(m));
    const int index = static_cast<int>(s.meshes.size()) - 1;
    s.nodes[node].meshes.push_back(index);
    return index;
}

/// The particle a source vertex (index into the concatenated source meshes) welded into.
inline uint32_t particle_of(const ClothProxy& p, uint32_t vertex) { return p.vertex_particle.at(vertex); }

/// Brute force over every row: no two free particles one row touches share a colour; colour
/// ranges tile the particles.
inline void expect_colouring_valid(const ClothProxy& p) {
    ASSERT_FALSE(p.colour_ranges.empty());
    EXPECT_EQ(p.colour_ranges.front(), 0u);
    EXPECT_EQ(p.colour_ranges.back(), p.particle_count());
    std::vector<uint32_t> colour(p.particle_count());
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c) {
        EXPECT_LT(p.colour_ranges[c], p.colour_ranges[c + 1]) << "empty colour " << c;
        for (uint32_t i = p.colour_ranges[c]; i < p.colour_ranges[c + 1]; ++i) colour[i] = static_cast<uint32_t>(c);
    }
    auto check = [&](std::span<const uint32_t> row, const char* kind, size_t r) {
        for (size_t i = 0; i < row.size(); ++i)
            for (size_t j = i + 1; j < row.size(); ++j) {
                uint32_t a = row[i], b = row[j];
                ASSERT_NE(a, b) << kind << " " << r << " names a particle twice";
                if (p.held(a) || p.held(b)) continue;
                EXPECT_NE(colour[a], colour[b]) << kind << " " << r << ": particles " << a << " and " << b;
            }
    };
    for (size_t r = 0; r < p.edges.size(); ++r) check(p.edges[r], "edge", r);
    for (size_t r = 0; r < p.skips.size(); ++r) check(p.skips[r], "skip", r);
    for (size_t r = 0; r < p.hinges.size(); ++r) check(p.hinges[r], "hinge", r);
    for (size_t r = 0; r < p.triangles.size(); ++r) check(p.triangles[r], "triangle", r);
}

/// d_geo against Floyd–Warshall over the edges with their rest lengths, from every held particle.
inline void expect_d_geo_matches_floyd_warshall(const ClothProxy& p) {
    const size_t n = p.particle_count();
    ASSERT_LE(n, 400u) << "brute force is for small meshes";
    constexpr double inf = std::numeric_limits<double>::infinity();
    std::vector<double> d(n * n, inf);
    for (size_t i = 0; i < n; ++i) d[i * n + i] = 0;
    for (size_t e = 0; e < p.edges.size(); ++e) {
        auto [a, b] = p.edges[e];
        d[a * n + b] = std::min(d[a * n + b], p.rest_length[e]);
        d[b * n + a] = std::min(d[b * n + a], p.rest_length[e]);
    }
    for (size_t k = 0; k < n; ++k)
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j) d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
    for (size_t i = 0; i < n; ++i) {
        double best = inf;
        for (size_t h = 0; h < n; ++h)
            if (p.held(static_cast<uint32_t>(h))) best = std::min(best, d[i * n + h]);
        if (std::isinf(best)) {
            EXPECT_TRUE(std::isinf(p.d_geo[i])) << "particle " << i;
            EXPECT_EQ(p.nearest_held[i], no_particle) << "particle " << i;
        } else {
            EXPECT_NEAR(p.d_geo[i], best, 1e-12) << "particle " << i;
            ASSERT_NE(p.nearest_held[i], no_particle);
            EXPECT_TRUE(p.held(p.nearest_held[i]));
            EXPECT_NEAR(d[i * n + p.nearest_held[i]], best, 1e-12) << "particle " << i << ": nearest_held is not nearest";
        }
    }
}

/// Every source vertex maps to a particle whose rest position (back in scene space) is within the
/// weld tolerance of the vertex; unused vertices map to no particle.
inline void expect_vertices_map_to_their_particles(const ClothProxy& p, std::span<const Vec3> scene_positions,
                                                    double tolerance) {
    ASSERT_EQ(p.vertex_particle.size(), scene_positions.size());
    for (size_t v = 0; v < scene_positions.size(); ++v) {
        uint32_t q = p.vertex_particle[v];
        if (q == no_particle) continue;
        ASSERT_LT(q, p.particle_count());
        Vec3 at = p.frame.rest_world.transform_point(p.rest_position[q]);
        EXPECT_LE(distance(at, scene_positions[v]), tolerance * (1 + 1e-9) + 1e-12) << "vertex " << v;
    }
    for (size_t q = 0; q < p.particle_count(); ++q)
        if (p.source[q] != no_source) { EXPECT_EQ(p.vertex_particle[p.source[q]], q); }
}

}  // namespace weft::test
