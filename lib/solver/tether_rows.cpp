#include "solver/tether_rows.h"

#include <algorithm>

namespace weft::tether_rows {

TetherState initial_state(size_t n, const SolverConstants& constants) {
    TetherState s;
    s.centre.assign(n, no_particle);
    s.radius.assign(n, solver_infinity);
    s.k.assign(n, 0);
    s.lambda.assign(n, 0);
    s.kappa.assign(n, constants.k_min_ratio);
    return s;
}

void detach(TetherState& s, uint32_t i) {
    s.centre[i] = no_particle;
    s.radius[i] = solver_infinity;
    s.lambda[i] = 0;
}

void attach(TetherState& s, uint32_t i, uint32_t c, double d_geo, const Vec3* x) {
    s.centre[i] = c;
    s.radius[i] = std::max(d_geo, distance(x[i], x[c]));
}

void tighten(TetherState& s, const ClothProxy& p, const std::vector<uint32_t>& free_particles, const Vec3* x) {
    for (uint32_t i : free_particles) {
        uint32_t c = s.centre[i];
        if (c == no_particle) continue;
        s.radius[i] = std::max(p.d_geo[i], std::min(s.radius[i], distance(x[i], x[c])));
    }
}

void set_penalties(TetherState& s, const std::vector<uint32_t>& free_particles, const std::vector<double>& mass, double inv_h2) {
    for (uint32_t i : free_particles) s.k[i] = s.kappa[i] * (mass[i] * inv_h2);
}

void warm_start(TetherState& s, const SolverConstants& constants, bool penalties) {
    decay_multipliers(s.lambda, s.kappa, constants, penalties);
}

void reset(TetherState& s, const SolverConstants& constants) { std::fill(s.kappa.begin(), s.kappa.end(), constants.k_min_ratio); }

void update_duals(TetherState& s, const std::vector<uint32_t>& free_particles, const std::vector<double>& mass, const Vec3* x,
                  double inv_h2, const SolverConstants& constants) {
    for (uint32_t i : free_particles)
        if (s.centre[i] != no_particle)
            update_leash_dual(distance(x[i], x[s.centre[i]]) - s.radius[i], s.k[i], s.lambda[i], s.kappa[i], mass[i] * inv_h2,
                              constants);
}

void add_local_energy(const TetherState& s, uint32_t i, const Vec3& xi, const Vec3* x, double& e) {
    if (s.centre[i] != no_particle)
        e += row_energy(s.k[i], s.lambda[i], distance(xi, x[s.centre[i]]) - s.radius[i], 0, solver_infinity);
}

}  // namespace weft::tether_rows
