// What the solver's tests measure, written once: the ratios docs/measurements.md defines (tether
// ratio, link ratio, link residual), the bare solver of its first tables, and the runs several tests
// share (the sprint's square wave, the inertia lag). Every suite that measures a reference table uses
// these, so a table's quantity means the same thing in every test that quotes it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "solver/solver.h"
#include "test_proxies.h"

namespace weft::test {

/// Largest |x − x_hold| / d_geo over the free particles now (docs/measurements.md: the tether ratio).
inline double tether_ratio_now(const Solver& solver, const ClothProxy& proxy) {
    double worst = 0;
    for (uint32_t i = 0; i < proxy.particle_count(); ++i)
        if (proxy.inverse_mass[i] > 0)
            worst = std::max(worst, distance(solver.state().x[i], solver.state().x[proxy.nearest_held[i]]) / proxy.d_geo[i]);
    return worst;
}

/// Largest link length / rest length over the stretch edges now (the link ratio).
inline double link_ratio_now(const Solver& solver, const ClothProxy& proxy) {
    double worst = 0;
    for (size_t e = 0; e < proxy.edges.size(); ++e)
        worst = std::max(worst, distance(solver.state().x[proxy.edges[e][0]], solver.state().x[proxy.edges[e][1]]) /
                                    proxy.rest_length[e]);
    return worst;
}

/// Largest |C| / L0 = |length − rest| / rest over the stretch edges now (the M0 tables' residual).
inline double link_residual_now(const Solver& solver, const ClothProxy& proxy) {
    double worst = 0;
    for (size_t e = 0; e < proxy.edges.size(); ++e) {
        const double l = distance(solver.state().x[proxy.edges[e][0]], solver.state().x[proxy.edges[e][1]]);
        worst = std::max(worst, std::fabs(l - proxy.rest_length[e]) / proxy.rest_length[e]);
    }
    return worst;
}

/// The bare solver of the reference's first tables: hard stretch rows only, no damping, no bend, no
/// slack, no strain-limit row (with bare_constants: no tether, no sleep, and the fabric's substeps in
/// every step, docs/measurements.md#the-budget-is-fixed: these tables vary the budget itself).
inline Fabric bare_fabric(uint32_t substeps, uint32_t iterations) {
    Fabric f;
    f.name = "bare";
    f.substeps = substeps;
    f.iterations = iterations;
    f.bend = 0;
    f.slack = 1;
    f.damping = 0;
    f.strain_limit = false;
    return f;
}

inline SolverConstants bare_constants() {
    SolverConstants c;
    c.tethers = false;
    c.sleep = false;
    c.speed_substep_ratio = 0;
    return c;
}

/// docs/measurements.md "Fast locomotion": the frame's velocity along x at `step` — sprint at `speed`,
/// stop dead, sprint back, stop dead, one second a phase. `ramp_steps` > 1 reaches each new speed
/// linearly over that many steps instead of in one (the mean of the square wave over the last
/// `ramp_steps` steps; nothing before step 0).
inline double square_wave(int step, double dt, double speed, int ramp_steps = 1) {
    auto at = [&](int s) {
        if (s < 0) return 0.0;
        const int phase = static_cast<int>(s * dt) % 4;
        return phase == 0 ? speed : phase == 2 ? -speed : 0.0;
    };
    double sum = 0;
    for (int k = 0; k < ramp_steps; ++k) sum += at(step - k);
    return sum / ramp_steps;
}

struct SprintRun {
    double peak = 0;     ///< fastest particle in the frame over the run, before the clamp, m/s
    double clamp = 0;    ///< the velocity clamp, m/s
    double tether = 0;   ///< worst tether ratio over the run
    int teleports = 0;   ///< steps that teleported
    uint32_t clamped = 0;///< particle-substeps the clamp caught
    uint32_t substeps = 0;///< substeps taken over the run (docs/solver.md#fast-cloth)
};

/// docs/measurements.md table M1: 20 links at 10 cm, 50 g a particle, 900 steps behind the square
/// wave at `speed` m/s (reaching each speed over `ramp_steps` steps).
inline SprintRun sprint(const Fabric& f, double speed = 9.0, int ramp_steps = 1, const SolverConstants& constants = {}) {
    static const ClothProxy rope = chain_proxy(20, 0.1, 0.05);
    Solver solver(rope, f, constants);
    StepInput in;
    SprintRun run;
    for (int s = 0; s < 900; ++s) {
        in.frame.position.x += square_wave(s, in.dt, speed, ramp_steps) * in.dt;
        const StepStats st = solver.step(in);
        run.teleports += st.teleported != Teleported::none;
        run.clamped += st.clamped;
        run.substeps += st.substeps;
        run.peak = std::max(run.peak, st.max_speed_unclamped);
        run.clamp = st.velocity_clamp;
        run.tether = std::max(run.tether, tether_ratio_now(solver, rope));
    }
    return run;
}

/// docs/measurements.md table M2: the largest horizontal distance between the tip and the top of a
/// 10-link rope at 10 cm, 50 g a particle, rope fabric at `inertia`, over 480 steps behind the square
/// wave at `speed` m/s (0: a frame that never moves).
inline double inertia_lag(double inertia, double speed) {
    static const ClothProxy rope = chain_proxy(10, 0.1, 0.05);
    Fabric f = *find_fabric("rope");
    f.inertia = inertia;
    Solver solver(rope, f);
    StepInput in;
    double lag = 0;
    const uint32_t tip = particle(rope, 10), top = particle(rope, 0);
    for (int s = 0; s < 480; ++s) {
        in.frame.position.x += square_wave(s, in.dt, speed) * in.dt;
        solver.step(in);
        lag = std::max(lag, std::fabs(solver.state().x[tip].x - solver.state().x[top].x));
    }
    return lag;
}

}  // namespace weft::test
