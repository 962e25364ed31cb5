#include "pipeline/body_shapes.h"

#include "scene/hierarchy.h"

namespace weft {

BodyShapes body_shapes(const Scene& scene, const BodyColliders& body) {
    BodyShapes out;
    for (const BodyCollider& c : body.colliders) {
        const int node = scene.find_node(c.bone);
        if (node < 0) continue;
        const Mat4 rigid = bone_rigid_placement(scene, node);
        if (c.shape == ColliderShape::sphere) {
            out.spheres.push_back({rigid.transform_point(c.a), c.radius});
            out.sphere_bones.push_back(c.bone);
        } else {
            out.capsules.push_back({rigid.transform_point(c.a), rigid.transform_point(c.b), c.radius});
            out.capsule_bones.push_back(c.bone);
        }
    }
    return out;
}

}  // namespace weft
