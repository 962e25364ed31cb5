// Tether rows: a leash from every free particle to its nearest held particle, radius its geodesic
// distance d_geo, only pulling in (docs/solver.md#tether). Hard, with a multiplier. A tether
// starts no tighter than where its particle is and only ever comes in. Its build, its accumulation,
// its energy and its dual update are all here.
#pragma once
#include <cstdint>
#include <vector>

#include "proxy/core/cloth_proxy.h"
#include "solver/row.h"

namespace weft {

struct TetherState {
    std::vector<uint32_t> centre;   ///< the particle tethered to; no_particle = no tether
    std::vector<double> radius;     ///< metres; +inf = no tether
    std::vector<double> k, lambda, kappa;
};

namespace tether_rows {

TetherState initial_state(size_t particles, const SolverConstants& constants);
/// Particle i has no tether (it is held, or what it hangs from is not).
void detach(TetherState& state, uint32_t i);
/// Tethers particle i to held particle c, no tighter than where they are now.
void attach(TetherState& state, uint32_t i, uint32_t c, double d_geo, const Vec3* x);
/// A tether only ever comes in: radius ← max(d_geo, min(radius, |x_i − x_c|)).
void tighten(TetherState& state, const ClothProxy& proxy, const std::vector<uint32_t>& free_particles, const Vec3* x);
void set_penalties(TetherState& state, const std::vector<uint32_t>& free_particles, const std::vector<double>& mass, double inv_h2);
void warm_start(TetherState& state, const SolverConstants& constants, bool penalties);
void reset(TetherState& state, const SolverConstants& constants);
void update_duals(TetherState& state, const std::vector<uint32_t>& free_particles, const std::vector<double>& mass, const Vec3* x,
                  double inv_h2, const SolverConstants& constants);
void add_local_energy(const TetherState& state, uint32_t i, const Vec3& xi, const Vec3* x, double& e);

inline void accumulate(const TetherState& state, uint32_t i, const Vec3& xi, const Vec3* x, Accumulated& a) {
    const uint32_t p = state.centre[i];
    if (p != no_particle) add_leash_row(a, xi, x[p], state.radius[i], state.k[i], state.lambda[i]);
}

}  // namespace tether_rows
}  // namespace weft
