#include "body/body_colliders.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "io/format_text.h"
#include "scene/bind_pose.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"

namespace weft {

namespace {

/// Weights closer than this are a tie: a file format stores weights as float or double and may
/// renormalise them, so two equal weights can arrive a few ulps apart.
constexpr float kWeightTie = 1e-4f;

/// The bone weighting a vertex most; -1 when none. Equal weights (a vertex on the joint between
/// two bones) go to the bone whose bind-pose origin is nearest the vertex, then to the lesser node
/// name: never to the order the file stores them in, so one character in two formats fits the
/// same colliders.
int dominant_bone(const Scene& scene, const Mesh& mesh, uint32_t v) {
    float best_w = 0;
    for (const BoneWeight& bw : influences(scene, mesh, v)) best_w = std::max(best_w, bw.weight);
    if (!(best_w > 0)) return -1;
    int best = -1;
    double best_d = 0;
    for (const BoneWeight& bw : influences(scene, mesh, v)) {
        if (bw.weight < best_w - kWeightTie) continue;
        const double d = distance(bind_world(scene, bw.bone).translation_part(), mesh.positions[v]);
        if (best < 0 || d < best_d ||
            (d == best_d && scene.nodes[static_cast<size_t>(bw.bone)].name < scene.nodes[static_cast<size_t>(best)].name)) {
            best = bw.bone;
            best_d = d;
        }
    }
    return best;
}

/// The principal axis of points about their centroid: the covariance's dominant eigenvector by
/// power iteration (a unit vector; +y when the points have no spread).
Vec3 principal_axis(const std::vector<Vec3>& points, const Vec3& centroid) {
    Mat3 cov{};
    for (const Vec3& p : points) cov = cov + Mat3::outer(p - centroid, p - centroid);
    // Start off every symmetry axis of a generated shape so a tie cannot cancel the start vector.
    Vec3 u = normalize(Vec3{0.31, 0.87, 0.38});
    for (int k = 0; k < 200; ++k) {
        Vec3 next = cov * u;
        const double l = length(next);
        if (!(l > 1e-300)) return {0, 1, 0};
        next = next / l;
        if (length(next - u) < 1e-13) {
            u = next;
            break;
        }
        u = next;
    }
    return u;
}

double distance_to_shape(ColliderShape shape, const Vec3& a, const Vec3& b, double radius, const Vec3& p) {
    if (shape == ColliderShape::sphere) return distance(p, a) - radius;
    const Vec3 ab = b - a;
    const double ll = length_squared(ab);
    const double t = ll > 0 ? std::clamp(dot(p - a, ab) / ll, 0.0, 1.0) : 0.0;
    return distance(p, a + ab * t) - radius;
}

size_t depth_of(const Scene& scene, int node) {
    size_t d = 0;
    for (int n : ancestors(scene, node)) {
        (void)n;
        ++d;
    }
    return d;
}

}  // namespace

/// The fit report of `c` against the skin `points` it stands for.
static void measure_fit(BodyCollider& c, const std::vector<Vec3>& points, const Mat4& bone_rigid) {
    uint32_t inside = 0;
    c.worst_distance = 0;
    for (const Vec3& p : points) {
        const double d = collider_distance(c, bone_rigid, p);
        if (d < 0) ++inside;
        c.worst_distance = std::max(c.worst_distance, std::fabs(d));
    }
    c.inside_share = points.empty() ? 0 : static_cast<double>(inside) / static_cast<double>(points.size());
}

const char* collider_shape_name(ColliderShape shape) { return shape == ColliderShape::sphere ? "sphere" : "capsule"; }

Mat4 bone_rigid_placement(const Scene& scene, int node) {
    Vec3 t, s;
    Quat r;
    bind_world(scene, node).decompose(t, r, s);
    return Mat4::from_trs(t, r, {1, 1, 1});
}

double collider_distance(const BodyCollider& c, const Mat4& bone_rigid, const Vec3& p) {
    return distance_to_shape(c.shape, bone_rigid.transform_point(c.a), bone_rigid.transform_point(c.b), c.radius, p);
}

BodyCollider fit_collider(const std::vector<Vec3>& points, const Mat4& bone_rigid) {
    BodyCollider c;
    c.origin = "fitted";
    c.vertices = static_cast<uint32_t>(points.size());
    if (points.empty()) return c;
    Vec3 centroid{};
    for (const Vec3& p : points) centroid = centroid + p;
    centroid = centroid / static_cast<double>(points.size());
    const Vec3 u = principal_axis(points, centroid);
    double tmin = INFINITY, tmax = -INFINITY, radial = 0, spherical = 0;
    for (const Vec3& p : points) {
        const double t = dot(p - centroid, u);
        tmin = std::min(tmin, t);
        tmax = std::max(tmax, t);
        radial += length(p - centroid - u * t);
        spherical += distance(p, centroid);
    }
    radial /= static_cast<double>(points.size());
    spherical /= static_cast<double>(points.size());
    // The skin is the surface the collider stands for, so the radius is the skin's mean distance
    // from the core; the core stops a radius short of the vertices' ends so the caps end with them.
    Vec3 a, b;
    if (tmax - tmin - 2 * radial < radial) {
        c.shape = ColliderShape::sphere;
        c.radius = spherical;
        a = b = centroid;
    } else {
        c.shape = ColliderShape::capsule;
        c.radius = radial;
        a = centroid + u * (tmin + radial);
        b = centroid + u * (tmax - radial);
    }
    c.fitted_radius = c.radius;
    const Mat4 to_bone = bone_rigid.inverted();
    c.a = to_bone.transform_point(a);
    c.b = to_bone.transform_point(b);
    measure_fit(c, points, bone_rigid);
    return c;
}

BodyColliders fit_body_colliders(const Scene& scene, const ModelGarments& garments, const BodyColliderOptions& options) {
    BodyColliders out;
    const size_t node_count = scene.nodes.size();

    // Cloth: every garment's vertices, every chain's joints.
    std::vector<std::vector<uint8_t>> claimed(scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) claimed[m].assign(scene.meshes[m].vertex_count(), 0);
    for (const Garment& g : garments.garments)
        for (const GarmentPart& part : g.parts)
            if (part.mesh >= 0 && static_cast<size_t>(part.mesh) < scene.meshes.size())
                for (uint32_t v : part.vertices)
                    if (v < claimed[static_cast<size_t>(part.mesh)].size()) claimed[static_cast<size_t>(part.mesh)][v] = 1;
    std::vector<uint8_t> chain_joint(node_count, 0);
    for (const Chain& chain : garments.chains)
        for (int j : chain.joints)
            if (has_node(scene, j)) chain_joint[static_cast<size_t>(j)] = 1;
    std::vector<uint8_t> body_bone(node_count, 0);
    for (const Skin& skin : scene.skins)
        for (int j : skin.joints)
            if (has_node(scene, j) && !chain_joint[static_cast<size_t>(j)]) body_bone[static_cast<size_t>(j)] = 1;

    // The body's vertices, each to the bone that weights it most.
    std::vector<std::vector<Vec3>> points(node_count);
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        if (!is_skinned(mesh)) continue;
        for (uint32_t v = 0; v < mesh.vertex_count(); ++v) {
            if (claimed[m][v]) continue;
            const int bone = dominant_bone(scene, mesh, v);
            if (bone < 0 || !body_bone[static_cast<size_t>(bone)]) continue;
            points[static_cast<size_t>(bone)].push_back(mesh.positions[v]);
        }
    }

    // Small bones hand their vertices to their nearest body ancestor, deepest first, so a finger
    // reaches the hand before the hand is judged.
    std::vector<int> order;
    for (size_t n = 0; n < node_count; ++n)
        if (body_bone[n]) order.push_back(static_cast<int>(n));
    std::vector<size_t> depth(node_count, 0);
    for (int n : order) depth[static_cast<size_t>(n)] = depth_of(scene, n);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return depth[size_t(x)] > depth[size_t(y)]; });
    std::vector<std::vector<std::string>> merged(node_count);
    for (int n : order) {
        std::vector<Vec3>& pts = points[static_cast<size_t>(n)];
        if (pts.empty()) continue;
        Bounds box;
        for (const Vec3& p : pts) box.add(p);
        if (pts.size() >= options.min_vertices && box.diagonal() >= options.min_bone_span) continue;
        int to = -1;
        for (int a : ancestors(scene, n))
            if (body_bone[static_cast<size_t>(a)]) {
                to = a;
                break;
            }
        if (to < 0) continue;  // a root with too little skin: kept as it is
        std::vector<Vec3>& dst = points[static_cast<size_t>(to)];
        dst.insert(dst.end(), pts.begin(), pts.end());
        pts.clear();
        std::vector<std::string>& into = merged[static_cast<size_t>(to)];
        into.push_back(scene.nodes[static_cast<size_t>(n)].name);
        for (std::string& name : merged[static_cast<size_t>(n)]) into.push_back(std::move(name));
        merged[static_cast<size_t>(n)].clear();
    }
    // The bone each original bone's vertices ended on (itself, or the ancestor it merged into).
    std::vector<int> owner(node_count, -1);
    for (size_t n = 0; n < node_count; ++n) {
        if (points[n].empty()) continue;
        owner[n] = static_cast<int>(n);
        for (const std::string& name : merged[n]) {
            const int m = scene.find_node(name);
            if (m >= 0) owner[static_cast<size_t>(m)] = static_cast<int>(n);
        }
    }

    std::vector<std::optional<BodyCollider>> fitted(node_count);
    std::vector<Mat4> rigid(node_count);
    for (size_t n = 0; n < node_count; ++n) {
        if (points[n].empty()) continue;
        rigid[n] = bone_rigid_placement(scene, static_cast<int>(n));
        BodyCollider c = fit_collider(points[n], rigid[n]);
        c.bone = scene.nodes[n].name;
        c.node = static_cast<int>(n);
        c.merged = merged[n];
        std::sort(c.merged.begin(), c.merged.end());
        fitted[n] = std::move(c);
    }

    // Roots: the bone a garment hangs from keeps no collider holding that garment's own vertices
    // the bone dominates, nor an authored chain's root joint hanging from it.
    std::map<int, std::string> trap;  // collider node -> the first reason
    for (const Garment& g : garments.garments) {
        if (!has_node(scene, g.body_bone)) continue;
        const int o = owner[static_cast<size_t>(g.body_bone)];
        if (o < 0 || !fitted[size_t(o)] || trap.count(o)) continue;
        uint32_t inside = 0;
        for (const GarmentPart& part : g.parts) {
            if (part.mesh < 0 || static_cast<size_t>(part.mesh) >= scene.meshes.size()) continue;
            const Mesh& mesh = scene.meshes[static_cast<size_t>(part.mesh)];
            for (uint32_t v : part.vertices)
                if (v < mesh.vertex_count() && dominant_bone(scene, mesh, v) == g.body_bone &&
                    collider_distance(*fitted[size_t(o)], rigid[size_t(o)], mesh.positions[v]) < 0)
                    ++inside;
        }
        if (inside > 0)
            trap[o] = format_text("would trap %u vertices of garment '%s' that hang from %s", inside, g.name.c_str(),
                                  scene.nodes[size_t(g.body_bone)].name.c_str());
    }
    // Clearance: every garment vertex and chain joint at rest, by garment (chains by name).
    struct ClothPoint {
        Vec3 at;
        const std::string* garment;
    };
    std::vector<ClothPoint> cloth;
    for (const Garment& g : garments.garments)
        for (const GarmentPart& part : g.parts) {
            if (part.mesh < 0 || static_cast<size_t>(part.mesh) >= scene.meshes.size()) continue;
            const Mesh& mesh = scene.meshes[static_cast<size_t>(part.mesh)];
            for (uint32_t v : part.vertices)
                if (v < mesh.vertex_count()) cloth.push_back({mesh.positions[v], &g.name});
        }
    for (const Chain& chain : garments.chains)
        for (int j : chain.joints)
            if (has_node(scene, j)) cloth.push_back({bind_world(scene, j).translation_part(), &chain.name});
    for (size_t n = 0; n < node_count; ++n) {
        if (!fitted[n] || trap.count(static_cast<int>(n))) continue;
        BodyCollider& c = *fitted[n];
        double core = INFINITY;  // the nearest cloth point's distance from the collider's core
        const std::string* nearest = nullptr;
        for (const ClothPoint& p : cloth) {
            const double d = collider_distance(c, rigid[n], p.at) + c.radius;
            if (d < core) {
                core = d;
                nearest = p.garment;
            }
        }
        const double room = core - options.rest_clearance;
        if (!(room < c.radius)) continue;
        if (room < 0.5 * c.radius) {
            trap[static_cast<int>(n)] = format_text("reaches through '%s' at rest: clearing it by %.3g m would shrink "
                                                    "its radius from %.4f m to %.4f m", nearest->c_str(),
                                                    options.rest_clearance, c.radius, std::max(room, 0.0));
            continue;
        }
        c.radius = room;
        c.cleared = *nearest;
        measure_fit(c, points[n], rigid[n]);
    }

    for (const Chain& chain : garments.chains) {
        if (!has_node(scene, chain.parent) || chain.joints.empty() || !has_node(scene, chain.joints.front())) continue;
        const int o = owner[static_cast<size_t>(chain.parent)];
        if (o < 0 || !fitted[size_t(o)] || trap.count(o)) continue;
        const Vec3 root = bind_world(scene, chain.joints.front()).translation_part();
        if (collider_distance(*fitted[size_t(o)], rigid[size_t(o)], root) < 0)
            trap[o] = format_text("would trap the root joint of chain '%s'", chain.name.c_str());
    }

    for (size_t n = 0; n < node_count; ++n) {
        if (!fitted[n]) continue;
        if (auto it = trap.find(static_cast<int>(n)); it != trap.end()) {
            out.left_out.push_back({fitted[n]->bone, it->second});
            continue;
        }
        out.colliders.push_back(std::move(*fitted[n]));
    }

    // Config edits, in the order given.
    for (const ColliderEdit& e : options.edits) {
        const int node = scene.find_node(e.bone);
        const std::string from = e.origin.empty() ? "" : e.origin + ": ";
        auto at = std::find_if(out.colliders.begin(), out.colliders.end(),
                               [&](const BodyCollider& c) { return c.bone == e.bone; });
        if (node < 0) {
            out.warnings.push_back(from + "collider edit names bone '" + e.bone + "', which the model does not have; skipped");
            continue;
        }
        switch (e.kind) {
            case ColliderEdit::remove:
                if (at == out.colliders.end()) {
                    out.warnings.push_back(from + "collider edit removes bone '" + e.bone + "', which has no collider; skipped");
                    break;
                }
                out.left_out.push_back({e.bone, "removed by the config"});
                out.colliders.erase(at);
                break;
            case ColliderEdit::resize:
                if (at == out.colliders.end()) {
                    out.warnings.push_back(from + "collider edit resizes bone '" + e.bone + "', which has no collider; skipped");
                    break;
                }
                if (e.radius) at->radius = *e.radius;
                if (e.scale) at->radius *= *e.scale;
                at->origin = "config";
                break;
            case ColliderEdit::add: {
                BodyCollider c;
                c.bone = e.bone;
                c.node = node;
                c.shape = e.shape;
                c.radius = e.radius.value_or(0);
                c.a = e.a;
                c.b = e.shape == ColliderShape::sphere ? e.a : e.b;
                c.origin = "config";
                if (at != out.colliders.end()) *at = std::move(c);
                else out.colliders.push_back(std::move(c));
                break;
            }
        }
    }

    // What the file declares, as declared (a sphere or a VRMC_springBone capsule on its node; radius in
    // the node's scale, as the spring bones weft writes read it).
    for (const SpringCollider& d : scene.colliders) {
        if (!has_node(scene, d.node)) continue;
        const Mat4 world = bind_world(scene, d.node);
        const Mat4 r = bone_rigid_placement(scene, d.node);
        BodyCollider c;
        c.bone = scene.nodes[size_t(d.node)].name;
        c.node = d.node;
        c.shape = d.tail ? ColliderShape::capsule : ColliderShape::sphere;
        c.radius = d.radius * length(world.transform_vector({1, 0, 0}));
        c.a = c.b = r.inverted().transform_point(world.transform_point(d.offset));
        if (d.tail) c.b = r.inverted().transform_point(world.transform_point(*d.tail));
        c.origin = "declared";
        out.colliders.push_back(std::move(c));
    }
    return out;
}

}  // namespace weft
