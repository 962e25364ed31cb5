#include "outputs/spring_bones.h"

#include <cmath>
#include <numbers>

#include "geom/nearest_on_triangle.h"
#include "scene/hierarchy.h"
#include "validate/validate.h"

namespace weft {

namespace {

double length_of_column(const Mat4& m) { return length(Vec3{m.at(0, 0), m.at(1, 0), m.at(2, 0)}); }

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

SpringBones spring_bones(const ModelRecord& result) {
    SpringBones out;
    const Scene& scene = result.scene;
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
                for (const SpringCollider& c : scene.colliders) {
                    const Mat4& world = scene.nodes[static_cast<size_t>(c.node)].world;
                    const double scale = length_of_column(world);
                    const Vec3 a = world.transform_point(c.offset), b = c.tail ? world.transform_point(*c.tail) : a;
                    const double clearance = distance(nearest_on_segment(tail, a, b).point, tail) - c.radius * scale;
                    settings.hit_radius = std::max(0.0, std::min(settings.hit_radius, clearance));
                }
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
