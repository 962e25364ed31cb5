// Where a node is in the bind pose: the pose a skinned mesh's positions are in (scene/scene.h), which
// is what grown bones are fitted to and what rig proxies rest in.
#pragma once
#include "geom/vec.h"
#include "scene/scene.h"

namespace weft {

/// The node's bind-pose placement in scene space: the inverse of its inverse bind matrix when it is
/// a joint of some skin (the first skin listing it whose matrix inverts to finite values), else its
/// rest world transform; the identity for a node the scene does not have.
Mat4 bind_world(const Scene& scene, int node);

}  // namespace weft
