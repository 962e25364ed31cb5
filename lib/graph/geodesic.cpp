#include "graph/geodesic.h"

#include <cassert>
#include <limits>
#include <queue>

namespace weft {

GeodesicResult geodesic_distance(uint32_t node_count, std::span<const std::array<uint32_t, 2>> edges,
                                 std::span<const double> lengths, std::span<const uint32_t> sources) {
    assert(edges.size() == lengths.size());
    constexpr double inf = std::numeric_limits<double>::infinity();
    constexpr uint32_t none = std::numeric_limits<uint32_t>::max();

    // Weighted adjacency in CSR (count -> prefix sum -> fill), keeping parallel edges: the
    // shorter one wins in the relaxation anyway.
    std::vector<uint32_t> offsets(size_t(node_count) + 1, 0);
    for (const auto& [a, b] : edges) {
        ++offsets[a + 1];
        ++offsets[b + 1];
    }
    for (uint32_t v = 0; v < node_count; ++v) offsets[v + 1] += offsets[v];
    std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
    std::vector<uint32_t> target(offsets.back());
    std::vector<double> weight(offsets.back());
    for (size_t e = 0; e < edges.size(); ++e) {
        auto [a, b] = edges[e];
        target[fill[a]] = b;
        weight[fill[a]++] = lengths[e];
        target[fill[b]] = a;
        weight[fill[b]++] = lengths[e];
    }

    GeodesicResult r;
    r.distance.assign(node_count, inf);
    r.nearest.assign(node_count, none);
    // (distance, nearest source, node): ordering on the source makes ties deterministic.
    struct Item {
        double d;
        uint32_t src, node;
        bool operator>(const Item& o) const {
            if (d != o.d) return d > o.d;
            if (src != o.src) return src > o.src;
            return node > o.node;
        }
    };
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    for (uint32_t s : sources) {
        assert(s < node_count);
        if (r.distance[s] == 0 && r.nearest[s] <= s) continue;
        r.distance[s] = 0;
        r.nearest[s] = s;
        heap.push({0, s, s});
    }
    while (!heap.empty()) {
        Item it = heap.top();
        heap.pop();
        if (it.d != r.distance[it.node] || it.src != r.nearest[it.node]) continue;  // stale
        for (uint32_t i = offsets[it.node]; i < offsets[it.node + 1]; ++i) {
            uint32_t n = target[i];
            double d = it.d + weight[i];
            if (d < r.distance[n] || (d == r.distance[n] && it.src < r.nearest[n])) {
                r.distance[n] = d;
                r.nearest[n] = it.src;
                heap.push({d, it.src, n});
            }
        }
    }
    return r;
}

}  // namespace weft
