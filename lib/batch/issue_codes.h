// Every code weft reports, one table per stage in pipeline order: what `weft codes` prints and
// docs/issue-codes.md is generated from (a test keeps the file equal to `weft codes --markdown`).
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/issue.h"

namespace weft {

struct StageCodes {
    std::string_view stage;          ///< "import", "grow", "sheet", ...
    std::string_view what;           ///< one line: which step reports them
    std::span<const IssueCode> codes;
};

/// The stage tables, in pipeline order.
std::vector<StageCodes> every_issue_code();

/// The docs page: one Markdown table per stage.
std::string issue_codes_markdown();

}  // namespace weft
