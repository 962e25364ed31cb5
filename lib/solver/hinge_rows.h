// Hinge rows: the bend of a sheet across each interior edge, C = Σ w_k·x_k − C̄ with Bergou et al.'s
// cotangent weights from the rest pose (Bergou, Wardetzky, Harmon, Zorin, Grinspun. A Quadratic
// Bending Model for Inextensible Surfaces. SGP 2006; docs/solver.md#rows). Soft: no multiplier. Their build,
// their accumulation into a vertex update and their energy are all here.
//
// The row is linear in x (f −= k·w_s·C, H += k·w_s²·I), so the hinges are summed per particle pair
// into a bending operator: f_i −= (bend_diagonal_i·x_i + Σ_j c_ij·x_j − bend_rest_i)/h²,
// H_i += bend_diagonal_i/h²·I. A 32x32 sheet has 11 hinge incidences per particle over 12 distinct
// neighbours; the sum visits each neighbour once.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "fabric/fabric.h"
#include "solver/row.h"

namespace weft {

/// One incidence of a hinge on a particle: the hinge and which of its four stencil slots it is.
struct HingeIncidence {
    uint32_t hinge;
    uint32_t slot;
};

/// One off-diagonal entry of the bending operator: the hinges' Σ k·w·wᵀ between two particles.
struct BendNeighbour {
    uint32_t other;
    double coefficient;  ///< Σ over shared hinges of ratio·m_eff·w_self·w_other, kg (× 1/h² at use)
};

struct HingeModel {
    double bend = 0;                              ///< fabric.bend: the ratio at a hinge's reference area
    size_t capped = 0;                            ///< hinges whose scaled ratio the band's ceiling cut
    std::vector<std::array<uint32_t, 4>> ends;
    std::vector<std::array<double, 4>> w;         ///< cotangent weights from the rest pose
    std::vector<double> ratio;                    ///< bend·(reference/(A₁+A₂))², capped: k = ratio·m_eff/h²
    std::vector<Vec3> rest;                       ///< C̄ = Σ w_k·r_k: the rest pose's own bend, 0 when cut flat
    std::vector<size_t> curved;                   ///< hinges whose C̄ is not 0 (the hold-line turn moves them)
    std::vector<uint32_t> offsets;
    std::vector<HingeIncidence> incidences;

    size_t count() const { return ends.size(); }
};

/// The effective masses (a release or a grab changes them), this substep's stiffness, and the
/// bending operator built from both.
struct HingeState {
    std::vector<double> m_eff;           ///< 1 / Σ w_k²·inverse_mass_k
    std::vector<double> k;               ///< this substep's stiffness
    std::vector<double> bend_diagonal;   ///< Σ ratio·m_eff·w_s², kg
    std::vector<Vec3> bend_rest;         ///< Σ ratio·m_eff·w_s·C̄, kg·m: the hinges' pull at the rest pose, taken off
    std::vector<uint32_t> bend_offsets;
    std::vector<BendNeighbour> bend_neighbours;
};

/// The smallest weight, as a share of the hinge's largest, through which its free ends can bend it:
/// below it the hinge is left out of the operator (m_eff 0). A free end on the straight line its two
/// neighbours make (a fan's apex over a held ridge) has the cotangents of two supplementary angles, 0
/// but for rounding (1e-16 of the largest); the operator's terms grow as largest/lever and lose that
/// ratio times the rounding, so at 1e-6 they keep ten digits (docs/solver.md#a-hinge-its-free-ends-cannot-bend).
inline constexpr double kHingeLeverFloor = 1e-6;

namespace hinge_rows {

/// Throws std::invalid_argument naming the hinge when a wing triangle has no area at rest. A hinge's
/// reference area is the proxy's (ClothProxy::hinge_reference_area: the source mesh's hinge where it
/// lies), or its own where the proxy records none (its ratio is then the fabric's bend).
HingeModel build(const ClothProxy& proxy, const Fabric& fabric);
HingeState initial_state(const HingeModel& model);
/// Effective masses and the bending operator after the set of kinematic particles changed.
void refresh_masses(const HingeModel& model, HingeState& state, const std::vector<double>& inverse_mass);
void set_penalties(const HingeModel& model, HingeState& state, double inv_h2);
/// Adds ½·k·|C|² of every hinge to `e`, joules.
void add_elastic_energy(const HingeModel& model, const HingeState& state, const Vec3* x, double& e);
/// Adds the energy of the hinges at particle i, with i at `xi`, to `e` (the energy audit).
void add_local_energy(const HingeModel& model, const HingeState& state, uint32_t i, const Vec3& xi, const Vec3* x, double& e);

/// Adds the hinges at particle i (at `xi`) to `a`, through the bending operator.
inline void accumulate(const HingeState& state, uint32_t i, const Vec3& xi, const Vec3* x, double inv_h2, Accumulated& a) {
    if (state.bend_diagonal.empty()) return;
    const double dk = state.bend_diagonal[i] * inv_h2;
    Vec3 c = xi * state.bend_diagonal[i] - state.bend_rest[i];
    for (uint32_t q = state.bend_offsets[i], end = state.bend_offsets[i + 1]; q < end; ++q)
        c += x[state.bend_neighbours[q].other] * state.bend_neighbours[q].coefficient;
    a.f -= c * inv_h2;
    a.h.add_diagonal(dk);
}

}  // namespace hinge_rows
}  // namespace weft
