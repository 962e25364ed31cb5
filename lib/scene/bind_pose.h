// Where a node is in the bind pose: the one pose every skinned mesh's positions are in
// (scene/scene.h). The importer makes it the rest pose (scene/invariants.h); grow fits new joints
// to it, and rig proxies rest in it.
#pragma once
#include "geom/vec.h"
#include "scene/scene.h"

namespace weft {

/// The node's bind-pose placement in scene space: the inverse of its inverse bind matrix when it is
/// a joint of some skin (the first skin listing it whose matrix inverts to finite values), else its
/// rest world transform; the identity for an index that names no node. For an imported joint this
/// is its rest `world` (one bind pose); it is read through the inverse bind so that a joint grow
/// added reads exactly the frame it was fitted to.
Mat4 bind_world(const Scene& scene, int node);

}  // namespace weft
