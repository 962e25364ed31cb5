// The C interface over Solver and decode_proxy (weft_runtime.h).
#include "runtime/weft_runtime.h"

#include <cmath>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

#include "proxy/core/codec.h"
#include "proxy/core/render_binding.h"
#include "solver/checked_step.h"
#include "solver/solver.h"

struct weft_runtime {
    weft::ClothProxy proxy;
    std::optional<weft::Solver> solver;
    weft::StepInput in;
    weft::SolverState undo;       ///< the state before the last step, to put back a step that went non-finite
    std::vector<uint32_t> child;  ///< per particle: the chain's next particle, or no_particle
    mutable std::vector<weft::Vec3> normals, render;  ///< scratch of weft_runtime_render_positions
};

namespace {

void put_error(char* error, size_t size, const std::string& message) {
    if (!error || size == 0) return;
    const size_t n = std::min(size - 1, message.size());
    std::memcpy(error, message.data(), n);
    error[n] = '\0';
}

weft::Pose pose_of(const weft_pose& p) {
    return weft::Pose{{p.position[0], p.position[1], p.position[2]}, weft::Quat{p.rotation[0], p.rotation[1], p.rotation[2], p.rotation[3]}};
}

void put_pose(const weft::Vec3& t, const weft::Quat& r, weft_pose* out) {
    out->position[0] = t.x, out->position[1] = t.y, out->position[2] = t.z;
    out->rotation[0] = r.x, out->rotation[1] = r.y, out->rotation[2] = r.z, out->rotation[3] = r.w;
}

/// A placement the solver takes: finite, its rotation a unit quaternion (checked_step.h's test).
bool placement_ok(const weft_pose* p) {
    for (double v : p->position) if (!std::isfinite(v)) return false;
    const double n = std::sqrt(p->rotation[0] * p->rotation[0] + p->rotation[1] * p->rotation[1] + p->rotation[2] * p->rotation[2] +
                               p->rotation[3] * p->rotation[3]);
    return std::isfinite(n) && std::fabs(n - 1) <= weft::unit_quaternion_tolerance;
}

int status_of(weft::StepCheck check) {
    switch (check) {
        case weft::StepCheck::ok: return WEFT_OK;
        case weft::StepCheck::bad_dt: return WEFT_ERROR_DT;
        case weft::StepCheck::bad_frame: return WEFT_ERROR_FRAME;
        case weft::StepCheck::bad_holder: return WEFT_ERROR_HOLDER;
        case weft::StepCheck::bad_collider: return WEFT_ERROR_COLLIDER;
        case weft::StepCheck::non_finite: return WEFT_ERROR_NON_FINITE;
    }
    return WEFT_ERROR_NON_FINITE;
}

/// A chain joint's child: the edge partner one link further from the hold (d_geo grows by the link).
std::vector<uint32_t> children_of(const weft::ClothProxy& proxy) {
    std::vector<uint32_t> child(proxy.particle_count(), weft::no_particle);
    std::vector<double> best(proxy.particle_count(), INFINITY);
    for (size_t e = 0; e < proxy.edges.size(); ++e)
        for (int side = 0; side < 2; ++side) {
            const uint32_t a = proxy.edges[e][side], b = proxy.edges[e][1 - side];
            const double grow = proxy.d_geo[b] - proxy.d_geo[a];
            if (!std::isfinite(grow) || grow <= 0.5 * proxy.rest_length[e]) continue;
            const double miss = std::fabs(grow - proxy.rest_length[e]);
            if (miss < best[a]) best[a] = miss, child[a] = b;
        }
    return child;
}

}  // namespace

extern "C" {

const char* weft_status_name(int status) {
    switch (status) {
        case WEFT_OK: return "WEFT_OK";
        case WEFT_ERROR_ARGUMENT: return "WEFT_ERROR_ARGUMENT";
        case WEFT_ERROR_DT: return "WEFT_ERROR_DT";
        case WEFT_ERROR_FRAME: return "WEFT_ERROR_FRAME";
        case WEFT_ERROR_HOLDER: return "WEFT_ERROR_HOLDER";
        case WEFT_ERROR_COLLIDER: return "WEFT_ERROR_COLLIDER";
        case WEFT_ERROR_NON_FINITE: return "WEFT_ERROR_NON_FINITE";
        case WEFT_ERROR_VELOCITY: return "WEFT_ERROR_VELOCITY";
        case WEFT_ERROR_MEMORY: return "WEFT_ERROR_MEMORY";
    }
    return "unknown status";
}

weft_runtime* weft_runtime_load(const uint8_t* bytes, size_t size, const char* fabric, char* error, size_t error_size) {
    try {
        if (!bytes && size > 0) {
            put_error(error, error_size, "no bytes given");
            return nullptr;
        }
        weft::DecodeResult decoded = weft::decode_proxy(std::span<const uint8_t>(bytes, size));
        if (!decoded.ok()) {
            put_error(error, error_size, decoded.error);
            return nullptr;
        }
        std::optional<weft::Fabric> f;
        if (fabric) {
            f = weft::find_fabric(fabric);
            if (!f) {
                put_error(error, error_size, std::string("no fabric named \"") + fabric + "\" (the library: " + weft::fabric_library_names() + ")");
                return nullptr;
            }
        } else {
            // The proxy's suggested fabric, else the one its garment class suggests (as weft validate).
            f = weft::find_fabric(decoded.proxy->suggested_fabric);
            if (!f) f = weft::find_fabric(decoded.proxy->kind == weft::ProxyKind::rig ? weft::fabric_for_rig_class(decoded.proxy->garment_class)
                                                                                       : weft::fabric_for_garment_class(decoded.proxy->garment_class));
        }
        auto* rt = new weft_runtime;
        rt->proxy = std::move(*decoded.proxy);
        rt->solver.emplace(rt->proxy, *f);  // throws std::invalid_argument naming what cannot be simulated
        rt->in.holders.assign(rt->proxy.pins.size(), weft::Pose{});
        rt->child = children_of(rt->proxy);
        return rt;
    } catch (const std::exception& e) {
        put_error(error, error_size, e.what());
        return nullptr;
    }
}

void weft_runtime_free(weft_runtime* runtime) { delete runtime; }

uint32_t weft_runtime_particle_count(const weft_runtime* rt) { return rt ? uint32_t(rt->proxy.particle_count()) : 0; }
uint32_t weft_runtime_pin_count(const weft_runtime* rt) { return rt ? uint32_t(rt->proxy.pins.size()) : 0; }

const char* weft_runtime_pin_holder(const weft_runtime* rt, uint32_t pin) {
    return rt && pin < rt->proxy.pins.size() ? rt->proxy.pins[pin].holder.c_str() : nullptr;
}

const char* weft_runtime_frame_node(const weft_runtime* rt) { return rt ? rt->proxy.frame.node.c_str() : nullptr; }

const char* weft_runtime_joint_name(const weft_runtime* rt, uint32_t particle) {
    if (!rt || particle >= rt->proxy.particle_count()) return nullptr;
    return particle < rt->proxy.joint_name.size() ? rt->proxy.joint_name[particle].c_str() : "";
}

void weft_runtime_rest_frame(const weft_runtime* rt, weft_pose* out) {
    if (!rt || !out) return;
    weft::Vec3 t, s;
    weft::Quat r;
    rt->proxy.frame.rest_world.decompose(t, r, s);
    put_pose(t, r, out);
}

int weft_runtime_holds_pose(const weft_runtime* rt) { return rt && rt->solver->row_counts().pose > 0 ? 1 : 0; }

int weft_runtime_set_frame(weft_runtime* rt, const weft_pose* frame) {
    if (!rt || !frame) return WEFT_ERROR_ARGUMENT;
    if (!placement_ok(frame)) return WEFT_ERROR_FRAME;
    rt->in.frame = pose_of(*frame);
    return WEFT_OK;
}

int weft_runtime_set_holder(weft_runtime* rt, uint32_t pin, const weft_pose* holder) {
    if (!rt || !holder || pin >= rt->in.holders.size()) return WEFT_ERROR_ARGUMENT;
    if (!placement_ok(holder)) return WEFT_ERROR_HOLDER;
    rt->in.holders[pin] = pose_of(*holder);
    return WEFT_OK;
}

int weft_runtime_set_colliders(weft_runtime* rt, const double* spheres, uint32_t count) {
    if (!rt || (!spheres && count > 0)) return WEFT_ERROR_ARGUMENT;
    std::vector<weft::SphereCollider> out(count);
    for (uint32_t i = 0; i < count; ++i) {
        const double* s = spheres + 4 * size_t(i);
        for (int k = 0; k < 4; ++k)
            if (!std::isfinite(s[k])) return WEFT_ERROR_COLLIDER;
        if (s[3] < 0) return WEFT_ERROR_COLLIDER;
        out[i] = {{s[0], s[1], s[2]}, s[3]};
    }
    rt->in.spheres = std::move(out);
    return WEFT_OK;
}

int weft_runtime_set_capsules(weft_runtime* rt, const double* capsules, uint32_t count) {
    if (!rt || (!capsules && count > 0)) return WEFT_ERROR_ARGUMENT;
    std::vector<weft::CapsuleCollider> out(count);
    for (uint32_t i = 0; i < count; ++i) {
        const double* c = capsules + 7 * size_t(i);
        for (int k = 0; k < 7; ++k)
            if (!std::isfinite(c[k])) return WEFT_ERROR_COLLIDER;
        if (c[6] < 0) return WEFT_ERROR_COLLIDER;
        out[i] = {{c[0], c[1], c[2]}, {c[3], c[4], c[5]}, c[6]};
    }
    rt->in.capsules = std::move(out);
    return WEFT_OK;
}

int weft_runtime_add_velocity(weft_runtime* rt, const double velocity[3]) {
    if (!rt || !velocity) return WEFT_ERROR_ARGUMENT;
    const weft::Vec3 v{velocity[0], velocity[1], velocity[2]};
    if (!weft::is_finite(v)) return WEFT_ERROR_VELOCITY;
    // As weft validate's scripts kick: world axes turned into the frame as it stands.
    rt->solver->add_velocity(rt->in.frame.rotation.conjugate().rotate(v));
    return WEFT_OK;
}

int weft_runtime_step(weft_runtime* rt, double dt) {
    if (!rt) return WEFT_ERROR_ARGUMENT;
    try {
        rt->in.dt = dt;
        return status_of(weft::checked_step(*rt->solver, rt->in, &rt->undo));
    } catch (const std::exception&) {
        return WEFT_ERROR_MEMORY;  // out of memory part way through: undone
    }
}

void weft_runtime_positions(const weft_runtime* rt, double* xyz) {
    if (!rt || !xyz) return;
    const auto& x = rt->solver->state().x;
    for (size_t i = 0; i < x.size(); ++i) xyz[3 * i] = x[i].x, xyz[3 * i + 1] = x[i].y, xyz[3 * i + 2] = x[i].z;
}

uint32_t weft_runtime_render_vertex_count(const weft_runtime* rt) {
    return rt ? static_cast<uint32_t>(rt->proxy.binding_triangle.size()) : 0;
}

uint32_t weft_runtime_render_triangle_count(const weft_runtime* rt) {
    return rt ? static_cast<uint32_t>(rt->proxy.render_triangles.size()) : 0;
}

int weft_runtime_render_triangles(const weft_runtime* rt, uint32_t* indices) {
    if (!rt || (!indices && !rt->proxy.render_triangles.empty())) return WEFT_ERROR_ARGUMENT;
    for (size_t t = 0; t < rt->proxy.render_triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) indices[3 * t + k] = rt->proxy.render_triangles[t][k];
    return 0;
}

int weft_runtime_render_positions(const weft_runtime* rt, double* xyz) {
    if (!rt || (!xyz && !rt->proxy.binding_triangle.empty())) return WEFT_ERROR_ARGUMENT;
    rt->normals.resize(rt->proxy.particle_count());
    rt->render.resize(rt->proxy.binding_triangle.size());
    weft::deform_render_mesh(rt->proxy, rt->solver->state().x, rt->normals, rt->render);
    for (size_t i = 0; i < rt->render.size(); ++i)
        xyz[3 * i] = rt->render[i].x, xyz[3 * i + 1] = rt->render[i].y, xyz[3 * i + 2] = rt->render[i].z;
    return 0;
}

int weft_runtime_joint_transform(const weft_runtime* rt, uint32_t particle, weft_pose* out) {
    if (!rt || !out || particle >= rt->proxy.particle_count()) return WEFT_ERROR_ARGUMENT;
    const auto& x = rt->solver->state().x;
    weft::Quat turn;
    const uint32_t c = rt->child[particle];
    if (c != weft::no_particle) {
        const weft::Vec3 a = weft::normalize(rt->proxy.rest_position[c] - rt->proxy.rest_position[particle]);
        const weft::Vec3 b = weft::normalize(x[c] - x[particle]);
        const double d = weft::dot(a, b);
        const weft::Vec3 axis = weft::cross(a, b);
        if (d > -1 + 1e-12) {
            // Shortest arc: q = (a x b, 1 + a.b), normalised.
            const double w = 1 + d, n = std::sqrt(weft::dot(axis, axis) + w * w);
            turn = weft::Quat{axis.x / n, axis.y / n, axis.z / n, w / n};
        }
    }
    put_pose(x[particle], turn, out);
    return 0;
}

}  // extern "C"
