// What the pipeline itself reports, beside the codes of the stages it runs: the per-model path
// (rig_model.h, sheet_model.h) and `weft bake`'s run (bake.h). Tables in io/issue.h's shape.
#pragma once
#include "io/issue.h"

namespace weft {

inline constexpr IssueCode model_codes[] = {
    {"NO_GARMENT_FOUND", Severity::warning, "No garment was found by name (and no authored chain): nothing to build in this model."},
    {"MODEL_REWRITTEN", Severity::warning, "The grown model was written from the scene rather than by patching the source: animations, textures and morph targets are not carried."},
    {"SPRINGS_NOT_WRITTEN", Severity::warning, "The model's spring bones (VRMC_springBone or VRM 0.x secondaryAnimation) could not be written into a copy of it; the message says why. The proxies and sidecar are unaffected."},
    {"VALIDATION_FAILED", Severity::error, "A rig proxy failed a validation gate (weft rig --validate): the solver's (NEVER_SLEPT, STRAIN, ...), MESH_STRETCH or SCALP_DISPLACEMENT; the message has the numbers."},
    {"WRITE_FAILED", Severity::error, "An output file could not be written (the message names it and the system's reason)."},
    {"OUTPUT_IS_INPUT", Severity::error, "The grown model would overwrite the model it was grown from; choose another output folder."},
};

inline constexpr IssueCode mesh_codes[] = {
    {"MESH_STRETCH", Severity::error, "Posed from a rig proxy's simulation (hang's settled end, every idle frame), a garment triangle edge of the skinned mesh stretched past the limit against its bind length (default 1.10): the mesh tears."},
    {"SCALP_DISPLACEMENT", Severity::error, "Posed the same way, a scalp or waistband vertex (at least half its weight on body bones) moved more than the limit from its bind position (default 2 mm)."},
};

inline constexpr IssueCode bake_codes[] = {
    {"INPUT_NOT_FOUND", Severity::error, "An INPUT given on the command line does not exist."},
    {"INPUT_UNREADABLE", Severity::error, "A folder could not be walked, or the model or a file it references could not be read for hashing."},
    {"OUTPUT_UNWRITABLE", Severity::error, "An output file or folder could not be written."},
    {"INTERNAL_ERROR", Severity::error, "Baking the model threw; the other models were still baked."},
};

}  // namespace weft
