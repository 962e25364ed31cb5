// Small helpers the import tests share: finding things in a Scene by name, and checking the
// invariants every imported Scene must keep whatever the file was.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>

#include "scene/import.h"

namespace weft::test {

inline const Mesh* mesh_with_material(const Scene& scene, const std::string& material) {
    for (const Mesh& m : scene.meshes)
        if (m.material >= 0 && scene.materials[size_t(m.material)] == material) return &m;
    return nullptr;
}

inline const Mesh* mesh_named(const Scene& scene, const std::string& name) {
    for (const Mesh& m : scene.meshes)
        if (m.name == name) return &m;
    return nullptr;
}

inline bool has_material(const Scene& scene, const std::string& name) {
    return std::find(scene.materials.begin(), scene.materials.end(), name) != scene.materials.end();
}

inline size_t count_issues(const ImportResult& r, const std::string& code) {
    return size_t(std::count_if(r.issues.begin(), r.issues.end(), [&](const Issue& i) { return i.code == code; }));
}

inline const Issue* find_issue(const ImportResult& r, const std::string& code) {
    for (const Issue& i : r.issues)
        if (i.code == code) return &i;
    return nullptr;
}

/// Every issue, one per line, for failure messages.
inline std::string issues_text(const ImportResult& r) {
    std::string s;
    for (const Issue& i : r.issues) s += std::string(severity_name(i.severity)) + " " + i.code + ": " + i.message + "\n";
    return s;
}

inline size_t distinct_positions(const Mesh& m) {
    std::set<std::tuple<double, double, double>> seen;
    for (const Vec3& p : m.positions) seen.insert({p.x, p.y, p.z});
    return seen.size();
}

/// The scene's height (Y extent) in metres.
inline double height(const Scene& scene) { return scene.bounds().size().y; }

/// What every imported Scene promises, whatever the file: a consistent hierarchy, finite
/// geometry, indices in range, unit normals, and normalised influences, heaviest first.
inline void expect_scene_invariants(const Scene& scene) {
    ASSERT_FALSE(scene.nodes.empty());
    EXPECT_EQ(scene.nodes[0].parent, -1);
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const Node& node = scene.nodes[n];
        for (int c : node.children) {
            ASSERT_GE(c, 0);
            ASSERT_LT(size_t(c), scene.nodes.size());
            EXPECT_EQ(scene.nodes[size_t(c)].parent, int(n));
        }
        if (node.parent >= 0) {
            Mat4 expect = scene.nodes[size_t(node.parent)].world * node.local;
            for (int k = 0; k < 16; ++k) EXPECT_NEAR(node.world.m[k], expect.m[k], 1e-9 * (1 + std::abs(expect.m[k])));
        }
        for (int m : node.meshes) EXPECT_EQ(scene.meshes[size_t(m)].node, int(n));
    }
    for (const Mesh& m : scene.meshes) {
        SCOPED_TRACE("mesh " + m.name);
        EXPECT_EQ(m.indices.size() % 3, 0u);
        for (uint32_t i : m.indices) ASSERT_LT(i, m.vertex_count());
        for (const Vec3& p : m.positions) ASSERT_TRUE(is_finite(p));
        if (!m.normals.empty()) {
            ASSERT_EQ(m.normals.size(), m.vertex_count());
            for (const Vec3& n : m.normals) ASSERT_NEAR(length(n), 1.0, 1e-6);
        }
        if (!m.uvs.empty()) {
            EXPECT_EQ(m.uvs.size(), m.vertex_count());
        }
        ASSERT_GE(m.material, 0);
        ASSERT_LT(size_t(m.material), scene.materials.size());
        if (m.skin < 0) {
            EXPECT_TRUE(m.influences.empty());
            continue;
        }
        const Skin& skin = scene.skins[size_t(m.skin)];
        ASSERT_EQ(skin.inverse_bind.size(), skin.joints.size());
        ASSERT_EQ(m.influence_offsets.size(), m.vertex_count() + 1);
        for (size_t v = 0; v < m.vertex_count(); ++v) {
            uint32_t b = m.influence_offsets[v], e = m.influence_offsets[v + 1];
            ASSERT_LE(b, e);
            if (b == e) continue;  // unweighted: reported, left at the node's pose
            double sum = 0;
            for (uint32_t k = b; k < e; ++k) {
                ASSERT_LT(m.influences[k].joint, skin.joints.size());
                ASSERT_GT(m.influences[k].weight, 0.f);
                if (k > b) {
                    ASSERT_GE(m.influences[k - 1].weight, m.influences[k].weight);
                }
                sum += m.influences[k].weight;
            }
            ASSERT_NEAR(sum, 1.0, 1e-5);
        }
    }
}

}  // namespace weft::test
