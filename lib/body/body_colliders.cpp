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

namespace {

/// The fit of one model's body colliders (docs/colliders.md), phase by phase: which skin is cloth,
/// the body's vertices to their bones, small bones merged into their ancestors, a collider per bone,
/// the ones that would trap or reach through the cloth left out or shrunk, then the config's edits
/// and what the file declares.
class ColliderFit {
public:
    ColliderFit(const Scene& scene, const ModelGarments& garments, const BodyColliderOptions& options)
        : scene_(scene), garments_(garments), options_(options), node_count_(scene.nodes.size()) {}

    BodyColliders run() {
        mark_cloth();
        gather_body_points();
        merge_small_bones();
        find_owners();
        fit_each_bone();
        leave_out_garment_roots();
        clear_the_cloth();
        leave_out_chain_roots();
        collect();
        apply_edits();
        add_declared();
        return std::move(out_);
    }

private:
    bool in_mesh(int mesh) const { return mesh >= 0 && static_cast<size_t>(mesh) < scene_.meshes.size(); }

    /// Cloth: every garment's vertices, every chain's joints; the body: every other skin joint.
    void mark_cloth() {
        claimed_.resize(scene_.meshes.size());
        for (size_t m = 0; m < scene_.meshes.size(); ++m) claimed_[m].assign(scene_.meshes[m].vertex_count(), 0);
        for (const Garment& g : garments_.garments)
            for (const GarmentPart& part : g.parts)
                if (in_mesh(part.mesh))
                    for (uint32_t v : part.vertices)
                        if (v < claimed_[static_cast<size_t>(part.mesh)].size()) claimed_[static_cast<size_t>(part.mesh)][v] = 1;
        std::vector<uint8_t> chain_joint(node_count_, 0);
        for (const Chain& chain : garments_.chains)
            for (int j : chain.joints)
                if (has_node(scene_, j)) chain_joint[static_cast<size_t>(j)] = 1;
        body_bone_.assign(node_count_, 0);
        for (const Skin& skin : scene_.skins)
            for (int j : skin.joints)
                if (has_node(scene_, j) && !chain_joint[static_cast<size_t>(j)]) body_bone_[static_cast<size_t>(j)] = 1;
    }

    /// The body's vertices, each to the bone that weights it most.
    void gather_body_points() {
        points_.resize(node_count_);
        for (size_t m = 0; m < scene_.meshes.size(); ++m) {
            const Mesh& mesh = scene_.meshes[m];
            if (!is_skinned(mesh)) continue;
            for (uint32_t v = 0; v < mesh.vertex_count(); ++v) {
                if (claimed_[m][v]) continue;
                const int bone = dominant_bone(scene_, mesh, v);
                if (bone < 0 || !body_bone_[static_cast<size_t>(bone)]) continue;
                points_[static_cast<size_t>(bone)].push_back(mesh.positions[v]);
            }
        }
    }

    /// The body ancestor a bone's vertices join, or -1 for a root with too little skin (kept as it is).
    int body_ancestor(int n) const {
        for (int a : ancestors(scene_, n))
            if (body_bone_[static_cast<size_t>(a)]) return a;
        return -1;
    }

    /// Small bones hand their vertices to their nearest body ancestor, deepest first, so a finger
    /// reaches the hand before the hand is judged.
    void merge_small_bones() {
        std::vector<int> order;
        for (size_t n = 0; n < node_count_; ++n)
            if (body_bone_[n]) order.push_back(static_cast<int>(n));
        std::vector<size_t> depth(node_count_, 0);
        for (int n : order) depth[static_cast<size_t>(n)] = depth_of(scene_, n);
        std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return depth[size_t(x)] > depth[size_t(y)]; });
        merged_.resize(node_count_);
        for (int n : order) {
            std::vector<Vec3>& pts = points_[static_cast<size_t>(n)];
            if (pts.empty()) continue;
            Bounds box;
            for (const Vec3& p : pts) box.add(p);
            const bool small = pts.size() < options_.min_vertices || box.diagonal() < options_.min_bone_span;
            if (!small && fit_collider(pts, bone_rigid_placement(scene_, n)).radius >= options_.min_radius) continue;
            const int to = body_ancestor(n);
            if (to < 0) continue;
            std::vector<Vec3>& dst = points_[static_cast<size_t>(to)];
            if (!small && !dst.empty()) {
                // A thin part shorter than what it hangs from is a digit of it and joins it (fingers into a hand);
                // one longer than a collider it would join is a limb (a stick arm on a stylised body): joined
                // to the chest it would turn the chest's capsule along the arms, so it keeps its own.
                Bounds parent;
                for (const Vec3& p : dst) parent.add(p);
                if (box.diagonal() > parent.diagonal() &&
                    fit_collider(dst, bone_rigid_placement(scene_, to)).radius >= options_.min_radius)
                    continue;
            }
            dst.insert(dst.end(), pts.begin(), pts.end());
            pts.clear();
            std::vector<std::string>& into = merged_[static_cast<size_t>(to)];
            into.push_back(scene_.nodes[static_cast<size_t>(n)].name);
            for (std::string& name : merged_[static_cast<size_t>(n)]) into.push_back(std::move(name));
            merged_[static_cast<size_t>(n)].clear();
        }
    }

    /// The bone each original bone's vertices ended on (itself, or the ancestor it merged into).
    void find_owners() {
        owner_.assign(node_count_, -1);
        for (size_t n = 0; n < node_count_; ++n) {
            if (points_[n].empty()) continue;
            owner_[n] = static_cast<int>(n);
            for (const std::string& name : merged_[n]) {
                const int m = scene_.find_node(name);
                if (m >= 0) owner_[static_cast<size_t>(m)] = static_cast<int>(n);
            }
        }
    }

    void fit_each_bone() {
        fitted_.resize(node_count_);
        rigid_.resize(node_count_);
        for (size_t n = 0; n < node_count_; ++n) {
            if (points_[n].empty()) continue;
            rigid_[n] = bone_rigid_placement(scene_, static_cast<int>(n));
            BodyCollider c = fit_collider(points_[n], rigid_[n]);
            c.bone = scene_.nodes[n].name;
            c.node = static_cast<int>(n);
            c.merged = merged_[n];
            std::sort(c.merged.begin(), c.merged.end());
            fitted_[n] = std::move(c);
        }
    }

    /// The collider a bone's vertices ended on, when it was fitted and is not left out yet; -1 otherwise.
    int live_owner(int bone) const {
        if (!has_node(scene_, bone)) return -1;
        const int o = owner_[static_cast<size_t>(bone)];
        return o < 0 || !fitted_[size_t(o)] || trap_.count(o) ? -1 : o;
    }

    /// Roots: the bone a garment hangs from keeps no collider holding that garment's own vertices the
    /// bone dominates.
    void leave_out_garment_roots() {
        for (const Garment& g : garments_.garments) {
            const int o = live_owner(g.body_bone);
            if (o < 0) continue;
            uint32_t inside = 0;
            for (const GarmentPart& part : g.parts) {
                if (!in_mesh(part.mesh)) continue;
                const Mesh& mesh = scene_.meshes[static_cast<size_t>(part.mesh)];
                for (uint32_t v : part.vertices)
                    if (v < mesh.vertex_count() && dominant_bone(scene_, mesh, v) == g.body_bone &&
                        collider_distance(*fitted_[size_t(o)], rigid_[size_t(o)], mesh.positions[v]) < 0)
                        ++inside;
            }
            if (inside > 0)
                trap_[o] = format_text("would trap %u vertices of garment '%s' that hang from %s", inside, g.name.c_str(),
                                       scene_.nodes[size_t(g.body_bone)].name.c_str());
        }
    }

    /// Clearance: every garment vertex and chain joint at rest keeps rest_clearance from each collider,
    /// which shrinks to leave it; one that would lose more than half its radius reaches through the
    /// cloth and is left out.
    void clear_the_cloth() {
        struct ClothPoint {
            Vec3 at;
            const std::string* garment;
        };
        std::vector<ClothPoint> cloth;
        for (const Garment& g : garments_.garments)
            for (const GarmentPart& part : g.parts) {
                if (!in_mesh(part.mesh)) continue;
                const Mesh& mesh = scene_.meshes[static_cast<size_t>(part.mesh)];
                for (uint32_t v : part.vertices)
                    if (v < mesh.vertex_count()) cloth.push_back({mesh.positions[v], &g.name});
            }
        for (const Chain& chain : garments_.chains)
            for (int j : chain.joints)
                if (has_node(scene_, j)) cloth.push_back({bind_world(scene_, j).translation_part(), &chain.name});
        for (size_t n = 0; n < node_count_; ++n) {
            if (!fitted_[n] || trap_.count(static_cast<int>(n))) continue;
            BodyCollider& c = *fitted_[n];
            double core = INFINITY;  // the nearest cloth point's distance from the collider's core
            const std::string* nearest = nullptr;
            for (const ClothPoint& p : cloth) {
                const double d = collider_distance(c, rigid_[n], p.at) + c.radius;
                if (d < core) {
                    core = d;
                    nearest = p.garment;
                }
            }
            const double room = core - options_.rest_clearance;
            if (!(room < c.radius)) continue;
            if (room < 0.5 * c.radius) {
                trap_[static_cast<int>(n)] = format_text("reaches through '%s' at rest: clearing it by %.3g m would shrink "
                                                         "its radius from %.4f m to %.4f m", nearest->c_str(),
                                                         options_.rest_clearance, c.radius, std::max(room, 0.0));
                continue;
            }
            c.radius = room;
            c.cleared = *nearest;
            measure_fit(c, points_[n], rigid_[n]);
        }
    }

    /// An authored chain's root joint is never inside the collider of the bone it hangs from.
    void leave_out_chain_roots() {
        for (const Chain& chain : garments_.chains) {
            if (chain.joints.empty() || !has_node(scene_, chain.joints.front())) continue;
            const int o = live_owner(chain.parent);
            if (o < 0) continue;
            const Vec3 root = bind_world(scene_, chain.joints.front()).translation_part();
            if (collider_distance(*fitted_[size_t(o)], rigid_[size_t(o)], root) < 0)
                trap_[o] = format_text("would trap the root joint of chain '%s'", chain.name.c_str());
        }
    }

    void collect() {
        for (size_t n = 0; n < node_count_; ++n) {
            if (!fitted_[n]) continue;
            if (auto it = trap_.find(static_cast<int>(n)); it != trap_.end()) {
                out_.left_out.push_back({fitted_[n]->bone, it->second});
                continue;
            }
            out_.colliders.push_back(std::move(*fitted_[n]));
        }
    }

    /// The config's edits (docs/colliders.md#config), in the order given.
    void apply_edits() {
        for (const ColliderEdit& e : options_.edits) {
            const int node = scene_.find_node(e.bone);
            const std::string from = e.origin.empty() ? "" : e.origin + ": ";
            auto at = std::find_if(out_.colliders.begin(), out_.colliders.end(),
                                   [&](const BodyCollider& c) { return c.bone == e.bone; });
            if (node < 0) {
                out_.warnings.push_back(from + "collider edit names bone '" + e.bone + "', which the model does not have; skipped");
                continue;
            }
            if (e.kind == ColliderEdit::add) {
                add_edit(e, node, at);
                continue;
            }
            const char* verb = e.kind == ColliderEdit::remove ? "removes" : "resizes";
            if (at == out_.colliders.end()) {
                out_.warnings.push_back(from + "collider edit " + verb + " bone '" + e.bone + "', which has no collider; skipped");
                continue;
            }
            if (e.kind == ColliderEdit::remove) {
                out_.left_out.push_back({e.bone, "removed by the config"});
                out_.colliders.erase(at);
                continue;
            }
            if (e.radius) at->radius = *e.radius;
            if (e.scale) at->radius *= *e.scale;
            at->origin = "config";
        }
    }

    void add_edit(const ColliderEdit& e, int node, std::vector<BodyCollider>::iterator at) {
        BodyCollider c;
        c.bone = e.bone;
        c.node = node;
        c.shape = e.shape;
        c.radius = e.radius.value_or(0);
        c.a = e.a;
        c.b = e.shape == ColliderShape::sphere ? e.a : e.b;
        c.origin = "config";
        if (at != out_.colliders.end()) *at = std::move(c);
        else out_.colliders.push_back(std::move(c));
    }

    /// What the file declares, as declared (a sphere or a VRMC_springBone capsule on its node; radius
    /// in the node's scale, as the spring bones weft writes read it).
    void add_declared() {
        for (const SpringCollider& d : scene_.colliders) {
            if (!has_node(scene_, d.node)) continue;
            const Mat4 world = bind_world(scene_, d.node);
            const Mat4 r = bone_rigid_placement(scene_, d.node);
            BodyCollider c;
            c.bone = scene_.nodes[size_t(d.node)].name;
            c.node = d.node;
            c.shape = d.tail ? ColliderShape::capsule : ColliderShape::sphere;
            c.radius = d.radius * length(world.transform_vector({1, 0, 0}));
            c.a = c.b = r.inverted().transform_point(world.transform_point(d.offset));
            if (d.tail) c.b = r.inverted().transform_point(world.transform_point(*d.tail));
            c.origin = "declared";
            out_.colliders.push_back(std::move(c));
        }
    }

    const Scene& scene_;
    const ModelGarments& garments_;
    const BodyColliderOptions& options_;
    const size_t node_count_;
    std::vector<std::vector<uint8_t>> claimed_;   ///< per mesh, per vertex: cloth
    std::vector<uint8_t> body_bone_;              ///< per node: a skin joint no chain claims
    std::vector<std::vector<Vec3>> points_;       ///< per node: the body vertices it carries
    std::vector<std::vector<std::string>> merged_;///< per node: the small bones merged into it
    std::vector<int> owner_;                      ///< per node: the bone its vertices ended on, or -1
    std::vector<std::optional<BodyCollider>> fitted_;
    std::vector<Mat4> rigid_;
    std::map<int, std::string> trap_;             ///< collider node -> why it is left out (the first reason)
    BodyColliders out_;
};

}  // namespace

BodyColliders fit_body_colliders(const Scene& scene, const ModelGarments& garments, const BodyColliderOptions& options) {
    return ColliderFit(scene, garments, options).run();
}

}  // namespace weft
