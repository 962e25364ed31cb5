#include "graph/colouring.h"

namespace weft {

Colouring colour_greedy(const CsrGraph& graph, std::span<const uint8_t> fixed) {
    const uint32_t n = static_cast<uint32_t>(graph.node_count());
    auto is_fixed = [&](uint32_t v) { return !fixed.empty() && fixed[v]; };
    Colouring c;
    c.colour.assign(n, UINT32_MAX);
    // mark[k] == v + 1 means colour k is taken by a neighbour of v: no clearing between nodes.
    std::vector<uint32_t> mark;
    for (uint32_t v = 0; v < n; ++v) {
        if (is_fixed(v)) {
            c.colour[v] = 0;
            continue;
        }
        for (uint32_t u : graph.neighbours(v)) {
            uint32_t k = c.colour[u];
            if (k == UINT32_MAX || is_fixed(u)) continue;
            if (k >= mark.size()) mark.resize(k + 1, 0);
            mark[k] = v + 1;
        }
        uint32_t k = 0;
        while (k < mark.size() && mark[k] == v + 1) ++k;
        c.colour[v] = k;
        if (k + 1 > c.colour_count) c.colour_count = k + 1;
    }
    if (c.colour_count == 0 && n > 0) c.colour_count = 1;
    return c;
}

int64_t validate_colouring(const CsrGraph& graph, std::span<const uint32_t> colour, uint32_t colour_count,
                           std::span<const uint8_t> fixed) {
    const uint32_t n = static_cast<uint32_t>(graph.node_count());
    if (colour.size() != n) return 0;
    auto is_fixed = [&](uint32_t v) { return !fixed.empty() && fixed[v]; };
    for (uint32_t v = 0; v < n; ++v) {
        if (colour[v] >= colour_count) return v;
        if (is_fixed(v)) continue;
        for (uint32_t u : graph.neighbours(v))
            if (!is_fixed(u) && colour[u] == colour[v]) return v;
    }
    return -1;
}

}  // namespace weft
