// `weft inspect` end to end on the shared third-party models (the MANIFEST.md of the
// WEFT_SHARED_MODELS folder states the facts checked here) and the generated fixtures: garments and their verdicts, authored and
// declared chains, not-garments, exit statuses, and the JSON report against its schema.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::vector<std::string> kSharedModels = {
    "quaternius_umw_Witch.gltf",
    "Godette_vrm_v4.vrm",
    "quaternius_Superhero_Female_FullBody.fbx",
    "quaternius_animals_Fox.glb",
    "kaykit_Knight.glb",
    "100avatars_cool_loops.vrm",
    "quaternius_Goal_Flag.glb",
    "threevrm_sphere_collider/sphere-collider.gltf",
};

/// `weft inspect --json` over the given shared models (those present), once per process and list:
/// ctest runs every test in its own process, so each test inspects only the model it checks.
struct SharedRun {
    test::CommandResult result;
    json report;
};
const SharedRun& shared_run(const std::vector<std::string>& names) {
    static std::map<std::vector<std::string>, SharedRun> runs;
    auto [it, inserted] = runs.try_emplace(names);
    if (!inserted) return it->second;
    std::vector<std::string> args{"inspect", "--json"};
    for (const auto& name : names)
        if (fs::path p = test::shared_model(name); !p.empty()) args.push_back(p.string());
    if (args.size() == 2) return it->second;
    it->second.result = test::run_weft(args);
    it->second.report = json::parse(it->second.result.out, nullptr, false);
    return it->second;
}

/// The report entry of one shared model, inspected on its own (fails the test when missing).
const json& model(const std::string& name) {
    static const json none;
    const SharedRun& run = shared_run({name});
    EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
    if (run.report.is_object() && run.report["models"].size() == 1) return run.report["models"][0];
    ADD_FAILURE() << name << " is not in the report: " << run.result.out.substr(0, 400) << run.result.err;
    return none;
}

const json* find_by(const json& list, const std::string& key, const std::string& value) {
    for (const auto& item : list)
        if (item.contains(key) && item[key] == value) return &item;
    return nullptr;
}

std::vector<std::string> strings(const json& list) {
    std::vector<std::string> r;
    for (const auto& s : list) r.push_back(s.get<std::string>());
    return r;
}

TEST(InspectShared, EveryModelIsReadAndTheReportValidates) {
    WEFT_REQUIRE_SHARED_MODEL(witch, "quaternius_umw_Witch.gltf");
    const SharedRun& run = shared_run(kSharedModels);
    ASSERT_EQ(run.result.exit_code, 0) << run.result.err;
    ASSERT_TRUE(run.report.is_object()) << run.result.out.substr(0, 400);
    EXPECT_EQ(run.report["schema"], "weft.inspect/1");
    EXPECT_EQ(run.report["refused"], 0);
    EXPECT_EQ(run.report["models"].size(), run.report["files"]);
    EXPECT_EQ(test::schema_errors(run.result.out, "inspect.schema.json"), "");
    EXPECT_EQ(run.result.err, "");  // no terminal: no progress, and nothing was refused
}

TEST(InspectShared, WitchHairIsGrownAndItsSkirtFoundByGeometry) {
    WEFT_REQUIRE_SHARED_MODEL(path, "quaternius_umw_Witch.gltf");
    const json& m = model("quaternius_umw_Witch.gltf");
    const json* hair = find_by(m["garments"], "name", "Hair_Black");
    ASSERT_NE(hair, nullptr) << m.dump(1).substr(0, 2000);
    EXPECT_EQ((*hair)["class"], "hair");
    EXPECT_EQ((*hair)["matched_by"], "material");
    EXPECT_EQ((*hair)["vertices"], 4684);  // MANIFEST: 4684 verts, all weighted to Head
    EXPECT_EQ((*hair)["triangles"], 2316);
    EXPECT_EQ((*hair)["body_bone"], "Head");
    // What bake does: grows it (no chains, growing is the default), and the model's line says so.
    EXPECT_EQ((*hair)["action"], "grown");
    EXPECT_EQ((*hair)["moves"], true);
    EXPECT_EQ(m["verdict"], "1 garment found by name: 1 moves, 0 will not move; 1 found by geometry (skirt)");
    EXPECT_EQ((*hair)["welded_to"], nullptr);
    EXPECT_EQ((*hair)["verdict"], "moves: grown, 18 chains of 54 bones rooted on Head");
    // The skirt shares `Purple` with the top and the hat: found by geometry, grown from the hips.
    ASSERT_EQ(m["garments"].size(), 2u);
    const json* skirt = find_by(m["garments"], "class", "skirt");
    ASSERT_NE(skirt, nullptr);
    EXPECT_EQ((*skirt)["matched_by"], "geometry");
    EXPECT_EQ((*skirt)["matched_name"], "Purple");
    EXPECT_EQ((*skirt)["found_by"]["rule"], "skirt: hangs from the hips and bridges the legs below the crotch");
    EXPECT_GE((*skirt)["found_by"]["measurements"]["bridge_vertices"].get<double>(), 2);
    EXPECT_EQ((*skirt)["action"], "grown");
    EXPECT_EQ((*skirt)["verdict"], "moves: grown, 12 chains of 48 bones rooted on Hips");
    EXPECT_TRUE(m["chains"].empty());
    // Bounds in metres: the hair sits on the head of a model about 2 m tall with its hat.
    EXPECT_GT((*hair)["bounds"]["min"][1].get<double>(), 1.3);
    EXPECT_LT((*hair)["bounds"]["max"][1].get<double>(), m["bounds"]["max"][1].get<double>() + 1e-9);
}

TEST(InspectShared, FoxTailChainMoves) {
    WEFT_REQUIRE_SHARED_MODEL(path, "quaternius_animals_Fox.glb");
    const json& m = model("quaternius_animals_Fox.glb");
    ASSERT_EQ(m["chains"].size(), 1u);
    const json& chain = m["chains"][0];
    EXPECT_EQ(strings(chain["joints"]),
              (std::vector<std::string>{"Tail1", "Tail2", "Tail3", "Tail4", "Tail5", "Tail6", "Tail7", "Tail8"}));
    EXPECT_EQ(chain["class"], "tail");
    EXPECT_EQ(chain["parent_bone"], "Back");
    EXPECT_GT(chain["length"].get<double>(), 0.1);
    EXPECT_GT(chain["vertices"].get<size_t>(), 0u);
    // No material says tail; the chain's geometry on `Main` is the garment, and it moves.
    EXPECT_EQ(m["found_by_name"], false);
    ASSERT_EQ(m["garments"].size(), 1u);
    const json& tail = m["garments"][0];
    EXPECT_EQ(tail["class"], "tail");
    EXPECT_EQ(tail["matched_by"], "chain");
    EXPECT_EQ(tail["moves"], true);
    EXPECT_EQ(tail["verdict"], "moves on 1 authored chain");
    EXPECT_EQ(tail["chains"], json({0}));
    EXPECT_EQ(tail["vertices"], chain["vertices"]);
    EXPECT_EQ(m["verdict"],
              "no garment found by slot (materials seen: Main, Main_Light, Grey, Black, Eyes); "
              "1 garment moves on authored chains");
}

TEST(InspectShared, SuperheroEyebrowsAreTooSmall) {
    WEFT_REQUIRE_SHARED_MODEL(path, "quaternius_Superhero_Female_FullBody.fbx");
    const json& m = model("quaternius_Superhero_Female_FullBody.fbx");
    EXPECT_TRUE(m["garments"].empty());
    ASSERT_EQ(m["not_garments"].size(), 1u);
    const json& brows = m["not_garments"][0];
    EXPECT_EQ(brows["name"], "MI_Hair_2");
    EXPECT_EQ(brows["class"], "hair");
    EXPECT_EQ(brows["meshes"][0]["mesh"], "Eyebrows");
    // A few centimetres: measured 64 mm across the larger brow piece.
    EXPECT_GT(brows["span"].get<double>(), 0.03);
    EXPECT_LT(brows["span"].get<double>(), 0.08);
    EXPECT_EQ(brows["reason"].get<std::string>().rfind("too small to simulate: its largest piece spans ", 0), 0u);
    EXPECT_NE(m["verdict"].get<std::string>().find("1 name match is not a garment"), std::string::npos);
}

TEST(InspectShared, GodetteChainsFromNamesAndSecondaryAnimation) {
    WEFT_REQUIRE_SHARED_MODEL(path, "Godette_vrm_v4.vrm");
    const json& m = model("Godette_vrm_v4.vrm");
    const json& chains = m["chains"];
    ASSERT_EQ(chains.size(), 8u);
    for (const std::string side : {"L", "R", "Center_L", "Center_R"}) {
        const json* c = find_by(chains, "name", "FrontHair_" + side);
        ASSERT_NE(c, nullptr) << side;
        EXPECT_EQ(strings((*c)["joints"]), (std::vector<std::string>{"FrontHair_" + side, "FrontHair_" + side + "_End"}));
        EXPECT_EQ((*c)["class"], "hair");
        EXPECT_EQ((*c)["parent_bone"], "head_Armature");
        EXPECT_EQ(strings((*c)["found_by"]), (std::vector<std::string>{"joint_name", "VRM0.secondaryAnimation"}));
    }
    for (const std::string side : {"L", "R", "Center"}) {
        const json* c = find_by(chains, "name", "HairBall_" + side);
        ASSERT_NE(c, nullptr) << side;
        EXPECT_EQ(strings((*c)["joints"]), (std::vector<std::string>{"HairBall_" + side, "HairBall_" + side + "_End"}));
    }
    const json* ribbon = find_by(chains, "name", "Ribbon");
    ASSERT_NE(ribbon, nullptr);
    EXPECT_EQ(strings((*ribbon)["joints"]), (std::vector<std::string>{"Ribbon", "Ribbon_end"}));
    EXPECT_EQ((*ribbon)["class"], "ribbon");
    EXPECT_EQ((*ribbon)["parent_bone"], "chest_Armature");
    // No material names hair (it is on Face and Body); the chains' geometry moves.
    EXPECT_EQ(m["found_by_name"], false);
    const json* hair = find_by(m["garments"], "class", "hair");
    ASSERT_NE(hair, nullptr);
    EXPECT_EQ((*hair)["matched_by"], "chain");
    EXPECT_EQ((*hair)["moves"], true);
    EXPECT_EQ((*hair)["chains"].size(), 7u);
}

TEST(InspectShared, CoolLoopsHasNoGarment) {
    WEFT_REQUIRE_SHARED_MODEL(path, "100avatars_cool_loops.vrm");
    const json& m = model("100avatars_cool_loops.vrm");
    EXPECT_TRUE(m["garments"].empty());
    EXPECT_TRUE(m["not_garments"].empty());
    EXPECT_TRUE(m["chains"].empty());  // its one boneGroup lists no bones
    EXPECT_EQ(m["verdict"], "no garment found by slot (materials seen: 106)");
    EXPECT_EQ(m["materials"], json({"106"}));
}

TEST(InspectShared, KnightCapeFoundByNodeName) {
    WEFT_REQUIRE_SHARED_MODEL(path, "kaykit_Knight.glb");
    const json& m = model("kaykit_Knight.glb");
    ASSERT_EQ(m["garments"].size(), 1u);
    const json& cape = m["garments"][0];
    EXPECT_EQ(cape["class"], "cape");
    EXPECT_EQ(cape["matched_by"], "node");
    EXPECT_EQ(cape["matched_name"], "Knight_Cape");
    EXPECT_EQ(cape["meshes"][0]["mesh"], "Plane.004");
    EXPECT_EQ(cape["meshes"][0]["material"], "knight_texture");
    EXPECT_EQ(cape["meshes"][0]["skinned"], false);
    EXPECT_EQ(cape["vertices"], 56);  // MANIFEST: 56 verts, 84 tris, an open sheet
    EXPECT_EQ(cape["triangles"], 84);
    EXPECT_EQ(cape["pieces"], 1);
    EXPECT_EQ(cape["body_bone"], "chest");  // parented to the bone node `chest`, not skinned
    // bake pins the unskinned cape to the bone its node hangs from and simulates it as a sheet.
    EXPECT_EQ(cape["action"], "sheet");
    EXPECT_EQ(cape["held_by"], "chest");
    EXPECT_EQ(cape["verdict"], "moves as a sheet held by chest");
}

TEST(InspectShared, GoalFlagIsTheFlagSlotNotThePole) {
    WEFT_REQUIRE_SHARED_MODEL(path, "quaternius_Goal_Flag.glb");
    const json& m = model("quaternius_Goal_Flag.glb");
    ASSERT_EQ(m["garments"].size(), 1u);
    EXPECT_EQ(m["garments"][0]["name"], "Flag");
    EXPECT_EQ(m["garments"][0]["class"], "flag");
    EXPECT_EQ(m["garments"][0]["triangles"], 136);  // MANIFEST: 136 tris, 73 distinct positions
    EXPECT_EQ(m["garments"][0]["body_bone"], nullptr);
    // bake builds the sheet, held where it touches the pole (docs/proxy.md#pins).
    EXPECT_EQ(m["garments"][0]["verdict"],
              "moves as a sheet held where it touches rigid geometry of its model (a static mesh, no bones; refused if "
              "nothing touches it: give it a config rule's \"pin\")");
}

TEST(InspectShared, SpringBoneChainFromVrmc) {
    WEFT_REQUIRE_SHARED_MODEL(path, "threevrm_sphere_collider/sphere-collider.gltf");
    const json& m = model("threevrm_sphere_collider/sphere-collider.gltf");
    ASSERT_EQ(m["chains"].size(), 1u);
    const json& chain = m["chains"][0];
    EXPECT_EQ(strings(chain["joints"]),
              (std::vector<std::string>{"Spring A", "Spring B", "Spring C", "Spring D", "Spring E"}));
    EXPECT_EQ(chain["class"], "spring");
    EXPECT_EQ(chain["found_by"], json({"VRMC_springBone"}));
    // Four 2-unit links under Spring A's 0.25 scale: 0.5 m each.
    EXPECT_NEAR(chain["length"].get<double>(), 2.0, 1e-6);
}

// ---- fixtures, exit statuses, flags ------------------------------------------------------------

fs::path fixture(const std::string& name) { return test::testdata_dir() / name; }

TEST(Inspect, MannequinChainsMoveTheHairSlot) {
    test::CommandResult r = test::run_weft({"inspect", "--json", fixture("mannequin_chains.glb").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json m = json::parse(r.out)["models"][0];
    const json* hair = find_by(m["garments"], "name", "Hair");
    const json* skirt = find_by(m["garments"], "name", "Skirt");
    ASSERT_NE(hair, nullptr);
    ASSERT_NE(skirt, nullptr);
    EXPECT_EQ((*hair)["moves"], true);
    EXPECT_EQ((*hair)["chains"].size(), 6u);
    EXPECT_EQ((*hair)["pieces"], 6);  // six strands, each two UV islands welded into one
    EXPECT_EQ((*skirt)["verdict"], "moves: grown, 12 chains of 48 bones rooted on Hips");
    EXPECT_EQ(m["chains"].size(), 6u);
    EXPECT_EQ(strings(m["chains"][0]["joints"]), (std::vector<std::string>{"Hair_0_1", "Hair_0_2", "Hair_0_3", "Hair_0_4"}));
    EXPECT_EQ(m["chains"][0]["parent_bone"], "Head");
}

TEST(Inspect, SharedSkirtIsFoundByGeometry) {
    test::CommandResult r = test::run_weft({"inspect", "--json", fixture("mannequin_shared_skirt.glb").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(test::schema_errors(r.out, "inspect.schema.json"), "");
    json m = json::parse(r.out)["models"][0];
    ASSERT_EQ(m["garments"].size(), 2u);
    EXPECT_EQ(m["garments"][0]["class"], "hair");
    EXPECT_EQ(m["garments"][1]["class"], "skirt");
    EXPECT_EQ(m["garments"][1]["matched_by"], "geometry");
    EXPECT_EQ(m["garments"][1]["vertices"], 144);  // the band only; the body stays body
    // --no-grow predicts bake --no-grow: the skirt becomes a sheet held by Hips.
    test::CommandResult n = test::run_weft({"inspect", "--json", "--no-grow", fixture("mannequin_shared_skirt.glb").string()});
    ASSERT_EQ(n.exit_code, 0) << n.err;
    EXPECT_EQ(json::parse(n.out)["models"][0]["garments"][1]["verdict"], "moves as a sheet held by Hips");
}

TEST(Inspect, ClassesSelectsAndConfigMaps) {
    auto dir = test::scratch_dir("inspect_config");
    ASSERT_EQ(write_file_atomic(dir / "cfg.json", std::string_view(R"({
        "schema": "weft.config/1",
        "garments": [{"file": "mannequin*.glb", "material": "Body", "class": "cape", "fabric": "leather"}]
    })")), "");
    EXPECT_EQ(test::schema_errors(R"({"schema": "weft.config/1",
        "garments": [{"file": "mannequin*.glb", "material": "Body", "class": "cape", "fabric": "leather"}]})",
                                  "config.schema.json"),
              "");
    test::CommandResult r = test::run_weft({"inspect", "--json", "--classes", "skirt,cape", "--config",
                                            (dir / "cfg.json").string(), fixture("mannequin.glb").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(test::schema_errors(r.out, "inspect.schema.json"), "");
    json report = json::parse(r.out);
    EXPECT_EQ(report["options"]["classes"], json({"skirt", "cape"}));
    json m = report["models"][0];
    // --classes names the classes chains are grown for, as in weft bake: every garment is still found,
    // the skirt is grown, and hair, which is grown or nothing while growing is on, stays.
    ASSERT_EQ(m["garments"].size(), 3u);
    EXPECT_EQ(m["garments"][0]["class"], "cape");
    EXPECT_EQ(m["garments"][0]["matched_by"], "config");
    EXPECT_EQ(m["garments"][0]["rule"], json({{"pointer", "/garments/0"}, {"target", "material Body"}}));
    EXPECT_EQ(m["garments"][0]["fabric"], "leather");
    std::map<std::string, std::string> action;
    for (const json& g : m["garments"]) action[g["class"].get<std::string>()] = g["action"].get<std::string>();
    EXPECT_EQ(action["hair"], "stays");
    EXPECT_EQ(action["skirt"], "grown");
}

TEST(Inspect, BadFileAmongGoodOnesIsRefusedAndTheOthersReported) {
    auto missing = test::scratch_dir("inspect_missing") / "nope.glb";
    test::CommandResult r = test::run_weft({"inspect", "--json", fixture("mannequin.glb").string(),
                                            fixture("bad/truncated.glb").string(), missing.string(),
                                            fixture("flag.glb").string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(test::schema_errors(r.out, "inspect.schema.json"), "");
    json report = json::parse(r.out);
    EXPECT_EQ(report["files"], 4);
    EXPECT_EQ(report["refused"], 2);
    ASSERT_EQ(report["models"].size(), 4u);
    EXPECT_EQ(report["models"][0]["status"], "ok");
    EXPECT_EQ(report["models"][0]["garments"].size(), 2u);
    EXPECT_EQ(report["models"][1]["status"], "refused");
    EXPECT_EQ(report["models"][1]["error"]["code"], "GLB_TRUNCATED");
    EXPECT_EQ(report["models"][2]["error"]["code"], "FILE_NOT_FOUND");
    EXPECT_EQ(report["models"][3]["status"], "ok");
    EXPECT_EQ(report["models"][3]["garments"][0]["class"], "flag");
    // One line per refusal on standard error, naming the file.
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2);
    EXPECT_NE(r.err.find("truncated.glb"), std::string::npos);
    EXPECT_NE(r.err.find("nope.glb"), std::string::npos);
}

TEST(Inspect, EveryBadFixtureIsRefusedWithoutACrash) {
    std::vector<std::string> args{"inspect", "--json"};
    size_t count = 0;
    for (const auto& entry : fs::directory_iterator(fixture("bad"))) {
        const std::string ext = entry.path().extension().string();
        if (ext == ".bin") continue;  // an external buffer, read through its .gltf
        args.push_back(entry.path().string());
        ++count;
    }
    std::sort(args.begin() + 2, args.end());
    test::CommandResult r = test::run_weft(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(test::schema_errors(r.out, "inspect.schema.json"), "");
    json report = json::parse(r.out);
    EXPECT_EQ(report["models"].size(), count);
    EXPECT_GT(report["refused"].get<size_t>(), 15u);
}

TEST(Inspect, ReportFileHoldsTheSameJsonAndTheTerminalGetsASummary) {
    auto dir = test::scratch_dir("inspect_report");
    test::CommandResult r = test::run_weft({"inspect", "--report", (dir / "inspect.json").string(),
                                            fixture("mannequin.glb").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("MOVES: grown, 6 chains of 18 bones rooted on Head"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("MOVES: moves"), std::string::npos) << "said twice\n" << r.out;
    EXPECT_NE(r.out.find("1 of 1 files read"), std::string::npos);
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(dir / "inspect.json", bytes), "");
    std::string text(bytes.begin(), bytes.end());
    EXPECT_EQ(test::schema_errors(text, "inspect.schema.json"), "");
    test::CommandResult j = test::run_weft({"inspect", "--json", fixture("mannequin.glb").string()});
    EXPECT_EQ(j.out, text);  // deterministic, and the same document either way
}

TEST(Inspect, BadCommandLinesExitTwo) {
    EXPECT_EQ(test::run_weft({"inspect"}).exit_code, 2);
    EXPECT_EQ(test::run_weft({"inspect", "--frobnicate", fixture("mannequin.glb").string()}).exit_code, 2);
    test::CommandResult unknown = test::run_weft({"inspect", "--classes", "hair,gown", fixture("mannequin.glb").string()});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("unknown garment class \"gown\""), std::string::npos);
    EXPECT_EQ(unknown.out, "");
    auto dir = test::scratch_dir("inspect_bad_config");
    ASSERT_EQ(write_file_atomic(dir / "cfg.json", std::string_view(R"({"schema": "weft.config/1", "garment": []})")), "");
    test::CommandResult config = test::run_weft({"inspect", "--config", (dir / "cfg.json").string(),
                                                 fixture("mannequin.glb").string()});
    EXPECT_EQ(config.exit_code, 2);
    EXPECT_NE(config.err.find("cfg.json: /garment: unknown key"), std::string::npos) << config.err;
}

// A rule's pin and fabric are checked when the config is read (docs/config.md), by the rule's pointer:
// a bake would otherwise stop on them only when a garment they name is built, once per model.
TEST(Inspect, AConfigRulesBadPinOrFabricIsABadCommandLine) {
    auto dir = test::scratch_dir("inspect_bad_rule");
    ASSERT_EQ(write_file_atomic(dir / "pin.json", std::string_view(R"({"schema": "weft.config/1", "garments": [
        {"material": "Flag", "class": "flag", "pin": {"top": true}}]})")), "");
    ASSERT_EQ(write_file_atomic(dir / "fabric.json", std::string_view(R"({"schema": "weft.config/1", "garments": [
        {"material": "Flag", "class": "flag", "pin": "top"}, {"material": "Cape", "class": "cape", "fabric": "velvet"}]})")), "");
    for (const char* command : {"inspect", "bake"}) {
        const fs::path out = dir / (std::string(command) + "-out");
        std::vector<std::string> args = {command, "--config", (dir / "pin.json").string(), fixture("flag.glb").string()};
        if (std::string(command) == "bake") args.insert(args.end(), {"-o", out.string()});
        const test::CommandResult pin = test::run_weft(args);
        EXPECT_EQ(pin.exit_code, 2) << command;
        EXPECT_NE(pin.err.find("pin.json: /garments/0/pin: \"pin\" has an unknown key \"top\""), std::string::npos) << pin.err;
        args[2] = (dir / "fabric.json").string();
        const test::CommandResult fabric = test::run_weft(args);
        EXPECT_EQ(fabric.exit_code, 2) << command;
        EXPECT_NE(fabric.err.find("fabric.json: /garments/1/fabric: 'velvet' is not a library fabric"), std::string::npos) << fabric.err;
        EXPECT_FALSE(fs::exists(out)) << "nothing written on a bad command line";
    }
}

}  // namespace
}  // namespace weft
