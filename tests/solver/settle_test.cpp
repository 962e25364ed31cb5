// seed 002 §2, §5.3, §6: a hard chain settles, the residual falls with the budget, no vertex update
// climbs on a realistic cloth, and the hostile regimes stay finite and bounded.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

/// The bare M0 solver of §2-§6: hard stretch rows only, no damping, no tether, no bend, no sleep.
Fabric bare(uint32_t substeps, uint32_t iterations) {
    Fabric f;
    f.name = "bare";
    f.substeps = substeps;
    f.iterations = iterations;
    f.bend = 0;
    f.slack = 1;
    f.damping = 0;
    f.strain_limit = false;
    return f;
}

SolverConstants m0_constants() {
    SolverConstants c;
    c.tethers = false;
    c.sleep = false;
    return c;
}

double worst_link_residual(const Solver& solver, const ClothProxy& proxy) {
    double worst = 0;
    for (size_t e = 0; e < proxy.edges.size(); ++e) {
        double l = distance(solver.state().x[proxy.edges[e][0]], solver.state().x[proxy.edges[e][1]]);
        worst = std::max(worst, std::fabs(l - proxy.rest_length[e]) / proxy.rest_length[e]);
    }
    return worst;
}

// seed 002 §2/§6: "a hard 20-link chain settles hard ... reaches 1e-11 J". §4's chain: 5e-4 kg a
// joint at 60 Hz x 2 substeps (m/h² = 7.2), hung straight down, 400 steps, no damping at all.
TEST(Settle, HardTwentyLinkChainComesToRest) {
    ClothProxy chain = test::chain_proxy(20, 0.1, 5e-4, {0, -1, 0}, false);
    Solver solver(chain, bare(2, 4), m0_constants());
    StepInput in;
    for (int s = 0; s < 400; ++s) solver.step(in);
    const double kinetic = solver.energy({0, -9.81, 0}).kinetic;
    EXPECT_LT(kinetic, 1e-10);
    EXPECT_LT(worst_link_residual(solver, chain), 0.05);  // §6's table at 4 iterations: 3.8e-2
}

// seed 002 §6: "the residual falls monotonically with the iteration budget with nothing diverging at
// any depth", chain depths 1 to 80, 1 to 16 iterations (60 Hz x 2 substeps as §4's chain, 400 steps).
// From 2 iterations on it falls strictly; from 1 to 2 the seed's own table rises at depth 20 (1.3e-1
// to 1.4e-1, an unsettled chain caught at a phase of its swing), so that first step may rise by 25%.
TEST(Settle, ResidualFallsWithIterationsAtEveryDepth) {
    for (uint32_t depth : {1u, 2u, 5u, 10u, 20u, 40u, 80u}) {
        ClothProxy chain = test::chain_proxy(depth, 0.1, 0.05, {0, -1, 0}, false);
        double previous = INFINITY;
        for (uint32_t iterations : {1u, 2u, 4u, 8u, 16u}) {
            Solver solver(chain, bare(2, iterations), m0_constants());
            StepInput in;
            for (int s = 0; s < 400; ++s) solver.step(in);
            const double residual = worst_link_residual(solver, chain);
            ASSERT_TRUE(std::isfinite(residual)) << "depth " << depth << " iterations " << iterations;
            // Down to the last bits: a 1-link chain at 16 iterations is exact.
            const double allowed = iterations == 2 ? 1.25 * previous : previous;
            EXPECT_LE(residual, std::max(allowed, 1e-12)) << "depth " << depth << " iterations " << iterations;
            previous = residual;
        }
    }
}

struct Hostile {
    const char* name;
    ClothProxy proxy;
    Fabric fabric;
    StepInput input;
    Vec3 throw_velocity;
    double bound;  ///< metres every particle must stay within, from the origin
};

// seed 002 §6, "Hostile regimes: all eight survive at the chosen constants" — finite, and bounded by
// what the physics allows (the free fall of the run, or the cloth's own length).
TEST(Settle, HostileRegimesStayFiniteAndBounded) {
    auto soft = [](double stiffness, uint32_t substeps, uint32_t iterations) {
        Fabric f = bare(substeps, iterations);
        f.stretch_stiffness = stiffness;
        return f;
    };
    auto input = [](double dt, Vec3 g) {
        StepInput in;
        in.dt = dt;
        in.gravity = g;
        return in;
    };
    std::vector<Hostile> regimes;
    regimes.push_back({"stiff + 5 fps", test::grid_sheet_proxy(6, 6, 0.1, 36.0), soft(1e8, 1, 1), input(0.2, {0, -9.81, 0}), {}, 5});
    regimes.push_back({"light + 240 fps", test::grid_sheet_proxy(6, 6, 0.1, 36e-5), bare(4, 8), input(1.0 / 240, {0, -9.81, 0}), {}, 5});
    regimes.push_back({"10 m spacing", test::grid_sheet_proxy(6, 6, 10.0, 3.6), bare(2, 4), input(1.0 / 15, {0, -9.81, 0}), {}, 500});
    regimes.push_back({"a thousand g", test::grid_sheet_proxy(6, 6, 0.1, 0.36), bare(2, 4), input(1.0 / 60, {0, -9810, 0}), {}, 5});
    // 1e-2 N/m: a sag of the order of 100 m is the right answer (§6: "sags 123 m, which is correct").
    regimes.push_back({"soft as water", test::chain_proxy(6, 0.1, 0.01), soft(1e-2, 2, 4), input(1.0 / 60, {0, -9.81, 0}), {}, 2000});
    regimes.push_back({"zero g, 100 m/s", test::grid_sheet_proxy(6, 6, 0.1, 0.36), bare(2, 4), input(1.0 / 60, {}), {100, 0, 0}, 5});
    regimes.push_back({"inextensible", test::grid_sheet_proxy(6, 6, 0.1, 0.36), bare(2, 4), input(1.0 / 60, {0, -9.81, 0}), {}, 5});
    regimes.push_back({"inextensible cape", test::grid_sheet_proxy(20, 30, 0.02, 0.3), bare(2, 4), input(1.0 / 60, {0, -9.81, 0}), {}, 5});
    ASSERT_EQ(regimes.size(), 8u);
    for (Hostile& r : regimes) {
        Solver solver(r.proxy, r.fabric, m0_constants());
        solver.add_velocity(r.throw_velocity);
        double farthest = 0;
        for (int s = 0; s < 300; ++s) {
            solver.step(r.input);
            for (const Vec3& x : solver.state().x) {
                ASSERT_TRUE(is_finite(x)) << r.name << " at step " << s;
                farthest = std::max(farthest, length(x));
            }
        }
        EXPECT_LT(farthest, r.bound) << r.name;
    }
}

struct Audit {
    uint64_t updates = 0, climbing = 0;
    double worst = 0;
    double fraction() const { return static_cast<double>(climbing) / static_cast<double>(updates); }
};

Audit audit_cape(double stretch_stiffness) {
    // §5.3's "realistic cape": 20 x 30 at 2 cm, hung from its top edge and dropped through 90°, with
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

// seed 002 §5.3: with the PSD half of the geometric stiffness, LDLᵀ and the trust region, "fraction
// of updates that climb: realistic cape, hard rows 0.0040%; soft rows 0.0041%".
TEST(Settle, RealisticCapeUpdatesDoNotClimb) {
    Audit hard = audit_cape(INFINITY);
    EXPECT_GT(hard.updates, 500000u);
    EXPECT_LT(hard.fraction(), 0.0040e-2) << hard.climbing << " of " << hard.updates;
    Audit soft = audit_cape(100);  // 1e2 N/m, §6's soft row that still settles
    EXPECT_LT(soft.fraction(), 0.0041e-2) << soft.climbing << " of " << soft.updates;
}

// seed 002 §5.3: "absurd fuzz: 1.52%" of updates climb. Sheets whose particle masses span five decades,
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
        Fabric f = bare(1 + trial % 3, 1 + trial % 5);
        f.stretch_stiffness = unit(rng) < 0.3 ? INFINITY : log_uniform(1e-2, 1e8);
        f.bend = unit(rng);
        SolverConstants c = m0_constants();
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
    EXPECT_LT(total.fraction(), 1.52e-2) << total.climbing << " of " << total.updates << ", worst " << total.worst;
    std::printf("absurd fuzz: %.4f%% of %llu updates climb, worst %.3g of the local scale\n", 100 * total.fraction(),
                static_cast<unsigned long long>(total.updates), total.worst);
}

}  // namespace
}  // namespace weft
