// docs/proxy.md#binding: every render vertex bound to the proxy comes back at rest where it was
// modelled, the parts of a mesh far off the cloth (a pole, a bracket) as well as the cloth's own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "proxy/core/render_binding.h"
#include "proxy/sheet_binding.h"

namespace weft {
namespace {

// A closed slab, 0.4 x 20 x 3.15 m, wound outwards: Kenney's flagBannerLong, whose pole is in the
// same mesh and bound to the slab it holds.
ClothProxy slab() {
    ClothProxy p;
    const double X = 0.4, Y = 20, Z = 3.15;
    for (int i = 0; i < 8; ++i) p.rest_position.push_back({i & 1 ? X : 0, i & 2 ? Y : 0, i & 4 ? Z : 0});
    p.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                   {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    return p;
}

// The pole's vertices lie up to 3 m from the slab beside it and above its top. Iterating the offset
// along the normal interpolated where it lands ran away there: the normal turns with coordinates
// far outside the triangle, and the pole came back at rest 4.9 km from where it was modelled (this
// slab: 179 m).
TEST(SheetBinding, AVertexFarOffTheClothComesBackAtRest) {
    ClothProxy p = slab();
    std::vector<Vec3> pole;
    for (double y = 0; y <= 21.7; y += 0.7)
        for (const double z : {-0.3, -1.5, -3.0}) pole.push_back({0.2, y, z});
    for (const double y : {20.5, 21.2, 21.7}) pole.push_back({0.2, y, 1.6});  // over the slab's top
    const std::vector<uint8_t> bind(pole.size(), 1);
    const sheet_detail::BindingStats stats = sheet_detail::bind_render_mesh(p, pole, bind);
    EXPECT_EQ(stats.bound, pole.size());
    std::vector<Vec3> normals(p.rest_position.size()), placed(pole.size());
    deform_render_mesh(p, p.rest_position, normals, placed);
    double worst = 0;
    for (size_t v = 0; v < pole.size(); ++v) worst = std::max(worst, distance(placed[v], pole[v]));
    std::printf("a pole beside a closed slab: %zu vertices, worst rest error %.3g m (stats %.3g m)\n", pole.size(), worst,
                stats.rest_error_max);
    EXPECT_LT(worst, 1e-6);
    EXPECT_EQ(worst, stats.rest_error_max);
}

}  // namespace
}  // namespace weft
