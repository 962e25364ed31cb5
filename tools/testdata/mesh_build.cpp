#include "testdata/mesh_build.h"

namespace weft::testdata {

int add_node(Scene& scene, const std::string& name, int parent, const Mat4& local) {
    Node node;
    node.name = name;
    node.parent = parent;
    node.local = local;
    node.world = parent < 0 ? local : scene.nodes[parent].world * local;
    scene.nodes.push_back(std::move(node));
    const int index = static_cast<int>(scene.nodes.size()) - 1;
    if (parent >= 0) scene.nodes[parent].children.push_back(index);
    return index;
}

uint32_t MeshBuilder::add_vertex(const Vec3& p, const Vec2& uv, std::vector<Influence> w) {
    positions.push_back(p);
    uvs.push_back(uv);
    weights.push_back(std::move(w));
    return static_cast<uint32_t>(positions.size() - 1);
}

std::vector<Vec3> vertex_normals(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices) {
    std::vector<Vec3> sum(positions.size());
    for (size_t t = 0; t + 2 < indices.size(); t += 3) {
        const Vec3& a = positions[indices[t]];
        const Vec3 n = cross(positions[indices[t + 1]] - a, positions[indices[t + 2]] - a);
        for (int k = 0; k < 3; ++k) sum[indices[t + k]] += n;
    }
    for (Vec3& n : sum) {
        n = normalize(n);
        if (length_squared(n) == 0) n = {0, 1, 0};
    }
    return sum;
}

Mesh MeshBuilder::finish(const std::string& name, int node, int material, int skin) const {
    Mesh mesh;
    mesh.name = name;
    mesh.node = node;
    mesh.material = material;
    mesh.skin = skin;
    mesh.positions = positions;
    mesh.uvs = uvs;
    mesh.indices = indices;
    mesh.normals = vertex_normals(positions, indices);
    if (skin >= 0) {
        mesh.influence_offsets.push_back(0);
        for (const auto& list : weights) {
            mesh.influences.insert(mesh.influences.end(), list.begin(), list.end());
            mesh.influence_offsets.push_back(static_cast<uint32_t>(mesh.influences.size()));
        }
    }
    return mesh;
}

}  // namespace weft::testdata
