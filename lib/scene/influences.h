// A vertex's influences: the bones that move it and by how much. The importer guarantees every
// skinned mesh's influences are well formed (scene/invariants.h): offsets cover the vertices, each
// joint is inside the mesh's skin, each skin joint is a node, weights are finite, at most
// kMaxInfluences per vertex and summing to 1. So callers iterate without re-checking.
#pragma once
#include <cstddef>
#include <cstdint>

#include "scene/scene.h"

namespace weft {

/// Whether the mesh is skinned: it names a skin, and so carries per-vertex influences. An
/// unskinned mesh rides its node rigidly.
inline bool is_skinned(const Mesh& mesh) { return mesh.skin >= 0; }

/// One bone's share of a vertex.
struct BoneWeight {
    int bone = -1;        ///< the node (index into Scene::nodes) the bone is
    uint32_t joint = 0;   ///< its index in the mesh's Skin::joints (what glTF JOINTS_0 stores)
    float weight = 0;     ///< > 0; a vertex's weights sum to 1
};

/// The influences of one vertex with a positive weight, in the order the mesh stores them (an
/// imported mesh: heaviest first). Empty for an unskinned mesh or an unweighted vertex. A grown
/// mesh may store zero weights (a chain's share that fades out); they are passed over here, since
/// a zero weight moves nothing.
class VertexInfluences {
public:
    class iterator {
    public:
        iterator() = default;
        iterator(const Influence* at, const Influence* end, const Skin* skin) : at_(at), end_(end), skin_(skin) {
            skip_zero();
        }
        BoneWeight operator*() const { return {skin_->joints[at_->joint], at_->joint, at_->weight}; }
        iterator& operator++() {
            ++at_;
            skip_zero();
            return *this;
        }
        bool operator==(const iterator& o) const { return at_ == o.at_; }

    private:
        const Influence* at_ = nullptr;
        const Influence* end_ = nullptr;
        const Skin* skin_ = nullptr;
        void skip_zero() {
            while (at_ != end_ && !(at_->weight > 0)) ++at_;
        }
    };

    VertexInfluences() = default;
    VertexInfluences(const Influence* begin, const Influence* end, const Skin* skin)
        : begin_(begin), end_(end), skin_(skin) {}
    iterator begin() const { return {begin_, end_, skin_}; }
    iterator end() const { return {end_, end_, skin_}; }
    bool empty() const { return begin() == end(); }

private:
    const Influence* begin_ = nullptr;
    const Influence* end_ = nullptr;
    const Skin* skin_ = nullptr;
};

/// Vertex `vertex`'s influences on `mesh` (a mesh of `scene`); empty when the mesh is unskinned.
inline VertexInfluences influences(const Scene& scene, const Mesh& mesh, uint32_t vertex) {
    if (!is_skinned(mesh)) return {};
    const Influence* data = mesh.influences.data();
    return {data + mesh.influence_offsets[vertex], data + mesh.influence_offsets[vertex + 1],
            &scene.skins[static_cast<size_t>(mesh.skin)]};
}

/// Whether `node` is a joint of some skin of the scene.
bool is_skin_joint(const Scene& scene, int node);

}  // namespace weft
