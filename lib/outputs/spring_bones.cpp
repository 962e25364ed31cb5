#include "outputs/spring_bones.h"

#include <cmath>
#include <numbers>
#include <set>

#include "body/body_colliders.h"
#include "geom/nearest_on_triangle.h"
#include "scene/hierarchy.h"
#include "validate/validate.h"

namespace weft {

namespace {

double length_of_column(const Mat4& m) { return length(Vec3{m.at(0, 0), m.at(1, 0), m.at(2, 0)}); }

/// A collider as a segment and a radius in scene space (a sphere's ends coincide).
struct Segment {
    Vec3 a, b;
    double radius = 0;
};

/// The file's declared colliders (the radius in their node's scale, as weft's import reads them) and
/// the body colliders weft writes.
std::vector<Segment> collider_segments(const Scene& scene, const std::vector<BodySpringCollider>& body) {
    std::vector<Segment> out;
    for (const SpringCollider& c : scene.colliders) {
        const Mat4& world = scene.nodes[static_cast<size_t>(c.node)].world;
        const Vec3 a = world.transform_point(c.offset), b = c.tail ? world.transform_point(*c.tail) : a;
        out.push_back({a, b, c.radius * length_of_column(world)});
    }
    for (const BodySpringCollider& c : body) out.push_back({c.a, c.b, c.radius});
    return out;
}

/// Every node a spring of the file declares: VRMC_springBone's joints, a VRM 0.x group's roots and
/// everything below them (the group swings them all).
std::set<int> declared_nodes(const Scene& scene) {
    std::set<int> out;
    for (const DeclaredSpring& spring : scene.springs) {
        out.insert(spring.joints.begin(), spring.joints.end());
        std::vector<int> stack(spring.roots.begin(), spring.roots.end());
        while (!stack.empty()) {
            const int n = stack.back();
            stack.pop_back();
            if (!has_node(scene, n) || !out.insert(n).second) continue;
            for (int c : scene.nodes[size_t(n)].children) stack.push_back(c);
        }
    }
    return out;
}

std::vector<BodySpringCollider> body_spring_colliders(const ModelRecord& result) {
    std::vector<BodySpringCollider> out;
    for (const BodyCollider& c : result.body.colliders) {
        if (c.origin == "declared" || !has_node(result.scene, c.node)) continue;  // the file's own: it keeps them
        const Mat4 rigid = bone_rigid_placement(result.scene, c.node);
        out.push_back({c.bone, rigid.transform_point(c.a), rigid.transform_point(c.b), c.radius, c.shape == ColliderShape::capsule});
    }
    return out;
}

}  // namespace

SpringJointSettings spring_settings(const Fabric& fabric, double hit_radius, double bone_length) {
    const double h = 1.0 / spring_update_rate;
    const double omega = 2 * std::numbers::pi * fabric.pose;
    SpringJointSettings s;
    s.stiffness = omega * omega * h * bone_length;
    s.drag_force = 1 - std::exp(-fabric.damping * h);
    s.gravity_power = 0;
    s.gravity_dir = {0, -1, 0};
    s.hit_radius = hit_radius > 0 ? hit_radius : fabric.thickness;
    return s;
}

SpringBones spring_bones(const ModelRecord& result, const ModelOptions& options) {
    SpringBones out;
    out.retune = options.retune_springs;
    out.collide_authored = options.collide_authored_springs;
    out.colliders = body_spring_colliders(result);
    const Scene& scene = result.scene;
    const std::set<int> declared = declared_nodes(scene);
    const std::vector<Segment> colliders = collider_segments(scene, out.colliders);
    for (const RiggedGarment& g : result.rigs) {
        if (!g.built.proxy) continue;
        const Fabric fabric = suggested_fabric(*g.built.proxy);
        for (size_t c = 0; c < g.input.chains.size() && c < g.built.chains.size(); ++c) {
            const RigChain& in = g.input.chains[c];
            const RigChainInfo& info = g.built.chains[c];
            SpringChain chain;
            chain.name = in.name;
            std::vector<Vec3> at;  // joints, then the tip, in the bind pose
            for (int j : in.joints) {
                if (!has_node(scene, j)) break;
                chain.joints.push_back(scene.nodes[static_cast<size_t>(j)].name);
                at.push_back(scene.nodes[static_cast<size_t>(j)].world.translation_part());
                chain.authored = chain.authored || declared.count(j) > 0;
            }
            if (info.has_tip) at.push_back(info.tip);
            double length = 0;
            for (size_t k = 0; k < chain.joints.size(); ++k) {
                if (k + 1 < at.size()) length = distance(at[k], at[k + 1]);  // an end joint keeps the last length
                SpringJointSettings settings = spring_settings(fabric, k < info.hull_radius.size() ? info.hull_radius[k] : 0, length);
                // No wider than the tail's clearance from every collider at rest: a hull round scalp-side
                // vertices would otherwise push the bind pose off the head (the rest must stay the
                // equilibrium, as under weft's pose rows).
                const Vec3 tail = at[std::min(k + 1, at.size() - 1)];
                for (const Segment& s : colliders)
                    settings.rest_clearance =
                        std::min(settings.rest_clearance, distance(nearest_on_segment(tail, s.a, s.b).point, tail) - s.radius);
                settings.hit_radius = std::max(0.0, std::min(settings.hit_radius, settings.rest_clearance));
                chain.settings.push_back(settings);
            }
            if (chain.joints.empty()) continue;
            if (info.has_tip) chain.tip = info.tip;
            out.chains.push_back(std::move(chain));
        }
    }
    return out;
}

}  // namespace weft
