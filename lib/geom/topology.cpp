#include "geom/topology.h"

#include <algorithm>
#include <cassert>

namespace weft {
namespace {

constexpr uint32_t none = std::numeric_limits<uint32_t>::max();

bool has_repeated_vertex(std::span<const uint32_t> indices, uint32_t t) {
    uint32_t a = indices[3 * t], b = indices[3 * t + 1], c = indices[3 * t + 2];
    return a == b || b == c || c == a;
}

// Which way triangle t runs along edge e: true when from edges[e][0] to edges[e][1].
bool runs_forward(std::span<const uint32_t> indices, const EdgeTable& table, uint32_t t, uint32_t e) {
    for (int k = 0; k < 3; ++k)
        if (table.triangle_edges[t][k] == e) return indices[3 * t + k] == table.edges[e][0];
    assert(false && "triangle is not on the edge");
    return true;
}

uint32_t find_root(std::vector<uint32_t>& parent, uint32_t x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

}  // namespace

EdgeTable build_edge_table(std::span<const uint32_t> indices, uint32_t vertex_count) {
    assert(indices.size() % 3 == 0);
    assert(indices.size() / 3 < none / 3);
    const uint32_t triangle_count = static_cast<uint32_t>(indices.size() / 3);
    EdgeTable table;
    table.triangle_edges.assign(triangle_count, {no_edge, no_edge, no_edge});

    // Bucket every side by its lower vertex (count -> prefix sum -> fill), as meshoptimizer's
    // buildTriangleAdjacency does; a side is stored as (upper vertex, corner = 3·triangle + side).
    struct Side {
        uint32_t upper, corner;
    };
    std::vector<uint32_t> offsets(size_t(vertex_count) + 1, 0);
    for (uint32_t t = 0; t < triangle_count; ++t)
        for (int k = 0; k < 3; ++k) {
            uint32_t a = indices[3 * t + k], b = indices[3 * t + (k + 1) % 3];
            assert(a < vertex_count && b < vertex_count);
            if (a != b) ++offsets[std::min(a, b) + 1];
        }
    for (uint32_t v = 0; v < vertex_count; ++v) offsets[v + 1] += offsets[v];
    std::vector<Side> sides(offsets.back());
    {
        std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
        for (uint32_t t = 0; t < triangle_count; ++t)
            for (uint32_t k = 0; k < 3; ++k) {
                uint32_t a = indices[3 * t + k], b = indices[3 * t + (k + 1) % 3];
                if (a != b) sides[fill[std::min(a, b)]++] = {std::max(a, b), 3 * t + k};
            }
    }

    // Within a bucket, sides arrive in corner order; a stable sort on the upper vertex keeps each
    // edge's triangles ascending. Buckets are a vertex's valence, so insertion sort, except at the
    // apex of a huge fan.
    auto by_upper = [](const Side& x, const Side& y) { return x.upper < y.upper; };
    table.face_offsets.push_back(0);
    table.edges.reserve(sides.size() / 2 + 1);
    table.edge_faces.reserve(sides.size());
    for (uint32_t v = 0; v < vertex_count; ++v) {
        Side* begin = sides.data() + offsets[v];
        Side* end = sides.data() + offsets[v + 1];
        if (end - begin > 32) {
            std::stable_sort(begin, end, by_upper);
        } else if (end - begin > 1) {  // begin + 1 of an empty bucket may be past the array, or null + 1
            for (Side* i = begin + 1; i < end; ++i)
                for (Side* j = i; j > begin && by_upper(*j, *(j - 1)); --j) std::swap(*j, *(j - 1));
        }
        for (Side* i = begin; i < end;) {
            const uint32_t e = static_cast<uint32_t>(table.edges.size());
            table.edges.push_back({v, i->upper});
            uint32_t last_triangle = none;
            for (; i < end && i->upper == table.edges.back()[1]; ++i) {
                uint32_t t = i->corner / 3;
                table.triangle_edges[t][i->corner % 3] = e;
                if (t != last_triangle) table.edge_faces.push_back(t);
                last_triangle = t;
            }
            table.face_offsets.push_back(static_cast<uint32_t>(table.edge_faces.size()));
        }
    }
    return table;
}

EdgeCounts count_edges(const EdgeTable& table) {
    EdgeCounts c;
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        uint32_t f = table.face_count(e);
        if (f == 1) ++c.boundary;
        else if (f == 2) ++c.interior;
        else ++c.non_manifold;
    }
    return c;
}

Orientation orient_triangles(std::span<const uint32_t> indices, const EdgeTable& table) {
    const uint32_t triangle_count = static_cast<uint32_t>(indices.size() / 3);
    Orientation o;
    o.flip.assign(triangle_count, 0);
    o.island.assign(triangle_count, none);

    // Per edge, once: whether it decides winding (exactly two triangles with a winding share it)
    // and whether they agree (run along it in opposite directions).
    enum : uint8_t { kUndecided = 0, kAgree = 1, kDisagree = 2 };
    std::vector<uint8_t> verdict(table.edge_count(), kUndecided);
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        if (table.face_count(e) != 2) continue;
        auto f = table.faces(e);
        if (has_repeated_vertex(indices, f[0]) || has_repeated_vertex(indices, f[1])) continue;
        const bool same = runs_forward(indices, table, f[0], e) == runs_forward(indices, table, f[1], e);
        verdict[e] = same ? kDisagree : kAgree;
        if (same) o.inconsistent.push_back(e);
    }

    std::vector<uint32_t> queue;
    queue.reserve(triangle_count);
    for (uint32_t seed = 0; seed < triangle_count; ++seed) {
        if (o.island[seed] != none) continue;
        const uint32_t id = static_cast<uint32_t>(o.island_orientable.size());
        o.island_orientable.push_back(1);
        o.island[seed] = id;
        const size_t first = queue.size();
        queue.push_back(seed);
        for (size_t q = first; q < queue.size(); ++q) {
            const uint32_t t = queue[q];
            for (uint32_t e : table.triangle_edges[t]) {
                if (e == no_edge || verdict[e] == kUndecided) continue;
                auto f = table.faces(e);
                const uint32_t u = f[0] == t ? f[1] : f[0];
                // Running the shared edge the same way means opposite orientations.
                const uint8_t want = o.flip[t] ^ uint8_t(verdict[e] == kDisagree);
                if (o.island[u] == none) {
                    o.island[u] = id;
                    o.flip[u] = want;
                    queue.push_back(u);
                } else if (o.flip[u] != want) {
                    o.island_orientable[id] = 0;
                }
            }
        }
        const std::span<const uint32_t> members(queue.data() + first, queue.size() - first);
        size_t flipped = 0;
        for (uint32_t t : members) flipped += o.flip[t];
        if (!o.island_orientable[id]) {
            for (uint32_t t : members) o.flip[t] = 0;
        } else if (2 * flipped > members.size()) {
            for (uint32_t t : members) o.flip[t] ^= 1;  // fewer flips the other way round
        }
    }
    return o;
}

Islands find_islands(const EdgeTable& table) {
    const uint32_t triangle_count = static_cast<uint32_t>(table.triangle_edges.size());
    std::vector<uint32_t> parent(triangle_count);
    for (uint32_t t = 0; t < triangle_count; ++t) parent[t] = t;
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        auto f = table.faces(e);
        for (size_t k = 1; k < f.size(); ++k) {
            uint32_t a = find_root(parent, f[0]), b = find_root(parent, f[k]);
            if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root stays the lowest triangle
        }
    }
    Islands r;
    r.island.assign(triangle_count, none);
    std::vector<uint32_t> id_of_root(triangle_count, none);
    for (uint32_t t = 0; t < triangle_count; ++t) {
        uint32_t root = find_root(parent, t);
        if (id_of_root[root] == none) id_of_root[root] = r.count++;
        r.island[t] = id_of_root[root];
    }
    return r;
}

}  // namespace weft
