// Props whose cloth is found by geometry (docs/garments-by-geometry.md#cloth-on-props), modelled as
// prop packs model them: fixtures.h make_table_runner, make_covered_mattress, make_side_flag.
#include <cmath>
#include <numbers>

#include "testdata/fixtures.h"
#include "testdata/mesh_build.h"

namespace weft::testdata {

namespace {

/// A quad from four corners in order round it, two triangles wound a -> b -> c.
void quad(MeshBuilder& b, uint32_t a, uint32_t c1, uint32_t c2, uint32_t c3) {
    b.add_triangle(a, c1, c2);
    b.add_triangle(a, c2, c3);
}

/// A vertex at `p` with a planar UV from its x and z.
uint32_t at(MeshBuilder& b, Vec3 p) { return b.add_vertex(p, {p.x / 1.6, p.z / 0.8}); }

/// A closed box from `lo` to `hi`, wound outward.
void box(MeshBuilder& b, Vec3 lo, Vec3 hi) {
    uint32_t v[8];
    for (int k = 0; k < 8; ++k) v[k] = at(b, {(k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z});
    const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces) quad(b, v[f[0]], v[f[1]], v[f[2]], v[f[3]]);
}

}  // namespace

Scene make_table_runner() {
    // A table 1.6 x 0.8 m, its top a 9 cm slab whose upper face stops 10 cm in from either long side:
    // the runner, 0.6 m wide, is the top between those strips, flush with them, and closes the slab's
    // ends under it down to the slab's underside, then hangs 12 cm below it. Kenney's furniture pack
    // models its runner so, and as coarsely: 12 vertices, its median edge 0.6 m, so the touching band
    // (a quarter of it) reaches its hem. The underside has an edge along each end of the runner's
    // hanging part, so three triangles share that line: the underside's first.
    constexpr double kTop = 0.76, kUnder = 0.67, kHem = 0.55, kLength = 1.6, kDepth = 0.8, kIn = 0.1;
    Scene scene;
    scene.source_path = "table_runner";
    scene.format = "glb";
    const int root = add_node(scene, "Room", -1, Mat4::identity());
    const int table = add_node(scene, "Table", root, Mat4::identity());
    const int runner = add_node(scene, "Runner", root, Mat4::identity());
    scene.materials = {"Wood", "Linen"};
    MeshBuilder wood;
    const double zs[4] = {0, kIn, kDepth - kIn, kDepth};
    for (int k : {0, 2}) {  // the top's two strips, facing up, and their ends
        const double z0 = zs[k], z1 = zs[k + 1];
        quad(wood, at(wood, {0, kTop, z0}), at(wood, {0, kTop, z1}), at(wood, {kLength, kTop, z1}), at(wood, {kLength, kTop, z0}));
        quad(wood, at(wood, {0, kUnder, z0}), at(wood, {0, kUnder, z1}), at(wood, {0, kTop, z1}), at(wood, {0, kTop, z0}));
        quad(wood, at(wood, {kLength, kUnder, z0}), at(wood, {kLength, kTop, z0}), at(wood, {kLength, kTop, z1}),
             at(wood, {kLength, kUnder, z1}));
    }
    for (int k = 0; k < 3; ++k)  // the underside in three bands, facing down
        quad(wood, at(wood, {0, kUnder, zs[k]}), at(wood, {kLength, kUnder, zs[k]}), at(wood, {kLength, kUnder, zs[k + 1]}),
             at(wood, {0, kUnder, zs[k + 1]}));
    quad(wood, at(wood, {0, kUnder, 0}), at(wood, {0, kTop, 0}), at(wood, {kLength, kTop, 0}), at(wood, {kLength, kUnder, 0}));
    quad(wood, at(wood, {0, kUnder, kDepth}), at(wood, {kLength, kUnder, kDepth}), at(wood, {kLength, kTop, kDepth}),
         at(wood, {0, kTop, kDepth}));
    for (double x : {0.05, kLength - 0.11})
        for (double z : {0.05, kDepth - 0.11}) box(wood, {x, 0, z}, {x + 0.06, kUnder, z + 0.06});
    MeshBuilder cloth;
    const double z0 = kIn, z1 = kDepth - kIn;
    uint32_t v[2][3][2];  // end (x = 0, x = length), height (top, underside, hem), side (z0, z1)
    for (int e = 0; e < 2; ++e)
        for (int h = 0; h < 3; ++h)
            for (int s = 0; s < 2; ++s) v[e][h][s] = at(cloth, {e * kLength, (h == 0 ? kTop : h == 1 ? kUnder : kHem), s ? z1 : z0});
    quad(cloth, v[0][0][0], v[0][0][1], v[1][0][1], v[1][0][0]);  // the top, facing up
    for (int h = 0; h < 2; ++h) {  // each end, facing out along x
        quad(cloth, v[0][h + 1][0], v[0][h + 1][1], v[0][h][1], v[0][h][0]);
        quad(cloth, v[1][h + 1][0], v[1][h][0], v[1][h][1], v[1][h + 1][1]);
    }
    scene.meshes.push_back(wood.finish("Table", table, 0, -1));
    scene.meshes.push_back(cloth.finish("Runner", runner, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_covered_mattress() {
    // A bed 2 m long (x) and 1.2 m wide (z): a closed box frame 0.25 m high, inset 5 cm from the
    // mattress's outline so nothing under the cover's hem holds it; on it a mattress 0.2 m deep
    // modelled as Kenney's furniture pack models its own, an open box (a top and four sides, no
    // bottom). The cover is another node: its top is the mattress's top over the same four corners
    // (the weld makes them one, so each of the top's outline edges has four triangles, two of each
    // node), and it hangs from that outline over all four sides, 6 cm out at its hem, 0.3 m down.
    constexpr double kLength = 2.0, kWidth = 1.2, kFrame = 0.25, kTop = 0.45, kHem = 0.15, kOut = 0.06, kInset = 0.05;
    Scene scene;
    scene.source_path = "covered_mattress";
    scene.format = "glb";
    const int root = add_node(scene, "Room", -1, Mat4::identity());
    const int bed = add_node(scene, "Bed", root, Mat4::identity());
    const int cover = add_node(scene, "Cover", root, Mat4::identity());
    scene.materials = {"Wood", "White", "Red"};
    MeshBuilder wood;
    box(wood, {kInset, 0, kInset}, {kLength - kInset, kFrame, kWidth - kInset});
    // The outline of the top, round it in order: (0,0), (L,0), (L,W), (0,W) in x and z.
    const double xs[4] = {0, kLength, kLength, 0}, zs[4] = {0, 0, kWidth, kWidth};
    MeshBuilder mattress;
    uint32_t top[4], foot[4];
    for (int k = 0; k < 4; ++k) {
        top[k] = at(mattress, {xs[k], kTop, zs[k]});
        foot[k] = at(mattress, {xs[k], kFrame, zs[k]});
    }
    quad(mattress, top[0], top[3], top[2], top[1]);  // facing up
    for (int k = 0; k < 4; ++k) quad(mattress, foot[k], top[k], top[(k + 1) % 4], foot[(k + 1) % 4]);  // facing out
    MeshBuilder cloth;
    uint32_t edge[4];
    for (int k = 0; k < 4; ++k) edge[k] = at(cloth, {xs[k], kTop, zs[k]});
    quad(cloth, edge[0], edge[3], edge[2], edge[1]);
    const double cx = 0.5 * kLength, cz = 0.5 * kWidth;
    for (int k = 0; k < 4; ++k) {  // each side's drop, its hem out from the outline along that side's normal
        const int n = (k + 1) % 4;
        const double mx = 0.5 * (xs[k] + xs[n]) - cx, mz = 0.5 * (zs[k] + zs[n]) - cz;
        const double ox = std::abs(mx) > 1e-9 ? (mx > 0 ? kOut : -kOut) : 0, oz = std::abs(mz) > 1e-9 ? (mz > 0 ? kOut : -kOut) : 0;
        const uint32_t a = at(cloth, {xs[k], kTop, zs[k]}), b = at(cloth, {xs[n], kTop, zs[n]});
        const uint32_t hb = at(cloth, {xs[n] + ox, kHem, zs[n] + oz}), ha = at(cloth, {xs[k] + ox, kHem, zs[k] + oz});
        quad(cloth, ha, a, b, hb);
    }
    scene.meshes.push_back(wood.finish("Frame", bed, 0, -1));
    scene.meshes.push_back(mattress.finish("Mattress", bed, 1, -1));
    scene.meshes.push_back(cloth.finish("Cover", cover, 2, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_side_flag() {
    // Kenney's wide castle flags in small: the flag's width runs along the scene's Z, not X, so seen
    // from the front it is edge-on, and it bellies out along X most at its middle column. The pole's
    // node stands off the origin turned a quarter about Y; its child carries the cloth, a row of 10
    // tall thin quads (15 cm wide, 1.2 m tall: the median edge is a tall one, 8 columns long), bowed
    // 15 cm at the middle, and modelled as doubled faces.
    constexpr int kColumns = 10, kRows = 1;
    constexpr double kWidth = 0.15, kHeight = 1.2, kBelly = 0.15;
    Scene scene;
    scene.source_path = "side_flag";
    scene.format = "glb";
    const int root = add_node(scene, "Castle", -1, Mat4::identity());
    const Quat quarter = Quat::from_axis_angle({0, 1, 0}, std::numbers::pi / 2);
    const int pole = add_node(scene, "FlagPole", root, Mat4::from_trs({3, 0, -2}, quarter, {1, 1, 1}));
    const int cloth = add_node(scene, "Group 1", pole, Mat4::translation({0, 2, 0}));
    scene.materials = {"Roof"};
    MeshBuilder flag;
    for (int side = 0; side < 2; ++side)  // the front's vertices, then the back's copies
        for (int i = 0; i <= kColumns; ++i)
            for (int r = 0; r <= kRows; ++r) {
                const double x = 0.05 + kWidth * i, z = kBelly * std::sin(std::numbers::pi * i / kColumns);
                // A scene's positions are in scene space: the cloth as modelled in its node, placed.
                const Vec3 at_node = scene.nodes[static_cast<size_t>(cloth)].world.transform_point({x, kHeight * r, z});
                flag.add_vertex(at_node, {double(i) / kColumns, double(r) / kRows});
            }
    const uint32_t back = (kColumns + 1) * (kRows + 1);
    for (uint32_t i = 0; i < kColumns; ++i)
        for (uint32_t r = 0; r < kRows; ++r) {
            const uint32_t a = i * (kRows + 1) + r, b = a + kRows + 1;  // (i, r) and (i + 1, r)
            quad(flag, a, b, b + 1, a + 1);
            quad(flag, back + a, back + a + 1, back + b + 1, back + b);
        }
    scene.meshes.push_back(flag.finish("Group 1", cloth, 0, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

}  // namespace weft::testdata
