// Every finding grow_cloth reports, with its stable code, default severity and a one-line
// description (the Khronos glTF-Validator's table shape).
#pragma once
#include <string_view>

#include "io/issue.h"

namespace weft {

inline constexpr IssueCode kGrowOptions{"GROW_OPTIONS", Severity::error, "An option is out of range (segments, panels, lengths, blend, influences); nothing is grown."};
inline constexpr IssueCode kGrowHasChains{"GROW_HAS_CHAINS", Severity::info, "The garment already moves on authored chains; they are used as they are and nothing is grown."};
inline constexpr IssueCode kGrowNotAGarment{"GROW_NOT_A_GARMENT", Severity::info, "A name match lib/garment judged not to be a garment (too small, or a config rule says so); nothing is grown."};
inline constexpr IssueCode kGrowNoStrategy{"GROW_NO_STRATEGY", Severity::warning, "The garment's class is selected but moves as a sheet: only classes grown as strands (islands: hair, tails, ribbons, neckties) or wedges (radial panels: skirts, dresses, robes) are grown."};
inline constexpr IssueCode kGrowNotSkinned{"GROW_NOT_SKINNED", Severity::warning, "A garment mesh has no skin weights to re-weight (it rides a node rigidly); nothing is grown for it."};
inline constexpr IssueCode kGrowNoHolder{"GROW_NO_HOLDER", Severity::warning, "A clump's vertices carry no weight on any bone, so there is no body bone to hang its chain from."};
inline constexpr IssueCode kGrowCapSplit{"GROW_CAP_SPLIT", Severity::info, "A hair island wider around its bone's axis than it is long (a cap, not a strand) was cut into wedges around that axis."};
inline constexpr IssueCode kGrowClumpDropped{"GROW_CLUMP_DROPPED", Severity::info, "A clump shorter than min_strand_length or with fewer than min_strand_verts vertices was dropped (fringe, ornaments)."};
inline constexpr IssueCode kGrowNothingGrown{"GROW_NOTHING_GROWN", Severity::warning, "Every clump of the garment was dropped: it stays welded to the bone that holds it."};
inline constexpr IssueCode kGrowNameTaken{"GROW_NAME_TAKEN", Severity::info, "A grown joint's name was already a node of the model; the chain was given a numbered name instead."};

inline constexpr IssueCode kGrowStrayWeight{"GROW_STRAY_WEIGHT", Severity::warning, "An authored chain's joint weighs a vertex farther from the chain than the chain reaches (its length, at least 10 cm): a stray weight, moved to the vertex's other bones in the grown model."};

inline constexpr IssueCode grow_codes[] = {
    kGrowOptions,
    kGrowHasChains,
    kGrowNotAGarment,
    kGrowNoStrategy,
    kGrowNotSkinned,
    kGrowNoHolder,
    kGrowCapSplit,
    kGrowClumpDropped,
    kGrowNothingGrown,
    kGrowNameTaken,
    kGrowStrayWeight,
};

/// The table row for `code`, or nullptr.
constexpr const IssueCode* find_grow_code(std::string_view code) { return find_issue_code(grow_codes, code); }

}  // namespace weft
