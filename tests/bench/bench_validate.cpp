// What `weft validate` costs: one proxy through every default scenario (about 4,900 scripted steps
// plus the settling preludes), and what measuring adds on top of the solver's own steps.
// Run: build/tests/bench/bench_validate (medians of 5 repetitions). BM_ValidateEveryScenario's second
// argument is ValidationOptions::self_contact (docs/solver.md#self-contact): its cost.
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "solver/solver.h"
#include "solver/test_proxies.h"
#include "solver/tube_skirt.h"
#include "validate/crossings.h"
#include "validate/validate.h"

namespace weft {
namespace {

ClothProxy workload(int which) {
    switch (which) {
        case 0: return test::chain_proxy(16, 0.1, 0.05);            // table M3's rope (docs/measurements.md), 17 particles
        case 1: return test::flag_proxy(8, 6, 0.05, 0.4);           // a flag at its hoist, 48 particles
        case 2: return test::grid_sheet_proxy(16, 16, 0.03, 0.5); // a sheet at its top edge, 256 particles
        default: return test::folded_sheet_proxy(16, 16, 0.02, 0); // layers in contact, 560 particles
    }
}

const char* workload_name(int which) {
    static const char* names[] = {"rope16", "flag8x6", "sheet16x16", "folded16x16"};
    return names[which];
}

/// Validates `proxy` once an iteration, counting the steps taken (settling included) per iteration.
void validate_each_iteration(benchmark::State& state, const ClothProxy& proxy, const ValidationOptions& options) {
    uint64_t steps = 0;
    for (auto _ : state) {
        ProxyValidation v = validate_proxy(proxy, options);
        for (const ScenarioStats& s : v.scenarios) steps += s.settle_steps + s.steps;
        benchmark::DoNotOptimize(v);
    }
    state.counters["steps"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kAvgIterations);
}

/// Every default scenario on one proxy in its suggested fabric (cotton): what validate costs per proxy.
void BM_ValidateEveryScenario(benchmark::State& state) {
    const ClothProxy proxy = workload(static_cast<int>(state.range(0)));
    state.SetLabel(std::string(workload_name(static_cast<int>(state.range(0)))) +
                   (state.range(1) ? " self-contact" : ""));
    ValidationOptions options;
    options.self_contact = state.range(1) != 0;
    validate_each_iteration(state, proxy, options);
}
BENCHMARK(BM_ValidateEveryScenario)->ArgsProduct({{0, 1, 2, 3}, {0, 1}})->Unit(benchmark::kMillisecond)->Iterations(1)
    ->Repetitions(5)->ReportAggregatesOnly(true);

/// Every default scenario on a body: a cotton tube skirt (24 x 11 particles) round two thigh capsules,
/// plus a hand of a sphere and four 8 mm finger capsules in front of its hem: the contact rows' cost
/// with colliders to find (a sheet, so no span rows: docs/colliders.md#spans).
void BM_ValidateOnABody(benchmark::State& state) {
    const ClothProxy proxy = test::tube_skirt(24, 11, 0.2, 0.05);
    ValidationOptions options;
    options.body.capsules = {{{0.09, -0.1, 0}, {0.09, -0.5, 0}, 0.08}, {{-0.09, -0.1, 0}, {-0.09, -0.5, 0}, 0.08}};
    options.body.spheres = {{{0, -0.2, 0.27}, 0.03}};
    for (int f = 0; f < 4; ++f)
        options.body.capsules.push_back({{0.022 * (f - 1.5), -0.28, 0.27}, {0.022 * (f - 1.5), -0.37, 0.27}, 0.008});
    validate_each_iteration(state, proxy, options);
}
BENCHMARK(BM_ValidateOnABody)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5)->ReportAggregatesOnly(true);

/// Every default scenario on a head: a rope rig of 12 links 5 cm apart hanging beside a 9 cm sphere,
/// each link carrying four render vertices 6 cm round it (docs/colliders.md#virtual-particles): with
/// the argument 1 they are its virtual particles, collided where they are; with 0 the same rig without
/// them, as weft made it before. The difference is what virtual particles cost.
void BM_ValidateRigVirtualParticles(benchmark::State& state) {
    ClothProxy proxy = test::chain_proxy(12, 0.05, 0.02);
    proxy.kind = ProxyKind::rig;
    if (state.range(0)) {
        for (uint32_t k = 0; k < 12; ++k) {
            const uint32_t a = test::particle(proxy, k), b = test::particle(proxy, k + 1);
            for (int q = 0; q < 4; ++q) {
                const double angle = q * M_PI / 2;
                proxy.virtual_link.push_back({a, a, b});
                proxy.virtual_rest_position.push_back({0.06 * std::cos(angle), -0.05 * k - 0.025, 0.06 * std::sin(angle)});
            }
        }
    }
    state.SetLabel(state.range(0) ? "48 virtual particles" : "none");
    ValidationOptions options;
    options.body.spheres = {{{0.16, -0.3, 0}, 0.09}};
    validate_each_iteration(state, proxy, options);
}
BENCHMARK(BM_ValidateRigVirtualParticles)->DenseRange(0, 1)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5)
    ->ReportAggregatesOnly(true);

/// The crossing count at the end of a scenario on a 71x71 sheet (9,800 triangles), folded in half
/// through itself so the broad phase has work: what SELF_INTERSECTION costs per scenario.
void BM_CountCrossings(benchmark::State& state) {
    const uint32_t n = 71;
    std::vector<Vec3> x;
    std::vector<std::array<uint32_t, 3>> triangles;
    for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i) {
            const double u = i * 0.02, v = j * 0.02;
            x.push_back(v < 0.7 ? Vec3{u, 0, v} : Vec3{u, (v - 0.7) * 0.3 - 0.05, 1.4 - v});  // the far half back through
        }
    for (uint32_t j = 0; j + 1 < n; ++j)
        for (uint32_t i = 0; i + 1 < n; ++i) {
            const uint32_t a = j * n + i;
            triangles.push_back({a, a + 1, a + n + 1});
            triangles.push_back({a, a + n + 1, a + n});
        }
    uint32_t crossing = 0;
    for (auto _ : state) benchmark::DoNotOptimize(crossing = count_crossing_triangles(x, triangles));
    state.counters["crossing"] = crossing;
}
BENCHMARK(BM_CountCrossings)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

/// The swing scenario measured (strain, tether, energy, speed after every step) ...
void BM_SwingMeasured(benchmark::State& state) {
    const ClothProxy proxy = workload(static_cast<int>(state.range(0)));
    state.SetLabel(workload_name(static_cast<int>(state.range(0))));
    const Fabric cotton = *find_fabric("cotton");
    for (auto _ : state) benchmark::DoNotOptimize(run_scenario(proxy, cotton, Scenario::swing, 900));
}
BENCHMARK(BM_SwingMeasured)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5)
    ->ReportAggregatesOnly(true);

/// ... against the same steps with nothing measured: the difference is what measuring costs.
void BM_SwingSolverOnly(benchmark::State& state) {
    const ClothProxy proxy = workload(static_cast<int>(state.range(0)));
    state.SetLabel(workload_name(static_cast<int>(state.range(0))));
    const Fabric cotton = *find_fabric("cotton");
    for (auto _ : state) {
        Solver solver(proxy, cotton);
        StepInput in;
        in.holders.assign(proxy.pins.size(), Pose{});
        for (uint32_t s = 0; s < settle_max_steps; ++s)
            if (solver.step(in).fell_asleep) break;
        solver.add_velocity({0, 0, swing_kick_speed});
        for (uint32_t s = 0; s < 900; ++s) benchmark::DoNotOptimize(solver.step(in));
    }
}
BENCHMARK(BM_SwingSolverOnly)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace weft

BENCHMARK_MAIN();
