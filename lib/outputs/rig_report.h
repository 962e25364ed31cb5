// `weft rig`'s and `weft bake`'s report.json about one model (schemas/rig-report.schema.json), and
// its summary for people: pure functions of the model's record (model_record.h).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "pipeline/model_record.h"

namespace weft {

/// The report (schemas/rig-report.schema.json, "schema": "weft.rig-report/1"); the validation's
/// timings only with `timings` (weft bake keeps them in bake-report.json).
nlohmann::json rig_report_json(const ModelRecord& result, bool timings = true);

/// The grown model's `spring_bones` object: what was kept, added and changed (scene/gltf_springs.h).
nlohmann::json spring_bones_json(const SpringsWritten& written);

/// The same for people: a few lines per garment.
std::string rig_report_text(const ModelRecord& result);

}  // namespace weft
