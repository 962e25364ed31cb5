// docs/measurements.md tables C1, G1, V1, D1, I1 and the hostile regimes: a hard chain settles, the residual falls
// with the budget, the geometric stiffness keeps the sideways update descending, no vertex update climbs on a
// realistic cloth, a soft row above the dissipative band never settles, the cape converges with the budget, and
// the hostile regimes end where their physics puts them.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>

#include "solver/solver.h"
#include "measures.h"
#include "test_proxies.h"

namespace weft {
namespace {

using test::bare_constants;
using test::bare_fabric;
using test::link_residual_now;

// docs/measurements.md, table C1: a hard 20-link chain settles hard (the reference: 1e-11 J). 2 cm
// links, 5e-4 kg a joint at 60 Hz x 2 substeps (m/h² = 7.2), hung straight down, 400 steps, no damping.
TEST(Settle, HardTwentyLinkChainComesToRest) {
    ClothProxy chain = test::chain_proxy(20, 0.02, 5e-4, {0, -1, 0}, false);
    Solver solver(chain, bare_fabric(2, 4), bare_constants());
    StepInput in;
    for (int s = 0; s < 400; ++s) solver.step(in);
    const double kinetic = solver.energy({0, -9.81, 0}).kinetic;
    EXPECT_LT(kinetic, 1e-10);
    EXPECT_NEAR(link_residual_now(solver, chain), 3.8e-2, 1e-3);  // table C1, 20 links at 4 iterations
}

// Table C1 (docs/measurements.md): the residual falls monotonically with the iteration budget with
// nothing diverging at any depth, chain depths 1 to 80, 1 to 16 iterations (60 Hz x 2 substeps, 400 steps).
// From 2 iterations on it falls strictly; from 1 to 2 the reference's own table rises at depth 20 (1.3e-1
// to 1.4e-1, an unsettled chain caught at a phase of its swing), so that first step may rise by 25%.
TEST(Settle, ResidualFallsWithIterationsAtEveryDepth) {
    for (uint32_t depth : {1u, 2u, 5u, 10u, 20u, 40u, 80u}) {
        ClothProxy chain = test::chain_proxy(depth, 0.1, 0.05, {0, -1, 0}, false);
        double previous = INFINITY;
        for (uint32_t iterations : {1u, 2u, 4u, 8u, 16u}) {
            Solver solver(chain, bare_fabric(2, iterations), bare_constants());
            StepInput in;
            for (int s = 0; s < 400; ++s) solver.step(in);
            const double residual = link_residual_now(solver, chain);
            ASSERT_TRUE(std::isfinite(residual)) << "depth " << depth << " iterations " << iterations;
            // Down to the last bits: a 1-link chain at 16 iterations is exact.
            const double allowed = iterations == 2 ? 1.25 * previous : previous;
            EXPECT_LE(residual, std::max(allowed, 1e-12)) << "depth " << depth << " iterations " << iterations;
            previous = residual;
        }
    }
}

/// docs/measurements.md table D1: a 16 x 20 sheet at 2 cm, 0.3 kg (about 0.94 g a particle), hung
/// straight down from its top edge at rest, the bare solver at `substeps` x `iterations` with its
/// stretch rows `stiffness` N/m (infinity: hard). What the run ends with after 1,500 steps.
struct SheetRun {
    double kinetic = 0;                          ///< J after the last step
    double drift = 0;                            ///< mechanical energy after the last step less at the start, J
    double drift_low = INFINITY, drift_high = -INFINITY;  ///< its range from step 300 on, J
};

SheetRun hung_sheet(double stiffness, uint32_t substeps, uint32_t iterations) {
    static const ClothProxy sheet = [] {
        test::ProxyDraft d = test::grid_draft(16, 20, 0.02, 0.3, false);
        for (Vec3& p : d.position) p = {p.x, -p.z, 0};  // the held row on top, the sheet hanging below it
        return test::finish_proxy(d);
    }();
    Fabric f = bare_fabric(substeps, iterations);
    f.stretch_stiffness = stiffness;
    Solver solver(sheet, f, bare_constants());
    StepInput in;
    const double start = solver.energy(in.gravity).total();
    SheetRun run;
    for (int s = 0; s < 1500; ++s) {
        solver.step(in);
        if (s >= 300) {
            const double drift = solver.energy(in.gravity).total() - start;
            run.drift_low = std::min(run.drift_low, drift);
            run.drift_high = std::max(run.drift_high, drift);
        }
    }
    run.kinetic = solver.energy(in.gravity).kinetic;
    run.drift = solver.energy(in.gravity).total() - start;
    return run;
}

// docs/measurements.md, table D1: below the dissipative band (k/(m/h²) about 8) a sheet comes to rest;
// above it the step sustains a limit cycle, and is adding energy, not failing to remove it. The rows
// that settle are asserted as at rest (the hard sheet within the reference's decade, 1.9e-12 J; the
// 1e2 N/m one below 1e-8 J against 7.4e-9); the rows that do not within a factor of two of the
// reference (the energy of a sustained cycle sampled at one step depends on its phase); more
// iterations and more substeps shrink the cycle and do not remove it.
TEST(Settle, SoftRowsAboveTheDissipativeBandNeverSettle) {
    const SheetRun hard = hung_sheet(INFINITY, 2, 4);
    EXPECT_GT(hard.kinetic, 1.9e-12 / std::sqrt(10.0));
    EXPECT_LT(hard.kinetic, 1.9e-12 * std::sqrt(10.0));
    const SheetRun soft2 = hung_sheet(1e2, 2, 4);
    EXPECT_LT(soft2.kinetic, 1e-8);
    // "−0.016 J, and flat from step 300 onwards": dissipative.
    EXPECT_NEAR(soft2.drift, -0.016, 0.001);
    EXPECT_LT(soft2.drift_high - soft2.drift_low, 1e-3);
    struct Cell {
        double stiffness;
        uint32_t substeps, iterations;
        double reference;  ///< J
    };
    double at_4 = 0;
    for (const Cell& c : {Cell{1e3, 2, 4, 1.9e-2}, Cell{1e4, 2, 4, 7.4e-3}, Cell{1e5, 2, 4, 2.9e-2}, Cell{1e4, 2, 16, 3.3e-3},
                          Cell{1e4, 8, 4, 1.4e-3}}) {
        const SheetRun run = hung_sheet(c.stiffness, c.substeps, c.iterations);
        EXPECT_GT(run.kinetic, c.reference / 2) << c.stiffness << " N/m at " << c.substeps << "x" << c.iterations;
        EXPECT_LT(run.kinetic, c.reference * 2) << c.stiffness << " N/m at " << c.substeps << "x" << c.iterations;
        if (c.stiffness == 1e4 && c.iterations == 4 && c.substeps == 2) {
            at_4 = run.kinetic;
            // "+6.8 J, wandering between +1 and +7 J": the step manufactures several times the sheet's
            // whole gravitational budget (about 1.2 J) and holds it.
            EXPECT_GT(run.drift_high, 5.0);
            EXPECT_LT(run.drift_high, 10.0);
            EXPECT_GT(run.drift_low, 0.0);
        } else if (c.stiffness == 1e4) {
            EXPECT_LT(run.kinetic, at_4) << c.substeps << "x" << c.iterations;  // shrinks, never goes
        }
    }
}

// docs/measurements.md, table I1: the cape (20 x 30 at 2 cm, 0.3 kg, inextensible, hung from its top
// edge and dropped through 90°, the bare solver at 2 substeps) after 600 steps at 1-32 iterations. The
// sheet still swings at 600 steps, so a snapshot catches a phase of it: the hem within 0.06 m of the
// reference (a tenth of the sheet's 0.58 m) and the residual within a factor of 1.5. And the table's
// reading: the answer converges rather than changing character — one iteration is stable, the residual
// falls by two orders of magnitude from 1 to 32 iterations, the hem moves by less than a third of the
// sheet's length across the budgets.
TEST(Settle, CapeConvergesWithTheIterationBudget) {
    const ClothProxy cape = test::grid_sheet_proxy(20, 30, 0.02, 0.3);
    struct Cell {
        uint32_t iterations;
        double hem, residual;
    };
    double first_residual = 0, last_residual = 0, hem_low = 0, hem_high = -INFINITY;
    for (const Cell& c : {Cell{1, -0.6450, 7.2e-1}, Cell{2, -0.6201, 2.0e-1}, Cell{4, -0.5993, 7.5e-2},
                          Cell{8, -0.5466, 7.2e-2}, Cell{16, -0.5626, 1.4e-2}, Cell{32, -0.5459, 8.0e-3}}) {
        Solver solver(cape, bare_fabric(2, c.iterations), bare_constants());
        StepInput in;
        for (int s = 0; s < 600; ++s) solver.step(in);
        double hem = 0;
        for (const Vec3& x : solver.state().x) {
            ASSERT_TRUE(is_finite(x)) << c.iterations << " iterations";
            hem = std::min(hem, x.y);
        }
        const double residual = link_residual_now(solver, cape);
        EXPECT_NEAR(hem, c.hem, 0.06) << c.iterations << " iterations";
        EXPECT_GT(residual, c.residual / 1.5) << c.iterations << " iterations";
        EXPECT_LT(residual, c.residual * 1.5) << c.iterations << " iterations";
        if (c.iterations == 1) first_residual = residual;
        last_residual = residual;
        hem_low = std::min(hem_low, hem);
        hem_high = std::max(hem_high, hem);
    }
    EXPECT_GT(first_residual / last_residual, 50.0);
    EXPECT_LT(hem_high - hem_low, 0.58 / 3);
    // With fast steps split (the library's default; docs/measurements.md#the-budget-is-fixed) the one-
    // and two-iteration capes calm, held to a share of a row a sweep: weft's residuals 0.028 and 0.069,
    // within the same factor of 1.5.
    SolverConstants split = bare_constants();
    split.speed_substep_ratio = SolverConstants{}.speed_substep_ratio;
    for (const auto& [iterations, residual] : {std::pair{1u, 0.028}, std::pair{2u, 0.069}}) {
        Solver solver(cape, bare_fabric(2, iterations), split);
        StepInput in;
        for (int s = 0; s < 600; ++s) solver.step(in);
        EXPECT_GT(link_residual_now(solver, cape), residual / 1.5) << iterations << " iterations, split";
        EXPECT_LT(link_residual_now(solver, cape), residual * 1.5) << iterations << " iterations, split";
    }
}

struct Hostile {
    const char* name;
    ClothProxy proxy;
    Fabric fabric;
    StepInput input;
    Vec3 throw_velocity;
    // What the run ends with after 300 steps (docs/measurements.md, "Hostile regimes"): the lowest
    // particle's height in [lowest_min, lowest_max] metres, the worst link residual |C|/L0 below
    // `residual`, and the kinetic energy below `kinetic` J.
    double lowest_min, lowest_max, residual, kinetic;
};

// docs/measurements.md, "Hostile regimes": all eight survive at the chosen constants — finite, and
// each ends where its physics puts it: hanging its own depth below the held edge with its rows near
// length, or, for "soft as water", sagged 123 m as the reference says it should.
TEST(Settle, HostileRegimesEndWhereTheirPhysicsPutsThem) {
    auto soft = [](double stiffness, uint32_t substeps, uint32_t iterations) {
        Fabric f = bare_fabric(substeps, iterations);
        f.stretch_stiffness = stiffness;
        return f;
    };
    auto input = [](double dt, Vec3 g) {
        StepInput in;
        in.dt = dt;
        in.gravity = g;
        return in;
    };
    const Vec3 g{0, -9.81, 0};
    std::vector<Hostile> regimes;
    // A 6x6 sheet at 10 cm hangs 0.5 m deep; at 300 steps each is still swinging, so the band on the
    // lowest point is the swing's.
    regimes.push_back({"stiff + 5 fps", test::grid_sheet_proxy(6, 6, 0.1, 36.0), soft(1e8, 1, 1), input(0.2, g), {}, -0.55, -0.45, 0.25, 1});
    regimes.push_back({"light + 240 fps", test::grid_sheet_proxy(6, 6, 0.1, 36e-5), bare_fabric(4, 8), input(1.0 / 240, g), {}, -0.5, -0.3, 2e-3, 1e-3});
    regimes.push_back({"10 m spacing", test::grid_sheet_proxy(6, 6, 10.0, 3.6), bare_fabric(2, 4), input(1.0 / 15, g), {}, -50, -25, 1e-3, 100});
    // A thousand g at 2x4: far past the correction authority, the sheet ends stretched to about
    // twice its depth, at rest; the point is that it ends at all.
    regimes.push_back({"a thousand g", test::grid_sheet_proxy(6, 6, 0.1, 0.36), bare_fabric(2, 4), input(1.0 / 60, {0, -9810, 0}), {}, -1.05, -0.9, 1.7, 1e-20});
    // 1e-2 N/m rows under a 10 g particle's weight: the reference's "sags 123 m, which is correct".
    regimes.push_back({"soft as water", test::chain_proxy(6, 0.1, 0.01), soft(1e-2, 2, 4), input(1.0 / 60, g), {}, -123.7, -122.7, INFINITY, 100});
    // Thrown at 100 m/s in zero g on its held edge: caught, flung round the edge, rows within 30%.
    regimes.push_back({"zero g, 100 m/s", test::grid_sheet_proxy(6, 6, 0.1, 0.36), bare_fabric(2, 4), input(1.0 / 60, {}), {100, 0, 0}, -1e-9, 1e-9, 0.3, 1});
    regimes.push_back({"inextensible", test::grid_sheet_proxy(6, 6, 0.1, 0.36), bare_fabric(2, 4), input(1.0 / 60, g), {}, -0.51, -0.45, 4e-3, 0.1});
    // The cape of the iteration table: 0.58 m deep, its hem swinging near -0.58 with residual ~7.5e-2.
    regimes.push_back({"inextensible cape", test::grid_sheet_proxy(20, 30, 0.02, 0.3), bare_fabric(2, 4), input(1.0 / 60, g), {}, -0.6, -0.55, 0.09, 0.05});
    ASSERT_EQ(regimes.size(), 8u);
    for (Hostile& r : regimes) {
        Solver solver(r.proxy, r.fabric, bare_constants());
        solver.add_velocity(r.throw_velocity);
        for (int s = 0; s < 300; ++s) {
            solver.step(r.input);
            for (const Vec3& x : solver.state().x) ASSERT_TRUE(is_finite(x)) << r.name << " at step " << s;
        }
        double lowest = 0;
        for (const Vec3& x : solver.state().x) lowest = std::min(lowest, x.y);
        EXPECT_GE(lowest, r.lowest_min) << r.name;
        EXPECT_LE(lowest, r.lowest_max) << r.name;
        EXPECT_LT(link_residual_now(solver, r.proxy), r.residual) << r.name;
        EXPECT_LT(solver.energy(r.input.gravity).kinetic, r.kinetic) << r.name;
    }
}

// docs/measurements.md, table G1: one free particle between two held anchors 0.2 m apart, pulled
// 1 cm sideways, its two soft rows at rest length half their length so that they are in tension, one
// step at 60 Hz x 1 x 1 with m/h² = 144 and no gravity; the tension fc/L stepped through the
// reference's five values (1.06e2 to 9.94e6, a ratio to m/h² of 0.73 to 6.9e4). With the PSD half of
// the geometric stiffness the sideways update never overshoots: the energy above the straight
// configuration falls in every row (the reference: by 19-63%). Dropping the half makes H
// underestimate the sideways curvature by fc/L, and from fc/L ≈ m/h² the update overshoots and the
// energy rises (the reference: +22% to +4140%); the solver has no switch for the term, so that column
// is what mutation S02 of docs/mutation.md shows this test failing on.
TEST(Settle, GeometricStiffnessKeepsTheSidewaysUpdateDescending) {
    const double half_span = 0.1, side = 0.01, h = 1.0 / 60, m_over_h2 = 144;
    test::ProxyDraft draft;
    draft.position = {{-half_span, 0, 0}, {0, side, 0}, {half_span, 0, 0}};
    draft.mass.assign(3, m_over_h2 * h * h);
    draft.held = {1, 0, 1};
    draft.edges = {{0, 1}, {1, 2}};
    draft.pins = {{0}, {2}};
    ClothProxy proxy = test::finish_proxy(draft);
    const double l = std::hypot(half_span, side), rest = l / 2;
    for (double& r : proxy.rest_length) r = rest;
    const uint32_t free = test::particle(proxy, 1);
    // The table's claim, which its own "kept" column meets (−62.9% to −19.1%): with the PSD half kept the
    // energy falls at every tension and the update never passes the straight line. Weft's ΔE/E differs
    // from the reference's past the first row (both rows pull sideways here, and the reference does not
    // say what its E is: the page), so it is asserted at weft's own figures, within 1 point: a hundredth
    // of what dropping the term changes (mutation S02: +58% to +1907%).
    const std::pair<double, double> rows[] = {{1.06e2, -0.594}, {5.53e2, -0.885}, {5.53e4, -0.999}, {1.45e6, -1.000}, {9.94e6, -1.000}};
    for (const auto& [fc_over_l, weft] : rows) {
        Fabric f = bare_fabric(1, 1);
        f.stretch_stiffness = fc_over_l * l / (l - rest);
        Solver solver(proxy, f, bare_constants());
        StepInput in;
        in.dt = h;
        in.gravity = {};
        const double k = f.stretch_stiffness;
        const double before = k * (l - rest) * (l - rest);  // two rows, ½·k·C² each, at rest
        const double straight = k * (half_span - rest) * (half_span - rest);
        solver.step(in);
        const double after = solver.energy(in.gravity).total();
        const double change = (after - before) / (before - straight);
        EXPECT_LT(change, 0) << "fc/L " << fc_over_l;
        EXPECT_NEAR(change, weft, 0.01) << "fc/L " << fc_over_l;
        EXPECT_GE(solver.state().x[free].y, 0) << "fc/L " << fc_over_l;  // never past the straight line
    }
}

struct Audit {
    uint64_t updates = 0, climbing = 0;
    double worst = 0;
    double fraction() const { return static_cast<double>(climbing) / static_cast<double>(updates); }
};

Audit audit_cape(double stretch_stiffness) {
    // The reference's "realistic cape" (docs/solver.md#trust-region): 20 x 30 at 2 cm, hung from its top edge and dropped through 90°, with
    // M0's rows (stretch and bend; the leash rows arrived in M1).
    ClothProxy cape = test::grid_sheet_proxy(20, 30, 0.02, 0.3);
    Fabric f = *find_fabric("cotton");
    f.stretch_stiffness = stretch_stiffness;
    f.slack = 1;
    SolverConstants c;
    c.energy_audit = true;
    c.tethers = false;
    c.sleep = false;
    Solver solver(cape, f, c);
    StepInput in;
    Audit a;
    for (int s = 0; s < 120; ++s) {
        StepStats st = solver.step(in);
        a.updates += st.vertex_updates;
        a.climbing += st.climbing_updates;
        a.worst = std::max(a.worst, st.worst_climb);
    }
    return a;
}

// docs/solver.md#trust-region: with the PSD half of the geometric stiffness, LDLᵀ and the trust region, "fraction
// of updates that climb: realistic cape, hard rows 0.0040%; soft rows 0.0041%".
TEST(Settle, RealisticCapeUpdatesDoNotClimb) {
    Audit hard = audit_cape(INFINITY);
    EXPECT_GT(hard.updates, 500000u);
    EXPECT_LT(hard.fraction(), 0.0040e-2) << hard.climbing << " of " << hard.updates;
    Audit soft = audit_cape(100);  // 1e2 N/m, the soft row that still settles
    EXPECT_LT(soft.fraction(), 0.0041e-2) << soft.climbing << " of " << soft.updates;
    // And the worst climb within the reference's 8.6e-2 (hard) and 1.5e-1 (soft); weft's cape has none.
    EXPECT_LE(hard.worst, 8.6e-2);
    EXPECT_LE(soft.worst, 1.5e-1);
}

// docs/measurements.md, table V1: "absurd fuzz", 1.52% of updates climb in the reference. Sheets whose particle masses span five decades,
// row stiffnesses span ten, thrown in random directions at random step sizes, from rest poses jittered
// by up to half a spacing.
TEST(Settle, AbsurdFuzzClimbsRarely) {
    std::mt19937_64 rng(20260910);
    std::uniform_real_distribution<double> unit(0, 1);
    auto log_uniform = [&](double lo, double hi) { return lo * std::pow(hi / lo, unit(rng)); };
    Audit total;
    for (int trial = 0; trial < 40; ++trial) {
        ClothProxy sheet = test::grid_sheet_proxy(6, 6, 0.1, 0.36);
        const double mass = log_uniform(1e-5, 1);
        for (size_t i = 0; i < sheet.particle_count(); ++i) {
            if (sheet.inverse_mass[i] > 0) sheet.inverse_mass[i] = 1 / (mass * log_uniform(0.5, 2));
            sheet.rest_position[i] += Vec3{unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5} * 0.1;
        }
        for (size_t e = 0; e < sheet.edges.size(); ++e) sheet.rest_length[e] *= log_uniform(0.5, 1.5);
        Fabric f = bare_fabric(1 + trial % 3, 1 + trial % 5);
        f.stretch_stiffness = unit(rng) < 0.3 ? INFINITY : log_uniform(1e-2, 1e8);
        f.bend = unit(rng);
        SolverConstants c = bare_constants();
        c.energy_audit = true;
        Solver solver(sheet, f, c);
        solver.add_velocity(Vec3{unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5} * log_uniform(0.1, 100));
        StepInput in;
        in.dt = log_uniform(1.0 / 480, 1.0 / 10);
        for (int s = 0; s < 60; ++s) {
            StepStats st = solver.step(in);
            total.updates += st.vertex_updates;
            total.climbing += st.climbing_updates;
            total.worst = std::max(total.worst, st.worst_climb);
        }
        for (const Vec3& x : solver.state().x) ASSERT_TRUE(is_finite(x)) << "trial " << trial;
    }
    EXPECT_GT(total.updates, 50000u);
    // docs/measurements.md, table V1: the reference's gate, 1.52% climbing and the worst at most 1.00
    // of the local scale (weft: 0.0052% and 0.29).
    EXPECT_LT(total.fraction(), 1.52e-2) << total.climbing << " of " << total.updates << ", worst " << total.worst;
    EXPECT_GT(total.climbing, 0u);  // the audit sees climbs where they exist
    EXPECT_LE(total.worst, 1.00);
}

}  // namespace
}  // namespace weft
