// Animation clips (docs/validation.md#clips): what a model's own animations do to its skeleton, as
// keys per node, and the skeleton's world transforms sampled from them. Import fills
// Scene::clips; validation never sees them, only poses sampled from them (validate/clip_motion.h).
#pragma once
#include <string>
#include <vector>

#include "geom/vec.h"

namespace weft {

struct Scene;

struct Vec3Key {
    double time = 0;  ///< seconds from the clip's start
    Vec3 value;
};

struct QuatKey {
    double time = 0;  ///< seconds from the clip's start
    Quat value;       ///< unit length
};

/// What a clip does to one node: its local translation, rotation and scale over time, each
/// linearly interpolated (rotations spherically) between keys and held before the first and after
/// the last. An empty list keeps that part of the node's rest transform.
struct ClipChannel {
    int node = -1;  ///< index into Scene::nodes
    std::vector<Vec3Key> translation;
    std::vector<QuatKey> rotation;
    std::vector<Vec3Key> scale;
};

struct Clip {
    std::string name;                   ///< as the file names it (Scene::animations holds the same, in the same order)
    double duration = 0;                ///< seconds: the latest key of any channel
    std::vector<ClipChannel> channels;  ///< at most one per node, in node order
};

/// Every node's world transform (scene space, as Node::world) at `time` seconds into `clip`
/// (clamped to the clip): a channel's node takes its animated local transform, every other node
/// its rest one. A channel on a root node is under Scene::correction, as node 0's rest is.
std::vector<Mat4> clip_world(const Scene& scene, const Clip& clip, double time);

/// Index into Scene::clips of the first clip named exactly `name`, or -1.
int find_clip(const Scene& scene, const std::string& name);

}  // namespace weft
