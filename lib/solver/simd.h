// The vectors the sweep's lanes are written in (docs/solver.md#lanes): V4, four doubles in an AVX2
// register, and V8, eight in an AVX-512 one, with the same operations, so the sweep is written once
// (sweep_lanes.inc) and compiled for each. Every operation is one IEEE operation per lane, as the
// scalar code does it (the solver is compiled with -ffp-contract=off: AVX-512 brings fused
// multiply-adds, which would round once where the scalar code rounds twice), so a lane's result is
// the scalar one bit for bit whatever the width. A mask is V4's compare result (a lane all ones) or
// V8's __mmask8; bits() turns either into bit k for lane k. Internal to lib/solver; called only after
// a run-time check that the machine has the instructions (sweep_uses_simd, simd_lanes).
#pragma once
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include <cstdint>

#ifndef WEFT_SOLVER_X86
#define WEFT_SOLVER_X86 1
#endif

#define WEFT_TARGET_AVX2 "avx2"
#define WEFT_TARGET_AVX512 "avx2,avx512f,avx512vl,avx512dq"

namespace weft::simd {

#define WEFT_V4 __attribute__((target(WEFT_TARGET_AVX2), always_inline)) static inline
#define WEFT_V8 __attribute__((target(WEFT_TARGET_AVX512), always_inline)) static inline

/// Four doubles (AVX2).
struct V4 {
    static constexpr uint32_t width = 4;
    using Mask = __m256d;
    __m256d v;

    WEFT_V4 V4 zero() { return {_mm256_setzero_pd()}; }
    WEFT_V4 V4 broadcast(double a) { return {_mm256_set1_pd(a)}; }
    WEFT_V4 V4 load(const double* p) { return {_mm256_loadu_pd(p)}; }
    WEFT_V4 void store(double* p, V4 a) { _mm256_storeu_pd(p, a.v); }
    /// v[at[k]] in lane k.
    WEFT_V4 V4 gather(const double* v, const int32_t* at) { return {_mm256_set_pd(v[at[3]], v[at[2]], v[at[1]], v[at[0]])}; }
    WEFT_V4 V4 gather(const double* v, const uint32_t* at) { return {_mm256_set_pd(v[at[3]], v[at[2]], v[at[1]], v[at[0]])}; }
    /// The positions at coordinate offsets `at` (3·particle) as x, y and z lanes: two-double loads and
    /// shuffles (a gather was slower on the machines measured, docs/solver.md#lanes).
    WEFT_V4 void gather_vec3(const double* x, const int32_t* at, V4& px, V4& py, V4& pz) {
        const __m256d v02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[0])), _mm_loadu_pd(x + at[2]), 1);
        const __m256d v13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[1])), _mm_loadu_pd(x + at[3]), 1);
        px.v = _mm256_unpacklo_pd(v02, v13);
        py.v = _mm256_unpackhi_pd(v02, v13);
        pz.v = _mm256_set_pd(x[at[3] + 2], x[at[2] + 2], x[at[1] + 2], x[at[0] + 2]);
    }
    /// Six consecutive doubles at each of `at` (a LinkRow) as six vectors of lanes.
    WEFT_V4 void gather6(const double* rows, const int32_t* at, V4* field) {
        const __m256d r0 = _mm256_loadu_pd(rows + at[0]), r1 = _mm256_loadu_pd(rows + at[1]);
        const __m256d r2 = _mm256_loadu_pd(rows + at[2]), r3 = _mm256_loadu_pd(rows + at[3]);
        const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
        const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
        field[0].v = _mm256_permute2f128_pd(t0, t2, 0x20);
        field[1].v = _mm256_permute2f128_pd(t1, t3, 0x20);
        field[2].v = _mm256_permute2f128_pd(t0, t2, 0x31);
        field[3].v = _mm256_permute2f128_pd(t1, t3, 0x31);
        const __m256d v02 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(rows + at[0] + 4)), _mm_loadu_pd(rows + at[2] + 4), 1);
        const __m256d v13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(rows + at[1] + 4)), _mm_loadu_pd(rows + at[3] + 4), 1);
        field[4].v = _mm256_unpacklo_pd(v02, v13);
        field[5].v = _mm256_unpackhi_pd(v02, v13);
    }
    /// Four consecutive Vec3 from `p` (twelve doubles) as x, y and z lanes: three loads and shuffles.
    WEFT_V4 void load_vec3(const double* p, V4& px, V4& py, V4& pz) {
        const __m256d a = _mm256_loadu_pd(p), b = _mm256_loadu_pd(p + 4), c = _mm256_loadu_pd(p + 8);
        const __m256d xy = _mm256_blend_pd(a, b, 0b1100);                                  // x0 y0 x2 y2
        const __m256d yz = _mm256_blend_pd(b, c, 0b1100);                                  // y1 z1 y3 z3
        const __m256d zx = _mm256_permute2f128_pd(_mm256_blend_pd(c, a, 0b1100), c, 0x01);  // z0 x1 z2 x3
        px.v = _mm256_shuffle_pd(xy, zx, 0b1010);
        py.v = _mm256_shuffle_pd(xy, yz, 0b0101);
        pz.v = _mm256_shuffle_pd(zx, yz, 0b1010);
    }
    /// Whether the coordinate offsets `at` name consecutive particles (at[k] = at[0] + 3k).
    WEFT_V4 bool run(const int32_t* at) {
        const __m128i i = _mm_sub_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(at)), _mm_set1_epi32(at[0]));
        return _mm_movemask_epi8(_mm_cmpeq_epi32(i, _mm_setr_epi32(0, 3, 6, 9))) == 0xFFFF;
    }
    /// p[k] = a[k] where m.
    WEFT_V4 void store_where(double* p, Mask m, V4 a) { _mm256_maskstore_pd(p, _mm256_castpd_si256(m), a.v); }
    /// v[at[k]] = a[k] in the lanes of `bits`, in lane order.
    WEFT_V4 void scatter(double* v, const int32_t* at, int bits, V4 a) {
        alignas(32) double out[4];
        _mm256_store_pd(out, a.v);
        for (int k = 0; k < 4; ++k)
            if (bits & (1 << k)) v[at[k]] = out[k];
    }
    /// The four consecutive Vec3 at `p` set to (x, y, z) in the lanes of `bits`, the others untouched.
    WEFT_V4 void store_vec3(double* p, V4 x, V4 y, V4 z, int bits) {
        const __m256d xy = _mm256_unpacklo_pd(x.v, y.v);         // x0 y0 x2 y2
        const __m256d yz = _mm256_unpackhi_pd(y.v, z.v);         // y1 z1 y3 z3
        const __m256d zx = _mm256_shuffle_pd(z.v, x.v, 0b1010);  // z0 x1 z2 x3
        int triples = 0;  // bit 3k, 3k + 1, 3k + 2: lane k
        for (int k = 0; k < 4; ++k)
            if (bits & (1 << k)) triples |= 7 << (3 * k);
        store_where(p, mask(triples & 0xF), {_mm256_permute2f128_pd(xy, zx, 0x20)});
        store_where(p + 4, mask((triples >> 4) & 0xF), {_mm256_permute2f128_pd(yz, xy, 0x30)});
        store_where(p + 8, mask((triples >> 8) & 0xF), {_mm256_permute2f128_pd(zx, yz, 0x31)});
    }
    /// The particles first + k, their coordinate offsets, and the lanes whose `v` is not 0 (NaN counts).
    WEFT_V4 int run_from(uint32_t first, const double* v, uint32_t* particle, int32_t* at) {
        const __m128i i = _mm_add_epi32(_mm_set1_epi32(static_cast<int>(first)), _mm_setr_epi32(0, 1, 2, 3));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(particle), i);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(at), _mm_add_epi32(i, _mm_add_epi32(i, i)));
        return _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(v + first), _mm256_setzero_pd(), _CMP_NEQ_UQ));
    }
    /// Where centre[k] (of the group's particles) is not no_particle: its coordinate offset, else the
    /// particle's own; and those lanes.
    WEFT_V4 int centres(const uint32_t* centre, const uint32_t* particle, bool run, int32_t* at) {
        const __m128i own = _mm_loadu_si128(reinterpret_cast<const __m128i*>(particle));
        const __m128i c = run ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(centre + particle[0]))
                              : _mm_setr_epi32(static_cast<int>(centre[particle[0]]), static_cast<int>(centre[particle[1]]),
                                               static_cast<int>(centre[particle[2]]), static_cast<int>(centre[particle[3]]));
        const __m128i none = _mm_cmpeq_epi32(c, _mm_set1_epi32(-1));
        const __m128i i = _mm_blendv_epi8(c, own, none);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(at), _mm_add_epi32(i, _mm_add_epi32(i, i)));
        return ~_mm_movemask_ps(_mm_castsi128_ps(none)) & 0xF;
    }
    /// v[0 .. n) in lanes 0 .. n (n < 4; the rest 0), without reading past them.
    WEFT_V4 V4 load_first(const double* v, uint32_t n) {
        const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
        return {_mm256_maskload_pd(v, _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), lane))};
    }

    WEFT_V4 V4 add(V4 a, V4 b) { return {_mm256_add_pd(a.v, b.v)}; }
    WEFT_V4 V4 sub(V4 a, V4 b) { return {_mm256_sub_pd(a.v, b.v)}; }
    WEFT_V4 V4 mul(V4 a, V4 b) { return {_mm256_mul_pd(a.v, b.v)}; }
    WEFT_V4 V4 div(V4 a, V4 b) { return {_mm256_div_pd(a.v, b.v)}; }
    WEFT_V4 V4 sqrt(V4 a) { return {_mm256_sqrt_pd(a.v)}; }
    /// maxpd's rule, std::max(b, a) = (b < a) ? a : b: a NaN or a pair of zeros gives `b`.
    WEFT_V4 V4 max(V4 a, V4 b) { return {_mm256_max_pd(a.v, b.v)}; }
    WEFT_V4 V4 negate(V4 a) { return {_mm256_xor_pd(a.v, _mm256_set1_pd(-0.0))}; }
    WEFT_V4 V4 abs(V4 a) { return {_mm256_andnot_pd(_mm256_set1_pd(-0.0), a.v)}; }

    WEFT_V4 Mask gt(V4 a, V4 b) { return _mm256_cmp_pd(a.v, b.v, _CMP_GT_OQ); }
    WEFT_V4 Mask lt(V4 a, V4 b) { return _mm256_cmp_pd(a.v, b.v, _CMP_LT_OQ); }
    WEFT_V4 Mask both(Mask a, Mask b) { return _mm256_and_pd(a, b); }
    WEFT_V4 int bits(Mask m) { return _mm256_movemask_pd(m); }
    WEFT_V4 Mask mask(int bits) {
        const __m256i lane = _mm256_and_si256(_mm256_set1_epi64x(bits), _mm256_setr_epi64x(1, 2, 4, 8));
        return _mm256_castsi256_pd(_mm256_cmpeq_epi64(lane, _mm256_setr_epi64x(1, 2, 4, 8)));
    }
    /// m ? a : b.
    WEFT_V4 V4 select(Mask m, V4 a, V4 b) { return {_mm256_blendv_pd(b.v, a.v, m)}; }
    /// m ? a + b : keep, and m ? a − b : keep.
    WEFT_V4 V4 add_where(Mask m, V4 keep, V4 a, V4 b) { return {_mm256_blendv_pd(keep.v, _mm256_add_pd(a.v, b.v), m)}; }
    WEFT_V4 V4 sub_where(Mask m, V4 keep, V4 a, V4 b) { return {_mm256_blendv_pd(keep.v, _mm256_sub_pd(a.v, b.v), m)}; }
    /// The lanes whose count[k] (int32) exceeds `q`.
    WEFT_V4 Mask above(const int32_t* count, uint32_t q) {
        const __m256i c = _mm256_cvtepi32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(count)));
        return _mm256_castsi256_pd(_mm256_cmpgt_epi64(c, _mm256_set1_epi64x(q)));
    }
    WEFT_V4 void store_lanes(double* out, V4 a) { _mm256_storeu_pd(out, a.v); }
};

/// Eight doubles (AVX-512 F, VL, DQ).
struct V8 {
    static constexpr uint32_t width = 8;
    using Mask = __mmask8;
    __m512d v;

    WEFT_V8 V8 zero() { return {_mm512_setzero_pd()}; }
    WEFT_V8 V8 broadcast(double a) { return {_mm512_set1_pd(a)}; }
    WEFT_V8 V8 load(const double* p) { return {_mm512_loadu_pd(p)}; }
    WEFT_V8 void store(double* p, V8 a) { _mm512_storeu_pd(p, a.v); }
    /// v[i[k]] in lane k (the masked form: GCC 12 warns that the plain one reads an unset register).
    WEFT_V8 __m512d gather_at(const double* v, __m256i i) { return _mm512_mask_i32gather_pd(_mm512_setzero_pd(), 0xFF, i, v, 8); }
    WEFT_V8 __m256i index(const void* at) { return _mm256_loadu_si256(static_cast<const __m256i*>(at)); }
    WEFT_V8 V8 gather(const double* v, const int32_t* at) { return {gather_at(v, index(at))}; }
    WEFT_V8 V8 gather(const double* v, const uint32_t* at) { return {gather_at(v, index(at))}; }
    /// As V4's: two-double loads dealt into lanes (the gather instruction took a sixth longer a sweep).
    WEFT_V8 void gather_vec3(const double* x, const int32_t* at, V8& px, V8& py, V8& pz) {
        __m512d a = _mm512_castpd256_pd512(_mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[0])), _mm_loadu_pd(x + at[1]), 1));
        a = _mm512_maskz_insertf64x4(0xFF, a, _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[2])), _mm_loadu_pd(x + at[3]), 1), 1);
        __m512d b = _mm512_castpd256_pd512(_mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[4])), _mm_loadu_pd(x + at[5]), 1));
        b = _mm512_maskz_insertf64x4(0xFF, b, _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(x + at[6])), _mm_loadu_pd(x + at[7]), 1), 1);
        px.v = _mm512_permutex2var_pd(a, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), b);
        py.v = _mm512_permutex2var_pd(a, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), b);
        pz.v = _mm512_set_pd(x[at[7] + 2], x[at[6] + 2], x[at[5] + 2], x[at[4] + 2], x[at[3] + 2], x[at[2] + 2], x[at[1] + 2], x[at[0] + 2]);
    }
    WEFT_V8 void gather6(const double* rows, const int32_t* at, V8* field) {
        const __m256i i = index(at);
        for (int f = 0; f < 6; ++f) field[f].v = gather_at(rows + f, i);
    }
    /// Eight consecutive Vec3 from `p` (24 doubles) as x, y and z lanes: three loads and six permutes.
    WEFT_V8 void load_vec3(const double* p, V8& px, V8& py, V8& pz) {
        const __m512d a = _mm512_loadu_pd(p), b = _mm512_loadu_pd(p + 8), c = _mm512_loadu_pd(p + 16);
        // a = x0 y0 z0 x1 y1 z1 x2 y2, b = z2 x3 y3 z3 x4 y4 z4 x5, c = y5 z5 x6 y6 z6 x7 y7 z7
        const __m512d x = _mm512_permutex2var_pd(a, _mm512_setr_epi64(0, 3, 6, 9, 12, 15, 0, 0), b);
        const __m512d y = _mm512_permutex2var_pd(a, _mm512_setr_epi64(1, 4, 7, 10, 13, 0, 0, 0), b);
        const __m512d z = _mm512_permutex2var_pd(a, _mm512_setr_epi64(2, 5, 8, 11, 14, 0, 0, 0), b);
        px.v = _mm512_permutex2var_pd(x, _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 10, 13), c);
        py.v = _mm512_permutex2var_pd(y, _mm512_setr_epi64(0, 1, 2, 3, 4, 8, 11, 14), c);
        pz.v = _mm512_permutex2var_pd(z, _mm512_setr_epi64(0, 1, 2, 3, 4, 9, 12, 15), c);
    }
    WEFT_V8 bool run(const int32_t* at) {
        const __m256i i = _mm256_sub_epi32(index(at), _mm256_set1_epi32(at[0]));
        return _mm256_cmpeq_epi32_mask(i, _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21)) == 0xFF;
    }
    WEFT_V8 void store_where(double* p, Mask m, V8 a) { _mm512_mask_storeu_pd(p, m, a.v); }
    /// As V4's (distinct `at` in the lanes of `bits`: the order of the stores does not matter).
    WEFT_V8 void scatter(double* v, const int32_t* at, int bits, V8 a) {
        _mm512_mask_i32scatter_pd(v, static_cast<__mmask8>(bits), index(at), a.v, 8);
    }
    WEFT_V8 void store_vec3(double* p, V8 x, V8 y, V8 z, int bits) {
        const __m512d a = _mm512_permutex2var_pd(_mm512_permutex2var_pd(x.v, _mm512_setr_epi64(0, 8, 0, 1, 9, 0, 2, 10), y.v),
                                                 _mm512_setr_epi64(0, 1, 8, 3, 4, 9, 6, 7), z.v);
        const __m512d b = _mm512_permutex2var_pd(_mm512_permutex2var_pd(x.v, _mm512_setr_epi64(0, 3, 11, 0, 4, 12, 0, 5), y.v),
                                                 _mm512_setr_epi64(10, 1, 2, 11, 4, 5, 12, 7), z.v);
        const __m512d c = _mm512_permutex2var_pd(_mm512_permutex2var_pd(x.v, _mm512_setr_epi64(13, 0, 6, 14, 0, 7, 15, 0), y.v),
                                                 _mm512_setr_epi64(0, 13, 2, 3, 14, 5, 6, 15), z.v);
        uint32_t triples = 0;
        for (int k = 0; k < 8; ++k)
            if (bits & (1 << k)) triples |= 7u << (3 * k);
        _mm512_mask_storeu_pd(p, static_cast<__mmask8>(triples), a);
        _mm512_mask_storeu_pd(p + 8, static_cast<__mmask8>(triples >> 8), b);
        _mm512_mask_storeu_pd(p + 16, static_cast<__mmask8>(triples >> 16), c);
    }
    WEFT_V8 int run_from(uint32_t first, const double* v, uint32_t* particle, int32_t* at) {
        const __m256i i = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int>(first)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(particle), i);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(at), _mm256_add_epi32(i, _mm256_add_epi32(i, i)));
        return _mm512_cmp_pd_mask(_mm512_loadu_pd(v + first), _mm512_setzero_pd(), _CMP_NEQ_UQ);
    }
    WEFT_V8 int centres(const uint32_t* centre, const uint32_t* particle, bool run, int32_t* at) {
        const __m256i own = index(particle);
        const __m256i c = run ? index(centre + particle[0]) : _mm256_i32gather_epi32(reinterpret_cast<const int*>(centre), own, 4);
        const __mmask8 none = _mm256_cmpeq_epi32_mask(c, _mm256_set1_epi32(-1));
        const __m256i i = _mm256_mask_blend_epi32(none, c, own);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(at), _mm256_add_epi32(i, _mm256_add_epi32(i, i)));
        return static_cast<uint8_t>(~none);
    }
    WEFT_V8 V8 load_first(const double* v, uint32_t n) { return {_mm512_maskz_loadu_pd(static_cast<__mmask8>((1u << n) - 1), v)}; }

    WEFT_V8 V8 add(V8 a, V8 b) { return {_mm512_add_pd(a.v, b.v)}; }
    WEFT_V8 V8 sub(V8 a, V8 b) { return {_mm512_sub_pd(a.v, b.v)}; }
    WEFT_V8 V8 mul(V8 a, V8 b) { return {_mm512_mul_pd(a.v, b.v)}; }
    WEFT_V8 V8 div(V8 a, V8 b) { return {_mm512_div_pd(a.v, b.v)}; }
    WEFT_V8 V8 sqrt(V8 a) { return {_mm512_maskz_sqrt_pd(0xFF, a.v)}; }  // maskz: see gather_at
    WEFT_V8 V8 max(V8 a, V8 b) { return {_mm512_maskz_max_pd(0xFF, a.v, b.v)}; }
    WEFT_V8 V8 negate(V8 a) { return {_mm512_xor_pd(a.v, _mm512_set1_pd(-0.0))}; }
    WEFT_V8 V8 abs(V8 a) { return {_mm512_andnot_pd(_mm512_set1_pd(-0.0), a.v)}; }

    WEFT_V8 Mask gt(V8 a, V8 b) { return _mm512_cmp_pd_mask(a.v, b.v, _CMP_GT_OQ); }
    WEFT_V8 Mask lt(V8 a, V8 b) { return _mm512_cmp_pd_mask(a.v, b.v, _CMP_LT_OQ); }
    WEFT_V8 Mask both(Mask a, Mask b) { return static_cast<Mask>(a & b); }
    WEFT_V8 int bits(Mask m) { return m; }
    WEFT_V8 Mask mask(int bits) { return static_cast<Mask>(bits); }
    WEFT_V8 V8 select(Mask m, V8 a, V8 b) { return {_mm512_mask_mov_pd(b.v, m, a.v)}; }
    WEFT_V8 V8 add_where(Mask m, V8 keep, V8 a, V8 b) { return {_mm512_mask_add_pd(keep.v, m, a.v, b.v)}; }
    WEFT_V8 V8 sub_where(Mask m, V8 keep, V8 a, V8 b) { return {_mm512_mask_sub_pd(keep.v, m, a.v, b.v)}; }
    WEFT_V8 Mask above(const int32_t* count, uint32_t q) {
        return _mm256_cmpgt_epi32_mask(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(count)),
                                       _mm256_set1_epi32(static_cast<int>(q)));
    }
    WEFT_V8 void store_lanes(double* out, V8 a) { _mm512_storeu_pd(out, a.v); }
};

#undef WEFT_V4
#undef WEFT_V8

}  // namespace weft::simd
#endif
