#include "scene/bind_pose.h"

#include "scene/hierarchy.h"

namespace weft {

Mat4 bind_world(const Scene& scene, int node) {
    for (const Skin& skin : scene.skins)
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            if (skin.joints[j] != node) continue;
            Mat4 bind;
            if (skin.inverse_bind[j].inverse(bind) && bind.is_finite()) return bind;
        }
    if (!has_node(scene, node)) return Mat4::identity();
    return scene.nodes[static_cast<size_t>(node)].world;
}

}  // namespace weft
