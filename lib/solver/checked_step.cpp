#include "solver/checked_step.h"

#include <cmath>

namespace weft {
namespace {

bool unit_rotation(const Quat& q) {
    const double n = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return std::isfinite(n) && std::fabs(n - 1) <= unit_quaternion_tolerance;
}

bool placement_ok(const Pose& p) { return is_finite(p.position) && unit_rotation(p.rotation); }

bool radius_ok(double r) { return std::isfinite(r) && r >= 0; }

bool cloth_finite(const ClothState& c) {
    for (size_t i = 0; i < c.x.size(); ++i)
        if (!is_finite(c.x[i]) || !is_finite(c.v[i])) return false;
    return true;
}

}  // namespace

const char* step_check_name(StepCheck check) {
    switch (check) {
        case StepCheck::ok: return "ok";
        case StepCheck::bad_dt: return "bad_dt";
        case StepCheck::bad_frame: return "bad_frame";
        case StepCheck::bad_holder: return "bad_holder";
        case StepCheck::bad_collider: return "bad_collider";
        case StepCheck::non_finite: return "non_finite";
    }
    return "non_finite";
}

StepCheck check_step_input(const Solver& solver, const StepInput& in) {
    if (!(in.dt > 0 && in.dt <= max_step_seconds)) return StepCheck::bad_dt;  // NaN fails both
    if (!placement_ok(in.frame) || !is_finite(in.gravity)) return StepCheck::bad_frame;
    if (!in.holders.empty() && in.holders.size() != solver.proxy().pins.size()) return StepCheck::bad_holder;
    for (const Pose& h : in.holders)
        if (!placement_ok(h)) return StepCheck::bad_holder;
    for (const SphereCollider& s : in.spheres)
        if (!is_finite(s.centre) || !radius_ok(s.radius)) return StepCheck::bad_collider;
    for (const CapsuleCollider& c : in.capsules)
        if (!is_finite(c.a) || !is_finite(c.b) || !radius_ok(c.radius)) return StepCheck::bad_collider;
    return StepCheck::ok;
}

StepCheck checked_step(Solver& solver, const StepInput& input, SolverState* undo, StepStats* stats) {
    if (const StepCheck c = check_step_input(solver, input); c != StepCheck::ok) return c;
    if (undo) copy_step_state(*undo, solver.solver_state());  // the buffers keep their capacity between steps
    StepStats s;
    try {
        s = solver.step(input);
    } catch (...) {  // out of memory part way through: the state as it was, then the caller's to handle
        if (undo) solver.restore_step(*undo);
        throw;
    }
    if (stats) *stats = s;
    if (!cloth_finite(solver.state())) {
        if (undo) solver.restore_step(*undo);
        return StepCheck::non_finite;
    }
    return StepCheck::ok;
}

}  // namespace weft
