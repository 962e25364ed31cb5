// A sheet modelled two-sided (docs/proxy.md#two-sided-sheets): a thin closed slab, open only along a
// held slit, is simulated on one face moved to its mid-surface; an open sheet, or a slab nothing
// holds at its border, is left as modelled.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "proxy/sheet_layers.h"

namespace weft::sheet_detail {
namespace {

// A 4 x 3 cell slab in the x-z plane, 0.1 m cells: its outline (top, bottom and right rows, and the
// two left corners) shared by both faces at y = 0, the front face's inner vertices at y = +d, the
// back's at y = -d. The left column's inner vertices are one per face, so the slab is open along a
// slit there, like a flag's sleeve round its pole.
struct Slab {
    std::vector<Vec3> position;
    std::vector<std::array<uint32_t, 3>> triangles;
    std::vector<int> holder;
    size_t front_triangles = 0;
};

Slab make_slab(bool with_back, double d = 0.01) {
    constexpr int nx = 4, nz = 3;
    Slab s;
    auto add = [&](double x, double y, double z, int held) {
        s.position.push_back({x, y, z});
        s.holder.push_back(held);
        return static_cast<uint32_t>(s.position.size() - 1);
    };
    uint32_t front[nx + 1][nz + 1], back[nx + 1][nz + 1];
    for (int i = 0; i <= nx; ++i)
        for (int k = 0; k <= nz; ++k) {
            const bool outline = i == nx || k == 0 || k == nz;
            const int held = i == 0 ? 0 : -1;
            front[i][k] = add(0.1 * i, outline ? 0.0 : d, 0.1 * k, held);
            back[i][k] = outline || !with_back ? front[i][k] : add(0.1 * i, -d, 0.1 * k, held);
        }
    for (int i = 0; i < nx; ++i)
        for (int k = 0; k < nz; ++k) {
            s.triangles.push_back({front[i][k], front[i + 1][k], front[i + 1][k + 1]});
            s.triangles.push_back({front[i][k], front[i + 1][k + 1], front[i][k + 1]});
        }
    s.front_triangles = s.triangles.size();
    if (with_back)
        for (int i = 0; i < nx; ++i)
            for (int k = 0; k < nz; ++k) {  // wound the other way: the back faces -y
                s.triangles.push_back({back[i][k], back[i + 1][k + 1], back[i + 1][k]});
                s.triangles.push_back({back[i][k], back[i][k + 1], back[i + 1][k + 1]});
            }
    return s;
}

TEST(SheetLayers, AHeldSlabIsSimulatedOnOneFaceAtItsMidSurface) {
    Slab s = make_slab(true);
    Vec3 axis;
    const std::vector<uint8_t> keep = one_face_of_two(s.position, s.triangles, s.holder, &axis);
    ASSERT_EQ(keep.size(), s.triangles.size());
    // The faces have equal areas: the one facing along the principal normal is kept, whole, alone.
    size_t kept = 0, kept_front = 0;
    for (size_t t = 0; t < keep.size(); ++t) {
        kept += keep[t];
        kept_front += keep[t] && t < s.front_triangles;
    }
    EXPECT_EQ(kept, s.front_triangles);
    EXPECT_TRUE(kept_front == 0 || kept_front == s.front_triangles);
    EXPECT_NEAR(std::fabs(axis.y), 1.0, 1e-12);
    std::vector<Vec3> moved = s.position;
    move_to_mid_surface(moved, s.triangles, keep, s.holder, axis);
    for (size_t v = 0; v < moved.size(); ++v) {
        // Free inner vertices of the kept face reach y = 0 (to rounding: they move half of 2d);
        // the outline, the held slit and the other face's vertices stay where they were.
        const bool free_inner = s.holder[v] < 0 && s.position[v].y != 0.0;
        bool on_kept = false;
        for (size_t t = 0; t < keep.size(); ++t)
            if (keep[t])
                for (uint32_t c : s.triangles[t]) on_kept = on_kept || c == v;
        if (free_inner && on_kept)
            EXPECT_NEAR(moved[v].y, 0.0, 1e-15) << v;
        else
            EXPECT_EQ(moved[v].y, s.position[v].y) << v;
        EXPECT_EQ(moved[v].x, s.position[v].x);
        EXPECT_EQ(moved[v].z, s.position[v].z);
    }
}

TEST(SheetLayers, AnOpenSheetOrAFreeBorderIsLeftAsModelled) {
    // One face only: its border (outline and slit) has free vertices, so it is not closed.
    const Slab open = make_slab(false);
    EXPECT_TRUE(one_face_of_two(open.position, open.triangles, open.holder).empty());
    // The slab with nothing held: its slit is a free border.
    Slab loose = make_slab(true);
    for (int& h : loose.holder) h = -1;
    EXPECT_TRUE(one_face_of_two(loose.position, loose.triangles, loose.holder).empty());
}

TEST(SheetLayers, ASlabThickerThanHalfItsMedianEdgeKeepsBothFaces) {
    // The faces 0.2 m apart over 0.1 m cells: a vertex of the back stands two median edges off the
    // front, as a flag's sleeve stands round its pole (Quaternius' platformer Flag: 0.7 to 1.7). One
    // face would bind the back's render vertices that far off the cloth: both faces are kept.
    const Slab thick = make_slab(true, 0.1);
    EXPECT_TRUE(one_face_of_two(thick.position, thick.triangles, thick.holder).empty());
    // At 0.04 m apart (0.4 median edges, the Goal_Flag's most) it is one layer.
    const Slab thin = make_slab(true, 0.02);
    EXPECT_EQ(one_face_of_two(thin.position, thin.triangles, thin.holder).size(), thin.triangles.size());
}

TEST(SheetLayers, ASlabClosedAllRoundIsOneLayerToo) {
    // The slit closed: the left column's inner vertices shared by both faces, held there (a thin awning
    // closed all round and held where it touches its frame). No border, so nothing to be held at it.
    Slab s = make_slab(true);
    for (size_t v = 0; v < s.position.size(); ++v)
        if (s.position[v].x == 0.0) s.position[v].y = 0.0;
    // Weld the left column's twins: the back's inner left vertices become the front's.
    std::vector<uint32_t> into(s.position.size());
    for (uint32_t v = 0; v < s.position.size(); ++v) {
        into[v] = v;
        for (uint32_t u = 0; u < v; ++u)
            if (s.position[u] == s.position[v]) {
                into[v] = u;
                break;
            }
    }
    for (auto& t : s.triangles)
        for (uint32_t& v : t) v = into[v];
    Vec3 axis;
    const std::vector<uint8_t> keep = one_face_of_two(s.position, s.triangles, s.holder, &axis);
    ASSERT_EQ(keep.size(), s.triangles.size());
    size_t kept = 0;
    for (uint8_t k : keep) kept += k;
    EXPECT_EQ(kept, s.front_triangles);
}

}  // namespace
}  // namespace weft::sheet_detail
