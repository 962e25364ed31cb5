#include "proxy/file/proxy_json.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace weft {

namespace {

using nlohmann::json;

json index_or_null(uint32_t v, uint32_t sentinel) { return v == sentinel ? json(nullptr) : json(v); }

json indices_or_null(const std::vector<uint32_t>& values, uint32_t sentinel) {
    json a = json::array();
    for (uint32_t v : values) a.push_back(index_or_null(v, sentinel));
    return a;
}

template <size_t N>
json tuples(const std::vector<std::array<uint32_t, N>>& rows) {
    json a = json::array();
    for (const auto& r : rows) a.push_back(r);
    return a;
}

}  // namespace

json proxy_to_json(const ClothProxy& proxy) {
    json j;
    j["schema"] = proxy_json_schema;
    j["kind"] = proxy.kind == ProxyKind::rig ? "rig" : "sheet";
    j["garment"] = proxy.garment;
    j["class"] = proxy.garment_class;
    j["suggested_fabric"] = proxy.suggested_fabric;
    j["source_file"] = proxy.source_file;
    json meshes = json::array();
    for (const SourceMesh& m : proxy.source_meshes)
        meshes.push_back({{"name", m.name}, {"material", m.material}, {"vertex_offset", m.vertex_offset},
                          {"vertex_count", m.vertex_count}});
    j["source_meshes"] = std::move(meshes);
    j["builder_options"] = proxy.builder_options;
    j["frame"] = {{"node", proxy.frame.node}, {"rest_world", proxy.frame.rest_world.m}};
    j["total_mass"] = proxy.total_mass;

    j["particles"] = proxy.particle_count();
    json positions = json::array();
    for (const Vec3& p : proxy.rest_position) positions.push_back({p.x, p.y, p.z});
    j["rest_position"] = std::move(positions);
    j["inverse_mass"] = proxy.inverse_mass;
    j["source"] = indices_or_null(proxy.source, no_source);
    j["joint_name"] = proxy.joint_name;
    json d_geo = json::array();
    for (double d : proxy.d_geo) d_geo.push_back(d == INFINITY ? json(nullptr) : json(d));
    j["d_geo"] = std::move(d_geo);
    j["nearest_held"] = indices_or_null(proxy.nearest_held, no_particle);
    j["collision_radius"] = proxy.collision_radius;
    j["colour_ranges"] = proxy.colour_ranges;

    j["edges"] = tuples(proxy.edges);
    j["rest_length"] = proxy.rest_length;
    j["skips"] = tuples(proxy.skips);
    j["skip_rest_length"] = proxy.skip_rest_length;
    j["hinges"] = tuples(proxy.hinges);
    j["triangles"] = tuples(proxy.triangles);
    j["hinge_reference_area"] = proxy.hinge_reference_area;
    json pins = json::array();
    for (const Pin& p : proxy.pins) pins.push_back({{"holder", p.holder}, {"particles", p.particles}});
    j["pins"] = std::move(pins);
    j["vertex_particle"] = indices_or_null(proxy.vertex_particle, no_particle);
    j["render_triangles"] = tuples(proxy.render_triangles);
    j["binding_triangle"] = indices_or_null(proxy.binding_triangle, no_triangle);
    json coordinates = json::array();
    for (const Vec3& k : proxy.binding_coordinates) coordinates.push_back({k.x, k.y, k.z});
    j["binding_coordinates"] = std::move(coordinates);
    j["virtual_link"] = tuples(proxy.virtual_link);
    json virtual_rest = json::array();
    for (const Vec3& v : proxy.virtual_rest_position) virtual_rest.push_back({v.x, v.y, v.z});
    j["virtual_rest_position"] = std::move(virtual_rest);
    return j;
}

}  // namespace weft
