#include "outputs/sidecar.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "outputs/spring_bones.h"
#include "scene/hierarchy.h"
#include "validate/validate.h"

namespace weft {
namespace {

using json = nlohmann::json;

/// Metres rounded to the micrometre, so sidecars diff cleanly (garment_json.h does the same).
double micrometres(double metres) {
    const double r = std::round(metres * 1e6) / 1e6;
    return r == 0 ? 0.0 : r;  // no "-0.0"
}

json point(const Vec3& p) { return json::array({micrometres(p.x), micrometres(p.y), micrometres(p.z)}); }

std::string node_name(const Scene& scene, int node) {
    return has_node(scene, node) ? scene.nodes[static_cast<size_t>(node)].name : std::string();
}

/// What every garment with a proxy says, rig or sheet: the file, the fabric, the frame, the pins.
json garment_head(const std::string& name, const std::string& class_name, const std::string& found_by,
                  const char* kind, const std::optional<ClothProxy>& proxy, const std::string& file) {
    json out = {{"name", name}, {"class", class_name}, {"found_by", found_by}, {"kind", kind}};
    if (!proxy) {
        out["proxy"] = nullptr;
        return out;
    }
    out["proxy"] = file;
    out["suggested_fabric"] = proxy->suggested_fabric;
    // Every parameter, so a runtime reproduces weft's steps without weft's fabric library.
    const Fabric f = suggested_fabric(*proxy);
    out["fabric"] = {{"name", f.name},
                     {"substeps", f.substeps},
                     {"iterations", f.iterations},
                     {"stretch", f.stretch},
                     {"strain_limit", f.strain_limit},
                     {"stretch_stiffness", std::isfinite(f.stretch_stiffness) ? json(f.stretch_stiffness) : json(nullptr)},
                     {"bend", f.bend},
                     {"slack", f.slack},
                     {"pose", f.pose},
                     {"damping", f.damping},
                     {"inertia", f.inertia},
                     {"thickness", f.thickness},
                     {"friction", f.friction}};
    out["particles"] = proxy->particle_count();
    out["mass"] = std::round(proxy->total_mass * 1e9) / 1e9;
    json rest = json::array();
    for (double v : proxy->frame.rest_world.m) rest.push_back(std::round(v * 1e9) / 1e9 == 0 ? 0.0 : std::round(v * 1e9) / 1e9);
    out["frame"] = {{"node", proxy->frame.node}, {"rest_world", rest}};
    json pins = json::array();
    for (const Pin& pin : proxy->pins) pins.push_back({{"holder", pin.holder}, {"particles", pin.particles}});
    out["pins"] = pins;
    out["chains"] = json::array();
    return out;
}

/// Numbers the sidecar rounds to nine decimals, so sidecars diff cleanly.
double nine_decimals(double v) {
    const double r = std::round(v * 1e9) / 1e9;
    return r == 0 ? 0.0 : r;
}

/// A chain's spring as the grown model carries it (docs/format.md#the-mapping): per joint, root to
/// last, its VRMC_springBone settings, one bone group's for every joint in a VRM 0.x file; null when
/// the spring is the file's own, kept as authored (an engine reads it from the model).
json chain_spring(const SpringBones& springs, bool vrm0, const std::vector<std::string>& joints) {
    const auto at = std::find_if(springs.chains.begin(), springs.chains.end(),
                                 [&](const SpringChain& c) { return c.joints == joints; });
    if (at == springs.chains.end() || at->settings.empty() || (at->authored && !springs.retune)) return nullptr;
    const SpringJointSettings group = bone_group_settings(*at);
    json out = json::array();
    for (size_t j = 0; j < at->joints.size() && j < at->settings.size(); ++j) {
        const SpringJointSettings& s = vrm0 ? group : at->settings[j];
        out.push_back({{"node", at->joints[j]},
                       {"stiffness", nine_decimals(s.stiffness)},
                       {"drag_force", nine_decimals(s.drag_force)},
                       {"gravity_power", nine_decimals(s.gravity_power)},
                       {"gravity_dir", {nine_decimals(s.gravity_dir.x), nine_decimals(s.gravity_dir.y), nine_decimals(s.gravity_dir.z)}},
                       {"hit_radius", micrometres(s.hit_radius)}});
    }
    return {{"update_rate", spring_update_rate}, {"joints", out}};
}

json garment_json(const ModelRecord& result, const SpringBones& springs, const RiggedGarment& g) {
    const Scene& scene = result.scene;
    json out = garment_head(g.name, g.class_name, g.found_by, "rig", g.built.proxy, g.proxy_file);
    if (out["proxy"].is_null()) return out;

    json chains = json::array();
    for (size_t c = 0; c < g.input.chains.size(); ++c) {
        const RigChain& in = g.input.chains[c];
        const RigChainInfo& info = g.built.chains[c];
        json joints = json::array();
        std::vector<std::string> joint_names;
        for (int j : in.joints) {
            joints.push_back(node_name(scene, j));
            if (has_node(scene, j)) joint_names.push_back(node_name(scene, j));
        }
        const int parent = in.parent >= 0 ? in.parent
                                          : (in.joints.empty() ? -1 : scene.nodes[static_cast<size_t>(in.joints.front())].parent);
        json neighbours = json::array();
        for (size_t n : in.neighbours)
            if (n < g.input.chains.size()) neighbours.push_back(g.input.chains[n].name);
        json radius = json::array();
        for (double r : info.hull_radius) radius.push_back(micrometres(r));
        json particles = json::array();
        for (uint32_t p : info.particles) p == no_particle ? particles.push_back(nullptr) : particles.push_back(p);
        // What each of them collides with beyond the fabric's thickness, as the proxy holds it
        // (docs/proxy.md#collision-radius): what an engine placing its own colliders keeps clear.
        json collision_radius = json::array();
        for (uint32_t p : info.particles)
            collision_radius.push_back(p < g.built.proxy->collision_radius.size() ? micrometres(g.built.proxy->collision_radius[p]) : 0.0);
        chains.push_back({{"name", in.name},
                          {"origin", g.chains[c].origin},
                          {"found_by", g.chains[c].found_by},
                          {"joints", joints},
                          {"parent", parent >= 0 ? json(node_name(scene, parent)) : json(nullptr)},
                          {"tip", point(info.tip)},
                          {"tip_particle", info.has_tip},
                          {"hull", {{"kind", "capsules"}, {"radius", radius}}},
                          {"neighbours", neighbours},
                          {"particles", particles},
                          {"collision_radius", collision_radius},
                          {"mass", std::round(info.mass * 1e9) / 1e9},
                          {"spring", chain_spring(springs, result.springs.format == "VRM0.secondaryAnimation", joint_names)}});
    }
    out["chains"] = chains;
    // The render vertices collided where they are (docs/colliders.md#virtual-particles): which vertex each
    // virtual particle of the proxy stands for, the particle carrying it and the link it turns with.
    json virtual_particles = json::array();
    const ClothProxy& proxy = *g.built.proxy;
    for (size_t v = 0; v < g.built.virtual_vertices.size() && v < proxy.virtual_link.size(); ++v) {
        const VirtualVertex& vv = g.built.virtual_vertices[v];
        const auto& l = proxy.virtual_link[v];
        virtual_particles.push_back({{"mesh", scene.meshes[static_cast<size_t>(vv.mesh)].name},
                                     {"vertex", vv.vertex},
                                     {"carrier", l[0]},
                                     {"link", {l[1], l[2]}},
                                     {"rest", point(proxy.virtual_rest_position[v])}});
    }
    if (!virtual_particles.empty()) out["virtual_particles"] = virtual_particles;  // a rig without them reads as before
    return out;
}

}  // namespace

json sidecar_json(const ModelRecord& result, const SpringBones& springs) {
    json garments = json::array();
    for (const RiggedGarment& g : result.rigs) garments.push_back(garment_json(result, springs, g));
    for (const SheetedGarment& g : result.sheets) {
        json one = garment_head(g.name, g.class_name, g.found_by, "sheet", g.built.proxy, g.proxy_file);
        // The render mesh bound to the particles (docs/proxy.md#binding): what the runtime deforms.
        if (g.built.proxy) {
            const SheetStats& st = g.built.stats;
            one["binding"] = {{"render_vertices", g.built.proxy->binding_triangle.size()},
                              {"render_triangles", g.built.proxy->render_triangles.size()},
                              {"bound_vertices", st.bound_vertices},
                              {"resolution", st.resolution},
                              {"edge_length", micrometres(st.edge_length)},
                              {"rest_error_max", micrometres(st.binding_error_max)},
                              {"rest_error_mean", micrometres(st.binding_error_mean)}};
            if (st.one_face) one["binding"]["one_face"] = true;  // absent otherwise: sidecars of one-layer sheets unchanged
        }
        garments.push_back(std::move(one));
    }
    json colliders = json::array();
    for (const SpringCollider& c : result.scene.colliders) {
        json one = {{"shape", c.tail ? "capsule" : "sphere"},
                    {"node", node_name(result.scene, c.node)},
                    {"offset", point(c.offset)}};
        if (c.tail) one["tail"] = point(*c.tail);
        one["radius"] = micrometres(c.radius);
        one["origin"] = "declared";
        colliders.push_back(std::move(one));
    }
    // Fitted (and config-edited) colliders: the declared ones are listed above as the file gives them.
    for (const BodyCollider& c : result.body.colliders) {
        if (c.origin == "declared") continue;
        json one = {{"shape", collider_shape_name(c.shape)},
                    {"node", c.bone},
                    {"a", point(c.a)},
                    {"b", point(c.b)},
                    {"radius", micrometres(c.radius)},
                    {"origin", c.origin}};
        if (c.vertices > 0)
            one["fit"] = {{"vertices", c.vertices},
                          {"inside_share", std::round(c.inside_share * 1e4) / 1e4},
                          {"worst_distance", micrometres(c.worst_distance)},
                          {"merged", c.merged}};
        colliders.push_back(std::move(one));
    }
    return {{"schema", sidecar_json_schema},
            {"tool", {{"name", "weft"}, {"version", WEFT_VERSION}}},
            {"input",
             {{"file", result.model.filename().string()},
              {"content_hash", result.content_hash},
              {"bytes", result.bytes},
              {"format", result.scene.format}}},
            {"units", {{"length", "metre"}, {"up", "+Y"}, {"space", "model, bind pose"}}},
            {"grown_model", result.grown_model_file.empty() ? json(nullptr) : json(result.grown_model_file)},
            {"garments", garments},
            {"colliders", colliders}};
}

}  // namespace weft
