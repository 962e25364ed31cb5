// The sleep test's cycle watch (docs/solver.md#cycles): whether a cloth, with nothing changing, goes
// round a loop of its own step, one small enough that stopping it shows nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "geom/vec.h"

namespace weft {

/// A watch of a set number of steps from a pose. It reports at the end of each watch, and the next
/// one starts from the pose the cloth ends it in; clear() drops the pose (an input changed).
struct CycleWatch {
    std::vector<Vec3> start;  ///< the watched particles' positions when the watch began; empty: none yet
    uint32_t steps = 0;       ///< steps since it began
    bool returned = false;    ///< the cloth came back to within `back` of the start at some step
    bool wide = false;        ///< the cloth went further than `ball` from the start at some step

    void clear() { start.clear(); }

    /// Notes the particles `watched` of `x` at a step's end. True at the end of a watch of `length`
    /// steps in which they came back to within `back` of the start (every one of them) at some step
    /// and never went further from it than `ball`: a closed cycle too small to see.
    bool closed(const std::vector<Vec3>& x, const std::vector<uint32_t>& watched, double back, double ball,
                uint32_t length);
};

}  // namespace weft
