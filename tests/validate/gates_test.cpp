// The gates (lib/validate/gates.h) on measurements written by hand: each gate's boundary, the limits
// an author overrides, and which scenarios each gate applies to.
#include <gtest/gtest.h>

#include "validate/gates.h"

namespace weft {
namespace {

ScenarioStats quiet(Scenario s) {
    ScenarioStats st;
    st.scenario = s;
    st.steps = 1500;
    st.sleep_step = 400;
    st.max_strain = 1.004;
    st.max_strain_step = 12;
    st.max_strain_link = LinkRef{LinkRef::edge, 7, 6, 8};
    st.total_energy_trend = -0.25;
    st.trend_steps = 500;
    return st;
}

std::vector<GateResult> failures(const std::vector<GateResult>& results) {
    std::vector<GateResult> out;
    for (const GateResult& r : results)
        if (!r.passed) out.push_back(r);
    return out;
}

TEST(Gates, AQuietHangPassesFourGatesInOrder) {
    ScenarioStats hang = quiet(Scenario::hang);
    std::vector<GateResult> r = evaluate_gates({&hang, 1}, 5.0, GateLimits{});
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0].gate, Gate::non_finite);
    EXPECT_EQ(r[1].gate, Gate::never_slept);
    EXPECT_EQ(r[2].gate, Gate::strain);
    EXPECT_EQ(r[3].gate, Gate::energy_rising);
    EXPECT_TRUE(all_passed(r));
    EXPECT_EQ(r[1].value, 400.0);
    EXPECT_EQ(r[1].limit, 1500.0);
    EXPECT_EQ(r[2].message, "hang: worst strain 1.0040 on edge 7 (particles 6-8) at step 12 (limit 1.1)");
    EXPECT_DOUBLE_EQ(*r[3].value, -0.05);  // -0.25 J of a 5 J scale
    EXPECT_FALSE(r[0].value);
    EXPECT_FALSE(r[0].limit);
    EXPECT_STREQ(gate_code(Gate::energy_rising), "ENERGY_RISING");
    EXPECT_STREQ(gate_code(Gate::never_slept), "NEVER_SLEPT");

    hang.max_strain_step = 0;
    EXPECT_EQ(evaluate_gates({&hang, 1}, 5.0, GateLimits{})[2].message,
              "hang: worst strain 1.0040 on edge 7 (particles 6-8) in the starting pose (limit 1.1)");
    hang.max_strain_link.reset();
    hang.max_strain = 0;
    EXPECT_EQ(evaluate_gates({&hang, 1}, 5.0, GateLimits{})[2].message, "hang: no edges to stretch (limit 1.1)");
}

TEST(Gates, StrainFailsJustPastItsLimitAndTheLimitIsTheAuthors) {
    ScenarioStats s = quiet(Scenario::sprint);
    s.max_strain = 1.10;
    EXPECT_TRUE(all_passed(evaluate_gates({&s, 1}, 1.0, GateLimits{})));  // at the limit passes
    s.max_strain = 1.1001;
    s.max_strain_link = LinkRef{LinkRef::skip, 3, 2, 4};
    auto f = failures(evaluate_gates({&s, 1}, 1.0, GateLimits{}));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].gate, Gate::strain);
    EXPECT_EQ(f[0].scenario, Scenario::sprint);
    EXPECT_EQ(f[0].message, "sprint: worst strain 1.1001 on skip 3 (particles 2-4) at step 12 (limit 1.1)");
    GateLimits loose;
    loose.max_strain = 1.25;
    EXPECT_TRUE(all_passed(evaluate_gates({&s, 1}, 1.0, loose)));
}

TEST(Gates, NeverSleptAppliesToHangOnlyAndHonoursMaxSleepStep) {
    ScenarioStats hang = quiet(Scenario::hang), swing = quiet(Scenario::swing);
    hang.sleep_step.reset();
    swing.sleep_step.reset();
    std::vector<ScenarioStats> both{hang, swing};
    auto f = failures(evaluate_gates(both, 1.0, GateLimits{}));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].gate, Gate::never_slept);
    EXPECT_EQ(f[0].scenario, Scenario::hang);
    EXPECT_FALSE(f[0].value);
    EXPECT_EQ(f[0].message, "hang: never slept in 1500 steps (limit: asleep by step 1500; docs/measurements.md table Z1)");

    both[0].sleep_step = 800;
    GateLimits strict;
    strict.max_sleep_step = 600;
    f = failures(evaluate_gates(both, 1.0, strict));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].value, 800.0);
    EXPECT_EQ(f[0].limit, 600.0);
    EXPECT_EQ(f[0].message, "hang: slept at step 800 (limit 600)");
    strict.max_sleep_step = 800;
    EXPECT_TRUE(all_passed(evaluate_gates(both, 1.0, strict)));
}

TEST(Gates, NonFiniteFailsWhereverItHappens) {
    ScenarioStats s = quiet(Scenario::teleport_keep);
    s.non_finite_step = 37;
    auto f = failures(evaluate_gates({&s, 1}, 1.0, GateLimits{}));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].gate, Gate::non_finite);
    EXPECT_EQ(f[0].value, 37.0);
    EXPECT_EQ(f[0].message, "teleport-keep: a position, velocity or energy went non-finite at step 37");
    s.non_finite_step = 0;
    f = failures(evaluate_gates({&s, 1}, 1.0, GateLimits{}));
    ASSERT_EQ(f.size(), 1u);
    EXPECT_NE(f[0].message.find("while settling"), std::string::npos);
}

TEST(Gates, EnergyRisingIsAFractionOfTheEnergyScale) {
    ScenarioStats s = quiet(Scenario::swing);
    s.total_energy_trend = 0.004;  // J
    EXPECT_TRUE(all_passed(evaluate_gates({&s, 1}, 5.0, GateLimits{})));  // 8e-4 of 5 J
    auto f = failures(evaluate_gates({&s, 1}, 2.0, GateLimits{}));       // 2e-3 of 2 J
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].gate, Gate::energy_rising);
    EXPECT_DOUBLE_EQ(*f[0].value, 0.002);
    EXPECT_EQ(f[0].limit, 1e-3);
    EXPECT_EQ(f[0].message,
              "swing: total energy changed +0.004 J over the last 500 undriven steps, +0.002 of the energy scale 2 J "
              "(limit +0.001)");
    GateLimits loose;
    loose.max_energy_rise = 0.01;
    EXPECT_TRUE(all_passed(evaluate_gates({&s, 1}, 2.0, loose)));
    // No undriven steps (idle): no trend, no gate.
    s.total_energy_trend.reset();
    std::vector<GateResult> r = evaluate_gates({&s, 1}, 2.0, GateLimits{});
    for (const GateResult& g : r) EXPECT_NE(g.gate, Gate::energy_rising);
    EXPECT_EQ(r.size(), 2u);
}

// The body, the render mesh and its faces: each gate passes at its limit and fails just past it, and the
// penetration limit is a share of the fabric's thickness (docs/validation.md#penetration).
TEST(Gates, PenetrationMeshStretchAndFacesPassAtTheirLimitsAndFailPast) {
    const double thickness = 0.004;
    auto gate_of = [&](const ScenarioStats& s, Gate g, uint32_t rest_crossings = 0) {
        for (const GateResult& r : evaluate_gates({&s, 1}, 1.0, GateLimits{}, thickness, rest_crossings))
            if (r.gate == g) return r;
        ADD_FAILURE() << gate_code(g) << " not evaluated";
        return GateResult{};
    };
    ScenarioStats s = quiet(Scenario::swing);
    s.max_penetration = thickness;  // GateLimits::max_penetration 1.0 of the thickness
    s.max_penetration_particle = 3;
    s.max_penetration_step = 40;
    GateResult pen = gate_of(s, Gate::penetration);
    EXPECT_TRUE(pen.passed) << pen.message;
    EXPECT_DOUBLE_EQ(*pen.limit, thickness);
    s.max_penetration = thickness * 1.001;
    EXPECT_FALSE(gate_of(s, Gate::penetration).passed);
    GateLimits half;
    half.max_penetration = 0.5;
    s.max_penetration = 0.0025;
    for (const GateResult& r : evaluate_gates({&s, 1}, 1.0, half, thickness))
        if (r.gate == Gate::penetration) { EXPECT_FALSE(r.passed) << "half the thickness: 2 mm"; }
    s.max_penetration.reset();

    s.max_mesh_stretch = 1.10;
    s.max_mesh_stretch_vertices = {4, 5};
    EXPECT_TRUE(gate_of(s, Gate::mesh_stretch).passed);
    s.max_mesh_stretch = 1.1001;
    EXPECT_FALSE(gate_of(s, Gate::mesh_stretch).passed);
    s.max_mesh_stretch.reset();

    s.inside_out_faces = 0;
    EXPECT_TRUE(gate_of(s, Gate::face_inside_out).passed);
    s.inside_out_faces = 1;
    const GateResult face = gate_of(s, Gate::face_inside_out);
    EXPECT_FALSE(face.passed) << "one face left inside out is one too many";
    EXPECT_EQ(*face.limit, 0.0);
    s.inside_out_faces.reset();

    // Crossings count from the rest pose's: a sheet that crosses itself at rest fails only on new ones.
    s.crossings = 3;
    EXPECT_TRUE(gate_of(s, Gate::self_intersection, 3).passed);
    EXPECT_FALSE(gate_of(s, Gate::self_intersection, 2).passed);
}

}  // namespace
}  // namespace weft
