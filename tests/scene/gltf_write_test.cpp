// The glTF writer (lib/scene/gltf_write.h): valid files by the Khronos validator's judgement, the
// spaces each kind of mesh is written in, weights and joints as glTF requires, deterministic bytes,
// and scenes it refuses by name.
#include "scene/gltf_write.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "gltf_validator.h"
#include "glb_reader.h"
#include "support/file_bytes.h"
#include "support/paths.h"
#include "testdata/fixtures.h"
#include "testdata/mesh_build.h"

namespace weft {
namespace {

using test::Glb;
using testdata::add_node;
using testdata::MeshBuilder;

/// A (n x n)-quad sheet of `size` metres in its XY plane.
MeshBuilder sheet(int n, double size) {
    MeshBuilder b;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) b.add_vertex({size * i / n, size * j / n, 0}, {double(i) / n, double(j) / n});
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const uint32_t a = j * (n + 1) + i, c = a + n + 1;
            b.add_triangle(a, a + 1, c + 1);
            b.add_triangle(a, c + 1, c);
        }
    return b;
}

/// Static meshes under awkward nodes: an FBX2glTF-style root (scale 0.01, -90 degrees about X), a
/// child with a negative scale, and a sheared node only a matrix can hold.
Scene transformed_static_scene() {
    Scene s;
    const int root = add_node(s, "Root", -1,
                              Mat4::from_trs({0.5, 0, 0}, Quat::from_axis_angle({1, 0, 0}, -M_PI / 2), {0.01, 0.01, 0.01}));
    const int mirrored = add_node(s, "Mirrored", root,
                                  Mat4::from_trs({10, 20, 30}, Quat::from_axis_angle({0, 0, 1}, 0.3), {-1, 2, 1}));
    Mat4 shear = Mat4::translation({0, 1, 0});
    shear.at(0, 1) = 0.5;  // x += 0.5 y
    const int sheared = add_node(s, "Sheared", -1, shear);
    s.materials = {"A", "B"};
    for (int node : {root, mirrored, sheared}) {
        MeshBuilder b = sheet(3, 1.0);
        for (Vec3& p : b.positions) p = s.nodes[node].world.transform_point(p);  // scene space
        Mesh m = b.finish("Sheet_" + s.nodes[node].name, node, node == sheared ? 1 : 0, -1);
        m.node_name = s.nodes[node].name;
        s.meshes.push_back(std::move(m));
    }
    return s;
}

/// A strip skinned to a chain of `joints` joints; vertex 0 gets `crowd` influences, some joints
/// named twice.
Scene chain_scene(int joints, int crowd) {
    Scene s;
    const int root = add_node(s, "Root", -1, Mat4::identity());
    Skin skin;
    skin.name = "Chain";
    int parent = root;
    for (int j = 0; j < joints; ++j) {
        std::string name = "J";
        name += std::to_string(j);
        parent = add_node(s, name, parent, Mat4::translation({0, j == 0 ? 0.0 : 0.01, 0}));
        skin.joints.push_back(parent);
        skin.inverse_bind.push_back(s.nodes[parent].world.inverted());
    }
    s.skins.push_back(skin);
    const int holder = add_node(s, "Strip", root, Mat4::identity());
    MeshBuilder b;
    const int rows = joints;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < 2; ++c) {
            std::vector<Influence> w{{static_cast<uint32_t>(r), 0.75f},
                                     {static_cast<uint32_t>(r > 0 ? r - 1 : r + 1), 0.25f}};
            b.add_vertex({0.02 * c, 0.01 * r, 0}, {double(c), double(r) / rows}, w);
        }
    for (int r = 0; r + 1 < rows; ++r) {
        const uint32_t a = 2 * r;
        b.add_triangle(a, a + 1, a + 3);
        b.add_triangle(a, a + 3, a + 2);
    }
    b.weights[0].clear();
    for (int k = 0; k < crowd; ++k)
        b.weights[0].push_back({static_cast<uint32_t>(k % joints), float(k + 1)});  // unnormalised on purpose
    b.weights[0].push_back({1, 2.0f});                                                  // joint 1 named twice
    s.materials = {"Strip"};
    Mesh m = b.finish("Strip", holder, 0, 0);
    m.node_name = "Strip";
    s.meshes.push_back(std::move(m));
    return s;
}

/// One node holding a static mesh and meshes of two different skins.
Scene mixed_node_scene() {
    Scene s = chain_scene(4, 2);
    Skin second = s.skins[0];
    second.name = "Second";
    s.skins.push_back(second);
    Mesh other = s.meshes[0];
    other.skin = 1;
    s.meshes.push_back(other);
    MeshBuilder b = sheet(2, 0.1);
    Mesh fixed = b.finish("Fixed", other.node, 0, -1);
    s.meshes.push_back(fixed);
    return s;
}

std::filesystem::path write_scratch(const std::filesystem::path& dir, const std::string& name, const Scene& s) {
    const std::filesystem::path out = dir / name;
    EXPECT_EQ(write_glb(s, out), "") << name;
    return out;
}

std::vector<uint8_t> read_written_bytes(const std::filesystem::path& p) { return test::file_bytes(p); }

TEST(GltfWrite, KhronosValidatorFindsNoErrorInAnyWrittenScene) {
    const auto dir = test::scratch_dir("gltf_write_validator");
    testdata::MannequinOptions chains, shared;
    chains.authored_hair_chains = true;
    shared.skirt_on_body_material = true;
    std::vector<std::filesystem::path> files{
        write_scratch(dir, "mannequin.glb", testdata::make_mannequin()),
        write_scratch(dir, "mannequin_chains.glb", testdata::make_mannequin(chains)),
        write_scratch(dir, "mannequin_shared_skirt.glb", testdata::make_mannequin(shared)),
        write_scratch(dir, "flag.glb", testdata::make_flag()),
        write_scratch(dir, "transformed_static.glb", transformed_static_scene()),
        write_scratch(dir, "chain_300_joints.glb", chain_scene(300, 11)),
        write_scratch(dir, "mixed_node.glb", mixed_node_scene()),
    };
    {
        Scene big;  // more vertices than 16-bit indices can name
        add_node(big, "Big", -1, Mat4::identity());
        big.materials = {"Big"};
        big.meshes.push_back(sheet(270, 2.0).finish("Big", 0, 0, -1));
        ASSERT_GT(big.meshes[0].vertex_count(), 65535u);
        files.push_back(write_scratch(dir, "big.glb", big));
    }
    const test::ValidatorRun run = test::run_gltf_validator(files);
    ASSERT_EQ(run.error, "");
    ASSERT_EQ(run.reports.size(), files.size());
    for (size_t i = 0; i < files.size(); ++i) {
        const auto& issues = run.reports[i]["issues"];
        EXPECT_EQ(issues["numErrors"].get<int>(), 0) << files[i] << "\n" << test::validator_errors(run.reports[i]);
        // The validator read every vertex: its counts agree with the scene's.
        EXPECT_GT(run.reports[i]["info"]["totalVertexCount"].get<int>(), 0) << files[i];
    }
    // The crowded vertex is written with eight influences: two JOINTS/WEIGHTS sets.
    EXPECT_EQ(run.reports[5]["info"]["maxInfluences"].get<int>(), 8);
}

TEST(GltfWrite, StaticMeshesAreWrittenInTheirNodesSpace) {
    const Scene s = transformed_static_scene();
    const Glb g = Glb::parse(encode_glb(s));
    ASSERT_EQ(g.doc["nodes"].size(), 3u);
    EXPECT_TRUE(g.doc["nodes"][2].contains("matrix")) << "a sheared transform has no TRS form";
    EXPECT_FALSE(g.doc["nodes"][0].contains("matrix"));
    EXPECT_EQ(g.doc["nodes"][1]["scale"][0].get<double>() < 0, true) << "the reflection goes into scale";
    for (size_t m = 0; m < s.meshes.size(); ++m) {
        const int node = s.meshes[m].node;
        const int gltf_mesh = g.doc["nodes"][node]["mesh"].get<int>();
        const auto& prim = g.doc["meshes"][gltf_mesh]["primitives"][0];
        const std::vector<double> p = g.accessor(prim["attributes"]["POSITION"].get<int>());
        const Mat4 world = g.world(node);
        ASSERT_EQ(p.size(), s.meshes[m].vertex_count() * 3);
        double worst = 0;
        for (size_t v = 0; v < s.meshes[m].vertex_count(); ++v) {
            const Vec3 back = world.transform_point({p[3 * v], p[3 * v + 1], p[3 * v + 2]});
            worst = std::max(worst, distance(back, s.meshes[m].positions[v]));
        }
        // float32 storage in node space; the root's node space is 100x larger than scene space
        EXPECT_LT(worst, 1e-6) << s.meshes[m].name;
        // Normals turn with the node too: the sheet faces its node's +Z in scene space.
        const std::vector<double> n = g.accessor(prim["attributes"]["NORMAL"].get<int>());
        const Mat3 inv_t = [&] {
            Mat4 inv;
            world.inverse(inv);
            return inv.linear_part().transposed();
        }();
        const Vec3 back = normalize(inv_t * Vec3{n[0], n[1], n[2]});
        EXPECT_NEAR(dot(back, normalize(s.meshes[m].normals[0])), 1.0, 1e-6) << s.meshes[m].name;
    }
}

TEST(GltfWrite, SkinnedMeshesKeepSceneSpacePositionsAndInverseBinds) {
    const Scene s = testdata::make_mannequin();
    const Glb g = Glb::parse(encode_glb(s));
    const auto& prims = g.doc["meshes"][0]["primitives"];
    ASSERT_EQ(prims.size(), 3u);
    for (size_t m = 0; m < 3; ++m) {
        const std::vector<double> p = g.accessor(prims[m]["attributes"]["POSITION"].get<int>());
        for (size_t v = 0; v < s.meshes[m].vertex_count(); ++v)
            for (int a = 0; a < 3; ++a) ASSERT_EQ(p[3 * v + a], double(float(s.meshes[m].positions[v][a])));
        EXPECT_EQ(prims[m]["material"].get<int>(), s.meshes[m].material);
    }
    const auto& skin = g.doc["skins"][0];
    ASSERT_EQ(skin["joints"].size(), s.skins[0].joints.size());
    const std::vector<double> ibm = g.accessor(skin["inverseBindMatrices"].get<int>());
    for (size_t j = 0; j < s.skins[0].joints.size(); ++j) {
        EXPECT_EQ(skin["joints"][j].get<int>(), s.skins[0].joints[j]);
        // Bind pose = rest pose: joint world times inverse bind is the identity.
        Mat4 inv;
        for (int k = 0; k < 16; ++k) inv.m[k] = ibm[16 * j + k];
        const Mat4 product = g.world(s.skins[0].joints[j]) * inv;
        for (int k = 0; k < 16; ++k) EXPECT_NEAR(product.m[k], Mat4::identity().m[k], 1e-6) << "joint " << j;
    }
}

TEST(GltfWrite, WeightsAreNormalisedMergedAndCappedAtEight) {
    const Scene s = chain_scene(300, 11);
    const Glb g = Glb::parse(encode_glb(s));
    const auto& prim = g.doc["meshes"][0]["primitives"][0];
    const auto& attributes = prim["attributes"];
    ASSERT_TRUE(attributes.contains("JOINTS_1"));
    ASSERT_FALSE(attributes.contains("JOINTS_2"));
    // 300 joints do not fit a byte: glTF's other choice is unsigned short.
    EXPECT_EQ(g.doc["accessors"][attributes["JOINTS_0"].get<int>()]["componentType"].get<int>(), 5123);
    const auto j0 = g.accessor(attributes["JOINTS_0"]), j1 = g.accessor(attributes["JOINTS_1"]);
    const auto w0 = g.accessor(attributes["WEIGHTS_0"]), w1 = g.accessor(attributes["WEIGHTS_1"]);
    const size_t nv = s.meshes[0].vertex_count();
    for (size_t v = 0; v < nv; ++v) {
        float sum = 0;
        for (int k = 0; k < 4; ++k) sum += float(w0[4 * v + k]);
        for (int k = 0; k < 4; ++k) sum += float(w1[4 * v + k]);
        EXPECT_NEAR(sum, 1.0f, 2e-7f) << "vertex " << v;
    }
    // Vertex 0 had weights 1..11 on joints 0..10 plus 2 more on joint 1 (so 4 there): the eight
    // largest are joints 10, 9, 8, 7, 6, 5, 4 (weight 5 beats joint 1's 4) and 1, renormalised.
    const std::vector<std::pair<int, double>> expected{{10, 11}, {9, 10}, {8, 9}, {7, 8}, {6, 7}, {5, 6}, {4, 5}, {1, 4}};
    double total = 0;
    for (const auto& e : expected) total += e.second;
    for (int k = 0; k < 8; ++k) {
        const double joint = k < 4 ? j0[k] : j1[k - 4];
        const double weight = k < 4 ? w0[k] : w1[k - 4];
        EXPECT_EQ(joint, expected[k].first) << "slot " << k;
        EXPECT_NEAR(weight, expected[k].second / total, 1e-6) << "slot " << k;
    }
    // A vertex with two influences leaves the rest of its slots at joint 0, weight 0.
    EXPECT_EQ(w0[4 * 2 + 2], 0.0);
    EXPECT_EQ(j0[4 * 2 + 2], 0.0);
    EXPECT_EQ(w1[4 * 2], 0.0);
}

TEST(GltfWrite, IndicesWidenOnlyPastSixteenBits) {
    const Glb small = Glb::parse(encode_glb(testdata::make_flag()));
    const int small_indices = small.doc["meshes"][1]["primitives"][0]["indices"].get<int>();
    EXPECT_EQ(small.doc["accessors"][small_indices]["componentType"].get<int>(), 5123);
    Scene big;
    add_node(big, "Big", -1, Mat4::identity());
    big.meshes.push_back(sheet(270, 2.0).finish("Big", 0, -1, -1));
    const Glb g = Glb::parse(encode_glb(big));
    const auto& prim = g.doc["meshes"][0]["primitives"][0];
    EXPECT_EQ(g.doc["accessors"][prim["indices"].get<int>()]["componentType"].get<int>(), 5125);
    EXPECT_FALSE(prim.contains("material")) << "a mesh without a material slot names none";
    const std::vector<double> idx = g.accessor(prim["indices"].get<int>());
    ASSERT_EQ(idx.size(), big.meshes[0].indices.size());
    for (size_t i = 0; i < idx.size(); ++i) ASSERT_EQ(idx[i], big.meshes[0].indices[i]);
}

TEST(GltfWrite, NodeWithSeveralSkinsGetsOneAddedNodePerExtraGroup) {
    const Scene s = mixed_node_scene();
    const Glb g = Glb::parse(encode_glb(s));
    const int holder = s.meshes[0].node;
    ASSERT_EQ(g.doc["nodes"].size(), s.nodes.size() + 2);
    const auto& node = g.doc["nodes"][holder];
    EXPECT_FALSE(node.contains("skin")) << "the static group stays on the node";
    const auto& children = node["children"];
    ASSERT_EQ(children.size(), 2u);
    EXPECT_EQ(g.doc["nodes"][children[0].get<int>()]["name"], "Strip_skin0");
    EXPECT_EQ(g.doc["nodes"][children[0].get<int>()]["skin"], 0);
    EXPECT_EQ(g.doc["nodes"][children[1].get<int>()]["name"], "Strip_skin1");
    EXPECT_EQ(g.doc["nodes"][children[1].get<int>()]["skin"], 1);
}

TEST(GltfWrite, BytesDependOnlyOnTheScene) {
    const Scene a = testdata::make_mannequin();
    const Scene b = testdata::make_mannequin();
    const std::vector<uint8_t> first = encode_glb(a);
    EXPECT_EQ(first, encode_glb(a));
    EXPECT_EQ(first, encode_glb(b));
    GlbOptions other;
    other.generator = "someone else";
    EXPECT_NE(first, encode_glb(a, other));
    const auto dir = test::scratch_dir("gltf_write_determinism");
    ASSERT_EQ(write_glb(a, dir / "m.glb"), "");
    EXPECT_EQ(read_written_bytes(dir / "m.glb"), first);
}

TEST(GltfWrite, ContainerLayoutFollowsTheSpec) {
    const std::vector<uint8_t> bytes = encode_glb(testdata::make_flag());
    ASSERT_GE(bytes.size(), 28u);
    EXPECT_EQ(Glb::u32(bytes, 0), 0x46546C67u);
    EXPECT_EQ(Glb::u32(bytes, 4), 2u);
    EXPECT_EQ(Glb::u32(bytes, 8), bytes.size());
    const uint32_t json_length = Glb::u32(bytes, 12);
    EXPECT_EQ(json_length % 4, 0u);
    const size_t bin_at = 20 + json_length;
    EXPECT_EQ(Glb::u32(bytes, bin_at) % 4, 0u);
    EXPECT_EQ(bin_at + 8 + Glb::u32(bytes, bin_at), bytes.size());
    const Glb g = Glb::parse(bytes);
    EXPECT_LE(g.doc["buffers"][0]["byteLength"].get<size_t>(), g.bin.size());
    EXPECT_GT(g.doc["buffers"][0]["byteLength"].get<size_t>() + 4, g.bin.size());
    for (const auto& view : g.doc["bufferViews"]) EXPECT_EQ(view["byteOffset"].get<size_t>() % 4, 0u);

    const std::vector<uint8_t> json_only = pack_glb("{\"a\":1}", {});
    ASSERT_EQ(json_only.size(), 12u + 8u + 8u);  // 7 bytes of JSON padded to 8, no BIN chunk
    EXPECT_EQ(json_only.back(), ' ');
    EXPECT_EQ(Glb::u32(json_only, 8), json_only.size());
    const std::vector<uint8_t> bin{1, 2, 3, 4, 5};
    const std::vector<uint8_t> with_bin = pack_glb("{}", bin);
    ASSERT_EQ(with_bin.size(), 12u + 8u + 4u + 8u + 8u);
    EXPECT_EQ(Glb::u32(with_bin, 24), 8u);           // BIN chunk length, padded
    EXPECT_EQ(Glb::u32(with_bin, 28), 0x004E4942u);  // "BIN\0"
    EXPECT_EQ(with_bin[32 + 5], 0);                  // zero padding
}

struct Broken {
    const char* what;
    void (*breaks)(Scene&);
    const char* message;  ///< a fragment the error must contain
};

TEST(GltfWrite, RefusesScenesGltfCannotHoldAndNamesTheElement) {
    const std::vector<Broken> cases{
        {"index out of range", [](Scene& s) { s.meshes[1].indices[4] = 9999; },
         "mesh 1 'MannequinMesh' (material 'Hair'): triangle 1 names vertex 9999"},
        {"NaN position", [](Scene& s) { s.meshes[2].positions[7].y = NAN; }, "(material 'Skirt'): vertex 7 position is not finite"},
        {"joint out of range", [](Scene& s) { s.meshes[0].influences[3].joint = 99; }, "names joint 99 of a skin with 19"},
        {"vertex without weight",
         [](Scene& s) {
             Mesh& m = s.meshes[1];
             for (uint32_t k = m.influence_offsets[5]; k < m.influence_offsets[6]; ++k) m.influences[k].weight = 0;
         },
         "skinned vertex 5 has no weight"},
        {"negative weight", [](Scene& s) { s.meshes[0].influences[0].weight = -0.5f; }, "has weight -0.5"},
        {"material out of range", [](Scene& s) { s.meshes[0].material = 7; }, "material 7 is not a material"},
        {"normals count", [](Scene& s) { s.meshes[0].normals.pop_back(); }, "normals for"},
        {"no triangles", [](Scene& s) { s.meshes[2].indices.clear(); }, "has no triangles"},
        {"not at a node", [](Scene& s) { s.meshes[0].node = -1; }, "is not instanced at a node"},
        {"cycle",
         [](Scene& s) {
             // Head becomes its own grandparent: Neck -> Head -> Neck.
             const int neck = s.find_node("Neck"), head = s.find_node("Head"), chest = s.find_node("Chest");
             auto& kids = s.nodes[chest].children;
             kids.erase(std::find(kids.begin(), kids.end(), neck));
             s.nodes[neck].parent = head;
             s.nodes[head].children.push_back(neck);
         },
         "'Neck' is its own ancestor"},
        {"child listed twice", [](Scene& s) { s.nodes[0].children.push_back(1); }, "'Hips' is listed as a child twice"},
        {"inverse binds count", [](Scene& s) { s.skins[0].inverse_bind.pop_back(); }, "has 19 joints but 18 inverse bind"},
        {"duplicate joint", [](Scene& s) { s.skins[0].joints[1] = s.skins[0].joints[0]; }, "'Hips' is a joint twice"},
        {"non-finite transform", [](Scene& s) { s.nodes[3].local.m[12] = INFINITY; }, "node 3 'Chest': transform is not finite"},
    };
    const auto dir = test::scratch_dir("gltf_write_refusals");
    for (const Broken& c : cases) {
        Scene s = testdata::make_mannequin();
        c.breaks(s);
        const std::string error = glb_write_error(s);
        EXPECT_NE(error.find(c.message), std::string::npos) << c.what << ": got \"" << error << "\"";
        EXPECT_TRUE(encode_glb(s).empty()) << c.what;
        const std::filesystem::path out = dir / "refused.glb";
        const std::string written = write_glb(s, out);
        EXPECT_NE(written.find(out.string()), std::string::npos) << c.what << ": " << written;
        EXPECT_FALSE(std::filesystem::exists(out)) << c.what;
    }
    // A static mesh cannot be expressed under a node that flattens space.
    Scene flat = testdata::make_flag();
    flat.nodes[2].local = Mat4::uniform_scale(0);
    EXPECT_NE(glb_write_error(flat).find("'Flag' whose world transform is singular"), std::string::npos)
        << glb_write_error(flat);
}

TEST(GltfWrite, DegenerateNormalsAreReplacedNotWrittenAsZero) {
    Scene s = testdata::make_flag();
    s.meshes[1].normals[0] = {0, 0, 0};
    s.meshes[1].normals[1] = {NAN, 0, 0};
    ASSERT_EQ(glb_write_error(s), "");
    const Glb g = Glb::parse(encode_glb(s));
    const std::vector<double> n = g.accessor(g.doc["meshes"][1]["primitives"][0]["attributes"]["NORMAL"].get<int>());
    for (int v = 0; v < 2; ++v) {
        EXPECT_NEAR(std::sqrt(n[3 * v] * n[3 * v] + n[3 * v + 1] * n[3 * v + 1] + n[3 * v + 2] * n[3 * v + 2]), 1.0, 1e-6);
        // From the faces: the flag sheet faces its node's +Z.
        EXPECT_NEAR(n[3 * v + 2], 1.0, 1e-6) << "vertex " << v;
    }
}

}  // namespace
}  // namespace weft
