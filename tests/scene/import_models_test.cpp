// Every third-party model in the shared models folder (WEFT_SHARED_MODELS) imported, checking what
// its MANIFEST.md states
// (materials, joints, counts, sizes in metres) and what import promises about it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "scene/import.h"
#include "scene/import_helpers.h"
#include "support/paths.h"

namespace weft::test {
namespace {

namespace fs = std::filesystem;

ImportResult import_ok(const fs::path& file, const ImportOptions& options = {}) {
    ImportResult r = import_scene(file, options);
    EXPECT_TRUE(r.ok()) << issues_text(r);
    return r;
}

/// The share of `mesh`'s total weight that the joint node named `joint` carries (1: all of it).
double weight_on_joint(const Scene& scene, const Mesh& mesh, const std::string& joint) {
    if (mesh.skin < 0 || mesh.vertex_count() == 0) return 0;
    const Skin& skin = scene.skins[size_t(mesh.skin)];
    double on = 0;
    for (const Influence& i : mesh.influences)
        if (scene.nodes[size_t(skin.joints[i.joint])].name == joint) on += i.weight;
    return on / double(mesh.vertex_count());
}

std::string parent_name(const Scene& scene, const std::string& node) {
    int n = scene.find_node(node);
    if (n < 0 || scene.nodes[size_t(n)].parent < 0) return {};
    return scene.nodes[size_t(scene.nodes[size_t(n)].parent)].name;
}

TEST(ImportModels, WitchGltfWithDataUris) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_umw_Witch.gltf");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.format, "gltf");
    EXPECT_EQ(s.meshes.size(), 13u);  // 4 meshes, 13 primitives
    EXPECT_EQ(s.animations.size(), 24u);
    ASSERT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.skins[0].joints.size(), 62u);
    EXPECT_EQ(s.materials, (std::vector<std::string>{"Skin", "Brown2", "Purple", "Gold", "Brown", "Hair_Black"}));
    const Mesh* hair = mesh_with_material(s, "Hair_Black");
    ASSERT_NE(hair, nullptr);
    EXPECT_EQ(hair->vertex_count(), 4684u);
    EXPECT_EQ(hair->triangle_count(), 2316u);
    EXPECT_EQ(distinct_positions(*hair), 1232u);  // MANIFEST: 1232 distinct positions
    // "All weighted to Head": 2 of the 4684 vertices give 0.7% of their weight to Neck.
    EXPECT_GT(weight_on_joint(s, *hair, "Head"), 0.99999);
    EXPECT_LT(weight_on_joint(s, *hair, "Head"), 1.0);
    // Feet on the ground, the hat's tip at 2.01 m, the head joint at a person's head height.
    EXPECT_NEAR(s.bounds().min.y, 0.0, 0.01);
    EXPECT_NEAR(s.bounds().max.y, 2.01, 0.01);
    EXPECT_NEAR(s.nodes[size_t(s.find_node("Head"))].world.translation_part().y, 1.548, 0.005);
}

TEST(ImportModels, GodetteVrmByContentKeepsBodyMaterial) {
    WEFT_REQUIRE_SHARED_MODEL(file, "Godette_vrm_v4.vrm");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.format, "vrm");
    // Assimp's default RemoveRedundantMaterials would fold Body into Face.
    EXPECT_EQ(s.materials, (std::vector<std::string>{"Face", "Body", "GodotLogo", "Backpack"}));
    EXPECT_EQ(s.meshes.size(), 4u);  // 2 meshes, 4 primitives
    const Mesh* body = mesh_with_material(s, "Body");
    ASSERT_NE(body, nullptr);
    EXPECT_EQ(body->node_name, "Body");
    // The body's three primitives share one 2479-vertex buffer; each keeps only what it uses.
    size_t body_vertices = 0;
    for (const Mesh& m : s.meshes)
        if (m.node_name == "Body") body_vertices += m.vertex_count();
    EXPECT_LE(body_vertices, 2479u);
    EXPECT_EQ(mesh_with_material(s, "Face")->morph_target_count, 15);
    ASSERT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.skins[0].joints.size(), 68u);
    for (const char* joint : {"FrontHair_L", "FrontHair_R", "FrontHair_Center_L", "FrontHair_Center_R", "HairBall_L",
                              "HairBall_R", "HairBall_Center", "Ribbon", "Ribbon_end"})
        EXPECT_GE(s.find_node(joint), 0) << joint;
    EXPECT_NEAR(height(s), 1.495, 0.01);
}

TEST(ImportModels, GodetteSpringsAndColliders) {
    WEFT_REQUIRE_SHARED_MODEL(file, "Godette_vrm_v4.vrm");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    auto names = [&](const std::vector<int>& nodes) {
        std::vector<std::string> out;
        for (int n : nodes) out.push_back(s.nodes[size_t(n)].name);
        return out;
    };
    ASSERT_EQ(s.springs.size(), 3u);  // 3 boneGroups, roots only
    for (const DeclaredSpring& spring : s.springs) {
        EXPECT_EQ(spring.source, "VRM0.secondaryAnimation");
        EXPECT_TRUE(spring.joints.empty());
    }
    EXPECT_EQ(names(s.springs[0].roots),
              (std::vector<std::string>{"FrontHair_Center_L", "FrontHair_Center_R", "FrontHair_R", "FrontHair_L"}));
    EXPECT_EQ(names(s.springs[0].collider_nodes), (std::vector<std::string>{"head_Armature"}));
    EXPECT_EQ(names(s.springs[1].roots), (std::vector<std::string>{"Ribbon"}));
    EXPECT_EQ(names(s.springs[1].collider_nodes), (std::vector<std::string>{"chest_Armature"}));
    EXPECT_EQ(names(s.springs[2].roots), (std::vector<std::string>{"HairBall_L", "HairBall_R", "HairBall_Center"}));
    EXPECT_TRUE(s.springs[2].collider_nodes.empty());
    // 2 colliderGroups of 2 spheres each; VRM 0.x stores offset z negated (file: -0.04).
    ASSERT_EQ(s.colliders.size(), 4u);
    EXPECT_EQ(s.nodes[size_t(s.colliders[0].node)].name, "chest_Armature");
    EXPECT_NEAR(s.colliders[0].offset.y, 0.06, 1e-6);
    EXPECT_NEAR(s.colliders[0].offset.z, 0.04, 1e-6);
    EXPECT_NEAR(s.colliders[0].radius, 0.1, 1e-6);
    EXPECT_EQ(s.nodes[size_t(s.colliders[2].node)].name, "head_Armature");
    EXPECT_NEAR(s.colliders[2].radius, 0.15, 1e-6);
}

TEST(ImportModels, CasualFbx2GltfIsPersonSized) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_men_Casual.glb");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.format, "glb");
    EXPECT_EQ(s.meshes.size(), 10u);
    EXPECT_EQ(s.materials,
              (std::vector<std::string>{"Purple", "Skin", "White", "Eyebrows", "Eye", "Hair", "LightBlue"}));
    // Four glTF skins with one joint list are one Skin here.
    ASSERT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.skins[0].joints.size(), 49u);
    // Mesh data is stored ~100x small under a scale-100 node the skin ignores: the true size
    // comes from joints and inverse binds. About 1.8 m, feet at 0.
    EXPECT_GT(height(s), 1.75);
    EXPECT_LT(height(s), 1.95);
    EXPECT_NEAR(s.bounds().min.y, 0.0, 0.01);
    const Mesh* hair = mesh_with_material(s, "Hair");
    ASSERT_NE(hair, nullptr);
    EXPECT_GT(Scene::mesh_bounds(*hair).min.y, 1.55);  // on the head, not at the feet
}

TEST(ImportModels, SuperheroFbxZUpMetresComesOutYUp) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Superhero_Female_FullBody.fbx");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.format, "fbx");
    EXPECT_EQ(s.up_axis, "Z");
    EXPECT_DOUBLE_EQ(s.unit_scale, 1.0);  // UnitScaleFactor 100: the file is in metres
    EXPECT_EQ(count_issues(r, "AXES_CONVERTED"), 1u);
    EXPECT_EQ(s.meshes.size(), 3u);
    EXPECT_EQ(s.materials, (std::vector<std::string>{"MI_Hair_2", "MI_Eyes", "MI_Superhero_Female"}));
    // The MI_Hair_2 trap: the hair material is on the eyebrows.
    EXPECT_EQ(mesh_with_material(s, "MI_Hair_2")->name, "Eyebrows");
    for (const char* joint : {"root", "pelvis", "spine_01", "Head"}) EXPECT_GE(s.find_node(joint), 0) << joint;
    EXPECT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.skins[0].joints.size(), 65u);
    Bounds b = s.bounds();
    EXPECT_GT(b.size().y, 1.5);
    EXPECT_LT(b.size().y, 2.0);
    EXPECT_NEAR(b.min.y, 0.0, 0.02);
    EXPECT_LT(b.size().z, 0.5);  // Y up: the body is thin front to back
}

TEST(ImportModels, HairLongFbxSitsOnTheHead) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Hair_Long.fbx");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.materials, (std::vector<std::string>{"MI_Hair_2"}));
    const Mesh& hair = s.meshes[0];
    // MANIFEST's 3089 is `assimp info`'s preset; with this importer's flags the FBX's per-corner
    // vertices join to 3084.
    EXPECT_EQ(hair.vertex_count(), 3084u);
    EXPECT_EQ(hair.triangle_count(), 2906u);
    EXPECT_DOUBLE_EQ(weight_on_joint(s, hair, "Head"), 1.0);
    Bounds b = Scene::mesh_bounds(hair);
    EXPECT_GT(b.min.y, 1.45);
    EXPECT_LT(b.max.y, 1.80);
    EXPECT_EQ(s.skins[0].joints.size(), 65u);  // the full body skeleton
}

TEST(ImportModels, HuesitosFbxInCentimetres) {
    WEFT_REQUIRE_SHARED_MODEL(file, "assimp_huesitos.fbx");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_DOUBLE_EQ(s.unit_scale, 0.01);  // UnitScaleFactor 1: centimetres
    EXPECT_EQ(count_issues(r, "UNITS_CONVERTED"), 1u);
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].name, "Cylinder");
    EXPECT_EQ(s.materials.size(), 1u);
    EXPECT_EQ(s.animations.size(), 1u);
    ASSERT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.skins[0].joints.size(), 9u);
    for (const char* bone : {"Bone", "Bone.001", "Bone.004", "Bone.008"}) EXPECT_GE(s.find_node(bone), 0) << bone;
    // Node scale 100 times 0.01 m per unit: the armature's world transform has unit scale.
    const Mat4& armature = s.nodes[size_t(s.find_node("Armature"))].world;
    EXPECT_NEAR(length(armature.transform_vector({1, 0, 0})), 1.0, 1e-5);
    EXPECT_NEAR(height(s), 5.44, 0.01);
}

TEST(ImportModels, FoxTailChainAndSize) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_animals_Fox.glb");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.meshes.size(), 5u);
    // JSON has 5 materials; `assimp info` merges `Eyes` away, this importer keeps it.
    EXPECT_EQ(s.materials, (std::vector<std::string>{"Main", "Main_Light", "Grey", "Black", "Eyes"}));
    EXPECT_EQ(s.animations.size(), 12u);
    ASSERT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.skins[0].joints.size(), 51u);
    for (int i = 2; i <= 8; ++i)
        EXPECT_EQ(parent_name(s, "Tail" + std::to_string(i)), "Tail" + std::to_string(i - 1));
    // The file's fox is 2.7 m tall and 5.6 m nose to tail; the tail tip joint lies inside
    // the skinned mesh's bounds, so skin and skeleton agree.
    Bounds b = s.bounds();
    EXPECT_NEAR(b.size().y, 2.69, 0.02);
    EXPECT_NEAR(b.size().z, 5.59, 0.02);
    Vec3 tip = s.nodes[size_t(s.find_node("Tail8"))].world.translation_part();
    EXPECT_GT(tip.z, b.min.z);
    EXPECT_LT(tip.y, b.max.y);
}

TEST(ImportModels, KnightCapeParentedToChest) {
    WEFT_REQUIRE_SHARED_MODEL(file, "kaykit_Knight.glb");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.meshes.size(), 15u);
    EXPECT_EQ(s.materials, (std::vector<std::string>{"knight_texture"}));
    EXPECT_EQ(s.animations.size(), 76u);
    ASSERT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.skins[0].joints.size(), 41u);
    EXPECT_EQ(parent_name(s, "Knight_Cape"), "chest");
    EXPECT_EQ(parent_name(s, "Knight_Helmet"), "head");
    const Mesh* cape = mesh_named(s, "Plane.004");
    ASSERT_NE(cape, nullptr);
    EXPECT_EQ(cape->node_name, "Knight_Cape");
    EXPECT_EQ(cape->skin, -1);  // an open sheet, not skinned
    EXPECT_EQ(cape->vertex_count(), 56u);
    EXPECT_EQ(cape->triangle_count(), 84u);
    // The cape hangs behind the chest joint, in scene space through its parent chain.
    Vec3 chest = s.nodes[size_t(s.find_node("chest"))].world.translation_part();
    Bounds cb = Scene::mesh_bounds(*cape);
    EXPECT_LT(cb.max.z, chest.z);
    EXPECT_LT(cb.min.y, chest.y);
}

TEST(ImportModels, GoalFlagStaticFbx2Gltf) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Goal_Flag.glb");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.materials, (std::vector<std::string>{"Metal", "Flag"}));
    EXPECT_TRUE(s.skins.empty());
    const Mesh* flag = mesh_with_material(s, "Flag");
    ASSERT_NE(flag, nullptr);
    EXPECT_EQ(flag->triangle_count(), 136u);
    EXPECT_EQ(distinct_positions(*flag), 73u);
    // Static: the node's scale 100 and -90° X rotation bring 0.02-unit data to a 2.3 m pole.
    EXPECT_NEAR(height(s), 2.33, 0.01);
    EXPECT_NEAR(s.bounds().min.y, 0.0, 0.01);
}

TEST(ImportModels, BannerExternalBufferResolves) {
    WEFT_REQUIRE_SHARED_MODEL(file, "kaykit_banner_blue/banner_blue.gltf");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.materials, (std::vector<std::string>{"texture"}));
    EXPECT_EQ(s.meshes[0].triangle_count(), 97u);
    EXPECT_EQ(distinct_positions(s.meshes[0]), 67u);
    EXPECT_NEAR(height(s), 3.196, 0.01);
}

TEST(ImportModels, CouchKeepsDegenerateTrianglesAsTriangles) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Couch_Medium2.glb");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.materials, (std::vector<std::string>{"Couch_Mustard", "Wood"}));
    ASSERT_EQ(s.meshes.size(), 2u);  // no extra line mesh
    const Mesh* couch = mesh_with_material(s, "Couch_Mustard");
    ASSERT_NE(couch, nullptr);
    EXPECT_EQ(couch->triangle_count(), 775u);  // all 2325 indices of the primitive
    EXPECT_EQ(couch->line_count, 0u);
    size_t repeated = 0;
    for (size_t t = 0; t < couch->indices.size(); t += 3) {
        uint32_t a = couch->indices[t], b = couch->indices[t + 1], c = couch->indices[t + 2];
        repeated += (a == b || b == c || a == c);
    }
    EXPECT_EQ(repeated, 17u);  // MANIFEST: 17 triangles with repeated indices
    const Issue* degenerate = find_issue(r, "DEGENERATE_TRIANGLES");
    ASSERT_NE(degenerate, nullptr);
    EXPECT_EQ(degenerate->severity, Severity::warning);
    // The 39 Assimp would have turned into lines, named by mesh and material.
    EXPECT_NE(degenerate->message.find("39 triangles"), std::string::npos) << degenerate->message;
    EXPECT_NE(degenerate->message.find("Couch_Mustard"), std::string::npos);
    EXPECT_NE(degenerate->message.find(file.string()), std::string::npos);
}

TEST(ImportModels, CouchDegenerateTrianglesDroppedWhenAsked) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Couch_Medium2.glb");
    ImportOptions options;
    options.keep_degenerate = false;
    ImportResult r = import_ok(file, options);
    const Mesh* couch = mesh_with_material(r.scene, "Couch_Mustard");
    ASSERT_NE(couch, nullptr);
    EXPECT_EQ(couch->triangle_count(), 775u - 39u);
    EXPECT_EQ(couch->line_count, 39u);
    expect_scene_invariants(r.scene);
}

TEST(ImportModels, CoolLoopsVrmHasAnEmptyBoneGroup) {
    WEFT_REQUIRE_SHARED_MODEL(file, "100avatars_cool_loops.vrm");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.format, "vrm");
    EXPECT_EQ(s.materials, (std::vector<std::string>{"106"}));
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].morph_target_count, 16);
    ASSERT_EQ(s.skins.size(), 1u);
    EXPECT_EQ(s.skins[0].joints.size(), 65u);
    for (int j : s.skins[0].joints) EXPECT_EQ(s.nodes[size_t(j)].name.rfind("mixamorig:", 0), 0u);
    ASSERT_EQ(s.springs.size(), 1u);
    EXPECT_TRUE(s.springs[0].roots.empty());
    EXPECT_TRUE(s.colliders.empty());
    EXPECT_NEAR(height(s), 1.82, 0.01);
}

TEST(ImportModels, ThreeVrmSphereColliderSpring) {
    WEFT_REQUIRE_SHARED_MODEL(file, "threevrm_sphere_collider/sphere-collider.gltf");
    ImportResult r = import_ok(file);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    ASSERT_EQ(s.springs.size(), 1u);
    const DeclaredSpring& spring = s.springs[0];
    EXPECT_EQ(spring.source, "VRMC_springBone");
    std::vector<std::string> joints;
    for (int j : spring.joints) joints.push_back(s.nodes[size_t(j)].name);
    EXPECT_EQ(joints, (std::vector<std::string>{"Spring A", "Spring B", "Spring C", "Spring D", "Spring E"}));
    ASSERT_EQ(spring.roots.size(), 1u);
    EXPECT_EQ(s.nodes[size_t(spring.roots[0])].name, "Spring A");
    ASSERT_EQ(s.colliders.size(), 1u);
    EXPECT_EQ(s.nodes[size_t(s.colliders[0].node)].name, "Collider");
    EXPECT_DOUBLE_EQ(s.colliders[0].radius, 0.5);
    ASSERT_EQ(spring.collider_nodes.size(), 1u);
    EXPECT_EQ(spring.collider_nodes[0], s.colliders[0].node);
}

TEST(ImportModels, SameFileTwiceGivesTheSameScene) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_men_Casual.glb");
    ImportResult a = import_ok(file), b = import_ok(file);
    ASSERT_EQ(a.scene.meshes.size(), b.scene.meshes.size());
    for (size_t m = 0; m < a.scene.meshes.size(); ++m) {
        const Mesh &x = a.scene.meshes[m], &y = b.scene.meshes[m];
        EXPECT_EQ(x.positions, y.positions);
        EXPECT_EQ(x.indices, y.indices);
        ASSERT_EQ(x.influences.size(), y.influences.size());
        for (size_t i = 0; i < x.influences.size(); ++i) {
            EXPECT_EQ(x.influences[i].joint, y.influences[i].joint);
            EXPECT_EQ(x.influences[i].weight, y.influences[i].weight);
        }
    }
}

TEST(ImportModels, GlbReadByContentWhateverTheExtension) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Goal_Flag.glb");
    fs::path dir = scratch_dir("ImportModels.GlbReadByContent");
    fs::path renamed = dir / "flag.vrm";
    fs::copy_file(file, renamed);
    ImportResult r = import_ok(renamed);
    EXPECT_EQ(r.scene.format, "glb");  // GLB bytes with no VRM extension
    EXPECT_EQ(r.scene.meshes.size(), 2u);
}

TEST(ImportModels, FbxReadByContentWhateverTheExtension) {
    WEFT_REQUIRE_SHARED_MODEL(file, "quaternius_Hair_Long.fbx");
    fs::path dir = scratch_dir("ImportModels.FbxReadByContent");
    fs::path renamed = dir / "hair.bin";
    fs::copy_file(file, renamed);
    ImportResult r = import_ok(renamed);
    EXPECT_EQ(r.scene.format, "fbx");
    EXPECT_EQ(r.scene.meshes.size(), 1u);
}

}  // namespace
}  // namespace weft::test
