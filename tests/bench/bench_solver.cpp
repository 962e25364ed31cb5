// The solver's reference workloads (docs/solver.md#budgets): a 32x32 sheet at 2 cm, 0.5 kg, hung from its
// top edge and dropped through 90°, 2 substeps x 4 iterations at 60 Hz. Each benchmark repetition is a
// round on a fresh cloth (a benchmark that reuses a settled cloth measures a converged mesh):
// 600 untimed warm-up frames, then 900 timed ones; the headline is the minimum of the round minima
// (the `min` aggregate of frame_min_ms). Sleep is off so a resting sheet keeps costing a full step.
//
// The attribution follows the reference's warning: only the whole running step is timed, varying one thing at a
// time (each variant drops one row kind or the hold-line block from the full workload), never an
// isolated loop over one accumulate.
//
// With WEFT_HAVE_BULLET the same sheet runs in Bullet's btSoftBody (position-based, float as Debian
// builds it) like for like: the same particles and masses, exactly weft's stretch edges as links,
// bending as one link across each of weft's hinges (its two wing tips) at the stiffness that matches
// the fabric's bend ratio, the top edge fixed, 2 substeps of 4 position iterations; time per frame and
// the worst strain over the same links after the drop, side by side with weft's.
//
// BM_SheetSprint carries the full-rows 1k sheet behind validation's sprint (the frame at +9 m/s, dead
// stop, -9 m/s, dead stop, a second each: 240 timed frames a round, after 120 untimed ones hanging) at
// the fabric's own substeps every step (arg 0) and with fast steps split (arg 1, the default,
// docs/solver.md#fast-cloth): the split's cost is the ratio of their mean frames, and its substeps a frame.
//
// BM_SheetHang hangs the same sheet for a minute after its drop and reports its energy drift, worst
// strain and late jitter: the figures a float solver is compared on (scripts/float_solver.sh).
//
// BM_SheetScaling steps the 1k sheet and a 256x256 one (65,536 particles) on 1 and 2 threads and
// reports the ratio of their median frames (linear in size is a ratio of 64), by the wall clock and by
// the process's CPU time (what a loaded machine leaves comparable).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <ctime>

#include "solver/checked_step.h"
#include "solver/solver.h"
#include "test_proxies.h"

#ifdef WEFT_HAVE_BULLET
// Bullet's headers are not -Wextra clean (unused parameters in inline virtuals); they are not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <BulletSoftBody/btSoftBodyHelpers.h>
#include <BulletSoftBody/btSoftBodyRigidBodyCollisionConfiguration.h>
#include <BulletSoftBody/btSoftRigidDynamicsWorld.h>
#include <btBulletDynamicsCommon.h>
#pragma GCC diagnostic pop
#endif

namespace {

using namespace weft;

constexpr int kWarmup = 600;
constexpr int kFrames = 900;
constexpr int kRounds = 3;
constexpr uint32_t kSide = 32;
constexpr double kSpacing = 0.02;
constexpr double kMass = 0.5;

struct Variant {
    const char* name;
    bool strain = true, tether = true, slack = true, bend = true, hold_line = true, simd = true;
    uint32_t substeps = 2;
    double residual = 0;  ///< > 0: iterate each substep to this residual (SolverConstants::residual_tolerance)
    double strain_target = 0;  ///< > 0: iterate each substep to this strain target (SolverConstants::strain_target)
};

// 0 is the reference's first workload (stretch and hinge rows only), 1 the full one; the rest are
// the full one less one thing.
const Variant kVariants[] = {
    {"M0 rows (stretch + bend, no hold-line block)", false, false, false, true, false},
    {"full rows (+ strain limit, tether, slack)"},
    {"full rows, one particle at a time (no SIMD lanes)", true, true, true, true, true, false},
    {"full - strain limit", false, true, true, true, true},
    {"full - tether", true, false, true, true, true},
    {"full - slack", true, true, false, true, true},
    {"full - bend", true, true, true, false, true},
    {"full - hold-line block", true, true, true, true, false},
    // Iterating to a target (docs/solver.md#iterating-to-a-target) instead of 4 sweeps a substep: to a
    // residual of 1e-3 of the shortest row, and to a strain target of 2% (the comparison with Bullet at
    // matched quality: the sweeps that hold every stretch edge within 1.02), at 2 and 1 substeps a frame.
    {"full rows, to a residual of 1e-3 (2 substeps)", true, true, true, true, true, true, 2, 1e-3, 0},
    {"full rows, to a strain of 1.02 (2 substeps)", true, true, true, true, true, true, 2, 0, 0.02},
    {"full rows, to a strain of 1.02 (1 substep)", true, true, true, true, true, true, 1, 0, 0.02},
};

const ClothProxy& sheet() {
    static const ClothProxy proxy = test::grid_sheet_proxy(kSide, kSide, kSpacing, kMass);
    return proxy;
}

double worst_strain(const std::vector<Vec3>& x, const ClothProxy& p) {
    double worst = 0;
    for (size_t e = 0; e < p.edges.size(); ++e)
        worst = std::max(worst, distance(x[p.edges[e][0]], x[p.edges[e][1]]) / p.rest_length[e]);
    return worst;
}

void BM_SheetStep(benchmark::State& state) {
    const Variant& v = kVariants[state.range(0)];
    Fabric f = *find_fabric("cotton");
    f.substeps = v.substeps;
    f.iterations = 4;
    f.strain_limit = v.strain;
    f.slack = v.slack ? 0.5 : 1.0;
    f.bend = v.bend ? f.bend : 0.0;
    SolverConstants c;
    c.tethers = v.tether;
    c.hold_line = v.hold_line;
    c.simd = v.simd;
    c.sleep = false;
    c.residual_tolerance = v.residual;
    c.strain_target = v.strain_target;
    Solver solver(sheet(), f, c);
    StepInput in;
    double drop_strain = 0;  // the worst over the drop: a budget that only holds at rest does not pass
    uint64_t drop_sweeps = 0;
    for (int s = 0; s < kWarmup; ++s) {
        drop_sweeps += solver.step(in).iterations;
        drop_strain = std::max(drop_strain, worst_strain(solver.state().x, sheet()));
    }
    double best = INFINITY;
    uint64_t sweeps = 0, frames = 0;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        sweeps += solver.step(in).iterations;
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        state.SetIterationTime(seconds);
        best = std::min(best, seconds);
        ++frames;
    }
    const Solver::RowCounts rows = solver.row_counts();
    state.counters["frame_min_ms"] = best * 1e3;
    state.counters["worst_strain"] = worst_strain(solver.state().x, sheet());
    state.counters["drop_strain"] = drop_strain;
    state.counters["drop_sweeps"] = static_cast<double>(drop_sweeps) / kWarmup;
    state.counters["sweeps"] = static_cast<double>(sweeps) / static_cast<double>(frames);
    state.SetLabel(std::string(v.name) + ": " + std::to_string(sheet().particle_count()) + " particles, " +
                   std::to_string(rows.stretch) + " stretch, " + std::to_string(rows.strain_limit) + " strain, " +
                   std::to_string(rows.hinge) + " bend, " + std::to_string(rows.tether + rows.slack) + " leash, " +
                   std::to_string(sheet().colour_count()) + " colours");
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

BENCHMARK(BM_SheetStep)
    ->DenseRange(0, static_cast<int>(std::size(kVariants)) - 1)
    ->Iterations(kFrames)
    ->Repetitions(kRounds)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", min_of);

/// What the step a runtime takes (solver/checked_step.h: the input checked, the state copied before
/// and the result checked for non-finite values, so a bad step can be undone) costs over the bare
/// step: range(0) = 0 the bare step, 1 the checked one, on the full-rows reference workload.
void BM_CheckedStep(benchmark::State& state) {
    Fabric f = *find_fabric("cotton");
    f.substeps = 2;
    f.iterations = 4;
    f.slack = 0.5;
    SolverConstants c;
    c.sleep = false;
    Solver solver(sheet(), f, c);
    StepInput in;
    for (int s = 0; s < kWarmup; ++s) solver.step(in);
    SolverState undo;
    const bool checked = state.range(0) == 1;
    double best = INFINITY;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        if (checked) {
            if (checked_step(solver, in, &undo) != StepCheck::ok) state.SkipWithError("the checked step refused the workload");
        } else {
            solver.step(in);
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        state.SetIterationTime(seconds);
        best = std::min(best, seconds);
    }
    state.counters["frame_min_ms"] = best * 1e3;
    state.SetLabel(std::string(checked ? "checked step (copy, check, undo on failure)" : "bare step") + ": " +
                   std::to_string(sheet().particle_count()) + " particles");
}

BENCHMARK(BM_CheckedStep)
    ->Arg(0)
    ->Arg(1)
    ->Iterations(kFrames)
    ->Repetitions(kRounds)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", min_of);

/// The full-rows workload's fabric: cotton at 2 substeps x 4 sweeps, slack 0.5 (the strain row is cotton's own).
Fabric full_rows_fabric() {
    Fabric f = *find_fabric("cotton");
    f.substeps = 2;
    f.iterations = 4;
    f.slack = 0.5;
    return f;
}

/// range(0) = metres the sheet hangs from the frame's origin, along x (where a float state's
/// x - x~ cancels: the spacing is 2 cm, a float's step at 100 m is 7.6 µm). The drop, then a minute's
/// hang at the workload's 2 x 4: the energy (the solver's, gravity along -y so the offset leaves it
/// alone) at the hang's start and end, its largest climb above the lowest value so far (a damped hang
/// only loses energy), the largest kinetic energy over the last half (jitter that never settles) and the
/// worst strain (docs/measurements.md#float-or-double).
void BM_SheetHang(benchmark::State& state) {
    const double offset = static_cast<double>(state.range(0));
    ClothProxy proxy = sheet();
    for (Vec3& p : proxy.rest_position) p.x += offset;
    const Fabric f = full_rows_fabric();
    SolverConstants c;
    c.sleep = false;
    constexpr int kHang = 3600;
    double start = 0, end = 0, lowest = 0, climb = 0, jitter = 0, strain = 0, seconds = 0;
    std::clock_t cpu = 0;
    for (auto _ : state) {
        Solver solver(proxy, f, c);
        StepInput in;
        for (int s = 0; s < kWarmup; ++s) solver.step(in);
        start = lowest = solver.energy(in.gravity).total();
        climb = jitter = strain = 0;
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        for (int s = 0; s < kHang; ++s) {
            solver.step(in);
            const Energy e = solver.energy(in.gravity);
            climb = std::max(climb, e.total() - lowest);
            lowest = std::min(lowest, e.total());
            if (s >= kHang / 2) jitter = std::max(jitter, e.kinetic);
            strain = std::max(strain, worst_strain(solver.state().x, proxy));
        }
        seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        cpu = std::clock() - c0;
        end = solver.energy(in.gravity).total();
        state.SetIterationTime(seconds);
    }
    // The process's CPU time (a loaded machine's wall clock counts the other programs' turns), the
    // energy and strain read every frame included.
    state.counters["cpu_frame_ms"] = static_cast<double>(cpu) * 1e3 / CLOCKS_PER_SEC / kHang;
    state.counters["energy_start_J"] = start;
    state.counters["energy_drift_J"] = end - start;
    state.counters["energy_climb_J"] = climb;
    state.counters["kinetic_late_max_J"] = jitter;
    state.counters["worst_strain"] = strain;
    state.SetLabel("a minute's hang " + std::to_string(static_cast<int>(offset)) + " m from the origin");
}

BENCHMARK(BM_SheetHang)->Arg(0)->Arg(100)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_SheetSprint(benchmark::State& state) {
    const Fabric f = full_rows_fabric();
    SolverConstants c;
    c.sleep = false;
    if (state.range(0) == 0) c.speed_substep_ratio = 0;
    double frame_ms = 0, strain = 0;
    uint64_t substeps = 0, frames = 0;
    for (auto _ : state) {
        Solver solver(sheet(), f, c);
        StepInput in;
        for (int s = 0; s < 120; ++s) solver.step(in);
        double seconds = 0;
        for (int s = 0; s < 240; ++s) {
            const int phase = s / 60;  // +9, stop, -9, stop
            in.frame.position.x += (phase == 0 ? 9.0 : phase == 2 ? -9.0 : 0.0) * in.dt;
            const auto t0 = std::chrono::steady_clock::now();
            const StepStats st = solver.step(in);
            seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            substeps += st.substeps;
            strain = std::max(strain, worst_strain(solver.state().x, sheet()));
        }
        frames += 240;
        frame_ms += seconds * 1e3;
        state.SetIterationTime(seconds);
    }
    state.counters["frame_mean_ms"] = frame_ms / static_cast<double>(frames);
    state.counters["substeps_per_frame"] = static_cast<double>(substeps) / static_cast<double>(frames);
    state.counters["worst_strain"] = strain;
    state.SetLabel(state.range(0) == 0 ? "fabric's substeps every step" : "fast steps split (speed_substep_ratio 0.5)");
}

BENCHMARK(BM_SheetSprint)->Arg(0)->Arg(1)->Iterations(1)->Repetitions(kRounds)->UseManualTime()->Unit(benchmark::kMillisecond);

/// The process's CPU time, ms: on a loaded machine the wall clock counts the other programs' turns
/// too, the CPU time only this one's (a helper thread's waiting included).
double cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

struct Frames {
    double wall_ms = 0, cpu_ms = 0;  ///< medians
    double strain = 0;
    uint64_t substeps = 0;
};

/// The median frame, ms, of the full-rows workload on a side x side sheet (same spacing, the same
/// areal density as the 1k sheet) on `threads` threads: `warmup` untimed frames, then `frames` timed.
Frames median_frames(uint32_t side, uint32_t threads, int warmup, int frames) {
    const ClothProxy proxy = test::grid_sheet_proxy(side, side, kSpacing, kMass * side * side / (kSide * kSide));
    Fabric f = *find_fabric("cotton");
    f.substeps = 2;
    f.iterations = 4;
    f.strain_limit = true;
    f.slack = 0.5;
    SolverConstants c;
    c.sleep = false;
    c.threads = threads;
    c.thread_min_particles = 1;  // split every colour when threads > 1: the measurement of where it pays
    // The fabric's substeps every step: a sheet eight times as tall falls about three times as fast and
    // would take up to eight times the substeps (docs/solver.md#fast-cloth), which is not its size.
    c.speed_substep_ratio = 0;
    Solver solver(proxy, f, c);
    StepInput in;
    for (int s = 0; s < warmup; ++s) solver.step(in);
    std::vector<double> wall, cpu;
    Frames out;
    for (int s = 0; s < frames; ++s) {
        const double c0 = cpu_ms();
        const auto t0 = std::chrono::steady_clock::now();
        out.substeps += solver.step(in).substeps;
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        cpu.push_back(cpu_ms() - c0);
    }
    out.strain = worst_strain(solver.state().x, proxy);
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    out.wall_ms = wall[wall.size() / 2];
    out.cpu_ms = cpu[cpu.size() / 2];
    return out;
}

/// range(0) = side of the large sheet, range(1) = threads (the 1k sheet runs on the same count).
void BM_SheetScaling(benchmark::State& state) {
    const uint32_t side = static_cast<uint32_t>(state.range(0)), threads = static_cast<uint32_t>(state.range(1));
    Frames small, large;
    for (auto _ : state) {
        small = median_frames(kSide, threads, 60, 120);
        large = median_frames(side, threads, 10, 20);
        state.SetIterationTime(large.wall_ms * 1e-3);
    }
    state.counters["frame_1k_ms"] = small.wall_ms;
    state.counters["frame_large_ms"] = large.wall_ms;
    state.counters["ratio"] = large.wall_ms / small.wall_ms;
    state.counters["cpu_1k_ms"] = small.cpu_ms;
    state.counters["cpu_large_ms"] = large.cpu_ms;
    state.counters["cpu_ratio"] = large.cpu_ms / small.cpu_ms;
    state.counters["worst_strain_large"] = large.strain;
    state.counters["substeps_per_frame"] = static_cast<double>(large.substeps) / 20;  // the 1k sheet's: 2
    // What thread_min_particles is compared with: where a split pays is read off this and the ratios.
    const ClothProxy sheet = test::grid_sheet_proxy(side, side, kSpacing, 1.0);
    state.counters["particles_per_colour"] = static_cast<double>(sheet.particle_count()) / sheet.colour_count();
    state.SetLabel(std::to_string(side * side) + " particles vs " + std::to_string(kSide * kSide) + ", " +
                   std::to_string(threads) + " thread(s), median frames");
}

BENCHMARK(BM_SheetScaling)
    ->Args({256, 1})
    ->Args({256, 2})
    ->Args({64, 1})
    ->Args({64, 2})
    ->Args({128, 1})
    ->Args({128, 2})
    ->Iterations(1)
    ->Repetitions(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

#ifdef WEFT_HAVE_BULLET
// The same sheet in Bullet, node i = weft's particle i at its rest position with its mass (held: 0).
void BM_BulletSheetStep(benchmark::State& state) {
    btSoftBodyRigidBodyCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver constraint_solver;
    btSoftRigidDynamicsWorld world(&dispatcher, &broadphase, &constraint_solver, &configuration);
    world.setGravity(btVector3(0, -9.81f, 0));
    btSoftBodyWorldInfo& info = world.getWorldInfo();
    info.m_gravity = btVector3(0, -9.81f, 0);
    info.m_sparsesdf.Initialize();
    const ClothProxy& p = sheet();
    const int n = static_cast<int>(p.particle_count());
    std::vector<btVector3> x0(p.particle_count());
    std::vector<btScalar> mass(p.particle_count());
    for (uint32_t i = 0; i < p.particle_count(); ++i) {
        const Vec3& r = p.rest_position[i];
        x0[i] = btVector3(static_cast<btScalar>(r.x), static_cast<btScalar>(r.y), static_cast<btScalar>(r.z));
        mass[i] = p.inverse_mass[i] > 0 ? static_cast<btScalar>(1 / p.inverse_mass[i]) : 0;
    }
    auto* body = new btSoftBody(&info, n, x0.data(), mass.data());
    btSoftBody::Material* stretch = body->m_materials[0];
    stretch->m_kLST = 1;  // as stiff as Bullet's links go: weft's stretch rows are hard
    // weft's hinge is a soft row of stiffness bend·m_eff/h²: against the particle's own m/h², one
    // iteration closes bend/(1 + bend) of its error, which is what Bullet's kLST is.
    const double bend = find_fabric("cotton")->bend;
    btSoftBody::Material* bending = body->appendMaterial();
    bending->m_kLST = static_cast<btScalar>(bend / (1 + bend));
    bending->m_kAST = bending->m_kVST = 1;
    for (const auto& e : p.edges) body->appendLink(static_cast<int>(e[0]), static_cast<int>(e[1]), stretch);
    for (const auto& h : p.hinges) body->appendLink(static_cast<int>(h[2]), static_cast<int>(h[3]), bending);
    body->m_cfg.piterations = 4;
    body->updateConstants();
    world.addSoftBody(body);
    auto step = [&] { world.stepSimulation(1.0f / 60, 2, 1.0f / 120); };
    for (int s = 0; s < kWarmup; ++s) step();
    double best = INFINITY;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        step();
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        state.SetIterationTime(seconds);
        best = std::min(best, seconds);
    }
    std::vector<Vec3> x(p.particle_count());
    for (int i = 0; i < n; ++i) {
        const btVector3& q = body->m_nodes[i].m_x;
        x[static_cast<size_t>(i)] = {q.x(), q.y(), q.z()};
    }
    state.counters["frame_min_ms"] = best * 1e3;
    state.counters["worst_strain"] = worst_strain(x, p);
    state.SetLabel("Bullet btSoftBody, same sheet: " + std::to_string(body->m_nodes.size()) + " nodes, " +
                   std::to_string(p.edges.size()) + " stretch links (kLST 1) + " + std::to_string(p.hinges.size()) +
                   " bend links across weft's hinges (kLST " + std::to_string(bend / (1 + bend)) +
                   "), float, piterations 4, 2 substeps");
    world.removeSoftBody(body);
    delete body;
}

BENCHMARK(BM_BulletSheetStep)
    ->Iterations(kFrames)
    ->Repetitions(kRounds)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->ComputeStatistics("min", min_of);
#endif

}  // namespace

BENCHMARK_MAIN();
