// The writer against the project's importer: a Scene written with write_glb and read back with
// import_scene keeps its nodes, hierarchy, materials, counts, skin and bind pose; the committed
// fixtures import with the size they promise; every file of testdata/bad/ is refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

#include <sys/stat.h>
#include <unistd.h>

#include "io/atomic_file.h"
#include "glb_reader.h"
#include "scene/gltf_write.h"
#include "scene/import.h"
#include "support/paths.h"
#include "testdata/fixtures.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

std::string issues_of(const ImportResult& r) {
    std::string s;
    for (const Issue& i : r.issues) s += std::string(severity_name(i.severity)) + " " + i.code + ": " + i.message + "\n";
    return s;
}

const Mesh* mesh_on(const Scene& s, const std::string& material) {
    for (const Mesh& m : s.meshes)
        if (m.material >= 0 && s.materials[static_cast<size_t>(m.material)] == material) return &m;
    return nullptr;
}

std::string parent_name(const Scene& s, int node) {
    const int p = s.nodes[static_cast<size_t>(node)].parent;
    return p < 0 ? "" : s.nodes[static_cast<size_t>(p)].name;
}

/// Per vertex: joint name -> weight.
std::map<std::string, double> weights_of(const Scene& s, const Mesh& m, size_t v) {
    std::map<std::string, double> w;
    const Skin& skin = s.skins.at(static_cast<size_t>(m.skin));
    for (uint32_t k = m.influence_offsets[v]; k < m.influence_offsets[v + 1]; ++k)
        w[s.nodes.at(static_cast<size_t>(skin.joints.at(m.influences[k].joint))).name] += m.influences[k].weight;
    return w;
}

/// For each vertex of `a`, the vertex of `b` nearest to it (brute force: fixtures are small).
std::vector<size_t> match_vertices(const Mesh& a, const Mesh& b, double& worst) {
    std::vector<size_t> match(a.vertex_count());
    worst = 0;
    for (size_t v = 0; v < a.vertex_count(); ++v) {
        double best = INFINITY;
        for (size_t u = 0; u < b.vertex_count(); ++u) {
            const double d = distance(a.positions[v], b.positions[u]);
            if (d < best) best = d, match[v] = u;
        }
        worst = std::max(worst, best);
    }
    return match;
}

/// Everything a round trip must keep, compared by name (the importer may add or order nodes its
/// own way, e.g. a synthetic root).
void expect_same_scene(const Scene& original, const Scene& back, const std::string& label) {
    for (size_t n = 0; n < original.nodes.size(); ++n) {
        const std::string& name = original.nodes[n].name;
        const int found = back.find_node(name);
        ASSERT_GE(found, 0) << label << ": node " << name << " lost";
        if (original.nodes[n].parent >= 0) {
            EXPECT_EQ(parent_name(back, found), parent_name(original, static_cast<int>(n))) << label << ": parent of " << name;
        }
        const Vec3 t0 = original.nodes[n].world.translation_part(), t1 = back.nodes[found].world.translation_part();
        EXPECT_LT(distance(t0, t1), 1e-5) << label << ": rest position of " << name;
    }
    std::set<std::string> materials_before(original.materials.begin(), original.materials.end());
    std::set<std::string> materials_after(back.materials.begin(), back.materials.end());
    EXPECT_EQ(materials_after, materials_before) << label;

    for (const Mesh& m : original.meshes) {
        const std::string material = original.materials[static_cast<size_t>(m.material)];
        const Mesh* r = mesh_on(back, material);
        ASSERT_NE(r, nullptr) << label << ": no mesh on " << material;
        EXPECT_EQ(r->vertex_count(), m.vertex_count()) << label << " " << material;
        EXPECT_EQ(r->triangle_count(), m.triangle_count()) << label << " " << material;
        double worst = 0;
        const std::vector<size_t> match = match_vertices(m, *r, worst);
        EXPECT_LT(worst, 1e-5) << label << " " << material << ": bind-pose positions moved (metres)";
        if (m.skin < 0) {
            EXPECT_LT(r->skin, 0) << label << " " << material;
            continue;
        }
        ASSERT_GE(r->skin, 0) << label << " " << material << " lost its skin";
        ASSERT_EQ(r->influence_offsets.size(), r->vertex_count() + 1);
        double worst_weight = 0, worst_sum = 0;
        for (size_t v = 0; v < m.vertex_count(); ++v) {
            const auto before = weights_of(original, m, v), after = weights_of(back, *r, match[v]);
            double sum = 0;
            for (const auto& [joint, w] : after) sum += w;
            worst_sum = std::max(worst_sum, std::fabs(sum - 1));
            for (const auto& [joint, w] : before) {
                const auto it = after.find(joint);
                worst_weight = std::max(worst_weight, std::fabs(w - (it == after.end() ? 0.0 : it->second)));
            }
        }
        EXPECT_LT(worst_sum, 1e-5) << label << " " << material << ": weights do not sum to 1";
        EXPECT_LT(worst_weight, 1e-5) << label << " " << material << ": weights changed";
        // Every joint that carries weight is a joint of the imported skin, under its own name.
        std::set<std::string> back_joints;
        for (int j : back.skins[static_cast<size_t>(r->skin)].joints) back_joints.insert(back.nodes[static_cast<size_t>(j)].name);
        for (const Influence& inf : m.influences)
            EXPECT_TRUE(back_joints.count(original.nodes[static_cast<size_t>(original.skins[0].joints[inf.joint])].name))
                << label << ": joint missing from the imported skin";
    }
}

struct Named {
    std::string file;
    Scene scene;
};

std::vector<Named> fixture_scenes() {
    testdata::MannequinOptions chains, shared;
    chains.authored_hair_chains = true;
    shared.skirt_on_body_material = true;
    return {{"mannequin.glb", testdata::make_mannequin()},
            {"mannequin_chains.glb", testdata::make_mannequin(chains)},
            {"mannequin_shared_skirt.glb", testdata::make_mannequin(shared)},
            {"flag.glb", testdata::make_flag()}};
}

TEST(GltfRoundTrip, WrittenScenesImportBackUnchanged) {
    const fs::path dir = test::scratch_dir("gltf_roundtrip");
    for (const Named& n : fixture_scenes()) {
        const fs::path file = dir / n.file;
        ASSERT_EQ(write_glb(n.scene, file), "");
        const ImportResult r = import_scene(file);
        ASSERT_TRUE(r.ok()) << n.file << "\n" << issues_of(r);
        expect_same_scene(n.scene, r.scene, n.file);
    }
}

// Import keeps the file's identity by index (scene.h Node::source, Mesh::source_*), which the
// grown-model writer patches by: every node the file has is the Scene node of its index, and every
// triangle corner of a primitive names, through source_vertices, the very Scene vertex that
// triangle's corner is (identical vertices joined, none re-matched by position).
TEST(GltfRoundTrip, ImportKeepsNodeAndVertexIdentityByIndex) {
    const fs::path model = test::testdata_dir() / "mannequin.glb";
    const ImportResult r = import_scene(model);
    ASSERT_TRUE(r.ok());
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(model, bytes), "");
    const test::Glb glb = test::Glb::parse(bytes);
    const nlohmann::json& nodes = glb.doc["nodes"];
    std::set<int> sources;
    for (const Node& node : r.scene.nodes) {
        if (node.source < 0) continue;
        ASSERT_LT(size_t(node.source), nodes.size());
        EXPECT_EQ(nodes[size_t(node.source)].value("name", ""), node.name);
        EXPECT_TRUE(sources.insert(node.source).second) << "file node " << node.source << " is two Scene nodes";
    }
    EXPECT_EQ(sources.size(), nodes.size());
    size_t corners = 0;
    for (const Mesh& mesh : r.scene.meshes) {
        ASSERT_GE(mesh.source_mesh, 0) << mesh.name;
        const nlohmann::json& prim = glb.doc["meshes"][size_t(mesh.source_mesh)]["primitives"][size_t(mesh.source_primitive)];
        const std::vector<double> positions = glb.accessor(prim["attributes"]["POSITION"].get<int>());
        ASSERT_EQ(mesh.source_vertices.size() * 3, positions.size()) << mesh.name;
        const std::vector<double> indices = glb.accessor(prim["indices"].get<int>());
        ASSERT_EQ(indices.size(), mesh.indices.size()) << mesh.name;
        std::vector<bool> reached(mesh.vertex_count(), false);
        for (size_t i = 0; i < indices.size(); ++i) {
            const uint32_t v = mesh.source_vertices[size_t(indices[i])];
            ASSERT_EQ(v, mesh.indices[i]) << mesh.name << " corner " << i;
            reached[v] = true;
            ++corners;
        }
        EXPECT_EQ(std::count(reached.begin(), reached.end(), false), 0) << mesh.name;
    }
    EXPECT_GT(corners, 1000u);
}

TEST(GltfRoundTrip, CommittedModelsImportAtTheirSize) {
    for (const char* file : {"mannequin.glb", "mannequin_chains.glb", "mannequin_shared_skirt.glb"}) {
        const ImportResult r = import_scene(test::testdata_dir() / file);
        ASSERT_TRUE(r.ok()) << file << "\n" << issues_of(r);
        const Bounds b = r.scene.bounds();
        EXPECT_GE(b.size().y, 1.6) << file;
        EXPECT_LE(b.size().y, 1.8) << file;
        EXPECT_NEAR(b.min.y, 0.0, 1e-5) << file;
    }
    const ImportResult flag = import_scene(test::testdata_dir() / "flag.glb");
    ASSERT_TRUE(flag.ok()) << issues_of(flag);
    const Mesh* sheet = mesh_on(flag.scene, "Flag");
    ASSERT_NE(sheet, nullptr);
    EXPECT_EQ(sheet->vertex_count(), 117u);
    EXPECT_EQ(sheet->node_name, "Flag");
}

TEST(GltfRoundTrip, CentimetreZUpFbxImportsAsAMetreTallYUpFigure) {
    const ImportResult r = import_scene(test::testdata_dir() / "mannequin_cm.fbx");
    ASSERT_TRUE(r.ok()) << issues_of(r);
    const Scene& s = r.scene;
    const Bounds b = s.bounds();
    EXPECT_GE(b.size().y, 1.6);
    EXPECT_LE(b.size().y, 1.8);
    EXPECT_NEAR(b.min.y, 0.0, 1e-4) << "feet on the ground";
    EXPECT_NEAR(b.size().x, 1.58, 1e-3) << "arms span X";
    EXPECT_NEAR(s.unit_scale, 0.01, 1e-12);
    EXPECT_EQ(s.up_axis, "Z");
    const int head = s.find_node("Head"), hips = s.find_node("Hips");
    ASSERT_GE(head, 0);
    ASSERT_GE(hips, 0);
    EXPECT_NEAR(s.nodes[head].world.translation_part().y, 1.53, 1e-4);
    EXPECT_NEAR(s.nodes[hips].world.translation_part().y, 0.95, 1e-4);
    // Facing +Z again: the toes (z = +0.17) are in front of the heels (z = -0.06).
    const Mesh* body = mesh_on(s, "Body");
    ASSERT_NE(body, nullptr);
    double toe = -INFINITY, heel = INFINITY;
    for (const Vec3& p : body->positions)
        if (p.y < 0.05) toe = std::max(toe, p.z), heel = std::min(heel, p.z);
    EXPECT_NEAR(toe, 0.17, 1e-4);
    EXPECT_NEAR(heel, -0.06, 1e-4);

    // Same figure as the glTF mannequin: every FBX vertex sits on one of its vertices.
    const Scene original = testdata::make_mannequin();
    for (const char* material : {"Body", "Hair", "Skirt"}) {
        const Mesh* a = mesh_on(s, material);
        const Mesh* o = mesh_on(original, material);
        ASSERT_NE(a, nullptr) << material;
        EXPECT_EQ(a->triangle_count(), o->triangle_count()) << material;
        double worst = 0;
        match_vertices(*a, *o, worst);
        EXPECT_LT(worst, 1e-5) << material << ": FBX bind pose differs from the glTF one (metres)";
        ASSERT_GE(a->skin, 0) << material;
    }
}

TEST(GltfRoundTrip, ImporterRefusesEveryBadInputWithItsCode) {
    for (const testdata::FixtureFile& f : testdata::bad_fixtures()) {
        const fs::path path = test::testdata_dir() / f.path;
        if (path.extension() == ".bin") continue;                         // a companion buffer
        const std::string code = f.purpose.substr(f.purpose.rfind(": ") + 2);
        const bool sheet_defect = code == "NON_MANIFOLD_EDGE" || code == "ZERO_AREA_TRIANGLE" || code == "INCONSISTENT_WINDING" ||
                                  code == "WINDING_REORIENTED" || code == "FAN_SPLIT";
        const fs::path target = f.path.find("dir.glb/") != std::string::npos ? path.parent_path() : path;
        const ImportResult r = import_scene(target);
        if (sheet_defect) {
            EXPECT_TRUE(r.ok()) << f.path << " is valid glTF; the sheet builder refuses or repairs it\n" << issues_of(r);
            continue;
        }
        EXPECT_FALSE(r.ok()) << f.path << " was accepted";
        bool named = false;
        for (const Issue& i : r.issues)
            named |= i.severity == Severity::error && i.message.find(target.filename().string()) != std::string::npos;
        EXPECT_TRUE(named) << f.path << ": no error names the file\n" << issues_of(r);
        bool coded = false;
        for (const Issue& i : r.issues) coded |= i.code == code;
        EXPECT_TRUE(coded) << f.path << ": expected " << code << "\n" << issues_of(r);
    }
}

TEST(GltfRoundTrip, UnreadableFileIsRefused) {
    const fs::path dir = test::scratch_dir("gltf_roundtrip_unreadable");
    const fs::path file = dir / "unreadable.glb";
    fs::copy_file(test::testdata_dir() / "flag.glb", file);
    ASSERT_EQ(::chmod(file.c_str(), 0), 0);
    if (::access(file.c_str(), R_OK) == 0) GTEST_SKIP() << "running as root: permissions do not stop reads";
    const ImportResult r = import_scene(file);
    EXPECT_FALSE(r.ok());
    bool coded = false;
    for (const Issue& i : r.issues) coded |= i.code == "FILE_UNREADABLE";
    EXPECT_TRUE(coded) << issues_of(r);
}

}  // namespace
}  // namespace weft

namespace weft {
namespace {

// docs/growth.md#default-pose: a file whose default (node) pose turns a joint off its bind pose (the
// inverse binds) imports with DEFAULT_POSE_OFF_BIND naming it; at its bind pose it imports without.
TEST(GltfRoundTrip, ADefaultPoseOffTheBindPoseIsWarnedAbout) {
    const fs::path dir = test::scratch_dir("gltf_default_pose");
    Scene scene = testdata::make_mannequin();
    ASSERT_FALSE(scene.skins.empty());
    const std::vector<int>& joints = scene.skins[0].joints;
    int leaf = -1;  // a joint under a joint, with nothing below it: turning it moves no other node
    for (int j : joints)
        if (scene.nodes[size_t(j)].children.empty() &&
            std::find(joints.begin(), joints.end(), scene.nodes[size_t(j)].parent) != joints.end())
            leaf = j;
    ASSERT_GE(leaf, 0);
    const auto imported = [&](const Scene& s, const char* name) {
        const fs::path file = dir / name;
        const std::vector<uint8_t> bytes = encode_glb(s);
        std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        return import_scene(file);
    };
    const auto warnings = [](const ImportResult& r) {
        std::vector<std::string> out;
        for (const Issue& i : r.issues)
            if (i.code == "DEFAULT_POSE_OFF_BIND") out.push_back(i.message);
        return out;
    };
    const ImportResult at_bind = imported(scene, "at_bind.glb");
    ASSERT_TRUE(at_bind.ok());
    EXPECT_TRUE(warnings(at_bind).empty());
    // 30 degrees about x in the default pose; the inverse binds keep the bind pose.
    Node& node = scene.nodes[size_t(leaf)];
    node.local = node.local * Mat4::from_trs({}, Quat::from_axis_angle({1, 0, 0}, 30 * M_PI / 180), {1, 1, 1});
    node.world = scene.nodes[size_t(node.parent)].world * node.local;
    const ImportResult turned = imported(scene, "turned.glb");
    ASSERT_TRUE(turned.ok());
    const std::vector<std::string> w = warnings(turned);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_NE(w[0].find("turned.glb: the default pose is not the bind pose: joint '" + node.name + "' (under '" +
                        scene.nodes[size_t(node.parent)].name + "') is turned 30 degrees from it;"),
              std::string::npos)
        << w[0];
}

}  // namespace
}  // namespace weft
