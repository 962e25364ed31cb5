#include "scene/clip.h"

#include <algorithm>
#include <cmath>

#include "geom/slerp.h"
#include "scene/scene.h"

namespace weft {

namespace {

/// The key interval holding `t`: keys[i] and keys[i + 1] with the blend between them; t outside the
/// keys holds the nearest end.
template <class Key>
std::pair<size_t, double> bracket(const std::vector<Key>& keys, double t) {
    if (t <= keys.front().time || keys.size() == 1) return {0, 0.0};
    if (t >= keys.back().time) return {keys.size() - 1, 0.0};
    const auto it = std::upper_bound(keys.begin(), keys.end(), t, [](double v, const Key& k) { return v < k.time; });
    const size_t i = static_cast<size_t>(it - keys.begin()) - 1;
    const double span = keys[i + 1].time - keys[i].time;
    return {i, span > 0 ? (t - keys[i].time) / span : 0.0};
}

Vec3 sample(const std::vector<Vec3Key>& keys, double t) {
    const auto [i, u] = bracket(keys, t);
    if (u == 0) return keys[i].value;
    return (1 - u) * keys[i].value + u * keys[i + 1].value;
}

Quat sample(const std::vector<QuatKey>& keys, double t) {
    const auto [i, u] = bracket(keys, t);
    if (u == 0) return keys[i].value;
    return slerp(keys[i].value, keys[i + 1].value, u);
}

}  // namespace

std::vector<Mat4> clip_world(const Scene& scene, const Clip& clip, double time) {
    const size_t n = scene.nodes.size();
    std::vector<Mat4> local(n);
    for (size_t i = 0; i < n; ++i) local[i] = scene.nodes[i].local;
    const double t = std::clamp(time, 0.0, clip.duration);
    for (const ClipChannel& c : clip.channels) {
        const Node& node = scene.nodes[static_cast<size_t>(c.node)];
        // A root's rest local carries the unit/axis fix; its keys are the file's, under it.
        Mat4 file_local = node.local;
        if (node.parent < 0) file_local = scene.correction.inverted() * node.local;
        Vec3 rest_t, rest_s;
        Quat rest_r;
        file_local.decompose(rest_t, rest_r, rest_s);
        const Mat4 animated = Mat4::from_trs(c.translation.empty() ? rest_t : sample(c.translation, t),
                                             c.rotation.empty() ? rest_r : sample(c.rotation, t),
                                             c.scale.empty() ? rest_s : sample(c.scale, t));
        local[static_cast<size_t>(c.node)] = node.parent < 0 ? scene.correction * animated : animated;
    }
    // Parents usually come first but nothing relies on it: resolve each node once, walking up.
    std::vector<Mat4> world(n);
    std::vector<char> done(n, 0);
    std::vector<size_t> chain;
    for (size_t i = 0; i < n; ++i) {
        chain.clear();
        for (size_t at = i; !done[at];) {
            chain.push_back(at);
            const int p = scene.nodes[at].parent;
            if (p < 0) break;
            at = static_cast<size_t>(p);
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const int p = scene.nodes[*it].parent;
            world[*it] = p < 0 ? local[*it] : world[static_cast<size_t>(p)] * local[*it];
            done[*it] = 1;
        }
    }
    return world;
}

int find_clip(const Scene& scene, const std::string& name) {
    for (size_t i = 0; i < scene.clips.size(); ++i)
        if (scene.clips[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace weft
