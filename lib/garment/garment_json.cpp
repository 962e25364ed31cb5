#include "garment/garment_json.h"

#include <cmath>

#include "scene/hierarchy.h"
#include "scene/influences.h"

namespace weft {

namespace {

using nlohmann::json;

double metres(double x) { return std::round(x * 1e6) / 1e6; }

json node_name_or_null(const Scene& scene, int node) {
    if (!has_node(scene, node)) return nullptr;
    return scene.nodes[static_cast<size_t>(node)].name;
}

json garment_to_json(const Scene& scene, const Garment& g) {
    json j;
    j["name"] = g.name;
    j["class"] = g.class_name;
    j["matched_by"] = g.matched_by;
    j["matched_name"] = g.matched_name;
    if (g.matched_by == kMatchedByGeometry) {
        json measured = json::object();
        for (const auto& [name, value] : g.geometry_measurements) measured[name] = value;
        j["found_by"] = {{"method", g.matched_by}, {"class", g.geometry_class}, {"rule", g.geometry_rule},
                         {"measurements", std::move(measured)}};
    }
    if (!g.rule_pointer.empty()) j["rule"] = {{"pointer", g.rule_pointer}, {"target", g.rule_target}};
    if (!g.fabric.empty()) j["fabric"] = g.fabric;
    if (!g.pin.is_null()) j["pin"] = g.pin;
    json meshes = json::array();
    for (const GarmentPart& part : g.parts) {
        const Mesh& mesh = scene.meshes[static_cast<size_t>(part.mesh)];
        json material = nullptr;
        if (const std::string* name = material_of(scene, mesh)) material = *name;
        meshes.push_back({{"index", part.mesh},
                          {"mesh", mesh.name},
                          {"node", mesh.node_name},
                          {"material", material},
                          {"skinned", is_skinned(mesh)},
                          {"vertices", part.vertices.size()},
                          {"triangles", part.triangles}});
    }
    j["meshes"] = std::move(meshes);
    j["vertices"] = g.vertex_count;
    j["triangles"] = g.triangle_count;
    j["bounds"] = bounds_to_json(g.bounds);
    j["pieces"] = g.pieces;
    j["span"] = metres(g.span);
    j["body_bone"] = node_name_or_null(scene, g.body_bone);
    j["chains"] = g.chains;
    j["moves"] = g.moves;
    j["welded_to"] = node_name_or_null(scene, g.welded_to);
    if (g.head_clearance >= 0)
        j["on_head"] = {{"clearance", std::round(g.head_clearance * 1e4) / 1e4},
                        {"head_height", metres(g.head_height)},
                        {"below_neck", metres(g.below_neck)},
                        {"lies_on_head", !g.stays_reason.empty()}};
    j["verdict"] = g.verdict;
    if (!g.not_garment_reason.empty()) j["reason"] = g.not_garment_reason;
    return j;
}

}  // namespace

json bounds_to_json(const Bounds& b) {
    if (b.empty()) return nullptr;
    return {{"min", {metres(b.min.x), metres(b.min.y), metres(b.min.z)}},
            {"max", {metres(b.max.x), metres(b.max.y), metres(b.max.z)}}};
}

json garments_to_json(const Scene& scene, const ModelGarments& found) {
    json j;
    j["materials"] = scene.materials;
    j["found_by_name"] = found.found_by_name;
    j["verdict"] = found.verdict;
    json garments = json::array(), not_garments = json::array(), chains = json::array();
    for (const Garment& g : found.garments) garments.push_back(garment_to_json(scene, g));
    for (const Garment& g : found.not_garments) not_garments.push_back(garment_to_json(scene, g));
    for (size_t c = 0; c < found.chains.size(); ++c) {
        const Chain& chain = found.chains[c];
        json joints = json::array();
        for (int n : chain.joints) joints.push_back(scene.nodes[static_cast<size_t>(n)].name);
        chains.push_back({{"name", chain.name},
                          {"class", chain.class_name},
                          {"joints", std::move(joints)},
                          {"parent_bone", node_name_or_null(scene, chain.parent)},
                          {"length", metres(chain.length)},
                          {"found_by", chain.found_by},
                          {"vertices", c < found.chain_vertices.size() ? found.chain_vertices[c] : 0}});
        if (chain.animated_root >= 0) chains.back()["animated_root"] = scene.nodes[static_cast<size_t>(chain.animated_root)].name;
    }
    j["garments"] = std::move(garments);
    j["not_garments"] = std::move(not_garments);
    j["chains"] = std::move(chains);
    return j;
}

}  // namespace weft
