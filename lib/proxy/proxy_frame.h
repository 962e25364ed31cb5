// The frame a proxy is simulated in (docs/proxy.md#frame: what holds the cloth is pins, the node
// is only its frame), shared by the sheet and rig builders: which node it is, and its placement with the
// scale taken out, so rest positions in the frame stay in metres even when the node carries a scale
// (FBX2glTF's armatures and mesh nodes carry 100).
#pragma once
#include <span>

#include "geom/vec.h"
#include "scene/scene.h"

namespace weft {

/// Only the rotation and translation of `world`: scale (and a reflection) removed.
Mat4 rigid_part(const Mat4& world);

/// The deepest node that is an ancestor of (or equal to) every node in `nodes`; 0 (the scene's
/// root) when they share none or `nodes` is empty. Out-of-range nodes are ignored.
int lowest_common_ancestor(const Scene& scene, std::span<const int> nodes);

}  // namespace weft
