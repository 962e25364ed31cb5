// What became of one model in a bake (docs/architecture.md#exit-status): the word bake-report.json,
// the stamp and the progress lines write.
#pragma once
#include <optional>
#include <string_view>

namespace weft {

enum class ModelStatus {
    built,    ///< outputs written (warnings allowed)
    skipped,  ///< its stamp matched: the outputs on disk are current, nothing rebuilt
    refused,  ///< the model has an error (bad input, a failed gate); what could be written was
    failed,   ///< weft could not finish it (a write failed, a crash, out of memory, a time limit)
};

inline constexpr ModelStatus kModelStatuses[] = {ModelStatus::built, ModelStatus::skipped, ModelStatus::refused,
                                                 ModelStatus::failed};

/// "built", "skipped", "refused", "failed".
constexpr const char* model_status_name(ModelStatus s) {
    switch (s) {
        case ModelStatus::built: return "built";
        case ModelStatus::skipped: return "skipped";
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

}  // namespace weft
