// The invariants an imported Scene keeps (listed in scene/scene.h), established once at the end of
// every importer, so no later stage re-checks them.
#pragma once
#include <cstddef>

#include "io/issue.h"
#include "scene/scene.h"

namespace weft {

/// At most this many influences per vertex: glTF's two JOINTS/WEIGHTS sets. A vertex with more keeps
/// its heaviest ones, renormalised.
inline constexpr size_t kMaxInfluences = 8;

/// A vertex's weights are left as they are when they sum to 1 within this (float rounding of an
/// importer's own normalisation); further off, they are renormalised.
inline constexpr double kWeightSumTolerance = 1e-3;

/// Makes `scene` keep the invariants of scene/scene.h, or refuses it. Every importer calls this last,
/// after it has filled the Scene; `scene.source_path` names the file in messages (as every import
/// message does: "<file>: mesh 'M' (node 'N', material 'X'): ...").
///
/// Refused (an error issue, returns false; the Scene is then not to be used):
/// - an index out of range or a parent cycle (SCENE_REFERENCE_INVALID): a node's parent or child,
///   a mesh's node, material or skin, a node's mesh, a skin's joint, a mesh's influence offsets;
/// - a triangle naming a vertex the mesh lacks (INDEX_OUT_OF_RANGE);
/// - a position not finite (NON_FINITE_POSITION), an inverse bind not finite (NON_FINITE_TRANSFORM);
/// - an influence naming a joint outside its skin (JOINT_OUT_OF_RANGE), a weight NaN, infinite or
///   negative (WEIGHT_INVALID);
/// - a vertex farther outside the model's core than kFarFromTheModel core sizes (VERTEX_OUT_OF_RANGE,
///   scene/authored_numbers.h).
/// Named and kept: a node of zero scale or far outside the model (TRANSFORM_OUT_OF_RANGE).
/// Repaired:
/// - a vertex whose weights sum further than kWeightSumTolerance from 1, name one joint twice, hold a
///   zero weight or number more than kMaxInfluences: merged, zero weights dropped, the heaviest
///   kMaxInfluences kept (heaviest first), divided by their sum; one WEIGHTS_NORMALISED (info) per
///   mesh names the count and the first vertex;
/// - an inverse bind that is not the inverse of its joint's rest world transform (more than 1e-6 off
///   in the product): replaced by it, so that the rest pose is the one bind pose (silently: the
///   positions are already in the rest pose, which is what the importer's contract says);
/// - influences on a mesh with no skin: dropped;
/// - a declared spring or collider naming a node the scene lacks: the node dropped (SPRING_INVALID).
/// - a clip channel naming a node the scene lacks or one already moved, a key not finite, before 0,
///   at a time already keyed or a zero rotation: dropped (CLIP_INVALID); keys sorted by time,
///   rotations normalised, channels in node order, a duration shorter than the latest key raised to it;
///   keys out of order, rotations not of unit length (counted) and translations that throw a node
///   farther than kFarForAClip core sizes (dropped): one CLIP_KEY_OUT_OF_RANGE per clip.
/// Everything already keeping an invariant is left bit for bit as it was.
bool enforce_scene_invariants(Scene& scene, Issues& issues);

}  // namespace weft
