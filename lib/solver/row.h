// What every row kind shares: the force and Hessian a vertex update accumulates, the distance-row
// block, the leash (a distance row that only pulls in), the energy a clamped row stores, and the
// hard rows' warm start and penalty ramp (docs/solver.md#constants).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "solver/constants.h"
#include "solver/ldlt.h"

namespace weft {

inline constexpr double solver_infinity = std::numeric_limits<double>::infinity();

/// Force and Hessian accumulated for one particle.
struct Accumulated {
    Vec3 f;
    SymMat3 h;
};

/// Adds a distance row's force and Hessian block to `a` (docs/solver.md#rows): `fc` the clamped force, `k_along`
/// the penalty curvature along g (0 when the row sits at a clamp), and the PSD half of the geometric
/// stiffness (fc/L)·(I − g·gᵀ) when the row is in tension (docs/solver.md#geometric-stiffness), added at a clamp too.
inline void add_distance_row(Accumulated& a, const Vec3& g, double inv_l, double fc, double k_along) {
    a.f -= g * fc;
    double s = fc > 0 ? fc * inv_l : 0.0;
    a.h.add_diagonal(s);
    a.h.add_outer(g, k_along - s);
}

/// A leash row (slack, tether): a hard distance row to `centre` that only pulls in, active once
/// k·(|x − centre| − radius) + λ > 0 (docs/solver.md#clamp-direction: the [0, ∞) clamp).
inline void add_leash_row(Accumulated& a, const Vec3& xi, const Vec3& centre, double radius, double k, double lambda) {
    const Vec3 d = xi - centre;
    const double l2 = length_squared(d);
    if (!(l2 > 0)) return;
    const double l = std::sqrt(l2);
    const double u = k * (l - radius) + lambda;
    if (u > 0) add_distance_row(a, d / l, 1 / l, u, k);
}

/// ∫ fc dC of a row with penalty k, multiplier λ and force clamp [fmin, fmax], up to a constant: the
/// energy the vertex update descends (docs/solver.md#trust-region, the energy audit).
inline double row_energy(double k, double lambda, double c, double fmin, double fmax) {
    if (!(k > 0)) return 0;
    double u = k * c + lambda;
    if (u > fmax) return (fmax * fmax + 2 * fmax * (u - fmax)) / (2 * k);
    if (u < fmin) return (fmin * fmin + 2 * fmin * (u - fmin)) / (2 * k);
    return u * u / (2 * k);
}

/// The warm start of hard rows (docs/solver.md#warm-start): λ ← α·γ·λ and, where `penalties`, the
/// penalty ratio k ← clamp(γ·k, k_min, k_max).
inline void decay_multipliers(std::vector<double>& lambda, std::vector<double>& kappa, const SolverConstants& c, bool penalties) {
    const double ag = c.alpha * c.gamma;
    for (double& l : lambda) l *= ag;
    if (penalties)
        for (double& k : kappa) k = std::clamp(k * c.gamma, c.k_min_ratio, c.k_max_ratio);
}

/// Whether a warm start leaves every penalty ratio κ where the last one put it: with γ = 1 and the
/// band one point (k_min = k_max, the ramp inert) κ ← clamp(κ, k_min, k_max) maps every value onto
/// one it then keeps, bit for bit (docs/solver.md#warm-start). Then k = κ·m_eff/h² changes only with
/// h or the masses.
inline bool penalties_settle(const SolverConstants& c) { return c.gamma == 1 && !(c.k_max_ratio > c.k_min_ratio); }

/// The penalty ramp k ← min(k + β·|C|, k_max) of a row not held at a clamp (inert while k_min = k_max,
/// docs/solver.md#warm-start); `scale` is the row's m_eff/h², the unit of the ratio `kappa`.
inline void ramp_penalty(double& kappa, double c, double scale, const SolverConstants& k) {
    if (k.k_max_ratio > k.k_min_ratio && scale > 0)
        kappa = std::min(kappa + k.beta * std::fabs(c) / scale, k.k_max_ratio);
}

/// The dual update of a one-sided leash row (λ >= 0): λ ← max(k·C + λ, 0), the ramp while active.
inline void update_leash_dual(double c, double k, double& lambda, double& kappa, double scale, const SolverConstants& constants) {
    const double u = k * c + lambda;
    lambda = std::max(u, 0.0);
    if (u > 0) ramp_penalty(kappa, c, scale, constants);
}

}  // namespace weft
