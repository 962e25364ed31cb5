// Every finding build_rig reports, with its stable code, default severity and a one-line
// description (the Khronos glTF-Validator's table shape).
#pragma once
#include <string_view>

#include "io/issue.h"

namespace weft {

inline constexpr IssueCode rig_codes[] = {
    {"RIG_EMPTY", Severity::error, "The garment has no chain, or a chain with no joint."},
    {"RIG_JOINT_INVALID", Severity::error, "A chain names a node the model does not have."},
    {"RIG_CHAIN_BROKEN", Severity::error, "Consecutive joints of a chain are not parent and child in the model's hierarchy."},
    {"RIG_ZERO_LENGTH_LINK", Severity::error, "Two particles a link joins sit at one position in the bind pose: the link has no direction."},
    {"RIG_NON_FINITE", Severity::error, "A joint's or the frame's bind transform is NaN or infinite."},
    {"RIG_UNKNOWN_FABRIC", Severity::error, "The fabric named for the garment is not in the library."},
    {"RIG_NOTHING_HELD", Severity::warning, "No chain hangs from a bone: nothing holds the cloth and it falls (allowed: a proxy may fall)."},
    {"RIG_COLOURING_INVALID", Severity::error, "The greedy colouring failed its independent check (a bug, never the input's fault)."},
};

/// The table row for `code`, or nullptr.
constexpr const IssueCode* find_rig_code(std::string_view code) { return find_issue_code(rig_codes, code); }

}  // namespace weft
