// Small hand-built skinned scenes for the growing and rig tests: a spine of bones placed by
// translation (rest pose = bind pose), strips of quads hanging from a head, a dome over it.
#pragma once
#include <cmath>
#include <string>
#include <vector>

#include "garment/scene_builder.h"
#include "scene/scene.h"

namespace weft::grow_test {

using test::add_node;  // tests/garment/scene_builder.h

/// Root > Hips (1 m up) > Spine > Head (1.6 m up), one skin over Hips, Spine, Head.
struct Body {
    Scene scene;
    int hips = -1, spine = -1, head = -1;
};

inline Body make_body(const std::string& source = "grow_test.glb") {
    Body b;
    b.scene.source_path = source;
    b.scene.format = "glb";
    add_node(b.scene, "Root", -1, {});
    b.hips = add_node(b.scene, "Hips", 0, {0, 1.0, 0});
    b.spine = add_node(b.scene, "Spine", b.hips, {0, 0.3, 0});
    b.head = add_node(b.scene, "Head", b.spine, {0, 0.3, 0});
    Skin skin;
    skin.name = "Body";
    for (int j : {b.hips, b.spine, b.head}) {
        skin.joints.push_back(j);
        skin.inverse_bind.push_back(b.scene.nodes[static_cast<size_t>(j)].world.inverted());
    }
    b.scene.skins.push_back(skin);
    return b;
}

/// Adds an empty skinned mesh on material `material` (skin 0) and returns its index.
inline int add_mesh(Scene& s, const std::string& name, const std::string& material) {
    Mesh m;
    m.name = name;
    m.node = 0;
    m.node_name = s.nodes[0].name;
    m.skin = 0;
    int mat = -1;
    for (size_t i = 0; i < s.materials.size(); ++i)
        if (s.materials[i] == material) mat = static_cast<int>(i);
    if (mat < 0) {
        s.materials.push_back(material);
        mat = static_cast<int>(s.materials.size()) - 1;
    }
    m.material = mat;
    m.influence_offsets.push_back(0);
    s.meshes.push_back(m);
    return static_cast<int>(s.meshes.size()) - 1;
}

/// Appends a vertex weighted wholly to skin joint `joint`; returns its index.
inline uint32_t add_vertex(Mesh& m, const Vec3& p, uint32_t joint) {
    m.positions.push_back(p);
    m.influences.push_back({joint, 1.0f});
    m.influence_offsets.push_back(static_cast<uint32_t>(m.influences.size()));
    return static_cast<uint32_t>(m.positions.size() - 1);
}

/// A strip `width` wide along X hanging `length` straight down from `top` (the middle of its top
/// edge), `rows` quads deep, every vertex weighted to skin joint `joint`.
inline void add_strip(Mesh& m, const Vec3& top, double width, double length, int rows, uint32_t joint) {
    const uint32_t first = static_cast<uint32_t>(m.positions.size());
    for (int r = 0; r <= rows; ++r)
        for (int c = 0; c < 2; ++c)
            add_vertex(m, top + Vec3{(c - 0.5) * width, -length * r / rows, 0}, joint);
    for (int r = 0; r < rows; ++r) {
        const uint32_t a = first + 2 * r, b = a + 1, c = a + 2, d = a + 3;
        m.indices.insert(m.indices.end(), {a, c, b, b, c, d});
    }
}

/// A skirt band: `columns` around the Y axis through `centre`, `rows` quads down from radius
/// `top_radius` to `bottom_radius` over `length`; one connected surface, weighted to `joint`.
inline void add_band(Mesh& m, const Vec3& centre, double top_radius, double bottom_radius, double length, int columns,
                     int rows, uint32_t joint) {
    const uint32_t first = static_cast<uint32_t>(m.positions.size());
    for (int r = 0; r <= rows; ++r) {
        const double radius = top_radius + (bottom_radius - top_radius) * r / rows;
        for (int c = 0; c < columns; ++c) {
            // Column 0 at azimuth 7.5 degrees past front, so no column sits on a panel border.
            const double a = 2 * M_PI * (c + 0.25) / columns;
            add_vertex(m, centre + Vec3{radius * std::sin(a), -length * r / rows, radius * std::cos(a)}, joint);
        }
    }
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) {
            const uint32_t a = first + uint32_t(r * columns + c), b = first + uint32_t(r * columns + (c + 1) % columns);
            const uint32_t d = a + uint32_t(columns), e = b + uint32_t(columns);
            m.indices.insert(m.indices.end(), {a, d, b, b, d, e});
        }
}

/// A dome (a bob haircut): `rings` latitude rings from the crown down to `below` under the centre,
/// `columns` round, radius `radius` about `centre`; one connected surface weighted to `joint`.
inline void add_dome(Mesh& m, const Vec3& centre, double radius, int rings, int columns, uint32_t joint) {
    const uint32_t crown = add_vertex(m, centre + Vec3{0, radius, 0}, joint);
    for (int r = 1; r <= rings; ++r) {
        const double polar = (M_PI * 0.6) * r / rings;  // down to 108 degrees from the top
        for (int c = 0; c < columns; ++c) {
            const double a = 2 * M_PI * (c + 0.25) / columns;
            add_vertex(m,
                       centre + Vec3{radius * std::sin(polar) * std::sin(a), radius * std::cos(polar),
                                     radius * std::sin(polar) * std::cos(a)},
                       joint);
        }
    }
    for (int c = 0; c < columns; ++c)
        m.indices.insert(m.indices.end(), {crown, crown + 1 + uint32_t(c), crown + 1 + uint32_t((c + 1) % columns)});
    for (int r = 1; r < rings; ++r)
        for (int c = 0; c < columns; ++c) {
            const uint32_t a = crown + 1 + uint32_t((r - 1) * columns + c);
            const uint32_t b = crown + 1 + uint32_t((r - 1) * columns + (c + 1) % columns);
            const uint32_t d = a + uint32_t(columns), e = b + uint32_t(columns);
            m.indices.insert(m.indices.end(), {a, d, b, b, d, e});
        }
}

}  // namespace weft::grow_test
