// Garments, chains and verdicts as JSON: the part of an inspect report (schemas/inspect.schema.json,
// $defs/model) that later reports (bake) reuse. Lengths are metres rounded to the micrometre so
// reports diff cleanly.
#pragma once
#include <nlohmann/json.hpp>

#include "garment/garments.h"

namespace weft {

/// {"min": [x,y,z], "max": [x,y,z]} in metres, or null for empty bounds.
nlohmann::json bounds_to_json(const Bounds& bounds);

/// "materials", "found_by_name", "verdict", "garments", "not_garments", "chains" for one model.
nlohmann::json garments_to_json(const Scene& scene, const ModelGarments& found);

}  // namespace weft
