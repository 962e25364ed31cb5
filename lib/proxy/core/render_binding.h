// The render mesh bound to a sheet proxy's particles (docs/proxy.md#binding): each source vertex
// rides one proxy triangle at barycentric coordinates and an offset along the particle normals
// interpolated there. The C++ standard library alone: the runtime deforms with it.
#pragma once
#include <span>

#include "proxy/core/cloth_proxy.h"

namespace weft {

/// Per particle, the unit normal of the proxy's triangles around it (each triangle's cross product
/// summed, so a large triangle weighs more; zero where no triangle with area touches). `normals`
/// has one entry per particle.
void particle_normals(const ClothProxy& proxy, std::span<const Vec3> particles, std::span<Vec3> normals);

/// Every source vertex placed from `particles` (one per particle, in the frame): the binding's
/// corners weighted, plus h along the normal interpolated from particle_normals. A vertex with no
/// binding goes to the frame's origin. `vertices` has proxy.binding_triangle.size() entries;
/// `normals` is scratch of one per particle. `offset_scale` scales every h: 1 places the render mesh,
/// 0 each vertex's footprint on the cloth (validation measures a two-sided sheet's binding so, apart
/// from the thickness it models, docs/validation.md#two-sided-sheets).
void deform_render_mesh(const ClothProxy& proxy, std::span<const Vec3> particles, std::span<Vec3> normals,
                        std::span<Vec3> vertices, double offset_scale = 1);

}  // namespace weft
