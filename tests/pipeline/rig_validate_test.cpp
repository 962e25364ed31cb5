// Validation of rig proxies and their skinned mesh (issue 5 "Proof"; lib/pipeline/rig_validate.h).
//
// What holds on every grown and authored proxy of the mannequin and the shared models: it hangs and
// sleeps, it idles under seed 003's 0.02 deg/frame, every solver gate passes. What does not, and the
// MESH_STRETCH gate says so: under the library's hair fabric (slack 0.5: a leash of d_geo, so nothing
// keeps a chain's styled shape) a chain hangs from its root like a rope, 40-60 degrees off its bind
// direction for a crown wedge, a bun or the Fox's tail, and the linear-blend-skinned mesh tears at the
// root blend (2.2-3.2x). The numbers below are what is measured today, asserted so that a change to
// the rows, the weights or the fabric shows up here; the gate stays at 1.10.
#include <gtest/gtest.h>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "pipeline/rig_model.h"
#include "pipeline/rig_validate.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

RigModelResult rig_and_validate(const fs::path& model, const std::string& name, ValidationOptions validation = {},
                                RigValidationLimits limits = {}) {
    RigModelOptions options;
    options.grow_cloth = true;
    options.write_files = false;
    options.validate = std::move(validation);
    options.validate_limits = limits;
    return rig_model(model, test::scratch_dir("rig-validate-" + name), options);
}

const ScenarioStats* scenario(const ProxyValidation& v, Scenario s) {
    for (const ScenarioStats& st : v.scenarios)
        if (st.scenario == s) return &st;
    return nullptr;
}

/// What one proxy measures: the settled hang's mesh stretch and scalp displacement.
struct Expected {
    std::string garment;
    double stretch = 0;   ///< hang's max_edge_stretch (idle's is within 0.5% of it: the breath is 3 mm)
    double scalp_mm = 0;  ///< hang's max_scalp_displacement, millimetres
    const char* solver_failure = "";  ///< "": every solver gate passes; else the one gate that fails ("NEVER_SLEPT")
};

/// Every proxy: sleeps in hang, idles quietly, passes every solver gate, and measures its mesh as
/// `expected` says (stretch within 2%, scalp within 20%: the solver's settled state is deterministic,
/// but another compiler may round a few of its 1,500 steps differently). The MESH_STRETCH verdict and
/// the exit code follow from the stretch. Prints the numbers the issue quotes.
void expect_validated(const RigModelResult& r, const std::string& name, const std::vector<Expected>& expected) {
    ASSERT_TRUE(r.imported) << name;
    ASSERT_TRUE(r.validation.has_value()) << name;
    EXPECT_EQ(test::schema_errors(rig_report_json(r).dump(), "rig-report.schema.json"), "") << name;
    ASSERT_EQ(r.validation->proxies.size(), expected.size()) << name;
    bool any_torn = false, any_failed = false;
    for (size_t i = 0; i < expected.size(); ++i) {
        const RigProxyValidation& p = r.validation->proxies[i];
        const Expected& e = expected[i];
        const std::string who = name + " " + p.garment;
        EXPECT_EQ(p.garment, e.garment) << name;
        ASSERT_FALSE(p.solver.refused) << who << ": " << p.solver.refused->message;
        const ScenarioStats* hang = scenario(p.solver, Scenario::hang);
        const ScenarioStats* idle = scenario(p.solver, Scenario::idle);
        ASSERT_TRUE(hang && idle) << who;
        ASSERT_TRUE(idle->idle_jitter_mean && idle->idle_jitter_worst) << who;
        ASSERT_TRUE(p.hang && p.idle) << who;
        std::printf("%-46s %3u particles  sleep %4d  jitter %.4f/%.4f deg/frame  stretch hang %.4f idle %.4f  "
                    "scalp %.2f/%.2f mm (%u of %u vertices)  %.0f ms\n",
                    who.c_str(), p.solver.particles, hang->sleep_step ? int(*hang->sleep_step) : -1, *idle->idle_jitter_mean, *idle->idle_jitter_worst,
                    p.hang->max_edge_stretch, p.idle->max_edge_stretch, p.hang->max_scalp_displacement * 1000,
                    p.idle->max_scalp_displacement * 1000, p.scalp_vertices, p.mesh_vertices, p.ms);
        std::vector<std::string> failed;
        for (const GateResult& g : p.solver.gates)
            if (!g.passed) failed.push_back(gate_code(g.gate));
        if (*e.solver_failure == 0) {
            EXPECT_TRUE(failed.empty()) << who << " " << failed.front();
        } else {
            EXPECT_EQ(failed, std::vector<std::string>{e.solver_failure}) << who;
        }
        EXPECT_EQ(hang->sleep_step.has_value(), std::string(e.solver_failure) != "NEVER_SLEPT") << who;
        EXPECT_LT(*idle->idle_jitter_mean, 0.02) << who;  // seed 003: 0.007-0.018
        // A cloth that never settles idles restless in its worst link (the Witch's: 0.054).
        if (hang->sleep_step) {
            EXPECT_LT(*idle->idle_jitter_worst, 0.02) << who;
        }
        if (p.mesh_edges == 0) {  // a spring over unskinned geometry carries it rigidly: nothing to tear
            EXPECT_EQ(e.stretch, 0.0) << who;
            EXPECT_EQ(p.hang->max_edge_stretch, 0.0) << who;
            continue;
        }
        EXPECT_NEAR(p.hang->max_edge_stretch, e.stretch, 0.02 * e.stretch) << who << " " << p.hang->max_edge_stretch_mesh;
        EXPECT_NEAR(p.idle->max_edge_stretch, p.hang->max_edge_stretch, 0.005 * e.stretch) << who;
        EXPECT_NEAR(p.hang->max_scalp_displacement * 1000, e.scalp_mm, 0.2 * e.scalp_mm + 0.05) << who;
        EXPECT_GE(p.idle->max_scalp_displacement, p.hang->max_scalp_displacement * 0.99) << who;  // the worst over every frame
        const bool torn = p.hang->max_edge_stretch > kMaxMeshStretch || p.idle->max_edge_stretch > kMaxMeshStretch;
        EXPECT_EQ(p.passed(), !torn && *e.solver_failure == 0) << who;
        any_torn = any_torn || torn;
        any_failed = any_failed || torn || *e.solver_failure != 0;
    }
    EXPECT_EQ(r.validation->passed(), !any_failed) << name;
    EXPECT_EQ(r.exit_code(), any_failed ? 1 : 0) << name;
    bool reported = false;
    for (const Issue& i : r.issues)
        if (i.code == "VALIDATION_FAILED" && i.message.find("MESH_STRETCH") != std::string::npos) {
            reported = true;
            EXPECT_NE(i.message.find("MESH_STRETCH garment '"), std::string::npos) << i.message;
            EXPECT_NE(i.message.find("x its bind length (limit 1.10), mesh '"), std::string::npos) << i.message;
            EXPECT_NE(i.message.find("the skinned mesh tears"), std::string::npos) << i.message;
        }
    EXPECT_EQ(reported, any_torn) << name;
}

TEST(RigValidate, MannequinGrownHairAndSkirt) {
    const RigModelResult r = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin");
    expect_validated(r, "mannequin", {{"Hair", 1.127, 2.50}, {"Skirt", 1.183, 4.48, "STRAIN"}});
    for (const RigProxyValidation& p : r.validation->proxies) {
        EXPECT_GT(p.mesh_vertices, 0u) << p.garment;
        EXPECT_GT(p.scalp_vertices, 0u) << p.garment;  // the root blend keeps the scalp / waistband on the body
        EXPECT_LT(p.scalp_vertices, p.mesh_vertices) << p.garment;
    }
}

TEST(RigValidate, OneStepFromTheBindPoseTheMeshIsWhole) {
    // After one step the chains have moved g·dt² (2.7 mm) at most: a posing or skinning mistake (a
    // joint posed from another's particle, a bone not at bind) would tear the mesh here already.
    ValidationOptions one_step;
    one_step.scenarios = {{Scenario::hang, 1}, {Scenario::idle, 1}};
    const RigModelResult r = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin-one-step", one_step);
    ASSERT_TRUE(r.validation);
    ASSERT_EQ(r.validation->proxies.size(), 2u);
    for (const RigProxyValidation& p : r.validation->proxies) {
        ASSERT_TRUE(p.hang) << p.garment;
        EXPECT_EQ(p.hang->step, 1u);
        EXPECT_GE(p.hang->max_edge_stretch, 1.0) << p.garment;
        EXPECT_LT(p.hang->max_edge_stretch, 1.03) << p.garment;  // measured 1.013 (Skirt)
        EXPECT_LT(p.hang->max_scalp_displacement, 0.5e-3) << p.garment;
        ASSERT_FALSE(p.mesh_gates.empty());
        EXPECT_EQ(p.mesh_gates[0].scenario, Scenario::hang);
        EXPECT_TRUE(p.mesh_gates[0].passed) << p.mesh_gates[0].message;  // idle starts from the settled cloth
    }
}

TEST(RigValidate, TheMeshLimitIsTheCallersAndTheJsonSaysWhichWasUsed) {
    RigValidationLimits loose;
    loose.max_mesh_stretch = 1.25;  // above what the mannequin's chains stretch it to (1.18)
    const RigModelResult r = rig_and_validate(test::testdata_dir() / "mannequin.glb", "mannequin-loose", {}, loose);
    ASSERT_TRUE(r.validation);
    ASSERT_EQ(r.validation->proxies.size(), 2u);
    for (const RigProxyValidation& p : r.validation->proxies)
        for (const MeshGateResult& g : p.mesh_gates) {
            EXPECT_TRUE(g.passed) << g.message;
            EXPECT_EQ(g.limit, 1.25);
        }
    const nlohmann::json j = rig_validation_json(*r.validation);
    EXPECT_EQ(j["limits"]["max_mesh_stretch"], 1.25);
    ASSERT_EQ(j["proxies"].size(), 2u);
    EXPECT_EQ(j["proxies"][1]["mesh"]["hang"]["max_edge_stretch_edge"]["mesh"], "MannequinMesh-2");
}

TEST(RigValidateShared, GrownHair) {
    const std::vector<std::pair<const char*, std::vector<Expected>>> models = {
        {"quaternius_umw_Witch.gltf", {{"Hair_Black", 1.721, 34.4, "NEVER_SLEPT"}}},
        {"quaternius_men_Casual.glb", {{"Hair", 2.227, 40.3}}},
        {"quaternius_Hair_Long.fbx", {{"MI_Hair_2", 3.163, 79.6}}},
    };
    for (const auto& [file, expected] : models) {
        WEFT_REQUIRE_SHARED_MODEL(model, file);
        expect_validated(rig_and_validate(model, fs::path(file).stem().string()), file, expected);
    }
}

TEST(RigValidateShared, AuthoredChains) {
    const std::vector<std::pair<const char*, std::vector<Expected>>> models = {
        {"quaternius_animals_Fox.glb", {{"Tail1", 2.440, 75.1}}},
        {"Godette_vrm_v4.vrm", {{"HairBall_Center", 2.674, 49.7}, {"Ribbon", 1.000, 22.8}}},
        {"threevrm_sphere_collider/sphere-collider.gltf", {{"Spring A", 0, 0}}},
    };
    for (const auto& [file, expected] : models) {
        WEFT_REQUIRE_SHARED_MODEL(model, file);
        expect_validated(rig_and_validate(model, fs::path(file).stem().string()), file, expected);
    }
}

}  // namespace
}  // namespace weft
