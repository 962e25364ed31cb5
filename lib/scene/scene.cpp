#include "scene/scene.h"

namespace weft {

int Scene::find_node(const std::string& name) const {
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == name) return static_cast<int>(i);
    return -1;
}

Bounds Scene::mesh_bounds(const Mesh& mesh) {
    Bounds b;
    for (const Vec3& p : mesh.positions) b.add(p);
    return b;
}

Bounds Scene::bounds() const {
    Bounds b;
    for (const Mesh& m : meshes) b.add(mesh_bounds(m));
    return b;
}

}  // namespace weft
