#include "proxy/core/cloth_proxy.h"

#include <cmath>

namespace weft {

double reach(const ClothProxy& proxy) {
    double r = 0;
    for (size_t i = 0; i < proxy.particle_count(); ++i) {
        double d = proxy.d_geo[i];
        r = std::fmax(r, std::isfinite(d) ? d : length(proxy.rest_position[i]));
    }
    return r;
}

}  // namespace weft
