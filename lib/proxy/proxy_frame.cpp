#include "proxy/proxy_frame.h"

#include <algorithm>
#include <vector>

#include "scene/hierarchy.h"

namespace weft {

Mat4 rigid_part(const Mat4& world) {
    Vec3 t, s;
    Quat r;
    world.decompose(t, r, s);
    return Mat4::from_trs(t, r, {1, 1, 1});
}

int lowest_common_ancestor(const Scene& scene, std::span<const int> nodes) {
    bool first = true;
    std::vector<int> common;
    for (int n : nodes) {
        if (!has_node(scene, n)) continue;
        std::vector<int> path = path_from_root(scene, n);
        if (first) {
            common = std::move(path);
            first = false;
            continue;
        }
        size_t k = 0;
        while (k < common.size() && k < path.size() && common[k] == path[k]) ++k;
        common.resize(k);
    }
    return common.empty() ? 0 : common.back();
}

}  // namespace weft
