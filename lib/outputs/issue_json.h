// An issue as every report writes it (schemas/*.schema.json "issues"): {"code", "severity",
// "message", "pointer"}; and back, for a stamp's recorded issues.
#pragma once
#include <nlohmann/json.hpp>

#include "io/issue.h"

namespace weft {

nlohmann::json issue_json(const Issue& issue);

/// Every issue, in order, as a JSON array.
nlohmann::json issues_json(const Issues& issues);

/// The issue issue_json wrote; a missing member reads as empty, an unknown severity as error.
Issue issue_from_json(const nlohmann::json& j);

}  // namespace weft
