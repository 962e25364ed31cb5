// Small hand-built Scenes for the garment tests: nodes placed by translation, skins whose inverse
// binds match the rest pose, and strip meshes hanging straight down.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "scene/scene.h"

namespace weft::test {

/// A scene with only the root node (index 0, "Root").
inline Scene empty_scene(const std::string& source = "model.glb") {
    Scene s;
    s.source_path = source;
    Node root;
    root.name = "Root";
    s.nodes.push_back(root);
    return s;
}

/// Adds a node `offset` from its parent (rest pose = bind pose) and returns its index.
inline int add_node(Scene& s, const std::string& name, int parent, Vec3 offset) {
    Node n;
    n.name = name;
    n.parent = parent;
    n.local = Mat4::translation(offset);
    n.world = parent >= 0 ? s.nodes[static_cast<size_t>(parent)].world * n.local : n.local;
    int index = static_cast<int>(s.nodes.size());
    if (parent >= 0) s.nodes[static_cast<size_t>(parent)].children.push_back(index);
    s.nodes.push_back(n);
    return index;
}

/// Adds a skin over `joints` with inverse binds from their rest transforms; returns its index.
inline int add_skin(Scene& s, const std::vector<int>& joints) {
    Skin skin;
    skin.name = "Skin";
    skin.joints = joints;
    for (int j : joints) skin.inverse_bind.push_back(s.nodes[static_cast<size_t>(j)].world.inverted());
    s.skins.push_back(skin);
    return static_cast<int>(s.skins.size()) - 1;
}

inline int material_index(Scene& s, const std::string& material) {
    for (size_t i = 0; i < s.materials.size(); ++i)
        if (s.materials[i] == material) return static_cast<int>(i);
    s.materials.push_back(material);
    return static_cast<int>(s.materials.size()) - 1;
}

/// A strip of `segments` quads, `width` wide along X, hanging `length` down from `top` (its
/// top-left corner), in the XY plane: 2*(segments+1) vertices, 2*segments triangles.
struct Strip {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices;
};
inline Strip strip(Vec3 top, double width, double length, int segments) {
    Strip st;
    for (int i = 0; i <= segments; ++i) {
        double y = top.y - length * i / segments;
        st.positions.push_back({top.x, y, top.z});
        st.positions.push_back({top.x + width, y, top.z});
    }
    for (uint32_t i = 0; i < static_cast<uint32_t>(segments); ++i) {
        uint32_t a = 2 * i, b = a + 1, c = a + 2, d = a + 3;
        st.indices.insert(st.indices.end(), {a, c, b, b, c, d});
    }
    return st;
}

/// Appends `more` to `st` as a separate piece.
inline void append(Strip& st, const Strip& more) {
    uint32_t base = static_cast<uint32_t>(st.positions.size());
    st.positions.insert(st.positions.end(), more.positions.begin(), more.positions.end());
    for (uint32_t i : more.indices) st.indices.push_back(base + i);
}

/// Adds an unskinned mesh instanced at `node`.
inline int add_mesh(Scene& s, const std::string& name, int node, const std::string& material, const Strip& geometry) {
    Mesh m;
    m.name = name;
    m.node = node;
    m.node_name = s.nodes[static_cast<size_t>(node)].name;
    m.material = material_index(s, material);
    m.positions = geometry.positions;
    m.indices = geometry.indices;
    s.nodes[static_cast<size_t>(node)].meshes.push_back(static_cast<int>(s.meshes.size()));
    s.meshes.push_back(std::move(m));
    return static_cast<int>(s.meshes.size()) - 1;
}

/// Adds a skinned mesh; `weights(vertex)` returns that vertex's (skin joint index, weight) pairs.
template <typename WeightFn>
int add_skinned_mesh(Scene& s, const std::string& name, int node, const std::string& material, int skin,
                     const Strip& geometry, WeightFn weights) {
    int index = add_mesh(s, name, node, material, geometry);
    Mesh& m = s.meshes[static_cast<size_t>(index)];
    m.skin = skin;
    m.influence_offsets.push_back(0);
    for (uint32_t v = 0; v < m.positions.size(); ++v) {
        for (auto [joint, w] : weights(v)) m.influences.push_back({static_cast<uint32_t>(joint), static_cast<float>(w)});
        m.influence_offsets.push_back(static_cast<uint32_t>(m.influences.size()));
    }
    return index;
}

}  // namespace weft::test
