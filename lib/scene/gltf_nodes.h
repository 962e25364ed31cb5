// A glTF document's node transforms as its JSON states them (glTF 2.0 specification, 3.5 "Nodes and
// Hierarchy"): the writers of grown models read them to place what they add in the file's own space.
// Lenient by design: the document was read and checked on import, so a missing or malformed member
// reads as its default rather than failing here.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "geom/vec.h"

namespace weft {

/// A node's local transform: its `matrix` (column-major), else translation · rotation · scale.
Mat4 gltf_node_local(const nlohmann::json& node);

/// Every node's world transform at the file's default pose (parents first, whatever the order); a
/// node in a cycle or orphaned is placed from the ancestors that can be reached.
std::vector<Mat4> gltf_node_worlds(const nlohmann::json& nodes);

}  // namespace weft
