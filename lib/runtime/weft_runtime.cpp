// The C interface over Solver and decode_proxy (weft_runtime.h).
#include "runtime/weft_runtime.h"

#include <cmath>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

#include "proxy/core/codec.h"
#include "proxy/core/render_binding.h"
#include "solver/solver.h"

struct weft_runtime {
    weft::ClothProxy proxy;
    std::optional<weft::Solver> solver;
    weft::StepInput in;
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

bool finite_pose(const weft_pose* p) {
    if (!p) return false;
    for (double v : p->position) if (!std::isfinite(v)) return false;
    for (double v : p->rotation) if (!std::isfinite(v)) return false;
    return true;
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

int weft_runtime_set_frame(weft_runtime* rt, const weft_pose* frame) {
    if (!rt || !finite_pose(frame)) return -1;
    rt->in.frame = pose_of(*frame);
    return 0;
}

int weft_runtime_set_holder(weft_runtime* rt, uint32_t pin, const weft_pose* holder) {
    if (!rt || pin >= rt->in.holders.size() || !finite_pose(holder)) return -1;
    rt->in.holders[pin] = pose_of(*holder);
    return 0;
}

int weft_runtime_set_colliders(weft_runtime* rt, const double* spheres, uint32_t count) {
    if (!rt || (!spheres && count > 0)) return -1;
    std::vector<weft::SphereCollider> out(count);
    for (uint32_t i = 0; i < count; ++i) {
        const double* s = spheres + 4 * size_t(i);
        for (int k = 0; k < 4; ++k) if (!std::isfinite(s[k])) return -1;
        if (s[3] < 0) return -1;
        out[i] = {{s[0], s[1], s[2]}, s[3]};
    }
    rt->in.spheres = std::move(out);
    return 0;
}

int weft_runtime_step(weft_runtime* rt, double dt) {
    if (!rt || !(dt > 0) || !std::isfinite(dt)) return -1;
    try {
        rt->in.dt = dt;
        rt->solver->step(rt->in);
        return 0;
    } catch (const std::exception&) {
        return -1;
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
    if (!rt || (!indices && !rt->proxy.render_triangles.empty())) return -1;
    for (size_t t = 0; t < rt->proxy.render_triangles.size(); ++t)
        for (int k = 0; k < 3; ++k) indices[3 * t + k] = rt->proxy.render_triangles[t][k];
    return 0;
}

int weft_runtime_render_positions(const weft_runtime* rt, double* xyz) {
    if (!rt || (!xyz && !rt->proxy.binding_triangle.empty())) return -1;
    rt->normals.resize(rt->proxy.particle_count());
    rt->render.resize(rt->proxy.binding_triangle.size());
    weft::deform_render_mesh(rt->proxy, rt->solver->state().x, rt->normals, rt->render);
    for (size_t i = 0; i < rt->render.size(); ++i)
        xyz[3 * i] = rt->render[i].x, xyz[3 * i + 1] = rt->render[i].y, xyz[3 * i + 2] = rt->render[i].z;
    return 0;
}

int weft_runtime_joint_transform(const weft_runtime* rt, uint32_t particle, weft_pose* out) {
    if (!rt || !out || particle >= rt->proxy.particle_count()) return -1;
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
