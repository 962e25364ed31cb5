// Spring bones out (weft rig): every rig proxy's chains reach the runtimes artists use. three-vrm
// (npm @pixiv/three-vrm, tests/js/spring_bones.mjs) loads each written model, finds every chain's
// joints with the model's colliders, and its spring update swings a kicked tip that settles; the same
// kick in weft's own solver swings and settles comparably (docs/format.md "Spring bones" derives the
// mapping and has the figures).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "scene/glb_reader.h"
#include "scene/gltf_write.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "solver/solver.h"
#include "support/paths.h"
#include "validate/scenario.h"
#include "validate/validate.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

json read_json_file(const fs::path& path) {
    std::vector<uint8_t> bytes;
    if (!read_file(path, bytes).empty()) return nullptr;
    return json::parse(std::string(bytes.begin(), bytes.end()), nullptr, false);
}

/// How a kicked tip moved: largest distance from rest, and the time after which it stays within a
/// tenth of that of where it ends.
struct Swing {
    double amplitude = 0;
    double settle_seconds = 0;
    double last_second_motion = 0;
};

Swing swing_of(const std::vector<double>& distance_from_rest, double dt) {
    Swing s;
    for (double d : distance_from_rest) s.amplitude = std::max(s.amplitude, d);
    const double end = distance_from_rest.back();
    for (size_t i = 0; i < distance_from_rest.size(); ++i)
        if (std::fabs(distance_from_rest[i] - end) > 0.1 * s.amplitude) s.settle_seconds = double(i + 1) * dt;
    const auto last = distance_from_rest.end() - std::min<ptrdiff_t>(60, ptrdiff_t(distance_from_rest.size()));
    s.last_second_motion = *std::max_element(last, distance_from_rest.end()) - *std::min_element(last, distance_from_rest.end());
    return s;
}

/// three-vrm's reports for `files` (one per file), or a failure naming why it could not run.
json three_vrm(const std::vector<fs::path>& files) {
    const fs::path js = test::source_dir() / "tests" / "js";
    if (const std::string missing = test::js_tools_missing("@pixiv/three-vrm"); !missing.empty()) {
        ADD_FAILURE() << missing;
        return json::array();
    }
    std::vector<std::string> argv{"/usr/bin/env", "node", (js / "spring_bones.mjs").string()};
    for (const fs::path& f : files) argv.push_back(f.string());
    const test::CommandResult r = test::run_command(argv);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out, nullptr, false);
}

/// weft's solver, the same kick: every free particle 1 m/s along world +x, 600 steps at 60 Hz, the
/// first chain's last particle followed.
Swing weft_swing(const fs::path& proxy_file, const json& sidecar_garment) {
    const DecodeResult decoded = load_proxy(proxy_file);
    EXPECT_EQ(decoded.error, "");
    const ClothProxy& proxy = *decoded.proxy;
    Solver solver(proxy, suggested_fabric(proxy));
    StepInput in;
    in.frame = rest_frame_pose(proxy);
    in.holders.assign(proxy.pins.size(), Pose{});
    const uint32_t tip = sidecar_garment["chains"][0]["particles"].back().get<uint32_t>();
    const Vec3 rest = proxy.rest_position[tip];
    solver.add_velocity(in.frame.rotation.conjugate().rotate({1, 0, 0}));
    std::vector<double> d;
    for (int step = 0; step < 600; ++step) {
        solver.step(in);
        d.push_back(distance(solver.state().x[tip], rest));
    }
    return swing_of(d, 1.0 / 60);
}

struct Written {
    fs::path model;
    json sidecar;
};

Written rig_for_springs(const fs::path& input, const std::string& name) {
    const fs::path out = test::scratch_dir("springs-" + name);
    // The shared models' config names the Casual man's hair, which lies on his head, so it is grown.
    const test::CommandResult r = test::run_weft(
        {"rig", input.string(), "-o", out.string(), "--grow-cloth", "--config", test::shared_models_config().string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    Written w;
    w.sidecar = read_json_file(out / (input.stem().string() + ".cloth.json"));
    if (w.sidecar.is_object() && w.sidecar["grown_model"].is_string()) w.model = out / w.sidecar["grown_model"].get<std::string>();
    return w;
}

/// True for a chain weft adds a spring for: grown, or found by its joints' names alone (no spring of
/// the file declares it).
bool added_chain(const json& chain) {
    for (const json& f : chain["found_by"])
        if (f == "VRM0.secondaryAnimation" || f == "VRMC_springBone") return false;
    return true;
}

/// The body colliders the sidecar lists (fitted or from the config: not the file's own), and the
/// colliders three-vrm should find on an added spring's joint: those, VRM 0.x's capsules as spheres
/// one radius apart, plus every collider the file declares.
size_t colliders_of_added_springs(const json& sidecar, bool vrm0) {
    size_t n = 0;
    for (const json& c : sidecar["colliders"]) {
        if (c["origin"] == "declared" || !vrm0 || c["shape"] == "sphere") {
            ++n;
            continue;
        }
        std::vector<double> a = c["a"].get<std::vector<double>>(), b = c["b"].get<std::vector<double>>();
        const double length = std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]), r = c["radius"].get<double>();
        n += size_t(std::max(2, int(std::ceil(length / r)) + 1));
    }
    return n;
}

/// three.js's name for a node, as PropertyBinding.sanitizeNodeName gives it (spaces to '_', no []./:).
std::string three_name(const std::string& name) {
    std::string out;
    for (char ch : name)
        if (ch == ' ') out += '_';
        else if (std::string("[].:/").find(ch) == std::string::npos) out += ch;
    return out;
}

/// The sidecar says what the grown model's springs carry: every joint of a chain with a `spring`
/// has, in three-vrm, the sidecar's stiffness, drag, gravity and hit radius; a chain whose spring is
/// the file's own has none. Returns how many joints were compared.
size_t expect_sidecar_springs_are_three_vrms(const json& sidecar, const json& three_vrm_report, const std::string& what) {
    std::map<std::string, json> settings;  // three.js node name -> three-vrm's joint
    for (const json& j : three_vrm_report["joints"]) settings[j["bone"].get<std::string>()] = j;
    size_t compared = 0;
    for (const json& g : sidecar["garments"])
        for (const json& c : g["chains"]) {
            EXPECT_TRUE(c.contains("spring")) << what << ": chain " << c["name"];
            if (c["spring"].is_null()) {
                EXPECT_FALSE(added_chain(c)) << what << ": chain " << c["name"] << " was added without settings";
                continue;
            }
            EXPECT_EQ(c["spring"]["update_rate"].get<double>(), 60.0) << what;
            EXPECT_EQ(c["spring"]["joints"].size(), c["joints"].size()) << what << ": chain " << c["name"];
            for (const json& s : c["spring"]["joints"]) {
                const std::string joint = three_name(s["node"].get<std::string>());
                auto at = settings.find(joint);
                if (at == settings.end()) {
                    ADD_FAILURE() << what << ": joint " << joint << " is no spring joint in three-vrm";
                    continue;
                }
                const json& t = at->second;
                EXPECT_NEAR(t["stiffness"].get<double>(), s["stiffness"].get<double>(), 1e-8) << what << ": " << joint;
                EXPECT_NEAR(t["drag"].get<double>(), s["drag_force"].get<double>(), 1e-8) << what << ": " << joint;
                EXPECT_NEAR(t["gravity_power"].get<double>(), s["gravity_power"].get<double>(), 1e-8) << what << ": " << joint;
                for (int k = 0; k < 3; ++k)
                    EXPECT_NEAR(t["gravity_dir"][k].get<double>(), s["gravity_dir"][k].get<double>(), 1e-8) << what << ": " << joint;
                EXPECT_NEAR(t["hit_radius"].get<double>(), s["hit_radius"].get<double>(), 1e-6) << what << ": " << joint;
                EXPECT_GT(s["stiffness"].get<double>(), 0.0) << what << ": " << joint;
                ++compared;
            }
        }
    return compared;
}

TEST(SpringBones, ThreeVrmFindsEveryChainAndItsCollidersAndItsKickedTipSettles) {
    struct Case {
        fs::path input;
        const char* extension;
    };
    std::vector<Case> cases{{test::testdata_dir() / "mannequin.glb", ".glb"}, {test::testdata_dir() / "mannequin_cm.fbx", ".glb"}};
    for (const auto& [file, ext] : std::vector<std::pair<const char*, const char*>>{
             {"quaternius_men_Casual.glb", ".glb"},
             {"quaternius_umw_Witch.gltf", ".glb"},
             {"quaternius_animals_Fox.glb", ".glb"},
             {"Godette_vrm_v4.vrm", ".vrm"},
             {"threevrm_sphere_collider/sphere-collider.gltf", ".glb"},
             {"quaternius_Hair_Long.fbx", ".glb"}}) {
        const fs::path model = test::shared_models_dir() / file;
        if (fs::exists(model)) cases.push_back({model, ext});
    }
    std::vector<Written> written;
    std::vector<fs::path> files;
    for (const Case& c : cases) {
        written.push_back(rig_for_springs(c.input, c.input.stem().string()));
        ASSERT_FALSE(written.back().model.empty()) << c.input << ": no model written";
        EXPECT_EQ(written.back().model.extension(), c.extension) << c.input;
        files.push_back(written.back().model);
    }
    const json reports = three_vrm(files);
    ASSERT_EQ(reports.size(), cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
        const json& r = reports[i];
        ASSERT_FALSE(r.contains("error")) << files[i] << ": " << r["error"];
        // Every chain joint of every rig garment is a spring joint three-vrm swings.
        // A joint swings (bone) or is the tail a spring ends in (child); three.js names nodes as
        // PropertyBinding.sanitizeNodeName does (spaces to '_', no []./:).
        std::map<std::string, int> colliders_at;  // joint -> colliders three-vrm gives it
        std::map<std::string, double> drift_at;   // joint -> how far its tail moves at rest, untouched
        std::set<std::string> found;
        for (const json& j : r["joints"]) {
            found.insert(j["bone"].get<std::string>());
            colliders_at[j["bone"].get<std::string>()] = j["colliders"].get<int>();
            drift_at[j["bone"].get<std::string>()] = j["rest_drift"].get<double>();
            if (j["child"].is_string()) found.insert(j["child"].get<std::string>());
        }
        // What leaves weft is what the sidecar says: each added spring's settings, joint for joint.
        const size_t compared = expect_sidecar_springs_are_three_vrms(written[i].sidecar, r, files[i].string());
        if (cases[i].input.filename() != "Godette_vrm_v4.vrm" && cases[i].input.filename() != "sphere-collider.gltf")
            EXPECT_GT(compared, 0u) << files[i] << ": no spring settings in the sidecar";
        const bool vrm0 = cases[i].extension == std::string(".vrm");
        const size_t body = colliders_of_added_springs(written[i].sidecar, vrm0);
        size_t expected = 0, added = 0;
        double worst_drift = 0;
        for (const json& g : written[i].sidecar["garments"])
            for (const json& c : g["chains"])
                for (size_t k = 0; k < c["joints"].size(); ++k) {
                    const std::string joint = three_name(c["joints"][k].get<std::string>());
                    ++expected;
                    EXPECT_TRUE(found.count(joint)) << files[i] << ": joint " << joint << " is no spring joint";
                    // The colliders go out with the chains: every joint of a spring weft added collides
                    // with the fitted body colliders and the file's own.
                    if (added_chain(c) && colliders_at.count(joint)) {
                        ++added;
                        EXPECT_EQ(size_t(colliders_at[joint]), body) << files[i] << ": joint " << joint;
                        // At rest nothing pushes its tail: every collider clears its hit radius there.
                        worst_drift = std::max(worst_drift, drift_at[joint]);
                    }
                }
        EXPECT_GT(expected, 0u) << files[i];
        for (const json& j : r["joints"]) {
            // VRM 0.x leaves swing towards a virtual tail; VRMC_springBone joints need a child node.
            EXPECT_FALSE(j["child"].is_null() && !vrm0) << files[i] << ": joint " << j["bone"] << " has no tail";
        }
        if (vrm0) {
            EXPECT_TRUE(r["vrm"].get<bool>()) << files[i];
            EXPECT_GT(r["humanoid_bones"].get<int>(), 10) << files[i] << ": the humanoid was lost";
        }
        EXPECT_LT(worst_drift, 1e-4) << files[i] << ": the rest pose is not the added springs' equilibrium";
        std::vector<double> d = r["distances"].get<std::vector<double>>();
        const Swing s = swing_of(d, 1.0 / 60);
        EXPECT_GT(s.amplitude, 0.01) << files[i] << ": the kicked tip did not move";
        EXPECT_LT(s.settle_seconds, 9.0) << files[i] << ": the kicked tip did not settle";
        EXPECT_LT(s.last_second_motion, 0.01 * s.amplitude) << files[i] << ": still moving after 10 s";
        std::printf("three-vrm %s: %zu joints (%zu of added springs, %zu colliders each), tip swing %.3f m, settles %.2f s, rest drift %.2g m\n",
                    files[i].filename().c_str(), r["joints"].size(), added, body, s.amplitude, s.settle_seconds, worst_drift);
    }
}

// A collider's radius is a length in its node's space: every collider weft writes sits on a node of
// world scale 1, so a runtime that scales radii by the node (and one that does not) reads metres. The
// Fox's bones stand at 100 times with float noise in their scales (1, 0.9999986, 0.9999998): two of
// its 30 colliders were left on the bone itself, radius 0.093 in a space 100 times larger.
TEST(SpringBones, EveryColliderSitsOnANodeOfWorldScaleOne) {
    WEFT_REQUIRE_SHARED_MODEL(fox, "quaternius_animals_Fox.glb");
    const Written w = rig_for_springs(fox, "fox_collider_scale");
    ASSERT_FALSE(w.model.empty());
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(w.model, bytes), "");
    const test::Glb glb = test::Glb::parse(bytes);
    const json& colliders = glb.doc["extensions"]["VRMC_springBone"]["colliders"];
    ASSERT_EQ(colliders.size(), w.sidecar["colliders"].size());
    for (const json& c : colliders) {
        const int node = c["node"].get<int>();
        const Mat4 world = glb.world(node);
        for (int axis = 0; axis < 3; ++axis)
            EXPECT_NEAR(length(Vec3{world.at(0, axis), world.at(1, axis), world.at(2, axis)}), 1.0, 1e-4)
                << "collider on " << glb.doc["nodes"][size_t(node)]["name"] << ", axis " << axis;
    }
}

TEST(SpringBones, AKickedGrownChainSwingsAndSettlesInThreeVrmAsInWeft) {
    // Grown hair (strand: 2 Hz pose, damping 3.31/s): the same kick in both solvers.
    const Written w = rig_for_springs(test::testdata_dir() / "mannequin.glb", "compare");
    ASSERT_FALSE(w.model.empty());
    const json reports = three_vrm({w.model});
    ASSERT_EQ(reports.size(), 1u);
    ASSERT_FALSE(reports[0].contains("error")) << reports[0]["error"];
    const json* hair = nullptr;
    for (const json& g : w.sidecar["garments"])
        if (g["chains"][0]["joints"][0] == reports[0]["kicked"][0]) hair = &g;
    ASSERT_TRUE(hair) << "three-vrm kicked " << reports[0]["kicked"];
    const Swing vrm = swing_of(reports[0]["distances"].get<std::vector<double>>(), 1.0 / 60);
    const Swing weft = weft_swing(w.model.parent_path() / (*hair)["proxy"].get<std::string>(), *hair);
    std::printf("kicked 1 m/s: three-vrm swing %.4f m settles %.2f s; weft swing %.4f m settles %.2f s\n", vrm.amplitude,
                vrm.settle_seconds, weft.amplitude, weft.settle_seconds);
    EXPECT_GT(weft.amplitude, 0.01);
    // Measured 0.141 m / 2.20 s (three-vrm, the body's colliders in the way) and 0.056 m / 1.05 s
    // (weft, no body in `weft validate`'s hang): three-vrm pulls each tail
    // towards its rest direction relative to its parent's current one, so the swings of a chain's
    // links add up at the tip, where weft's pose rows pull every particle to its own bind place
    // (docs/format.md "Spring bones").
    EXPECT_LT(std::max(vrm.amplitude, weft.amplitude) / std::min(vrm.amplitude, weft.amplitude), 4.0);
    EXPECT_LT(std::max(vrm.settle_seconds, weft.settle_seconds) / std::min(vrm.settle_seconds, weft.settle_seconds), 2.5);
}


// ---- the artist's springs are the artist's --------------------------------------------------------

namespace springs_more {

/// A glTF file's JSON, from a .glb/.vrm or a .gltf.
json document_of(const fs::path& file) {
    std::vector<uint8_t> bytes;
    EXPECT_EQ(read_file(file, bytes), "") << file;
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) return test::Glb::parse(bytes).doc;
    return json::parse(std::string(bytes.begin(), bytes.end()), nullptr, false);
}

/// A copy of the GLB `in` at `out` with its JSON edited by `edit`.
void edited_glb(const fs::path& in, const fs::path& out, const std::function<void(json&)>& edit) {
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(in, bytes), "");
    test::Glb glb = test::Glb::parse(bytes);
    edit(glb.doc);
    ASSERT_EQ(write_file_atomic(out, pack_glb(glb.doc.dump(), glb.bin)), "");
}

struct Rigged {
    test::CommandResult result;
    json report, model;  ///< report.json, the written model's JSON
    fs::path file;
};

Rigged rig_model(const fs::path& input, const std::string& name, std::vector<std::string> extra = {}) {
    Rigged r;
    const fs::path out = test::scratch_dir("springs-" + name);
    std::vector<std::string> args{"rig", input.string(), "-o", out.string(), "--grow-cloth"};
    args.insert(args.end(), extra.begin(), extra.end());
    r.result = test::run_weft(args);
    EXPECT_EQ(r.result.exit_code, 0) << r.result.err;
    r.report = read_json_file(out / "report.json");
    if (r.report.is_object() && r.report["grown_model"].is_object()) {
        r.file = out / r.report["grown_model"]["file"].get<std::string>();
        r.model = document_of(r.file);
    }
    return r;
}

const json& spring_report(const Rigged& r) { return r.report["grown_model"]["spring_bones"]; }

/// `springs` (VRM 0.x bone groups or VRMC_springBone springs) with every change the report lists
/// applied; each change's `before` must be what the file had.
json with_changes(json springs, const json& changes, const json& nodes, bool vrm0) {
    for (const json& c : changes) {
        const std::string label = c["spring"].get<std::string>();
        size_t index = 0;
        while (index < springs.size() &&
               !(label == "#" + std::to_string(index) || springs[index].value(vrm0 ? "comment" : "name", "") == label))
            ++index;
        EXPECT_LT(index, springs.size()) << "no spring " << label;
        if (index >= springs.size()) continue;
        json* target = &springs[index];
        if (c["joint"].is_string())
            for (json& j : springs[index]["joints"])
                if (nodes[j["node"].get<size_t>()].value("name", "") == c["joint"]) target = &j;
        const std::string key = c["parameter"].get<std::string>();
        EXPECT_EQ(target->contains(key) ? (*target)[key] : json(nullptr), c["before"]) << label << " " << key;
        (*target)[key] = c["after"];
    }
    return springs;
}

}  // namespace springs_more

TEST(SpringBones, AuthoredSpringsPassThroughValueForValueAndRetuneOnlyWhenAsked) {
    using namespace springs_more;
    struct Case {
        const char* file;
        std::vector<std::string> path;  // to the springs' extension
        const char* springs;            // its list of springs
        bool vrm0;
        size_t authored;
    };
    for (const Case& c : {Case{"Godette_vrm_v4.vrm", {"extensions", "VRM", "secondaryAnimation"}, "boneGroups", true, 3},
                          Case{"threevrm_sphere_collider/sphere-collider.gltf", {"extensions", "VRMC_springBone"}, "springs", false, 1}}) {
        WEFT_REQUIRE_SHARED_MODEL(input, c.file);
        auto at = [&](const json& doc) {
            const json* p = &doc;
            for (const std::string& k : c.path) p = &(*p)[k];
            return *p;
        };
        const json before = at(document_of(input));
        // Kept: the extension as the file has it, every spring, joint, collider and group, value for value.
        const Rigged kept = rig_model(input, fs::path(c.file).stem().string() + "-kept");
        ASSERT_TRUE(kept.model.is_object()) << c.file;
        EXPECT_EQ(at(kept.model), before) << c.file << ": the authored springs changed";
        EXPECT_EQ(spring_report(kept)["authored_springs"], c.authored);
        EXPECT_EQ(spring_report(kept)["springs_added"], 0);
        EXPECT_TRUE(spring_report(kept)["changes"].empty());
        EXPECT_TRUE(spring_report(kept)["format"].is_null());
        // Retuned as asked: the report names every value changed, each `before` the file's; applied to
        // the input they give the output exactly (nothing else moved).
        const Rigged retuned = rig_model(input, fs::path(c.file).stem().string() + "-retuned", {"--retune-springs"});
        const json& changes = spring_report(retuned)["changes"];
        EXPECT_GE(changes.size(), c.authored) << c.file;
        json expected = before;
        expected[c.springs] = with_changes(before[c.springs], changes, document_of(input)["nodes"], c.vrm0);
        EXPECT_EQ(at(retuned.model), expected) << c.file;
        for (const json& change : changes) EXPECT_NE(change["before"], change["after"]) << change;
        EXPECT_NE(retuned.result.out.find("values changed as asked"), std::string::npos) << retuned.result.out;
    }
}

TEST(SpringBones, AuthoredSpringsCollideWithTheBodyOnlyWhenAskedAndOnlyInAFileWithNoColliderOfItsOwn) {
    using namespace springs_more;
    WEFT_REQUIRE_SHARED_MODEL(godette, "Godette_vrm_v4.vrm");
    // Godette without her colliders: a VRM 0.x file whose authored springs collide with nothing.
    const fs::path bare = test::scratch_dir("springs-bare-input") / "Godette_bare.vrm";
    edited_glb(godette, bare, [](json& doc) {
        json& secondary = doc["extensions"]["VRM"]["secondaryAnimation"];
        secondary["colliderGroups"] = json::array();
        for (json& g : secondary["boneGroups"]) g["colliderGroups"] = json::array();
    });
    const json before = document_of(bare)["extensions"]["VRM"]["secondaryAnimation"];
    const Rigged not_asked = rig_model(bare, "bare-not-asked");
    EXPECT_EQ(not_asked.model["extensions"]["VRM"]["secondaryAnimation"], before);

    const Rigged asked = rig_model(bare, "bare-asked", {"--collide-authored-springs"});
    const json& after = asked.model["extensions"]["VRM"]["secondaryAnimation"];
    ASSERT_EQ(after["boneGroups"].size(), before["boneGroups"].size());
    EXPECT_GT(spring_report(asked)["colliders_added"].get<int>(), 10);
    EXPECT_EQ(spring_report(asked)["changes"].size(), before["boneGroups"].size());  // each group's colliderGroups
    // three-vrm's VRM 0.x loader finds the body colliders on every authored joint.
    const json reports = three_vrm({asked.file});
    ASSERT_EQ(reports.size(), 1u);
    ASSERT_FALSE(reports[0].contains("error")) << reports[0]["error"];
    EXPECT_TRUE(reports[0]["vrm"].get<bool>());
    for (const json& j : reports[0]["joints"])
        EXPECT_EQ(j["colliders"].get<int>(), spring_report(asked)["colliders_added"].get<int>()) << j["bone"];

    // A file with colliders of its own keeps them, and the report says why nothing changed.
    const Rigged own = rig_model(godette, "own-colliders", {"--collide-authored-springs"});
    EXPECT_EQ(own.model["extensions"]["VRM"]["secondaryAnimation"], document_of(godette)["extensions"]["VRM"]["secondaryAnimation"]);
    EXPECT_NE(spring_report(own).value("note", "").find("colliders of its own"), std::string::npos) << spring_report(own);
}

TEST(SpringBones, AVrm0ModelStaysVrm0AndItsGrownSpringsCollideWithTheBody) {
    using namespace springs_more;
    // The mannequin as a VRM 0.x avatar: meta, a humanoid, no springs of its own.
    const fs::path vrm = test::scratch_dir("springs-vrm0-input") / "mannequin.vrm";
    edited_glb(test::testdata_dir() / "mannequin.glb", vrm, [](json& doc) {
        json bones = json::array();
        const std::map<std::string, std::string> humanoid{
            {"Hips", "hips"}, {"Spine", "spine"}, {"Chest", "chest"}, {"Neck", "neck"}, {"Head", "head"},
            {"UpperArm_L", "leftUpperArm"}, {"LowerArm_L", "leftLowerArm"}, {"Hand_L", "leftHand"},
            {"UpperArm_R", "rightUpperArm"}, {"LowerArm_R", "rightLowerArm"}, {"Hand_R", "rightHand"},
            {"UpperLeg_L", "leftUpperLeg"}, {"LowerLeg_L", "leftLowerLeg"}, {"Foot_L", "leftFoot"},
            {"UpperLeg_R", "rightUpperLeg"}, {"LowerLeg_R", "rightLowerLeg"}, {"Foot_R", "rightFoot"}};
        for (size_t i = 0; i < doc["nodes"].size(); ++i)
            if (auto it = humanoid.find(doc["nodes"][i].value("name", "")); it != humanoid.end())
                bones.push_back({{"bone", it->second}, {"node", i}, {"useDefaultValues", true}});
        doc["extensionsUsed"] = json::array({"VRM"});
        doc["extensions"]["VRM"] = {{"specVersion", "0.0"},
                                    {"meta", {{"title", "mannequin"}, {"version", "1"}, {"author", "weft tests"}}},
                                    {"humanoid", {{"humanBones", bones}}},
                                    {"secondaryAnimation", {{"boneGroups", json::array()}, {"colliderGroups", json::array()}}}};
    });
    const Rigged r = rig_model(vrm, "vrm0-grown");
    ASSERT_EQ(r.file.extension(), ".vrm");
    EXPECT_FALSE(r.model["extensions"].contains("VRMC_springBone"));
    EXPECT_EQ(r.model["extensions"]["VRM"]["meta"], document_of(vrm)["extensions"]["VRM"]["meta"]);
    EXPECT_EQ(r.model["extensions"]["VRM"]["humanoid"], document_of(vrm)["extensions"]["VRM"]["humanoid"]);
    EXPECT_EQ(spring_report(r)["format"], "VRM0.secondaryAnimation");
    EXPECT_GT(spring_report(r)["springs_added"].get<int>(), 4);
    const int colliders = spring_report(r)["colliders_added"].get<int>();
    EXPECT_GT(colliders, 4);
    const json reports = three_vrm({r.file});
    ASSERT_EQ(reports.size(), 1u);
    ASSERT_FALSE(reports[0].contains("error")) << reports[0]["error"];
    EXPECT_TRUE(reports[0]["vrm"].get<bool>());
    EXPECT_EQ(reports[0]["vrm_meta"], "0");
    ASSERT_FALSE(reports[0]["joints"].empty());
    for (const json& j : reports[0]["joints"]) {
        EXPECT_EQ(j["colliders"].get<int>(), colliders) << j["bone"];
        // A leaf (a chain's tip node) swings towards a point VRM 0.x puts 7 cm past it, but nothing
        // hangs from it; every other joint rests where it was bound.
        if (!j["child"].is_null()) EXPECT_LT(j["rest_drift"].get<double>(), 1e-4) << j["bone"];
    }
    // A bone group has one setting for all its joints: the sidecar repeats it per joint, as three-vrm reads it.
    const json sidecar = read_json_file(r.file.parent_path() / "mannequin.cloth.json");
    ASSERT_TRUE(sidecar.is_object());
    EXPECT_GT(expect_sidecar_springs_are_three_vrms(sidecar, reports[0], "mannequin.vrm"), 10u);
}

}  // namespace
}  // namespace weft
