#include "scene/influences.h"

#include <algorithm>

namespace weft {

bool is_skin_joint(const Scene& scene, int node) {
    for (const Skin& skin : scene.skins)
        if (std::find(skin.joints.begin(), skin.joints.end(), node) != skin.joints.end()) return true;
    return false;
}

}  // namespace weft
