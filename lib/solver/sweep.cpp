// The vertex solve (docs/solver.md#vertex-update): per free particle, the force and Hessian of its inertial term and
// of every row kind at it (each kind's accumulate, in its own header), one 3x3 LDLᵀ Newton step,
// capped at the particle's shortest row; Gauss-Seidel, colour by colour or in the wave that gives the same result.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>


#include "solver/phases.h"
#include "solver/simd.h"

namespace weft {

namespace {

/// Every row at particle i, with i at `xi`. The order of the terms is the result's, bit for bit.
Accumulated accumulate(const SolverModel& m, const SolverState& s, uint32_t i, const Vec3& xi) {
    Accumulated a = accumulate_unary(m, s, i, xi);
    const Vec3* x = s.cloth.x.data();
    distance_rows::accumulate(m.distance, s.distance, i, xi, x, a);
    hinge_rows::accumulate(s.hinge, i, xi, x, s.substep.inv_h2, a);
    tether_rows::accumulate(s.tether, i, xi, x, a);
    return a;
}

/// The energy the vertex update at particle i descends, with i at `xi` (the energy audit).
double local_energy(const SolverModel& m, const SolverState& s, uint32_t i, const Vec3& xi) {
    const double mh = m.mass[i] * s.substep.inv_h2;
    double e = 0.5 * mh * length_squared(xi - s.cloth.y[i]);
    const Vec3* x = s.cloth.x.data();
    distance_rows::add_local_energy(m.distance, s.distance, i, xi, x, e);
    hinge_rows::add_local_energy(m.hinge, s.hinge, i, xi, x, e);
    tether_rows::add_local_energy(s.tether, i, xi, x, e);
    slack_rows::add_local_energy(m.slack, s.slack, i, xi, s.animated[i], e);
    pose_rows::add_local_energy(m.pose, s.pose, i, xi, s.animated[i], e);
    contact_rows::add_local_energy(s.contact, i, xi, x, e);
    return e;
}

/// The energy audit of one update (docs/solver.md#trust-region): did it raise the local energy? The scale is the
/// energy the update's own quadratic model gives a move across the trust radius, ½·(tr H / 3)·r² (the
/// Hessian's mean curvature, the inertial m/h² included). The inertial term alone would measure a soft
/// row 1e7 times stiffer than its particle's m/h² against an energy it cannot resolve
/// (docs/measurements.md, table V1).
void audit_update(const SolverModel& m, const SolverState& s, uint32_t i, const Vec3& xi, const Vec3& dx, const SymMat3& h,
                  StepStats& stats) {
    const double r = m.trust_radius[i];
    double e0 = local_energy(m, s, i, xi);
    double e1 = local_energy(m, s, i, xi + dx);
    double rr = std::isfinite(r) ? r : std::sqrt(length_squared(dx));
    double scale = 0.5 * (h.xx + h.yy + h.zz) / 3 * rr * rr + std::fabs(e0);
    double rise = (e1 - e0) / scale;
    if (rise > 1e-12) {
        ++stats.climbing_updates;
        stats.worst_climb = std::max(stats.worst_climb, rise);
    }
}

/// The Newton step of particle i from its accumulated rows: one 3x3 LDLᵀ solve, capped at the shortest
/// incident row, written back.
inline void move_particle(const SolverModel& m, SolverState& s, uint32_t i, const Vec3& xi, const Accumulated& a, StepStats& stats) {
    const Ldlt3 f = ldlt_factor(a.h);
    // H ⪰ (m/h²)·I by construction (docs/solver.md#trust-region), so this only trips on a non-finite input,
    // which is then left for the caller's finiteness gate rather than spread by the solve.
    if (!f.positive_definite()) return;
    Vec3 dx = ldlt_solve(f, a.f);
    // The trust region: no further than the shortest incident row (docs/solver.md#trust-region).
    const double r = m.trust_radius[i];
    const double l2 = length_squared(dx);
    if (l2 > r * r) {
        dx *= r / std::sqrt(l2);
        ++stats.capped_updates;
    }
    if (m.constants.energy_audit) audit_update(m, s, i, xi, dx, a.h, stats);
    // Squared here, its root taken once a sweep (phases.h: sweep_colour): the same maximum, one root.
    stats.largest_move = std::max(stats.largest_move, length_squared(dx));
    s.cloth.x[i] = xi + dx;
    ++stats.vertex_updates;
}

/// Particles [begin, end) of one colour, one at a time.
void sweep_particles(const SolverModel& m, SolverState& s, uint32_t begin, uint32_t end, StepStats& stats) {
    for (uint32_t i = begin; i < end; ++i) {
        if (s.cloth.inverse_mass[i] == 0) continue;
        const Vec3 xi = s.cloth.x[i];
        move_particle(m, s, i, xi, accumulate(m, s, i, xi), stats);
    }
}

#ifdef WEFT_SOLVER_X86
namespace lanes_avx2 {
using V = simd::V4;
#define WEFT_LANES __attribute__((target(WEFT_TARGET_AVX2)))
#define WEFT_LANES_INLINE __attribute__((target(WEFT_TARGET_AVX2), always_inline)) inline
#include "solver/sweep_lanes.inc"
#undef WEFT_LANES
#undef WEFT_LANES_INLINE
}  // namespace lanes_avx2

namespace lanes_avx512 {
using V = simd::V8;
#define WEFT_LANES __attribute__((target(WEFT_TARGET_AVX512)))
#define WEFT_LANES_INLINE __attribute__((target(WEFT_TARGET_AVX512), always_inline)) inline
#include "solver/sweep_lanes.inc"
#undef WEFT_LANES
#undef WEFT_LANES_INLINE
}  // namespace lanes_avx512

/// The widest lanes this machine has: 8 (AVX-512 F, VL and DQ), 4 (AVX2) or 0.
uint32_t machine_lanes() {
    static const uint32_t lanes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                                          __builtin_cpu_supports("avx512dq")
                                      ? 8
                                      : __builtin_cpu_supports("avx2") ? 4 : 0;
    return lanes;
}

/// Whether a block fits in half a block's lanes: four AVX2 lanes do its work where eight AVX-512 lanes
/// would carry at least as many empty ones, each of their divisions, roots and gathers costing as
/// much or more (docs/solver.md#lanes, narrow blocks).
bool narrow_block(const SweepBlocks& sb, uint32_t block) { return sb.width[block] <= SweepBlocks::lanes / 2; }

/// Blocks [begin, end) as runs of narrow and of wide blocks, in order: run(first, end, narrow) each.
template <class Run>
void by_width(const SweepBlocks& sb, uint32_t begin, uint32_t end, Run&& run) {
    for (uint32_t b = begin; b < end;) {
        const bool narrow = narrow_block(sb, b);
        uint32_t run_end = b + 1;
        while (run_end < end && narrow_block(sb, run_end) == narrow) ++run_end;
        run(b, run_end, narrow);
        b = run_end;
    }
}

/// The eight-lane sweep of blocks [begin, end), a run of narrow blocks in four lanes: each lane is the
/// scalar update at either width, and the runs' statistics add and take maxima, so the same result
/// and the same counts bit for bit. Out of line: inlined, its loop's set-up was paid by every call of
/// sweep_block_range, the four-lane machines' too (10 instructions a call, docs/measurements.md).
[[gnu::noinline]] void sweep_wide_and_narrow(const SolverModel& m, SolverState& s, uint32_t begin, uint32_t end, bool pending,
                                             StepStats& stats) {
    by_width(m.sweep, begin, end, [&](uint32_t first, uint32_t run_end, bool narrow) {
        if (narrow)
            lanes_avx2::sweep_blocks(m, s, first, run_end, pending, stats);
        else
            lanes_avx512::sweep_blocks(m, s, first, run_end, pending, stats);
    });
}
#endif

/// Blocks [begin, end) of one colour: in lanes where the machine and the constants allow, else one
/// particle at a time (the same result). `pending` (lanes only): the dual update of the sweep before
/// as each row is read (docs/solver.md#duals-in-the-sweep).
void sweep_block_range(const SolverModel& m, SolverState& s, uint32_t begin, uint32_t end, bool pending, StepStats& stats) {
#ifdef WEFT_SOLVER_X86
    switch (simd_lanes(m)) {
        case 8: return sweep_wide_and_narrow(m, s, begin, end, pending, stats);
        case 4: return lanes_avx2::sweep_blocks(m, s, begin, end, pending, stats);
        default: break;
    }
#endif
    const SweepBlocks& sb = m.sweep;
    if (begin < end) sweep_particles(m, s, sb.first[begin], sb.first[end - 1] + sb.width[end - 1], stats);
}

void add_stats(StepStats& to, const StepStats& from) {
    to.vertex_updates += from.vertex_updates;
    to.capped_updates += from.capped_updates;
    to.climbing_updates += from.climbing_updates;
    to.worst_climb = std::max(to.worst_climb, from.worst_climb);
    to.largest_move = std::max(to.largest_move, from.largest_move);
}

}  // namespace

uint32_t simd_lanes(const SolverModel& m) {
#ifdef WEFT_SOLVER_X86
    if (!m.constants.simd) return 0;
    const uint32_t machine = machine_lanes();
    return m.constants.simd_lanes >= 8 && machine >= 8 ? 8 : machine >= 4 ? 4 : 0;
#else
    (void)m;
    return 0;
#endif
}

bool sweep_uses_simd(const SolverModel& m) { return simd_lanes(m) != 0; }

void update_duals_in_lanes(const SolverModel& m, SolverState& s) {
#ifdef WEFT_SOLVER_X86
    if (simd_lanes(m) == 8) {  // as the sweep: a narrow block in four lanes, the same bits in any order
        by_width(m.sweep, 0, static_cast<uint32_t>(m.sweep.blocks()), [&](uint32_t first, uint32_t run_end, bool narrow) {
            if (narrow)
                lanes_avx2::update_duals(m, s, first, run_end);
            else
                lanes_avx512::update_duals(m, s, first, run_end);
        });
        return;
    }
    if (simd_lanes(m) == 4) return lanes_avx2::update_duals(m, s, 0, static_cast<uint32_t>(m.sweep.blocks()));
#endif
    (void)m;
    (void)s;
}

namespace {

/// Whether a colour of the proxy is large enough to be split over the constants' threads.
bool splits_colours(const SolverModel& m) {
    const SweepBlocks& sb = m.sweep;
    const std::vector<uint32_t>& ranges = m.proxy->colour_ranges;
    for (uint32_t c = 0; c + 1 < ranges.size() && m.constants.threads > 1; ++c)
        if (ranges[c + 1] - ranges[c] >= m.constants.thread_min_particles && sb.colour_blocks[c + 1] - sb.colour_blocks[c] > 1)
            return true;
    return false;
}

/// Until the chunk another thread sweeps is done in this sweep (its flag holds this sweep's epoch).
void wait_for(uint32_t& done, uint32_t epoch) {
    std::atomic_ref<uint32_t> flag(done);
    for (uint32_t spins = 0; flag.load(std::memory_order_acquire) != epoch; ++spins)
        if (spins >= 256) std::this_thread::yield();  // a loaded machine: let the thread waited for run
}

/// The wave over the pool's threads (SweepBlocks::part_chunks): each thread its slab, a chunk after
/// the chunks of other threads it waits for. False, having swept nothing, while the pool is short.
bool sweep_parts(const SolverModel& m, SolverState& s, bool pending, StepStats& stats) {
    const SweepBlocks& sb = m.sweep;
    const uint32_t parts = static_cast<uint32_t>(sb.part_offsets.size() - 1);
    SweepThreads& held = s.sweep_threads;
    if (!held.pool) held.pool = std::make_unique<SweepPool>();
    if (held.pool->helpers() + 1 < parts) held.pool->grow(parts - 1, m.constants.spare);
    if (held.pool->helpers() + 1 < parts) return false;
    if (s.wave_done.size() != sb.chunks.size() || ++s.wave_epoch == 0) {
        s.wave_done.assign(sb.chunks.size(), 0);
        s.wave_epoch = 1;
    }
    std::vector<StepStats> partial(parts);
    struct Slabs {
        const SolverModel& m;
        SolverState& s;
        bool pending;
        StepStats* partial;
    } slabs{m, s, pending, partial.data()};
    held.pool->run(parts, [](void* context, uint32_t part) {
        Slabs& c = *static_cast<Slabs*>(context);
        const SweepBlocks& b = c.m.sweep;
        uint32_t* done = c.s.wave_done.data();
        for (uint32_t q = b.part_offsets[part]; q < b.part_offsets[part + 1]; ++q) {
            const uint32_t k = b.part_chunks[q];
            for (uint32_t w = b.wait_offsets[k]; w < b.wait_offsets[k + 1]; ++w) wait_for(done[b.waits[w]], c.s.wave_epoch);
            sweep_block_range(c.m, c.s, b.chunks[k][0], b.chunks[k][1], c.pending, c.partial[part]);
            std::atomic_ref<uint32_t>(done[k]).store(c.s.wave_epoch, std::memory_order_release);
        }
    }, &slabs);
    for (const StepStats& p : partial) add_stats(stats, p);
    return true;
}

}  // namespace

void sweep(const SolverModel& m, SolverState& s, bool pending, StepStats& stats) {
    const SweepBlocks& sb = m.sweep;
    const bool independent = sb.independent(s.cloth.inverse_mass);
    // Every order this sweep may take (the wave, the threads' wave, colour by colour) sweeps an edge's
    // lower-coloured end before its other end: DualLanes' premise.
    if (independent && !splits_colours(m)) {
        for (const auto& run : sb.wave) sweep_block_range(m, s, run[0], run[1], pending, stats);
        return;
    }
    if (independent && !sb.part_chunks.empty() && sweep_parts(m, s, pending, stats)) return;
    for (uint32_t c = 0; c < static_cast<uint32_t>(m.proxy->colour_count()); ++c) sweep_colour(m, s, c, pending, stats);
}

void sweep_colour(const SolverModel& m, SolverState& s, uint32_t colour, bool pending, StepStats& stats) {
    const SweepBlocks& sb = m.sweep;
    const std::vector<uint32_t>& ranges = m.proxy->colour_ranges;
    if (!sb.independent(s.cloth.inverse_mass)) {  // two free particles of one colour share a row: their order matters
        sweep_particles(m, s, ranges[colour], ranges[colour + 1], stats);
        return;
    }
    const uint32_t begin = sb.colour_blocks[colour], end = sb.colour_blocks[colour + 1];
    const uint32_t particles = ranges[colour + 1] - ranges[colour];
    const uint32_t threads = std::min<uint32_t>(m.constants.threads, end - begin);
    if (threads <= 1 || particles < m.constants.thread_min_particles) {
        sweep_block_range(m, s, begin, end, pending, stats);
        return;
    }
    // The colour's blocks in equal contiguous shares on the solver's pool; each part counts its own
    // stats, summed in part order afterwards, so the result and the counts do not depend on the schedule.
    SweepThreads& held = s.sweep_threads;
    if (!held.pool) held.pool = std::make_unique<SweepPool>();
    if (held.pool->helpers() + 1 < threads) held.pool->grow(threads - 1, m.constants.spare);
    const uint32_t parts = std::min(threads, held.pool->helpers() + 1);
    if (parts <= 1) {  // no slot lent yet
        sweep_block_range(m, s, begin, end, pending, stats);
        return;
    }
    std::vector<StepStats> partial(parts);
    struct Shares {
        const SolverModel& m;
        SolverState& s;
        uint32_t begin, end, parts;
        bool pending;
        StepStats* partial;
    } shares{m, s, begin, end, parts, pending, partial.data()};
    held.pool->run(parts, [](void* context, uint32_t part) {
        Shares& c = *static_cast<Shares*>(context);
        auto share = [&](uint32_t t) { return c.begin + static_cast<uint32_t>(static_cast<uint64_t>(c.end - c.begin) * t / c.parts); };
        sweep_block_range(c.m, c.s, share(part), share(part + 1), c.pending, c.partial[part]);
    }, &shares);
    for (const StepStats& p : partial) add_stats(stats, p);
}

}  // namespace weft
