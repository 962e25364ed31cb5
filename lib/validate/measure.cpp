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

uint32_t settle(Solver& solver, const BodyShapes* body) {
    const ClothProxy& proxy = solver.proxy();
    StepInput in;
    in.dt = validation_dt;
    in.holders.assign(proxy.pins.size(), Pose{});
    in.frame = rest_frame_pose(proxy);
    if (body && body->collide) place_body(*body, Pose{}, in);
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

ScenarioStats run_scenario(Solver solver, uint32_t settle_steps, Scenario scenario, uint32_t steps, ScenarioTrace* trace,
                           const TraceOptions& trace_options, const StepObserver& observer, const BodyShapes* body,
                           const ClipMotion* clip, const BodyObserver& body_observer) {
    const ClothProxy& proxy = solver.proxy();
    const ClothState& state = solver.state();
    const size_t n = proxy.particle_count();
    const std::vector<LinkRef> links = links_of(proxy);

    ScenarioStats st;
    st.scenario = scenario;
    if (scenario != Scenario::clip) clip = nullptr;
    if (clip) st.clip = clip->name;
    const ClipBinding clip_binding = clip ? bind_clip(*clip, proxy, body) : ClipBinding{};
    st.velocity_clamp = solver.velocity_clamp(validation_dt);
    st.settle_steps = settle_steps;

    StepInput in;
    in.dt = validation_dt;
    in.teleport_mode = scenario == Scenario::teleport_keep ? TeleportMode::keep : TeleportMode::reset;
    in.holders.assign(proxy.pins.size(), Pose{});
    const Pose rest_frame = rest_frame_pose(proxy);
    in.frame = rest_frame;
    const bool holds_pose = solver.row_counts().pose > 0;  // hang from rest would test nothing: disturb it

    if (settle_steps > 0 && !state_finite(state)) {  // the prelude blew up: nothing to measure
        st.non_finite_step = 0;
        return st;
    }

    // The energy trend's window: the undriven steps of the last third.
    const uint32_t third_start = steps - steps / 3;
    std::vector<double> trend_t, trend_kinetic, trend_total;
    auto energy_now = [&] { return solver.energy(in.frame.rotation.conjugate().rotate(in.gravity)); };
    Energy energy = energy_now();
    double previous_total = energy.total();

    // Idle: per link with a free end, its last vector and the summed turn while breathing.
    std::vector<uint8_t> jitter_link(links.size(), 0);
    for (size_t l = 0; l < links.size(); ++l)
        jitter_link[l] = proxy.inverse_mass[links[l].a] > 0 || proxy.inverse_mass[links[l].b] > 0;
    std::vector<Vec3> link_vector(links.size());
    std::vector<double> jitter_sum(links.size(), 0.0);
    uint32_t jitter_frames = 0;
    Quat previous_holder_rotation;

    // Strain, skip ratio and tether ratio of the state as it stands, credited to `step` (0 = the starting pose).
    double strain_now = 0;  // the worst stretch edge of the state as it stands (the trace's per-step strain)
    auto measure_shape = [&](uint32_t step) {
        strain_now = 0;
        for (const LinkRef& link : links) {
            const double ratio = distance(state.x[link.a], state.x[link.b]) / rest_of(proxy, link);
            const bool edge = link.kind == LinkRef::edge;
            if (edge) strain_now = std::fmax(strain_now, ratio);
            double& worst = edge ? st.max_strain : st.max_skip_ratio;
            std::optional<LinkRef>& where = edge ? st.max_strain_link : st.max_skip_link;
            if (ratio > worst || !where) {
                worst = ratio;
                where = link;
                (edge ? st.max_strain_step : st.max_skip_step) = step;
            }
        }
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t c = proxy.nearest_held[i];
            const double d = proxy.d_geo[i];
            if (state.inverse_mass[i] == 0 || c == no_particle || !(d > 0) || !std::isfinite(d)) continue;
            double ratio = distance(state.x[i], state.x[c]) / d;
            if (ratio > st.max_tether_ratio) {
                st.max_tether_ratio = ratio;
                st.max_tether_particle = i;
                st.max_tether_step = step;
            }
        }
    };
    measure_shape(0);

    // The trace (off unless asked): frames at most max_frames per scenario, the starting pose first.
    if (trace && !trace_options.enabled()) trace = nullptr;
    if (trace) {
        trace->scenario = scenario;
        trace->clip = st.clip;
        trace->steps.reserve(steps);
        if (trace_options.frame_every > 0) {
            const uint64_t by_size = trace_options.max_frame_values / std::max<uint64_t>(3 * n, 1);
            const uint32_t cap = uint32_t(std::max<uint64_t>(std::min<uint64_t>(trace_options.max_frames, by_size), 2) - 1);
            trace->frame_every = std::max(trace_options.frame_every, (steps + cap - 1) / cap);
        }
    }
    auto record_frame = [&](uint32_t step, const Pose& holders) {
        std::vector<float> frame(3 * n);
        for (uint32_t i = 0; i < n; ++i) {
            const Vec3 x = relative_to(holders, state.x[i]);
            frame[3 * i] = static_cast<float>(x.x);
            frame[3 * i + 1] = static_cast<float>(x.y);
            frame[3 * i + 2] = static_cast<float>(x.z);
        }
        trace->frame_steps.push_back(step);
        trace->frames.push_back(std::move(frame));
    };
    if (trace && trace->frame_every > 0) record_frame(0, in.holders.empty() ? Pose{} : in.holders.front());

    std::vector<Vec3> x_before;
    Pose previous_holders;
    double awake_seconds = 0;
    // Where the body is each step, measured whether or not the solver sees it; one buffer for every step.
    StepInput probe;

    for (uint32_t s = 0; s < steps; ++s) {
        ScriptStep script = script_step(scenario, s, steps, holds_pose);
        FramedStep step = framed(script, rest_frame);
        if (clip) {
            place_clip_step(clip_step(*clip, s, &script.driven), clip_binding, rest_frame, body, in, probe);
            step.frame = in.frame;
            step.holders = in.holders.empty() ? Pose{} : in.holders.front();
        } else {
            in.frame = step.frame;
            for (Pose& h : in.holders) h = step.holders;
        }
        if (body) {
            if (!clip) place_body(*body, step.holders, probe);
            if (body->collide) {
                in.spheres = probe.spheres;
                in.capsules = probe.capsules;
            }
        }
        if (!(step.kick == Vec3{})) solver.add_velocity(step.kick);

        // Any scenario may teleport: the solver calls every frame or holder jump longer than the
        // velocity clamp times dt one, and a proxy with short rows has a low clamp, so sprint and
        // idle jump too. The shift is measured against this copy, kept every step.
        x_before = state.x;

        // The step a runtime takes (solver/checked_step.h); one that leaves a position not finite ends
        // the run there (no copy to undo it with: nothing runs after it).
        const auto t0 = std::chrono::steady_clock::now();
        StepStats ss;
        const StepCheck check = checked_step(solver, in, nullptr, &ss);
        const auto t1 = std::chrono::steady_clock::now();
        const uint32_t step_number = s + 1;
        st.steps = step_number;
        if (check == StepCheck::non_finite) {
            st.non_finite_step = step_number;
            break;
        }
        if (check != StepCheck::ok)
            throw std::logic_error(std::string("validation script gave the solver a step it refuses: ") + step_check_name(check));
        if (observer) observer(scenario, step_number, step.holders, state);
        if (body && body_observer) body_observer(step_number, probe);

        if (!ss.asleep) {
            ++st.steps_awake;
            awake_seconds += std::chrono::duration<double>(t1 - t0).count();
            energy = energy_now();
            if (!std::isfinite(energy.total())) {
                st.non_finite_step = step_number;
                break;
            }
        }
        if (ss.fell_asleep && !st.sleep_step) st.sleep_step = step_number;

        if (body) {
            if (!st.max_penetration) st.max_penetration = 0.0;
            const Depth d = deepest_inside(probe, state.x, state.inverse_mass);
            if (d.depth > *st.max_penetration) {
                st.max_penetration = d.depth;
                st.max_penetration_particle = d.index;
                st.max_penetration_step = step_number;
            }
        }
        if (!ss.asleep) {
            measure_shape(step_number);
            if (ss.max_speed > st.peak_speed) {
                st.peak_speed = ss.max_speed;
                st.peak_speed_step = step_number;
            }
            st.clamped += ss.clamped;
            st.substeps += ss.substeps;
            st.sweeps += ss.iterations;
        }

        // Teleport: the step it happened, how far it moved the cloth relative to its holders, and
        // the fastest particle over the Reset ramp.
        if (ss.teleported != Teleported::none) {
            ++st.teleports;
            if (!st.teleport_step) {
                st.teleport_step = step_number;
                double shift = 0;
                for (uint32_t i = 0; i < n; ++i)
                    if (state.inverse_mass[i] > 0)
                        shift = std::fmax(shift, distance(relative_to(step.holders, state.x[i]),
                                                          relative_to(previous_holders, x_before[i])));
                st.teleport_shift = shift;
                st.teleport_peak_speed = 0.0;
            }
        }
        if (st.teleport_step && step_number <= *st.teleport_step + teleport_window_steps)
            st.teleport_peak_speed = std::fmax(*st.teleport_peak_speed, ss.max_speed);
        previous_holders = step.holders;

        // Energy: a rise in an undriven step can only come from the step itself.
        if (!script.driven) {
            st.max_energy_step_rise = std::fmax(st.max_energy_step_rise, energy.total() - previous_total);
            if (s >= third_start) {
                trend_t.push_back(static_cast<double>(s));
                trend_kinetic.push_back(energy.kinetic);
                trend_total.push_back(energy.total());
            }
        }
        previous_total = energy.total();

        if (trace) {
            trace->steps.push_back({step_number, ss.asleep ? 0.0 : ss.max_speed, strain_now, energy.kinetic,
                                    energy.total(), ss.asleep, script.driven});
            // Asleep, nothing moved: the last frame stands for it (the last step is always kept).
            if (trace->frame_every > 0 && ((!ss.asleep && step_number % trace->frame_every == 0) || step_number == steps))
                record_frame(step_number, step.holders);
        }

        // Idle jitter (docs/validation.md#idle): how far each link's direction turns per frame while the holders
        // breathe, less what the holders themselves turned.
        if (scenario == Scenario::idle) {
            const double holder_turn = rotation_angle(step.holders.rotation * previous_holder_rotation.conjugate());
            for (size_t l = 0; l < links.size(); ++l) {
                if (!jitter_link[l]) continue;
                const Vec3 now = state.x[links[l].b] - state.x[links[l].a];
                if (s > 0) jitter_sum[l] += link_turn_degrees(link_vector[l], now, holder_turn);
                link_vector[l] = now;
            }
            if (s > 0) ++jitter_frames;
        }
        previous_holder_rotation = step.holders.rotation;
    }

    st.peak_speed_ratio = st.velocity_clamp > 0 ? st.peak_speed / st.velocity_clamp : 0;
    st.kinetic_energy_end = energy.kinetic;
    st.total_energy_end = energy.total();
    st.trend_steps = static_cast<uint32_t>(trend_t.size());
    st.kinetic_energy_trend = fitted_change(trend_t, trend_kinetic);
    st.total_energy_trend = fitted_change(trend_t, trend_total);
    if (scenario == Scenario::idle && jitter_frames > 0) {
        double sum = 0, worst = 0;
        size_t counted = 0;
        for (size_t l = 0; l < links.size(); ++l) {
            if (!jitter_link[l]) continue;
            double mean = jitter_sum[l] / jitter_frames;
            sum += mean;
            ++counted;
            if (mean > worst || counted == 1) {
                worst = mean;
                st.idle_jitter_link = links[l];
            }
        }
        if (counted > 0) {
            st.idle_jitter_mean = sum / static_cast<double>(counted);
            st.idle_jitter_worst = worst;
        }
    }
    st.ms_per_step = st.steps_awake > 0 ? awake_seconds * 1000 / st.steps_awake : 0;
    st.final_positions = state.x;
    if (!proxy.triangles.empty()) st.crossings = count_crossing_triangles(state.x, proxy.triangles);
    return st;
}

}  // namespace weft
