// Validation of rig proxies and their skinned mesh (docs/validation.md; lib/validate/model/rig_validate.h).
//
// On every grown and authored proxy of the mannequin and the shared models, under the fabric each
// suggests (strand or panel: pose rows, fabric.h): it hangs and sleeps, it idles under 0.02 deg/frame
// (docs/growth.md#idle-stability), every solver gate passes, and the linear-blend-skinned mesh stays whole (MESH_STRETCH)
// with the scalp and waistband on the body (SCALP_DISPLACEMENT). Under the library's hair fabric a
// chain hangs from its root like a rope, 40-60 degrees off its bind direction, and both mesh gates say so.
#include <map>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <tuple>

#include <nlohmann/json.hpp>

#include "body/body_in_scene.h"
#include "validate/model/model_validation.h"
#include "proxy/file/proxy_file.h"
#include "batch/bake_model.h"
#include "outputs/rig_report.h"
#include "validate/model/rig_validate.h"
#include "garment/config.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

ModelRecord rig_and_validate(const fs::path& model, const std::string& name, ValidationOptions validation = {},
                             RigValidationLimits limits = {}) {
    ModelOptions options;
    options.grow_cloth = true;
    options.write_files = false;
    // The shared models' config: the Casual man's hair, lying on his head, is grown where it is named.
    ConfigResult config = load_garment_config(test::shared_models_config());
    EXPECT_EQ(config.error, "");
    options.garments.config = std::move(config.config);
    options.validate = std::move(validation);
    options.validate_limits = limits;
    options.out_dir = test::scratch_dir("rig-validate-" + name);
    return bake_model(model, options);
}

const ScenarioStats* scenario(const ProxyValidation& v, Scenario s) {
    for (const ScenarioStats& st : v.scenarios)
        if (st.scenario == s) return &st;
    return nullptr;
}

/// Every proxy under its suggested fabric passes every gate: kicked at the start of hang it swings back
/// to its pose (the bind pose is its equilibrium) and sleeps, idles quietly, and its skinned mesh measures within `max_stretch` of its bind
/// lengths with the scalp within half a millimetre. Prints the numbers the issue quotes.
/// A garment the render-vertex gate refuses (docs/validation.md#render-vertex-penetration): it fails
/// PENETRATION of its render mesh in `scenario`, its worst vertex `depth` metres deeper than bound, and
/// fails nothing but PENETRATION and STRAIN.
struct Refused {
    std::string garment;
    Scenario scenario;
    double depth;
};

void expect_refused(const RigProxyValidation& p, const Refused& want, const std::string& who) {
    EXPECT_FALSE(p.passed()) << who;
    bool found = false;
    for (const MeshGateResult& g : p.mesh_gates) {
        if (g.passed) continue;
        EXPECT_EQ(g.gate, "PENETRATION") << who << " " << g.message;
        if (g.scenario == want.scenario) {
            found = true;
            EXPECT_NEAR(g.value, want.depth, 0.0015) << who << " " << g.message;
            EXPECT_GT(g.value, g.limit) << who;
        }
    }
    EXPECT_TRUE(found) << who << ": no PENETRATION in " << scenario_name(want.scenario);
    for (const GateResult& g : p.solver.gates)
        if (!g.passed) {
            EXPECT_TRUE(g.gate == Gate::strain) << who << " " << g.message;
        }
}

/// Idle stability (docs/measurements.md#idle-stability-on-the-shared-models): each proxy's idle jitter,
/// mean over its links and the worst link's, deg/frame, as weft measured it; asserted within twice these.
/// The reference's grown hair measured 0.007-0.018 deg/frame.
const std::map<std::string, std::pair<double, double>> kIdleJitter = {
    {"mannequin Hair", {2.784e-4, 1.524e-3}},
    {"mannequin Skirt", {1.948e-4, 7.527e-4}},
    {"quaternius_umw_Witch.gltf Hair_Black", {4.190e-4, 1.720e-3}},
    {"quaternius_umw_Witch.gltf skirt", {6.554e-4, 3.100e-3}},
    {"quaternius_men_Casual.glb Hair", {1.094e-3, 3.350e-3}},
    {"quaternius_Hair_Long.fbx MI_Hair_2", {8.471e-4, 1.904e-3}},
    {"quaternius_animals_Fox.glb Tail1", {1.335e-4, 3.365e-4}},
    {"Godette_vrm_v4.vrm HairBall_Center", {2.907e-4, 4.299e-4}},
    {"Godette_vrm_v4.vrm Ribbon", {9.684e-4, 9.684e-4}},
    // A spring of five joints and no weight to speak of, in a model with no skin: idle barely turns it.
    {"threevrm_sphere_collider/sphere-collider.gltf Spring A", {1.310e-6, 6.406e-6}},
};

void expect_idle_jitter(const ScenarioStats& idle, const std::string& who) {
    std::printf("%s idle jitter %.4g / %.4g deg/frame (mean / worst link)\n", who.c_str(), *idle.idle_jitter_mean,
                *idle.idle_jitter_worst);
    const auto measured = kIdleJitter.find(who);
    if (measured == kIdleJitter.end()) {
        ADD_FAILURE() << who << ": no idle jitter measured to hold it to";
        return;
    }
    EXPECT_LE(*idle.idle_jitter_mean, 2 * measured->second.first) << who;
    EXPECT_LE(*idle.idle_jitter_worst, 2 * measured->second.second) << who;
    EXPECT_GT(*idle.idle_jitter_mean, 0) << who;
}

void expect_validated(const ModelRecord& r, const std::string& name, const std::vector<std::string>& garments,
                      double max_stretch = 1.01, const std::vector<Refused>& refused = {}) {
    ASSERT_TRUE(r.imported) << name;
    ASSERT_TRUE(r.validation.has_value()) << name;
    EXPECT_EQ(test::schema_errors(rig_report_json(r).dump(), "rig-report.schema.json"), "") << name;
    ASSERT_EQ(r.validation->proxies.size(), garments.size()) << name;
    for (size_t i = 0; i < garments.size(); ++i) {
        const RigProxyValidation& p = r.validation->proxies[i];
        const std::string who = name + " " + p.garment;
        EXPECT_EQ(p.garment, garments[i]) << name;
        ASSERT_FALSE(p.solver.refused) << who << ": " << p.solver.refused->message;
        auto refusal = std::find_if(refused.begin(), refused.end(), [&](const Refused& f) { return f.garment == p.garment; });
        if (refusal != refused.end()) {
            expect_refused(p, *refusal, who);
            continue;
        }
        const ScenarioStats* hang = scenario(p.solver, Scenario::hang);
        const ScenarioStats* idle = scenario(p.solver, Scenario::idle);
        ASSERT_TRUE(hang && idle) << who;
        ASSERT_TRUE(idle->idle_jitter_mean && idle->idle_jitter_worst) << who;
        ASSERT_TRUE(p.hang && p.idle) << who;
        std::printf("%-46s %-6s %3u particles  sleep %4d  jitter %.4f/%.4f deg/frame  stretch hang %.4f idle %.4f  "
                    "scalp %.2f/%.2f mm (%u of %u vertices)  %.0f ms\n",
                    who.c_str(), p.solver.fabric.c_str(), p.solver.particles, hang->sleep_step ? int(*hang->sleep_step) : -1,
                    *idle->idle_jitter_mean, *idle->idle_jitter_worst, p.hang->max_edge_stretch, p.idle->max_edge_stretch,
                    p.hang->max_scalp_displacement * 1000, p.idle->max_scalp_displacement * 1000, p.scalp_vertices,
                    p.mesh_vertices, p.ms);
        for (const GateResult& g : p.solver.gates) EXPECT_TRUE(g.passed) << who << " " << gate_code(g.gate) << " " << g.message;
        for (const MeshGateResult& g : p.mesh_gates) EXPECT_TRUE(g.passed) << who << " " << g.gate << " " << g.message;
        // MESH_STRETCH and SCALP_DISPLACEMENT in every scenario, from the one run the solver's gates saw.
        EXPECT_EQ(p.poses.size(), p.solver.scenarios.size()) << who;
        // With a body, PENETRATION of the render mesh too (docs/validation.md#render-vertex-penetration).
        EXPECT_EQ(p.mesh_gates.size(), (p.render_penetration_limit > 0 ? 3 : 2) * p.poses.size()) << who;
        for (const MeshPoseStats& st : p.poses) {
            const bool near_pose = st.scenario == Scenario::hang || st.scenario == Scenario::idle;
            EXPECT_LT(st.max_edge_stretch, near_pose ? kMaxMeshStretch : kMaxMotionMeshStretch) << who << " " << scenario_name(st.scenario);
        }
        EXPECT_TRUE(p.passed()) << who;
        // Kicked 1 m/s sideways (docs/validation.md#hang), it swings back to its pose and sleeps: measured
        // 198 steps (Fox's tail) to 347 (the Witch's skirt); hung from rest it slept at 30-60, testing nothing.
        ASSERT_TRUE(hang->sleep_step) << who;
        EXPECT_GT(*hang->sleep_step, 120u) << who;
        EXPECT_LE(*hang->sleep_step, 400u) << who;
        EXPECT_LT(*idle->idle_jitter_mean, 0.02) << who;  // docs/growth.md#idle-stability
        EXPECT_LT(*idle->idle_jitter_worst, 0.02) << who;
        expect_idle_jitter(*idle, who);
        if (p.mesh_edges == 0) {  // a spring over unskinned geometry carries it rigidly: nothing to tear
            EXPECT_EQ(p.hang->max_edge_stretch, 0.0) << who;
            continue;
        }
        EXPECT_GE(p.hang->max_edge_stretch, 1.0) << who;
        EXPECT_LT(p.hang->max_edge_stretch, max_stretch) << who << " " << p.hang->max_edge_stretch_mesh;
        EXPECT_LT(p.idle->max_edge_stretch, max_stretch) << who << " " << p.idle->max_edge_stretch_mesh;
        EXPECT_LT(p.idle->max_scalp_displacement, 0.5e-3) << who;
    }
    EXPECT_EQ(r.validation->passed(), refused.empty()) << name;
    EXPECT_EQ(r.exit_code(), refused.empty() ? 0 : 1) << name;
}

ValidationOptions under(const char* fabric) {
    ValidationOptions v;
    v.fabric = *find_fabric(fabric);
    return v;
}

TEST(RigValidate, MannequinGrownHairAndSkirt) {
    const ModelRecord r = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin");
    expect_validated(r, "mannequin", {"Hair", "Skirt"});
    for (const RigProxyValidation& p : r.validation->proxies) {
        EXPECT_EQ(p.solver.fabric, p.garment == "Hair" ? "strand" : "panel");
        EXPECT_GT(p.mesh_vertices, 0u) << p.garment;
        EXPECT_GT(p.scalp_vertices, 0u) << p.garment;  // the root blend keeps the scalp / waistband on the body
        EXPECT_LT(p.scalp_vertices, p.mesh_vertices) << p.garment;
    }
}

// Under the library's hair fabric nothing keeps a chain's styled shape: it hangs from its root, and the
// hair's skinned mesh tears at the root blend (measured: 1.127x, scalp 2.5 mm). The skirt's panels,
// rooted at their waistband on Hips, hold even here (1.066x, the waistband still to 0.001 mm).
TEST(RigValidate, UnderTheSeedsHairFabricTheMeshTearsAndBothMeshGatesSaySo) {
    const ModelRecord r = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin-hair", under("hair"));
    ASSERT_TRUE(r.validation);
    ASSERT_EQ(r.validation->proxies.size(), 2u);
    const RigProxyValidation& hair = r.validation->proxies[0];
    ASSERT_EQ(hair.garment, "Hair");
    ASSERT_TRUE(hair.hang && hair.idle);
    EXPECT_NEAR(hair.hang->max_edge_stretch, 1.127, 0.02 * 1.127);
    EXPECT_NEAR(hair.hang->max_scalp_displacement * 1000, 2.50, 0.2 * 2.50);
    // The worst scalp vertex is the root blend's: under half on the chain, on the head next to it.
    EXPECT_GT(hair.hang->max_scalp_chain_share, 0.0);
    EXPECT_LE(hair.hang->max_scalp_chain_share, 0.5);
    EXPECT_LT(hair.hang->max_scalp_reach, 0.1);
    std::vector<std::string> failed;
    for (const MeshGateResult& g : hair.mesh_gates)
        if (!g.passed) failed.push_back(g.gate + " " + scenario_name(g.scenario));
    EXPECT_EQ(failed, (std::vector<std::string>{"MESH_STRETCH hang", "SCALP_DISPLACEMENT hang", "MESH_STRETCH idle",
                                                "SCALP_DISPLACEMENT idle"}));
    EXPECT_FALSE(hair.passed());
    const RigProxyValidation& skirt = r.validation->proxies[1];
    ASSERT_EQ(skirt.garment, "Skirt");
    ASSERT_TRUE(skirt.hang && skirt.idle);
    EXPECT_NEAR(skirt.hang->max_edge_stretch, 1.066, 0.02);
    EXPECT_LT(skirt.hang->max_scalp_displacement * 1000, 0.01);
    // Its mesh holds; the solver's gates pass but one: its limp panels fall onto the legs' colliders,
    // which hold each particle its collision radius off (docs/proxy.md#collision-radius), and in hang
    // they do not come to rest there (NEVER_SLEPT).
    for (const MeshGateResult& g : skirt.mesh_gates) EXPECT_TRUE(g.passed) << g.message;
    std::vector<std::string> skirt_failed;
    for (const GateResult& g : skirt.solver.gates)
        if (!g.passed) skirt_failed.push_back(gate_code(g.gate) + std::string(" ") + scenario_name(g.scenario));
    EXPECT_EQ(skirt_failed, std::vector<std::string>{"NEVER_SLEPT hang"});
    EXPECT_EQ(r.exit_code(), 1);
    size_t torn = 0, slid = 0;
    for (const Issue& i : r.issues) {
        if (i.code == "MESH_STRETCH") {
            ++torn;
            EXPECT_EQ(i.severity, Severity::error);
            EXPECT_EQ(i.pointer, "/validation");
            EXPECT_NE(i.message.find("/Hair.clothproxy: garment 'Hair' "), std::string::npos) << i.message;
            EXPECT_NE(i.message.find("x its bind length (limit 1.10), mesh '"), std::string::npos) << i.message;
            EXPECT_NE(i.message.find("the skinned mesh tears"), std::string::npos) << i.message;
        }
        EXPECT_NE(i.code, "VALIDATION_FAILED");  // one validation path: every gate under its own code
        if (i.code == "SCALP_DISPLACEMENT") {
            ++slid;
            EXPECT_NE(i.message.find("(limit 2.00 mm), mesh '"), std::string::npos) << i.message;
            EXPECT_NE(i.message.find("slides off the body"), std::string::npos) << i.message;
            // The failure names what carries the vertex: its share on the chain and how far it lies from it.
            EXPECT_NE(i.message.find("% on the chain's bones, "), std::string::npos) << i.message;
            EXPECT_NE(i.message.find(" mm from the nearest)"), std::string::npos) << i.message;
        }
    }
    EXPECT_EQ(torn, 2u);  // the hair, hang and idle
    EXPECT_EQ(slid, 2u);
}

// One validation path: the proxies are validated in memory before they are written, and the codec is
// lossless, so each written file, loaded back and validated, gives the same report (every number,
// every gate) as the proxy validated in memory; each file is named as the in-memory report names it.
TEST(RigValidate, InMemoryValidationIsTheWrittenFilesValidation) {
    ModelOptions options;
    options.grow_cloth = true;
    options.sheets = true;
    options.validate = ValidationOptions{};
    const fs::path out = test::scratch_dir("rig-validate-in-memory");
    options.out_dir = out;
    const ModelRecord r = bake_model(test::testdata_dir() / "mannequin.glb", options);
    ASSERT_TRUE(r.proxy_validation);
    ASSERT_EQ(r.proxy_validation->proxies.size(), 2u);  // the grown hair and skirt
    // The files read back, through the model's verdict with the record's rigs (their skinned mesh).
    std::vector<ClothProxy> read;
    for (const ProxyValidation& v : r.proxy_validation->proxies) {
        EXPECT_TRUE(fs::exists(out / v.file)) << v.file;
        DecodeResult loaded = load_proxy(out / v.file);
        ASSERT_TRUE(loaded.ok()) << v.file;
        read.push_back(std::move(*loaded.proxy));
    }
    ASSERT_EQ(r.rigs.size(), read.size());
    std::vector<ModelProxy> proxies;
    for (size_t i = 0; i < read.size(); ++i)
        proxies.push_back({r.proxy_validation->proxies[i].file, &read[i], &r.rigs[i].input, &r.rigs[i].built});
    const ModelUnderTest model{&r.scene, body_shapes(r.scene, r.body), r.model.string(), r.out_dir.string(), nullptr};
    const ModelValidation from_disk = validate_model(model, proxies, *options.validate);
    EXPECT_EQ(report_json(from_disk.report, false).dump(1), report_json(*r.proxy_validation, false).dump(1));
    EXPECT_EQ(report_json(*r.proxy_validation, false).dump().find("\"timing\""), std::string::npos);
    EXPECT_NE(report_json(*r.proxy_validation).dump().find("\"timing\""), std::string::npos);
}

TEST(RigValidate, OneStepFromTheBindPoseTheMeshIsWhole) {
    // After one step the chains have moved g·dt² (2.7 mm) at most: a posing or skinning mistake (a
    // joint posed from another's particle, a bone not at bind) would tear the mesh here already. In
    // cotton, which has no pose rows, hang starts from rest (with them it starts kicked).
    ValidationOptions one_step = under("cotton");
    one_step.scenarios = {{Scenario::hang, 1}, {Scenario::idle, 1}};
    const ModelRecord r = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin-one-step", one_step);
    ASSERT_TRUE(r.validation);
    ASSERT_EQ(r.validation->proxies.size(), 2u);
    for (const RigProxyValidation& p : r.validation->proxies) {
        ASSERT_TRUE(p.hang) << p.garment;
        EXPECT_EQ(p.hang->step, 1u);
        EXPECT_GE(p.hang->max_edge_stretch, 1.0) << p.garment;
        EXPECT_LT(p.hang->max_edge_stretch, 1.03) << p.garment;  // measured 1.013 (Skirt)
        EXPECT_LT(p.hang->max_scalp_displacement, 1e-3) << p.garment;  // 0.55 mm: nothing holds a cotton chain's pose
        ASSERT_FALSE(p.mesh_gates.empty());
        EXPECT_EQ(p.mesh_gates[0].scenario, Scenario::hang);
        EXPECT_TRUE(p.mesh_gates[0].passed) << p.mesh_gates[0].message;  // idle starts from the settled cloth
    }
}

TEST(RigValidate, TheMeshLimitsAreTheCallersAndTheJsonSaysWhichWereUsed) {
    RigValidationLimits loose;
    loose.max_mesh_stretch = 1.25;         // above what the library's hair fabric stretches the mannequin to (1.16)
    loose.max_scalp_displacement = 0.006;  // and above its 4.5 mm
    loose.max_motion_mesh_stretch = 12;    // in motion: above anything it reaches
    loose.max_motion_scalp_displacement = 0.5;
    const ModelRecord r = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin-loose", under("hair"), loose);
    ASSERT_TRUE(r.validation);
    ASSERT_EQ(r.validation->proxies.size(), 2u);
    for (const RigProxyValidation& p : r.validation->proxies)
        for (const MeshGateResult& g : p.mesh_gates) {
            EXPECT_TRUE(g.passed) << g.message;
            const bool near_pose = g.scenario == Scenario::hang || g.scenario == Scenario::idle;
            if (g.gate == "MESH_STRETCH") EXPECT_EQ(g.limit, near_pose ? 1.25 : 12) << g.message;
            else if (g.gate == "SCALP_DISPLACEMENT") EXPECT_EQ(g.limit, near_pose ? 0.006 : 0.5) << g.message;
            else EXPECT_EQ(g.gate, "PENETRATION");  // the fabric's thickness, not the caller's mesh limits
        }
    const nlohmann::json j = rig_validation_json(*r.validation);
    EXPECT_EQ(j["limits"]["max_mesh_stretch"], 1.25);
    EXPECT_EQ(j["limits"]["max_scalp_displacement"], 0.006);
    EXPECT_EQ(j["limits"]["max_motion_mesh_stretch"], 12);
    EXPECT_EQ(j["limits"]["max_motion_scalp_displacement"], 0.5);
    ASSERT_EQ(j["proxies"].size(), 2u);
    EXPECT_EQ(j["proxies"][1]["mesh"]["hang"]["max_edge_stretch_edge"]["mesh"], "MannequinMesh-2");
}

// The mesh gates run in every scenario: in motion (swing, sprint, teleport-*) against their motion
// limits. Measured on the mannequin (strand hair, panel skirt), the mesh posed at every step of the one
// run: the hair's worst edge 1.642x in swing, 1.692x in sprint; the skirt's 1.282x in swing and 1.684x
// in sprint (1.322x and 1.626x now that its blended vertices collide as virtual particles; 1.517x in
// sprint since a span with two free ends is one row of both). A motion limit of 1.5 fails exactly the
// five above it.
TEST(RigValidate, TheMeshGatesRunInEveryScenarioWithTheirMotionLimits) {
    RigValidationLimits tight;
    tight.max_motion_mesh_stretch = 1.5;
    ValidationOptions whole;
    whole.stop_early = false;  // each scenario's worst over the whole run is the subject
    const ModelRecord r = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin-motion", whole, tight);
    ASSERT_TRUE(r.validation);
    ASSERT_EQ(r.validation->proxies.size(), 2u);
    std::vector<std::string> failed;
    for (const RigProxyValidation& p : r.validation->proxies) {
        ASSERT_EQ(p.poses.size(), 6u) << p.garment;
        for (const MeshGateResult& g : p.mesh_gates)
            if (!g.passed) failed.push_back(p.garment + " " + g.gate + " " + scenario_name(g.scenario));
    }
    EXPECT_EQ(failed, (std::vector<std::string>{"Hair MESH_STRETCH swing", "Hair MESH_STRETCH sprint",
                                                "Hair MESH_STRETCH teleport-reset", "Hair MESH_STRETCH teleport-keep",
                                                "Skirt MESH_STRETCH sprint"}));
    const RigProxyValidation& hair = r.validation->proxies[0];
    const RigProxyValidation& skirt = r.validation->proxies[1];
    EXPECT_NEAR(hair.poses[1].max_edge_stretch, 1.642, 0.02);  // swing
    EXPECT_NEAR(hair.poses[2].max_edge_stretch, 1.692, 0.02);  // sprint (fast steps split: docs/solver.md#fast-cloth)
    // Panel at 4x4 with its blended vertices' virtual particles (docs/colliders.md#virtual-particles):
    // 1.684 and 1.282 without them; 1.724 and 1.292 at 3x4, 1.580 and 1.268 at 3x4 without span rows;
    // 1.626 in sprint while each end of a span was pushed by its own share (docs/colliders.md#spans).
    EXPECT_NEAR(skirt.poses[2].max_edge_stretch, 1.517, 0.02);
    EXPECT_NEAR(skirt.poses[1].max_edge_stretch, 1.322, 0.02);
    EXPECT_EQ(r.exit_code(), 1);
}

// Early exit on the skinned mesh (docs/validation.md#early-exit): under the same tight motion limit every
// scenario that fails MESH_STRETCH stops after the step its worst passed 1.5, with the same gates failed
// as the whole runs and the same verdict; each stopped worst is past the limit and no worse than the whole run's, and every
// gate of a stopped run says how far it was judged. Scenarios that pass run to their end, as before.
TEST(RigValidate, AMeshGateFailedForGoodStopsItsRunWithTheSameVerdicts) {
    RigValidationLimits tight;
    tight.max_motion_mesh_stretch = 1.5;
    ValidationOptions whole;
    whole.stop_early = false;
    const ModelRecord full = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin-whole", whole, tight);
    const ModelRecord stopped = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin-stopped", {}, tight);
    ASSERT_TRUE(full.validation && stopped.validation);
    ASSERT_EQ(stopped.validation->proxies.size(), full.validation->proxies.size());
    // The failed gates (a stopped run has no end, so what is judged there, ENERGY_RISING, is not listed for it).
    auto verdicts = [](const RigProxyValidation& p) {
        std::vector<std::string> out;
        for (const MeshGateResult& g : p.mesh_gates)
            if (!g.passed) out.push_back(g.gate + " " + scenario_label(g.scenario, g.clip));
        for (const GateResult& g : p.solver.gates)
            if (!g.passed) out.push_back(std::string(gate_code(g.gate)) + " " + scenario_label(g.scenario, g.clip));
        return out;
    };
    size_t stops = 0;
    for (size_t k = 0; k < full.validation->proxies.size(); ++k) {
        const RigProxyValidation& f = full.validation->proxies[k];
        const RigProxyValidation& s = stopped.validation->proxies[k];
        EXPECT_EQ(verdicts(s), verdicts(f)) << f.garment;
        EXPECT_EQ(s.passed(), f.passed()) << f.garment;
        ASSERT_EQ(s.poses.size(), f.poses.size()) << f.garment;
        for (size_t i = 0; i < s.poses.size(); ++i) {
            const ScenarioStats& run = s.solver.scenarios[i];
            const bool failed = f.poses[i].max_edge_stretch > 1.5 && f.poses[i].scenario != Scenario::hang &&
                                f.poses[i].scenario != Scenario::idle;
            EXPECT_EQ(run.stopped_step.has_value(), failed) << f.garment << " " << scenario_name(run.scenario);
            if (!failed) {
                EXPECT_EQ(s.poses[i].max_edge_stretch, f.poses[i].max_edge_stretch) << f.garment << " " << i;  // ran to its end
                continue;
            }
            ++stops;
            EXPECT_EQ(run.stopped_gate, "MESH_STRETCH");
            EXPECT_EQ(run.steps, *run.stopped_step);
            EXPECT_EQ(s.poses[i].step, *run.stopped_step);  // the worst frame is the one that failed it
            EXPECT_GT(s.poses[i].max_edge_stretch, 1.5);
            EXPECT_LE(s.poses[i].max_edge_stretch, f.poses[i].max_edge_stretch);
            EXPECT_LT(*run.stopped_step, f.solver.scenarios[i].steps);
            for (const MeshGateResult& g : s.mesh_gates)
                if (g.scenario == run.scenario) {
                    EXPECT_NE(g.message.find("judged up to step " + std::to_string(*run.stopped_step)), std::string::npos) << g.message;
                }
        }
    }
    EXPECT_EQ(stops, 5u);  // the five failures of TheMeshGatesRunInEveryScenarioWithTheirMotionLimits
}

// The render mesh is gated in the body (docs/validation.md#render-vertex-penetration): the mannequin's
// skirt (generated: four panels on chains round two capsule legs, hull radius 66 mm, panel 6 mm thick)
// swings its skin 14.9 mm into a leg in sprint when its particles collide as points, and stays within
// one thickness when they collide at their collision radius (docs/proxy.md#collision-radius).
TEST(RigValidate, RenderVerticesStayOutOfTheBodyWhenParticlesCollideAtTheirRadius) {
    ModelOptions options;
    options.grow_cloth = true;
    options.write_files = false;
    options.out_dir = test::scratch_dir("rig-validate-radius");
    const ModelRecord r = bake_model(test::testdata_dir() / "mannequin.glb", options);
    ASSERT_TRUE(r.imported);
    ASSERT_EQ(r.rigs.size(), 2u);
    const RiggedGarment& skirt = r.rigs[1];
    ASSERT_EQ(skirt.input.name, "Skirt");
    ASSERT_TRUE(skirt.built.proxy);
    // Every free particle carries a radius, cut to its room at rest; held ones none.
    const ClothProxy& proxy = *skirt.built.proxy;
    ASSERT_EQ(proxy.collision_radius.size(), proxy.particle_count());
    double widest = 0;
    for (uint32_t i = 0; i < proxy.particle_count(); ++i) {
        if (proxy.held(i)) {
            EXPECT_EQ(proxy.collision_radius[i], 0.0) << i;
        }
        widest = std::max(widest, proxy.collision_radius[i]);
    }
    EXPECT_GT(widest, 0.02);

    ValidationOptions validation;
    validation.body = body_shapes(r.scene, r.body);
    validation.stop_early = false;  // how deep each whole run goes is the subject, failing or not
    RigBuildResult points = skirt.built;
    points.proxy->collision_radius.clear();  // the particles collide as points, and nothing else does:
    ASSERT_FALSE(points.proxy->virtual_link.empty());  // the skirt's blended vertices are virtual particles
    RigBuildResult virtual_only = points;
    points.proxy->virtual_link.clear();
    points.proxy->virtual_rest_position.clear();
    points.virtual_vertices.clear();
    const RigProxyValidation without = validate_rig_mesh(r.scene, skirt.input, points, validation);
    // Points and the virtual particles alone keep the skin out too: they collide where it is.
    const RigProxyValidation virtual_points = validate_rig_mesh(r.scene, skirt.input, virtual_only, validation);
    ASSERT_EQ(virtual_points.poses.size(), 6u);
    EXPECT_LT(*virtual_points.poses[2].max_penetration, 0.006);
    const RigProxyValidation with = validate_rig_mesh(r.scene, skirt.input, skirt.built, validation);
    ASSERT_EQ(without.poses.size(), 6u);
    ASSERT_EQ(with.poses.size(), 6u);
    EXPECT_NEAR(with.render_penetration_limit, 0.006, 1e-9);  // one panel thickness
    // Sprint, panel at 4x4: 11.7 mm at 3x4, 31.9 mm before span rows, 14.9 mm while each end of a span was
    // pushed by its own share (docs/colliders.md#spans).
    EXPECT_NEAR(*without.poses[2].max_penetration, 0.0085, 0.003);
    EXPECT_NEAR(*without.poses[1].max_penetration, 0.0, 0.002);  // swing: 19.3 mm before span rows
    EXPECT_LT(*with.poses[2].max_penetration, with.render_penetration_limit);
    EXPECT_LT(*with.poses[1].max_penetration, with.render_penetration_limit);
    auto failed_penetration = [](const RigProxyValidation& v) {
        std::vector<std::string> out;
        for (const MeshGateResult& g : v.mesh_gates)
            if (g.gate == "PENETRATION" && !g.passed) out.push_back(scenario_name(g.scenario));
        return out;
    };
    EXPECT_EQ(failed_penetration(without), (std::vector<std::string>{"sprint"}));
    EXPECT_EQ(failed_penetration(with), std::vector<std::string>{});
    const nlohmann::json j = rig_validation_json(RigModelValidation{{}, {}, {with}});
    EXPECT_NEAR(j["proxies"][0]["mesh"]["penetration_limit"].get<double>(), 0.006, 1e-9);
}

// The Witch's skirt (found by geometry) passes: its render vertices went 6.5-8.6 mm into her finger
// capsules, which its particles passed either side of; her fingers now join her hand, which rests
// against the skirt and is left out as her thighs are (docs/colliders.md#fit).
TEST(RigValidateShared, GrownHair) {
    const std::vector<std::tuple<const char*, std::vector<std::string>, std::vector<Refused>>> models = {
        {"quaternius_umw_Witch.gltf", {"Hair_Black", "skirt"}, {}},
        {"quaternius_men_Casual.glb", {"Hair"}, {}},
        {"quaternius_Hair_Long.fbx", {"MI_Hair_2"}, {}},
    };
    for (const auto& [file, garments, refused] : models) {
        WEFT_REQUIRE_SHARED_MODEL(model, file);
        expect_validated(rig_and_validate(model, fs::path(file).stem().string()), file, garments, 1.01, refused);
    }
}

// The Witch's skirt in her Walk (docs/validation.md#clips, docs/validation.md#penetration): its mesh
// poses and gates say clip:Walk, its waistband stays on the hips as the clip moves them, and with the
// colliders measured but not simulated (bake --no-collide) its particles pass into the legs where
// with them simulated they do not.
TEST(RigValidateShared, WitchSkirtInHerWalkWithAndWithoutColliders) {
    WEFT_REQUIRE_SHARED_MODEL(model, "quaternius_umw_Witch.gltf");
    const auto walk_of = [&](bool collide, const char* name) {
        ValidationOptions v;
        v.scenarios.clear();
        v.clip_choice = ClipChoice::parse("Walk");
        v.body_collides = collide;
        return rig_and_validate(model, name, v);
    };
    const ModelRecord with = walk_of(true, "witch-walk"), without = walk_of(false, "witch-walk-no-collide");
    ASSERT_TRUE(with.validation && without.validation);
    ASSERT_EQ(with.validation->proxies.size(), 2u);
    ASSERT_EQ(without.validation->proxies.size(), 2u);
    const RigProxyValidation& skirt = with.validation->proxies[1];
    const RigProxyValidation& loose = without.validation->proxies[1];
    ASSERT_EQ(skirt.garment, "skirt");
    ASSERT_EQ(skirt.poses.size(), 1u);
    ASSERT_EQ(loose.poses.size(), 1u);
    EXPECT_EQ(skirt.poses[0].clip, "Walk");
    for (const MeshGateResult& g : skirt.mesh_gates) {
        EXPECT_EQ(g.clip, "Walk");
        EXPECT_NE(g.message.find(" clip:Walk"), std::string::npos) << g.message;
    }
    const nlohmann::json j = rig_validation_json(*with.validation);
    EXPECT_EQ(j["proxies"][1]["mesh"]["scenarios"][0]["scenario"], "clip:Walk");
    EXPECT_EQ(test::schema_errors(rig_report_json(with).dump(), "rig-report.schema.json"), "");
    // The report says which colliders the fit left out and why: of her 20 fitted bones, 9, among them
    // the hands against the skirt and the head her hair hangs from.
    const nlohmann::json colliders = rig_report_json(with)["colliders"];
    EXPECT_EQ(colliders["fitted"], 11);
    EXPECT_EQ(colliders["declared"], 0);
    std::map<std::string, std::string> left_out;
    for (const nlohmann::json& l : colliders["left_out"]) left_out[l["node"]] = l["reason"];
    EXPECT_EQ(left_out.size(), 9u);
    EXPECT_NE(left_out["Wrist.R"].find("reaches through 'skirt' at rest"), std::string::npos) << left_out["Wrist.R"];
    EXPECT_NE(left_out["Head"].find("would trap 2744 vertices of garment 'Hair_Black'"), std::string::npos) << left_out["Head"];
    // The waistband rides the hips the clip carries forward: measured from where the clip's own
    // skinning puts it, it moves only by its share of the swinging root joints (measured 12.9 mm; a
    // waistband left at bind would be a stride away).
    EXPECT_LT(skirt.poses[0].max_scalp_displacement, 0.03);
    // Particles: 10.8 mm into a leg with nothing to stop them, none deeper than the limit with colliders.
    const ScenarioStats& in = with.proxy_validation->proxies[1].scenarios.at(0);
    const ScenarioStats& out = without.proxy_validation->proxies[1].scenarios.at(0);
    ASSERT_TRUE(in.max_penetration && out.max_penetration);
    EXPECT_GT(*out.max_penetration, 0.005);
    EXPECT_LT(*in.max_penetration, 0.001);
    EXPECT_TRUE(with.proxy_validation->proxies[1].body_simulated);
    EXPECT_FALSE(without.proxy_validation->proxies[1].body_simulated);
    const nlohmann::json report = report_json(*without.proxy_validation);
    EXPECT_EQ(report["proxies"][1]["body_colliders"]["simulated"], false);
    EXPECT_EQ(test::schema_errors(report.dump(), "validation.schema.json"), "");
    std::printf("Witch skirt Walk: particles %.1f mm without colliders, %.1f mm with; render %.1f / %.1f mm; scalp %.3f mm\n",
                *out.max_penetration * 1000, *in.max_penetration * 1000, loose.poses[0].max_penetration.value_or(-1) * 1000,
                skirt.poses[0].max_penetration.value_or(-1) * 1000, skirt.poses[0].max_scalp_displacement * 1000);
}

// Godette's hair ball passes: its render vertex 588 (BodyMesh-0), wholly on HairBall_Center and bound
// 10.3 cm off that joint's link, went 11.8 mm into the head at a teleport's jump (limit 5 mm) while its
// particles and span rows stayed out; as one of the proxy's 13 virtual particles it collides where it
// is and goes 0 mm deep in every scenario (docs/colliders.md#virtual-particles).
TEST(RigValidateShared, AuthoredChains) {
    const std::vector<std::pair<const char*, std::vector<std::string>>> models = {
        {"quaternius_animals_Fox.glb", {"Tail1"}},
        {"Godette_vrm_v4.vrm", {"HairBall_Center", "Ribbon"}},
        {"threevrm_sphere_collider/sphere-collider.gltf", {"Spring A"}},
    };
    for (const auto& [file, garments] : models) {
        WEFT_REQUIRE_SHARED_MODEL(model, file);
        const ModelRecord r = rig_and_validate(model, fs::path(file).stem().string());
        expect_validated(r, file, garments, 1.01);
        if (std::string(file) != "Godette_vrm_v4.vrm") continue;
        ASSERT_TRUE(r.validation && r.rigs.size() == 2 && r.rigs[0].built.proxy);
        const RigBuildResult& ball = r.rigs[0].built;
        EXPECT_EQ(ball.proxy->virtual_link.size(), 13u);
        EXPECT_TRUE(std::any_of(ball.virtual_vertices.begin(), ball.virtual_vertices.end(), [&](const VirtualVertex& v) {
            return v.vertex == 588 && r.scene.meshes[static_cast<size_t>(v.mesh)].name == "BodyMesh-0";
        }));
        // 0 mm, to the 1 mm the contact rows' linearisation may leave (the gate's limit is 5 mm).
        for (const MeshPoseStats& st : r.validation->proxies[0].poses)
            EXPECT_LT(st.max_penetration.value_or(1), 0.001) << scenario_name(st.scenario);
    }
}

}  // namespace
}  // namespace weft
