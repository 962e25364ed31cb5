#include "proxy/colour_permute.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "graph/colouring.h"
#include "proxy/core/proxy_check.h"

namespace weft {
namespace {

template <size_t N>
void remap_rows(std::vector<std::array<uint32_t, N>>& rows, const std::vector<uint32_t>& new_of_old) {
    for (auto& row : rows)
        for (uint32_t& p : row) p = new_of_old[p];
}

template <typename T>
void permute_array(std::vector<T>& values, const std::vector<uint32_t>& new_of_old) {
    if (values.empty()) return;
    std::vector<T> out(values.size());
    for (size_t i = 0; i < values.size(); ++i) out[new_of_old[i]] = std::move(values[i]);
    values = std::move(out);
}

}  // namespace

CsrGraph coupling_graph(const ClothProxy& proxy) {
    return build_csr(static_cast<uint32_t>(proxy.particle_count()), coupled_pairs(proxy));
}

void permute_particles(ClothProxy& proxy, const std::vector<uint32_t>& new_of_old) {
    assert(new_of_old.size() == proxy.particle_count());
    permute_array(proxy.rest_position, new_of_old);
    permute_array(proxy.inverse_mass, new_of_old);
    permute_array(proxy.source, new_of_old);
    permute_array(proxy.joint_name, new_of_old);
    permute_array(proxy.d_geo, new_of_old);
    if (!proxy.collision_radius.empty()) permute_array(proxy.collision_radius, new_of_old);
    permute_array(proxy.nearest_held, new_of_old);
    for (uint32_t& h : proxy.nearest_held)
        if (h != no_particle) h = new_of_old[h];
    remap_rows(proxy.edges, new_of_old);
    remap_rows(proxy.skips, new_of_old);
    remap_rows(proxy.hinges, new_of_old);
    remap_rows(proxy.triangles, new_of_old);
    remap_rows(proxy.virtual_link, new_of_old);
    for (Pin& pin : proxy.pins) {
        for (uint32_t& p : pin.particles) p = new_of_old[p];
        std::sort(pin.particles.begin(), pin.particles.end());
    }
    for (uint32_t& p : proxy.vertex_particle)
        if (p != no_particle) p = new_of_old[p];
}

ColourResult colour_and_permute(ClothProxy& proxy) {
    ColourResult r;
    const uint32_t n = static_cast<uint32_t>(proxy.particle_count());
    CsrGraph graph = coupling_graph(proxy);
    std::vector<uint8_t> fixed(n);
    for (uint32_t p = 0; p < n; ++p) fixed[p] = proxy.inverse_mass[p] == 0;
    Colouring colouring = colour_greedy(graph, fixed);
    if (int64_t bad = validate_colouring(graph, colouring.colour, colouring.colour_count, fixed); bad >= 0) {
        r.error = "particle " + std::to_string(bad) + " shares colour " + std::to_string(colouring.colour[bad]) +
                  " with a particle a row couples it to";
        return r;
    }

    // Counting sort by colour, stable in the old index: the permutation and the ranges at once.
    const uint32_t colours = n == 0 ? 0 : colouring.colour_count;
    std::vector<uint32_t> ranges(size_t(colours) + 1, 0);
    for (uint32_t p = 0; p < n; ++p) ++ranges[colouring.colour[p] + 1];
    for (uint32_t c = 0; c < colours; ++c) ranges[c + 1] += ranges[c];
    r.new_of_old.resize(n);
    {
        std::vector<uint32_t> fill(ranges.begin(), ranges.end() - 1);
        for (uint32_t p = 0; p < n; ++p) r.new_of_old[p] = fill[colouring.colour[p]]++;
    }
    permute_particles(proxy, r.new_of_old);
    proxy.colour_ranges = std::move(ranges);

    r.colours = colours;
    r.smallest = colours == 0 ? 0 : UINT32_MAX;
    for (uint32_t c = 0; c < colours; ++c) {
        uint32_t size = proxy.colour_ranges[c + 1] - proxy.colour_ranges[c];
        r.largest = std::max(r.largest, size);
        r.smallest = std::min(r.smallest, size);
    }
    return r;
}

}  // namespace weft
