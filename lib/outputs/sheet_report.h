// `weft sheet`'s outputs about one model (docs/proxy.md#sheet-proxy), each a pure function of its
// record (model_record.h) and the options it was baked with: report.json (schemas/sheet.schema.json),
// the summary for people and the lines for standard error.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "io/issue.h"
#include "pipeline/model_record.h"
#include "pipeline/model_options.h"

namespace weft {

inline constexpr const char* sheet_json_schema = "weft.sheet/1";

/// A sheet build's "stats" object (weft.sheet/1's garments, weft.rig-report/1's sheets).
nlohmann::json sheet_stats_json(const SheetStats& stats);

/// Why the sheets of `record` are not all there: "" when none is missing, else the selection's
/// error or "the model was refused on import".
std::string sheet_report_error(const ModelRecord& record);

/// Every selected sheet built and written, at least one, and nothing failed.
bool sheet_report_passed(const ModelRecord& record);

/// report.json of `weft sheet` (schema weft.sheet/1): the options it ran with (options.sheet_only
/// set), the import's findings, each selected garment and how it came out.
nlohmann::json sheet_report_json(const ModelRecord& record, const ModelOptions& options);

/// A few lines for people: one per selected garment, and why nothing was when nothing was.
std::string sheet_report_text(const ModelRecord& record);

/// What goes to standard error, in order: the import's errors when it refused the model, the
/// selection's error, each sheet's errors and warnings, and anything that stopped the bake.
Issues sheet_report_messages(const ModelRecord& record);

}  // namespace weft
