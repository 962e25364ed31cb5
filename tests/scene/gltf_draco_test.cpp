// KHR_draco_mesh_compression as glTF-Transform writes it (testdata/draco/regenerate.sh): each
// compressed model against the uncompressed one it was made from, vertex by vertex in scene space,
// by material, and Draco bytes that do not decode refused by primitive.
// - Draco quantizes positions on a grid over each mesh's bounds (14 bits, glTF-Transform's default),
//   so a vertex comes back within a grid step of where it was; the edgebreaker coder also reorders
//   the vertices, so vertices are matched by position, not by index.
// - Skin weights are quantized too (12 bits by default): each vertex's joints are the same and its
//   weights within a step of the original's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>

#include "compressed_pair.h"
#include "glb_reader.h"
#include "import_helpers.h"
#include "io/atomic_file.h"
#include "scene/gltf_write.h"
#include "scene/import.h"
#include "support/paths.h"

namespace weft::test {
namespace {

namespace fs = std::filesystem;

/// A vertex's influences as joint name -> weight.
std::map<std::string, double> influences_of(const Scene& s, const Mesh& m, size_t v) {
    std::map<std::string, double> out;
    for (uint32_t k = m.influence_offsets[v]; k < m.influence_offsets[v + 1]; ++k)
        out[s.nodes[size_t(s.skins[size_t(m.skin)].joints[m.influences[k].joint])].name] += m.influences[k].weight;
    return out;
}

/// A grid step of 14 bits over the largest extent of any one mesh (Draco's grid is per mesh).
double mesh_grid_step(const Scene& s) {
    double extent = 0;
    for (const Mesh& m : s.meshes) {
        Vec3 lo = m.positions.front(), hi = lo;
        for (const Vec3& p : m.positions) {
            lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
            hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
        }
        extent = std::max({extent, hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
    }
    return extent / double((1 << 14) - 1);
}

struct DracoPair {
    ImportResult original, compressed;
};

DracoPair load_draco(const std::string& original, const std::string& compressed) {
    DracoPair p{import_scene(testdata_dir() / original), import_scene(testdata_dir() / "draco" / compressed)};
    EXPECT_TRUE(p.original.ok()) << issues_text(p.original);
    EXPECT_TRUE(p.compressed.ok()) << issues_text(p.compressed);
    return p;
}

void expect_same_geometry(const DracoPair& p) {
    ASSERT_TRUE(p.compressed.ok());
    expect_scene_invariants(p.compressed.scene);
    for (const std::string& material : p.original.scene.materials) {
        if (material.empty()) continue;
        EXPECT_EQ(triangles_of(p.compressed.scene, material), triangles_of(p.original.scene, material)) << material;
    }
    const double tolerance = mesh_grid_step(p.original.scene) * 1.001;
    const double there = worst_nearest(p.original.scene, p.compressed.scene);
    const double back = worst_nearest(p.compressed.scene, p.original.scene);
    EXPECT_LE(there, tolerance);
    EXPECT_LE(back, tolerance);
    // The grid is real: a reader that read zeros or dropped the dequantization would be off by the
    // model's size, one that skipped quantization by nothing.
    EXPECT_GT(there, 0.0);
}

TEST(GltfDraco, EdgebreakerFlagComesBackWithinAGridStep) {
    expect_same_geometry(load_draco("flag.glb", "flag_draco.glb"));
}

TEST(GltfDraco, SequentialFlagComesBackWithinAGridStep) {
    expect_same_geometry(load_draco("flag.glb", "flag_draco_sequential.glb"));
}

TEST(GltfDraco, SkinnedMannequinKeepsItsJointsAndWeights) {
    const DracoPair p = load_draco("mannequin.glb", "mannequin_draco.glb");
    expect_same_geometry(p);
    ASSERT_FALSE(p.compressed.scene.skins.empty());
    double worst_weight = 0;
    size_t skinned = 0;
    for (const Mesh& m : p.compressed.scene.meshes) {
        if (m.skin < 0) continue;
        const std::string& material = p.compressed.scene.materials[size_t(m.material)];
        for (size_t v = 0; v < m.vertex_count(); ++v) {
            const NearestVertex o = nearest_vertex(p.original.scene, material, m.positions[v]);
            ASSERT_TRUE(o.mesh && o.mesh->skin >= 0) << material << " vertex " << v;
            const auto a = influences_of(p.compressed.scene, m, v), b = influences_of(p.original.scene, *o.mesh, o.vertex);
            for (const auto& [joint, w] : b) {
                if (w < 1e-3) continue;  // a weight below a step may quantize to nothing
                ASSERT_TRUE(a.count(joint)) << material << " vertex " << v << " lost joint " << joint;
                worst_weight = std::max(worst_weight, std::abs(a.at(joint) - w));
            }
            ++skinned;
        }
    }
    size_t original_skinned = 0;
    for (const Mesh& m : p.original.scene.meshes) original_skinned += m.skin >= 0 ? m.vertex_count() : 0;
    EXPECT_EQ(skinned, original_skinned);
    EXPECT_GT(skinned, 900u);
    EXPECT_LE(worst_weight, 2.0 / 4095);  // 12-bit weights, renormalised on import (measured 1.5e-4)
}

/// A copy of `name` with one byte of its Draco stream changed at `at` (from the stream's start).
fs::path corrupted(const std::string& name, size_t at, uint8_t value) {
    std::vector<uint8_t> bytes;
    EXPECT_EQ(read_file(testdata_dir() / "draco" / name, bytes), "");
    Glb glb = Glb::parse(bytes);
    const auto& ext = glb.doc["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"];
    const auto& view = glb.doc["bufferViews"][ext["bufferView"].get<size_t>()];
    // The BIN chunk's data start: 12-byte header, the JSON chunk (8 + its length), the BIN chunk's 8.
    uint32_t json_length;
    std::memcpy(&json_length, bytes.data() + 12, 4);
    const size_t bin = 12 + 8 + json_length + 8;
    bytes[bin + view.value("byteOffset", size_t(0)) + at] = value;
    const fs::path out = scratch_dir("gltf_draco") / ("corrupt_" + std::to_string(at) + "_" + name);
    std::ofstream(out, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return out;
}

TEST(GltfDraco, BytesThatDoNotDecodeAreRefusedByPrimitive) {
    // The header's magic ("DRACO") broken, then a byte in the middle of the stream: refused with a
    // message naming the mesh's primitive, never a crash or a mesh of zeros.
    for (size_t at : {size_t(0), size_t(40), size_t(200)}) {
        const ImportResult r = import_scene(corrupted("flag_draco.glb", at, 0xA5));
        if (r.ok()) {
            // A changed byte may still decode (Draco carries no checksum): then it is a mesh of the
            // flag's size, read as such.
            EXPECT_GT(r.scene.meshes.size(), 0u) << at;
            continue;
        }
        EXPECT_GE(count_issues(r, "GLTF_REFERENCE_INVALID") + count_issues(r, "IMPORT_FAILED"), 1u) << issues_text(r);
        EXPECT_NE(issues_text(r).find("primitive 0"), std::string::npos) << issues_text(r);
    }
    const ImportResult header = import_scene(corrupted("flag_draco.glb", 0, 'X'));
    ASSERT_FALSE(header.ok());
    EXPECT_NE(issues_text(header).find("KHR_draco_mesh_compression does not decode"), std::string::npos)
        << issues_text(header);
}

TEST(GltfDraco, ACountTheMeshDoesNotHaveIsRefusedBeforeAnythingIsAllocated) {
    // Accessors of a Draco primitive have no bytes of their own, so nothing bounds their count but
    // the decoded mesh: four billion positions are refused by name (the mesh has the flag's points),
    // not allocated (48 GB) first.
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(testdata_dir() / "draco" / "flag_draco.glb", bytes), "");
    Glb glb = Glb::parse(bytes);
    const size_t position = glb.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"].get<size_t>();
    glb.doc["accessors"][position]["count"] = 3999999999u;  // a whole number of triangles
    // Without indices the checks read nothing of the primitive before its positions are read.
    glb.doc["meshes"][0]["primitives"][0].erase("indices");
    const fs::path file = scratch_dir("gltf_draco") / "huge_count.glb";
    const std::vector<uint8_t> packed = pack_glb(glb.doc.dump(), glb.bin);
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(packed.data()), std::streamsize(packed.size()));
    const ImportResult r = import_scene(file);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(issues_text(r).find("declares 3999999999 elements but its Draco mesh has"), std::string::npos)
        << issues_text(r);
}

}  // namespace
}  // namespace weft::test
