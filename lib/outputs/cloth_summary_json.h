// A model's cloth summary (pipeline/cloth_summary.h) as bake-report.json and the stamp write it
// (schemas/bake-report.schema.json, "cloth"), and read back from a stamp.
#pragma once
#include <optional>

#include <nlohmann/json.hpp>

#include "pipeline/cloth_summary.h"

namespace weft {

/// {"garments", "moving", "proxies", "passing"?, "worst_gate"?: {gate, proxy, scenario, value, limit, passed}}.
nlohmann::json cloth_summary_json(const ClothSummary& summary);

/// The summary `cloth_summary_json` wrote; none for anything else (a stamp of an older weft).
std::optional<ClothSummary> cloth_summary_from_json(const nlohmann::json& j);

}  // namespace weft
