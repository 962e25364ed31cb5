// The numbers a model file gives, against the model's own size (docs/bad-inputs.md#numbers-from-a-file):
// a stray vertex, a node far off or collapsed, a clip key that throws a node kilometres. Each is judged
// by one check (io/number_range.h) against one measure of the model's size, ModelCore.
#pragma once
#include "scene/import_detail.h"
#include "scene/scene.h"

namespace weft::import_detail {

/// How far past the model's core a vertex may lie before the model's size means nothing (refused:
/// VERTEX_OUT_OF_RANGE), and a node's origin before it is named (TRANSFORM_OUT_OF_RANGE), in core sizes.
inline constexpr double kFarFromTheModel = 1000;
/// How far a clip may move a node from its rest, in core sizes (a 120 s clip at 10 m/s moves a 1.8 m
/// character 670 sizes): a key past it is skipped (CLIP_KEY_OUT_OF_RANGE).
inline constexpr double kFarForAClip = 10000;
/// A rotation whose length is further from 1 than this is not a unit quaternion (renormalised, named).
inline constexpr double kUnitQuaternionTolerance = 1e-3;

/// The model's extent with its few most extreme vertices left out (on each side of each axis, one in a
/// thousand, at least one): what one vertex at 1e30 cannot move. Empty for a model of under 8 vertices.
struct ModelCore {
    Bounds bounds;
    double size = 0;  ///< bounds' diagonal, metres
};
ModelCore model_core(const Scene& scene);

/// How far `p` lies outside `b` (0 inside it), metres.
double distance_outside(const Bounds& b, const Vec3& p);

/// Refuses a vertex farther than kFarFromTheModel core sizes outside the core (VERTEX_OUT_OF_RANGE,
/// naming the mesh, the vertex, where it is and the core's size).
bool check_vertex_range(const Scene& scene, const ModelCore& core, Reporter& report);

/// Names a node whose rest scale is zero along an axis, or whose origin lies farther than
/// kFarFromTheModel core sizes outside the core (TRANSFORM_OUT_OF_RANGE, kept as it is).
void check_node_range(const Scene& scene, const ModelCore& core, Reporter& report);

/// A clip's keys against the model: times out of order (counted; check_clips sorts them), rotations
/// not of unit length (counted; normalised there), translations moving a node farther than kFarForAClip
/// core sizes from its rest (dropped). One CLIP_KEY_OUT_OF_RANGE per clip names the counts.
void check_clip_key_range(Scene& scene, const ModelCore& core, Reporter& report);

}  // namespace weft::import_detail
