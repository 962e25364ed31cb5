// Internal to the sheet builder: the render mesh bound to the simulation mesh (docs/proxy.md#binding).
#pragma once
#include <cstdint>
#include <span>

#include "proxy/core/cloth_proxy.h"

namespace weft::sheet_detail {

struct BindingStats {
    uint32_t vertices = 0;        ///< source vertices
    uint32_t bound = 0;           ///< of them, those with a binding
    double rest_error_max = 0;    ///< metres: worst distance of a bound vertex, deformed by the rest pose, from its source position
    double rest_error_mean = 0;   ///< metres: the mean of that distance over the bound vertices
};

/// Fills proxy.binding_triangle and binding_coordinates for every source vertex: `position` is
/// each one's place in the frame, `bind` says which to bind (used by a kept triangle, finite). A
/// vertex that is a particle rides a corner of its lowest triangle; any other the nearest proxy
/// triangle. Needs the proxy's rest positions, triangles and vertex_particle.
BindingStats bind_render_mesh(ClothProxy& proxy, std::span<const Vec3> position, std::span<const uint8_t> bind);

}  // namespace weft::sheet_detail
