// Inside weft bake (bake.h): how the models of a run are baked, in worker processes or threads.
// bake() walks, refuses clashes, orders the models by cost and hands them here.
#pragma once
#include <cstddef>
#include <vector>

#include "batch/bake.h"
#include "solver/spare_capacity.h"

namespace weft {

/// A model baked in this process: its record reduced to its row.
BakeModelResult bake_one(const BakeInput& input, const BakeOptions& options);

/// `options` with `spare` lent to its validations (none without --validate).
BakeOptions with_spare(const BakeOptions& options, SpareCapacity* spare);

/// The models of `inputs` at the places `order` lists, each baked in a worker process of its own,
/// `n` at a time (a crash, memory exhaustion or a runaway fails that model alone, named with the
/// stage it died in), stored into result.models by walk index; `done` counts them.
void bake_in_workers(const std::vector<BakeInput>& inputs, const std::vector<size_t>& order, size_t n,
                     const BakeOptions& options, const BakeProgress& progress, BakeResult& result, size_t& done);

}  // namespace weft
