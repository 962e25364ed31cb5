// docs/solver.md#lanes: the particles of one colour solved side by side (SIMD lanes) or split over
// threads give the one-at-a-time sweep's result bit for bit, and the sweep falls back to one at a
// time when a release leaves two free particles of one colour on a row.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <vector>

#include "solver/model.h"
#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

struct Swing {
    std::vector<Vec3> x;
    uint64_t vertex_updates = 0, capped_updates = 0, climbing_updates = 0, iterations = 0;
    double worst_climb = 0;
    std::vector<double> largest_move;  ///< each step's last sweep's (the residual target's measure)
};

/// The 32x32 sheet, full rows, dropped and swung for `steps` steps (the holder moves, so the rows stay
/// busy: strain rows switch on and off, the trust region caps some updates); the first pin released
/// half way when `release` is set.
Swing swing(const ClothProxy& sheet, SolverConstants c, int steps, bool release = false) {
    Fabric f = *find_fabric("cotton");
    f.strain_limit = true;
    f.slack = 0.5;
    c.sleep = false;
    Solver solver(sheet, f, c);
    Swing run;
    StepInput in;
    in.holders.resize(sheet.pins.size());
    for (int s = 0; s < steps; ++s) {
        in.holders[0].position = {0.2 * std::sin(s * 0.05), 0, 0};
        if (release && s == steps / 2) solver.release(0);
        const StepStats stats = solver.step(in);
        run.vertex_updates += stats.vertex_updates;
        run.capped_updates += stats.capped_updates;
        run.climbing_updates += stats.climbing_updates;
        run.worst_climb = std::max(run.worst_climb, stats.worst_climb);
        run.iterations += stats.iterations;
        run.largest_move.push_back(stats.largest_move);
    }
    run.x = solver.state().x;
    return run;
}

/// The lanes with a pass after every sweep for the dual update, none of it in the next sweep
/// (docs/solver.md#duals-in-the-sweep).
SolverConstants duals_in_passes(SolverConstants c = {}) {
    c.defer_duals = false;
    return c;
}

/// The lanes four wide (AVX2) even where the machine has eight (AVX-512): both widths give the
/// one-at-a-time result, so each test runs both where it can.
SolverConstants four_lanes(SolverConstants c = {}) {
    c.simd_lanes = 4;
    return c;
}

void expect_identical(const Swing& a, const Swing& b) {
    ASSERT_EQ(a.x.size(), b.x.size());
    EXPECT_EQ(std::memcmp(a.x.data(), b.x.data(), a.x.size() * sizeof(Vec3)), 0) << "positions differ in some bit";
    EXPECT_EQ(a.vertex_updates, b.vertex_updates);
    EXPECT_EQ(a.capped_updates, b.capped_updates);
    EXPECT_EQ(a.climbing_updates, b.climbing_updates);
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.worst_climb, b.worst_climb);
    ASSERT_EQ(a.largest_move.size(), b.largest_move.size());
    EXPECT_EQ(std::memcmp(a.largest_move.data(), b.largest_move.data(), a.largest_move.size() * sizeof(double)), 0)
        << "a step's largest move differs in some bit";
    EXPECT_GT(a.vertex_updates, 0u);
}

TEST(Lanes, SimdMatchesOneAtATimeBitForBit) {
    const ClothProxy sheet = test::grid_sheet_proxy(32, 32, 0.02, 0.5);
    SolverConstants scalar;
    scalar.simd = false;
    const Swing a = swing(sheet, scalar, 120);
    expect_identical(a, swing(sheet, SolverConstants{}, 120));
    expect_identical(a, swing(sheet, duals_in_passes(), 120));
    expect_identical(a, swing(sheet, four_lanes(), 120));
    expect_identical(a, swing(sheet, four_lanes(duals_in_passes()), 120));
}

/// A 16x16 sheet with a stiff soft stretch (1e6 N/m, far into the dissipative band) and a pose row,
/// kicked: updates that climb, for the energy audit to count.
Swing kicked(SolverConstants c) {
    const ClothProxy sheet = test::grid_sheet_proxy(16, 16, 0.02, 0.3);
    Fabric f = *find_fabric("cotton");
    f.stretch_stiffness = 1e6;
    f.pose = 2.0;
    c.energy_audit = true;
    c.sleep = false;
    Solver solver(sheet, f, c);
    solver.add_velocity(Vec3{3, -8, 5});
    Swing run;
    for (int s = 0; s < 30; ++s) {
        const StepStats stats = solver.step(StepInput{});
        run.vertex_updates += stats.vertex_updates;
        run.capped_updates += stats.capped_updates;
        run.climbing_updates += stats.climbing_updates;
        run.worst_climb = std::max(run.worst_climb, stats.worst_climb);
        run.largest_move.push_back(stats.largest_move);
    }
    run.x = solver.state().x;
    return run;
}

TEST(Lanes, PoseRowsAndTheEnergyAuditMatchOneAtATime) {
    // The pose rows are summed in the lanes, after the inertial term and the slack row, as the scalar
    // update sums them; the audit reads each lane's Hessian back out of the lanes. 30 steps of 256 particles: cheap under the sanitizers.
    SolverConstants scalar;
    scalar.simd = false;
    const Swing a = kicked(scalar);
    EXPECT_GT(a.climbing_updates, 0u) << "the audit has something to count";
    expect_identical(a, kicked(SolverConstants{}));
    expect_identical(a, kicked(duals_in_passes()));
    expect_identical(a, kicked(four_lanes(duals_in_passes())));
}

TEST(Lanes, NarrowBlocksInFourLanesMatchOneAtATime) {
    // With eight lanes a block of at most four particles is swept, and its duals updated, in four
    // (docs/solver.md#lanes, narrow blocks): a small flag's colours are a few particles each, so its
    // blocks are both narrow and wide; self-contact on, as validation steps it. 90 steps of 48 particles.
    const ClothProxy flag = test::flag_proxy(8, 6, 0.05, 0.4);
    const SweepBlocks blocks = Solver(flag, *find_fabric("cotton")).model()->sweep;
    size_t narrow = 0;
    for (uint32_t w : blocks.width) narrow += w <= SweepBlocks::lanes / 2 ? 1 : 0;
    EXPECT_GT(narrow, 0u) << "a narrow block to take four lanes";
    EXPECT_LT(narrow, blocks.blocks()) << "a wide block to take eight";
    SolverConstants scalar;
    scalar.simd = false;
    scalar.self_contact = true;
    SolverConstants lanes = scalar;
    lanes.simd = true;
    const Swing a = swing(flag, scalar, 90);
    expect_identical(a, swing(flag, lanes, 90));
    expect_identical(a, swing(flag, duals_in_passes(lanes), 90));
    expect_identical(a, swing(flag, four_lanes(lanes), 90));
}

TEST(Lanes, StrainTargetStopsAtTheSameSweepInLanes) {
    // The strain target's test runs four edges at a time beside the lanes: the same sweeps, the same
    // cloth. 16x16, 60 steps of the swing, at most 12 sweeps a substep.
    const ClothProxy sheet = test::grid_sheet_proxy(16, 16, 0.02, 0.3);
    SolverConstants scalar;
    scalar.simd = false;
    scalar.strain_target = 0.02;
    scalar.max_iterations = 12;
    SolverConstants lanes = scalar;
    lanes.simd = true;
    const Swing a = swing(sheet, scalar, 60);
    EXPECT_GT(a.iterations, 60u) << "some substep sweeps more than once";
    expect_identical(a, swing(sheet, lanes, 60));
    expect_identical(a, swing(sheet, four_lanes(lanes), 60));
}

TEST(Lanes, ThreadsMatchOneThreadBitForBit) {
    const ClothProxy sheet = test::grid_sheet_proxy(24, 20, 0.02, 0.4);
    SolverConstants one;
    SolverConstants three;
    three.threads = 3;
    three.thread_min_particles = 1;  // split even this sheet's colours
    expect_identical(swing(sheet, one, 80), swing(sheet, three, 80));
    expect_identical(swing(sheet, one, 80), swing(sheet, duals_in_passes(three), 80));
    expect_identical(swing(sheet, one, 80), swing(sheet, four_lanes(duals_in_passes(three)), 80));
    three.simd = false;
    one.simd = false;
    expect_identical(swing(sheet, one, 80), swing(sheet, three, 80));
}

/// Lends up to `slots` threads; counts what it lent and what came back.
class Slots final : public SpareCapacity {
public:
    explicit Slots(int slots) : free(slots) {}
    bool try_take() override {
        if (free.load() <= 0) return false;
        --free;
        ++taken;
        return true;
    }
    void give_back() override { ++free; }
    std::atomic<int> free, taken{0};
};

// The pool's helpers come from a budget (SolverConstants::spare): with one slot lent, the colours split
// in two, bit for bit the one-thread result; the slot comes back when the solver ends. With none
// free, the solver runs on its caller's thread alone, asking again as it goes.
TEST(Lanes, ThreadsOnLentSlotsMatchOneThreadAndGiveThemBack) {
    const ClothProxy sheet = test::grid_sheet_proxy(16, 12, 0.02, 0.2);
    const Swing one = swing(sheet, SolverConstants{}, 20);
    SolverConstants lent;
    lent.threads = 4;
    lent.thread_min_particles = 1;
    Slots slot(1);
    lent.spare = &slot;
    expect_identical(one, swing(sheet, lent, 20));
    EXPECT_EQ(slot.taken.load(), 1);  // one helper, kept from colour to colour
    EXPECT_EQ(slot.free.load(), 1);
    Slots none(0);
    lent.spare = &none;
    expect_identical(one, swing(sheet, lent, 20));
    EXPECT_EQ(none.taken.load(), 0);
}

TEST(Lanes, ReleaseThatCouplesAColourMatchesOneAtATime) {
    // The held top row shares colours along its edges; released, those particles are free neighbours
    // of one colour, and the sweep must go one at a time again.
    const ClothProxy sheet = test::grid_sheet_proxy(16, 12, 0.02, 0.2);
    const auto model = SolverModel::build(sheet, *find_fabric("cotton"));
    EXPECT_FALSE(model->sweep.same_colour_pairs.empty());
    EXPECT_TRUE(model->sweep.independent(std::vector<double>(sheet.inverse_mass.begin(), sheet.inverse_mass.end())));
    EXPECT_FALSE(model->sweep.independent(std::vector<double>(sheet.particle_count(), 1.0)));
    SolverConstants scalar;
    scalar.simd = false;
    SolverConstants threads;
    threads.threads = 2;
    threads.thread_min_particles = 1;
    const Swing a = swing(sheet, scalar, 60, true);
    expect_identical(a, swing(sheet, SolverConstants{}, 60, true));
    expect_identical(a, swing(sheet, threads, 60, true));
    expect_identical(a, swing(sheet, duals_in_passes(threads), 60, true));
    expect_identical(a, swing(sheet, four_lanes(duals_in_passes(threads)), 60, true));
}

TEST(Lanes, BlocksCoverEachColourOnceWithItsRowsInOrder) {
    const ClothProxy sheet = test::grid_sheet_proxy(13, 7, 0.02, 0.1);
    const auto model = SolverModel::build(sheet, *find_fabric("cotton"));
    const SweepBlocks& b = model->sweep;
    const DistanceModel& d = model->distance;
    ASSERT_EQ(b.colour_blocks.size(), sheet.colour_ranges.size());
    std::vector<int> seen(sheet.particle_count(), 0);
    for (size_t c = 0; c + 1 < sheet.colour_ranges.size(); ++c)
        for (uint32_t k = b.colour_blocks[c]; k < b.colour_blocks[c + 1]; ++k) {
            ASSERT_GE(b.width[k], 1u);
            ASSERT_LE(b.width[k], SweepBlocks::lanes);
            for (uint32_t lane = 0; lane < b.width[k]; ++lane) {
                const uint32_t i = b.first[k] + lane;
                EXPECT_GE(i, sheet.colour_ranges[c]);
                EXPECT_LT(i, sheet.colour_ranges[c + 1]);
                ++seen[i];
                const uint32_t rows = d.offsets[i + 1] - d.offsets[i];
                const uint32_t groups = b.offsets[k + 1] - b.offsets[k];
                ASSERT_GE(groups, rows);
                for (uint32_t q = 0; q < groups; ++q) {
                    const size_t at = (b.offsets[k] + q) * SweepBlocks::lanes + lane;
                    const LinkIncidence want = q < rows ? d.incidences[d.offsets[i] + q] : LinkIncidence{i, 0};
                    EXPECT_EQ(b.other_coordinate[at], static_cast<int32_t>(want.other * 3));
                    EXPECT_EQ(b.row[at], want.link);
                }
            }
        }
    for (uint32_t i = 0; i < sheet.particle_count(); ++i) EXPECT_EQ(seen[i], 1) << "particle " << i;
}

TEST(Lanes, ThreadsWaveMatchesOneThreadBitForBit) {
    // 64x64: 1024 particles a colour, 16 chunks of the wave, 8 a thread's slab: the threads' wave.
    const ClothProxy sheet = test::grid_sheet_proxy(64, 64, 0.02, 2.0);
    SolverConstants two;
    two.threads = 2;
    two.thread_min_particles = 1;
    ASSERT_FALSE(SolverModel::build(sheet, *find_fabric("cotton"), two)->sweep.part_chunks.empty());
    const Swing one = swing(sheet, SolverConstants{}, 8, true);
    expect_identical(one, swing(sheet, two, 8, true));
    expect_identical(one, swing(sheet, duals_in_passes(two), 8, true));
}

TEST(Lanes, WaveRunsEachBlockOnceAfterItsLowerColouredNeighbours) {
    // 48x48: 576 particles a colour, nine chunks of the wave each, so the colours interleave.
    const ClothProxy sheet = test::grid_sheet_proxy(48, 48, 0.02, 0.5);
    const auto model = SolverModel::build(sheet, *find_fabric("cotton"));
    const SweepBlocks& b = model->sweep;
    std::vector<uint32_t> colour(sheet.particle_count()), when(sheet.particle_count(), UINT32_MAX);
    for (uint32_t c = 0; c + 1 < sheet.colour_ranges.size(); ++c)
        for (uint32_t i = sheet.colour_ranges[c]; i < sheet.colour_ranges[c + 1]; ++i) colour[i] = c;
    uint32_t step = 0, switches = 0;
    for (size_t r = 0; r < b.wave.size(); ++r) {
        if (r > 0 && colour[b.first[b.wave[r][0]]] != colour[b.first[b.wave[r - 1][0]]]) ++switches;
        for (uint32_t k = b.wave[r][0]; k < b.wave[r][1]; ++k) {
            EXPECT_EQ(colour[b.first[k]], colour[b.first[b.wave[r][0]]]) << "a run crosses colours at block " << k;
            for (uint32_t lane = 0; lane < b.width[k]; ++lane) {
                EXPECT_EQ(when[b.first[k] + lane], UINT32_MAX) << "particle " << b.first[k] + lane << " twice";
                when[b.first[k] + lane] = step++;
            }
        }
    }
    ASSERT_EQ(step, sheet.particle_count());
    // A wave, not the colours one after another (that would be colour_count() - 1 switches).
    EXPECT_GT(switches, 4 * (sheet.colour_count() - 1));
    auto check = [&](uint32_t i, uint32_t j) {
        if (colour[i] == colour[j]) return;
        if (colour[i] > colour[j]) std::swap(i, j);
        EXPECT_LT(when[i], when[j]) << "particle " << j << " (colour " << colour[j] << ") before its neighbour " << i;
    };
    for (const auto& e : sheet.edges) check(e[0], e[1]);
    for (const auto& h : sheet.hinges)
        for (int u = 0; u < 4; ++u)
            for (int v = u + 1; v < 4; ++v) check(h[u], h[v]);
}

TEST(Lanes, RowsLieInTheOrderTheWaveFirstReadsThem) {
    // 16 strands of 12 links: stretch edges and skips, five colours, a few chunks of the wave each.
    const ClothProxy rig = test::strand_rig_proxy(16, 12, 0.02, 0.01);
    const auto model = SolverModel::build(rig, *find_fabric("cotton"));
    const DistanceModel& d = model->distance;
    const SweepBlocks& b = model->sweep;
    ASSERT_EQ(d.edge_count, rig.edges.size());
    ASSERT_EQ(d.count(), rig.edges.size() + rig.skips.size());
    ASSERT_GT(d.count(), d.edge_count);
    // Every proxy row is somewhere, with its own ends and length, the edges before the skips.
    std::vector<uint32_t> authored_of(d.count(), UINT32_MAX);
    for (uint32_t a = 0; a < d.count(); ++a) {
        const uint32_t r = d.authored[a];
        ASSERT_LT(r, d.count());
        ASSERT_EQ(authored_of[r], UINT32_MAX) << "row " << r << " twice";
        authored_of[r] = a;
        const bool edge = a < d.edge_count;
        EXPECT_EQ(r < d.edge_count, edge);
        EXPECT_EQ(d.ends[r], edge ? rig.edges[a] : rig.skips[a - d.edge_count]);
        EXPECT_EQ(d.rest[r], edge ? rig.rest_length[a] : rig.skip_rest_length[a - d.edge_count]);
    }
    // Each particle sums its rows in the proxy's order, whatever the layout (the bits depend on it).
    for (uint32_t i = 0; i < rig.particle_count(); ++i)
        for (uint32_t q = d.offsets[i] + 1; q < d.offsets[i + 1]; ++q)
            EXPECT_LT(authored_of[d.incidences[q - 1].link], authored_of[d.incidences[q].link]) << "particle " << i;
    // The wave's first reads of each kind walk the rows in storage order.
    std::vector<uint8_t> read(d.count(), 0);
    uint32_t next_edge = 0, next_skip = static_cast<uint32_t>(d.edge_count);
    for (const auto& run : b.wave)
        for (uint32_t k = run[0]; k < run[1]; ++k)
            for (uint32_t q = 0; q < b.offsets[k + 1] - b.offsets[k]; ++q)
                for (uint32_t lane = 0; lane < b.width[k]; ++lane) {
                    const uint32_t i = b.first[k] + lane;
                    if (d.offsets[i] + q >= d.offsets[i + 1]) continue;
                    const uint32_t r = d.incidences[d.offsets[i] + q].link;
                    if (read[r]) continue;
                    read[r] = 1;
                    EXPECT_EQ(r, r < d.edge_count ? next_edge++ : next_skip++) << "block " << k << " lane " << lane;
                }
    EXPECT_GT(next_edge, 0u);
    EXPECT_GT(next_skip, d.edge_count);
}

/// Each stretch edge with a free end in exactly one incidence vector's DualLanes mask, from the end
/// swept first.
void expect_duals_from_the_first_end(const ClothProxy& p, const SolverModel& model, const std::vector<double>& w) {
    const DistanceModel& d = model.distance;
    const SweepBlocks& b = model.sweep;
    const uint32_t lanes = SweepBlocks::lanes;
    const DualLanes duals = sweep_blocks::lay_out_duals(b, p, d, w);
    std::vector<uint32_t> colour(p.particle_count());
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c)
        for (uint32_t i = p.colour_ranges[c]; i < p.colour_ranges[c + 1]; ++i) colour[i] = static_cast<uint32_t>(c);
    std::vector<int> updated(d.count(), 0);
    ASSERT_EQ(duals.mask.size(), b.offsets.back());
    for (uint32_t k = 0; k < b.blocks(); ++k)
        for (uint32_t q = 0; q < b.offsets[k + 1] - b.offsets[k]; ++q)
            for (uint32_t lane = 0; lane < lanes; ++lane) {
                const uint16_t mask = duals.mask[b.offsets[k] + q];
                const bool hard = mask & (1u << lane), strain = mask & (1u << (lanes + lane));
                if (!hard && !strain) continue;
                ASSERT_LT(lane, b.width[k]);
                const uint32_t i = b.first[k] + lane;
                ASSERT_LT(d.offsets[i] + q, d.offsets[i + 1]) << "block " << k << " names a padded incidence";
                const LinkIncidence inc = d.incidences[d.offsets[i] + q];
                EXPECT_EQ(b.row[(b.offsets[k] + q) * lanes + lane], inc.link);
                ASSERT_LT(inc.link, d.edge_count) << "a skip carries no multiplier";
                EXPECT_EQ(hard, d.hard[inc.link] != 0);
                EXPECT_EQ(strain, d.strain_rows);
                EXPECT_NE(w[i], 0.0) << "a kinematic particle is never swept";
                EXPECT_TRUE(w[inc.other] == 0 || colour[i] < colour[inc.other]) << "edge " << inc.link << " after its other end moved";
                ++updated[inc.link];
            }
    for (uint32_t e = 0; e < d.edge_count; ++e) {
        const bool free_end = w[d.ends[e][0]] != 0 || w[d.ends[e][1]] != 0;
        EXPECT_EQ(updated[e], free_end ? 1 : 0) << "edge " << e << " (" << d.ends[e][0] << ", " << d.ends[e][1] << ")";
    }
}

TEST(Lanes, AHubOnThousandsOfRowsUpdatesItsDualsInTheSweep) {
    // A free hub on 16,400 edges to a held ring: every edge's multipliers from the hub's lane, in the
    // sweep and in the pass after it, bit for bit as one at a time.
    test::ProxyDraft d;
    const uint32_t spokes = 16400;
    d.position.push_back({0, -0.05, 0});
    d.mass.push_back(0.01);
    d.held.push_back(0);
    for (uint32_t k = 0; k < spokes; ++k) {
        const double a = 2 * 3.14159265358979 * k / spokes;
        d.position.push_back({0.1 * std::cos(a), 0, 0.1 * std::sin(a)});
        d.mass.push_back(0.01);
        d.held.push_back(1);
        d.edges.push_back({0, k + 1});
    }
    d.pins.push_back({1});
    const ClothProxy fan = test::finish_proxy(d);
    Fabric f = *find_fabric("cotton");
    f.strain_limit = true;
    const auto model = SolverModel::build(fan, f);
    const DualLanes duals = sweep_blocks::lay_out_duals(model->sweep, fan, model->distance,
                                                        std::vector<double>(fan.inverse_mass.begin(), fan.inverse_mass.end()));
    size_t hub_edges = 0;
    for (const uint16_t mask : duals.mask) hub_edges += static_cast<size_t>(__builtin_popcount(mask & 0xFFu));
    EXPECT_EQ(hub_edges, spokes);
    auto drop = [&](SolverConstants c) {
        c.sleep = false;
        Solver solver(fan, f, c);
        solver.add_velocity(Vec3{0.5, -1, 0.2});
        for (int s = 0; s < 10; ++s) solver.step(StepInput{});
        return solver.state().x;
    };
    SolverConstants scalar;
    scalar.simd = false;
    const std::vector<Vec3> a = drop(scalar);
    for (const SolverConstants& c : {SolverConstants{}, duals_in_passes(), four_lanes(duals_in_passes())}) {
        const std::vector<Vec3> b = drop(c);
        ASSERT_EQ(a.size(), b.size());
        EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)), 0) << "positions differ in some bit";
    }
    EXPECT_NE(a[test::particle(fan, 0)].y, -0.05) << "the hub moved";
}

TEST(Lanes, DualsInTheSweepComeOnceFromTheEndSweptFirst) {
    // The held top row: edges to kinematic particles of higher colours too; then a particle in the
    // middle grabbed as well: the masks follow the masses.
    const ClothProxy sheet = test::grid_sheet_proxy(13, 9, 0.02, 0.1);
    Fabric f = *find_fabric("cotton");
    f.strain_limit = true;
    const auto model = SolverModel::build(sheet, f);
    ASSERT_TRUE(model->distance.strain_rows);
    std::vector<double> w(sheet.inverse_mass.begin(), sheet.inverse_mass.end());
    expect_duals_from_the_first_end(sheet, *model, w);
    const uint32_t grabbed = sheet.colour_ranges[sheet.colour_count() - 1];  // a particle of the highest colour
    ASSERT_NE(w[grabbed], 0.0);
    w[grabbed] = 0;
    ASSERT_TRUE(model->sweep.independent(w));
    expect_duals_from_the_first_end(sheet, *model, w);
}

}  // namespace
}  // namespace weft
