// The node hierarchy as every stage walks it: whether an index names a node, a node's parent, and
// the chain from a node up to the root. The importer guarantees the hierarchy has no cycle
// (scene/invariants.h), so these walks need no step guard.
#pragma once
#include <cstddef>
#include <vector>

#include "scene/scene.h"

namespace weft {

/// Whether `node` is an index into scene.nodes. Indices the Scene itself holds always are; this is
/// for indices from elsewhere (a rig description, a chain, -1 for "none").
inline bool has_node(const Scene& scene, int node) {
    return node >= 0 && static_cast<size_t>(node) < scene.nodes.size();
}

/// The node's parent, or -1 for a root and for an index that names no node.
inline int parent_of(const Scene& scene, int node) {
    return has_node(scene, node) ? scene.nodes[static_cast<size_t>(node)].parent : -1;
}

/// The node and its ancestors, nearest first: node, parent, grandparent, ... a root. Empty for an
/// index that names no node. Iterable in a range-for; lazy, so a walk that stops early costs what
/// it visits.
class NodeChain {
public:
    class iterator {
    public:
        iterator() = default;
        iterator(const Scene* scene, int node) : scene_(scene), node_(node) {}
        int operator*() const { return node_; }
        iterator& operator++() {
            node_ = scene_->nodes[static_cast<size_t>(node_)].parent;
            return *this;
        }
        bool operator==(const iterator& o) const { return node_ == o.node_; }

    private:
        const Scene* scene_ = nullptr;
        int node_ = -1;
    };

    NodeChain(const Scene& scene, int node) : scene_(&scene), node_(has_node(scene, node) ? node : -1) {}
    iterator begin() const { return {scene_, node_}; }
    iterator end() const { return {scene_, -1}; }
    bool empty() const { return node_ < 0; }

private:
    const Scene* scene_;
    int node_;
};

/// `node` and its ancestors up to the root, nearest first (see NodeChain).
inline NodeChain self_and_ancestors(const Scene& scene, int node) { return {scene, node}; }

/// The ancestors of `node` only, nearest first: parent, grandparent, ... a root.
inline NodeChain ancestors(const Scene& scene, int node) { return {scene, parent_of(scene, node)}; }

/// Whether `ancestor` is a proper ancestor of `node` (its parent, its parent's parent, ...).
bool is_below(const Scene& scene, int node, int ancestor);

/// The chain from a root down to `node`: root first, `node` last. Empty for an index that names no
/// node.
std::vector<int> path_from_root(const Scene& scene, int node);

}  // namespace weft
