// A model's body colliders (body/body_colliders.h) as validation takes them (validate/body.h):
// each placed on its bone at the bind pose, model space. The one place the scene's colliders
// become the solver's plain shapes.
#pragma once
#include "body/body_colliders.h"
#include "scene/scene.h"
#include "validate/body.h"

namespace weft {

BodyShapes body_shapes(const Scene& scene, const BodyColliders& body);

}  // namespace weft
