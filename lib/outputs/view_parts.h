// Inside the page's data (view_page.h, docs/view.md): the parts view_model_json assembles. Not a
// public header: lib/outputs alone includes it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "outputs/view_page.h"
#include "validate/clip_motion.h"

namespace weft {

/// The scene nodes a page moves (skin joints, the nodes static meshes hang from, chain joints, the
/// nodes the cloth rides), each once, in the order first asked for: the page's "nodes".
struct ViewNodes {
    const Scene* scene = nullptr;
    std::vector<int> scene_nodes;   ///< page index -> scene node
    std::map<int, int> page_index;  ///< scene node -> page index
    std::vector<uint8_t> chain;     ///< per page index: a rig's chain joint, posed from its particles, never by a clip
    /// The page index of `scene_node`, added when new; -1 for -1.
    int add(int scene_node);
    /// The page indices a clip moves: every node but the chain joints and the nodes below them.
    std::vector<int> keyed() const;
    /// "follows": per page index, the chain joint (page index) a node below one moves with, or -1;
    /// such a node is no clip's to move either.
    nlohmann::json follows_json();
    /// "nodes": each node's name.
    nlohmann::json names_json() const;
};

/// "mesh": every mesh at rest in scene space, its triangles split into the body's and the
/// garments', and per vertex up to four (node, weight) pairs that move it (docs/view.md#keys).
nlohmann::json view_mesh_json(const Scene& scene, const ModelGarments* garments, ViewNodes& nodes);

/// One clip a scenario played, sampled as validation sampled it, with the stride its keys are kept at.
struct ViewClip {
    ClipMotion motion;
    uint32_t every = 4;  ///< clip frames (60 Hz) between keys
};
/// Coordinates the clip's keys take on the page (7 per node per key).
size_t clip_values(const ViewClip& clip, const ViewNodes& nodes);
/// "clips[]": {name, frames, every, keys, nodes, rotations, translations} over the nodes it moves.
nlohmann::json clip_json(const ViewClip& clip, const ViewNodes& nodes);

/// A proxy at rest: its particles in the model's space, rows, pins, colours, and for a rig each
/// particle's node and the particle after it on its chain (docs/view.md#keys). Adds the nodes
/// it needs to `nodes`.
nlohmann::json proxy_rest_json(const ViewProxy& vp, const Scene* scene, ViewNodes& nodes);

/// How many recorded frames each run keeps (the size budget, docs/view.md#the-size-budget).
struct FramePlan {
    uint32_t cap = 0;  ///< frames kept per run at most (every one when a run has fewer)
};
/// The cap that fits `budget` 16-bit values: each run's frames cost 3 values a particle.
FramePlan plan_frames(const std::vector<ViewProxy>& proxies, size_t budget);

/// "scenarios[]" of one proxy: each run with its verdict, gates (the solver's and the skinned
/// mesh's), the worst gate's step, its figures and the frames `plan` keeps; `clips` maps a clip's
/// name to its index in the page's "clips".
nlohmann::json scenarios_json(const ViewProxy& vp, const FramePlan& plan, const std::map<std::string, int>& clips);

}  // namespace weft
