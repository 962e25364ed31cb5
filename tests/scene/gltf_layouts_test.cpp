// Every way glTF lets an attribute be stored (testdata/layouts/accessor_layouts.glb, written by
// tools/testdata/accessor_layouts.cpp from the raw tables in tools/testdata/fixtures.h): each value the
// reader returns is checked against the one the specification's formula gives for the stored
// integer, computed here on its own: c / 127 (at least -1) for a normalised signed byte, c / 255
// for an unsigned one, c / 32767 and c / 65535 for shorts, c itself when not normalised
// (glTF 2.0 specification 3.11, "Animations" and KHR_mesh_quantization). A reader that ignores a
// view's byteStride, a component type, normalisation or a sparse block fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "import_helpers.h"
#include "scene/import.h"
#include "support/paths.h"
#include "testdata/fixtures.h"

namespace weft::test {
namespace {

using testdata::LayoutType;

const ImportResult& layouts() {
    static const ImportResult r = import_scene(testdata_dir() / "layouts" / "accessor_layouts.glb");
    return r;
}

/// The value glTF gives the stored integer `raw` of `type`.
double dequantized(LayoutType type, double raw) {
    const testdata::LayoutTypeInfo& info = testdata::layout_type_info(type);
    if (!info.normalized) return raw;
    return info.is_signed ? std::max(raw / info.scale, -1.0) : raw / info.scale;
}

const Mesh& layout_mesh(const std::string& name) {
    const Mesh* m = mesh_named(layouts().scene, name);
    if (!m) ADD_FAILURE() << "no mesh " << name << "\n" << issues_text(layouts());
    static const Mesh empty;
    return m ? *m : empty;
}

TEST(GltfLayouts, TheFileImportsWithoutAWarning) {
    const ImportResult& r = layouts();
    ASSERT_TRUE(r.ok()) << issues_text(r);
    expect_scene_invariants(r.scene);
    // Every weight sums to 255 of 255 (or 65535): a wrong divisor would have them renormalised.
    EXPECT_EQ(count_issues(r, "WEIGHTS_NORMALISED"), 0u) << issues_text(r);
    EXPECT_EQ(count_issues(r, "GLTF_NONCONFORMING"), 0u) << issues_text(r);
    EXPECT_EQ(r.scene.meshes.size(), 13u);
}

TEST(GltfLayouts, InterleavedFloatsFollowTheViewsByteStride) {
    const Mesh& m = layout_mesh("float_interleaved");
    ASSERT_EQ(m.vertex_count(), 4u);
    ASSERT_EQ(m.uvs.size(), 4u);
    ASSERT_EQ(m.normals.size(), 4u);
    for (size_t v = 0; v < 4; ++v) {
        SCOPED_TRACE("vertex " + std::to_string(v));
        const float* p = testdata::kLayoutFloatQuad[v];
        EXPECT_EQ(m.positions[v].x, double(p[0]));
        EXPECT_EQ(m.positions[v].y, double(p[1]));
        EXPECT_EQ(m.positions[v].z, double(p[2]));
        EXPECT_EQ(m.normals[v].z, 1.0);
        EXPECT_NEAR(m.uvs[v].x, p[0], 1e-7);
        EXPECT_NEAR(m.uvs[v].y, p[1], 1e-6);
    }
}

class EveryComponentType : public testing::TestWithParam<LayoutType> {};

TEST_P(EveryComponentType, PositionsUvsAndNormalsAreWhatTheIntegersMean) {
    const LayoutType type = GetParam();
    const testdata::LayoutTypeInfo& info = testdata::layout_type_info(type);
    const Mesh& m = layout_mesh(std::string("position_") + info.name);
    ASSERT_EQ(m.vertex_count(), 4u);
    ASSERT_EQ(m.uvs.size(), 4u);
    for (size_t v = 0; v < 4; ++v) {
        SCOPED_TRACE("vertex " + std::to_string(v));
        double want[3];
        for (int c = 0; c < 3; ++c) want[c] = dequantized(type, testdata::layout_raw(type, testdata::kLayoutQuad[v][c]));
        // Read as single precision, as the file's floats are, then through the node's scale
        // (single precision too), which dequantizes the types that are not normalised.
        const double s = double(testdata::layout_node_scale(type));
        EXPECT_NEAR(m.positions[v].x, double(float(want[0])) * s, 1e-12);
        EXPECT_NEAR(m.positions[v].y, double(float(want[1])) * s, 1e-12);
        EXPECT_NEAR(m.positions[v].z, double(float(want[2])) * s, 1e-12);
        EXPECT_NEAR(m.uvs[v].x, want[0], 1e-6 * std::max(1.0, std::abs(want[0])));
        EXPECT_NEAR(m.uvs[v].y, want[1], 1e-6 * std::max(1.0, std::abs(want[1])));
    }
    if (info.normalized && info.is_signed) {
        // kLayoutNormal, stored rounded to the type (a byte's 127 steps move it by up to 0.4 %).
        ASSERT_EQ(m.normals.size(), 4u);
        for (const Vec3& n : m.normals) {
            EXPECT_NEAR(n.x, testdata::kLayoutNormal[0], 5e-3);
            EXPECT_NEAR(n.y, 0.0, 1e-9);
            EXPECT_NEAR(n.z, testdata::kLayoutNormal[2], 5e-3);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(GltfLayouts, EveryComponentType,
                         testing::Values(LayoutType::byte_norm, LayoutType::byte_plain, LayoutType::ubyte_norm,
                                         LayoutType::ubyte_plain, LayoutType::short_norm, LayoutType::short_plain,
                                         LayoutType::ushort_norm, LayoutType::ushort_plain),
                         [](const testing::TestParamInfo<LayoutType>& p) {
                             return std::string(testdata::layout_type_info(p.param).name);
                         });

TEST(GltfLayouts, SparseSubstitutionsReplaceTheirVerticesOnly) {
    const Mesh& m = layout_mesh("sparse_float");
    ASSERT_EQ(m.vertex_count(), 4u);
    for (size_t v = 0; v < 4; ++v) {
        SCOPED_TRACE("vertex " + std::to_string(v));
        const float* p = v == 1 || v == 3 ? testdata::kLayoutSparseFloat[v] : testdata::kLayoutFloatQuad[v];
        EXPECT_EQ(m.positions[v].x, double(p[0]));
        EXPECT_EQ(m.positions[v].y, double(p[1]));
        EXPECT_EQ(m.positions[v].z, double(p[2]));
    }
}

TEST(GltfLayouts, SparseBlockWithoutAViewFillsZeros) {
    const Mesh& m = layout_mesh("sparse_short_norm_no_view");
    ASSERT_EQ(m.vertex_count(), 4u);
    for (size_t v = 0; v < 4; ++v)
        for (int c = 0; c < 3; ++c) {
            const double want = dequantized(LayoutType::short_norm,
                                            testdata::layout_raw(LayoutType::short_norm, testdata::kLayoutQuad[v][c]));
            EXPECT_EQ((&m.positions[v].x)[c], double(float(want))) << "vertex " << v << " component " << c;
        }
}

/// Joints X and Y sit at kLayoutJointX/Y with identity inverse binds: a vertex moves by the blend
/// of their translations, weighted w / 255.
void expect_skinned(const std::string& name) {
    const Mesh& m = layout_mesh(name);
    ASSERT_EQ(m.vertex_count(), 4u);
    ASSERT_GE(m.skin, 0);
    for (size_t v = 0; v < 4; ++v) {
        SCOPED_TRACE(name + " vertex " + std::to_string(v));
        const double wx = testdata::kLayoutWeights[v][0] / 255.0, wy = testdata::kLayoutWeights[v][1] / 255.0;
        const float* p = testdata::kLayoutFloatQuad[v];
        EXPECT_NEAR(m.positions[v].x, p[0] + wx * testdata::kLayoutJointX[0] + wy * testdata::kLayoutJointY[0], 1e-5);
        EXPECT_NEAR(m.positions[v].y, p[1] + wx * testdata::kLayoutJointX[1] + wy * testdata::kLayoutJointY[1], 1e-5);
        EXPECT_NEAR(m.positions[v].z, double(p[2]), 1e-6);
    }
}

TEST(GltfLayouts, UbyteJointsWithNormalisedWeights) { expect_skinned("skinned_ubyte"); }

TEST(GltfLayouts, SparseUshortJointsWithNormalisedWeights) { expect_skinned("skinned_ushort_sparse_joints"); }

}  // namespace
}  // namespace weft::test
