#include "graph/csr.h"

#include <algorithm>
#include <cassert>

namespace weft {

CsrGraph build_csr(uint32_t node_count, std::span<const std::array<uint32_t, 2>> pairs) {
    CsrGraph g;
    g.offsets.assign(size_t(node_count) + 1, 0);
    for (const auto& [a, b] : pairs) {
        assert(a < node_count && b < node_count);
        if (a == b) continue;
        ++g.offsets[a + 1];
        ++g.offsets[b + 1];
    }
    for (uint32_t v = 0; v < node_count; ++v) g.offsets[v + 1] += g.offsets[v];
    std::vector<uint32_t> fill(g.offsets.begin(), g.offsets.end() - 1);
    g.targets.resize(g.offsets.back());
    for (const auto& [a, b] : pairs) {
        if (a == b) continue;
        g.targets[fill[a]++] = b;
        g.targets[fill[b]++] = a;
    }
    // Sort and deduplicate each row, then compact.
    uint32_t write = 0;
    for (uint32_t v = 0; v < node_count; ++v) {
        uint32_t begin = g.offsets[v], end = g.offsets[v + 1];
        std::sort(g.targets.begin() + begin, g.targets.begin() + end);
        uint32_t row_start = write;
        for (uint32_t i = begin; i < end; ++i)
            if (i == begin || g.targets[i] != g.targets[i - 1]) g.targets[write++] = g.targets[i];
        g.offsets[v] = row_start;
    }
    g.offsets[node_count] = write;
    g.targets.resize(write);
    return g;
}

}  // namespace weft
