#include "test_proxies.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <map>
#include <numeric>
#include <stdexcept>

#include "graph/colouring.h"
#include "graph/csr.h"
#include "graph/geodesic.h"

namespace weft::test {

namespace {

/// Interior edges of a consistently wound triangle list as hinges: the shared edge (a, b) as the
/// first triangle walks it, then the first triangle's opposite vertex, then the second's.
std::vector<std::array<uint32_t, 4>> hinges_of(const std::vector<std::array<uint32_t, 3>>& triangles) {
    std::map<std::array<uint32_t, 2>, uint32_t> opposite;  // directed edge -> opposite vertex
    for (const auto& t : triangles)
        for (int k = 0; k < 3; ++k) opposite[{t[k], t[(k + 1) % 3]}] = t[(k + 2) % 3];
    std::vector<std::array<uint32_t, 4>> hinges;
    for (const auto& [edge, c] : opposite) {
        if (edge[0] > edge[1]) continue;  // each interior edge once, from its lower-index direction
        auto twin = opposite.find({edge[1], edge[0]});
        if (twin == opposite.end()) continue;
        hinges.push_back({edge[0], edge[1], c, twin->second});
    }
    return hinges;
}

}  // namespace

ClothProxy finish_proxy(const ProxyDraft& d) {
    const uint32_t n = static_cast<uint32_t>(d.position.size());
    std::vector<std::array<uint32_t, 4>> hinges = hinges_of(d.triangles);

    // Colour the coupling graph: every pair a row touches; held particles never block (docs/proxy.md#colouring).
    std::vector<std::array<uint32_t, 2>> pairs(d.edges.begin(), d.edges.end());
    pairs.insert(pairs.end(), d.skips.begin(), d.skips.end());
    for (const auto& q : hinges)
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b) pairs.push_back({q[a], q[b]});
    CsrGraph graph = build_csr(n, pairs);
    Colouring colouring = colour_greedy(graph, d.held);
    if (validate_colouring(graph, colouring.colour, colouring.colour_count, d.held) != -1)
        throw std::logic_error("test proxy: invalid colouring");

    // Permute: colour, then authoring index (a sort ending in the index tie-break).
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        if (colouring.colour[a] != colouring.colour[b]) return colouring.colour[a] < colouring.colour[b];
        return a < b;
    });
    std::vector<uint32_t> new_of(n);
    for (uint32_t i = 0; i < n; ++i) new_of[order[i]] = i;

    // Geodesic distance over the fabric's edges from every held particle.
    std::vector<double> lengths;
    for (const auto& e : d.edges) lengths.push_back(distance(d.position[e[0]], d.position[e[1]]));
    std::vector<uint32_t> sources;
    for (uint32_t i = 0; i < n; ++i)
        if (d.held[i]) sources.push_back(i);
    GeodesicResult geo = geodesic_distance(n, d.edges, lengths, sources);

    ClothProxy p;
    p.kind = d.kind;
    p.garment = d.garment;
    p.suggested_fabric = "cotton";
    p.rest_position.resize(n);
    p.inverse_mass.resize(n);
    p.source.resize(n);
    p.d_geo.resize(n);
    p.nearest_held.resize(n);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t o = order[i];
        p.rest_position[i] = d.position[o];
        p.inverse_mass[i] = d.held[o] ? 0.0 : 1.0 / d.mass[o];
        p.source[i] = o;
        p.d_geo[i] = geo.distance[o];
        p.nearest_held[i] = geo.nearest[o] == UINT32_MAX ? no_particle : new_of[geo.nearest[o]];
        p.total_mass += d.mass[o];
    }
    p.colour_ranges.assign(colouring.colour_count + 1, 0);
    for (uint32_t i = 0; i < n; ++i) ++p.colour_ranges[colouring.colour[i] + 1];
    for (uint32_t c = 0; c < colouring.colour_count; ++c) p.colour_ranges[c + 1] += p.colour_ranges[c];
    for (const auto& e : d.edges) {
        p.edges.push_back({new_of[e[0]], new_of[e[1]]});
        p.rest_length.push_back(distance(d.position[e[0]], d.position[e[1]]));
    }
    for (const auto& e : d.skips) {
        p.skips.push_back({new_of[e[0]], new_of[e[1]]});
        p.skip_rest_length.push_back(distance(d.position[e[0]], d.position[e[1]]));
    }
    for (const auto& q : hinges) p.hinges.push_back({new_of[q[0]], new_of[q[1]], new_of[q[2]], new_of[q[3]]});
    for (const auto& t : d.triangles) p.triangles.push_back({new_of[t[0]], new_of[t[1]], new_of[t[2]]});
    for (size_t k = 0; k < d.pins.size(); ++k) {
        Pin pin;
        pin.holder = "holder" + std::to_string(k);
        for (uint32_t q : d.pins[k]) pin.particles.push_back(new_of[q]);
        std::sort(pin.particles.begin(), pin.particles.end());
        p.pins.push_back(pin);
    }
    return p;
}

uint32_t particle(const ClothProxy& proxy, uint32_t original) {
    for (uint32_t i = 0; i < proxy.particle_count(); ++i)
        if (proxy.source[i] == original) return i;
    throw std::out_of_range("no particle with that authoring index");
}

ClothProxy chain_proxy(uint32_t links, double spacing, double particle_mass, Vec3 direction, bool skips) {
    ProxyDraft d;
    d.kind = ProxyKind::rig;
    d.garment = "chain";
    Vec3 dir = normalize(direction);
    for (uint32_t i = 0; i <= links; ++i) {
        d.position.push_back(dir * (spacing * i));
        d.mass.push_back(particle_mass);
        d.held.push_back(i == 0);
        if (i > 0) d.edges.push_back({i - 1, i});
        if (skips && i > 1) d.skips.push_back({i - 2, i});
    }
    d.pins = {{0}};
    return finish_proxy(d);
}

ClothProxy strand_rig_proxy(uint32_t strands, uint32_t links, double spacing, double particle_mass) {
    ProxyDraft d;
    d.kind = ProxyKind::rig;
    d.garment = "strands";
    auto id = [&](uint32_t s, uint32_t i) { return s * (links + 1) + i; };
    std::vector<uint32_t> roots;
    for (uint32_t s = 0; s < strands; ++s)
        for (uint32_t i = 0; i <= links; ++i) {
            d.position.push_back({spacing * i, 0, spacing * s});
            d.mass.push_back(particle_mass);
            d.held.push_back(i == 0);
            if (i == 0) roots.push_back(id(s, i));
            if (i > 0) d.edges.push_back({id(s, i - 1), id(s, i)});
            if (i > 1) d.skips.push_back({id(s, i - 2), id(s, i)});
            if (s > 0 && i > 0) d.edges.push_back({id(s - 1, i), id(s, i)});
        }
    d.pins = {roots};
    return finish_proxy(d);
}

/// The rows of an nx × ny grid of particles numbered row by row: the edges along and across, one
/// diagonal per cell (two triangles), and every held particle in one pin.
static void grid_rows(ProxyDraft& d, uint32_t nx, uint32_t ny) {
    auto id = [&](uint32_t ix, uint32_t iy) { return iy * nx + ix; };
    for (uint32_t iy = 0; iy < ny; ++iy)
        for (uint32_t ix = 0; ix < nx; ++ix) {
            if (ix + 1 < nx) d.edges.push_back({id(ix, iy), id(ix + 1, iy)});
            if (iy + 1 < ny) d.edges.push_back({id(ix, iy), id(ix, iy + 1)});
            if (ix + 1 < nx && iy + 1 < ny) {
                d.edges.push_back({id(ix, iy), id(ix + 1, iy + 1)});
                d.triangles.push_back({id(ix, iy), id(ix + 1, iy + 1), id(ix + 1, iy)});
                d.triangles.push_back({id(ix, iy), id(ix, iy + 1), id(ix + 1, iy + 1)});
            }
        }
    std::vector<uint32_t> pin;
    for (uint32_t i = 0; i < d.held.size(); ++i)
        if (d.held[i]) pin.push_back(i);
    d.pins = {pin};
}

ProxyDraft grid_draft(uint32_t nx, uint32_t ny, double spacing, double total_mass, bool vertical) {
    ProxyDraft d;
    d.garment = vertical ? "flag" : "sheet";
    const double m = total_mass / (nx * ny);
    for (uint32_t iy = 0; iy < ny; ++iy)
        for (uint32_t ix = 0; ix < nx; ++ix) {
            d.position.push_back(vertical ? Vec3{spacing * ix, -spacing * iy, 0} : Vec3{spacing * ix, 0, spacing * iy});
            d.mass.push_back(m);
            d.held.push_back(vertical ? ix == 0 : iy == 0);
        }
    grid_rows(d, nx, ny);
    return d;
}


ClothProxy grid_sheet_proxy(uint32_t nx, uint32_t nz, double spacing, double total_mass) {
    return finish_proxy(grid_draft(nx, nz, spacing, total_mass, false));
}

ClothProxy flag_proxy(uint32_t nx, uint32_t ny, double spacing, double total_mass) {
    return finish_proxy(grid_draft(nx, ny, spacing, total_mass, true));
}

}  // namespace weft::test

namespace weft::test {

ClothProxy folded_sheet_proxy(uint32_t nx, uint32_t rows, double spacing, double arch) {
    ProxyDraft d;
    d.garment = "folded";
    const uint32_t fold = 3;  // edges round the half-turn
    const double radius = fold * spacing / std::numbers::pi;
    const double span = (rows - 1) * spacing;
    const uint32_t along = 2 * rows + fold - 1;  // particle rows from the lower layer's first to the upper's last
    for (uint32_t k = 0; k < along; ++k)
        for (uint32_t ix = 0; ix < nx; ++ix) {
            Vec3 p{spacing * ix, 0, 0};
            if (k < rows) {
                p.z = spacing * k;
            } else if (k < rows + fold) {
                const double turn = std::numbers::pi * (k - rows + 1) / fold;
                p.y = radius - radius * std::cos(turn);
                p.z = span + radius * std::sin(turn);
            } else {
                const double z = span - spacing * (k - rows - fold + 1);
                p.y = 2 * radius + arch * std::sin(std::numbers::pi * z / span);
                p.z = z;
            }
            d.position.push_back(p);
            d.mass.push_back(0.5 / (along * nx));
            d.held.push_back(k < rows || k + 1 == along);
        }
    grid_rows(d, nx, along);
    ClothProxy p = finish_proxy(d);
    p.garment_class = "skirt";
    p.suggested_fabric = "cotton";
    return p;
}

}  // namespace weft::test
