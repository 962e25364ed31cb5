// A model's body colliders (body/body_colliders.h) as validation takes them (body/body_shapes.h):
// each placed on its bone at the bind pose, model space. The one place the scene's colliders
// become the solver's plain shapes.
#pragma once
#include <filesystem>
#include <vector>

#include "body/body_colliders.h"
#include "garment/config.h"
#include "scene/scene.h"
#include "body/body_shapes.h"

namespace weft {

BodyShapes body_shapes(const Scene& scene, const BodyColliders& body);

/// The collider edits of `config` whose file matches `model`, in file order, as lib/body takes them
/// (docs/colliders.md#config); each names the config file and its entry for warnings.
std::vector<ColliderEdit> collider_edits(const GarmentConfig& config, const std::filesystem::path& model);

}  // namespace weft
