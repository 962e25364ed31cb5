#include "garment/chains.h"

#include <algorithm>

#include "scene/bind_pose.h"
#include "scene/hierarchy.h"

namespace weft {

namespace {

bool is_selected(const std::vector<std::string>& selected, const std::string& name) {
    return selected.empty() || std::find(selected.begin(), selected.end(), name) != selected.end();
}

/// Appends every root-to-tip path below `root` that stays inside `member` (nodes where member is
/// true). Iterative; the hierarchy is a forest (scene/scene.h), so every path ends.
void collect_paths(const Scene& scene, int root, const std::vector<char>& member,
                   std::vector<std::vector<int>>& paths) {
    struct Frame {
        int node;
        size_t depth;
    };
    std::vector<int> path;
    std::vector<Frame> stack{{root, 0}};
    while (!stack.empty()) {
        Frame f = stack.back();
        stack.pop_back();
        path.resize(f.depth);
        path.push_back(f.node);
        bool has_child = false;
        const auto& children = scene.nodes[static_cast<size_t>(f.node)].children;
        // Pushed in reverse so the first child's path comes out first.
        for (auto it = children.rbegin(); it != children.rend(); ++it) {
            if (!member[static_cast<size_t>(*it)]) continue;
            stack.push_back({*it, path.size()});
            has_child = true;
        }
        if (!has_child) paths.push_back(path);
    }
}

/// Class of a declared chain: the first joint whose name says one, else the spring class.
std::string declared_class(const Scene& scene, const std::vector<int>& joints,
                           const std::vector<GarmentClass>& classes) {
    for (int j : joints) {
        int c = classify_name(scene.nodes[static_cast<size_t>(j)].name, classes);
        if (c >= 0) return classes[static_cast<size_t>(c)].name;
    }
    return std::string(kSpringClass);
}

}  // namespace

double chain_length(const Scene& scene, const std::vector<int>& joints, const std::optional<Vec3>& tip) {
    double length = 0;
    for (size_t i = 1; i < joints.size(); ++i)
        length += distance(bind_world(scene, joints[i - 1]).translation_part(),
                           bind_world(scene, joints[i]).translation_part());
    if (tip && !joints.empty()) length += distance(bind_world(scene, joints.back()).translation_part(), *tip);
    return length;
}

std::vector<Chain> find_chains(const Scene& scene, const ChainOptions& options) {
    const size_t n = scene.nodes.size();
    std::vector<Chain> chains;

    // By joint name, over the bones the skins use (a mesh node called Knight_Cape is not a bone).
    std::vector<int> joint_class(n, -1);
    for (const Skin& skin : scene.skins)
        for (int j : skin.joints) {
            if (joint_class[static_cast<size_t>(j)] >= 0) continue;
            int c = classify_name(scene.nodes[static_cast<size_t>(j)].name, options.classes);
            if (c >= 0 && is_selected(options.selected, options.classes[static_cast<size_t>(c)].name))
                joint_class[static_cast<size_t>(j)] = c;
        }
    std::vector<char> garment_joint(n, 0);
    for (size_t i = 0; i < n; ++i) garment_joint[i] = joint_class[i] >= 0;
    for (size_t i = 0; i < n; ++i) {
        if (!garment_joint[i]) continue;
        const int parent = scene.nodes[i].parent;
        if (parent >= 0 && garment_joint[static_cast<size_t>(parent)]) continue;
        std::vector<std::vector<int>> paths;
        collect_paths(scene, static_cast<int>(i), garment_joint, paths);
        for (auto& path : paths) {
            Chain chain;
            chain.name = scene.nodes[i].name;
            chain.class_name = options.classes[static_cast<size_t>(joint_class[i])].name;
            chain.joints = std::move(path);
            chain.parent = parent;
            chain.found_by.push_back(kFoundByJointName);
            chains.push_back(std::move(chain));
        }
    }

    // Declared by the file (VRM): a chain the joint names already found gains a second source.
    std::vector<char> every_node(n, 1);
    for (const DeclaredSpring& spring : scene.springs) {
        std::vector<std::vector<int>> paths;
        if (!spring.joints.empty()) {
            paths.push_back(spring.joints);
        } else {
            for (int root : spring.roots) collect_paths(scene, root, every_node, paths);
        }
        for (auto& path : paths) {
            auto same = std::find_if(chains.begin(), chains.end(), [&](const Chain& c) { return c.joints == path; });
            if (same != chains.end()) {
                if (std::find(same->found_by.begin(), same->found_by.end(), spring.source) == same->found_by.end())
                    same->found_by.push_back(spring.source);
                continue;
            }
            Chain chain;
            chain.class_name = declared_class(scene, path, options.classes);
            if (!is_selected(options.selected, chain.class_name)) continue;
            chain.name = scene.nodes[static_cast<size_t>(path.front())].name;
            chain.parent = parent_of(scene, path.front());
            chain.joints = std::move(path);
            chain.found_by.push_back(spring.source);
            chains.push_back(std::move(chain));
        }
    }

    for (Chain& chain : chains) chain.length = chain_length(scene, chain.joints);
    std::stable_sort(chains.begin(), chains.end(), [](const Chain& a, const Chain& b) {
        if (a.joints.front() != b.joints.front()) return a.joints.front() < b.joints.front();
        if (a.joints.back() != b.joints.back()) return a.joints.back() < b.joints.back();
        return a.joints < b.joints;
    });
    return chains;
}

}  // namespace weft
