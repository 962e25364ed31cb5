#include "solver/pose_rows.h"

namespace weft::pose_rows {

PoseModel build(const Fabric& fabric) {
    return {fabric.pose > 0, 4 * std::numbers::pi * std::numbers::pi * fabric.pose * fabric.pose};
}

PoseState initial_state(size_t n) {
    PoseState s;
    s.k.assign(n, 0);
    return s;
}

void detach(PoseState& s, uint32_t i) { s.k[i] = 0; }

void attach(const PoseModel& m, PoseState& s, uint32_t i, double mass) {
    if (m.enabled) s.k[i] = mass * m.omega2;
}

void set_lift(const PoseModel& m, PoseState& s, const Vec3& rest_gravity) {
    if (m.enabled) s.lift = rest_gravity * (-1 / m.omega2);
}

bool active(const PoseModel& m, const PoseState& s, uint32_t i) { return m.enabled && s.k[i] > 0; }

void add_elastic_energy(const PoseModel& m, const PoseState& s, const std::vector<uint32_t>& free_particles, const Vec3* x,
                        const std::vector<Vec3>& animated, double& e) {
    if (!m.enabled) return;
    for (uint32_t i : free_particles)
        if (s.k[i] > 0) e += 0.5 * s.k[i] * length_squared(x[i] - animated[i] - s.lift);
}

void add_local_energy(const PoseModel& m, const PoseState& s, uint32_t i, const Vec3& xi, const Vec3& animated, double& e) {
    if (active(m, s, i)) e += 0.5 * s.k[i] * length_squared(xi - animated - s.lift);
}

}  // namespace weft::pose_rows
