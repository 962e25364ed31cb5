#include "batch/bake_stage.h"

#include <cstring>

namespace weft {
namespace {
char* stage_slot = nullptr;
}  // namespace

void set_bake_stage_slot(char* slot) { stage_slot = slot; }

void set_bake_stage(const char* stage) {
    if (!stage_slot) return;
    std::strncpy(stage_slot, stage, bake_stage_size - 1);
    stage_slot[bake_stage_size - 1] = '\0';
}

const char* bake_stage() { return stage_slot; }

}  // namespace weft
