// A model's animation clips as validation plays them (docs/validation.md#clips): the clips a
// ClipChoice picks, each sampled from the scene at the step rate into plain poses
// (validate/clip_motion.h). The one place the scene's clips become validation's data.
#pragma once
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "garment/config.h"
#include "io/issue.h"
#include "scene/scene.h"
#include "validate/clip_motion.h"
#include "validate/validate.h"

namespace weft {

/// Indices into scene.clips that `choice` picks: every clip, none, the named ones in the order
/// named, or by default for each of default_clip_words the clip whose name says it (case-insensitive)
/// and says fewest of the others ("Jump_Land" before "Jump_Idle"), then the shortest such name (the
/// most generic, "Idle" before "Idle_Sword"), file order breaking a tie; each clip once. A name the model lacks sets `error`: the model (`model`), the clip and the model's
/// clips; then it returns {}.
std::vector<int> choose_clips(const Scene& scene, const ClipChoice& choice, const std::string& model, std::string& error);

/// `clip` sampled every validation_dt from its start to its end (both included): every node's rigid
/// motion from its bind placement (scale taken out), by the node's name (the first node of a name,
/// as Scene::find_node).
ClipMotion sample_clip(const Scene& scene, const Clip& clip);

/// `given` unless it is the default (--clips named nothing) and a rule of `config` matches `model`:
/// then that rule's clips.
ClipChoice configured_clips(const GarmentConfig& config, const std::filesystem::path& model, const ClipChoice& given);

/// The budgets of the clips validation plays (docs/bad-inputs.md#budgets). A clip keyed out to
/// t = 1e5 s made a 9-million-step scenario (2.1 GB, a 235 MB page, or OUT_OF_MEMORY for the whole
/// model). Past either, a clip is cut to what fits, or left out when not one frame fits, by name
/// (CLIP_OVER_BUDGET); the model's other clips still run.
inline constexpr double kMaxClipSeconds = 120;  ///< of one clip played: 7,200 frames at 60 Hz
/// Node poses sampled over every clip of one model (frames × nodes; 56 bytes each, 448 MB).
inline constexpr uint64_t kMaxClipSamples = 8'000'000;

struct ClipBudget {
    double max_seconds = kMaxClipSeconds;
    uint64_t max_samples = kMaxClipSamples;
};

/// What `weft bake --validate` and `weft validate --clips` do with a model's clips: the clips
/// options.clip_choice picks, sampled into options.clips with one clip scenario each (add_clip_runs,
/// `steps` as there), each within the budgets above (CLIP_OVER_BUDGET warnings into `issues`). An
/// unknown clip is a CLIP_NOT_FOUND issue into `issues` and no clip runs.
void add_clip_scenarios(const Scene& scene, const std::string& model, ValidationOptions& options, Issues& issues,
                        uint32_t steps = 0, const ClipBudget& budget = {});

}  // namespace weft
