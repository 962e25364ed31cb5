// Construction (the row tables from a ClothProxy), the step's outer loop (seed 002; DESIGN.md §5),
// holds (seed 000 §19.3), teleports and inertia (seed 002 §13), sleep (§12).
#include "solver/solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "solver/solver_impl.h"

namespace weft {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Pose inverse(const Pose& p) {
    Quat r = p.rotation.conjugate();
    return {-r.rotate(p.position), r};
}

Pose compose(const Pose& a, const Pose& b) {  // a after b
    return {a.rotation.rotate(b.position) + a.position, a.rotation * b.rotation};
}

bool finite_pose(const Pose& p) {
    return is_finite(p.position) && std::isfinite(p.rotation.x) && std::isfinite(p.rotation.y) &&
           std::isfinite(p.rotation.z) && std::isfinite(p.rotation.w);
}

/// The rotation angle of a unit quaternion, radians in [0, π].
double rotation_angle(const Quat& q) {
    double v = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    return 2 * std::atan2(v, std::fabs(q.w));
}

/// Angular velocity (world axes) carrying `from` onto `to` in `dt`.
Vec3 angular_velocity(const Quat& from, const Quat& to, double dt) {
    Quat d = to * from.conjugate();
    if (d.w < 0) d = {-d.x, -d.y, -d.z, -d.w};
    Vec3 v{d.x, d.y, d.z};
    double s = length(v);
    if (!(s > 0)) return {};
    return v * (2 * std::atan2(s, d.w) / (s * dt));
}

template <class... Args>
std::string message(const Args&... args) {
    std::ostringstream out;
    (out << ... << args);
    return out.str();
}

/// What the solver indexes without checking, checked once: a proxy that fails here would make the
/// step read out of bounds or divide by zero. (The codec's check_proxy is stricter; this is the
/// solver's own floor, so a proxy built in code gets a named error too.)
std::string proxy_error(const ClothProxy& p) {
    const size_t n = p.particle_count();
    const std::string who = "proxy '" + p.garment + "': ";
    if (n == 0) return who + "has no particles";
    if (n >= no_particle) return who + "too many particles";
    auto size_is = [&](size_t size, size_t want, const char* field) -> std::string {
        if (size == want) return {};
        return message(who, field, " has ", size, " entries for ", want, " particles");
    };
    for (std::string e : {size_is(p.inverse_mass.size(), n, "inverse_mass"), size_is(p.d_geo.size(), n, "d_geo"),
                          size_is(p.nearest_held.size(), n, "nearest_held")})
        if (!e.empty()) return e;
    if (p.rest_length.size() != p.edges.size())
        return message(who, "rest_length has ", p.rest_length.size(), " entries for ", p.edges.size(), " edges");
    if (p.skip_rest_length.size() != p.skips.size())
        return message(who, "skip_rest_length has ", p.skip_rest_length.size(), " entries for ", p.skips.size(), " skips");
    for (size_t i = 0; i < n; ++i) {
        if (!is_finite(p.rest_position[i])) return message(who, "particle ", i, " has a non-finite rest position");
        double w = p.inverse_mass[i];
        if (!(w >= 0 && std::isfinite(w))) return message(who, "particle ", i, " has inverse mass ", w);
        if (!(p.d_geo[i] >= 0)) return message(who, "particle ", i, " has d_geo ", p.d_geo[i]);
        uint32_t h = p.nearest_held[i];
        if (h != no_particle && (h >= n || p.inverse_mass[h] != 0))
            return message(who, "particle ", i, " names nearest held particle ", h, ", which is not a held particle");
        if (std::isfinite(p.d_geo[i]) && h == no_particle)
            return message(who, "particle ", i, " has a finite d_geo but no nearest held particle");
    }
    auto check_rows = [&](const auto& rows, const std::vector<double>* rest, const char* field) -> std::string {
        for (size_t r = 0; r < rows.size(); ++r) {
            for (size_t k = 0; k < rows[r].size(); ++k) {
                if (rows[r][k] >= n) return message(who, field, " ", r, " names particle ", rows[r][k], " of ", n);
                for (size_t q = 0; q < k; ++q)
                    if (rows[r][q] == rows[r][k]) return message(who, field, " ", r, " names particle ", rows[r][k], " twice");
            }
            if (rest) {
                double l = (*rest)[r];
                if (!(l > 0 && std::isfinite(l))) return message(who, field, " ", r, " has rest length ", l);
            }
        }
        return {};
    };
    for (std::string e : {check_rows(p.edges, &p.rest_length, "edge"), check_rows(p.skips, &p.skip_rest_length, "skip"),
                          check_rows(p.hinges, nullptr, "hinge"), check_rows(p.triangles, nullptr, "triangle")})
        if (!e.empty()) return e;
    if (p.colour_ranges.size() < 2 || p.colour_ranges.front() != 0 || p.colour_ranges.back() != n)
        return who + "colour_ranges must run from 0 to the particle count";
    for (size_t c = 1; c < p.colour_ranges.size(); ++c)
        if (p.colour_ranges[c] < p.colour_ranges[c - 1]) return message(who, "colour range ", c - 1, " ends before it starts");
    for (size_t k = 0; k < p.pins.size(); ++k)
        for (uint32_t q : p.pins[k].particles) {
            if (q >= n) return message(who, "pin ", k, " ('", p.pins[k].holder, "') names particle ", q, " of ", n);
            if (p.inverse_mass[q] != 0)
                return message(who, "pin ", k, " ('", p.pins[k].holder, "') names particle ", q, ", which is not held (inverse mass ",
                               p.inverse_mass[q], ")");
        }
    return {};
}

/// cot of the angle between u and v; NaN when they are parallel (a triangle with no area).
double cotangent(const Vec3& u, const Vec3& v) {
    double s = length(cross(u, v));
    return s > 0 ? dot(u, v) / s : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------------------------------

void Solver::Impl::build(const ClothProxy& p) {
    proxy = &p;
    n = p.particle_count();
    state.x = p.rest_position;
    state.x_prev = p.rest_position;
    state.y = p.rest_position;
    state.v.assign(n, Vec3{});
    v_before.assign(n, Vec3{});
    state.inverse_mass = p.inverse_mass;

    // Held particles and their pins: a particle two pins name goes to the lower one (seed 000 §19.2).
    held_pin.assign(n, no_pin);
    for (size_t k = 0; k < p.pins.size(); ++k)
        for (uint32_t q : p.pins[k].particles)
            if (held_pin[q] == no_pin) held_pin[q] = static_cast<uint32_t>(k);
    pin_holding.assign(p.pins.size(), 1);
    holder_pose.assign(p.pins.size(), Pose{});
    hold_start_rotation.assign(p.pins.size(), Quat{});
    hold_offset = p.rest_position;
    target = p.rest_position;

    // Masses. A held particle has no mass in the proxy; released, it takes an equal share of what
    // total_mass leaves after the free particles.
    mass.assign(n, 0);
    double free_mass = 0;
    size_t held = 0, free_count = 0;
    for (size_t i = 0; i < n; ++i) {
        if (p.inverse_mass[i] > 0) {
            mass[i] = 1 / p.inverse_mass[i];
            free_mass += mass[i];
            ++free_count;
        } else {
            ++held;
        }
    }
    double share = held ? (p.total_mass - free_mass) / static_cast<double>(held) : 0;
    if (!(share > 0 && std::isfinite(share))) share = free_count ? free_mass / static_cast<double>(free_count) : 1.0;
    released_mass = share;
    for (size_t i = 0; i < n; ++i)
        if (p.inverse_mass[i] == 0) mass[i] = share;

    // Distance rows: stretch edges, then skips (seed 002 §11: a soft row to the grandparent).
    const bool hard = std::isinf(fabric.stretch_stiffness);
    edge_count = p.edges.size();
    for (size_t e = 0; e < p.edges.size(); ++e) {
        link_ends.push_back(p.edges[e]);
        link.push_back({p.rest_length[e], 0, 0, p.rest_length[e], 0, 0});
        link_hard.push_back(hard ? 1 : 0);
        link_soft_k.push_back(hard ? 0 : fabric.stretch_stiffness);
        link_soft_ratio.push_back(0);
    }
    if (fabric.bend > 0)
        for (size_t s = 0; s < p.skips.size(); ++s) {
            link_ends.push_back(p.skips[s]);
            link.push_back({p.skip_rest_length[s], 0, 0, p.skip_rest_length[s], 0, 0});
            link_hard.push_back(0);
            link_soft_k.push_back(fabric.bend);
            link_soft_ratio.push_back(1);
        }
    const size_t links = link_ends.size();
    link_m_eff.assign(links, 0);
    link_kappa.assign(links, constants.k_min_ratio);
    strain_rows = fabric.strain_limit && edge_count > 0;
    strain_factor = strain_allowance(fabric.stretch);
    if (strain_rows) {
        for (size_t e = 0; e < edge_count; ++e) link[e].strain_rest = link[e].rest * strain_factor;
        strain_kappa.assign(edge_count, constants.k_min_ratio);
    }

    // Hinges: Bergou et al.'s cotangent weights from the rest pose's interior angles (rows.md).
    if (fabric.bend > 0)
        for (size_t b = 0; b < p.hinges.size(); ++b) {
            const auto& q = p.hinges[b];
            const Vec3 &x0 = p.rest_position[q[0]], &x1 = p.rest_position[q[1]];
            const Vec3 &x2 = p.rest_position[q[2]], &x3 = p.rest_position[q[3]];
            double ca0 = cotangent(x1 - x0, x2 - x0), ca1 = cotangent(x0 - x1, x2 - x1);
            double cb0 = cotangent(x1 - x0, x3 - x0), cb1 = cotangent(x0 - x1, x3 - x1);
            std::array<double, 4> w = {ca1 + cb1, ca0 + cb0, -(ca0 + ca1), -(cb0 + cb1)};
            for (double v : w)
                if (!std::isfinite(v))
                    throw std::invalid_argument(message("proxy '", p.garment, "': hinge ", b, " (particles ", q[0], ", ", q[1], ", ",
                                                        q[2], ", ", q[3], ") has a wing triangle with no area at rest"));
            hinge_ends.push_back(q);
            hinge_w.push_back(w);
            hinge_rest.push_back(x0 * w[0] + x1 * w[1] + x2 * w[2] + x3 * w[3]);
            // Cut flat, C̄ is rounding (a few ulps of the coordinates): the hold-line turn skips it.
            const double scale = std::fabs(w[0]) + std::fabs(w[1]) + std::fabs(w[2]) + std::fabs(w[3]);
            const double coordinates = std::max({length(x0), length(x1), length(x2), length(x3), 1e-300});
            if (length(hinge_rest.back()) > 1e-12 * scale * coordinates) curved_hinges.push_back(hinge_ends.size() - 1);
        }
    hinge_m_eff.assign(hinge_ends.size(), 0);
    hinge_k.assign(hinge_ends.size(), 0);

    // Incidence lists, count -> prefix sum -> fill, in row order (deterministic).
    link_offsets.assign(n + 1, 0);
    for (const auto& e : link_ends) {
        ++link_offsets[e[0] + 1];
        ++link_offsets[e[1] + 1];
    }
    for (size_t i = 0; i < n; ++i) link_offsets[i + 1] += link_offsets[i];
    link_incidences.resize(link_offsets[n]);
    {
        std::vector<uint32_t> fill(link_offsets.begin(), link_offsets.end() - 1);
        for (size_t e = 0; e < links; ++e) {
            uint32_t a = link_ends[e][0], b = link_ends[e][1];
            link_incidences[fill[a]++] = {b, static_cast<uint32_t>(e)};
            link_incidences[fill[b]++] = {a, static_cast<uint32_t>(e)};
        }
    }
    hinge_offsets.assign(n + 1, 0);
    for (const auto& q : hinge_ends)
        for (uint32_t v : q) ++hinge_offsets[v + 1];
    for (size_t i = 0; i < n; ++i) hinge_offsets[i + 1] += hinge_offsets[i];
    hinge_incidences.resize(hinge_offsets[n]);
    {
        std::vector<uint32_t> fill(hinge_offsets.begin(), hinge_offsets.end() - 1);
        for (size_t b = 0; b < hinge_ends.size(); ++b)
            for (uint32_t s = 0; s < 4; ++s) hinge_incidences[fill[hinge_ends[b][s]]++] = {static_cast<uint32_t>(b), s};
    }

    // The trust radius (seed 002 §5.3) and the correction authority's length (§10, §13).
    trust_radius.assign(n, kInf);
    shortest_row = kInf;
    for (size_t e = 0; e < links; ++e) {
        double r = link[e].rest;
        trust_radius[link_ends[e][0]] = std::min(trust_radius[link_ends[e][0]], r);
        trust_radius[link_ends[e][1]] = std::min(trust_radius[link_ends[e][1]], r);
        shortest_row = std::min(shortest_row, r);
    }
    reach = weft::reach(p);

    // Unary rows.
    tether_centre.assign(n, no_particle);
    tether_radius.assign(n, kInf);
    tether_k.assign(n, 0);
    tether_lambda.assign(n, 0);
    tether_kappa.assign(n, constants.k_min_ratio);
    slack_rows = fabric.slack < 1;  // at slack = 1 the row provably cannot bind (seed 002 §10)
    slack_radius.assign(n, kInf);
    animated = p.rest_position;
    pose_rows = fabric.pose > 0;
    pose_k.assign(n, 0);
    {
        Vec3 t, scale;
        p.frame.rest_world.decompose(t, rest_frame_rotation, scale);
    }
    slack_k.assign(n, 0);
    slack_lambda.assign(n, 0);
    slack_kappa.assign(n, constants.k_min_ratio);
    contact_count.assign(n, 0);
    contacts.assign(n, {});

    refresh_masses();
    init_tethers();
}

/// Effective masses after the set of kinematic particles changed (construction, release, grab).
void Solver::Impl::refresh_masses() {
    const auto& w = state.inverse_mass;
    for (size_t e = 0; e < link_ends.size(); ++e) {
        double s = w[link_ends[e][0]] + w[link_ends[e][1]];
        link_m_eff[e] = s > 0 ? 1 / s : 0;
    }
    for (size_t b = 0; b < hinge_ends.size(); ++b) {
        double s = 0;
        for (int k = 0; k < 4; ++k) s += hinge_w[b][k] * hinge_w[b][k] * w[hinge_ends[b][k]];
        // seed 000 §19.5: k = bend·(m/Σw²)/h², generalised to unequal masses as 1/Σ(w_k²/m_k).
        hinge_m_eff[b] = s > 0 ? 1 / s : 0;
    }
    build_bend_operator();
    refresh_free_lists();
}

void Solver::Impl::build_bend_operator() {
    bend_diagonal.assign(n, 0);
    bend_rest.assign(n, Vec3{});
    std::vector<std::vector<BendNeighbour>> rows(n);
    for (size_t b = 0; b < hinge_ends.size(); ++b) {
        const double scale = fabric.bend * hinge_m_eff[b];
        for (int s = 0; s < 4; ++s) {
            const uint32_t i = hinge_ends[b][s];
            bend_diagonal[i] += scale * hinge_w[b][s] * hinge_w[b][s];
            bend_rest[i] += hinge_rest[b] * (scale * hinge_w[b][s]);
            for (int q = 0; q < 4; ++q) {
                if (q == s) continue;
                const uint32_t j = hinge_ends[b][q];
                const double c = scale * hinge_w[b][s] * hinge_w[b][q];
                auto it = std::find_if(rows[i].begin(), rows[i].end(), [&](const BendNeighbour& e) { return e.other == j; });
                if (it == rows[i].end())
                    rows[i].push_back({j, c});
                else
                    it->coefficient += c;
            }
        }
    }
    bend_offsets.assign(n + 1, 0);
    bend_neighbours.clear();
    for (uint32_t i = 0; i < n; ++i) {
        bend_neighbours.insert(bend_neighbours.end(), rows[i].begin(), rows[i].end());
        bend_offsets[i + 1] = static_cast<uint32_t>(bend_neighbours.size());
    }
}

void Solver::Impl::refresh_free_lists() {
    free_particles.clear();
    kinematic_particles.clear();
    for (uint32_t i = 0; i < n; ++i) (state.inverse_mass[i] > 0 ? free_particles : kinematic_particles).push_back(i);
}

/// Tether and slack rows for every free particle whose nearest held particle is held now. A tether
/// starts no tighter than where its particle is (seed 000 §19.3), so a grab does not snap the cloth.
void Solver::Impl::init_tethers() {
    const ClothProxy& p = *proxy;
    for (uint32_t i = 0; i < n; ++i) {
        tether_centre[i] = no_particle;
        tether_radius[i] = kInf;
        slack_radius[i] = kInf;
        tether_lambda[i] = 0;
        slack_lambda[i] = 0;
        pose_k[i] = 0;
        if (state.inverse_mass[i] == 0) continue;
        uint32_t c = p.nearest_held[i];
        if (c == no_particle || state.inverse_mass[c] != 0) continue;
        if (held_pin[c] != no_pin && !pin_holding[held_pin[c]]) continue;
        double d = p.d_geo[i];
        if (!std::isfinite(d)) continue;
        if (constants.tethers) {
            tether_centre[i] = c;
            tether_radius[i] = std::max(d, distance(state.x[i], state.x[c]));
        }
        if (slack_rows) slack_radius[i] = 2 * fabric.slack * d;
        if (pose_rows) pose_k[i] = mass[i] * pose_omega2();
    }
}

/// s_i = x_p + R_p·(r_i − r_p): the rest pose hung from the nearest held particle and turned with its
/// holder (seed 000 §19.3); a particle nothing holds keeps its rest position.
Vec3 Solver::Impl::animated_position(uint32_t i) const {
    const ClothProxy& p = *proxy;
    if (state.inverse_mass[i] == 0) return target[i];
    uint32_t c = p.nearest_held[i];
    if (c == no_particle || state.inverse_mass[c] != 0) return p.rest_position[i];
    Quat r;
    if (held_pin[c] != no_pin) {
        if (!pin_holding[held_pin[c]]) return p.rest_position[i];
        r = holder_pose[held_pin[c]].rotation * hold_start_rotation[held_pin[c]].conjugate();
    }
    return state.x[c] + r.rotate(p.rest_position[i] - p.rest_position[c]);
}

/// Reset: held particles on their targets, everything else on the animated pose, at rest, with
/// fresh multipliers (seed 002 §13, seed 000 §7 P6 M7 note).
void Solver::Impl::reseed() {
    for (uint32_t i : kinematic_particles) state.x[i] = target[i];
    for (uint32_t i : free_particles) state.x[i] = animated_position(i);
    state.x_prev = state.x;
    state.y = state.x;
    std::fill(state.v.begin(), state.v.end(), Vec3{});
    std::fill(v_before.begin(), v_before.end(), Vec3{});
    for (LinkRow& r : link) r.lambda = r.strain_lambda = 0;
    std::fill(link_kappa.begin(), link_kappa.end(), constants.k_min_ratio);
    std::fill(strain_kappa.begin(), strain_kappa.end(), constants.k_min_ratio);
    std::fill(tether_kappa.begin(), tether_kappa.end(), constants.k_min_ratio);
    std::fill(slack_kappa.begin(), slack_kappa.end(), constants.k_min_ratio);
    std::fill(contact_count.begin(), contact_count.end(), uint8_t{0});
    init_tethers();
    steps_since_reset = 0;
    quiet_steps = 0;
}

// ---------------------------------------------------------------------------------------------------
// The public API
// ---------------------------------------------------------------------------------------------------

Solver::Solver(const ClothProxy& proxy, const Fabric& fabric, const SolverConstants& constants)
    : impl_(std::make_unique<Impl>()) {
    if (std::string e = fabric_error(fabric); !e.empty()) throw std::invalid_argument(e);
    if (std::string e = proxy_error(proxy); !e.empty()) throw std::invalid_argument(e);
    if (!(constants.k_min_ratio > 0 && constants.k_max_ratio >= constants.k_min_ratio && constants.alpha >= 0 &&
          constants.gamma > 0 && constants.beta >= 0 && constants.clamp_ratio > 0))
        throw std::invalid_argument("solver constants out of range (need k_max >= k_min > 0, α >= 0, γ > 0, β >= 0)");
    impl_->fabric = fabric;
    impl_->constants = constants;
    impl_->build(proxy);
}

Solver::~Solver() = default;
Solver::Solver(Solver&&) noexcept = default;
Solver& Solver::operator=(Solver&&) noexcept = default;

const ClothState& Solver::state() const { return impl_->state; }
const ClothProxy& Solver::proxy() const { return *impl_->proxy; }
const Fabric& Solver::fabric() const { return impl_->fabric; }
const SolverConstants& Solver::constants() const { return impl_->constants; }
bool Solver::asleep() const { return impl_->asleep; }
double Solver::reach() const { return impl_->reach; }

void Solver::wake() {
    impl_->asleep = false;
    impl_->quiet_steps = 0;
}

double Solver::correction_authority(double dt) const {
    const Impl& m = *impl_;
    return m.shortest_row * m.fabric.substeps * m.fabric.iterations / dt;
}

double Solver::velocity_clamp(double dt) const { return impl_->constants.clamp_ratio * correction_authority(dt); }

void Solver::release(size_t pin) {
    Impl& m = *impl_;
    if (pin >= m.pin_holding.size()) throw std::out_of_range(message("release: pin ", pin, " of ", m.pin_holding.size()));
    if (!m.pin_holding[pin]) return;
    m.pin_holding[pin] = 0;
    // The particles leave at the speed their holder carried them: v already holds it.
    for (uint32_t i = 0; i < m.n; ++i)
        if (m.held_pin[i] == pin) m.state.inverse_mass[i] = 1 / m.mass[i];
    m.refresh_masses();
    m.init_tethers();
    wake();
}

void Solver::grab(size_t pin) {
    Impl& m = *impl_;
    if (pin >= m.pin_holding.size()) throw std::out_of_range(message("grab: pin ", pin, " of ", m.pin_holding.size()));
    if (m.pin_holding[pin]) return;
    m.pin_holding[pin] = 1;
    // A hold begins where the particle is (seed 000 §19.2).
    const Pose inv = inverse(m.holder_pose[pin]);
    m.hold_start_rotation[pin] = m.holder_pose[pin].rotation;
    for (uint32_t i = 0; i < m.n; ++i)
        if (m.held_pin[i] == pin) {
            m.state.inverse_mass[i] = 0;
            m.hold_offset[i] = inv.apply(m.state.x[i]);
            m.target[i] = m.state.x[i];
        }
    m.refresh_masses();
    m.init_tethers();
    wake();
}

bool Solver::holding(size_t pin) const { return pin < impl_->pin_holding.size() && impl_->pin_holding[pin]; }

void Solver::add_velocity(const Vec3& dv) {
    for (uint32_t i : impl_->free_particles) impl_->state.v[i] += dv;
    wake();
}

void Solver::reset() {
    impl_->reseed();
    wake();
}

uint32_t Solver::tether_centre(uint32_t particle) const { return impl_->tether_centre.at(particle); }
double Solver::tether_radius(uint32_t particle) const { return impl_->tether_radius.at(particle); }

std::vector<Vec3> Solver::animated_pose() const {
    std::vector<Vec3> out(impl_->n);
    for (uint32_t i = 0; i < impl_->n; ++i) out[i] = impl_->animated_position(i);
    return out;
}

Solver::RowCounts Solver::row_counts() const {
    const Impl& m = *impl_;
    RowCounts c;
    c.stretch = m.edge_count;
    c.strain_limit = m.strain_rows ? m.edge_count : 0;
    c.skip = m.link_ends.size() - m.edge_count;
    c.hinge = m.hinge_ends.size();
    for (uint32_t i = 0; i < m.n; ++i) {
        c.tether += m.tether_centre[i] != no_particle;
        c.slack += m.slack_rows && std::isfinite(m.slack_radius[i]);
        c.pose += m.pose_rows && m.pose_k[i] > 0;
    }
    return c;
}

Energy Solver::energy(const Vec3& gravity_frame) const {
    const Impl& m = *impl_;
    Energy e;
    for (uint32_t i : m.free_particles) {
        e.kinetic += 0.5 * m.mass[i] * length_squared(m.state.v[i]);
        e.gravitational -= m.mass[i] * dot(gravity_frame, m.state.x[i]);
    }
    for (size_t r = 0; r < m.link_ends.size(); ++r)
        if (!m.link_hard[r]) {
            double c = distance(m.state.x[m.link_ends[r][0]], m.state.x[m.link_ends[r][1]]) - m.link[r].rest;
            e.elastic += 0.5 * m.link[r].k * c * c;
        }
    for (size_t b = 0; b < m.hinge_ends.size(); ++b) {
        Vec3 c = -m.hinge_rest[b];
        for (int k = 0; k < 4; ++k) c += m.state.x[m.hinge_ends[b][k]] * m.hinge_w[b][k];
        e.elastic += 0.5 * m.hinge_k[b] * length_squared(c);
    }
    if (m.pose_rows)
        for (uint32_t i : m.free_particles)
            if (m.pose_k[i] > 0) e.elastic += 0.5 * m.pose_k[i] * length_squared(m.state.x[i] - m.animated[i] - m.pose_lift);
    return e;
}

// ---------------------------------------------------------------------------------------------------
// The step
// ---------------------------------------------------------------------------------------------------

StepStats Solver::step(const StepInput& in) {
    Impl& m = *impl_;
    const ClothProxy& p = *m.proxy;
    if (!(in.dt > 0 && std::isfinite(in.dt))) throw std::invalid_argument(message("step: dt = ", in.dt, ", want > 0"));
    if (!in.holders.empty() && in.holders.size() != p.pins.size())
        throw std::invalid_argument(message("step: ", in.holders.size(), " holder poses for ", p.pins.size(), " pins"));
    if (!finite_pose(in.frame) || !is_finite(in.gravity)) throw std::invalid_argument("step: non-finite frame pose or gravity");
    for (size_t k = 0; k < in.holders.size(); ++k)
        if (!finite_pose(in.holders[k])) throw std::invalid_argument(message("step: holder pose of pin ", k, " is not finite"));
    for (size_t c = 0; c < in.spheres.size(); ++c)
        if (!is_finite(in.spheres[c].centre) || !(in.spheres[c].radius >= 0 && std::isfinite(in.spheres[c].radius)))
            throw std::invalid_argument(message("step: sphere collider ", c, " is not finite or has a negative radius"));
    for (size_t c = 0; c < in.capsules.size(); ++c)
        if (!is_finite(in.capsules[c].a) || !is_finite(in.capsules[c].b) ||
            !(in.capsules[c].radius >= 0 && std::isfinite(in.capsules[c].radius)))
            throw std::invalid_argument(message("step: capsule collider ", c, " is not finite or has a negative radius"));

    StepStats stats;
    m.stats = &stats;
    const double dt = in.dt;
    const std::vector<Pose>& poses = in.holders.empty() ? m.holder_pose : in.holders;

    // The first step captures the holds: each held particle's offset from its holder (seed 000 §19.2).
    if (!m.started) {
        m.started = true;
        m.frame_pose = in.frame;
        m.frame_velocity = {};
        m.frame_omega = {};
        m.holder_pose = poses;
        for (size_t k = 0; k < p.pins.size(); ++k) m.hold_start_rotation[k] = poses[k].rotation;
        for (uint32_t i = 0; i < m.n; ++i)
            if (m.held_pin[i] != no_pin) m.hold_offset[i] = inverse(poses[m.held_pin[i]]).apply(m.state.x[i]);
        m.gravity_frame = in.frame.rotation.conjugate().rotate(in.gravity);
        m.spheres_prev = in.spheres;
        m.capsules_prev = in.capsules;
        m.spheres = in.spheres;
        m.capsules = in.capsules;
    }
    const Vec3 gravity = in.frame.rotation.conjugate().rotate(in.gravity);
    // The pose row's centre sits where its pull carries the weight the particle has at rest: the
    // bind pose is the chain's equilibrium with the model standing as it was bound (inverse statics),
    // and a tilt of the frame away from that is what sags it.
    if (m.pose_rows) m.pose_lift = m.rest_frame_rotation.conjugate().rotate(in.gravity) * (-1 / m.pose_omega2());

    // Frame motion and teleports (seed 002 §13; seed 000 §7 P6 M7: the frame's jump in the world or
    // any holder's jump in the frame, against one threshold).
    const double full_clamp = velocity_clamp(dt);
    const double threshold = in.teleport_distance > 0 ? in.teleport_distance : full_clamp * dt;
    auto jumped = [&](const Pose& from, const Pose& to) {
        double angle = rotation_angle(to.rotation * from.rotation.conjugate());
        double chord = 2 * std::sin(std::min(angle, std::numbers::pi) / 2) * m.reach;
        return distance(from.position, to.position) > threshold || chord > threshold;
    };
    Vec3 frame_velocity = (in.frame.position - m.frame_pose.position) / dt;
    Vec3 frame_omega = angular_velocity(m.frame_pose.rotation, in.frame.rotation, dt);
    bool teleport = in.teleport || jumped(m.frame_pose, in.frame);
    std::vector<uint8_t> holder_jumped(p.pins.size(), 0);
    for (size_t k = 0; k < p.pins.size(); ++k)
        if (m.pin_holding[k] && jumped(m.holder_pose[k], poses[k])) {
            holder_jumped[k] = 1;
            teleport = true;
        }
    if (teleport) {  // a jump is not motion: the frame keeps the velocity it had
        frame_velocity = m.frame_velocity;
        frame_omega = m.frame_omega;
    }

    const double inertia = m.fabric.inertia;
    const bool frame_felt = inertia > 0 && (!(frame_velocity == m.frame_velocity) || !(frame_omega == m.frame_omega) ||
                                            !(frame_omega == Vec3{}));
    auto finish_bookkeeping = [&] {
        m.frame_pose = in.frame;
        m.frame_velocity = frame_velocity;
        m.frame_omega = frame_omega;
        m.holder_pose = poses;
        m.gravity_frame = gravity;
        m.spheres_prev = in.spheres;
        m.capsules_prev = in.capsules;
        m.spheres = in.spheres;
        m.capsules = in.capsules;
        m.stats = nullptr;
    };

    // Sleep (seed 002 §12): nothing is computed or written until something that matters changes.
    if (m.asleep) {
        bool changed = teleport || frame_felt || !(gravity == m.gravity_frame);
        for (size_t k = 0; k < poses.size() && !changed; ++k) changed = !(poses[k] == m.holder_pose[k]);
        auto same_spheres = [&] {
            if (in.spheres.size() != m.spheres.size()) return false;
            for (size_t c = 0; c < in.spheres.size(); ++c)
                if (!(in.spheres[c].centre == m.spheres[c].centre) || in.spheres[c].radius != m.spheres[c].radius) return false;
            return true;
        };
        auto same_capsules = [&] {
            if (in.capsules.size() != m.capsules.size()) return false;
            for (size_t c = 0; c < in.capsules.size(); ++c)
                if (!(in.capsules[c].a == m.capsules[c].a) || !(in.capsules[c].b == m.capsules[c].b) ||
                    in.capsules[c].radius != m.capsules[c].radius)
                    return false;
            return true;
        };
        changed = changed || !same_spheres() || !same_capsules();
        if (!changed) {
            stats.asleep = true;
            finish_bookkeeping();
            return stats;
        }
        wake();
    }
    m.spheres = in.spheres;
    m.capsules = in.capsules;
    if (m.spheres_prev.size() != m.spheres.size()) m.spheres_prev = m.spheres;
    if (m.capsules_prev.size() != m.capsules.size()) m.capsules_prev = m.capsules;

    // Kinematic targets at the end of the step: holder·offset; a bone nothing pins stays put.
    auto set_targets = [&] {
        for (uint32_t i : m.kinematic_particles) {
            uint32_t k = m.held_pin[i];
            m.target[i] = k != no_pin ? poses[k].apply(m.hold_offset[i]) : m.state.x[i];
        }
    };

    if (teleport) {
        if (in.teleport_mode == TeleportMode::reset) {
            m.holder_pose = poses;
            set_targets();
            m.reseed();
            stats.teleported = Teleported::reset;
        } else {
            // Keep: a frame jump needs nothing (the cloth already lives in the frame); a holder's jump
            // is applied rigidly to what hangs from it, held particles included.
            for (size_t k = 0; k < p.pins.size(); ++k) {
                if (!holder_jumped[k]) continue;
                const Pose delta = compose(poses[k], inverse(m.holder_pose[k]));
                for (uint32_t i = 0; i < m.n; ++i) {
                    uint32_t c = m.state.inverse_mass[i] == 0 ? i : p.nearest_held[i];
                    if (c == no_particle || m.held_pin[c] != k) continue;
                    m.state.x[i] = delta.apply(m.state.x[i]);
                    m.state.x_prev[i] = delta.apply(m.state.x_prev[i]);
                    m.state.v[i] = delta.rotation.rotate(m.state.v[i]);
                }
            }
            stats.teleported = Teleported::keep;
        }
    }
    m.holder_pose = poses;
    set_targets();

    // Tethers only ever come in (seed 000 §19.3).
    for (uint32_t i : m.free_particles) {
        uint32_t c = m.tether_centre[i];
        if (c == no_particle) continue;
        m.tether_radius[i] = std::max(p.d_geo[i], std::min(m.tether_radius[i], distance(m.state.x[i], m.state.x[c])));
    }

    // Inertia (seed 002 §13): the cloth feels `inertia` of the frame's world motion. In the frame
    // that is the fictitious accelerations: a change of frame velocity is a kick −ΔV − Δω×x, a
    // turning frame adds −ω×(ω×x) − 2ω×v every substep. Held particles belong to their holders.
    const Quat to_frame = in.frame.rotation.conjugate();
    if (inertia > 0 && stats.teleported != Teleported::reset) {
        const Vec3 dv = to_frame.rotate(frame_velocity - m.frame_velocity) * inertia;
        const Vec3 dw = to_frame.rotate(frame_omega - m.frame_omega) * inertia;
        if (!(dv == Vec3{}) || !(dw == Vec3{}))
            for (uint32_t i : m.free_particles) m.state.v[i] -= dv + cross(dw, m.state.x[i]);
    }
    m.omega_local = to_frame.rotate(frame_omega);
    m.fictitious_inertia = (inertia > 0 && !(frame_omega == Vec3{})) ? inertia : 0;

    // The velocity clamp: clamp_ratio × the correction authority, ramped back from 0 after a reset.
    double clamp = full_clamp;
    if (m.steps_since_reset < m.constants.reset_ramp_steps)
        clamp *= static_cast<double>(m.steps_since_reset) / m.constants.reset_ramp_steps;
    stats.velocity_clamp = clamp;

    const uint32_t substeps = m.fabric.substeps;
    m.h = dt / substeps;
    m.inv_h = 1 / m.h;
    m.inv_h2 = m.inv_h * m.inv_h;
    const double h = m.h;
    const double decay = std::exp(-m.fabric.damping * h);
    const bool turn_block = m.constants.hold_line;
    const std::vector<uint32_t>& ranges = p.colour_ranges;
    double unclamped = 0;

    for (uint32_t s = 0; s < substeps; ++s) {
        m.state.x_prev = m.state.x;
        // Held particles: an equal share of what remains, exactly onto the target at the last
        // substep; a target equal to the position moves nothing by a bit (seed 000 §19.3).
        const uint32_t remaining = substeps - s;
        for (uint32_t i : m.kinematic_particles)
            m.state.x[i] = remaining == 1 ? m.target[i] : m.state.x[i] + (m.target[i] - m.state.x[i]) / remaining;
        if (turn_block) m.find_hold_line();
        if (m.slack_rows || m.pose_rows)
            for (uint32_t i : m.free_particles)
                if (std::isfinite(m.slack_radius[i]) || m.pose_k[i] > 0) m.animated[i] = m.animated_position(i);

        // Predict the inertial target y = x + h·v + h²·a.
        const double fi = m.fictitious_inertia;
        const double g_length = length(gravity);
        const Vec3 w = m.omega_local;
        for (uint32_t i : m.free_particles) {
            Vec3 a = gravity;
            if (fi > 0) a -= (cross(w, cross(w, m.state.x[i])) + cross(w, m.state.v[i]) * 2.0) * fi;
            m.state.y[i] = m.state.x[i] + m.state.v[i] * h + a * (h * h);
            // Start the sweeps from the adaptive guess x + h·v + w·h²·g, w the share of gravity the
            // particle's last substep actually accelerated by (Chen, Macklin et al., Vertex Block
            // Descent, 2024; the AVBD reference does the same, solver-references.md §2). A cloth at
            // rest starts at rest rather than a fall below it: from the full inertial guess one sweep
            // cannot lift a 30-link chain back, and seed 002 §10's tethered rig rests 3% beyond its
            // tether at 1x1 instead of the table's 0.25% (0.29% from this guess).
            double along = 0;
            if (g_length > 0)
                along = std::clamp(dot(m.state.v[i] - m.v_before[i], gravity) * m.inv_h / (g_length * g_length), 0.0, 1.0);
            m.state.x[i] += m.state.v[i] * h + gravity * (h * h * along);
        }

        m.warm_start();
        m.set_penalties();
        stats.contacts = 0;
        m.detect_contacts(static_cast<double>(s + 1) / substeps);

        // Each iteration: a Gauss-Seidel sweep colour by colour, the hold-line turn in the last one,
        // then the dual update (seed 000 §5.2's listing; AVBD's primal-dual iteration).
        for (uint32_t it = 0; it < m.fabric.iterations; ++it) {
            for (size_t c = 0; c + 1 < ranges.size(); ++c) m.sweep_colour(ranges[c], ranges[c + 1]);
            if (it + 1 == m.fabric.iterations && turn_block && m.hold_line_ok) m.turn_about_hold_line();
            m.update_duals();
        }

        // Velocities, damping, the clamp (seed 002 §13: the clamp bounds the position too, so a
        // clamped particle moves only as far as its clamped velocity takes it).
        for (uint32_t i : m.kinematic_particles) m.state.v[i] = (m.state.x[i] - m.state.x_prev[i]) * m.inv_h;
        m.v_before = m.state.v;
        for (uint32_t i : m.free_particles) {
            Vec3 v = (m.state.x[i] - m.state.x_prev[i]) * m.inv_h * decay;
            double speed = length(v);
            unclamped = std::max(unclamped, speed);
            if (speed > clamp) {
                v = clamp > 0 ? v * (clamp / speed) : Vec3{};
                m.state.x[i] = m.state.x_prev[i] + v * h;
                ++stats.clamped;
            }
            m.state.v[i] = v;
        }
    }

    double fastest = 0;
    for (uint32_t i : m.free_particles) fastest = std::max(fastest, length(m.state.v[i]));
    stats.max_speed = fastest;
    stats.max_speed_unclamped = unclamped;
    if (m.steps_since_reset != UINT64_MAX) ++m.steps_since_reset;

    // Sleep test (seed 002 §12): 30 consecutive steps with nothing faster than 1e-3·reach per second.
    // A proxy with no free particle (a garment its pins hold whole) has nothing to move: it sleeps too.
    const bool quiet = m.free_particles.empty() || fastest < m.constants.sleep_speed_ratio * m.reach;
    if (m.constants.sleep && quiet && stats.teleported == Teleported::none) {
        if (++m.quiet_steps >= m.constants.sleep_steps) {
            m.asleep = true;
            stats.fell_asleep = true;
        }
    } else {
        m.quiet_steps = 0;
    }
    finish_bookkeeping();
    return stats;
}

}  // namespace weft
