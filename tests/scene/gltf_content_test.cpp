// What the glTF reader makes of every glTF, GLB and VRM the repository and the shared models hold,
// checked against the file itself as tests/scene/glb_reader.h reads it (its own JSON parse, its
// own accessor decoding, its own T·R·S composition), never against a second importer:
// - node identity by index: each Scene node's `source` is a node of the file, once, with the
//   file's name (or "nodes[i]"), the file's parent, and the file's world transform;
// - vertex identity by index: each mesh names its file primitive, every file vertex maps to a
//   Scene vertex (or none), every Scene vertex comes from a file vertex, and a static mesh's
//   vertex sits where its node's world puts the file's position;
// - skinning: each kept vertex carries the file's own joints and weights (normalised), and each
//   joint's inverse bind is the inverse of its rest world;
// - the totals of each model (nodes, meshes, vertices, triangles, joints, clips, springs), the
//   figures the Assimp reader gave the same files before weft read glTF itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

#include "scene/glb_reader.h"
#include "scene/import.h"
#include "scene/import_helpers.h"
#include "support/file_bytes.h"
#include "support/base64.h"
#include "support/paths.h"

namespace weft::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// The glTF-family files directly in `dir` (or below it), sorted.
std::vector<fs::path> gltf_files(const fs::path& dir, bool recursive) {
    std::vector<fs::path> out;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return out;
    auto take = [&](const fs::directory_entry& e) {
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".glb" || ext == ".gltf" || ext == ".vrm")) out.push_back(e.path());
    };
    if (recursive)
        for (const auto& e : fs::recursive_directory_iterator(dir)) take(e);
    else
        for (const auto& e : fs::directory_iterator(dir)) take(e);
    std::sort(out.begin(), out.end());
    return out;
}

/// The file as glb_reader.h reads it; `bin_read` false for a .gltf (its JSON only).
Glb read_gltf_file(const fs::path& file, bool& bin_read) {
    const std::vector<uint8_t> bytes = file_bytes(file);
    bin_read = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    if (bin_read) return Glb::parse(bytes);
    Glb g;
    g.doc = json::parse(bytes.begin(), bytes.end());
    return g;
}

/// Whether accessor `index` can be decoded by glb_reader.h (tightly packed, with a view, not sparse).
bool decodable(const Glb& g, int index) {
    const json& a = g.doc["accessors"][size_t(index)];
    if (!a.contains("bufferView") || a.contains("sparse")) return false;
    return !g.doc["bufferViews"][a["bufferView"].get<size_t>()].contains("byteStride");
}

/// An accessor's components as the file means them (normalised integers scaled).
std::vector<double> values(const Glb& g, int index) {
    std::vector<double> v = g.accessor(index);
    const json& a = g.doc["accessors"][size_t(index)];
    if (a.value("normalized", false)) {
        const int type = a["componentType"].get<int>();
        const double scale = type == 5121 ? 255.0 : type == 5123 ? 65535.0 : 1.0;
        for (double& x : v) x /= scale;
    }
    return v;
}

bool near_mat(const Mat4& a, const Mat4& b, double tol) {
    for (int k = 0; k < 16; ++k)
        if (std::abs(a.m[size_t(k)] - b.m[size_t(k)]) > tol * std::max(1.0, std::abs(b.m[size_t(k)]))) return false;
    return true;
}

void expect_nodes_are_the_files(const Scene& s, const Glb& g) {
    const json& nodes = g.doc["nodes"];
    std::vector<int> file_parent(nodes.size(), -1);
    for (size_t p = 0; p < nodes.size(); ++p)
        for (const json& c : nodes[p].value("children", json::array())) file_parent[c.get<size_t>()] = int(p);
    std::vector<int> seen(nodes.size(), 0);
    for (size_t n = 0; n < s.nodes.size(); ++n) {
        const Node& node = s.nodes[n];
        if (node.source < 0) {
            EXPECT_EQ(node.name, "ROOT") << "the one node not from the file stands above several roots";
            EXPECT_EQ(n, 0u);
            continue;
        }
        ASSERT_LT(size_t(node.source), nodes.size());
        EXPECT_EQ(++seen[size_t(node.source)], 1) << "file node " << node.source << " read twice";
        const std::string name = nodes[size_t(node.source)].value("name", std::string());
        EXPECT_EQ(node.name, name.empty() ? "nodes[" + std::to_string(node.source) + "]" : name);
        const int parent_source = node.parent >= 0 ? s.nodes[size_t(node.parent)].source : -1;
        EXPECT_EQ(parent_source, file_parent[size_t(node.source)]) << "node '" << node.name << "'";
        EXPECT_TRUE(near_mat(node.world, g.world(node.source), 1e-5)) << "node '" << node.name << "' world";
    }
}

void expect_meshes_are_the_files(const Scene& s, const Glb& g, bool bin_read) {
    const json& meshes = g.doc["meshes"];
    for (const Mesh& mesh : s.meshes) {
        SCOPED_TRACE("mesh '" + mesh.name + "'");
        ASSERT_GE(mesh.source_mesh, 0);
        ASSERT_LT(size_t(mesh.source_mesh), meshes.size());
        const json& m = meshes[size_t(mesh.source_mesh)];
        const json& prims = m["primitives"];
        ASSERT_GE(mesh.source_primitive, 0);
        ASSERT_LT(size_t(mesh.source_primitive), prims.size());
        std::string label = m.value("name", std::string());
        if (label.empty()) label = "meshes[" + std::to_string(mesh.source_mesh) + "]";
        if (prims.size() > 1) label += "-" + std::to_string(mesh.source_primitive);
        EXPECT_EQ(mesh.name, label);
        const json& prim = prims[size_t(mesh.source_primitive)];
        const int position = prim["attributes"]["POSITION"].get<int>();
        const size_t file_count = g.doc["accessors"][size_t(position)]["count"].get<size_t>();
        ASSERT_EQ(mesh.source_vertices.size(), file_count);
        // Every Scene vertex is some file vertex; the first file vertex of each is the one kept.
        std::vector<int64_t> kept(mesh.vertex_count(), -1);
        for (size_t v = 0; v < file_count; ++v) {
            const uint32_t k = mesh.source_vertices[v];
            if (k == UINT32_MAX) continue;
            ASSERT_LT(k, mesh.vertex_count());
            if (kept[k] < 0) kept[k] = int64_t(v);
        }
        for (size_t k = 0; k < kept.size(); ++k) ASSERT_GE(kept[k], 0) << "vertex " << k << " from no file vertex";
        if (!bin_read || !decodable(g, position)) continue;
        const std::vector<double> pos = values(g, position);
        const Mat4 world = s.nodes[size_t(mesh.node)].world;
        if (mesh.skin < 0) {
            for (size_t k = 0; k < kept.size(); ++k) {
                const size_t v = size_t(kept[k]);
                const Vec3 expect = world.transform_point({pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]});
                ASSERT_NEAR(length(mesh.positions[k] - expect), 0.0, 1e-5 * std::max(1.0, length(expect))) << "vertex " << k;
            }
            continue;
        }
        // The kept vertex's joints and weights are the file's, normalised, by Scene node.
        const json& attrs = prim["attributes"];
        const int instancing = s.nodes[size_t(mesh.node)].source;
        ASSERT_GE(instancing, 0);
        const json& file_joints = g.doc["skins"][g.doc["nodes"][size_t(instancing)]["skin"].get<size_t>()]["joints"];
        std::vector<int> scene_of_file(g.doc["nodes"].size(), -1);
        for (size_t n = 0; n < s.nodes.size(); ++n)
            if (s.nodes[n].source >= 0) scene_of_file[size_t(s.nodes[n].source)] = int(n);
        std::vector<std::pair<std::vector<double>, std::vector<double>>> sets;
        for (int set = 0; attrs.contains("JOINTS_" + std::to_string(set)); ++set) {
            const int j = attrs["JOINTS_" + std::to_string(set)].get<int>(), w = attrs["WEIGHTS_" + std::to_string(set)].get<int>();
            if (!decodable(g, j) || !decodable(g, w)) return;
            sets.push_back({values(g, j), values(g, w)});
        }
        const Skin& skin = s.skins[size_t(mesh.skin)];
        for (size_t k = 0; k < kept.size(); ++k) {
            std::map<int, double> file, scene;
            double total = 0;
            for (const auto& [jv, wv] : sets)
                for (size_t c = 0; c < 4; ++c) {
                    const double w = wv[4 * size_t(kept[k]) + c];
                    if (w <= 0) continue;
                    file[scene_of_file[file_joints[size_t(jv[4 * size_t(kept[k]) + c])].get<size_t>()]] += w;
                    total += w;
                }
            for (auto& [node, w] : file) w /= total;
            for (uint32_t i = mesh.influence_offsets[k]; i < mesh.influence_offsets[k + 1]; ++i)
                scene[skin.joints[mesh.influences[i].joint]] += mesh.influences[i].weight;
            ASSERT_EQ(scene.size(), file.size()) << "vertex " << k;
            for (const auto& [node, w] : file) {
                ASSERT_TRUE(scene.count(node)) << "vertex " << k << " lost joint node " << node;
                ASSERT_NEAR(scene[node], w, 1e-6) << "vertex " << k << " joint node " << node;
            }
        }
    }
}

void expect_binds_are_rest_worlds(const Scene& s) {
    for (const Skin& skin : s.skins) {
        ASSERT_EQ(skin.inverse_bind.size(), skin.joints.size());
        for (size_t j = 0; j < skin.joints.size(); ++j)
            EXPECT_TRUE(near_mat(skin.inverse_bind[j] * s.nodes[size_t(skin.joints[j])].world, Mat4::identity(), 1e-4))
                << "skin '" << skin.name << "' joint " << j << " ('" << s.nodes[size_t(skin.joints[j])].name << "')";
    }
}

void expect_content_is_the_files(const fs::path& file) {
    SCOPED_TRACE(file.string());
    const ImportResult r = import_scene(file);
    ASSERT_TRUE(r.ok()) << issues_text(r);
    bool bin_read = false;
    const Glb g = read_gltf_file(file, bin_read);
    expect_scene_invariants(r.scene);
    expect_nodes_are_the_files(r.scene, g);
    expect_meshes_are_the_files(r.scene, g, bin_read);
    expect_binds_are_rest_worlds(r.scene);
}

/// A model's totals, one row of the table below.
struct Totals {
    std::string file;
    size_t nodes = 0, meshes = 0, vertices = 0, triangles = 0, skins = 0, joints = 0, clips = 0, keys = 0, springs = 0,
           colliders = 0;
    bool operator==(const Totals&) const = default;
};

std::ostream& operator<<(std::ostream& o, const Totals& t) {
    return o << "{\"" << t.file << "\", " << t.nodes << ", " << t.meshes << ", " << t.vertices << ", " << t.triangles << ", "
             << t.skins << ", " << t.joints << ", " << t.clips << ", " << t.keys << ", " << t.springs << ", "
             << t.colliders << "}";
}

Totals totals_of(const fs::path& file) {
    const ImportResult r = import_scene(file);
    Totals t{file.filename().string()};
    if (!r.ok()) return t;
    const Scene& s = r.scene;
    t.nodes = s.nodes.size();
    t.meshes = s.meshes.size();
    for (const Mesh& m : s.meshes) t.vertices += m.vertex_count(), t.triangles += m.triangle_count();
    t.skins = s.skins.size();
    for (const Skin& k : s.skins) t.joints += k.joints.size();
    t.clips = s.clips.size();
    for (const Clip& c : s.clips)
        for (const ClipChannel& ch : c.channels) t.keys += ch.translation.size() + ch.rotation.size() + ch.scale.size();
    t.springs = s.springs.size();
    t.colliders = s.colliders.size();
    return t;
}

TEST(GltfContent, EveryTestdataModelIsTheFilesContent) {
    std::vector<fs::path> files = gltf_files(testdata_dir(), false);
    for (const fs::path& f : gltf_files(testdata_dir() / "sheets", false)) files.push_back(f);
    ASSERT_GE(files.size(), 8u);
    for (const fs::path& f : files) expect_content_is_the_files(f);
}

TEST(GltfContent, EverySharedModelIsTheFilesContent) {
    const std::vector<fs::path> files = gltf_files(shared_models_dir(), true);
    if (files.empty()) GTEST_SKIP() << "shared models not present";
    for (const fs::path& f : files) expect_content_is_the_files(f);
}

// The totals of each model as Assimp 5.2.5's glTF reader, converted by weft, gave them (the native
// reader matched it field for field while both existed). Every model has its row: a new one fails
// here with the row to review and add.
void expect_totals(const std::vector<fs::path>& files, const std::vector<Totals>& table) {
    for (const fs::path& file : files) {
        const Totals got = totals_of(file);
        const auto want = std::find_if(table.begin(), table.end(), [&](const Totals& t) { return t.file == got.file; });
        if (want == table.end()) {
            ADD_FAILURE() << "no row for " << got;
            continue;
        }
        EXPECT_EQ(got, *want);
    }
}

TEST(GltfContent, TestdataTotalsAreTheAssimpReadersFigures) {
    std::vector<fs::path> files = gltf_files(testdata_dir(), false);
    for (const fs::path& f : gltf_files(testdata_dir() / "sheets", false)) files.push_back(f);
    expect_totals(files, {
        //  file, nodes, meshes, vertices, triangles, skins, joints, clips, keys, springs, colliders
        {"clip_skeleton.glb", 3, 1, 3, 1, 0, 0, 2, 27, 0, 0},
        {"flag.glb", 3, 2, 143, 240, 0, 0, 0, 0, 0, 0},
        {"mannequin.glb", 21, 3, 970, 1628, 1, 19, 0, 0, 0, 0},
        {"mannequin_chains.glb", 45, 3, 970, 1628, 1, 43, 0, 0, 0, 0},
        {"mannequin_shared_skirt.glb", 21, 2, 970, 1628, 1, 19, 0, 0, 0, 0},
        {"curtain.glb", 2, 2, 169, 288, 0, 0, 0, 0, 0, 0},
        {"pleated_curtain.glb", 2, 2, 78, 120, 0, 0, 0, 0, 0, 0},
        {"dense.glb", 3, 2, 6186, 12056, 0, 0, 0, 0, 0, 0},
        {"holes.glb", 3, 2, 312, 540, 0, 0, 0, 0, 0, 0},
        {"strips.glb", 3, 2, 78, 98, 0, 0, 0, 0, 0, 0},
        {"fanned.glb", 3, 2, 38, 58, 0, 0, 0, 0, 0, 0},
        {"coarse_tablecloth.glb", 3, 2, 16, 18, 0, 0, 0, 0, 0, 0},
        {"table_runner.glb", 3, 2, 84, 80, 0, 0, 0, 0, 0, 0},
        {"covered_mattress.glb", 3, 3, 36, 32, 0, 0, 0, 0, 0, 0},
        {"topless_tablecloth.glb", 3, 2, 56, 78, 0, 0, 0, 0, 0, 0},
        {"banner_shield.glb", 3, 2, 267, 480, 0, 0, 0, 0, 0, 0},
        {"slab.glb", 3, 2, 66, 116, 0, 0, 0, 0, 0, 0},
        {"closed_slab.glb", 3, 2, 66, 124, 0, 0, 0, 0, 0, 0},
        {"thick_slab.glb", 3, 2, 66, 116, 0, 0, 0, 0, 0, 0},
        {"doubled.glb", 3, 2, 66, 96, 0, 0, 0, 0, 0, 0},
        {"finial.glb", 3, 2, 20, 30, 0, 0, 0, 0, 0, 0},
        {"pole_flag.glb", 3, 3, 88, 94, 0, 0, 0, 0, 0, 0},
        {"side_flag.glb", 3, 1, 44, 40, 0, 0, 0, 0, 0, 0},
        {"split_dress.glb", 4, 1, 96, 144, 1, 2, 0, 0, 0, 0},
    });
}

TEST(GltfContent, SharedModelTotalsAreTheAssimpReadersFigures) {
    const std::vector<fs::path> files = gltf_files(shared_models_dir(), true);
    if (files.empty()) GTEST_SKIP() << "shared models not present";
    expect_totals(files, {
        //  file, nodes, meshes, vertices, triangles, skins, joints, clips, keys, springs, colliders
        {"100avatars_cool_loops.vrm", 68, 1, 1892, 2764, 1, 65, 0, 0, 1, 0},
        {"Godette_vrm_v4.vrm", 72, 4, 3106, 3439, 1, 68, 0, 0, 3, 4},
        {"kaykit_Knight.glb", 57, 15, 6976, 6952, 1, 41, 76, 91384, 0, 0},
        {"banner_blue.gltf", 1, 1, 187, 97, 0, 0, 0, 0, 0, 0},
        {"quaternius_Couch_Medium2.glb", 2, 2, 633, 919, 0, 0, 0, 0, 0, 0},
        {"quaternius_Goal_Flag.glb", 2, 2, 219, 322, 0, 0, 0, 0, 0, 0},
        {"quaternius_animals_Fox.glb", 70, 5, 3752, 1848, 1, 51, 12, 16701, 0, 0},
        {"quaternius_men_Casual.glb", 68, 10, 12510, 6206, 1, 49, 0, 0, 0, 0},
        {"quaternius_umw_Witch.gltf", 67, 13, 13868, 6872, 1, 62, 24, 22578, 0, 0},
        {"sphere-collider.gltf", 7, 6, 378, 480, 0, 0, 0, 0, 1, 1},
    });
}

template <typename T>
void append(std::vector<uint8_t>& out, std::initializer_list<T> values) {
    for (T v : values) {
        uint8_t b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        out.insert(out.end(), b, b + sizeof(T));
    }
}

// What the models above do not hold: unnamed nodes and meshes (and an animation of an unnamed
// node), two scene roots, a matrix node, strips, fans, a primitive of points without indices, a
// primitive without a material, an unused unnamed material.
TEST(GltfContent, TheCornersTheModelsMiss) {
    std::vector<uint8_t> bin;
    append<float>(bin, {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0});  // 48 bytes: a unit quad
    append<uint16_t>(bin, {0, 1, 2, 3});                       // 8 bytes
    append<float>(bin, {0, 1});                                 // 8 bytes: key times
    append<float>(bin, {0, 0, 0, 0, 0.5f, 0});                  // 24 bytes: translations
    const std::string gltf = R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,1]}],
      "nodes":[{"mesh":0,"matrix":[1,0,0,0, 0,0,-1,0, 0,1,0,0, 2,0,0,1]},
               {"name":"B","mesh":1,"translation":[0,1,0],"rotation":[0,0.38268343,0,0.92387953],"scale":[2,2,2],"children":[2]},
               {"translation":[0,0.25,0]}],
      "meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1,"mode":5},{"attributes":{"POSITION":0},"mode":0}]},
                {"name":"Fan","primitives":[{"attributes":{"POSITION":0},"indices":1,"mode":6,"material":0}]}],
      "materials":[{"name":"Cloth"},{}],
      "animations":[{"channels":[{"sampler":0,"target":{"node":2,"path":"translation"}}],
                     "samplers":[{"input":2,"output":3}]}],
      "accessors":[{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
                   {"bufferView":1,"componentType":5123,"count":4,"type":"SCALAR"},
                   {"bufferView":2,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
                   {"bufferView":3,"componentType":5126,"count":2,"type":"VEC3"}],
      "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":48},{"buffer":0,"byteOffset":48,"byteLength":8},
                     {"buffer":0,"byteOffset":56,"byteLength":8},{"buffer":0,"byteOffset":64,"byteLength":24}],
      "buffers":[{"byteLength":88,"uri":"data:application/octet-stream;base64,)" +
                             base64(bin) + R"("}]})";
    const fs::path file = scratch_dir("GltfContentCorners") / "corners.gltf";
    std::ofstream(file, std::ios::binary) << gltf;
    const ImportResult r = import_scene(file);
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    ASSERT_EQ(s.nodes.size(), 4u);
    EXPECT_EQ(s.nodes[0].name, "ROOT");
    EXPECT_EQ(s.nodes[1].name, "nodes[0]");
    EXPECT_EQ(s.nodes[2].name, "B");
    EXPECT_EQ(s.nodes[3].name, "nodes[2]");
    EXPECT_EQ(s.nodes[3].parent, 2);
    // The matrix node (column-major) takes +Y to -Z and +Z to +Y, and moves 2 along X; B's child
    // sits 0.5 above B (scale 2).
    EXPECT_NEAR(length(s.nodes[1].world.transform_point({0, 1, 0}) - Vec3{2, 0, -1}), 0.0, 1e-7);
    EXPECT_NEAR(length(s.nodes[1].world.transform_point({0, 0, 1}) - Vec3{2, 1, 0}), 0.0, 1e-7);
    EXPECT_NEAR(length(s.nodes[3].world.translation_part() - Vec3{0, 1.5, 0}), 0.0, 1e-6);
    ASSERT_EQ(s.meshes.size(), 3u);
    const Mesh* strip = mesh_named(s, "meshes[0]-0");
    const Mesh* points = mesh_named(s, "meshes[0]-1");
    const Mesh* fan = mesh_named(s, "Fan");
    ASSERT_NE(strip, nullptr);
    ASSERT_NE(points, nullptr);
    ASSERT_NE(fan, nullptr);
    EXPECT_EQ(strip->triangle_count(), 2u);  // a strip of 4 corners
    EXPECT_EQ(fan->triangle_count(), 2u);    // a fan of 4 corners
    EXPECT_EQ(points->triangle_count(), 0u);
    EXPECT_EQ(points->line_count, 4u);       // four points, counted, not kept as faces
    EXPECT_EQ(strip->vertex_count(), 4u);
    EXPECT_EQ(strip->source_vertices, (std::vector<uint32_t>{0, 1, 2, 3}));
    // Strip winding alternates: the second triangle is (2, 1, 3), so both face +Z.
    EXPECT_EQ(strip->indices, (std::vector<uint32_t>{0, 1, 2, 2, 1, 3}));
    EXPECT_EQ(fan->indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3}));
    EXPECT_EQ(s.materials, (std::vector<std::string>{"Cloth", ""}));
    EXPECT_EQ(s.materials[size_t(fan->material)], "Cloth");
    EXPECT_EQ(s.materials[size_t(strip->material)], "");
    ASSERT_EQ(s.clips.size(), 1u);
    ASSERT_EQ(s.clips[0].channels.size(), 1u);
    EXPECT_EQ(s.clips[0].channels[0].node, 3);
    EXPECT_DOUBLE_EQ(s.clips[0].duration, 1.0);
    ASSERT_EQ(s.clips[0].channels[0].translation.size(), 2u);
    EXPECT_NEAR(s.clips[0].channels[0].translation[1].value.y, 0.5, 1e-7);
}

}  // namespace
}  // namespace weft::test
