// What the pipeline itself reports, beside the codes of the stages it runs: the per-model path
// (model_stages.h, bake_model.h) and `weft bake`'s run (bake.h). Tables in io/issue.h's shape.
#pragma once
#include "io/issue.h"

namespace weft {

// Each code once, by name: a call site names the constant and takes its severity from it.
inline constexpr IssueCode kNoGarmentFound{"NO_GARMENT_FOUND", Severity::warning, "No garment was found by name (and no authored chain): nothing to build in this model."};
inline constexpr IssueCode kHairLiesOnHead{"HAIR_LIES_ON_HEAD", Severity::info, "Hair found by its name or the body rules lies on the head (it ends above the neck joint and the median distance of its lowest quarter from the body is under 0.06 of the head's height: cropped or tied close), or, a hair piece alone with no body in its file, lies on the face (it ends above the neck joint and 0.9 of it lies in front of the head joint: a beard): found, and neither grown nor built; a config rule naming it builds it (docs/garments-by-geometry.md#hair-lying-on-the-head)."};
inline constexpr IssueCode kModelRewritten{"MODEL_REWRITTEN", Severity::warning, "The grown model was written from the scene rather than by patching the source: animations, textures and morph targets are not carried."};
inline constexpr IssueCode kSpringsNotWritten{"SPRINGS_NOT_WRITTEN", Severity::warning, "The model's spring bones (VRMC_springBone or VRM 0.x secondaryAnimation) could not be written into a copy of it; the message says why. The proxies and sidecar are unaffected."};
inline constexpr IssueCode kColliderEditSkipped{"COLLIDER_EDIT_SKIPPED", Severity::warning, "A config's collider edit (\"colliders\" in weft.json) names a bone the model lacks, or removes or resizes a bone that has no collider: the message names the config file, the entry and the bone; the edit is skipped."};
inline constexpr IssueCode kConfigRuleNamesNothing{"CONFIG_RULE_NAMES_NOTHING", Severity::warning, "A weft.json garment rule whose `file` matches the model names a material, mesh or node the model does not have (a misspelt name): the rule applies to nothing; the message names the rule's pointer and what the model has instead. A rule without `file` is meant for some models only and is not reported."};
inline constexpr IssueCode kTailIsBody{"TAIL_IS_BODY", Severity::info, "A tail (on authored chains, or found by the skeleton's shape) is the body carried on out of the hips, not a tail that swings (a T-rex's, a raptor's, a snake's): a quarter of the way down it is still 0.37 of the hips' width or more, only narrower beyond, and at five eighths under 0.9 of its width at the quarter (a brush that holds its width swings); found and not built; the message names it and its widths. A config rule naming the chain's root joint as a tail builds it."};
inline constexpr IssueCode kGarmentOverBudget{"GARMENT_OVER_BUDGET", Severity::error, "A garment to be built as a sheet has more triangles than one sheet's budget (500,000; docs/bad-inputs.md#budgets): refused before the builder runs, the model's other garments built."};
inline constexpr IssueCode kParticlesOverBudget{"PARTICLES_OVER_BUDGET", Severity::error, "A sheet would have more particles than one proxy's budget (65,536; docs/bad-inputs.md#budgets): its resolution asks for more (refused before the resampler runs) or, built at `source`, it has more. Refused, the model's other garments built; choose a coarser --resolution."};
inline constexpr IssueCode kOutputIsInput{"OUTPUT_IS_INPUT", Severity::error, "The grown model would overwrite the model it was grown from; choose another output folder."};
inline constexpr IssueCode kInputNotFound{"INPUT_NOT_FOUND", Severity::error, "An INPUT given on the command line does not exist."};
inline constexpr IssueCode kInputUnreadable{"INPUT_UNREADABLE", Severity::error, "A folder could not be walked, or the model or a file it references could not be read for hashing."};
inline constexpr IssueCode kOutputUnwritable{"OUTPUT_UNWRITABLE", Severity::error, "An output file or folder could not be written."};
inline constexpr IssueCode kInternalError{"INTERNAL_ERROR", Severity::error, "Baking the model threw; the other models were still baked."};
inline constexpr IssueCode kInputNotRegular{"INPUT_NOT_REGULAR", Severity::error, "A model file found by the walk or given as INPUT is a FIFO, a device or a socket: refused by name without opening it, the walk goes on."};
inline constexpr IssueCode kInputLinkLoop{"INPUT_LINK_LOOP", Severity::error, "A symbolic link in an INPUT folder points to itself (or round a loop): named, the walk goes on."};
inline constexpr IssueCode kOutputNotRegular{"OUTPUT_NOT_REGULAR", Severity::error, "An output (a model's file, bake-report.json, --report, --depfile) exists and is a FIFO, a device, a symbolic link or a folder: weft replaces only regular files."};
inline constexpr IssueCode kOutputOutsideOut{"OUTPUT_OUTSIDE_OUT", Severity::error, "A model's output folder OUT/<relative>/ resolves outside OUT through a symbolic link: nothing is written there."};
inline constexpr IssueCode kOutputClash{"OUTPUT_CLASH", Severity::error, "Two INPUTs hold a model with the same relative path: the first (in INPUT order) is baked into OUT/<relative>/, the later one is refused."};
inline constexpr IssueCode kCrashed{"CRASHED", Severity::error, "The model's bake died on a signal (its worker process; the message names the signal and the stage); the other models were still baked."};
inline constexpr IssueCode kOutOfMemory{"OUT_OF_MEMORY", Severity::error, "The model's bake needed more memory than --max-memory allows (the message names the stage); the other models were still baked."};
inline constexpr IssueCode kTimedOut{"TIMED_OUT", Severity::error, "The model's bake ran longer than --time-limit seconds of wall time (a runaway simulation or import) and was stopped; the message names the stage."};
inline constexpr IssueCode kNameNotUtf8{"NAME_NOT_UTF8", Severity::warning, "The model's path is not valid UTF-8: reports write each invalid byte as \\xHH; the model is baked."};
inline constexpr IssueCode kDepfileUnrepresentable{"DEPFILE_UNREPRESENTABLE", Severity::warning, "A path holds a newline, a carriage return or a tab, or ends in ':' or a backslash, which no Make or Ninja depfile can name: it is left out of --depfile (the model is baked; rename the file to have it tracked)."};

inline constexpr IssueCode kConfigRuleMatchesNoModel{"CONFIG_RULE_MATCHES_NO_MODEL", Severity::warning, "A weft.json rule's `file` glob (a garment, clips or colliders rule) matches none of the models `weft bake` walked (a misspelt or moved file name): the rule applies to nothing; the message names the config file, the rule's pointer and some of the models there are. Checked only when a folder is walked: models named one by one (a build farm's action with the whole library's config) leave the other models' rules unsaid."};

inline constexpr IssueCode model_codes[] = {
    kNoGarmentFound,
    kHairLiesOnHead,
    kModelRewritten,
    kSpringsNotWritten,
    kOutputIsInput,
    kColliderEditSkipped,
    kConfigRuleNamesNothing,
    kTailIsBody,
    kGarmentOverBudget,
    kParticlesOverBudget,
};

inline constexpr IssueCode bake_codes[] = {
    kInputNotFound,
    kInputUnreadable,
    kOutputUnwritable,
    kInternalError,
    kInputNotRegular,
    kInputLinkLoop,
    kOutputNotRegular,
    kOutputOutsideOut,
    kOutputClash,
    kCrashed,
    kOutOfMemory,
    kTimedOut,
    kNameNotUtf8,
    kDepfileUnrepresentable,
    kConfigRuleMatchesNoModel,
};

}  // namespace weft
