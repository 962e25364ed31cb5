#include "garment/chain_root.h"

#include <algorithm>

#include "scene/bind_pose.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"

namespace weft {

RootLever measure_root_lever(const Scene& scene, const std::vector<Chain>& chains, size_t chain) {
    std::vector<char> chain_joint(scene.nodes.size(), 0);
    for (const Chain& c : chains)
        for (int j : c.joints) chain_joint[static_cast<size_t>(j)] = 1;
    const int root = chains[chain].joints.front();
    const Vec3 pivot = bind_world(scene, root).translation_part();
    RootLever worst;
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        if (!is_skinned(mesh)) continue;
        for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
            double on_root = 0, on_body = 0;
            for (const BoneWeight& bw : influences(scene, mesh, v)) {
                if (bw.bone == root) on_root += bw.weight;
                if (!chain_joint[static_cast<size_t>(bw.bone)]) on_body += bw.weight;
            }
            if (!(on_root > 0) || on_body < 0.5) continue;
            const double d = distance(mesh.positions[v], pivot);
            if (on_root * d > worst.lever) worst = {on_root * d, on_root, d, static_cast<int>(m), v};
        }
    }
    return worst;
}

Chain as_authored(const Scene& scene, const Chain& chain) {
    Chain authored = chain;
    if (chain.animated_root < 0) return authored;
    authored.joints.insert(authored.joints.begin(), chain.animated_root);
    authored.parent = parent_of(scene, chain.animated_root);
    authored.animated_root = -1;
    authored.length = chain_length(scene, authored.joints, authored.tip);
    return authored;
}

void leave_heavy_roots_to_animation(const Scene& scene, std::vector<Chain>& chains) {
    // Judged on the chains as authored, then changed, so one chain's change never moves another's figure.
    std::vector<char> heavy(chains.size(), 0);
    for (size_t c = 0; c < chains.size(); ++c)
        heavy[c] = chains[c].joints.size() >= 3 && measure_root_lever(scene, chains, c).lever > kMaxRootLever;
    for (size_t c = 0; c < chains.size(); ++c) {
        if (!heavy[c]) continue;
        bool all = true;  // every chain from this root agrees
        for (size_t o = 0; o < chains.size(); ++o)
            if (chains[o].joints.front() == chains[c].joints.front() && !heavy[o]) all = false;
        if (!all) continue;
        Chain& chain = chains[c];
        chain.animated_root = chain.joints.front();
        chain.parent = chain.animated_root;
        chain.joints.erase(chain.joints.begin());
    }
    for (Chain& chain : chains)
        if (chain.animated_root >= 0) chain.length = chain_length(scene, chain.joints, chain.tip);
}

}  // namespace weft
