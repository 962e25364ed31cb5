// The flags every model command shares (docs/commands.md#flags-every-model-command-shares): one struct,
// one place that adds them to a subcommand and one that turns them into the ModelOptions
// (pipeline/model_options.h) of that command's preset, so `--classes`, `--no-grow`, `--config`,
// `--fabric` and the validation flags mean the same on `bake`, `inspect`, `rig`, `sheet` and
// `validate`, with the same defaults.
#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "batch/model_limits.h"
#include "pipeline/model_options.h"

namespace weft::cli {

/// The groups a subcommand takes. Every model command takes `model`; what grows, the fabric and the
/// validation flags join where the command does that work.
enum ModelFlagGroup : unsigned {
    model_flags_input = 1u << 0,     ///< --config, --allow-outside-folder
    model_flags_grow = 1u << 1,      ///< --no-grow (--grow-cloth), --classes, --hair-segments, ... (weft sheet never grows)
    model_flags_fabric = 1u << 2,    ///< --fabric
    model_flags_validate = 1u << 3,  ///< --validate (weft validate always validates)
    model_flags_validation = 1u << 4,///< --scenario, --steps, --clips, --no-collide, --whole-runs, gate limits, --strain-target
    model_flags_springs = 1u << 5,   ///< --retune-springs, --collide-authored-springs (the commands that write the
                                     ///< grown model: scene/gltf_springs.h)
    model_flags_limits = 1u << 6,    ///< --max-memory, --time-limit for a command that reads models in its own process
};

struct ModelFlags {
    // input
    std::string config;  ///< "" = INPUT/weft.json of the first folder given, when there is one
    bool allow_outside_folder = false;
    // grow
    bool no_grow = false;
    bool grow_cloth = false;  ///< the default; accepted so older build scripts still run
    std::string classes = "hair,skirt";
    int hair_segments = 3;
    int skirt_segments = 4;
    int skirt_panels = 12;
    double min_strand_length = -1;  ///< < 0: the library's (grow.h kMinStrandLength)
    int64_t min_strand_verts = -1;  ///< < 0: the library's (grow.h kMinStrandVerts)
    // fabric
    std::string fabric;
    // springs: what the grown model does with the springs the artist authored (kept as authored by default)
    bool retune_springs = false;
    bool collide_authored_springs = false;
    // validation
    bool validate = false;
    std::vector<std::string> scenarios;  ///< empty: every default scenario
    uint32_t steps = 0;                  ///< 0: each scenario's own
    std::string clips;                   ///< "" = the default clips (walk, run, idle, jump), "all", "none" or names
    bool no_collide = false;
    bool whole_runs = false;             ///< every scenario to its end, failing or not (no early exit)
    double max_strain = 0;               ///< 0: GateLimits' default
    double max_energy_rise = -1;         ///< < 0: GateLimits' default
    uint32_t max_sleep_step = 0;         ///< 0: by hang's last step
    double strain_target = 0;
    // limits (batch/model_limits.h; weft bake has its own, enforced on its worker processes)
    uint64_t max_memory_mib = ModelLimits{}.max_memory_mib;
    double time_limit = ModelLimits{}.time_limit_seconds;

    ModelLimits limits() const { return {max_memory_mib, time_limit}; }
};

/// Adds the flags of `groups` to `app`, bound to `flags`.
void add_model_flags(CLI::App& app, ModelFlags& flags, unsigned groups);

/// Fills `options` (a command's preset) from `flags` for the groups the command took: the config
/// loaded (its default found beside `inputs`), classes checked against it, the fabric looked up, the
/// validation options with their scenarios, clips and limits. On a bad value prints
/// "`who`: --flag: why" to standard error and returns false (the command exits 2).
bool apply_model_flags(const ModelFlags& flags, unsigned groups, const std::vector<std::string>& inputs,
                       const std::string& who, ModelOptions& options);

/// The validation options alone (weft validate, which has no model to bake): false as above.
bool validation_options_from_flags(const ModelFlags& flags, const std::string& who, ValidationOptions& options);

/// The limits group at work (batch/model_limits.h): the process's address space capped at
/// --max-memory and a watchdog of --time-limit, to be armed round each model.
std::unique_ptr<ModelWatchdog> apply_model_limits(const ModelFlags& flags, const std::string& who);

/// Every flag value that changes what a model's bake writes, canonical (defaults spelled out), for
/// the bake stamp's options hash: a change to any of them rebuilds the model.
std::string model_flags_text(const ModelFlags& flags, unsigned groups);

}  // namespace weft::cli
