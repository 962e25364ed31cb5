// Hand-built ClothProxies for the codec's tests, the dump test, the fuzz seed corpus and the codec
// benchmark. Each is structurally sound (check_proxy passes) and built without the sheet or rig
// builders, so the codec's tests never depend on them.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "graph/colouring.h"
#include "graph/csr.h"
#include "graph/geodesic.h"
#include "proxy/core/cloth_proxy.h"

namespace weft::test {

/// The golden v1 proxy (testdata/proxy/small.clothproxy): a sheet of two pieces. A unit quad held
/// along its top edge by "Pole" (particles 0, 1 held; 2, 4 free), and a free triangle no hold
/// reaches (3, 5, 6: d_geo +inf). Particles are already in colour order: colour 0 = {0,1,2,3},
/// colour 1 = {4,5}, colour 2 = {6}. Particle 4 sits at z = -0.0, to prove the sign survives.
inline ClothProxy small_proxy() {
    ClothProxy p;
    p.kind = ProxyKind::sheet;
    p.garment = "Flag";
    p.garment_class = "flag";
    p.suggested_fabric = "cotton";
    p.source_file = "models/Goal_Flag.glb";
    p.source_meshes = {{"Flag", "Fahne_\xC3\xA4", 0, 5}, {"Patch", "M_Patch", 5, 3}};
    p.builder_options = R"({"pin":"top","weld":0.0001})";
    p.frame.node = "Pole";
    p.frame.rest_world = Mat4::translation({0, 2, 0});

    p.rest_position = {{0, 1, 0}, {1, 1, 0}, {0, 0, 0}, {2, 0, 0}, {1, 0, -0.0}, {3, 0, 0}, {2.5, 0.5, 0}};
    p.inverse_mass = {0, 0, 4, 10, 4, 10, 10};
    p.source = {0, 1, 2, 5, 3, 6, 7};
    p.d_geo = {0, 0, 1, INFINITY, 1, INFINITY, INFINITY};
    p.nearest_held = {0, 1, 0, no_particle, 1, no_particle, no_particle};
    p.colour_ranges = {0, 4, 6, 7};
    p.total_mass = 4 * 0.25 + 3 * 0.1;

    p.edges = {{0, 1}, {0, 2}, {1, 4}, {2, 4}, {1, 2}, {3, 5}, {5, 6}, {3, 6}};
    for (const auto& e : p.edges) p.rest_length.push_back(distance(p.rest_position[e[0]], p.rest_position[e[1]]));
    p.hinges = {{1, 2, 0, 4}};
    p.triangles = {{0, 2, 1}, {1, 2, 4}, {3, 5, 6}};
    p.hinge_reference_area = {0.75};  // m², the source sheet's hinge where it lies (docs/solver.md#hinge)
    p.pins = {{"Pole", {0, 1}}};
    p.vertex_particle = {0, 1, 2, 4, 1, 3, 5, 6};  // vertex 4 is a UV-seam copy of vertex 1
    // The render mesh: each vertex on a corner of a triangle of its particle, vertex 3 off its
    // triangle's middle by 1 cm along the normal (docs/proxy.md#binding).
    p.render_triangles = {{0, 2, 1}, {4, 2, 3}, {5, 6, 7}};
    p.binding_triangle = {0, 0, 0, 1, 0, 2, 2, 2};
    p.binding_coordinates = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0.25, 0.5, 0.01}, {0, 1, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    return p;
}

/// A rig proxy: a hair chain of three joints hanging from the held bone "chest", with skips, joint
/// names and skin joint indices; no source meshes. Colours {0,1}, {2}, {3}.
inline ClothProxy rig_proxy() {
    ClothProxy p;
    p.kind = ProxyKind::rig;
    p.garment = "Hair_0";
    p.garment_class = "hair";
    p.suggested_fabric = "hair";
    p.source_file = "Knight.glb";
    p.builder_options = R"({"grow":false})";
    p.frame.node = "chest";
    p.rest_position = {{0, 1.5, 0}, {0, 1.4, 0.01}, {0, 1.3, 0.02}, {0, 1.2, 0.03}};
    p.inverse_mass = {0, 50, 50, 50};
    p.source = {5, 6, 7, 8};
    p.joint_name = {"chest", "Hair1", "Hair2", "Hair3"};
    p.edges = {{0, 1}, {1, 2}, {2, 3}};
    for (const auto& e : p.edges) p.rest_length.push_back(distance(p.rest_position[e[0]], p.rest_position[e[1]]));
    p.skips = {{0, 2}, {1, 3}};
    for (const auto& e : p.skips) p.skip_rest_length.push_back(distance(p.rest_position[e[0]], p.rest_position[e[1]]));
    p.d_geo = {0, p.rest_length[0], p.rest_length[0] + p.rest_length[1],
               p.rest_length[0] + p.rest_length[1] + p.rest_length[2]};
    p.nearest_held = {0, 0, 0, 0};
    p.collision_radius = {0, 0.012, 0.015, 0.015};  // each joint's hull (docs/proxy.md#collision-radius)
    p.colour_ranges = {0, 2, 3, 4};
    p.total_mass = 3 * 0.02;
    p.pins = {{"chest", {0}}};
    // A render vertex 8 cm off the first link, and one on the last joint turning with the link before it
    // (docs/colliders.md#virtual-particles).
    p.virtual_link = {{0, 0, 1}, {3, 2, 3}};
    p.virtual_rest_position = {{0.08, 1.45, 0.005}, {0.05, 1.2, 0.04}};
    return p;
}

/// A w x h grid sheet at `spacing` metres in the XY plane, held along its top row by "Pole", with
/// every row a sheet builder makes (edges, diagonals, hinges, triangles), coloured with
/// colour_greedy and permuted into colour ranges, d_geo from geodesic_distance.
inline ClothProxy grid_proxy(uint32_t w, uint32_t h, double spacing = 0.02) {
    const uint32_t n = w * h;
    auto id = [w](uint32_t x, uint32_t y) { return y * w + x; };
    std::vector<Vec3> pos(n);
    std::vector<uint8_t> held(n);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            pos[id(x, y)] = {x * spacing, -(y * spacing), 0};
            held[id(x, y)] = y == 0;
        }
    std::vector<std::array<uint32_t, 2>> edges;
    std::vector<std::array<uint32_t, 4>> hinges;
    std::vector<std::array<uint32_t, 3>> triangles;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            if (x + 1 < w) edges.push_back({id(x, y), id(x + 1, y)});
            if (y + 1 < h) edges.push_back({id(x, y), id(x, y + 1)});
            if (x + 1 < w && y + 1 < h) {
                uint32_t a = id(x, y), b = id(x + 1, y), c = id(x, y + 1), d = id(x + 1, y + 1);
                edges.push_back({b, c});
                triangles.push_back({a, c, b});
                triangles.push_back({b, c, d});
                hinges.push_back({b, c, a, d});
                if (x + 2 < w) hinges.push_back({b, d, c, id(x + 2, y)});  // across the vertical edge b-d
                if (y + 2 < h) hinges.push_back({c, d, b, id(x, y + 2)});  // across the horizontal edge c-d
            }
        }
    std::vector<std::array<uint32_t, 2>> pairs = edges;
    for (const auto& hg : hinges) pairs.push_back({hg[2], hg[3]});
    Colouring colouring = colour_greedy(build_csr(n, pairs), held);

    // Permute: particles sorted by (colour, old index), the index the tie-break.
    std::vector<uint32_t> order(n), new_index(n);
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        if (colouring.colour[a] != colouring.colour[b]) return colouring.colour[a] < colouring.colour[b];
        return a < b;
    });
    for (uint32_t i = 0; i < n; ++i) new_index[order[i]] = i;

    ClothProxy p;
    p.garment = "Grid";
    p.garment_class = "flag";
    p.suggested_fabric = "cotton";
    p.source_file = "grid.gltf";
    p.source_meshes = {{"Grid", "M_Grid", 0, n}};
    p.builder_options = "{}";
    p.frame.node = "Pole";
    p.colour_ranges.assign(colouring.colour_count + 1, 0);
    for (uint32_t i = 0; i < n; ++i) ++p.colour_ranges[colouring.colour[i] + 1];
    for (uint32_t c = 0; c < colouring.colour_count; ++c) p.colour_ranges[c + 1] += p.colour_ranges[c];
    const double mass = 0.5 / n;
    p.total_mass = mass * n;
    p.vertex_particle.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t old = order[i];
        p.rest_position.push_back(pos[old]);
        p.inverse_mass.push_back(held[old] ? 0.0 : 1.0 / mass);
        p.source.push_back(old);
        p.vertex_particle[old] = i;
    }
    for (auto& e : edges) {
        e = {new_index[e[0]], new_index[e[1]]};
        p.rest_length.push_back(distance(p.rest_position[e[0]], p.rest_position[e[1]]));
    }
    p.edges = edges;
    for (auto& hg : hinges)
        for (auto& v : hg) v = new_index[v];
    p.hinges = hinges;
    for (auto& t : triangles)
        for (auto& v : t) v = new_index[v];
    p.triangles = triangles;
    Pin pin{"Pole", {}};
    for (uint32_t x = 0; x < w; ++x) pin.particles.push_back(new_index[id(x, 0)]);
    std::sort(pin.particles.begin(), pin.particles.end());
    p.pins = {pin};
    GeodesicResult g = geodesic_distance(n, p.edges, p.rest_length, p.pins[0].particles);
    p.d_geo = g.distance;
    p.nearest_held = g.nearest;
    return p;
}

/// Field-by-field equality, doubles compared by bit pattern (so -0.0 != 0.0 and NaN == NaN).
inline bool bits_equal(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace weft::test
