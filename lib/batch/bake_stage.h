// The stage a model's bake is in, for what a crash report names (weft bake's isolation,
// docs/bad-inputs.md): a worker process writes it into a page it shares with the driver.
#pragma once
#include <cstddef>

namespace weft {

inline constexpr size_t bake_stage_size = 64;  ///< bytes of a stage slot, the name and its terminator

/// Where set_bake_stage writes from now on (`bake_stage_size` bytes); null (the default, a process
/// that bakes in its own threads) turns it off.
void set_bake_stage_slot(char* slot);

/// Names the stage the model's bake is in ("read", "build", "write", "page", "stamp").
void set_bake_stage(const char* stage);

/// The stage last named, or null without a slot.
const char* bake_stage();

}  // namespace weft
