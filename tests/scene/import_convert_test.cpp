// The converter on aiScenes built by hand: cases no glTF can produce (Assimp reads only the
// glTF objects something references) and the FBX paths that resolve bones by name and fix axes.
#include <gtest/gtest.h>

#include <assimp/material.h>
#include <assimp/mesh.h>
#include <assimp/metadata.h>
#include <assimp/scene.h>

#include <memory>

#include "scene/import_detail.h"
#include "scene/import_helpers.h"

namespace weft::test {
namespace {

using import_detail::Reporter;

aiMesh* make_mesh(const char* name, std::vector<aiVector3D> positions, std::vector<unsigned> indices) {
    aiMesh* m = new aiMesh();
    m->mName = name;
    m->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    m->mNumVertices = unsigned(positions.size());
    m->mVertices = new aiVector3D[positions.size()];
    std::copy(positions.begin(), positions.end(), m->mVertices);
    m->mNumFaces = unsigned(indices.size() / 3);
    m->mFaces = new aiFace[m->mNumFaces];
    for (unsigned f = 0; f < m->mNumFaces; ++f) {
        m->mFaces[f].mNumIndices = 3;
        m->mFaces[f].mIndices = new unsigned[3]{indices[3 * f], indices[3 * f + 1], indices[3 * f + 2]};
    }
    return m;
}

/// A scene of `meshes` with one material "Cloth"; the root node instances `instanced` of them.
std::unique_ptr<aiScene> make_scene(std::vector<aiMesh*> meshes, std::vector<unsigned> instanced) {
    auto s = std::make_unique<aiScene>();
    s->mRootNode = new aiNode("RootNode");
    s->mNumMeshes = unsigned(meshes.size());
    s->mMeshes = new aiMesh*[meshes.size()];
    std::copy(meshes.begin(), meshes.end(), s->mMeshes);
    s->mRootNode->mNumMeshes = unsigned(instanced.size());
    s->mRootNode->mMeshes = new unsigned[instanced.size()];
    std::copy(instanced.begin(), instanced.end(), s->mRootNode->mMeshes);
    s->mNumMaterials = 1;
    s->mMaterials = new aiMaterial*[1]{new aiMaterial()};
    aiString name("Cloth");
    s->mMaterials[0]->AddProperty(&name, AI_MATKEY_NAME);
    return s;
}

struct Converted {
    Scene scene;
    Issues issues;
    bool ok = false;
};

/// Converts as import_scene would; "obj" leaves units and axes alone, "fbx" reads the metadata.
Converted convert(const aiScene& ai, const std::string& format = "obj", const ImportOptions& options = {}) {
    Converted c;
    c.scene.format = format;
    Reporter report("hand.fbx", c.issues);
    Mat4 fix = import_detail::source_correction(ai, c.scene, report);
    c.ok = import_detail::convert_scene(ai, fix, options, c.scene, report);
    return c;
}

const Issue* find(const Converted& c, const std::string& code) {
    for (const Issue& i : c.issues)
        if (i.code == code) return &i;
    return nullptr;
}

const std::vector<aiVector3D> kTri = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};

TEST(ImportConvert, MeshNoNodeInstancesIsSkipped) {
    auto ai = make_scene({make_mesh("Used", kTri, {0, 1, 2}), make_mesh("Orphan", kTri, {0, 1, 2})}, {0});
    Converted c = convert(*ai);
    ASSERT_TRUE(c.ok);
    ASSERT_EQ(c.scene.meshes.size(), 1u);
    EXPECT_EQ(c.scene.meshes[0].name, "Used");
    const Issue* issue = find(c, "MESH_NOT_INSTANCED");
    ASSERT_NE(issue, nullptr);
    EXPECT_EQ(issue->severity, Severity::info);
    EXPECT_NE(issue->message.find("hand.fbx: mesh 'Orphan'"), std::string::npos) << issue->message;
}

TEST(ImportConvert, BoneNamingNoNodeIsAMissingJoint) {
    aiMesh* mesh = make_mesh("Skirt", kTri, {0, 1, 2});
    mesh->mNumBones = 1;
    mesh->mBones = new aiBone*[1]{new aiBone()};
    mesh->mBones[0]->mName = "Ghost";
    mesh->mBones[0]->mNumWeights = 1;
    mesh->mBones[0]->mWeights = new aiVertexWeight[1]{{0, 1.0f}};
    auto ai = make_scene({mesh}, {0});
    Converted c = convert(*ai);
    EXPECT_FALSE(c.ok);
    const Issue* issue = find(c, "JOINT_OUT_OF_RANGE");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("mesh 'Skirt'"), std::string::npos) << issue->message;
    EXPECT_NE(issue->message.find("'Ghost'"), std::string::npos) << issue->message;
}

TEST(ImportConvert, BonesResolveByNameAndTwoBonesOnOneNodeMerge) {
    aiMesh* mesh = make_mesh("Skirt", kTri, {0, 1, 2});
    mesh->mNumBones = 2;
    mesh->mBones = new aiBone*[2]{new aiBone(), new aiBone()};
    for (aiBone* b : {mesh->mBones[0], mesh->mBones[1]}) {
        b->mName = "Hips";
        b->mNumWeights = 3;
        b->mWeights = new aiVertexWeight[3]{{0, 0.5f}, {1, 0.5f}, {2, 0.5f}};
    }
    auto ai = make_scene({mesh}, {0});
    aiNode* hips = new aiNode("Hips");
    hips->mTransformation = aiMatrix4x4::Translation({0, 1, 0}, hips->mTransformation);
    ai->mRootNode->addChildren(1, &hips);
    Converted c = convert(*ai);
    ASSERT_TRUE(c.ok);
    const Mesh& m = c.scene.meshes[0];
    ASSERT_EQ(c.scene.skins.size(), 1u);
    EXPECT_EQ(c.scene.skins[0].joints, std::vector<int>{c.scene.find_node("Hips")});
    for (size_t v = 0; v < 3; ++v) {
        ASSERT_EQ(m.influence_offsets[v + 1] - m.influence_offsets[v], 1u);
        EXPECT_FLOAT_EQ(m.influences[m.influence_offsets[v]].weight, 1.0f);
    }
    // Offset matrices are identity, so the mesh rides the joint: lifted 1 m.
    EXPECT_DOUBLE_EQ(m.positions[0].y, 1.0);
}

TEST(ImportConvert, FaceIndexOutOfRange) {
    auto ai = make_scene({make_mesh("Cape", kTri, {0, 1, 5})}, {0});
    Converted c = convert(*ai);
    EXPECT_FALSE(c.ok);
    const Issue* issue = find(c, "INDEX_OUT_OF_RANGE");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("mesh 'Cape'"), std::string::npos);
    EXPECT_NE(issue->message.find("triangle 0 names vertex 5"), std::string::npos) << issue->message;
}

void set_axes(aiScene& ai, int up, int up_sign, int front, int front_sign, int coord, int coord_sign, double cm) {
    ai.mMetaData = aiMetadata::Alloc(7);
    ai.mMetaData->Set(0, "UpAxis", int32_t(up));
    ai.mMetaData->Set(1, "UpAxisSign", int32_t(up_sign));
    ai.mMetaData->Set(2, "FrontAxis", int32_t(front));
    ai.mMetaData->Set(3, "FrontAxisSign", int32_t(front_sign));
    ai.mMetaData->Set(4, "CoordAxis", int32_t(coord));
    ai.mMetaData->Set(5, "CoordAxisSign", int32_t(coord_sign));
    ai.mMetaData->Set(6, "UnitScaleFactor", cm);
}

TEST(ImportConvert, FbxAxesAndUnitsMoveToMetresYUp) {
    // Z up, front -Y, right +X, decimetres (10 cm per unit): (1, 2, 3) -> (0.1, 0.3, -0.2).
    auto ai = make_scene({make_mesh("Tri", {{1, 2, 3}, {2, 2, 3}, {1, 3, 3}}, {0, 1, 2})}, {0});
    set_axes(*ai, 2, 1, 1, -1, 0, 1, 10.0);
    Converted c = convert(*ai, "fbx");
    ASSERT_TRUE(c.ok);
    EXPECT_DOUBLE_EQ(c.scene.unit_scale, 0.1);
    EXPECT_EQ(c.scene.up_axis, "Z");
    Vec3 p = c.scene.meshes[0].positions[0];
    EXPECT_NEAR(p.x, 0.1, 1e-12);
    EXPECT_NEAR(p.y, 0.3, 1e-12);
    EXPECT_NEAR(p.z, -0.2, 1e-12);
    ASSERT_NE(find(c, "UNITS_CONVERTED"), nullptr);
    ASSERT_NE(find(c, "AXES_CONVERTED"), nullptr);
}

TEST(ImportConvert, LeftHandedFbxIsMirroredAndKeepsItsFrontFaces) {
    // Y up, front +Z, right -X: a left-handed basis. Mapping it to right-handed mirrors X, so
    // the triangle's winding is swapped to keep its face toward +Z.
    auto ai = make_scene({make_mesh("Tri", kTri, {0, 1, 2})}, {0});
    set_axes(*ai, 1, 1, 2, 1, 0, -1, 100.0);
    Converted c = convert(*ai, "fbx");
    ASSERT_TRUE(c.ok);
    const Mesh& m = c.scene.meshes[0];
    EXPECT_DOUBLE_EQ(m.positions[1].x, -1.0);
    Vec3 a = m.positions[m.indices[0]], b = m.positions[m.indices[1]], d = m.positions[m.indices[2]];
    EXPECT_GT(cross(b - a, d - a).z, 0.0);
}

TEST(ImportConvert, InvalidAxisMetadataAssumesYUp) {
    auto ai = make_scene({make_mesh("Tri", kTri, {0, 1, 2})}, {0});
    set_axes(*ai, 2, 1, 2, 1, 0, 1, 100.0);  // up and front on one axis: not a basis
    Converted c = convert(*ai, "fbx");
    ASSERT_TRUE(c.ok);
    EXPECT_EQ(c.scene.up_axis, "Y");
    EXPECT_EQ(find(c, "AXES_CONVERTED"), nullptr);
    EXPECT_DOUBLE_EQ(c.scene.meshes[0].positions[2].y, 1.0);
    EXPECT_FALSE(c.scene.warnings.empty());
}

}  // namespace
}  // namespace weft::test
