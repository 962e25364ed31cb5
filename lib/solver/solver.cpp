// The solver's public API: construction from a model, holds (docs/solver.md#holds), sleep (docs/solver.md#sleep),
// measures; and the state's bookkeeping (masses, what hangs from what, the animated pose, a reset).
// The step is step.cpp.
#include "solver/solver.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "solver/message.h"
#include "solver/phases.h"

namespace weft {

namespace {

Pose inverse_pose(const Pose& p) {
    Quat r = p.rotation.conjugate();
    return {-r.rotate(p.position), r};
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// The state's bookkeeping
// ---------------------------------------------------------------------------------------------------

SolverState initial_state(const SolverModel& m) {
    const ClothProxy& p = *m.proxy;
    SolverState s;
    s.cloth.x = p.rest_position;
    s.cloth.x_prev = p.rest_position;
    s.cloth.y = p.rest_position;
    s.cloth.v.assign(m.n, Vec3{});
    s.cloth.inverse_mass = p.inverse_mass;
    s.v_before.assign(m.n, Vec3{});
    s.hold_offset = p.rest_position;
    s.target = p.rest_position;
    s.animated = p.rest_position;
    s.pin_holding.assign(p.pins.size(), 1);
    s.holder_pose.assign(p.pins.size(), Pose{});
    s.hold_start_rotation.assign(p.pins.size(), Quat{});
    s.turned.turn.assign(p.pins.size(), Quat{});
    s.turned.epoch.assign(p.pins.size(), 0);
    s.turned.offset.assign(m.n, Vec3{});
    s.turned.offset_epoch.assign(m.n, 0);
    s.distance = distance_rows::initial_state(m.distance, m.constants);
    s.hinge = hinge_rows::initial_state(m.hinge);
    s.tether = tether_rows::initial_state(m.n, m.constants);
    s.slack = slack_rows::initial_state(m.n, m.constants);
    s.pose = pose_rows::initial_state(m.n);
    s.contact = contact_rows::initial_state(m.n);
    refresh_masses(m, s);
    attach_rows(m, s);
    return s;
}

void copy_step_state(SolverState& to, const SolverState& from) {
    to.cloth = from.cloth;
    to.v_before = from.v_before;
    to.hold_offset = from.hold_offset;
    to.target = from.target;
    to.animated = from.animated;
    to.turned = from.turned;
    to.pin_holding = from.pin_holding;
    to.holder_pose = from.holder_pose;
    to.hold_start_rotation = from.hold_start_rotation;
    to.started = from.started;
    to.frame_pose = from.frame_pose;
    to.frame_velocity = from.frame_velocity;
    to.frame_omega = from.frame_omega;
    to.gravity_frame = from.gravity_frame;
    to.distance = from.distance;
    to.hinge = from.hinge;
    to.tether = from.tether;
    to.slack = from.slack;
    to.pose = from.pose;
    to.contact = from.contact;
    to.substep = from.substep;
    to.penalties_inv_h2 = from.penalties_inv_h2;
    to.asleep = from.asleep;
    to.quiet_steps = from.quiet_steps;
    to.cycle = from.cycle;
    to.steps_since_reset = from.steps_since_reset;
    to.wave_done = from.wave_done;
    to.wave_epoch = from.wave_epoch;
}

void refresh_masses(const SolverModel& m, SolverState& s) {
    distance_rows::refresh_masses(m.distance, s.distance, s.cloth.inverse_mass);
    hinge_rows::refresh_masses(m.hinge, s.hinge, s.cloth.inverse_mass);
    s.bend_lanes = sweep_blocks::lay_out_bend(m.sweep, s.hinge);
    s.dual_lanes = sweep_blocks::lay_out_duals(m.sweep, *m.proxy, m.distance, s.cloth.inverse_mass);
    s.free_particles.clear();
    s.kinematic_particles.clear();
    s.penalties_inv_h2 = std::numeric_limits<double>::quiet_NaN();
    for (uint32_t i = 0; i < m.n; ++i) (s.cloth.inverse_mass[i] > 0 ? s.free_particles : s.kinematic_particles).push_back(i);
}

void attach_rows(const SolverModel& m, SolverState& s) {
    const ClothProxy& p = *m.proxy;
    const std::vector<double>& w = s.cloth.inverse_mass;
    for (uint32_t i = 0; i < m.n; ++i) {
        tether_rows::detach(s.tether, i);
        slack_rows::detach(s.slack, i);
        pose_rows::detach(s.pose, i);
        if (w[i] == 0) continue;
        uint32_t c = p.nearest_held[i];
        if (c == no_particle || w[c] != 0) continue;
        if (m.held_pin[c] != no_pin && !s.pin_holding[m.held_pin[c]]) continue;
        double d = p.d_geo[i];
        if (!std::isfinite(d)) continue;
        if (m.tethers) tether_rows::attach(s.tether, i, c, d, s.cloth.x.data());
        slack_rows::attach(m.slack, s.slack, i, d);
        pose_rows::attach(m.pose, s.pose, i, m.mass[i]);
    }
}

Quat pin_turn(const SolverState& s, uint32_t pin) { return s.holder_pose[pin].rotation * s.hold_start_rotation[pin].conjugate(); }

void turn_pins(SolverState& s) {
    TurnedOffsets& t = s.turned;
    for (uint32_t pin = 0; pin < t.turn.size(); ++pin) {
        const Quat r = pin_turn(s, pin);
        if (t.epoch[pin] == 0 || std::memcmp(&r, &t.turn[pin], sizeof(Quat)) != 0) {
            t.turn[pin] = r;
            t.epoch[pin] = ++t.epochs;
        }
    }
}

void reseed(const SolverModel& m, SolverState& s) {
    for (uint32_t i : s.kinematic_particles) s.cloth.x[i] = s.target[i];
    for (uint32_t i : s.free_particles) s.cloth.x[i] = animated_position(m, s, i);
    s.cloth.x_prev = s.cloth.x;
    s.cloth.y = s.cloth.x;
    std::fill(s.cloth.v.begin(), s.cloth.v.end(), Vec3{});
    std::fill(s.v_before.begin(), s.v_before.end(), Vec3{});
    distance_rows::reset(s.distance, m.constants);
    tether_rows::reset(s.tether, m.constants);
    slack_rows::reset(s.slack, m.constants);
    s.penalties_inv_h2 = std::numeric_limits<double>::quiet_NaN();
    contact_rows::reset(s.contact);
    attach_rows(m, s);
    s.steps_since_reset = 0;
    s.quiet_steps = 0;
    s.cycle.clear();
}

// ---------------------------------------------------------------------------------------------------
// The public API
// ---------------------------------------------------------------------------------------------------

Solver::Solver(const ClothProxy& proxy, const Fabric& fabric, const SolverConstants& constants)
    : Solver(SolverModel::build(proxy, fabric, constants)) {}

Solver::Solver(std::shared_ptr<const SolverModel> model) : model_(std::move(model)) {
    if (!model_) throw std::invalid_argument("solver: no model");
    state_ = initial_state(*model_);
}

Solver::Solver(std::shared_ptr<const SolverModel> model, SolverState state) : model_(std::move(model)), state_(std::move(state)) {
    if (!model_) throw std::invalid_argument("solver: no model");
    const SolverModel& m = *model_;
    const SolverState& s = state_;
    const bool fits = s.cloth.x.size() == m.n && s.cloth.x_prev.size() == m.n && s.cloth.v.size() == m.n &&
                      s.cloth.y.size() == m.n && s.cloth.inverse_mass.size() == m.n && s.pin_holding.size() == m.proxy->pins.size() &&
                      s.distance.rows.size() == m.distance.count() && s.hinge.m_eff.size() == m.hinge.count() &&
                      s.tether.centre.size() == m.n && s.contact.count.size() == m.n;
    if (!fits) throw std::invalid_argument(solver_message("solver: the state is not of this model (proxy '", m.proxy->garment, "')"));
    state_.penalties_inv_h2 = std::numeric_limits<double>::quiet_NaN();  // a state from elsewhere: its penalties are set afresh
}

const ClothState& Solver::state() const { return state_.cloth; }
const ClothProxy& Solver::proxy() const { return *model_->proxy; }
const Fabric& Solver::fabric() const { return model_->fabric; }
const SolverConstants& Solver::constants() const { return model_->constants; }
bool Solver::asleep() const { return state_.asleep; }
double Solver::reach() const { return model_->reach; }

void Solver::wake() {
    state_.asleep = false;
    state_.quiet_steps = 0;
    state_.cycle.clear();
}

double Solver::correction_authority(double dt) const {
    const SolverModel& m = *model_;
    return m.shortest_row * m.fabric.substeps * m.fabric.iterations / dt;
}

double Solver::velocity_clamp(double dt) const { return model_->constants.clamp_ratio * correction_authority(dt); }

void Solver::release(size_t pin) {
    const SolverModel& m = *model_;
    SolverState& s = state_;
    if (pin >= s.pin_holding.size()) throw std::out_of_range(solver_message("release: pin ", pin, " of ", s.pin_holding.size()));
    if (!s.pin_holding[pin]) return;
    s.pin_holding[pin] = 0;
    // The particles leave at the speed their holder carried them: v already holds it.
    for (uint32_t i = 0; i < m.n; ++i)
        if (m.held_pin[i] == pin) s.cloth.inverse_mass[i] = 1 / m.mass[i];
    refresh_masses(m, s);
    attach_rows(m, s);
    wake();
}

void Solver::grab(size_t pin) {
    const SolverModel& m = *model_;
    SolverState& s = state_;
    if (pin >= s.pin_holding.size()) throw std::out_of_range(solver_message("grab: pin ", pin, " of ", s.pin_holding.size()));
    if (s.pin_holding[pin]) return;
    s.pin_holding[pin] = 1;
    // A hold begins where the particle is (docs/solver.md#holds).
    const Pose inv = inverse_pose(s.holder_pose[pin]);
    s.hold_start_rotation[pin] = s.holder_pose[pin].rotation;
    for (uint32_t i = 0; i < m.n; ++i)
        if (m.held_pin[i] == pin) {
            s.cloth.inverse_mass[i] = 0;
            s.hold_offset[i] = inv.apply(s.cloth.x[i]);
            s.target[i] = s.cloth.x[i];
        }
    refresh_masses(m, s);
    attach_rows(m, s);
    wake();
}

bool Solver::holding(size_t pin) const { return pin < state_.pin_holding.size() && state_.pin_holding[pin]; }

void Solver::add_velocity(const Vec3& dv) {
    for (uint32_t i : state_.free_particles) state_.cloth.v[i] += dv;
    wake();
}

void Solver::reset() {
    reseed(*model_, state_);
    wake();
}

uint32_t Solver::tether_centre(uint32_t particle) const { return state_.tether.centre.at(particle); }
double Solver::tether_radius(uint32_t particle) const { return state_.tether.radius.at(particle); }

std::vector<Vec3> Solver::animated_pose() const {
    std::vector<Vec3> out(model_->n);
    for (uint32_t i = 0; i < model_->n; ++i) out[i] = animated_position(*model_, state_, i);
    return out;
}

Solver::RowCounts Solver::row_counts() const {
    const SolverModel& m = *model_;
    const SolverState& s = state_;
    RowCounts c;
    c.stretch = m.distance.edge_count;
    c.strain_limit = m.distance.strain_rows ? m.distance.edge_count : 0;
    c.skip = m.distance.count() - m.distance.edge_count;
    c.hinge = m.hinge.count();
    for (uint32_t i = 0; i < m.n; ++i) {
        c.tether += s.tether.centre[i] != no_particle;
        c.slack += slack_rows::active(m.slack, s.slack, i);
        c.pose += pose_rows::active(m.pose, s.pose, i);
    }
    return c;
}

Energy Solver::energy(const Vec3& gravity_frame) const {
    const SolverModel& m = *model_;
    const SolverState& s = state_;
    const Vec3* x = s.cloth.x.data();
    Energy e;
    for (uint32_t i : s.free_particles) {
        e.kinetic += 0.5 * m.mass[i] * length_squared(s.cloth.v[i]);
        e.gravitational -= m.mass[i] * dot(gravity_frame, x[i]);
    }
    distance_rows::add_elastic_energy(m.distance, s.distance, x, e.elastic);
    hinge_rows::add_elastic_energy(m.hinge, s.hinge, x, e.elastic);
    pose_rows::add_elastic_energy(m.pose, s.pose, s.free_particles, x, s.animated, e.elastic);
    return e;
}

}  // namespace weft
