// What became of one model in a bake (docs/architecture.md#exit-status): the word the progress
// lines, the summary line, bake-report.json, the stamp and the pages write, and what the exit
// status follows. A model a re-run found unchanged (its stamp matched) keeps the outcome its stamp
// recorded and is counted under it, marked unchanged: "1 refused (unchanged)".
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace weft {

enum class ModelStatus {
    built,    ///< outputs written (warnings allowed)
    refused,  ///< the model has an error (bad input, a failed gate); what could be written was
    failed,   ///< weft could not finish it (a write failed, a crash, out of memory, a time limit)
};

inline constexpr ModelStatus kModelStatuses[] = {ModelStatus::built, ModelStatus::refused, ModelStatus::failed};

/// "built", "refused", "failed".
constexpr const char* model_status_name(ModelStatus s) {
    switch (s) {
        case ModelStatus::built: return "built";
        case ModelStatus::refused: return "refused";
        case ModelStatus::failed: return "failed";
    }
    return "failed";
}

/// The status a name names; none for anything else.
constexpr std::optional<ModelStatus> parse_model_status(std::string_view name) {
    for (ModelStatus s : kModelStatuses)
        if (name == model_status_name(s)) return s;
    return std::nullopt;
}

/// How a progress line says it: "built", or "refused (unchanged)" for a model a re-run skipped.
inline std::string model_outcome_text(ModelStatus s, bool unchanged) {
    return std::string(model_status_name(s)) + (unchanged ? " (unchanged)" : "");
}

}  // namespace weft
