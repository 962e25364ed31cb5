#include "solver/cycle_watch.h"

#include <algorithm>
#include <cmath>

namespace weft {

bool CycleWatch::closed(const std::vector<Vec3>& x, const std::vector<uint32_t>& watched, double back,
                        double ball, uint32_t length) {
    const bool began = !start.empty();
    double farthest2 = began ? 0 : INFINITY;
    for (size_t k = 0; began && k < watched.size(); ++k)
        farthest2 = std::max(farthest2, length_squared(x[watched[k]] - start[k]));
    returned = returned || farthest2 <= back * back;
    wide = wide || farthest2 > ball * ball;
    if (began && ++steps < length) return false;
    const bool cycle = began && returned && !wide;
    start.resize(watched.size());
    for (size_t k = 0; k < watched.size(); ++k) start[k] = x[watched[k]];
    steps = 0;
    returned = wide = false;
    return cycle;
}

}  // namespace weft
