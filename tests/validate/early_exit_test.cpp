// Early exit (docs/validation.md#early-exit): a run stops after the step at which one of its gates
// failed for good, a worst-so-far past its limit. Each test runs the same validation with and without
// it and asserts the verdicts are the same, the stopped run ran exactly the steps the full run needed
// to fail, its figures are the full run's worst up to that step, bit for bit, and its record still
// ends on a frame of the step it stopped at (what a page replays).
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include <nlohmann/json.hpp>

#include "solver/test_proxies.h"
#include "support/paths.h"
#include "validate/validate.h"

namespace weft {
namespace {

ValidationOptions one_scenario(Scenario scenario, bool stop_early) {
    ValidationOptions o;
    o.scenarios = {{scenario, default_steps(scenario)}};
    o.fabric = *find_fabric("cotton");
    o.trace.figures = true;
    o.trace.frame_every = 1;
    o.stop_early = stop_early;
    return o;
}

const GateResult& gate_of(const ProxyValidation& v, Gate gate) {
    const auto it = std::find_if(v.gates.begin(), v.gates.end(), [&](const GateResult& g) { return g.gate == gate; });
    EXPECT_NE(it, v.gates.end()) << gate_code(gate);
    return *it;
}

TEST(EarlyExit, AStrainFailureStopsAfterTheStepItFailedAtWithTheWorstUpToThere) {
    const ClothProxy chain = test::chain_proxy(8, 0.08, 0.05);
    ValidationOptions full_options = one_scenario(Scenario::sprint, false);
    const ProxyValidation full = validate_proxy(chain, full_options);
    ASSERT_FALSE(full.refused);
    const ScenarioStats& f = full.scenarios[0];
    ASSERT_GT(f.max_strain, 1.0);
    EXPECT_FALSE(f.stopped_step);

    // A limit half-way up the full run's worst stretch: it fails there, somewhere before its worst step.
    const double limit = 1 + (f.max_strain - 1) / 2;
    full_options.limits.max_strain = limit;
    ValidationOptions stopping = full_options;
    stopping.stop_early = true;
    const ProxyValidation judged_full = validate_proxy(chain, full_options);
    const ProxyValidation stopped = validate_proxy(chain, stopping);

    // The step it failed for good: the first whose worst so far (the starting pose's included) passes the limit.
    double worst = -std::numeric_limits<double>::infinity();
    uint32_t failed_at = 0;
    for (const StepFigures& t : full.traces[0].steps) {
        worst = std::max(worst, t.max_strain);
        if (worst > limit) {
            failed_at = t.step;
            break;
        }
    }
    ASSERT_GT(failed_at, 1u);
    ASSERT_LT(failed_at, f.steps);
    const ScenarioStats& s = stopped.scenarios[0];
    ASSERT_TRUE(s.stopped_step);
    EXPECT_EQ(*s.stopped_step, failed_at);
    EXPECT_EQ(s.stopped_gate, "STRAIN");
    EXPECT_EQ(s.steps, failed_at);
    EXPECT_EQ(s.max_strain, worst);  // bit for bit: the same steps, the same worst
    EXPECT_LE(s.max_strain, f.max_strain);
    EXPECT_LE(s.max_strain_step, failed_at);

    // The same verdict, gate by gate on what both judge: STRAIN fails in both.
    EXPECT_FALSE(judged_full.passed());
    EXPECT_FALSE(stopped.passed());
    EXPECT_FALSE(gate_of(judged_full, Gate::strain).passed);
    EXPECT_FALSE(gate_of(stopped, Gate::strain).passed);
    EXPECT_EQ(gate_of(stopped, Gate::non_finite).passed, gate_of(judged_full, Gate::non_finite).passed);
    // What is judged at a run's end is not judged on a run that has none.
    EXPECT_FALSE(s.total_energy_trend);
    EXPECT_TRUE(std::none_of(stopped.gates.begin(), stopped.gates.end(),
                             [](const GateResult& g) { return g.gate == Gate::energy_rising; }));

    // The record ends on the step it stopped at, with every step before it: a page replays it to there.
    const ScenarioTrace& trace = stopped.traces[0];
    ASSERT_EQ(trace.steps.size(), failed_at);
    EXPECT_EQ(trace.steps.back().step, failed_at);
    ASSERT_FALSE(trace.frame_steps.empty());
    EXPECT_EQ(trace.frame_steps.back(), failed_at);
    // And until then the stopped run is the full one, step for step.
    for (uint32_t k = 0; k < failed_at; ++k) EXPECT_EQ(trace.steps[k].max_strain, full.traces[0].steps[k].max_strain) << k;
}

TEST(EarlyExit, APassingRunAndARunWithoutItGoToTheEnd) {
    const ClothProxy chain = test::chain_proxy(8, 0.08, 0.05);
    for (bool stop_early : {true, false}) {
        ValidationOptions o = one_scenario(Scenario::sprint, stop_early);
        const ProxyValidation v = validate_proxy(chain, o);
        EXPECT_FALSE(v.scenarios[0].stopped_step);
        EXPECT_EQ(v.scenarios[0].steps, default_steps(Scenario::sprint));
        EXPECT_TRUE(v.passed());
    }
    // Failing, but only at the end (the energy trend): nothing stops it, since a worst so far is not what fails.
    ValidationOptions o = one_scenario(Scenario::sprint, true);
    o.limits.max_energy_rise = -1;  // every trend fails
    const ProxyValidation v = validate_proxy(chain, o);
    EXPECT_FALSE(v.passed());
    EXPECT_FALSE(v.scenarios[0].stopped_step);
    EXPECT_EQ(v.scenarios[0].steps, default_steps(Scenario::sprint));
}

TEST(EarlyExit, TheReportSaysWhereItStopped) {
    const ClothProxy chain = test::chain_proxy(8, 0.08, 0.05);
    ValidationOptions o = one_scenario(Scenario::sprint, true);
    o.limits.max_strain = 1.0;  // any stretch at all
    ValidationReport report{o.limits};
    report.proxies.push_back(validate_proxy(chain, o));
    const ScenarioStats& s = report.proxies[0].scenarios[0];
    ASSERT_TRUE(s.stopped_step);
    const nlohmann::json j = report_json(report, false);
    const nlohmann::json& scenario = j["proxies"][0]["scenarios"][0];
    EXPECT_EQ(scenario["stopped_early"]["step"], *s.stopped_step);
    EXPECT_EQ(scenario["stopped_early"]["gate"], "STRAIN");
    EXPECT_EQ(scenario["steps"], *s.stopped_step);
    EXPECT_TRUE(scenario["total_energy_trend"].is_null());
    EXPECT_EQ(test::schema_errors(j.dump(2), "validation.schema.json"), "");
    const std::string text = report_text(report);
    EXPECT_NE(text.find("STOPPED after step " + std::to_string(*s.stopped_step) + " (STRAIN failed)"), std::string::npos) << text;
}

}  // namespace
}  // namespace weft
