// A model's animation clip as validation takes it (docs/validation.md#clips): the rigid motion of
// a few named nodes sampled at the step rate, plain data. The pipeline samples it from the scene
// (body/body_in_scene.h); nothing here knows the scene, and the solver sees only the StepInput
// it yields: the frame, every pin's holder and every body collider riding its node.
//
// A clip scenario settles the cloth at the bind pose (the prelude every scenario but hang has),
// blends from the bind pose into the clip's first frame over clip_blend_steps (a game blends into
// an animation; a cut would be a teleport), plays the clip once, and holds its last frame for the
// rest of the run: by default half as long again and at least clip_hold_min_steps, so the last
// third is undriven and the energy trend and sleep are measured there.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/step.h"
#include "body/body_shapes.h"

namespace weft {

inline constexpr uint32_t clip_blend_steps = 30;  ///< 0.5 s from the bind pose into the clip's first frame
/// Shortest hold of the last frame: 2 s. When the body stops, cloth it left resting against a
/// collider is still being pushed out to the fabric's thickness, and that push lifts it (the Knight's
/// cape after a one-second walk cycle: +0.3% of its energy scale over the 46 steps a hold of half the
/// motion left); the energy trend is fitted where that is over.
inline constexpr uint32_t clip_hold_min_steps = 120;

/// Which of a model's clips validation plays: `--clips all|none|NAME,...`, or by default the few
/// whose names say walk, run, idle or jump (docs/validation.md#clips).
struct ClipChoice {
    enum Mode : uint8_t { none, defaults, all, named } mode = none;
    std::vector<std::string> names;  ///< named: exact clip names, in the order given

    /// "all", "none", "" (defaults) or a comma-separated list of names (blanks round a name trimmed).
    static ClipChoice parse(std::string_view text);
};

/// The words a default clip's name says (case-insensitive), in the order chosen; one clip each.
inline constexpr std::string_view default_clip_words[] = {"walk", "run", "idle", "jump"};

struct ClipMotion {
    std::string name;                        ///< the clip's name in the model; the scenario is "clip:<name>"
    std::vector<std::string> nodes;          ///< the nodes sampled, by name
    /// Per frame (60 Hz, frames[0] the clip's start, the last its end), per node: the node's rigid
    /// motion from the bind pose, model space (x at bind ↦ x now; scale taken out).
    std::vector<std::vector<Pose>> frames;
};

/// Steps a clip scenario runs unless told otherwise: the blend, every frame of the clip, then half
/// of that again (at least clip_hold_min_steps) holding the last frame.
uint32_t clip_default_steps(const ClipMotion& clip);

/// The motion of every node of `clip` at `step` (0-based) of a run: the blend from the bind pose
/// (identity) into frames[0], the frames, then the last frame held. `driven` is false once the
/// clip has stopped moving.
std::vector<Pose> clip_step(const ClipMotion& clip, uint32_t step, bool* driven = nullptr);

/// Where each thing a clip moves finds its node in `clip` (-1: a node the clip does not sample,
/// which stays where it was bound).
struct ClipBinding {
    int frame = -1;                  ///< the proxy's frame node
    std::vector<int> pins;           ///< per proxy pin, its holder
    std::vector<int> spheres;        ///< per body sphere (BodyShapes::sphere_bones)
    std::vector<int> capsules;       ///< per body capsule
};
ClipBinding bind_clip(const ClipMotion& clip, const ClothProxy& proxy, const BodyShapes* body);

/// One step's frame, holders and (with `body`, in the frame at rest) colliders as the solver takes
/// them: the frame rides its node from `rest_frame`; each holder and collider rides its own node,
/// seen from the moving frame. Colliders go to `colliders` (spheres, capsules).
void place_clip_step(const std::vector<Pose>& motion, const ClipBinding& binding, const Pose& rest_frame,
                     const BodyShapes* body, StepInput& in, StepInput& colliders);

/// a∘b: b then a.
Pose compose(const Pose& a, const Pose& b);
/// The placement undoing `p`.
Pose inverse(const Pose& p);

}  // namespace weft
