// The config's garment rules that were meant for a model and name nothing in it: a misspelt
// material, mesh or node, said rather than silently ignored (docs/config.md).
#pragma once
#include <string>
#include <vector>

#include "garment/config.h"
#include "scene/scene.h"

namespace weft {

/// One message per garment rule whose `file` pattern is set and matches `scene.source_path` but
/// whose material, mesh or node no part of the scene has. A rule without `file` applies to every
/// model and is meant to match only some, so it is never reported. Each message names the model,
/// the config file (its name alone: no machine path goes into a report), the rule's pointer and
/// what the model has instead.
std::vector<std::string> rules_naming_nothing(const Scene& scene, const GarmentConfig& config);

}  // namespace weft
