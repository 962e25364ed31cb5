// Every finding build_rig reports, with its stable code, default severity and a one-line
// description (the Khronos glTF-Validator's table shape).
#pragma once
#include <string_view>

#include "io/issue.h"

namespace weft {

inline constexpr IssueCode kRigEmpty{"RIG_EMPTY", Severity::error, "The garment has no chain, or a chain with no joint."};
inline constexpr IssueCode kRigJointInvalid{"RIG_JOINT_INVALID", Severity::error, "A chain names a node the model does not have."};
inline constexpr IssueCode kRigChainBroken{"RIG_CHAIN_BROKEN", Severity::error, "Consecutive joints of a chain are not parent and child in the model's hierarchy."};
inline constexpr IssueCode kRigZeroLengthLink{"RIG_ZERO_LENGTH_LINK", Severity::error, "Two particles a link joins sit at one position in the bind pose: the link has no direction."};
inline constexpr IssueCode kRigNonFinite{"RIG_NON_FINITE", Severity::error, "A joint's or the frame's bind transform is NaN or infinite."};
inline constexpr IssueCode kRigUnknownFabric{"RIG_UNKNOWN_FABRIC", Severity::error, "The fabric named for the garment is not in the library."};
inline constexpr IssueCode kRigNothingHeld{"RIG_NOTHING_HELD", Severity::warning, "No chain hangs from a bone: nothing holds the cloth and it falls (allowed: a proxy may fall)."};
inline constexpr IssueCode kRigColouringInvalid{"RIG_COLOURING_INVALID", Severity::error, "The greedy colouring failed its independent check (a bug, never the input's fault)."};

inline constexpr IssueCode rig_codes[] = {
    kRigEmpty,
    kRigJointInvalid,
    kRigChainBroken,
    kRigZeroLengthLink,
    kRigNonFinite,
    kRigUnknownFabric,
    kRigNothingHeld,
    kRigColouringInvalid,
};

/// The table row for `code`, or nullptr.
constexpr const IssueCode* find_rig_code(std::string_view code) { return find_issue_code(rig_codes, code); }

}  // namespace weft
