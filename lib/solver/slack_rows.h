// Slack rows: a leash from every free particle to its animated position s_i (the rest pose hung
// from its nearest held particle and turned with its holder), radius 2·slack·d_geo, only pulling in
// (docs/solver.md#slack). Hard, with a multiplier; a fabric with slack 1 builds none (the row provably
// cannot bind). Its build, its accumulation, its energy and its dual update are all here.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "fabric/fabric.h"
#include "solver/row.h"

namespace weft {

struct SlackModel {
    bool enabled = false;   ///< fabric.slack < 1
    double slack = 1;       ///< fabric.slack
};

struct SlackState {
    std::vector<double> radius;   ///< 2·slack·d_geo; +inf = no row
    std::vector<double> k, lambda, kappa;
};

namespace slack_rows {

SlackModel build(const Fabric& fabric);
SlackState initial_state(size_t particles, const SolverConstants& constants);
void detach(SlackState& state, uint32_t i);
void attach(const SlackModel& model, SlackState& state, uint32_t i, double d_geo);
bool active(const SlackModel& model, const SlackState& state, uint32_t i);
void set_penalties(SlackState& state, const std::vector<uint32_t>& free_particles, const std::vector<double>& mass, double inv_h2);
void warm_start(SlackState& state, const SolverConstants& constants, bool penalties);
void reset(SlackState& state, const SolverConstants& constants);
void update_duals(const SlackModel& model, SlackState& state, const std::vector<uint32_t>& free_particles,
                  const std::vector<double>& mass, const Vec3* x, const std::vector<Vec3>& animated, double inv_h2,
                  const SolverConstants& constants);
void add_local_energy(const SlackModel& model, const SlackState& state, uint32_t i, const Vec3& xi, const Vec3& animated, double& e);

inline void accumulate(const SlackModel& model, const SlackState& state, uint32_t i, const Vec3& xi, const Vec3& animated,
                       Accumulated& a) {
    if (model.enabled && std::isfinite(state.radius[i]))
        add_leash_row(a, xi, animated, state.radius[i], state.k[i], state.lambda[i]);
}

}  // namespace slack_rows
}  // namespace weft
