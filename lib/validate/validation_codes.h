// What `weft validate` and `weft bake --validate` report about a proxy, in the stage tables' shape
// (io/issue.h IssueCode): the gates (gates.h gate_code, never reworded) and the solver's refusal.
// A proxy the loader refuses is reported under its proxy_file_codes code.
#pragma once
#include "io/issue.h"

namespace weft {

inline constexpr IssueCode kClipNotFound{"CLIP_NOT_FOUND", Severity::error, "--clips (or the config) names an animation clip the model does not have; the message lists the model's clips. Its clip scenarios were not run."};
inline constexpr IssueCode kClipOverBudget{"CLIP_OVER_BUDGET", Severity::warning, "A clip played as a scenario is longer than a clip's budget (120 s), or the model's clips before it used the budget of sampled node poses (8,000,000; docs/bad-inputs.md#budgets): validation plays the part that fits, or leaves the clip out when not one frame fits, by name; the model's other clips still run."};
inline constexpr IssueCode kClipModelUnreadable{"CLIP_MODEL_UNREADABLE", Severity::error, "weft validate --clips: the model the proxy was built from (its source_file, or --model) cannot be read, so its clips cannot be played."};

inline constexpr IssueCode validation_codes[] = {
    {"NON_FINITE", Severity::error, "A position, velocity or energy went NaN or infinite in some scenario."},
    {"NEVER_SLEPT", Severity::error, "Hanging at rest, the cloth did not fall asleep by the step allowed (--max-sleep-step, default the scenario's last)."},
    {"STRAIN", Severity::error, "A stretch edge stretched past the worst length/rest allowed (--max-strain, default 1.10) in some scenario."},
    {"ENERGY_RISING", Severity::error, "Total energy rose over the undriven last third of a scenario: the step creates energy (docs/measurements.md, hostile regimes)."},
    {"PENETRATION", Severity::error, "A particle, or a rig garment's render vertex posed from the particles, sank deeper into a body collider than the fabric's thickness allows (default: one thickness) in some scenario."},
    {"SELF_INTERSECTION", Severity::error, "At the end of some scenario more pairs of the sheet's triangles crossed each other than in its rest pose (pairs that touched at rest left out): the cloth passed through itself."},
    {"MESH_STRETCH", Severity::error, "Placed from the particles by its binding, an edge of a sheet's render mesh stretched past the worst length/rest allowed (default 1.10) in some scenario: the visible garment tears."},
    {"FACE_INSIDE_OUT", Severity::error, "At the end of some scenario a face of a two-sided sheet's render mesh, drawn with its modelled thickness off the cloth, is inside out: the cloth bent tighter than the thickness it is drawn with."},
    {"UNSIMULATABLE", Severity::error, "The solver refused the proxy (its message says why); nothing was run."},
    kClipNotFound,
    kClipOverBudget,
    kClipModelUnreadable,
};

}  // namespace weft
