// What one core of the machine can do, measured (docs/measurements.md#the-sweep-like-for-like): the
// throughput of double additions and multiplications, divisions and square roots in four-wide (AVX2)
// and eight-wide (AVX-512) vectors, and the read bandwidth of a working set of each size. The
// sweep's roofline is derived from these and the work a particle's update does.
//
// Each figure is the best of many short runs (a loaded machine gives some of them a whole core).
// Eight independent chains per loop keep every unit busy (latency 4 for an add, ~15-20 for a division).
#pragma once
#if defined(__x86_64__)
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace weft::bench::roofline {

template <class F>
double best_seconds(F run, int tries) {
    double best = 1e30;
    for (int t = 0; t < tries; ++t) {
        const auto t0 = std::chrono::steady_clock::now();
        run();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

enum class Op { add, mul, div, sqrt };

/// `n` rounds of eight independent operations `op` on four-wide vectors; returns a value so the
/// work is kept.
template <Op op>
__attribute__((target("avx2"), noinline)) double chains4(long n) {
    __m256d a[8];
    for (int k = 0; k < 8; ++k) a[k] = _mm256_set1_pd(1.5 + k * 1e-3);
    const __m256d b = _mm256_set1_pd(op == Op::add ? 1e-12 : 0.9999999);
    for (long i = 0; i < n; ++i)
        for (int k = 0; k < 8; ++k)
            if constexpr (op == Op::add) a[k] = _mm256_add_pd(a[k], b);
            else if constexpr (op == Op::mul) a[k] = _mm256_mul_pd(a[k], b);
            else if constexpr (op == Op::div) a[k] = _mm256_div_pd(a[k], b);
            else a[k] = _mm256_sqrt_pd(a[k]);
    __m256d s = a[0];
    for (int k = 1; k < 8; ++k) s = _mm256_add_pd(s, a[k]);
    return _mm256_cvtsd_f64(s);
}

/// As chains4, eight-wide.
template <Op op>
__attribute__((target("avx512f"), noinline)) double chains8(long n) {
    __m512d a[8];
    for (int k = 0; k < 8; ++k) a[k] = _mm512_set1_pd(1.5 + k * 1e-3);
    const __m512d b = _mm512_set1_pd(op == Op::add ? 1e-12 : 0.9999999);
    for (long i = 0; i < n; ++i)
        for (int k = 0; k < 8; ++k)
            if constexpr (op == Op::add) a[k] = _mm512_add_pd(a[k], b);
            else if constexpr (op == Op::mul) a[k] = _mm512_mul_pd(a[k], b);
            else if constexpr (op == Op::div) a[k] = _mm512_div_pd(a[k], b);
            else a[k] = _mm512_maskz_sqrt_pd(0xFF, a[k]);
    __m512d s = a[0];
    for (int k = 1; k < 8; ++k) s = _mm512_add_pd(s, a[k]);
    return _mm512_cvtsd_f64(s);
}

/// Nanoseconds per vector operation `op`, `wide` lanes (4 or 8: the machine must have AVX-512).
template <Op op>
double ns_per_op(int wide) {
    const long n = 4000;
    volatile double keep = 0;
    const double s = best_seconds([&] { keep = keep + (wide == 8 ? chains8<op>(n) : chains4<op>(n)); }, 400);
    return s / (n * 8.0) * 1e9;
}

/// Reads `bytes` of doubles `reps` times with four-wide loads; returns a value so the reads are kept.
__attribute__((target("avx2"), noinline)) inline double read_all(const double* p, size_t count, int reps) {
    __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
    for (int r = 0; r < reps; ++r)
        for (size_t i = 0; i + 16 <= count; i += 16) {
            s0 = _mm256_add_pd(s0, _mm256_load_pd(p + i));
            s1 = _mm256_add_pd(s1, _mm256_load_pd(p + i + 4));
            s2 = _mm256_add_pd(s2, _mm256_load_pd(p + i + 8));
            s3 = _mm256_add_pd(s3, _mm256_load_pd(p + i + 12));
        }
    return _mm256_cvtsd_f64(_mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3)));
}

/// Read bandwidth, GB/s, over a working set of `bytes`.
inline double read_gb_per_s(size_t bytes) {
    const size_t count = bytes / sizeof(double);
    double* p = static_cast<double*>(std::aligned_alloc(64, count * sizeof(double)));
    for (size_t i = 0; i < count; ++i) p[i] = 1e-9 * static_cast<double>(i);
    const int reps = static_cast<int>(std::max<size_t>(1, (size_t{1} << 24) / bytes));
    volatile double keep = 0;
    const double s = best_seconds([&] { keep = keep + read_all(p, count, reps); }, bytes > (size_t{64} << 20) ? 4 : 60);
    std::free(p);
    return static_cast<double>(count) * sizeof(double) * reps / s * 1e-9;
}

}  // namespace weft::bench::roofline
#endif
