#include "scene/hierarchy.h"

#include <algorithm>

namespace weft {

bool is_below(const Scene& scene, int node, int ancestor) {
    for (int n : ancestors(scene, node))
        if (n == ancestor) return true;
    return false;
}

std::vector<int> path_from_root(const Scene& scene, int node) {
    std::vector<int> path;
    for (int n : self_and_ancestors(scene, node)) path.push_back(n);
    std::reverse(path.begin(), path.end());
    return path;
}

}  // namespace weft
