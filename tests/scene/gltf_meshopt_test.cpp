// EXT_meshopt_compression and KHR_mesh_quantization as gltfpack writes them
// (testdata/meshopt/regenerate.sh): each compressed model against the uncompressed one it was
// made from, vertex by vertex in scene space, by material.
// - Compression alone (gltfpack -c -noq) is lossless: every position comes back bit for bit.
// - With quantization (positions on gltfpack's 14-bit grid, the dequantization in the node
//   transform or, for a skinned mesh, in the inverse bind matrices) bit-identity is impossible:
//   a position moves by up to a grid step per axis. The flag's grid step is the scale gltfpack
//   gives its mesh nodes (2.08e-4 m over its 3.4 m grid); measured worst 0.63 of a step
//   (1.31e-4 m), asserted at most one. The mannequin's is asserted against a step over its own
//   extent (1.06e-4 m).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>

#include "compressed_pair.h"
#include "glb_reader.h"
#include "import_helpers.h"
#include "scene/import.h"
#include "support/file_bytes.h"
#include "support/paths.h"

namespace weft::test {
namespace {

namespace fs = std::filesystem;

struct MeshoptPair {
    ImportResult original, compressed;
};

MeshoptPair load_meshopt(const std::string& original, const std::string& compressed) {
    MeshoptPair p{import_scene(testdata_dir() / original), import_scene(testdata_dir() / "meshopt" / compressed)};
    EXPECT_TRUE(p.original.ok()) << issues_text(p.original);
    EXPECT_TRUE(p.compressed.ok()) << issues_text(p.compressed);
    EXPECT_EQ(count_issues(p.compressed, "GLTF_NONCONFORMING"), 0u) << issues_text(p.compressed);
    return p;
}

void expect_same_triangles(const MeshoptPair& p) {
    for (const std::string& material : p.original.scene.materials) {
        if (material.empty()) continue;
        EXPECT_EQ(triangles_of(p.compressed.scene, material), triangles_of(p.original.scene, material)) << material;
    }
}

/// A step of a 14-bit grid over the original scene's extent.
double scene_grid_step(const Scene& original) {
    const Vec3 size = original.bounds().size();
    return std::max({size.x, size.y, size.z}) / double((1 << 14) - 1);
}

/// The grid step gltfpack wrote: the uniform scale of the nodes carrying its dequantization.
double file_grid_step(const fs::path& file) {
    const Glb glb = Glb::parse(test::file_bytes(file));
    double step = 0;
    for (const auto& node : glb.doc["nodes"])
        if (node.contains("mesh") && node.contains("scale")) step = std::max(step, node["scale"][0].get<double>());
    return step;
}

TEST(GltfMeshopt, CompressedFlagComesBackBitForBit) {
    const MeshoptPair p = load_meshopt("flag.glb", "flag_meshopt.glb");
    ASSERT_TRUE(p.compressed.ok());
    expect_scene_invariants(p.compressed.scene);
    expect_same_triangles(p);
    EXPECT_EQ(worst_nearest(p.original.scene, p.compressed.scene), 0.0);
    EXPECT_EQ(worst_nearest(p.compressed.scene, p.original.scene), 0.0);
}

TEST(GltfMeshopt, QuantizedFlagIsWithinHalfAGridStep) {
    const MeshoptPair p = load_meshopt("flag.glb", "flag_meshopt_quantized.glb");
    ASSERT_TRUE(p.compressed.ok());
    expect_scene_invariants(p.compressed.scene);
    expect_same_triangles(p);
    const double step = file_grid_step(testdata_dir() / "meshopt" / "flag_meshopt_quantized.glb");
    ASSERT_NEAR(step, 3.4 / double((1 << 14) - 1), 1e-7);  // the 3.4 m grid gltfpack chose
    const double tolerance = step * 1.001;
    EXPECT_LE(worst_nearest(p.original.scene, p.compressed.scene), tolerance);
    EXPECT_LE(worst_nearest(p.compressed.scene, p.original.scene), tolerance);
    // The grid is real: not every vertex lands on its original (a reader that dropped the
    // dequantization would be off by metres, one that skipped quantization by nothing).
    EXPECT_GT(worst_nearest(p.original.scene, p.compressed.scene), 0.0);
}

TEST(GltfMeshopt, QuantizedSkinnedMannequinWithFilteredNormals) {
    const MeshoptPair p = load_meshopt("mannequin.glb", "mannequin_meshopt_quantized.glb");
    ASSERT_TRUE(p.compressed.ok());
    expect_scene_invariants(p.compressed.scene);
    expect_same_triangles(p);
    ASSERT_FALSE(p.compressed.scene.skins.empty());
    const double tolerance = scene_grid_step(p.original.scene) * 1.001;
    EXPECT_LE(worst_nearest(p.original.scene, p.compressed.scene), tolerance);
    EXPECT_LE(worst_nearest(p.compressed.scene, p.original.scene), tolerance);
    // Octahedral normals (8 bits): each within a few degrees of the original's at that position.
    for (const Mesh& m : p.compressed.scene.meshes) ASSERT_EQ(m.normals.size(), m.vertex_count()) << m.name;
}

}  // namespace
}  // namespace weft::test
