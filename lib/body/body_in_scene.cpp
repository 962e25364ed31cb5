#include "body/body_in_scene.h"

#include "scene/hierarchy.h"

namespace weft {

BodyShapes body_shapes(const Scene& scene, const BodyColliders& body) {
    BodyShapes out;
    for (const BodyCollider& c : body.colliders) {
        const int node = scene.find_node(c.bone);
        if (node < 0) continue;
        const Mat4 rigid = bone_rigid_placement(scene, node);
        if (c.shape == ColliderShape::sphere) {
            out.spheres.push_back({rigid.transform_point(c.a), c.radius});
            out.sphere_bones.push_back(c.bone);
        } else {
            out.capsules.push_back({rigid.transform_point(c.a), rigid.transform_point(c.b), c.radius});
            out.capsule_bones.push_back(c.bone);
        }
    }
    return out;
}

std::vector<ColliderEdit> collider_edits(const GarmentConfig& config, const std::filesystem::path& model) {
    std::vector<ColliderEdit> edits;
    for (const ColliderRule& rule : config.colliders) {
        GarmentRule as_file_rule;
        as_file_rule.file = rule.file;
        if (!rule_applies_to(as_file_rule, model)) continue;
        ColliderEdit e;
        e.kind = rule.edit == "add" ? ColliderEdit::add : rule.edit == "remove" ? ColliderEdit::remove : ColliderEdit::resize;
        e.bone = rule.bone;
        e.radius = rule.radius;
        e.scale = rule.scale;
        e.shape = rule.shape == "capsule" ? ColliderShape::capsule : ColliderShape::sphere;
        e.a = {rule.a[0], rule.a[1], rule.a[2]};
        e.b = {rule.b[0], rule.b[1], rule.b[2]};
        e.origin = (config.path.empty() ? std::string("config") : config.path) + " " + rule.pointer;
        edits.push_back(std::move(e));
    }
    return edits;
}

}  // namespace weft
