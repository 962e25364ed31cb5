// The measuring loop: one solver (fresh, or forked from one settled by the prelude), one script,
// every step observed (docs/validation.md).
#include "validate/measure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "solver/checked_step.h"
#include "solver/solver.h"
#include "validate/crossings.h"

namespace weft {

namespace {

/// Every distance row of the proxy, edges then skips.
std::vector<LinkRef> links_of(const ClothProxy& proxy) {
    std::vector<LinkRef> links;
    links.reserve(proxy.edges.size() + proxy.skips.size());
    for (size_t e = 0; e < proxy.edges.size(); ++e)
        links.push_back({LinkRef::edge, static_cast<uint32_t>(e), proxy.edges[e][0], proxy.edges[e][1]});
    for (size_t s = 0; s < proxy.skips.size(); ++s)
        links.push_back({LinkRef::skip, static_cast<uint32_t>(s), proxy.skips[s][0], proxy.skips[s][1]});
    return links;
}

double rest_of(const ClothProxy& proxy, const LinkRef& link) {
    return link.kind == LinkRef::edge ? proxy.rest_length[link.index] : proxy.skip_rest_length[link.index];
}

/// The rotation angle of a unit quaternion, radians in [0, π].
double rotation_angle(const Quat& q) {
    double v = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    return 2 * std::atan2(v, std::fabs(q.w));
}


/// The least-squares change of `values` (sampled at `times`) across its span: slope × (last − first).
std::optional<double> fitted_change(const std::vector<double>& times, const std::vector<double>& values) {
    const size_t n = times.size();
    if (n < 2) return std::nullopt;
    double mean_t = 0, mean_v = 0;
    for (size_t i = 0; i < n; ++i) {
        mean_t += times[i];
        mean_v += values[i];
    }
    mean_t /= static_cast<double>(n);
    mean_v /= static_cast<double>(n);
    double stt = 0, stv = 0;
    for (size_t i = 0; i < n; ++i) {
        stt += (times[i] - mean_t) * (times[i] - mean_t);
        stv += (times[i] - mean_t) * (values[i] - mean_v);
    }
    if (!(stt > 0)) return std::nullopt;
    return stv / stt * (times.back() - times.front());
}

bool state_finite(const ClothState& s) {
    for (size_t i = 0; i < s.x.size(); ++i)
        if (!is_finite(s.x[i]) || !is_finite(s.v[i])) return false;
    return true;
}

/// x in the holders' placement: where a particle is relative to what carries the cloth.
Vec3 relative_to(const Pose& holders, const Vec3& x) {
    return holders.rotation.conjugate().rotate(x - holders.position);
}

/// Everything of a step's input the solver reads, bit for bit.
bool same_input(const StepInput& a, const StepInput& b) {
    return a.dt == b.dt && a.gravity == b.gravity && a.frame == b.frame && a.holders == b.holders &&
           a.teleport == b.teleport && a.teleport_mode == b.teleport_mode && a.teleport_distance == b.teleport_distance &&
           same_colliders(a, b);
}

}  // namespace

double link_turn_degrees(const Vec3& before, const Vec3& after, double holder_turn) {
    if (!(length_squared(before) > 0) || !(length_squared(after) > 0)) return 0;
    // atan2 of |a×b| and a·b keeps the angle exact at the hundredths of a degree jitter lives at.
    double angle = std::atan2(length(cross(before, after)), dot(before, after));
    return std::fmax(0.0, angle - holder_turn) * (180 / std::numbers::pi);
}

double energy_scale(const ClothProxy& proxy) {
    double free_mass = 0;
    for (double w : proxy.inverse_mass)
        if (w > 0) free_mass += 1 / w;
    double scale = free_mass * 9.81 * reach(proxy);
    return std::isfinite(scale) && scale > 1e-12 ? scale : 1e-12;
}

StepInput settle_input(const ClothProxy& proxy, const BodyShapes* body) {
    StepInput in;
    in.dt = validation_dt;
    in.holders.assign(proxy.pins.size(), Pose{});
    in.frame = rest_frame_pose(proxy);
    if (body && body->collide) place_body(*body, Pose{}, in);
    return in;
}

uint32_t settle(Solver& solver, const BodyShapes* body) {
    const StepInput in = settle_input(solver.proxy(), body);
    // Nothing moves, so nothing teleports: the prelude is the same whatever the scenario's teleport mode.
    uint32_t steps = 0;
    for (uint32_t s = 0; s < settle_max_steps; ++s) {
        ++steps;
        if (solver.step(in).fell_asleep) break;
    }
    return steps;
}

ScenarioStats run_scenario(const ClothProxy& proxy, const Fabric& fabric, Scenario scenario, uint32_t steps,
                           ScenarioTrace* trace, const TraceOptions& trace_options) {
    Solver solver(proxy, fabric);
    const uint32_t settle_steps = settles_first(scenario) ? settle(solver) : 0;
    return run_scenario(std::move(solver), settle_steps, scenario, steps, trace, trace_options);
}

namespace {

/// One scenario run, measured step by step (docs/validation.md#measurements): the script placed, the
/// solver stepped, the state measured, the trace kept; run_scenario reads as its phases.
class ScenarioMeter {
public:
    ScenarioMeter(Solver& solver, uint32_t settle_steps, Scenario scenario, uint32_t steps, ScenarioTrace* trace,
                  const TraceOptions& trace_options, const StepObserver& observer, const BodyShapes* body,
                  const ClipMotion* clip, const BodyObserver& body_observer, RunStop* stop, SettleTap* tap)
        : solver_(solver), proxy_(solver.proxy()), state_(solver.state()), n_(proxy_.particle_count()),
          links_(links_of(proxy_)), scenario_(scenario), steps_(steps), observer_(observer), body_(body),
          clip_(scenario == Scenario::clip ? clip : nullptr), body_observer_(body_observer),
          rest_frame_(rest_frame_pose(proxy_)), holds_pose_(solver.row_counts().pose > 0),
          third_start_(steps - steps / 3), stop_(stop), tap_(scenario == Scenario::hang ? tap : nullptr) {
        st_.scenario = scenario;
        if (clip_) st_.clip = clip_->name;
        if (clip_) clip_binding_ = bind_clip(*clip_, proxy_, body_);
        st_.velocity_clamp = solver.velocity_clamp(validation_dt);
        st_.settle_steps = settle_steps;
        in_.dt = validation_dt;
        in_.teleport_mode = scenario == Scenario::teleport_keep ? TeleportMode::keep : TeleportMode::reset;
        in_.holders.assign(proxy_.pins.size(), Pose{});
        in_.frame = rest_frame_;
        trace_ = trace && trace_options.enabled() ? trace : nullptr;
        trace_options_ = trace_options;
    }

    ScenarioStats run() {
        if (st_.settle_steps > 0 && !state_finite(state_)) {  // the prelude blew up: nothing to measure
            st_.non_finite_step = 0;
            return st_;
        }
        start();
        for (uint32_t s = 0; s < steps_; ++s) {
            if (!step(s)) break;
            if (stop_ && stop_->gate) {  // a gate failed for good: what is left cannot change the verdict
                st_.stopped_step = st_.steps;
                st_.stopped_gate = stop_->gate;
                break;
            }
        }
        finish();
        return st_;
    }

private:
    Energy energy_now() const { return solver_.energy(in_.frame.rotation.conjugate().rotate(in_.gravity)); }

    /// The starting pose: its shape measured, the idle links chosen, the trace's first frame.
    void start() {
        energy_ = energy_now();
        previous_total_ = energy_.total();
        // Idle: per link with a free end, its last vector and the summed turn while breathing.
        jitter_link_.assign(links_.size(), 0);
        for (size_t l = 0; l < links_.size(); ++l)
            jitter_link_[l] = proxy_.inverse_mass[links_[l].a] > 0 || proxy_.inverse_mass[links_[l].b] > 0;
        link_vector_.resize(links_.size());
        jitter_sum_.assign(links_.size(), 0.0);
        measure_shape(0);
        start_trace();
    }

    /// Strain, skip ratio and tether ratio of the state as it stands, credited to `step` (0 = the starting pose).
    void measure_shape(uint32_t step) {
        strain_now_ = 0;
        for (const LinkRef& link : links_) {
            const double ratio = distance(state_.x[link.a], state_.x[link.b]) / rest_of(proxy_, link);
            const bool edge = link.kind == LinkRef::edge;
            if (edge) strain_now_ = std::fmax(strain_now_, ratio);
            double& worst = edge ? st_.max_strain : st_.max_skip_ratio;
            std::optional<LinkRef>& where = edge ? st_.max_strain_link : st_.max_skip_link;
            if (ratio > worst || !where) {
                worst = ratio;
                where = link;
                (edge ? st_.max_strain_step : st_.max_skip_step) = step;
            }
        }
        for (uint32_t i = 0; i < n_; ++i) {
            const uint32_t c = proxy_.nearest_held[i];
            const double d = proxy_.d_geo[i];
            if (state_.inverse_mass[i] == 0 || c == no_particle || !(d > 0) || !std::isfinite(d)) continue;
            double ratio = distance(state_.x[i], state_.x[c]) / d;
            if (ratio > st_.max_tether_ratio) {
                st_.max_tether_ratio = ratio;
                st_.max_tether_particle = i;
                st_.max_tether_step = step;
            }
        }
    }

    /// The trace (off unless asked): frames at most max_frames per scenario, the starting pose first.
    void start_trace() {
        if (!trace_) return;
        trace_->scenario = scenario_;
        trace_->clip = st_.clip;
        trace_->steps.reserve(steps_);
        if (trace_options_.frame_every > 0) {
            const uint64_t by_size = trace_options_.max_frame_values / std::max<uint64_t>(3 * n_, 1);
            const uint32_t cap = uint32_t(std::max<uint64_t>(std::min<uint64_t>(trace_options_.max_frames, by_size), 2) - 1);
            trace_->frame_every = std::max(trace_options_.frame_every, (steps_ + cap - 1) / cap);
        }
        if (trace_->frame_every > 0) record_frame(0, in_.holders.empty() ? Pose{} : in_.holders.front());
    }

    void record_frame(uint32_t step, const Pose& holders) {
        std::vector<float> frame(3 * n_);
        for (uint32_t i = 0; i < n_; ++i) {
            const Vec3 x = relative_to(holders, state_.x[i]);
            frame[3 * i] = static_cast<float>(x.x);
            frame[3 * i + 1] = static_cast<float>(x.y);
            frame[3 * i + 2] = static_cast<float>(x.z);
        }
        trace_->frame_steps.push_back(step);
        trace_->frames.push_back(std::move(frame));
    }

    /// The script's step `s` placed: the frame, the holders and the body where the script (or the clip) has them.
    FramedStep place(uint32_t s, ScriptStep& script) {
        script = script_step(scenario_, s, steps_, holds_pose_);
        FramedStep step = framed(script, rest_frame_);
        if (clip_) {
            place_clip_step(clip_step(*clip_, s, &script.driven), clip_binding_, rest_frame_, body_, in_, probe_);
            step.frame = in_.frame;
            step.holders = in_.holders.empty() ? Pose{} : in_.holders.front();
        } else {
            in_.frame = step.frame;
            for (Pose& h : in_.holders) h = step.holders;
        }
        if (body_) {
            if (!clip_) place_body(*body_, step.holders, probe_);
            if (body_->collide) {
                in_.spheres = probe_.spheres;
                in_.capsules = probe_.capsules;
            }
        }
        return step;
    }

    /// One scripted step: placed, solved, measured. False when the state went non-finite (the run ends).
    bool step(uint32_t s) {
        ScriptStep script;
        const FramedStep step = place(s, script);
        const bool kicked = !(step.kick == Vec3{});
        if (kicked) solver_.add_velocity(step.kick);
        if (tap_ && (kicked || !same_input(in_, tap_->input))) tap_ = nullptr;  // not the prelude's step
        // A still step (docs/validation.md#still-steps): the cloth slept through the last step, whose
        // input was the one before it, and this one is the same again. The solver would return at once,
        // asleep, writing nothing, so it is not called, and nothing measured can have changed.
        const bool same = s > 0 && !kicked && same_input(in_, stepped_) && (!body_ || same_colliders(probe_, probed_));
        still_ = slept_unchanged_ && same;
        StepStats ss;
        ss.asleep = true;
        StepCheck check = StepCheck::ok;
        const auto t0 = std::chrono::steady_clock::now();
        if (!still_) {
            // Any scenario may teleport: the solver calls every frame or holder jump longer than the
            // velocity clamp times dt one, and a proxy with short rows has a low clamp, so sprint and
            // idle jump too. The shift is measured against this copy, kept every step.
            x_before_ = state_.x;
            // The step a runtime takes (solver/checked_step.h); one that leaves a position not finite ends
            // the run there (no copy to undo it with: nothing runs after it).
            check = checked_step(solver_, in_, nullptr, &ss);
        }
        const auto t1 = std::chrono::steady_clock::now();
        slept_unchanged_ = ss.asleep && same;
        if (!same) {
            stepped_ = in_;
            if (body_) probed_ = probe_;
        }
        const uint32_t step_number = s + 1;
        st_.steps = step_number;
        if (check == StepCheck::non_finite) {
            st_.non_finite_step = step_number;
            return false;
        }
        if (check != StepCheck::ok)
            throw std::logic_error(std::string("validation script gave the solver a step it refuses: ") + step_check_name(check));
        if (observer_) observer_(scenario_, step_number, step.holders, state_);
        if (body_ && body_observer_) body_observer_(step_number, probe_);
        if (!ss.asleep) {
            ++st_.steps_awake;
            awake_seconds_ += std::chrono::duration<double>(t1 - t0).count();
            energy_ = energy_now();
            if (!std::isfinite(energy_.total())) {
                st_.non_finite_step = step_number;
                return false;
            }
        }
        if (ss.fell_asleep && !st_.sleep_step) st_.sleep_step = step_number;
        if (tap_ && (ss.fell_asleep || step_number == settle_max_steps)) {  // where settle() stops
            tap_->settled(solver_, step_number);
            tap_ = nullptr;
        }
        measure_step(ss, step_number);
        watch_gates(step_number);
        measure_teleport(ss, step_number, step.holders);
        measure_energy(s, script.driven);
        trace_step(ss, step_number, script.driven, step.holders);
        if (scenario_ == Scenario::idle) measure_jitter(s, step.holders);
        previous_holder_rotation_ = step.holders.rotation;
        return true;
    }

    /// Penetration into the body, and while awake the shape, the peak speed and the solver's counts.
    void measure_step(const StepStats& ss, uint32_t step_number) {
        if (body_ && !still_) {  // still: the same particles in the same body as the last step measured
            if (!st_.max_penetration) st_.max_penetration = 0.0;
            const Depth d = deepest_inside(probe_, state_.x, state_.inverse_mass);
            if (d.depth > *st_.max_penetration) {
                st_.max_penetration = d.depth;
                st_.max_penetration_particle = d.index;
                st_.max_penetration_step = step_number;
            }
        }
        if (ss.asleep) return;
        measure_shape(step_number);
        if (ss.max_speed > st_.peak_speed) {
            st_.peak_speed = ss.max_speed;
            st_.peak_speed_step = step_number;
        }
        st_.clamped += ss.clamped;
        st_.substeps += ss.substeps;
        st_.sweeps += ss.iterations;
    }

    /// The gates this run measures that a step can fail for good (RunStop): the worst strain and depth.
    void watch_gates(uint32_t step_number) {
        if (!stop_) return;
        if (st_.max_strain > stop_->max_strain) stop_->fail("STRAIN", step_number);
        if (st_.max_penetration && *st_.max_penetration > stop_->max_penetration) stop_->fail("PENETRATION", step_number);
    }

    /// Teleport: the step it happened, how far it moved the cloth relative to its holders, and the
    /// fastest particle over the Reset ramp.
    void measure_teleport(const StepStats& ss, uint32_t step_number, const Pose& holders) {
        if (ss.teleported != Teleported::none) {
            ++st_.teleports;
            if (!st_.teleport_step) {
                st_.teleport_step = step_number;
                double shift = 0;
                for (uint32_t i = 0; i < n_; ++i)
                    if (state_.inverse_mass[i] > 0)
                        shift = std::fmax(shift, distance(relative_to(holders, state_.x[i]),
                                                          relative_to(previous_holders_, x_before_[i])));
                st_.teleport_shift = shift;
                st_.teleport_peak_speed = 0.0;
            }
        }
        if (st_.teleport_step && step_number <= *st_.teleport_step + teleport_window_steps)
            st_.teleport_peak_speed = std::fmax(*st_.teleport_peak_speed, ss.max_speed);
        previous_holders_ = holders;
    }

    /// Energy: a rise in an undriven step can only come from the step itself; the last third's
    /// undriven steps make the trend.
    void measure_energy(uint32_t s, bool driven) {
        if (!driven) {
            st_.max_energy_step_rise = std::fmax(st_.max_energy_step_rise, energy_.total() - previous_total_);
            if (s >= third_start_) {
                trend_t_.push_back(static_cast<double>(s));
                trend_kinetic_.push_back(energy_.kinetic);
                trend_total_.push_back(energy_.total());
            }
        }
        previous_total_ = energy_.total();
    }

    void trace_step(const StepStats& ss, uint32_t step_number, bool driven, const Pose& holders) {
        if (!trace_) return;
        trace_->steps.push_back({step_number, ss.asleep ? 0.0 : ss.max_speed, strain_now_, energy_.kinetic,
                                 energy_.total(), ss.asleep, driven});
        // Asleep, nothing moved: the last frame stands for it (the last step is always kept).
        if (trace_->frame_every > 0 && ((!ss.asleep && step_number % trace_->frame_every == 0) || step_number == steps_ ||
                                        (stop_ && stop_->gate)))
            record_frame(step_number, holders);
    }

    /// Idle jitter (docs/validation.md#idle): how far each link's direction turns per frame while the
    /// holders breathe, less what the holders themselves turned.
    void measure_jitter(uint32_t s, const Pose& holders) {
        const double holder_turn = rotation_angle(holders.rotation * previous_holder_rotation_.conjugate());
        for (size_t l = 0; l < links_.size(); ++l) {
            if (!jitter_link_[l]) continue;
            const Vec3 now = state_.x[links_[l].b] - state_.x[links_[l].a];
            if (s > 0) jitter_sum_[l] += link_turn_degrees(link_vector_[l], now, holder_turn);
            link_vector_[l] = now;
        }
        if (s > 0) ++jitter_frames_;
    }

    /// What the run adds up to: the energy at the end and its trend, the idle jitter, the cost, the
    /// final positions and the crossings left.
    void finish() {
        st_.peak_speed_ratio = st_.velocity_clamp > 0 ? st_.peak_speed / st_.velocity_clamp : 0;
        st_.kinetic_energy_end = energy_.kinetic;
        st_.total_energy_end = energy_.total();
        // Stopped early, the run has no end: nothing judged there (the energy trend, the crossings) is reported.
        if (st_.stopped_step) trend_t_.clear(), trend_kinetic_.clear(), trend_total_.clear();
        st_.trend_steps = static_cast<uint32_t>(trend_t_.size());
        st_.kinetic_energy_trend = fitted_change(trend_t_, trend_kinetic_);
        st_.total_energy_trend = fitted_change(trend_t_, trend_total_);
        if (scenario_ == Scenario::idle && jitter_frames_ > 0) finish_jitter();
        st_.ms_per_step = st_.steps_awake > 0 ? awake_seconds_ * 1000 / st_.steps_awake : 0;
        st_.final_positions = state_.x;
        if (!proxy_.triangles.empty() && !st_.stopped_step)
            st_.crossings = count_crossing_triangles(state_.x, proxy_.triangles, proxy_.rest_position, solver_.fabric().thickness);
    }

    void finish_jitter() {
        double sum = 0, worst = 0;
        size_t counted = 0;
        for (size_t l = 0; l < links_.size(); ++l) {
            if (!jitter_link_[l]) continue;
            double mean = jitter_sum_[l] / jitter_frames_;
            sum += mean;
            ++counted;
            if (mean > worst || counted == 1) {
                worst = mean;
                st_.idle_jitter_link = links_[l];
            }
        }
        if (counted > 0) {
            st_.idle_jitter_mean = sum / static_cast<double>(counted);
            st_.idle_jitter_worst = worst;
        }
    }

    Solver& solver_;
    const ClothProxy& proxy_;
    const ClothState& state_;
    const size_t n_;
    const std::vector<LinkRef> links_;
    const Scenario scenario_;
    const uint32_t steps_;
    const StepObserver& observer_;
    const BodyShapes* body_;
    const ClipMotion* clip_;
    const BodyObserver& body_observer_;
    const Pose rest_frame_;
    const bool holds_pose_;       ///< hang from rest would test nothing: disturb it
    const uint32_t third_start_;  ///< the energy trend's window: the undriven steps of the last third
    ClipBinding clip_binding_;
    ScenarioTrace* trace_ = nullptr;
    TraceOptions trace_options_;
    ScenarioStats st_;
    StepInput in_;
    StepInput probe_;  ///< where the body is each step, measured whether or not the solver sees it
    Energy energy_;
    double previous_total_ = 0;
    double strain_now_ = 0;  ///< the worst stretch edge of the state as it stands (the trace's per-step strain)
    std::vector<double> trend_t_, trend_kinetic_, trend_total_;
    std::vector<uint8_t> jitter_link_;
    std::vector<Vec3> link_vector_;
    std::vector<double> jitter_sum_;
    uint32_t jitter_frames_ = 0;
    Quat previous_holder_rotation_;
    std::vector<Vec3> x_before_;
    Pose previous_holders_;
    StepInput stepped_;             ///< the input of the last step whose input differed from the one before
    StepInput probed_;              ///< where the body was then (probe_), solver-seen or not
    bool slept_unchanged_ = false;  ///< the last step was slept through and its input was the one before it
    bool still_ = false;            ///< this step is a still step: nothing solved, nothing changed
    double awake_seconds_ = 0;
    RunStop* stop_ = nullptr;       ///< early exit (docs/validation.md#early-exit); none: every step runs
    SettleTap* tap_ = nullptr;      ///< hang handing on the prelude; none once handed on, or once a step was not the prelude's
};

}  // namespace

ScenarioStats run_scenario(Solver solver, uint32_t settle_steps, Scenario scenario, uint32_t steps, ScenarioTrace* trace,
                           const TraceOptions& trace_options, const StepObserver& observer, const BodyShapes* body,
                           const ClipMotion* clip, const BodyObserver& body_observer, RunStop* stop, SettleTap* tap) {
    return ScenarioMeter(solver, settle_steps, scenario, steps, trace, trace_options, observer, body, clip, body_observer, stop,
                         tap)
        .run();
}

}  // namespace weft
