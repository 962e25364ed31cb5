// `weft rig` end to end: the files it writes (proxies, sidecar, grown model, report), the
// sidecar and report against their schemas, the grown model through the Khronos glTF Validator and
// back through the project's own importer, exit statuses, and the shared models' authored chains.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "scene/glb_reader.h"
#include "scene/import.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct RigRun {
    test::CommandResult result;
    fs::path out;
    json report;   ///< report.json
    json sidecar;  ///< <model>.cloth.json
};

RigRun rig(const fs::path& model, const std::string& name, std::vector<std::string> extra = {"--grow-cloth"}) {
    RigRun run;
    run.out = test::scratch_dir("rig-" + name);
    std::vector<std::string> args{"rig", model.string(), "-o", run.out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    run.result = test::run_weft(args);
    std::vector<uint8_t> bytes;
    if (read_file(run.out / "report.json", bytes).empty())
        run.report = json::parse(std::string(bytes.begin(), bytes.end()), nullptr, false);
    if (read_file(run.out / (model.stem().string() + ".cloth.json"), bytes).empty())
        run.sidecar = json::parse(std::string(bytes.begin(), bytes.end()), nullptr, false);
    return run;
}

std::string khronos_errors(const fs::path& glb) {
    const fs::path script = test::source_dir() / "tests" / "js" / "validate_gltf.mjs";
    if (std::string missing = test::js_tools_missing("gltf-validator"); !missing.empty()) return missing;
    const test::CommandResult r = test::run_command({"/usr/bin/env", "node", script.string(), glb.string()});
    if (r.exit_code == 0) return {};
    return "exit " + std::to_string(r.exit_code) + ": " + r.out.substr(0, 2000) + r.err;
}

/// A glTF file's JSON, from a .glb/.vrm or a .gltf.
json gltf_document(const fs::path& file) {
    std::vector<uint8_t> bytes;
    EXPECT_EQ(read_file(file, bytes), "");
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) return test::Glb::parse(bytes).doc;
    return json::parse(bytes.begin(), bytes.end());
}

/// How many accessors nothing in the document reads (the Khronos validator's UNUSED_OBJECT infos
/// for accessors): primitives, morph targets, skins and animation samplers.
size_t unused_accessors(const json& doc) {
    std::set<size_t> used;
    for (const json& mesh : doc.value("meshes", json::array()))
        for (const json& prim : mesh["primitives"]) {
            for (const auto& [key, value] : prim["attributes"].items()) used.insert(value.get<size_t>());
            if (prim.contains("indices")) used.insert(prim["indices"].get<size_t>());
            for (const json& target : prim.value("targets", json::array()))
                for (const auto& [key, value] : target.items()) used.insert(value.get<size_t>());
        }
    for (const json& skin : doc.value("skins", json::array()))
        if (skin.contains("inverseBindMatrices")) used.insert(skin["inverseBindMatrices"].get<size_t>());
    for (const json& animation : doc.value("animations", json::array()))
        for (const json& sampler : animation["samplers"]) {
            used.insert(sampler["input"].get<size_t>());
            used.insert(sampler["output"].get<size_t>());
        }
    return doc.value("accessors", json::array()).size() - used.size();
}

/// The grown model leaves no accessor unused that the source used (the joints, weights and inverse
/// binds it replaced are dropped with their bytes) and names weft as its generator.
void expect_grown_model_tidy(const fs::path& original, const fs::path& grown) {
    const json a = gltf_document(original), b = gltf_document(grown);
    EXPECT_EQ(unused_accessors(b), unused_accessors(a)) << grown;
    EXPECT_EQ(b["asset"]["generator"], "weft " WEFT_VERSION);
}

const json* garment_named(const json& sidecar, const std::string& name) {
    for (const json& g : sidecar["garments"])
        if (g["name"] == name) return &g;
    return nullptr;
}

/// Re-imports the grown model and checks it against the model it was grown from: every original
/// node and every grown joint present, skinned positions where they were, weights summing to one.
void expect_grown_model_sound(const fs::path& original, const fs::path& grown, const json& sidecar) {
    const ImportResult a = import_scene(original), b = import_scene(grown);
    ASSERT_TRUE(a.ok());
    ASSERT_TRUE(b.ok()) << b.issues.front().message;
    for (const Node& n : a.scene.nodes) EXPECT_GE(b.scene.find_node(n.name), 0) << "original node " << n.name;
    size_t grown_joints = 0;
    for (const json& g : sidecar["garments"])
        for (const json& c : g["chains"])
            if (c["origin"] == "grown")
                for (const json& j : c["joints"]) {
                    ++grown_joints;
                    const int node = b.scene.find_node(j.get<std::string>());
                    ASSERT_GE(node, 0) << "grown joint " << j;
                    bool in_skin = false;
                    for (const Skin& s : b.scene.skins) in_skin = in_skin || std::count(s.joints.begin(), s.joints.end(), node);
                    EXPECT_TRUE(in_skin) << j;
                }
    EXPECT_GT(grown_joints, 0u);
    // Each chain ending past its last joint gets a tip node there (spring-bone runtimes swing a joint
    // towards its child), patched or rewritten from the scene; a bone whose world transform carries a
    // scale gets a "<bone>_colliders" node for its body colliders (scene/gltf_springs.h).
    size_t tips = 0, collider_nodes = 0;
    for (const json& g : sidecar["garments"])
        for (const json& c : g["chains"]) tips += c["tip_particle"].get<bool>() ? 1 : 0;
    for (const Node& n : b.scene.nodes)
        collider_nodes += n.name.ends_with("_colliders") && a.scene.find_node(n.name) < 0 ? 1 : 0;
    EXPECT_EQ(b.scene.nodes.size(), a.scene.nodes.size() + grown_joints + tips + collider_nodes);
    ASSERT_EQ(a.scene.meshes.size(), b.scene.meshes.size());
    for (size_t m = 0; m < a.scene.meshes.size(); ++m) {
        const Mesh &x = a.scene.meshes[m], &y = b.scene.meshes[m];
        ASSERT_EQ(x.positions.size(), y.positions.size()) << x.name;
        for (size_t v = 0; v < x.positions.size(); ++v)
            ASSERT_LT(distance(x.positions[v], y.positions[v]), 1e-5) << x.name << " vertex " << v;
        for (size_t v = 0; v + 1 < y.influence_offsets.size(); ++v) {
            double total = 0;
            for (uint32_t k = y.influence_offsets[v]; k < y.influence_offsets[v + 1]; ++k) total += y.influences[k].weight;
            if (y.influence_offsets[v + 1] > y.influence_offsets[v]) {
                ASSERT_NEAR(total, 1.0, 1e-5) << y.name << " vertex " << v;
            }
        }
    }
}

/// The grown model opens at rest in importers that turn a node's scale into a pose scale (Blender's
/// glTF importer: a grown joint with local scale 0.01 under an FBX2glTF armature moved Casual's head
/// vertices 4.6 m). Reproduced without Blender: no grown joint carries a scale, and at rest every
/// grown joint's skinning matrix (world x inverse bind) moves each vertex it weights as the original
/// bone it hangs from does, within 0.1 mm.
void expect_grown_joints_unscaled_at_rest(const fs::path& grown, const json& sidecar) {
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(grown, bytes), "");
    const test::Glb glb = test::Glb::parse(bytes);
    const json& nodes = glb.doc["nodes"];
    std::map<std::string, int> by_name;
    for (size_t i = 0; i < nodes.size(); ++i) by_name[nodes[i].value("name", "")] = static_cast<int>(i);
    std::set<int> grown_nodes;
    for (const json& g : sidecar["garments"])
        for (const json& c : g["chains"])
            if (c["origin"] == "grown")
                for (const json& j : c["joints"]) grown_nodes.insert(by_name.at(j.get<std::string>()));
    ASSERT_FALSE(grown_nodes.empty());
    std::map<int, int> parent;
    for (size_t p = 0; p < nodes.size(); ++p)
        for (const json& c : nodes[p].value("children", json::array())) parent[c.get<int>()] = static_cast<int>(p);
    for (int g : grown_nodes) {
        // A local matrix (kept where rounding leaves no exact TRS) is decomposed by importers too.
        const Mat4 local = glb.local(g);
        for (int c = 0; c < 3; ++c) {
            const double scale = length(Vec3{local.at(0, c), local.at(1, c), local.at(2, c)});
            EXPECT_NEAR(scale, 1.0, 1e-6) << "grown joint " << nodes[size_t(g)]["name"] << " has a scale on axis " << c;
        }
    }
    size_t checked = 0;
    double worst = 0;
    for (const json& node : nodes) {
        if (!node.contains("mesh") || !node.contains("skin")) continue;
        const json& skin = glb.doc["skins"][node["skin"].get<size_t>()];
        std::vector<int> joints = skin["joints"].get<std::vector<int>>();
        const std::vector<double> ibm = glb.accessor(skin["inverseBindMatrices"].get<int>());
        std::vector<Mat4> skinning(joints.size());
        std::map<int, size_t> joint_index;
        for (size_t j = 0; j < joints.size(); ++j) {
            Mat4 inverse_bind;
            for (int c = 0; c < 16; ++c) inverse_bind.m[size_t(c)] = ibm[j * 16 + size_t(c)];
            skinning[j] = glb.world(joints[j]) * inverse_bind;
            joint_index[joints[j]] = j;
        }
        // Each grown joint's reference: the skinning matrix of the first original bone above it.
        std::vector<int> reference(joints.size(), -1);
        for (size_t j = 0; j < joints.size(); ++j) {
            if (!grown_nodes.count(joints[j])) continue;
            int a = joints[j];
            while (grown_nodes.count(a) && parent.count(a)) a = parent[a];
            ASSERT_TRUE(joint_index.count(a)) << "grown joint " << joints[j] << " hangs from a bone outside its skin";
            reference[j] = static_cast<int>(joint_index[a]);
        }
        for (const json& prim : glb.doc["meshes"][node["mesh"].get<size_t>()]["primitives"]) {
            const json& at = prim["attributes"];
            if (!at.contains("JOINTS_0")) continue;
            const std::vector<double> pos = glb.accessor(at["POSITION"].get<int>());
            for (int set = 0; at.contains("JOINTS_" + std::to_string(set)); ++set) {
                const std::vector<double> js = glb.accessor(at["JOINTS_" + std::to_string(set)].get<int>());
                const std::vector<double> ws = glb.accessor(at["WEIGHTS_" + std::to_string(set)].get<int>());
                for (size_t v = 0; v * 3 < pos.size(); ++v)
                    for (size_t c = 0; c < 4; ++c) {
                        const size_t j = static_cast<size_t>(js[v * 4 + c]);
                        if (!(ws[v * 4 + c] > 0) || reference[j] < 0) continue;
                        const Vec3 x{pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2]};
                        worst = std::max(worst, distance(skinning[j].transform_point(x),
                                                         skinning[size_t(reference[j])].transform_point(x)));
                        ++checked;
                    }
            }
        }
    }
    EXPECT_GT(checked, 100u);
    EXPECT_LT(worst, 1e-4) << grown << ": a grown joint moves a vertex at rest";
}

TEST(RigCommand, BadCommandLinesExitTwo) {
    const fs::path model = test::testdata_dir() / "mannequin.glb";
    EXPECT_EQ(test::run_weft({"rig", model.string()}).exit_code, 2);  // no -o
    const fs::path out = test::scratch_dir("rig-usage");
    test::CommandResult r = test::run_weft({"rig", model.string(), "-o", out.string(), "--classes", "hair,velvet"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown garment class \"velvet\""), std::string::npos) << r.err;
    EXPECT_EQ(test::run_weft({"rig", model.string(), "-o", out.string(), "--hair-segments", "0"}).exit_code, 2);
    EXPECT_EQ(test::run_weft({"rig", model.string(), "-o", out.string(), "--skirt-panels", "2"}).exit_code, 2);
}

TEST(RigCommand, ARefusedModelExitsOne) {
    const fs::path out = test::scratch_dir("rig-refused");
    const test::CommandResult r = test::run_weft({"rig", (test::testdata_dir() / "bad" / "empty.glb").string(), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("FILE_EMPTY"), std::string::npos) << r.err;
}

TEST(RigCommand, MannequinGrowsHairAndSkirtWritesEverythingAndValidates) {
    const fs::path model = test::testdata_dir() / "mannequin.glb";
    const RigRun run = rig(model, "mannequin");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.out << run.result.err;
    EXPECT_EQ(test::schema_errors(run.sidecar.dump(), "sidecar.schema.json"), "");
    EXPECT_EQ(test::schema_errors(run.report.dump(), "rig-report.schema.json"), "");
    EXPECT_EQ(run.report["grow"]["chains"], 18);  // 6 strands, 12 skirt panels
    EXPECT_EQ(run.report["grow"]["bones"], 66);
    EXPECT_EQ(run.report["grown_model"]["method"], "patched");
    EXPECT_EQ(run.sidecar["grown_model"], "mannequin.glb");
    EXPECT_EQ(run.sidecar["input"]["file"], "mannequin.glb");
    EXPECT_EQ(run.sidecar["input"]["content_hash"].get<std::string>().rfind("xxh64:", 0), 0u);

    const json* hair = garment_named(run.sidecar, "Hair");
    const json* skirt = garment_named(run.sidecar, "Skirt");
    ASSERT_TRUE(hair && skirt);
    EXPECT_EQ((*hair)["found_by"], "grown");
    EXPECT_EQ((*hair)["frame"]["node"], "Head");
    ASSERT_EQ((*hair)["pins"].size(), 1u);
    EXPECT_EQ((*hair)["pins"][0]["holder"], "Head");
    EXPECT_EQ((*hair)["pins"][0]["particles"].size(), 7u);  // the head and six roots
    EXPECT_EQ((*hair)["chains"].size(), 6u);
    for (const json& c : (*hair)["chains"]) {
        EXPECT_EQ(c["parent"], "Head");
        EXPECT_EQ(c["joints"].size(), 3u);
        EXPECT_TRUE(c["tip_particle"].get<bool>());
        EXPECT_TRUE(c["neighbours"].empty());
    }
    EXPECT_EQ((*skirt)["frame"]["node"], "Hips");
    for (const json& c : (*skirt)["chains"]) {
        EXPECT_EQ(c["joints"].size(), 4u);
        EXPECT_GE(c["neighbours"].size(), 1u);
    }

    // The proxies load (the hardened decoder) and are rig proxies of the right size.
    for (const char* file : {"Hair.clothproxy", "Skirt.clothproxy"}) {
        const DecodeResult d = load_proxy(run.out / file);
        ASSERT_TRUE(d.ok()) << d.error;
        EXPECT_EQ(d.proxy->kind, ProxyKind::rig);
    }
    EXPECT_EQ(load_proxy(run.out / "Hair.clothproxy").proxy->particle_count(), 25u);  // 1 + 6 x (3 + tip)

    const fs::path glb = run.out / "mannequin.glb";
    EXPECT_EQ(khronos_errors(glb), "");
    expect_grown_model_sound(model, glb, run.sidecar);
    expect_grown_joints_unscaled_at_rest(glb, run.sidecar);
    expect_grown_model_tidy(model, glb);
}

TEST(RigCommand, ADracoMannequinGrowsTheSameAndIsWrittenPlain) {
    // glTF-Transform's Draco copy of the mannequin (testdata/draco): the same chains as the plain
    // one, and the grown model patched with every Draco primitive written out plain (the re-weighted
    // ones and the rest alike), so any glTF reader loads it without a Draco decoder.
    const fs::path model = test::testdata_dir() / "draco" / "mannequin_draco.glb";
    const RigRun run = rig(model, "mannequin-draco");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.out << run.result.err;
    EXPECT_EQ(run.report["grow"]["chains"], 18);
    EXPECT_EQ(run.report["grow"]["bones"], 66);
    EXPECT_EQ(run.report["grown_model"]["method"], "patched");
    const fs::path glb = run.out / "mannequin_draco.glb";
    EXPECT_EQ(khronos_errors(glb), "");
    const json doc = gltf_document(glb);
    EXPECT_FALSE(doc.dump().find("KHR_draco_mesh_compression") != std::string::npos);
    for (const json& mesh : doc["meshes"])
        for (const json& prim : mesh["primitives"])
            for (const auto& [name, accessor] : prim["attributes"].items())
                EXPECT_TRUE(doc["accessors"][accessor.get<size_t>()].contains("bufferView")) << name;
    expect_grown_model_sound(model, glb, run.sidecar);
    expect_grown_joints_unscaled_at_rest(glb, run.sidecar);
    expect_grown_model_tidy(model, glb);
}

TEST(RigCommand, OutputIsDeterministic) {
    const fs::path model = test::testdata_dir() / "mannequin.glb";
    const RigRun a = rig(model, "determinism-a"), b = rig(model, "determinism-b");
    ASSERT_EQ(a.result.exit_code, 0);
    for (const char* file : {"Hair.clothproxy", "Skirt.clothproxy", "mannequin.glb", "mannequin.cloth.json"}) {
        std::vector<uint8_t> x, y;
        ASSERT_EQ(read_file(a.out / file, x), "");
        ASSERT_EQ(read_file(b.out / file, y), "");
        EXPECT_TRUE(x == y) << file << " differs between two runs";
    }
}

TEST(RigCommand, ValidateSimulatesEveryProxyAndPassesUnderTheSuggestedFabrics) {
    const RigRun run = rig(test::testdata_dir() / "mannequin.glb", "validate", {"--grow-cloth", "--validate"});
    // strand (hair) and panel (skirt): the pose rows hold the bind pose, so the skinned mesh is whole
    // (tests/pipeline/rig_validate_test.cpp has every model's numbers).
    EXPECT_EQ(run.result.exit_code, 0) << run.result.out << run.result.err;
    EXPECT_EQ(test::schema_errors(run.report.dump(), "rig-report.schema.json"), "");
    const json& v = run.report["validation"];
    ASSERT_TRUE(v.is_object()) << run.report.dump(2).substr(0, 2000);
    EXPECT_EQ(v["passed"], true);
    EXPECT_EQ(v["limits"]["max_mesh_stretch"], 1.1);
    EXPECT_EQ(v["limits"]["max_scalp_displacement"], 0.002);
    EXPECT_EQ(v["limits"]["max_motion_mesh_stretch"], 10.0);
    EXPECT_EQ(v["limits"]["max_motion_scalp_displacement"], 0.15);
    ASSERT_EQ(v["proxies"].size(), 2u);
    for (const json& p : v["proxies"]) {
        EXPECT_EQ(p["fabric"], p["garment"] == "Hair" ? "strand" : "panel");
        EXPECT_TRUE(p["sleep_step"].is_number_integer()) << p["garment"];
        EXPECT_LT(p["idle_jitter_mean"].get<double>(), 0.02) << p["garment"];
        EXPECT_GT(p["mesh"]["vertices"].get<int>(), 0) << p["garment"];
        EXPECT_LT(p["mesh"]["idle"]["max_edge_stretch"].get<double>(), 1.01) << p["garment"];
        size_t mesh_gates = 0;
        for (const json& g : p["gates"]) {
            mesh_gates += g["gate"] == "MESH_STRETCH" || g["gate"] == "SCALP_DISPLACEMENT";
            EXPECT_EQ(g["passed"], true) << g["message"];
        }
        EXPECT_EQ(mesh_gates, 12u) << p["garment"];  // each, in all six scenarios
        EXPECT_EQ(p["mesh"]["scenarios"].size(), 6u) << p["garment"];
    }
    EXPECT_NE(run.result.out.find("validate Hair: strand, slept at "), std::string::npos) << run.result.out;
    // Without --validate the report says so with null, and nothing is gated.
    const RigRun plain = rig(test::testdata_dir() / "mannequin.glb", "no-validate");
    EXPECT_EQ(plain.result.exit_code, 0);
    EXPECT_EQ(plain.report["validation"], nullptr);
}

TEST(RigCommand, UnderTheSeedsHairFabricTheMeshTearsAndValidateExitsOne) {
    const RigRun run = rig(test::testdata_dir() / "mannequin.glb", "validate-hair", {"--grow-cloth", "--validate", "--fabric", "hair"});
    // The library's hair fabric keeps no pose: the hair's chains sag until the skinned mesh stretches
    // 1.13x at the root blend and the scalp moves 2.5 mm. The skirt's panels, rooted at the
    // waistband on Hips, stretch it 1.07x: under the limit.
    EXPECT_EQ(run.result.exit_code, 1) << run.result.out << run.result.err;
    EXPECT_EQ(test::schema_errors(run.report.dump(), "rig-report.schema.json"), "");
    const json& v = run.report["validation"];
    ASSERT_TRUE(v.is_object());
    EXPECT_EQ(v["passed"], false);
    for (const json& p : v["proxies"]) {
        EXPECT_EQ(p["fabric"], "hair");
        EXPECT_GT(p["mesh"]["hang"]["max_edge_stretch"].get<double>(), p["garment"] == "Hair" ? 1.10 : 1.0) << p["garment"];
        EXPECT_LT(p["mesh"]["hang"]["max_edge_stretch"].get<double>(), p["garment"] == "Hair" ? 1.25 : 1.10) << p["garment"];
    }
    size_t torn = 0, slid = 0;
    for (const json& i : run.report["issues"])
        if (i["code"] == "MESH_STRETCH" || i["code"] == "SCALP_DISPLACEMENT") {
            EXPECT_EQ(i["severity"], "error");
            const std::string m = i["message"];
            EXPECT_NE(m.find("Hair.clothproxy: garment 'Hair' "), std::string::npos) << m;
            torn += i["code"] == "MESH_STRETCH";
            slid += i["code"] == "SCALP_DISPLACEMENT";
        }
    EXPECT_EQ(torn, 2u);  // hang and idle for the hair
    EXPECT_EQ(slid, 2u);
    EXPECT_NE(run.result.out.find("error MESH_STRETCH: "), std::string::npos) << run.result.out;
    EXPECT_NE(run.result.out.find("Hair.clothproxy: garment 'Hair' hang (step 1500): worst garment edge 1.1"), std::string::npos)
        << run.result.out;
    // A fabric the library does not have is a bad command line.
    const RigRun bad = rig(test::testdata_dir() / "mannequin.glb", "validate-velvet", {"--grow-cloth", "--fabric", "velvet"});
    EXPECT_EQ(bad.result.exit_code, 2);
    EXPECT_NE(bad.result.err.find("'velvet' is not a library fabric (silk, cotton, denim, leather, rope, chain, hair, strand, panel)"),
              std::string::npos)
        << bad.result.err;
}

TEST(RigCommand, WithNoGrowTheMannequinHasNothingToRig) {
    const RigRun run = rig(test::testdata_dir() / "mannequin.glb", "no-grow", {"--json", "--no-grow"});
    ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
    const json stdout_report = json::parse(run.result.out, nullptr, false);
    ASSERT_TRUE(stdout_report.is_object()) << run.result.out;
    EXPECT_EQ(stdout_report["grow"], nullptr);
    EXPECT_TRUE(stdout_report["proxies"].empty());
    EXPECT_EQ(run.sidecar["grown_model"], nullptr);
    EXPECT_FALSE(fs::exists(run.out / "mannequin.glb"));
}

TEST(RigCommand, ClassesLimitWhatIsGrown) {
    const RigRun run = rig(test::testdata_dir() / "mannequin.glb", "classes", {"--grow-cloth", "--classes", "skirt"});
    ASSERT_EQ(run.result.exit_code, 0);
    ASSERT_EQ(run.sidecar["garments"].size(), 1u);
    EXPECT_EQ(run.sidecar["garments"][0]["name"], "Skirt");
}

TEST(RigCommand, AnFbxModelIsWrittenFromTheSceneWithAWarning) {
    const fs::path model = test::testdata_dir() / "mannequin_cm.fbx";
    const RigRun run = rig(model, "fbx");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(run.report["grown_model"]["method"], "rewritten");
    std::string message;
    for (const json& i : run.report["issues"])
        if (i["code"] == "MODEL_REWRITTEN") message = i["message"];
    ASSERT_FALSE(message.empty());
    // The mannequin has no animations: the warning names what the model has and loses, not "the 0
    // animations".
    EXPECT_NE(message.find("but not its textures or morph targets"), std::string::npos) << message;
    EXPECT_EQ(message.find("animation"), std::string::npos) << message;
    // It names the file and its format as people write it ("a fbx model" before).
    EXPECT_NE(message.find("mannequin_cm.fbx: the model (FBX) is written back from the scene"), std::string::npos) << message;
    EXPECT_EQ(khronos_errors(run.out / "mannequin_cm.glb"), "");
}

// ---- the shared models ----------------------------------------------------------------------------

TEST(RigShared, WitchGrowsHairKeepingItsAnimations) {
    WEFT_REQUIRE_SHARED_MODEL(model, "quaternius_umw_Witch.gltf");
    const RigRun run = rig(model, "witch");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(run.report["grown_model"]["method"], "patched");
    EXPECT_EQ(run.report["grow"]["chains"], 30);  // 18 hair, 12 skirt panels (found by geometry)
    EXPECT_EQ(run.report["grow"]["bones"], 102);
    const fs::path glb = run.out / "quaternius_umw_Witch.glb";
    EXPECT_EQ(khronos_errors(glb), "");
    // The skirt's vertices move from the thighs' weights onto panels hanging from Hips, and are
    // stored anew so the file's default pose (its legs 71 degrees off their bind) shows them where the
    // input did: the import reads every vertex back within 1e-5 m.
    expect_grown_model_sound(model, glb, run.sidecar);
    expect_grown_joints_unscaled_at_rest(glb, run.sidecar);
    expect_grown_model_tidy(model, glb);
    const ImportResult grown = import_scene(glb);
    EXPECT_EQ(grown.scene.animations.size(), 24u);  // MANIFEST: 24 animations
    EXPECT_EQ(test::schema_errors(run.sidecar.dump(), "sidecar.schema.json"), "");
}

TEST(RigShared, CasualAndHairLongGrowHair) {
    // The Casual man's short hair lies on his head: grown where a config names it.
    for (const char* name : {"quaternius_men_Casual.glb", "quaternius_Hair_Long.fbx"}) {
        WEFT_REQUIRE_SHARED_MODEL(model, name);
        const RigRun run =
            rig(model, fs::path(name).stem().string(), {"--grow-cloth", "--config", test::shared_models_config().string()});
        ASSERT_EQ(run.result.exit_code, 0) << name << run.result.err;
        EXPECT_GE(run.report["grow"]["chains"].get<int>(), 16) << name;
        const fs::path glb = run.out / (model.stem().string() + ".glb");
        EXPECT_EQ(khronos_errors(glb), "") << name;
        expect_grown_model_sound(model, glb, run.sidecar);
        expect_grown_joints_unscaled_at_rest(glb, run.sidecar);
        if (model.extension() != ".fbx") expect_grown_model_tidy(model, glb);
        EXPECT_EQ(test::schema_errors(run.report.dump(), "rig-report.schema.json"), "") << name;
    }
}

TEST(RigShared, SuperherosEyebrowsGrowNothingAndTheReportSaysWhy) {
    WEFT_REQUIRE_SHARED_MODEL(model, "quaternius_Superhero_Female_FullBody.fbx");
    const RigRun run = rig(model, "superhero");
    ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
    EXPECT_EQ(run.report["grow"]["chains"], 0);
    ASSERT_EQ(run.report["not_garments"].size(), 1u);
    EXPECT_EQ(run.report["not_garments"][0]["reason"], "too small to simulate: its largest piece spans 64 mm (a garment needs 100 mm)");
    EXPECT_EQ(run.report["grow"]["garments"][0]["outcome"],
              "not grown: not a garment: too small to simulate: its largest piece spans 64 mm (a garment needs 100 mm)");
    EXPECT_NE(run.result.out.find("not a garment"), std::string::npos);
    EXPECT_FALSE(fs::exists(run.out / "quaternius_Superhero_Female_FullBody.glb"));
}

TEST(RigShared, AuthoredChainsAreUsedAsTheyAre) {
    {
        WEFT_REQUIRE_SHARED_MODEL(model, "quaternius_animals_Fox.glb");
        const RigRun run = rig(model, "fox");
        ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
        const json* tail = garment_named(run.sidecar, "Tail1");
        ASSERT_TRUE(tail);
        const json& chain = (*tail)["chains"][0];
        EXPECT_EQ(chain["origin"], "authored");
        EXPECT_EQ(chain["joints"].size(), 8u);
        EXPECT_EQ(chain["joints"][0], "Tail1");
        EXPECT_EQ(chain["joints"][7], "Tail8");
        EXPECT_TRUE(chain["tip_particle"].get<bool>());  // Tail8 weights the tail's end: no end joint
        EXPECT_EQ(run.sidecar["grown_model"], "quaternius_animals_Fox.glb");  // the source with its spring bones
    }
    {
        WEFT_REQUIRE_SHARED_MODEL(model, "Godette_vrm_v4.vrm");
        const RigRun run = rig(model, "godette");
        ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
        std::set<std::string> roots;
        for (const json& g : run.sidecar["garments"])
            for (const json& c : g["chains"]) {
                EXPECT_EQ(c["origin"], "authored");
                roots.insert(c["joints"][0].get<std::string>());
            }
        for (const char* root : {"FrontHair_L", "FrontHair_R", "FrontHair_Center_L", "FrontHair_Center_R", "HairBall_L",
                                 "HairBall_R", "HairBall_Center", "Ribbon"})
            EXPECT_TRUE(roots.count(root)) << root;
    }
    {
        WEFT_REQUIRE_SHARED_MODEL(model, "threevrm_sphere_collider/sphere-collider.gltf");
        const RigRun run = rig(model, "threevrm");
        ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
        ASSERT_EQ(run.sidecar["garments"].size(), 1u);
        const json& chain = run.sidecar["garments"][0]["chains"][0];
        EXPECT_EQ(chain["joints"], json({"Spring A", "Spring B", "Spring C", "Spring D", "Spring E"}));
        EXPECT_EQ(chain["found_by"], json({"VRMC_springBone"}));
        EXPECT_FALSE(chain["tip_particle"].get<bool>());  // Spring E is the end joint
        ASSERT_EQ(run.sidecar["colliders"].size(), 1u);
        EXPECT_EQ(run.sidecar["colliders"][0]["node"], "Collider");
        EXPECT_EQ(run.sidecar["colliders"][0]["radius"], 0.5);
    }
}

}  // namespace
}  // namespace weft
