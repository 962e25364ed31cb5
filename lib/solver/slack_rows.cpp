#include "solver/slack_rows.h"

#include <algorithm>

namespace weft::slack_rows {

SlackModel build(const Fabric& fabric) { return {fabric.slack < 1, fabric.slack}; }

SlackState initial_state(size_t n, const SolverConstants& constants) {
    SlackState s;
    s.radius.assign(n, solver_infinity);
    s.k.assign(n, 0);
    s.lambda.assign(n, 0);
    s.kappa.assign(n, constants.k_min_ratio);
    return s;
}

void detach(SlackState& s, uint32_t i) {
    s.radius[i] = solver_infinity;
    s.lambda[i] = 0;
}

void attach(const SlackModel& m, SlackState& s, uint32_t i, double d_geo) {
    if (m.enabled) s.radius[i] = 2 * m.slack * d_geo;
}

bool active(const SlackModel& m, const SlackState& s, uint32_t i) { return m.enabled && std::isfinite(s.radius[i]); }

void set_penalties(SlackState& s, const std::vector<uint32_t>& free_particles, const std::vector<double>& mass, double inv_h2) {
    for (uint32_t i : free_particles) s.k[i] = s.kappa[i] * (mass[i] * inv_h2);
}

void warm_start(SlackState& s, const SolverConstants& constants, bool penalties) {
    decay_multipliers(s.lambda, s.kappa, constants, penalties);
}

void reset(SlackState& s, const SolverConstants& constants) { std::fill(s.kappa.begin(), s.kappa.end(), constants.k_min_ratio); }

void update_duals(const SlackModel& m, SlackState& s, const std::vector<uint32_t>& free_particles, const std::vector<double>& mass,
                  const Vec3* x, const std::vector<Vec3>& animated, double inv_h2, const SolverConstants& constants) {
    if (!m.enabled) return;
    for (uint32_t i : free_particles)
        if (std::isfinite(s.radius[i]))
            update_leash_dual(distance(x[i], animated[i]) - s.radius[i], s.k[i], s.lambda[i], s.kappa[i], mass[i] * inv_h2, constants);
}

void add_local_energy(const SlackModel& m, const SlackState& s, uint32_t i, const Vec3& xi, const Vec3& animated, double& e) {
    if (active(m, s, i)) e += row_energy(s.k[i], s.lambda[i], distance(xi, animated) - s.radius[i], 0, solver_infinity);
}

}  // namespace weft::slack_rows
