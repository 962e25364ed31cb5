// The reference measurements of docs/measurements.md (reference sections 10-13), each in its own setup (bodies, budgets,
// step counts, what is measured when), asserted cell by cell at the tolerance that page states and
// justifies. A cell weft does not reproduce is asserted at weft's own value and the difference is
// explained there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include "solver/solver.h"
#include "measures.h"
#include "test_proxies.h"

namespace weft {
namespace {

using test::link_ratio_now;
using test::sprint;
using test::SprintRun;
using test::tether_ratio_now;

struct LeashRun {
    double worst = 0;  ///< over the whole run
    double final = 0;  ///< after the last step
};

/// docs/measurements.md "The leash": the 30-link x 3-strand rig at 5 cm, authored horizontally and
/// dropped, 600 steps at `substeps` x `iterations`, optionally kicked straight up at the start. The
/// reference's rows are budgets, so every step takes that budget unless `split` (docs/solver.md#fast-cloth,
/// docs/measurements.md#the-budget-is-fixed).
LeashRun leash_rig(uint32_t substeps, uint32_t iterations, bool tethers, double kick = 0, bool split = false, bool simd = true) {
    static const ClothProxy rig = test::strand_rig_proxy(3, 30, 0.05, 0.01);
    Fabric f = *find_fabric("rope");
    f.substeps = substeps;
    f.iterations = iterations;
    f.strain_limit = false;
    f.bend = 0.1;
    SolverConstants c;
    c.tethers = tethers;
    c.sleep = false;
    c.simd = simd;
    if (!split) c.speed_substep_ratio = 0;
    Solver solver(rig, f, c);
    if (kick > 0) solver.add_velocity({0, kick, 0});
    StepInput in;
    LeashRun run;
    for (int s = 0; s < 600; ++s) {
        solver.step(in);
        run.final = tether_ratio_now(solver, rig);
        run.worst = std::max(run.worst, run.final);
    }
    return run;
}

struct BudgetCell {
    uint32_t substeps, iterations;
    double reference, tolerance;
};

// docs/measurements.md, table L1: the tethered rig stays within its reach at every budget. Weft's own
// figures, the reference's beside them (1.0155, 1.0039, 1.0020, 1.0012): the rig's particle mass is not
// published (the page), so the cells are asserted at weft's values within a third of the smallest step
// between two budgets (2x2 to 2x4: 0.0008).
TEST(Measurements, TetheredRigReachMatchesTheReference) {
    for (const BudgetCell& cell : {BudgetCell{1, 1, 1.0125, 0.0002}, BudgetCell{1, 2, 1.0043, 0.0002},
                                   BudgetCell{2, 2, 1.0020, 0.0002}, BudgetCell{2, 4, 1.0012, 0.0002}})
        EXPECT_NEAR(leash_rig(cell.substeps, cell.iterations, true).worst, cell.reference, cell.tolerance)
            << cell.substeps << "x" << cell.iterations;
}

// docs/measurements.md, table L1, the "no tether" column: a known divergence (the page): weft's untethered
// rig over-stretches about twice as far as the reference's (1.827 against 1.465 at 1x1). Asserted at
// weft's values (±0.01, a third of the smallest step between budgets, 0.063) and on what the
// reference's column says: it falls with the budget, and four times the budget without tethers is
// still worse than one iteration with them.
TEST(Measurements, UntetheredRigRubberBands) {
    const double cells[4][3] = {{1, 1, 1.8267}, {1, 2, 1.3931}, {2, 2, 1.1057}, {2, 4, 1.0430}};
    double previous = INFINITY;
    for (const auto& cell : cells) {
        const double worst = leash_rig(static_cast<uint32_t>(cell[0]), static_cast<uint32_t>(cell[1]), false).worst;
        EXPECT_NEAR(worst, cell[2], 0.01) << cell[0] << "x" << cell[1];
        EXPECT_LT(worst, previous);
        previous = worst;
    }
    // "four times the budget gets the untethered rig to 1.020, which is still worse than one iteration
    // with tethers" — true of weft too.
    EXPECT_GT(leash_rig(2, 4, false).worst, leash_rig(1, 1, true).worst);
    // With fast steps split (the library's default, docs/solver.md#fast-cloth) the drop's fast steps
    // take more substeps, the more the fewer sweeps a substep has, and the column comes down towards
    // the reference's and below it (weft's values, within a third of the step from 2x2 to 2x4, 0.027).
    const double split[4][3] = {{1, 1, 1.3333}, {1, 2, 1.1717}, {2, 2, 1.0713}, {2, 4, 1.0441}};
    for (const auto& cell : split) {
        const double worst = leash_rig(static_cast<uint32_t>(cell[0]), static_cast<uint32_t>(cell[1]), false, 0, true).worst;
        EXPECT_NEAR(worst, cell[2], 0.003) << cell[0] << "x" << cell[1] << " split";
    }
}

// docs/measurements.md, table L2: the same rig kicked at 2, 6 and 16 m/s against a correction
// authority of 3 m/s (1x1) and 24 m/s (2x4). The reference says only "kicked sideways" and not the
// rig's mass, so the worst excursion is weft's own, kicked along y (the page: the reference's 1.043,
// 1.227, 6.867, 1.003, 1.001, 1.063 beside weft's), each within a third of its step from the next
// kick (2x4, 2 to 6 m/s: 0.0016); past 5x the authority (16 m/s at 1x1) nothing bounds the transient.
// The final column is the reachable-set guarantee, the reference's figures to ±0.001.
TEST(Measurements, KickedRigExcursionIsTransient) {
    struct Kick {
        uint32_t substeps, iterations;
        double kick, worst, worst_tolerance, final;
    };
    for (const Kick& k : {Kick{1, 1, 2, 1.046, 0.001, 1.0025}, Kick{1, 1, 6, 1.250, 0.001, 1.0025},
                          Kick{1, 1, 16, 9.47, 0.01, 1.0025}, Kick{2, 4, 2, 1.0035, 0.0002, 1.0000},
                          Kick{2, 4, 6, 1.0051, 0.0002, 1.0000}, Kick{2, 4, 16, 1.0669, 0.0002, 1.0000}}) {
        const LeashRun run = leash_rig(k.substeps, k.iterations, true, k.kick);
        EXPECT_NEAR(run.worst, k.worst, k.worst_tolerance) << k.substeps << "x" << k.iterations << " kick " << k.kick;
        EXPECT_NEAR(run.final, k.final, 0.001) << k.substeps << "x" << k.iterations << " kick " << k.kick;
    }
    // One particle at a time (no AVX2, SolverConstants::simd off, or a sweep after a release that couples
    // a colour: docs/solver.md#lanes) the trust region is the scalar update's: the same transient at the
    // kick that leans on it hardest.
    const LeashRun scalar = leash_rig(1, 1, true, 16, false, false);
    EXPECT_NEAR(scalar.worst, 9.47, 0.01) << "one particle at a time";
    EXPECT_NEAR(scalar.final, 1.0025, 0.001) << "one particle at a time";
    // With fast steps split (docs/solver.md#fast-cloth) a kick is met by as many more substeps as it
    // needs, so even 16 m/s at 1x1 (five times the authority) stays within 1%, as 2 m/s does: weft's
    // values ±0.001.
    for (const Kick& k : {Kick{1, 1, 2, 1.0060, 0.001, 1.0025}, Kick{1, 1, 6, 1.0050, 0.001, 1.0025},
                          Kick{1, 1, 16, 1.0048, 0.001, 1.0025}, Kick{2, 4, 2, 1.0035, 0.001, 1.0000},
                          Kick{2, 4, 6, 1.0023, 0.001, 1.0000}, Kick{2, 4, 16, 1.0012, 0.001, 1.0000}}) {
        const LeashRun run = leash_rig(k.substeps, k.iterations, true, k.kick, true);
        EXPECT_NEAR(run.worst, k.worst, k.worst_tolerance) << k.substeps << "x" << k.iterations << " kick " << k.kick << " split";
        EXPECT_LT(run.worst, 1.01) << k.substeps << "x" << k.iterations << " kick " << k.kick << " split";
        EXPECT_NEAR(run.final, k.final, 0.001) << k.substeps << "x" << k.iterations << " kick " << k.kick << " split";
    }
}

/// docs/measurements.md "The strain limit": a 24-link rope at 5 cm, 20 g a joint, authored
/// horizontally and dropped, tethers on, worst link length / rest length over 600 steps.
double dropped_rope_strain(uint32_t substeps, uint32_t iterations, double stretch, bool strain_row, bool split = false) {
    static const ClothProxy rope = test::chain_proxy(24, 0.05, 0.02, {1, 0, 0});
    Fabric f = *find_fabric("rope");
    f.substeps = substeps;
    f.iterations = iterations;
    f.strain_limit = strain_row;
    f.stretch = stretch;
    SolverConstants c;
    c.sleep = false;
    if (!split) c.speed_substep_ratio = 0;  // the rows are budgets (docs/measurements.md#the-budget-is-fixed)
    Solver solver(rope, f, c);
    StepInput in;
    double worst = 0;
    for (int s = 0; s < 600; ++s) {
        solver.step(in);
        worst = std::max(worst, link_ratio_now(solver, rope));
    }
    return worst;
}

// docs/measurements.md, table S1. The reference does not publish the rope's mass (weft's is 20 g a
// joint), so the eighteen cells are weft's own, within a third of the smallest effect the table shows
// (the row at 2x2, stretch 0.5: 0.0052 below without it); the page has the reference's beside them,
// all within 0.0055. The allowance is an input (fitted to this table's allowance column), the stretch
// the row delivers is not.
TEST(Measurements, StrainLimitTableMatchesTheReference) {
    struct Cell {
        uint32_t substeps, iterations;
        double stretch, with_row, without_row;
    };
    for (const Cell& c : {Cell{1, 1, 0.2, 1.0860, 1.0869}, Cell{1, 1, 0.5, 1.0607, 1.0869}, Cell{1, 1, 1.0, 1.0575, 1.0869},
                          Cell{2, 2, 0.2, 1.0328, 1.0328}, Cell{2, 2, 0.5, 1.0276, 1.0328}, Cell{2, 2, 1.0, 1.0215, 1.0328},
                          Cell{2, 4, 0.2, 1.0136, 1.0136}, Cell{2, 4, 0.5, 1.0136, 1.0136}, Cell{2, 4, 1.0, 1.0092, 1.0136}}) {
        const double with = dropped_rope_strain(c.substeps, c.iterations, c.stretch, true);
        const double without = dropped_rope_strain(c.substeps, c.iterations, c.stretch, false);
        EXPECT_NEAR(with, c.with_row, 0.0003) << c.substeps << "x" << c.iterations << " stretch " << c.stretch;
        EXPECT_NEAR(without, c.without_row, 0.0003) << c.substeps << "x" << c.iterations << " stretch " << c.stretch;
        // And the table's two readings: where the allowance is looser than what the hard row does
        // unaided the row is inert; elsewhere it helps and never reaches its own allowance.
        if (strain_allowance(c.stretch) >= without) {
            EXPECT_NEAR(with, without, 1e-4) << c.substeps << "x" << c.iterations << " stretch " << c.stretch;
        } else {
            EXPECT_LT(with, without) << c.substeps << "x" << c.iterations << " stretch " << c.stretch;
            EXPECT_GT(with, strain_allowance(c.stretch)) << c.substeps << "x" << c.iterations << " stretch " << c.stretch;
        }
    }
    // With fast steps split (docs/solver.md#fast-cloth) only 1x1 moves (the drop is fast against one
    // sweep a substep): weft's values ±0.0003, the row still inert at 0.2 and helping at 0.5 and 1.
    for (const auto& [stretch, with_row] : {std::pair{0.2, 1.0431}, std::pair{0.5, 1.0357}, std::pair{1.0, 1.0174}}) {
        const double with = dropped_rope_strain(1, 1, stretch, true, true);
        EXPECT_NEAR(with, with_row, 0.0003) << "1x1 split, stretch " << stretch;
        EXPECT_NEAR(dropped_rope_strain(1, 1, stretch, false, true), 1.0431, 0.0003) << "1x1 split, stretch " << stretch;
    }
    EXPECT_NEAR(dropped_rope_strain(2, 4, 1.0, true, true), 1.0092, 0.0003) << "2x4 split";
}

// docs/measurements.md, table Z1: a 12-link chain at 8 cm, 50 g a joint, kicked at 3 m/s, falls
// asleep at the reference's step for each of the seven fabrics to ±1.5% (the damping constants were
// fitted to this table: this checks the fit holds, the damping table below is the emergent check). The
// kick is fast against a 2x2 fabric's two sweeps, so denim's and leather's first steps are split
// (docs/solver.md#fast-cloth): leather's damping was refitted with the split on (4.72/s, 240).
TEST(Measurements, EveryFabricSleepsAtTheReferenceStep) {
    const ClothProxy chain = test::chain_proxy(12, 0.08, 0.05);
    const std::pair<const char*, int> reference[] = {{"silk", 770}, {"cotton", 438}, {"denim", 220}, {"leather", 238},
                                                     {"rope", 501},  {"chain", 285},  {"hair", 295}};
    for (const auto& [name, steps] : reference) {
        Solver solver(chain, *find_fabric(name));
        solver.add_velocity({3, 0, 0});
        StepInput in;
        int slept = -1;
        for (int s = 0; s < 1000 && slept < 0; ++s)
            if (solver.step(in).fell_asleep) slept = s;
        EXPECT_NEAR(slept, steps, 0.015 * steps) << name;
    }
}

/// Kinetic energy after 1,500 steps of docs/measurements.md's damping run: a 16-link rope at 5 cm,
/// 20 g a joint (m/h² = 288), stretch rows forced soft at 1e5 N/m (ratio about 350), hanging, kicked
/// sideways at 1 m/s; `damping` in 1/s.
/// The soft rope of table Z2, kicked: its kinetic energy at step 1,500 (the reference's figure) and its
/// largest over steps 1,000-1,499 (the cycle's size, whatever the phase the last step samples).
struct RopeEnergy {
    double at_end = 0, peak = 0;
};

RopeEnergy soft_rope_energy(double damping) {
    static const ClothProxy rope = test::chain_proxy(16, 0.05, 0.02);
    Fabric f = *find_fabric("rope");
    f.stretch_stiffness = 1e5;
    f.strain_limit = false;
    f.damping = damping;
    SolverConstants c;
    c.sleep = false;
    c.speed_substep_ratio = 0;  // the reference's solver never splits a step (docs/measurements.md#the-budget-is-fixed)
    Solver solver(rope, f, c);
    solver.add_velocity({1, 0, 0});
    StepInput in;
    RopeEnergy e;
    for (int s = 0; s < 1500; ++s) {
        solver.step(in);
        if (s >= 1000) e.peak = std::max(e.peak, solver.energy(in.gravity).kinetic);
    }
    e.at_end = solver.energy(in.gravity).kinetic;
    return e;
}

// docs/measurements.md, table Z2. The reference's damping is a unitless 0.12 for its rope where
// weft's rope is 1.88/s (both sleep at step 501-502), so each row's damping is scaled by 1.88/0.12.
// What carries over: undamped, a soft row above the dissipative band holds a limit cycle (reference
// 2.9e-3 J at step 1,500); the library's rope value removes at least two orders of magnitude of it
// (reference: three); the top of the range is at rest to 1e-10 J (reference 1.8e-12). The cycles are
// asserted by their peak over the last 500 steps, not by the energy at step 1,500, which samples one
// phase. The undamped cycle's size itself lives on rounding: a change in the arithmetic's last bits
// (tried, not kept) took its peak from 0.37 to 0.023 J (the step-1,500 figure from 1.44e-2 to
// 1.0e-4), and another (a row's length as its root) to 51 J, so it is asserted as a cycle (over
// 1e-2 J), not at a figure.
// The damped peaks over those three roundings: 0.02 3.8e-4 to 1.2e-3, 0.05 and 0.12 within 10%.
TEST(Measurements, DampingRemovesTheSoftLimitCycle) {
    const double scale = 1.88 / 0.12;
    // With fast steps split (weft's default) the cycle at step 1500 reads 0.755 J: the split is off
    // here, as the reference has none.
    const double undamped = soft_rope_energy(0).peak;
    EXPECT_GT(undamped, 1e-2);
    for (const auto& [damping, centre] : {std::pair{0.02, 6.7e-4}, std::pair{0.05, 4.1e-4}, std::pair{0.12, 1.0e-4}}) {
        const double energy = soft_rope_energy(damping * scale).peak;
        EXPECT_GT(energy, centre / 2) << "damping " << damping;
        EXPECT_LT(energy, centre * 2) << "damping " << damping;
        // An order of magnitude off the cycle; the library's value (0.12) two.
        EXPECT_LT(energy, (damping == 0.12 ? 1e-2 : 0.1) * undamped) << "damping " << damping;
    }
    EXPECT_LT(soft_rope_energy(0.3 * scale).peak, 1e-10);
    EXPECT_LT(soft_rope_energy(1.0 * scale).peak, 1e-10);
}

// docs/measurements.md, table M1: 20 links at 10 cm behind a ±9 m/s sprint for fifteen seconds. The
// clamp column is exact (four times the correction authority); nothing teleports; the headroom is at
// least the reference's smallest, 5.7x. Peaks and the tether column are asserted at weft's values
// (peaks ±3%, tether ±0.0005) and differ from the reference's: the page says by how much and why.
// With a fast step split into more substeps by its sweeps (docs/solver.md#fast-cloth) every fabric of
// the reference's table stays within its 0.35% even behind a frame that changes speed by 9 m/s in one
// step, and so do the bone-chain entries: strand at 3x4, panel at 4x4 (at 3x4 its pose rows took it to
// 1.0040, the page).
TEST(Measurements, SprintTableClampHeadroomAndReach) {
    struct Row {
        const char* name;
        double clamp, peak, tether;
        uint32_t substeps;  ///< over the run
    };
    for (const Row& r : {Row{"silk", 192, 15.98, 1.0024, 2482}, Row{"cotton", 192, 9.39, 1.0022, 2096},
                         Row{"denim", 96, 7.05, 1.0023, 2156}, Row{"leather", 96, 7.03, 1.0016, 2162},
                         Row{"rope", 192, 13.74, 1.0027, 2144}, Row{"chain", 288, 6.87, 1.0033, 1842},
                         Row{"hair", 192, 9.23, 1.0021, 2026}, Row{"strand", 288, 7.96, 1.0034, 2700},
                         Row{"panel", 384, 8.87, 1.0025, 3600}}) {
        const Fabric f = *find_fabric(r.name);
        const SprintRun run = sprint(f);
        EXPECT_EQ(run.teleports, 0) << r.name;
        EXPECT_NEAR(run.clamp, r.clamp, 1e-9) << r.name;
        EXPECT_GE(run.clamp / run.peak, 5.7) << r.name;
        EXPECT_NEAR(run.peak, r.peak, 0.03 * r.peak) << r.name;
        EXPECT_NEAR(run.tether, r.tether, 0.0005) << r.name;
        EXPECT_EQ(run.substeps, r.substeps) << r.name;
        EXPECT_LE(run.tether, 1.0035) << r.name;
    }
}

// docs/measurements.md, table M1, why panel runs 4x4: at strand's 3x4 (never split behind the wave: its
// top link's kick crosses 0.4 of a row a substep) its pose rows hold the chain past the reference's
// 0.35% (without them 1.0035, as cotton at 3x4, split in a few steps); more iterations at 3 substeps barely help, 3x6 coming
// within the bound by less than this table's ±0.0005. Its library budget, 4x4, reaches 1.0025
// (SprintTableClampHeadroomAndReach).
TEST(Measurements, PanelTakesAFourthSubstepNotMoreIterations) {
    struct Row {
        uint32_t substeps, iterations;
        double pose, tether;
        uint32_t substeps_over_the_run;  ///< 900 steps: 2700 is never split
    };
    const double library = sprint(*find_fabric("panel")).tether;
    for (const Row& r : {Row{3, 4, 2, 1.0040, 2700}, Row{3, 4, 0, 1.0035, 2739}, Row{3, 6, 2, 1.0033, 2700}}) {
        Fabric f = *find_fabric("panel");
        f.substeps = r.substeps;
        f.iterations = r.iterations;
        f.pose = r.pose;
        const SprintRun run = sprint(f);
        const std::string label = std::to_string(r.substeps) + "x" + std::to_string(r.iterations) + ", pose " + std::to_string(r.pose);
        EXPECT_NEAR(run.tether, r.tether, 0.0005) << label;
        EXPECT_EQ(run.substeps, r.substeps_over_the_run) << label;
        if (r.substeps == 3 && r.iterations == 4 && r.pose > 0) {
            EXPECT_GT(run.tether, 1.0035) << label;
        }
        EXPECT_GT(run.tether, library + 0.0005) << label << ": the library's 4x4 is further within";
    }
}

// docs/measurements.md, table M1, the tether column and what splits the step: at the fabric's own
// substeps every step (speed_substep_ratio 0, the table as it was) silk, cotton, rope, hair, denim and
// leather reach past the reference's 0.35%; with fast steps split (0.5, the default) they are within
// it, for at most 40% more substeps over the run (silk; the others 2-21%).
TEST(Measurements, SprintFastStepsAreSplitIntoSubsteps) {
    SolverConstants fixed;
    fixed.speed_substep_ratio = 0;
    for (const auto& [name, unsplit] : {std::pair{"silk", 1.0045}, std::pair{"cotton", 1.0039}, std::pair{"rope", 1.0044},
                                        std::pair{"hair", 1.0041}, std::pair{"denim", 1.0056}, std::pair{"leather", 1.0152}}) {
        const Fabric f = *find_fabric(name);
        const SprintRun before = sprint(f, 9.0, 1, fixed), after = sprint(f);
        EXPECT_NEAR(before.tether, unsplit, 0.0005) << name;
        EXPECT_GT(before.tether, 1.0035) << name;
        EXPECT_LE(after.tether, 1.0035) << name;
        EXPECT_EQ(before.substeps, 900u * f.substeps) << name;
        EXPECT_GT(after.substeps, before.substeps) << name;
        EXPECT_LE(after.substeps, 1.4 * before.substeps) << name;
    }
}

// docs/measurements.md, table M1, why the split counts sweeps (docs/solver.md#fast-cloth): split at half
// a row a substep whatever the sweeps (speed_split_sweeps 2, so a 2x2 fabric is credited as many as
// a 2x4 one) denim and leather stay past the bound, with their strain-limit row or without (weft's
// values ±0.0005); counted in sweeps both are within it either way, for 17% more substeps over the
// run than the substep count took (2156 and 2162 against 1846).
TEST(Measurements, SprintSplitCountsSweepsNotSubsteps) {
    SolverConstants by_substeps;
    by_substeps.speed_split_sweeps = 2;
    struct Row {
        const char* name;
        bool strain_row;
        double by_substeps, by_sweeps;
        uint32_t substeps_by_substeps, substeps_by_sweeps;
    };
    for (const Row& r : {Row{"denim", true, 1.0042, 1.0023, 1846, 2156}, Row{"denim", false, 1.0064, 1.0029, 1846, 2156},
                         Row{"leather", true, 1.0164, 1.0016, 1846, 2162}, Row{"leather", false, 1.0067, 1.0017, 1846, 2162}}) {
        Fabric f = *find_fabric(r.name);
        f.strain_limit = r.strain_row;
        const SprintRun before = sprint(f, 9.0, 1, by_substeps), after = sprint(f);
        const std::string label = std::string(r.name) + (r.strain_row ? "" : " without its strain-limit row");
        EXPECT_NEAR(before.tether, r.by_substeps, 0.0005) << label;
        EXPECT_GT(before.tether, 1.0035) << label;
        EXPECT_EQ(before.substeps, r.substeps_by_substeps) << label;
        EXPECT_NEAR(after.tether, r.by_sweeps, 0.0005) << label;
        EXPECT_LE(after.tether, 1.0035) << label;
        EXPECT_EQ(after.substeps, r.substeps_by_sweeps) << label;
    }
}

// docs/measurements.md, table M1 at a sprinter's start: each speed reached over a fifth of a second
// (12 steps, 45 m/s²) keeps every 2x4 and 2x6 fabric and the bone-chain entries within the
// reference's 0.35%; the 2x2 fabrics
// stay just past it (denim 1.0037, leather 1.0038): a steady 45 m/s² is never fast against a row, so
// nothing splits it, and their two sweeps a substep are the limit (the page).
TEST(Measurements, SprintReachWithinTheReferenceBoundWhenSpeedIsReachedInAFifthOfASecond) {
    struct Row {
        const char* name;
        double ramped;  ///< worst tether ratio, each speed reached over 12 steps
    };
    for (const Row& r : {Row{"silk", 1.0020}, Row{"cotton", 1.0017}, Row{"denim", 1.0037}, Row{"leather", 1.0038},
                         Row{"rope", 1.0030}, Row{"chain", 1.0012}, Row{"hair", 1.0017}, Row{"strand", 1.0009},
                         Row{"panel", 1.0008}}) {
        const Fabric f = *find_fabric(r.name);
        const SprintRun run = sprint(f, 9.0, 12);
        EXPECT_EQ(run.teleports, 0) << r.name;
        EXPECT_NEAR(run.tether, r.ramped, 0.0005) << r.name;
        if (f.iterations > 2) {
            EXPECT_LE(run.tether, 1.0035) << r.name;
        } else {
            EXPECT_GT(run.tether, 1.0035) << r.name;
        }
    }
}

// docs/measurements.md, table M2: behind a ±2 m/s square wave the tip lags the reference's four
// figures to ±0.02 m; zero at zero to the last digit; and the dial is proportional where the rope's
// swing is: inertia 0.5 gives 0.5-0.6 of the lag of 1, 0.25 about a quarter. (Behind ±9 m/s a kick of
// 4.5 m/s already swings a 1 m rope past horizontal, so its lag is its length at any inertia ≥ 0.5:
// the page.)
TEST(Measurements, InertiaLagMatchesTheReferenceAndIsADial) {
    // ±2 m/s, not the reference's ±9, where weft's lag is a known divergence (Motion.InertiaIsADialAndZeroMeansNoLag):
    // weft's figures, the reference's 0.2031, 0.3681, 0.5249, 0.6522 beside them on the page; within a
    // third of the least step between two inertias (0.16 m), and tighter.
    EXPECT_EQ(test::inertia_lag(0.0, 2.0), 0.0);
    const double weft[4] = {0.1843, 0.3649, 0.5267, 0.6643};
    double lag[4];
    for (int k = 0; k < 4; ++k) {
        lag[k] = test::inertia_lag(0.25 * (k + 1), 2.0);
        EXPECT_NEAR(lag[k], weft[k], 0.001) << "inertia " << 0.25 * (k + 1);
    }
    EXPECT_NEAR(lag[1] / lag[3], 0.55, 0.05);
    EXPECT_NEAR(lag[0] / lag[3], 0.28, 0.05);
    // At a walk the dial is linear to within 5%.
    const double walk_half = test::inertia_lag(0.5, 0.5), walk_full = test::inertia_lag(1.0, 0.5);
    EXPECT_NEAR(walk_half / walk_full, 0.5, 0.025);
}

}  // namespace
}  // namespace weft
