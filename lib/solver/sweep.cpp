// The vertex solve (docs/solver.md#vertex-update): per free particle, the force and Hessian of its inertial term and
// of every row kind at it (each kind's accumulate, in its own header), one 3x3 LDLᵀ Newton step,
// capped at the particle's shortest row; Gauss-Seidel, colour by colour or in the wave that gives the same result.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>


#include "solver/lanes.h"
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
/// The distance rows of one block's four particles in AVX2 lanes: distance_rows::accumulate's
/// arithmetic, operation for operation (no fused multiply-add, the same association), so each lane's
/// sums are the scalar update's bit for bit. A lane that has run out of rows reads its own particle:
/// a zero-length row, skipped as the scalar loop skips coincident ends.
WEFT_AVX2 void distance_lanes(const SweepBlocks& sb, uint32_t block, const double* x, const double* rows, lanes::Lanes& l) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    const int32_t* other = sb.other_coordinate.data();
    const int32_t* field = sb.row_field.data();
    for (uint32_t q = sb.offsets[block], end = sb.offsets[block + 1]; q < end; ++q) {
        __m256d ox, oy, oz;
        lanes::load_positions(x, other + q * SweepBlocks::lanes, ox, oy, oz);
        const __m256d dx = _mm256_sub_pd(l.xx, ox), dy = _mm256_sub_pd(l.xy, oy), dz = _mm256_sub_pd(l.xz, oz);
        const __m256d l2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
        const __m256d live = _mm256_cmp_pd(l2, zero, _CMP_GT_OQ);
        if (_mm256_movemask_pd(live) == 0) continue;
        const __m256d inv_l = _mm256_div_pd(one, _mm256_sqrt_pd(l2));
        const __m256d len = _mm256_mul_pd(l2, inv_l);
        const __m256d gx = _mm256_mul_pd(dx, inv_l), gy = _mm256_mul_pd(dy, inv_l), gz = _mm256_mul_pd(dz, inv_l);
        __m256d row[6];
        lanes::load_rows(rows, field + q * SweepBlocks::lanes, row);
        const __m256d rest = row[0], k = row[1], lambda = row[2], strain_rest = row[3], strain_k = row[4], strain_lambda = row[5];
        __m256d fc = _mm256_add_pd(_mm256_mul_pd(k, _mm256_sub_pd(len, rest)), lambda);
        __m256d s = _mm256_blendv_pd(zero, fc, _mm256_cmp_pd(fc, zero, _CMP_GT_OQ));
        __m256d k_along = k;
        const __m256d u = _mm256_add_pd(_mm256_mul_pd(strain_k, _mm256_sub_pd(len, strain_rest)), strain_lambda);
        const __m256d pulls = _mm256_cmp_pd(u, zero, _CMP_GT_OQ);
        fc = _mm256_blendv_pd(fc, _mm256_add_pd(fc, u), pulls);
        s = _mm256_blendv_pd(s, _mm256_add_pd(s, u), pulls);
        k_along = _mm256_blendv_pd(k_along, _mm256_add_pd(k_along, strain_k), pulls);
        lanes::add_row_lanes(l, live, gx, gy, gz, fc, _mm256_mul_pd(s, inv_l), k_along);
    }
}

/// hinge_rows::accumulate in lanes: c = x_i·D_i − R_i + Σ_j c_ij·x_j, each lane over its own
/// neighbours in order (a lane past them keeps its sum), then f −= c/h², H += D_i/h²·I.
WEFT_AVX2 void hinge_lanes(const BendLanes& bl, const HingeState& hs, uint32_t block, const uint32_t* particle, const double* x,
                           double inv_h2, lanes::Lanes& l) {
    if (hs.bend_diagonal.empty()) return;
    const __m256d diagonal = lanes::load_lanes(hs.bend_diagonal.data(), particle), h2 = _mm256_set1_pd(inv_h2);
    const int32_t at[4] = {static_cast<int32_t>(particle[0] * 3), static_cast<int32_t>(particle[1] * 3),
                           static_cast<int32_t>(particle[2] * 3), static_cast<int32_t>(particle[3] * 3)};
    __m256d rx, ry, rz;
    lanes::load_positions(&hs.bend_rest.data()->x, at, rx, ry, rz);
    __m256d cx = _mm256_sub_pd(_mm256_mul_pd(l.xx, diagonal), rx);
    __m256d cy = _mm256_sub_pd(_mm256_mul_pd(l.xy, diagonal), ry);
    __m256d cz = _mm256_sub_pd(_mm256_mul_pd(l.xz, diagonal), rz);
    const __m256i count = _mm256_cvtepi32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bl.count.data() + block * 4)));
    const uint32_t begin = bl.offsets[block], end = bl.offsets[block + 1];
    for (uint32_t q = begin; q < end; ++q) {
        const __m256d on = _mm256_castsi256_pd(_mm256_cmpgt_epi64(count, _mm256_set1_epi64x(q - begin)));
        __m256d ox, oy, oz;
        lanes::load_positions(x, bl.other_coordinate.data() + q * 4, ox, oy, oz);
        const __m256d c = _mm256_loadu_pd(bl.coefficient.data() + q * 4);
        cx = _mm256_blendv_pd(cx, _mm256_add_pd(cx, _mm256_mul_pd(ox, c)), on);
        cy = _mm256_blendv_pd(cy, _mm256_add_pd(cy, _mm256_mul_pd(oy, c)), on);
        cz = _mm256_blendv_pd(cz, _mm256_add_pd(cz, _mm256_mul_pd(oz, c)), on);
    }
    l.fx = _mm256_sub_pd(l.fx, _mm256_mul_pd(cx, h2));
    l.fy = _mm256_sub_pd(l.fy, _mm256_mul_pd(cy, h2));
    l.fz = _mm256_sub_pd(l.fz, _mm256_mul_pd(cz, h2));
    const __m256d dk = _mm256_mul_pd(diagonal, h2);
    l.hxx = _mm256_add_pd(l.hxx, dk);
    l.hyy = _mm256_add_pd(l.hyy, dk);
    l.hzz = _mm256_add_pd(l.hzz, dk);
}

/// tether_rows::accumulate in lanes: a leash to the held particle a lane is tethered to, if any.
WEFT_AVX2 void tether_lanes(const TetherState& t, const uint32_t* particle, const double* x, lanes::Lanes& l) {
    int32_t at[4];
    int64_t has[4];
    for (int k = 0; k < 4; ++k) {
        const uint32_t c = t.centre[particle[k]];
        has[k] = c != no_particle ? -1 : 0;
        at[k] = static_cast<int32_t>((c != no_particle ? c : particle[k]) * 3);
    }
    if ((has[0] | has[1] | has[2] | has[3]) == 0) return;
    lanes::leash_lanes(x, at, _mm256_castsi256_pd(_mm256_set_epi64x(has[3], has[2], has[1], has[0])), lanes::load_lanes(t.radius.data(), particle),
                lanes::load_lanes(t.k.data(), particle), lanes::load_lanes(t.lambda.data(), particle), l);
}

/// The lanes' sums back as one particle's Accumulated (the energy audit's Hessian).
WEFT_AVX2 SymMat3 lane_hessian(const lanes::Lanes& l, int k) {
    alignas(32) double v[6][4];
    _mm256_store_pd(v[0], l.hxx);
    _mm256_store_pd(v[1], l.hxy);
    _mm256_store_pd(v[2], l.hxz);
    _mm256_store_pd(v[3], l.hyy);
    _mm256_store_pd(v[4], l.hyz);
    _mm256_store_pd(v[5], l.hzz);
    return {v[0][k], v[1][k], v[2][k], v[3][k], v[4][k], v[5][k]};
}

/// The four lanes' unary rows, summed one particle at a time (contacts vary in number), as lanes.
WEFT_AVX2 void start_lanes(const Accumulated* a, lanes::Lanes& l) {
    l.fx = _mm256_set_pd(a[3].f.x, a[2].f.x, a[1].f.x, a[0].f.x);
    l.fy = _mm256_set_pd(a[3].f.y, a[2].f.y, a[1].f.y, a[0].f.y);
    l.fz = _mm256_set_pd(a[3].f.z, a[2].f.z, a[1].f.z, a[0].f.z);
    l.hxx = _mm256_set_pd(a[3].h.xx, a[2].h.xx, a[1].h.xx, a[0].h.xx);
    l.hxy = _mm256_set_pd(a[3].h.xy, a[2].h.xy, a[1].h.xy, a[0].h.xy);
    l.hxz = _mm256_set_pd(a[3].h.xz, a[2].h.xz, a[1].h.xz, a[0].h.xz);
    l.hyy = _mm256_set_pd(a[3].h.yy, a[2].h.yy, a[1].h.yy, a[0].h.yy);
    l.hyz = _mm256_set_pd(a[3].h.yz, a[2].h.yz, a[1].h.yz, a[0].h.yz);
    l.hzz = _mm256_set_pd(a[3].h.zz, a[2].h.zz, a[1].h.zz, a[0].h.zz);
}

/// The multipliers a block updates once its particles have moved (the state's DualLanes,
/// docs/solver.md#duals-in-the-sweep): update_duals' arithmetic for those stretch edges, four to a
/// group, and for the block's tethers and slack rows, so the pass after the sweep would write the same
/// bits. No particle reads these multipliers again in this sweep.
WEFT_AVX2 void block_duals(const SolverModel& m, SolverState& s, uint32_t block, const uint32_t* particle, int live) {
    const SweepBlocks& sb = m.sweep;
    const double* x = &s.cloth.x.data()->x;
    double* rows = &s.distance.rows.data()->rest;
    const int32_t at[4] = {static_cast<int32_t>(particle[0] * 3), static_cast<int32_t>(particle[1] * 3),
                           static_cast<int32_t>(particle[2] * 3), static_cast<int32_t>(particle[3] * 3)};
    __m256d xx, xy, xz;
    lanes::load_positions(x, at, xx, xy, xz);
    const DualLanes& d = s.dual_lanes;
    const uint32_t base = sb.offsets[block] * SweepBlocks::lanes;
    for (uint32_t g = d.offsets[block], end = d.offsets[block + 1]; g < end; ++g) {
        const int hard = d.mask[g] & 0xF, strain = d.mask[g] >> 4;
        int32_t own[4], other[4], field[4];
        for (uint32_t k = 0; k < 4; ++k) {
            const uint32_t slot = d.slot[g * 4 + k], incidence = base + slot;  // (q << 2 | lane): q·4 + lane
            own[k] = static_cast<int32_t>(particle[slot & 3] * 3);
            other[k] = sb.other_coordinate[incidence];
            field[k] = sb.row_field[incidence];
        }
        lanes::edge_dual_lanes(x, own, other, rows, field, hard, strain);
    }
    const TetherState& t = s.tether;
    int32_t centre[4];
    int tethered = 0, slacked = 0;
    for (int k = 0; k < 4; ++k) {
        const uint32_t c = t.centre[particle[k]];
        const bool on = (live & (1 << k)) && c != no_particle;
        centre[k] = static_cast<int32_t>((on ? c : particle[k]) * 3);
        if (on) tethered |= 1 << k;
        if (m.slack.enabled && (live & (1 << k)) && std::isfinite(s.slack.radius[particle[k]])) slacked |= 1 << k;
    }
    if (tethered) lanes::leash_dual_lanes(xx, xy, xz, s.cloth.x.data(), centre, tethered, particle, t.radius, t.k, s.tether.lambda);
    if (slacked) lanes::leash_dual_lanes(xx, xy, xz, s.animated.data(), at, slacked, particle, s.slack.radius, s.slack.k, s.slack.lambda);
}

bool machine_has_avx2() {
    static const bool has = __builtin_cpu_supports("avx2");
    return has;
}

/// Blocks [begin, end) of one colour, four particles side by side: the unary rows one particle at a
/// time, then the distance rows, the hinges, the tethers and the Newton step in AVX2 lanes, each
/// lane's terms in the scalar update's order, so each particle moves as move_particle moves it.
WEFT_AVX2 void sweep_blocks_avx2(const SolverModel& m, SolverState& s, uint32_t begin, uint32_t end, bool duals, StepStats& stats) {
    const SweepBlocks& sb = m.sweep;
    const double* x = &s.cloth.x.data()->x;
    const double* rows = &s.distance.rows.data()->rest;
    Vec3* xs = s.cloth.x.data();
    for (uint32_t b = begin; b < end; ++b) {
        const uint32_t first = sb.first[b], width = sb.width[b];
        int live = 0;
        uint32_t particle[4];
        Vec3 xi[4];
        for (uint32_t k = 0; k < 4; ++k) {
            const uint32_t i = particle[k] = k < width ? first + k : first;
            xi[k] = xs[i];
            if (k < width && s.cloth.inverse_mass[i] != 0) live |= 1 << k;
        }
        if (live == 0) continue;
        lanes::Lanes l;
        l.xx = _mm256_set_pd(xi[3].x, xi[2].x, xi[1].x, xi[0].x);
        l.xy = _mm256_set_pd(xi[3].y, xi[2].y, xi[1].y, xi[0].y);
        l.xz = _mm256_set_pd(xi[3].z, xi[2].z, xi[1].z, xi[0].z);
        if (!lanes::unary_lanes(m, s, particle, live, l)) {
            Accumulated a[4];
            for (uint32_t k = 0; k < 4; ++k)
                if (live & (1 << k)) a[k] = accumulate_unary(m, s, particle[k], xi[k]);
            start_lanes(a, l);
        }
        distance_lanes(sb, b, x, rows, l);
        hinge_lanes(s.bend_lanes, s.hinge, b, particle, x, s.substep.inv_h2, l);
        tether_lanes(s.tether, particle, x, l);
        lanes::LaneMoves moves;
        lanes::solve_lanes(l, lanes::load_lanes(m.trust_radius.data(), particle), moves);
        for (uint32_t k = 0; k < width; ++k) {
            if (!(live & moves.positive & (1 << k))) continue;  // move_particle's positive-definite gate
            const Vec3 dx{moves.dx[0][k], moves.dx[1][k], moves.dx[2][k]};
            if (moves.capped & (1 << k)) ++stats.capped_updates;
            if (m.constants.energy_audit) audit_update(m, s, particle[k], xi[k], dx, lane_hessian(l, static_cast<int>(k)), stats);
            stats.largest_move = std::max(stats.largest_move, moves.moved2[k]);
            xs[particle[k]] = {moves.x[0][k], moves.x[1][k], moves.x[2][k]};
            ++stats.vertex_updates;
        }
        if (duals) block_duals(m, s, b, particle, live);
    }
}
#endif

/// Blocks [begin, end) of one colour: in lanes where the machine and the constants allow, else one
/// particle at a time (the same result). `duals` (lanes only): each block's edge multipliers after it.
void sweep_block_range(const SolverModel& m, SolverState& s, uint32_t begin, uint32_t end, bool duals, StepStats& stats) {
#ifdef WEFT_SOLVER_X86
    if (m.constants.simd && machine_has_avx2()) {
        sweep_blocks_avx2(m, s, begin, end, duals, stats);
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
bool sweep_parts(const SolverModel& m, SolverState& s, bool duals, StepStats& stats) {
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
        bool duals;
        StepStats* partial;
    } slabs{m, s, duals, partial.data()};
    held.pool->run(parts, [](void* context, uint32_t part) {
        Slabs& c = *static_cast<Slabs*>(context);
        const SweepBlocks& b = c.m.sweep;
        uint32_t* done = c.s.wave_done.data();
        for (uint32_t q = b.part_offsets[part]; q < b.part_offsets[part + 1]; ++q) {
            const uint32_t k = b.part_chunks[q];
            for (uint32_t w = b.wait_offsets[k]; w < b.wait_offsets[k + 1]; ++w) wait_for(done[b.waits[w]], c.s.wave_epoch);
            sweep_block_range(c.m, c.s, b.chunks[k][0], b.chunks[k][1], c.duals, c.partial[part]);
            std::atomic_ref<uint32_t>(done[k]).store(c.s.wave_epoch, std::memory_order_release);
        }
    }, &slabs);
    for (const StepStats& p : partial) add_stats(stats, p);
    return true;
}

}  // namespace

bool sweep(const SolverModel& m, SolverState& s, bool duals, StepStats& stats) {
    const SweepBlocks& sb = m.sweep;
    const bool independent = sb.independent(s.cloth.inverse_mass);
    // In the lanes every order this sweep may take (the wave, the threads' wave, colour by colour)
    // sweeps an edge's lower-coloured end before its other end: DualLanes' premise.
    duals = duals && independent && sweep_uses_simd(m) && !s.dual_lanes.offsets.empty();
    if (independent && !splits_colours(m)) {
        for (const auto& run : sb.wave) sweep_block_range(m, s, run[0], run[1], duals, stats);
        return duals;
    }
    if (independent && !sb.part_chunks.empty() && sweep_parts(m, s, duals, stats)) return duals;
    for (uint32_t c = 0; c < static_cast<uint32_t>(m.proxy->colour_count()); ++c) sweep_colour(m, s, c, duals, stats);
    return duals;
}

void sweep_colour(const SolverModel& m, SolverState& s, uint32_t colour, bool duals, StepStats& stats) {
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
        sweep_block_range(m, s, begin, end, duals, stats);
        return;
    }
    // The colour's blocks in equal contiguous shares on the solver's pool; each part counts its own
    // stats, summed in part order afterwards, so the result and the counts do not depend on the schedule.
    SweepThreads& held = s.sweep_threads;
    if (!held.pool) held.pool = std::make_unique<SweepPool>();
    if (held.pool->helpers() + 1 < threads) held.pool->grow(threads - 1, m.constants.spare);
    const uint32_t parts = std::min(threads, held.pool->helpers() + 1);
    if (parts <= 1) {  // no slot lent yet
        sweep_block_range(m, s, begin, end, duals, stats);
        return;
    }
    std::vector<StepStats> partial(parts);
    struct Shares {
        const SolverModel& m;
        SolverState& s;
        uint32_t begin, end, parts;
        bool duals;
        StepStats* partial;
    } shares{m, s, begin, end, parts, duals, partial.data()};
    held.pool->run(parts, [](void* context, uint32_t part) {
        Shares& c = *static_cast<Shares*>(context);
        auto share = [&](uint32_t t) { return c.begin + static_cast<uint32_t>(static_cast<uint64_t>(c.end - c.begin) * t / c.parts); };
        sweep_block_range(c.m, c.s, share(part), share(part + 1), c.duals, c.partial[part]);
    }, &shares);
    for (const StepStats& p : partial) add_stats(stats, p);
}

}  // namespace weft
