// docs/solver.md#ldlt: the vertex update's 3x3 solve is LDLᵀ, never a cofactor inverse.
#include <gtest/gtest.h>

#include <cmath>

#include "solver/simd.h"
#include "solver/ldlt.h"

namespace weft {
namespace {

// The reference's matrix (docs/solver.md#ldlt): one very stiff row against a small mass term, H = μ·I + k·g·gᵀ with eigenvalues
// 1.198e−1 (twice) and 5.399e+8. The reference prints H to five figures, which is not enough to pin its
// two small eigenvalues (rounded, it is not even positive definite), so it is rebuilt from what the
// reference states exactly: the eigenvalues, and g read off the printed diagonal and signs.
SymMat3 seed_matrix(double& mu, double& k) {
    mu = 1.198e-1;
    k = 5.399e8 - mu;
    Vec3 g = normalize(Vec3{std::sqrt(1.7099e8), -std::sqrt(2.7415e8), std::sqrt(9.4759e7)});
    SymMat3 h = SymMat3::diagonal(mu);
    h.add_outer(g, k);
    return h;
}

TEST(Ldlt, SeedMatrixReproducesThePrintedEntries) {
    double mu, k;
    SymMat3 h = seed_matrix(mu, k);
    EXPECT_NEAR(h.xx, 1.7099e8, 1e4);
    EXPECT_NEAR(h.xy, -2.1651e8, 1e4);
    EXPECT_NEAR(h.xz, 1.2729e8, 1e4);
    EXPECT_NEAR(h.yy, 2.7415e8, 1e4);
    EXPECT_NEAR(h.yz, -1.6118e8, 1e4);
    EXPECT_NEAR(h.zz, 9.4759e7, 1e3);
}

// The reference's LDLᵀ pivots: 1.710e+8, 3.120e−1, 1.453e−1 (product 7.752e+6, exact).
TEST(Ldlt, SeedMatrixPivotsArePositiveAndMatchTheSeed) {
    double mu, k;
    const Ldlt3 f = ldlt_factor(seed_matrix(mu, k));
    EXPECT_TRUE(f.positive_definite());
    EXPECT_NEAR(f.d0 / 1.710e8, 1.0, 5e-4);
    EXPECT_NEAR(f.d1 / 3.120e-1, 1.0, 5e-4);
    EXPECT_NEAR(f.d2 / 1.453e-1, 1.0, 5e-4);
    const double det = mu * mu * (mu + k);  // exact for μ·I + k·g·gᵀ with |g| = 1
    EXPECT_NEAR(f.d0 * f.d1 * f.d2 / det, 1.0, 1e-6);
    EXPECT_NEAR(det / 7.752e6, 1.0, 5e-4);
}

// The solve points the right way: f·Δ > 0 (a descent direction) and H·Δ reproduces f, along the stiff
// direction and across it, where a cofactor inverse loses every digit.
TEST(Ldlt, SeedMatrixSolveHasTheRightSign) {
    double mu, k;
    const SymMat3 h = seed_matrix(mu, k);
    const Ldlt3 f = ldlt_factor(h);
    const Vec3 g = normalize(Vec3{std::sqrt(1.7099e8), -std::sqrt(2.7415e8), std::sqrt(9.4759e7)});
    const Vec3 across = normalize(cross(g, Vec3{0, 0, 1}));
    for (const Vec3& b : {g, across, Vec3{1, 0, 0}, Vec3{0.3, -0.2, 0.9}}) {
        const Vec3 x = ldlt_solve(f, b);
        EXPECT_GT(dot(b, x), 0.0);
        // Across the stiff row the answer is b/μ; along it b/(μ + k).
        const Vec3 expected = (b - g * dot(g, b)) / mu + g * (dot(g, b) / (mu + k));
        EXPECT_LT(length(x - expected), 1e-5 * length(expected));
    }
}

// What the cofactor route gets wrong on the same matrix: its determinant, a sum of products that
// must cancel to the condition number squared, is off by orders of magnitude (the reference saw the sign flip).
TEST(Ldlt, CofactorDeterminantLosesTheSeedMatrix) {
    double mu, k;
    const SymMat3 h = seed_matrix(mu, k);
    const double cofactor = h.xx * (h.yy * h.zz - h.yz * h.yz) - h.xy * (h.xy * h.zz - h.yz * h.xz) +
                            h.xz * (h.xy * h.yz - h.yy * h.xz);
    const double det = mu * mu * (mu + k);
    const Ldlt3 f = ldlt_factor(h);
    EXPECT_GT(std::fabs(cofactor - det), 1e3 * std::fabs(f.d0 * f.d1 * f.d2 - det));
}

TEST(Ldlt, SolvesAGeneralSpdSystem) {
    SymMat3 h{4, 1, 0.5, 3, -0.2, 2};
    const Vec3 b{1, -2, 3};
    const Vec3 x = ldlt_solve(ldlt_factor(h), b);
    EXPECT_LT(length(h * x - b), 1e-14);
}

}  // namespace
}  // namespace weft

namespace weft {
namespace {

// Each pivot is checked: a matrix indefinite or singular only in its last pivot is refused (the sweep
// then leaves the particle for the finiteness gate rather than solving with it).
TEST(Ldlt, EveryPivotIsChecked) {
    EXPECT_TRUE(ldlt_factor(SymMat3::diagonal(1)).positive_definite());
    for (int which = 0; which < 3; ++which)
        for (double bad : {0.0, -1.0}) {
            SymMat3 h = SymMat3::diagonal(1);
            (which == 0 ? h.xx : which == 1 ? h.yy : h.zz) = bad;
            EXPECT_FALSE(ldlt_factor(h).positive_definite()) << "pivot " << which << " = " << bad;
        }
}

#ifdef WEFT_SOLVER_X86
// The lanes' solve (lib/solver/lanes_math.inc), compiled here at both widths as the sweep compiles it.
namespace lanes4 {
using V = simd::V4;
#define WEFT_LANES __attribute__((target(WEFT_TARGET_AVX2)))
#define WEFT_LANES_INLINE __attribute__((target(WEFT_TARGET_AVX2), always_inline)) inline
#include "solver/lanes_math.inc"
#undef WEFT_LANES
#undef WEFT_LANES_INLINE
}  // namespace lanes4

namespace lanes8 {
using V = simd::V8;
#define WEFT_LANES __attribute__((target(WEFT_TARGET_AVX512)))
#define WEFT_LANES_INLINE __attribute__((target(WEFT_TARGET_AVX512), always_inline)) inline
#include "solver/lanes_math.inc"
#undef WEFT_LANES
#undef WEFT_LANES_INLINE
}  // namespace lanes8

/// solve_lanes on a vector of Hessians `h` (lane k: h[k % 4]) with f = (3, 0, 0) and a trust radius of
/// 1 (docs/solver.md#lanes): the lanes' positive-definite bits and the x of each lane's move.
#define WEFT_SOLVE_LANES(ns, isa)                                                                             \
    __attribute__((target(isa))) int solve_##ns(const SymMat3 (&h)[4], double* move_x) {                    \
        using ns::V;                                                                                          \
        constexpr uint32_t n = V::width;                                                                      \
        alignas(64) double v[6][n];                                                                           \
        for (uint32_t k = 0; k < n; ++k) {                                                                    \
            const SymMat3& m = h[k % 4];                                                                      \
            v[0][k] = m.xx, v[1][k] = m.xy, v[2][k] = m.xz, v[3][k] = m.yy, v[4][k] = m.yz, v[5][k] = m.zz;   \
        }                                                                                                     \
        ns::Lanes l;                                                                                          \
        l.hxx = V::load(v[0]), l.hxy = V::load(v[1]), l.hxz = V::load(v[2]);                                   \
        l.hyy = V::load(v[3]), l.hyz = V::load(v[4]), l.hzz = V::load(v[5]);                                   \
        l.xx = l.xy = l.xz = l.fy = l.fz = V::zero();                                                         \
        l.fx = V::broadcast(3.0);                                                                             \
        ns::LaneMoves out;                                                                                    \
        ns::solve_lanes(l, V::broadcast(1.0), out);                                                           \
        for (uint32_t k = 0; k < n; ++k) move_x[k] = out.dx[0][k];                                            \
        return out.positive;                                                                                  \
    }
WEFT_SOLVE_LANES(lanes4, WEFT_TARGET_AVX2)
WEFT_SOLVE_LANES(lanes8, WEFT_TARGET_AVX512)
#undef WEFT_SOLVE_LANES

// The lanes' factorisation checks each pivot as Ldlt3::positive_definite does: lane 0 (and 4) is I,
// lanes 1-3 (5-7) have a zero or negative first, second or third pivot. Lane 0's Newton step (3, 0, 0)
// is cut to the trust radius 1 (exact: 3·(1/3) rounds to 1). Four lanes (AVX2) and eight (AVX-512).
TEST(Ldlt, EveryPivotIsCheckedInLanes) {
    if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "no AVX2 on this machine: the lanes never run";
    const bool eight = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    for (double bad : {0.0, -1.0}) {
        SymMat3 h[4] = {SymMat3::diagonal(1), SymMat3::diagonal(1), SymMat3::diagonal(1), SymMat3::diagonal(1)};
        h[1].xx = bad, h[2].yy = bad, h[3].zz = bad;
        double move_x[8];
        EXPECT_EQ(solve_lanes4(h, move_x), 0b0001) << "bad pivot " << bad;
        EXPECT_EQ(move_x[0], 1.0);
        if (!eight) continue;
        EXPECT_EQ(solve_lanes8(h, move_x), 0b00010001) << "bad pivot " << bad << ", eight lanes";
        EXPECT_EQ(move_x[0], 1.0);
        EXPECT_EQ(move_x[4], 1.0);
    }
}
#endif

}  // namespace
}  // namespace weft
