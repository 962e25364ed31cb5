// Pose rows (fabric.pose > 0, the bone-chain fabrics): a soft zero-length row from every free
// particle to its animated position lifted by its rest weight, stiffness mass·ω², ω = 2π·pose. The
// bind pose is then the equilibrium with the model standing as it was bound. Soft: no multiplier.
// Its build, its accumulation and its energy are all here.
#pragma once
#include <cstdint>
#include <numbers>
#include <vector>

#include "fabric/fabric.h"
#include "solver/row.h"

namespace weft {

struct PoseModel {
    bool enabled = false;  ///< fabric.pose > 0
    double omega2 = 0;     ///< (2π·pose)², 1/s²
};

struct PoseState {
    std::vector<double> k;  ///< N/m, mass·ω²; 0 = no row
    Vec3 lift;              ///< the row's centre above s_i: −(rest gravity in the frame)/ω²
};

namespace pose_rows {

PoseModel build(const Fabric& fabric);
PoseState initial_state(size_t particles);
void detach(PoseState& state, uint32_t i);
void attach(const PoseModel& model, PoseState& state, uint32_t i, double mass);
/// The centre sits where the row's pull carries the weight the particle has at rest: the bind pose is
/// the chain's equilibrium with the model standing as it was bound (inverse statics), and a tilt of the
/// frame away from that is what sags it. `rest_gravity` is gravity in the frame's rest axes.
void set_lift(const PoseModel& model, PoseState& state, const Vec3& rest_gravity);
bool active(const PoseModel& model, const PoseState& state, uint32_t i);
/// Adds ½·k·|x − s − lift|² over the free particles to `e`, joules.
void add_elastic_energy(const PoseModel& model, const PoseState& state, const std::vector<uint32_t>& free_particles,
                        const Vec3* x, const std::vector<Vec3>& animated, double& e);
void add_local_energy(const PoseModel& model, const PoseState& state, uint32_t i, const Vec3& xi, const Vec3& animated, double& e);

inline void accumulate(const PoseModel& model, const PoseState& state, uint32_t i, const Vec3& xi, const Vec3& animated,
                       Accumulated& a) {
    if (model.enabled && state.k[i] > 0) {
        a.f -= (xi - animated - state.lift) * state.k[i];
        a.h.add_diagonal(state.k[i]);
    }
}

}  // namespace pose_rows
}  // namespace weft
