// The four AVX2 lanes the solver's once-a-substep loops share (docs/solver.md#lanes: the hold-line
// turn's terms, the prediction, the tightening, the strain target's test; the sweep's own lanes are
// sweep_lanes.inc), each lane doing a scalar row's operations in the scalar row's order (no fused
// multiply-add, the same association, masks where the scalar code branches), so each lane's result
// is the scalar one bit for bit. Internal to lib/solver; compiled for AVX2 by function attribute and
// called only after a run-time check (sweep_uses_simd).
#pragma once
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#ifndef WEFT_SOLVER_X86
#define WEFT_SOLVER_X86 1
#endif
#endif

#include "solver/phases.h"
#include "solver/simd.h"

#ifdef WEFT_SOLVER_X86
#define WEFT_AVX2 __attribute__((target("avx2")))
/// The lanes' helpers, inlined whatever the translation unit's size: in a 16-file unity batch GCC left
/// the sweep calling them out of line, their vectors passed through memory (docs/measurements.md).
#define WEFT_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace weft::lanes {


/// One block's four particles side by side: where they stand and the force and Hessian summed so far.
struct Lanes {
    __m256d xx, xy, xz;
    __m256d fx, fy, fz, hxx, hxy, hxz, hyy, hyz, hzz;
};

/// The x, y and z of four positions as three vectors of lanes: three loads and shuffles where they are
/// four consecutive particles (simd::V4::load_vec3), else two-double loads and shuffles (a gather is
/// slower on the machines measured, docs/solver.md#lanes).
WEFT_AVX2_INLINE void load_positions(const double* x, const int32_t* at, __m256d& px, __m256d& py, __m256d& pz) {
    if (at[1] == at[0] + 3 && at[2] == at[0] + 6 && at[3] == at[0] + 9) {
        simd::V4 vx, vy, vz;
        simd::V4::load_vec3(x + at[0], vx, vy, vz);
        px = vx.v;
        py = vy.v;
        pz = vz.v;
        return;
    }
    const __m256d v02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[0])), _mm_loadu_pd(x + at[2]), 1);
    const __m256d v13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[1])), _mm_loadu_pd(x + at[3]), 1);
    px = _mm256_unpacklo_pd(v02, v13);
    py = _mm256_unpackhi_pd(v02, v13);
    pz = _mm256_set_pd(x[at[3] + 2], x[at[2] + 2], x[at[1] + 2], x[at[0] + 2]);
}

/// A per-particle array at four lanes' particles: one load where they are consecutive.
WEFT_AVX2_INLINE __m256d load_lanes(const double* v, const uint32_t* particle) {
    if (particle[3] == particle[0] + 3 && particle[1] == particle[0] + 1 && particle[2] == particle[0] + 2)
        return _mm256_loadu_pd(v + particle[0]);
    return _mm256_set_pd(v[particle[3]], v[particle[2]], v[particle[1]], v[particle[0]]);
}

/// add_distance_row in lanes where `on`: f −= g·fc, H += s·I + (k_along − s)·g·gᵀ, with `s` the
/// geometric stiffness fc/L already formed (or 0), in SymMat3's order of operations.
WEFT_AVX2_INLINE void add_row_lanes(Lanes& l, __m256d on, __m256d gx, __m256d gy, __m256d gz, __m256d fc, __m256d s, __m256d k_along) {
    l.fx = _mm256_blendv_pd(l.fx, _mm256_sub_pd(l.fx, _mm256_mul_pd(gx, fc)), on);
    l.fy = _mm256_blendv_pd(l.fy, _mm256_sub_pd(l.fy, _mm256_mul_pd(gy, fc)), on);
    l.fz = _mm256_blendv_pd(l.fz, _mm256_sub_pd(l.fz, _mm256_mul_pd(gz, fc)), on);
    const __m256d t = _mm256_sub_pd(k_along, s);
    const __m256d tx = _mm256_mul_pd(t, gx), ty = _mm256_mul_pd(t, gy), tz = _mm256_mul_pd(t, gz);
    l.hxx = _mm256_blendv_pd(l.hxx, _mm256_add_pd(_mm256_add_pd(l.hxx, s), _mm256_mul_pd(tx, gx)), on);
    l.hyy = _mm256_blendv_pd(l.hyy, _mm256_add_pd(_mm256_add_pd(l.hyy, s), _mm256_mul_pd(ty, gy)), on);
    l.hzz = _mm256_blendv_pd(l.hzz, _mm256_add_pd(_mm256_add_pd(l.hzz, s), _mm256_mul_pd(tz, gz)), on);
    l.hxy = _mm256_blendv_pd(l.hxy, _mm256_add_pd(l.hxy, _mm256_mul_pd(tx, gy)), on);
    l.hxz = _mm256_blendv_pd(l.hxz, _mm256_add_pd(l.hxz, _mm256_mul_pd(tx, gz)), on);
    l.hyz = _mm256_blendv_pd(l.hyz, _mm256_add_pd(l.hyz, _mm256_mul_pd(ty, gz)), on);
}

/// add_leash_row in lanes where `on`: a row to the centre at `at` (coordinates into `centres`) that only
/// pulls in, operation for operation.
WEFT_AVX2_INLINE void leash_lanes(const double* centres, const int32_t* at, __m256d on, __m256d radius, __m256d k, __m256d lambda, Lanes& l) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    __m256d cx, cy, cz;
    load_positions(centres, at, cx, cy, cz);
    const __m256d dx = _mm256_sub_pd(l.xx, cx), dy = _mm256_sub_pd(l.xy, cy), dz = _mm256_sub_pd(l.xz, cz);
    const __m256d l2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz));
    const __m256d len = _mm256_sqrt_pd(l2);
    const __m256d u = _mm256_add_pd(_mm256_mul_pd(k, _mm256_sub_pd(len, radius)), lambda);
    const __m256d pulls = _mm256_and_pd(_mm256_and_pd(on, _mm256_cmp_pd(l2, zero, _CMP_GT_OQ)), _mm256_cmp_pd(u, zero, _CMP_GT_OQ));
    if (_mm256_movemask_pd(pulls) == 0) return;
    const __m256d gx = _mm256_div_pd(dx, len), gy = _mm256_div_pd(dy, len), gz = _mm256_div_pd(dz, len);
    add_row_lanes(l, pulls, gx, gy, gz, u, _mm256_mul_pd(u, _mm256_div_pd(one, len)), k);
}

/// accumulate_unary in lanes: the inertial term and the slack leash. False, having done nothing, when
/// a live lane has a pose row or a contact (the scalar accumulate_unary takes those blocks).
WEFT_AVX2_INLINE bool unary_lanes(const SolverModel& m, const SolverState& s, const uint32_t* particle, int live, Lanes& l) {
    const ContactState& contact = s.contact;
    const bool self = !contact.self.first.empty();
    for (int k = 0; k < 4; ++k) {
        if (!(live & (1 << k))) continue;
        const uint32_t i = particle[k];
        if ((m.pose.enabled && s.pose.k[i] > 0) || contact.count[i] != 0 || contact.span_count[i] != 0 ||
            (self && contact.self.first[i] != contact.self.first[i + 1]))
            return false;
    }
    const int32_t at[4] = {static_cast<int32_t>(particle[0] * 3), static_cast<int32_t>(particle[1] * 3),
                           static_cast<int32_t>(particle[2] * 3), static_cast<int32_t>(particle[3] * 3)};
    const __m256d mh = _mm256_mul_pd(load_lanes(m.mass.data(), particle), _mm256_set1_pd(s.substep.inv_h2));
    __m256d yx, yy, yz;
    load_positions(&s.cloth.y.data()->x, at, yx, yy, yz);
    l.fx = _mm256_mul_pd(_mm256_sub_pd(yx, l.xx), mh);
    l.fy = _mm256_mul_pd(_mm256_sub_pd(yy, l.xy), mh);
    l.fz = _mm256_mul_pd(_mm256_sub_pd(yz, l.xz), mh);
    l.hxx = l.hyy = l.hzz = mh;
    l.hxy = l.hxz = l.hyz = _mm256_setzero_pd();
    if (!m.slack.enabled) return true;
    const __m256d radius = load_lanes(s.slack.radius.data(), particle);
    const __m256d magnitude = _mm256_andnot_pd(_mm256_set1_pd(-0.0), radius);
    const __m256d finite = _mm256_cmp_pd(magnitude, _mm256_set1_pd(solver_infinity), _CMP_LT_OQ);  // std::isfinite
    if (_mm256_movemask_pd(finite) != 0)
        leash_lanes(&s.animated.data()->x, at, finite, radius, load_lanes(s.slack.k.data(), particle),
                    load_lanes(s.slack.lambda.data(), particle), l);
    return true;
}

}  // namespace weft::lanes
#endif
