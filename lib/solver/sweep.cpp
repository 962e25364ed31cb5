// The vertex solve (docs/solver.md#vertex-update): per free particle, the force and Hessian of its inertial term and
// of every row kind at it (each kind's accumulate, in its own header), one 3x3 LDLᵀ Newton step,
// capped at the particle's shortest row; Gauss-Seidel, colour by colour or in the wave that gives the same result.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define WEFT_SOLVER_X86 1
#endif

#include "solver/phases.h"

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
    contact_rows::add_local_energy(s.contact, i, xi, e);
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
/// The x, y and z of four positions as three vectors of lanes (two-double loads and shuffles; a
/// gather is slower on the machines measured, docs/solver.md#lanes).
__attribute__((target("avx2"))) inline void load_positions(const double* x, const int32_t* at, __m256d& px, __m256d& py,
                                                           __m256d& pz) {
    const __m256d v02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[0])), _mm_loadu_pd(x + at[2]), 1);
    const __m256d v13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[1])), _mm_loadu_pd(x + at[3]), 1);
    px = _mm256_unpacklo_pd(v02, v13);
    py = _mm256_unpackhi_pd(v02, v13);
    pz = _mm256_set_pd(x[at[3] + 2], x[at[2] + 2], x[at[1] + 2], x[at[0] + 2]);
}

/// Four LinkRows, field by field as vectors of lanes (a 4x4 transpose and a 2x4 one).
__attribute__((target("avx2"))) inline void load_rows(const double* rows, const int32_t* at, __m256d* field) {
    const __m256d r0 = _mm256_loadu_pd(rows + at[0]), r1 = _mm256_loadu_pd(rows + at[1]);
    const __m256d r2 = _mm256_loadu_pd(rows + at[2]), r3 = _mm256_loadu_pd(rows + at[3]);
    const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    field[0] = _mm256_permute2f128_pd(t0, t2, 0x20);
    field[1] = _mm256_permute2f128_pd(t1, t3, 0x20);
    field[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    field[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
    const __m256d v02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(rows + at[0] + 4)), _mm_loadu_pd(rows + at[2] + 4), 1);
    const __m256d v13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(rows + at[1] + 4)), _mm_loadu_pd(rows + at[3] + 4), 1);
    field[4] = _mm256_unpacklo_pd(v02, v13);
    field[5] = _mm256_unpackhi_pd(v02, v13);
}

/// The distance rows of one block's four particles in AVX2 lanes: distance_rows::accumulate's
/// arithmetic, operation for operation (no fused multiply-add, the same association), so each lane's
/// sums are the scalar update's bit for bit. A lane that has run out of rows reads its own particle:
/// a zero-length row, skipped as the scalar loop skips coincident ends.
__attribute__((target("avx2"))) void distance_lanes_avx2(const SweepBlocks& sb, uint32_t block, const double* x,
                                                         const double* rows, const Vec3* xi, Accumulated* a) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    const __m256d xx = _mm256_set_pd(xi[3].x, xi[2].x, xi[1].x, xi[0].x);
    const __m256d xy = _mm256_set_pd(xi[3].y, xi[2].y, xi[1].y, xi[0].y);
    const __m256d xz = _mm256_set_pd(xi[3].z, xi[2].z, xi[1].z, xi[0].z);
    __m256d fx = _mm256_set_pd(a[3].f.x, a[2].f.x, a[1].f.x, a[0].f.x);
    __m256d fy = _mm256_set_pd(a[3].f.y, a[2].f.y, a[1].f.y, a[0].f.y);
    __m256d fz = _mm256_set_pd(a[3].f.z, a[2].f.z, a[1].f.z, a[0].f.z);
    __m256d hxx = _mm256_set_pd(a[3].h.xx, a[2].h.xx, a[1].h.xx, a[0].h.xx);
    __m256d hxy = _mm256_set_pd(a[3].h.xy, a[2].h.xy, a[1].h.xy, a[0].h.xy);
    __m256d hxz = _mm256_set_pd(a[3].h.xz, a[2].h.xz, a[1].h.xz, a[0].h.xz);
    __m256d hyy = _mm256_set_pd(a[3].h.yy, a[2].h.yy, a[1].h.yy, a[0].h.yy);
    __m256d hyz = _mm256_set_pd(a[3].h.yz, a[2].h.yz, a[1].h.yz, a[0].h.yz);
    __m256d hzz = _mm256_set_pd(a[3].h.zz, a[2].h.zz, a[1].h.zz, a[0].h.zz);
    const int32_t* other = sb.other_coordinate.data();
    const int32_t* field = sb.row_field.data();
    for (uint32_t q = sb.offsets[block], end = sb.offsets[block + 1]; q < end; ++q) {
        __m256d ox, oy, oz;
        load_positions(x, other + q * SweepBlocks::lanes, ox, oy, oz);
        const __m256d dx = _mm256_sub_pd(xx, ox), dy = _mm256_sub_pd(xy, oy), dz = _mm256_sub_pd(xz, oz);
        const __m256d l2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
        const __m256d live = _mm256_cmp_pd(l2, zero, _CMP_GT_OQ);
        if (_mm256_movemask_pd(live) == 0) continue;
        const __m256d inv_l = _mm256_div_pd(one, _mm256_sqrt_pd(l2));
        const __m256d l = _mm256_mul_pd(l2, inv_l);
        const __m256d gx = _mm256_mul_pd(dx, inv_l), gy = _mm256_mul_pd(dy, inv_l), gz = _mm256_mul_pd(dz, inv_l);
        __m256d row[6];
        load_rows(rows, field + q * SweepBlocks::lanes, row);
        const __m256d rest = row[0], k = row[1], lambda = row[2], strain_rest = row[3], strain_k = row[4], strain_lambda = row[5];
        __m256d fc = _mm256_add_pd(_mm256_mul_pd(k, _mm256_sub_pd(l, rest)), lambda);
        __m256d s = _mm256_blendv_pd(zero, fc, _mm256_cmp_pd(fc, zero, _CMP_GT_OQ));
        __m256d k_along = k;
        const __m256d u = _mm256_add_pd(_mm256_mul_pd(strain_k, _mm256_sub_pd(l, strain_rest)), strain_lambda);
        const __m256d pulls = _mm256_cmp_pd(u, zero, _CMP_GT_OQ);
        fc = _mm256_blendv_pd(fc, _mm256_add_pd(fc, u), pulls);
        s = _mm256_blendv_pd(s, _mm256_add_pd(s, u), pulls);
        k_along = _mm256_blendv_pd(k_along, _mm256_add_pd(k_along, strain_k), pulls);
        fx = _mm256_blendv_pd(fx, _mm256_sub_pd(fx, _mm256_mul_pd(gx, fc)), live);
        fy = _mm256_blendv_pd(fy, _mm256_sub_pd(fy, _mm256_mul_pd(gy, fc)), live);
        fz = _mm256_blendv_pd(fz, _mm256_sub_pd(fz, _mm256_mul_pd(gz, fc)), live);
        s = _mm256_mul_pd(s, inv_l);
        const __m256d t = _mm256_sub_pd(k_along, s);
        const __m256d tx = _mm256_mul_pd(t, gx), ty = _mm256_mul_pd(t, gy), tz = _mm256_mul_pd(t, gz);
        hxx = _mm256_blendv_pd(hxx, _mm256_add_pd(_mm256_add_pd(hxx, s), _mm256_mul_pd(tx, gx)), live);
        hyy = _mm256_blendv_pd(hyy, _mm256_add_pd(_mm256_add_pd(hyy, s), _mm256_mul_pd(ty, gy)), live);
        hzz = _mm256_blendv_pd(hzz, _mm256_add_pd(_mm256_add_pd(hzz, s), _mm256_mul_pd(tz, gz)), live);
        hxy = _mm256_blendv_pd(hxy, _mm256_add_pd(hxy, _mm256_mul_pd(tx, gy)), live);
        hxz = _mm256_blendv_pd(hxz, _mm256_add_pd(hxz, _mm256_mul_pd(tx, gz)), live);
        hyz = _mm256_blendv_pd(hyz, _mm256_add_pd(hyz, _mm256_mul_pd(ty, gz)), live);
    }
    alignas(32) double lane[9][4];
    _mm256_store_pd(lane[0], fx);
    _mm256_store_pd(lane[1], fy);
    _mm256_store_pd(lane[2], fz);
    _mm256_store_pd(lane[3], hxx);
    _mm256_store_pd(lane[4], hxy);
    _mm256_store_pd(lane[5], hxz);
    _mm256_store_pd(lane[6], hyy);
    _mm256_store_pd(lane[7], hyz);
    _mm256_store_pd(lane[8], hzz);
    for (int k = 0; k < 4; ++k) {
        a[k].f = {lane[0][k], lane[1][k], lane[2][k]};
        a[k].h = {lane[3][k], lane[4][k], lane[5][k], lane[6][k], lane[7][k], lane[8][k]};
    }
}

bool machine_has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

/// Blocks [begin, end) of one colour, four particles side by side: the unary rows, the distance rows
/// in AVX2 lanes, then the hinges, the tethers and the solve one lane at a time, each particle's terms
/// in the scalar update's order.
void sweep_blocks_avx2(const SolverModel& m, SolverState& s, uint32_t begin, uint32_t end, StepStats& stats) {
    const SweepBlocks& sb = m.sweep;
    const double* x = &s.cloth.x.data()->x;
    const double* rows = &s.distance.rows.data()->rest;
    const Vec3* xs = s.cloth.x.data();
    for (uint32_t b = begin; b < end; ++b) {
        const uint32_t first = sb.first[b], width = sb.width[b];
        bool any = false;
        Vec3 xi[4];
        Accumulated a[4];
        for (uint32_t k = 0; k < 4; ++k) {
            const uint32_t i = k < width ? first + k : first;
            xi[k] = xs[i];
            if (k < width && s.cloth.inverse_mass[i] != 0) {
                a[k] = accumulate_unary(m, s, i, xi[k]);
                any = true;
            }
        }
        if (!any) continue;
        distance_lanes_avx2(sb, b, x, rows, xi, a);
        for (uint32_t k = 0; k < width; ++k) {
            const uint32_t i = first + k;
            if (s.cloth.inverse_mass[i] == 0) continue;
            hinge_rows::accumulate(s.hinge, i, xi[k], xs, s.substep.inv_h2, a[k]);
            tether_rows::accumulate(s.tether, i, xi[k], xs, a[k]);
            move_particle(m, s, i, xi[k], a[k], stats);
        }
    }
}
#endif

/// Blocks [begin, end) of one colour: in lanes where the machine and the constants allow, else one
/// particle at a time (the same result).
void sweep_block_range(const SolverModel& m, SolverState& s, uint32_t begin, uint32_t end, StepStats& stats) {
#ifdef WEFT_SOLVER_X86
    if (m.constants.simd && machine_has_avx2()) {
        sweep_blocks_avx2(m, s, begin, end, stats);
        return;
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

bool sweep_uses_simd(const SolverModel& m) {
#ifdef WEFT_SOLVER_X86
    return m.constants.simd && machine_has_avx2();
#else
    (void)m;
    return false;
#endif
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
bool sweep_parts(const SolverModel& m, SolverState& s, StepStats& stats) {
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
        StepStats* partial;
    } slabs{m, s, partial.data()};
    held.pool->run(parts, [](void* context, uint32_t part) {
        Slabs& c = *static_cast<Slabs*>(context);
        const SweepBlocks& b = c.m.sweep;
        uint32_t* done = c.s.wave_done.data();
        for (uint32_t q = b.part_offsets[part]; q < b.part_offsets[part + 1]; ++q) {
            const uint32_t k = b.part_chunks[q];
            for (uint32_t w = b.wait_offsets[k]; w < b.wait_offsets[k + 1]; ++w) wait_for(done[b.waits[w]], c.s.wave_epoch);
            sweep_block_range(c.m, c.s, b.chunks[k][0], b.chunks[k][1], c.partial[part]);
            std::atomic_ref<uint32_t>(done[k]).store(c.s.wave_epoch, std::memory_order_release);
        }
    }, &slabs);
    for (const StepStats& p : partial) add_stats(stats, p);
    return true;
}

}  // namespace

void sweep(const SolverModel& m, SolverState& s, StepStats& stats) {
    const SweepBlocks& sb = m.sweep;
    const bool independent = sb.independent(s.cloth.inverse_mass);
    if (independent && !splits_colours(m)) {
        for (const auto& run : sb.wave) sweep_block_range(m, s, run[0], run[1], stats);
        return;
    }
    if (independent && !sb.part_chunks.empty() && sweep_parts(m, s, stats)) return;
    for (uint32_t c = 0; c < static_cast<uint32_t>(m.proxy->colour_count()); ++c) sweep_colour(m, s, c, stats);
}

void sweep_colour(const SolverModel& m, SolverState& s, uint32_t colour, StepStats& stats) {
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
        sweep_block_range(m, s, begin, end, stats);
        return;
    }
    // The colour's blocks in equal contiguous shares on the solver's pool; each part counts its own
    // stats, summed in part order afterwards, so the result and the counts do not depend on the schedule.
    SweepThreads& held = s.sweep_threads;
    if (!held.pool) held.pool = std::make_unique<SweepPool>();
    if (held.pool->helpers() + 1 < threads) held.pool->grow(threads - 1, m.constants.spare);
    const uint32_t parts = std::min(threads, held.pool->helpers() + 1);
    if (parts <= 1) {  // no slot lent yet
        sweep_block_range(m, s, begin, end, stats);
        return;
    }
    std::vector<StepStats> partial(parts);
    struct Shares {
        const SolverModel& m;
        SolverState& s;
        uint32_t begin, end, parts;
        StepStats* partial;
    } shares{m, s, begin, end, parts, partial.data()};
    held.pool->run(parts, [](void* context, uint32_t part) {
        Shares& c = *static_cast<Shares*>(context);
        auto share = [&](uint32_t t) { return c.begin + static_cast<uint32_t>(static_cast<uint64_t>(c.end - c.begin) * t / c.parts); };
        sweep_block_range(c.m, c.s, share(part), share(part + 1), c.partial[part]);
    }, &shares);
    for (const StepStats& p : partial) add_stats(stats, p);
}

}  // namespace weft
