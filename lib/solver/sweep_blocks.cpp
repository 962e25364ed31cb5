#include "solver/sweep_blocks.h"

#include <algorithm>
#include <queue>
#include <stdexcept>
#include <tuple>

#include "solver/message.h"

namespace weft::sweep_blocks {

namespace {

static_assert(sizeof(Vec3) == 3 * sizeof(double), "the lanes read positions as three doubles each");

/// The pairs of particles of one colour that a distance row or a hinge stencil joins.
std::vector<std::array<uint32_t, 2>> same_colour_pairs(const ClothProxy& p, const DistanceModel& distance) {
    std::vector<std::array<uint32_t, 2>> pairs;
    const size_t n = p.particle_count();
    std::vector<uint32_t> colour(n, 0);
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c)
        for (uint32_t i = p.colour_ranges[c]; i < p.colour_ranges[c + 1]; ++i) colour[i] = static_cast<uint32_t>(c);
    for (const auto& e : distance.ends)
        if (colour[e[0]] == colour[e[1]]) pairs.push_back(e);
    for (const auto& h : p.hinges)
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b)
                if (colour[h[a]] == colour[h[b]]) pairs.push_back({h[a], h[b]});
    return pairs;
}

/// Blocks per unit of the wave: large enough that its bookkeeping costs nothing beside the updates,
/// small enough that the band it sweeps stays in the caches.
constexpr uint32_t wave_blocks = 8;  // 64 particles
/// The chunks of its largest colour a thread's slab must have for the threads' wave.
constexpr uint32_t wave_slab_chunks = 8;

/// The colours cut into chunks of wave_blocks blocks, and which chunk waits for which: a chunk after
/// every chunk holding a lower-coloured neighbour of one of its particles.
struct Chunks {
    std::vector<std::array<uint32_t, 2>> blocks;
    std::vector<uint32_t> colour;
    std::vector<double> behind;                   ///< the chunk's middle as a share of its colour's blocks
    std::vector<std::array<uint32_t, 2>> after;   ///< (chunk, the chunk it waits for), by the second
    std::vector<uint32_t> first_next;             ///< CSR into `after` by the chunk waited for
};

Chunks cut_chunks(const ClothProxy& p, const DistanceModel& distance, const SweepBlocks& s) {
    Chunks c;
    std::vector<uint32_t> chunk_of(p.particle_count(), 0);
    for (uint32_t colour = 0; colour + 1 < s.colour_blocks.size(); ++colour) {
        const uint32_t begin = s.colour_blocks[colour], end = s.colour_blocks[colour + 1];
        for (uint32_t b = begin; b < end; b += wave_blocks) {
            const uint32_t last = std::min(b + wave_blocks, end);
            for (uint32_t k = b; k < last; ++k)
                for (uint32_t lane = 0; lane < s.width[k]; ++lane) chunk_of[s.first[k] + lane] = static_cast<uint32_t>(c.blocks.size());
            c.blocks.push_back({b, last});
            c.colour.push_back(colour);
            c.behind.push_back((0.5 * (b + last) - begin) / (end - begin));
        }
    }
    // Every pair a row couples, whatever the masses now (a release must not need a new order).
    auto couple = [&](uint32_t i, uint32_t j) {
        uint32_t ci = chunk_of[i], cj = chunk_of[j];
        if (c.colour[ci] == c.colour[cj]) return;
        if (c.colour[ci] > c.colour[cj]) std::swap(ci, cj);
        c.after.push_back({cj, ci});
    };
    for (const auto& e : distance.ends) couple(e[0], e[1]);
    for (const auto& h : p.hinges)
        for (int u = 0; u < 4; ++u)
            for (int v = u + 1; v < 4; ++v) couple(h[u], h[v]);
    for (uint32_t i = 0; i < p.particle_count(); ++i)
        if (p.nearest_held[i] != no_particle) couple(i, p.nearest_held[i]);
    std::sort(c.after.begin(), c.after.end(), [](const auto& u, const auto& v) { return std::tie(u[1], u[0]) < std::tie(v[1], v[0]); });
    c.after.erase(std::unique(c.after.begin(), c.after.end()), c.after.end());
    c.first_next.assign(c.blocks.size() + 1, 0);
    for (const auto& d : c.after) ++c.first_next[d[1] + 1];
    for (size_t k = 0; k < c.blocks.size(); ++k) c.first_next[k + 1] += c.first_next[k];
    return c;
}

/// The chunks in an order every wait is kept in (Kahn's algorithm; the chunks only wait for lower
/// colours, so there is no cycle), the ready chunk of the smallest key first, then the lowest colour.
std::vector<uint32_t> chunk_order(const Chunks& c, const std::vector<double>& key) {
    std::vector<uint32_t> waiting(c.blocks.size(), 0), order;
    for (const auto& d : c.after) ++waiting[d[0]];
    using Ready = std::tuple<double, uint32_t, uint32_t>;  // (key, colour, chunk)
    std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready;
    for (uint32_t k = 0; k < c.blocks.size(); ++k)
        if (waiting[k] == 0) ready.push({key[k], c.colour[k], k});
    while (!ready.empty()) {
        const uint32_t k = std::get<2>(ready.top());
        ready.pop();
        order.push_back(k);
        for (uint32_t q = c.first_next[k]; q < c.first_next[k + 1]; ++q)
            if (const uint32_t next = c.after[q][0]; --waiting[next] == 0) ready.push({key[next], c.colour[next], next});
    }
    return order;
}

/// The one-thread wave: the colours keep pace with each other through the particle order.
void one_thread_wave(const Chunks& c, SweepBlocks& s) {
    for (uint32_t k : chunk_order(c, c.behind)) {
        if (!s.wave.empty() && s.wave.back()[1] == c.blocks[k][0] && c.blocks[k][0] != s.colour_blocks[c.colour[k]])
            s.wave.back()[1] = c.blocks[k][1];
        else
            s.wave.push_back(c.blocks[k]);
    }
}

/// The wave over `parts` threads: the particle order cut into `parts` slabs, each swept by its own
/// thread from one end, the slabs' directions alternating, so two threads meet at a boundary at the
/// end (or start there together) and seldom wait. Each thread's list is a subsequence of one order
/// that keeps every wait, so the earliest unfinished chunk can always run: no thread waits forever.
void parallel_wave(const Chunks& c, uint32_t parts, SweepBlocks& s) {
    std::vector<double> key(c.blocks.size());
    std::vector<uint32_t> part(c.blocks.size());
    for (size_t k = 0; k < c.blocks.size(); ++k) {
        const double at = c.behind[k] * parts;
        part[k] = std::min(parts - 1, static_cast<uint32_t>(at));
        key[k] = part[k] % 2 == 0 ? at - part[k] : part[k] + 1 - at;
    }
    s.chunks = c.blocks;
    s.part_offsets.assign(parts + 1, 0);
    const std::vector<uint32_t> order = chunk_order(c, key);
    for (uint32_t p = 0; p < parts; ++p) {
        for (uint32_t k : order)
            if (part[k] == p) s.part_chunks.push_back(k);
        s.part_offsets[p + 1] = static_cast<uint32_t>(s.part_chunks.size());
    }
    // What each chunk waits for on another thread (its own thread's come before it in its list).
    std::vector<std::vector<uint32_t>> waits(c.blocks.size());
    for (const auto& d : c.after)
        if (part[d[0]] != part[d[1]]) waits[d[0]].push_back(d[1]);
    s.wait_offsets.assign(1, 0);
    for (const auto& w : waits) {
        s.waits.insert(s.waits.end(), w.begin(), w.end());
        s.wait_offsets.push_back(static_cast<uint32_t>(s.waits.size()));
    }
}

}  // namespace

SweepBlocks build(const ClothProxy& p, DistanceModel& distance, uint32_t threads) {
    SweepBlocks s;
    const uint32_t lanes = SweepBlocks::lanes;
    const size_t n = p.particle_count();
    // The lanes index positions (3·particle) and the rows' slots (six doubles each, padding included:
    // at most a block's lanes a row end) with 32-bit integers.
    if (n * 3 > static_cast<size_t>(INT32_MAX) ||
        distance.incidences.size() * SweepBlocks::lanes * RowSlots::fields > static_cast<size_t>(INT32_MAX))
        throw std::invalid_argument(solver_message("proxy '", p.garment, "': ", n, " particles and ", distance.count(),
                                                   " distance rows are too many for the solver's 32-bit indices"));
    s.same_colour_pairs = same_colour_pairs(p, distance);
    s.colour_blocks.push_back(0);
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c) {
        for (uint32_t b = p.colour_ranges[c]; b < p.colour_ranges[c + 1]; b += lanes) {
            s.first.push_back(b);
            s.width.push_back(std::min(lanes, p.colour_ranges[c + 1] - b));
        }
        s.colour_blocks.push_back(static_cast<uint32_t>(s.first.size()));
    }
    lay_out_rows(s, distance);
    const Chunks chunks = cut_chunks(p, distance, s);
    one_thread_wave(chunks, s);
    // Threads that meet at a slab's boundary wait for each other there; a wave cut into slabs of a few
    // chunks a colour would wait more than it sweeps (a loaded machine made the 1k sheet 30 times slower
    // on two threads), so a proxy that small keeps the colour-by-colour split.
    uint32_t most = 0;
    for (size_t c = 0; c + 1 < s.colour_blocks.size(); ++c) most = std::max(most, s.colour_blocks[c + 1] - s.colour_blocks[c]);
    if (threads > 1 && most >= wave_slab_chunks * wave_blocks * threads) parallel_wave(chunks, threads, s);
    return s;
}

void lay_out_rows(SweepBlocks& s, DistanceModel& distance) {
    const uint32_t lanes = SweepBlocks::lanes;
    s.offsets.clear();
    s.other_coordinate.clear();
    s.row.clear();
    distance.slot.assign(distance.incidences.size(), 0);
    distance.row_slots.assign(distance.count(), {UINT32_MAX, UINT32_MAX});
    for (size_t k = 0; k < s.blocks(); ++k) {
        const uint32_t b = s.first[k], width = s.width[k];
        uint32_t rows = 0;
        for (uint32_t lane = 0; lane < width; ++lane) rows = std::max(rows, distance.offsets[b + lane + 1] - distance.offsets[b + lane]);
        s.offsets.push_back(static_cast<uint32_t>(s.other_coordinate.size() / lanes));
        for (uint32_t q = 0; q < rows; ++q)
            for (uint32_t lane = 0; lane < lanes; ++lane) {
                // A lane past the block's width stands in for its first particle, padded throughout.
                const uint32_t i = lane < width ? b + lane : b;
                const uint32_t at = distance.offsets[i] + q;
                const bool real = lane < width && at < distance.offsets[i + 1];
                const LinkIncidence inc = real ? distance.incidences[at] : LinkIncidence{i, 0};
                const uint32_t slot = static_cast<uint32_t>(s.other_coordinate.size());
                if (real) {
                    distance.slot[at] = slot;
                    auto& ends = distance.row_slots[inc.link];
                    ends[ends[0] == UINT32_MAX ? 0 : 1] = slot;
                }
                s.other_coordinate.push_back(static_cast<int32_t>(inc.other * 3));
                s.row.push_back(inc.link);
            }
    }
    s.offsets.push_back(static_cast<uint32_t>(s.other_coordinate.size() / lanes));
    distance.slot_count = s.other_coordinate.size();
    s.other_slot.resize(s.other_coordinate.size());
    for (size_t at = 0; at < s.other_slot.size(); ++at) s.other_slot[at] = static_cast<int32_t>(RowSlots::at(at, 0));
    for (const auto& ends : distance.row_slots) {
        s.other_slot[ends[0]] = static_cast<int32_t>(RowSlots::at(ends[1], 0));
        s.other_slot[ends[1]] = static_cast<int32_t>(RowSlots::at(ends[0], 0));
    }
}

std::vector<uint32_t> first_read_order(const SweepBlocks& s, const DistanceModel& distance) {
    std::vector<uint32_t> order;
    std::vector<uint8_t> seen(distance.count(), 0);
    auto read = [&](uint32_t row) {
        if (!seen[row]) order.push_back(row);
        seen[row] = 1;
    };
    for (const auto& run : s.wave)
        for (uint32_t k = run[0]; k < run[1]; ++k)
            for (uint32_t q = 0; q < s.offsets[k + 1] - s.offsets[k]; ++q)
                for (uint32_t lane = 0; lane < s.width[k]; ++lane) {
                    const uint32_t i = s.first[k] + lane;
                    if (distance.offsets[i] + q < distance.offsets[i + 1]) read(distance.incidences[distance.offsets[i] + q].link);
                }
    for (uint32_t row = 0; row < distance.count(); ++row) read(row);  // none left: both ends are in the wave
    // Stretch edges before skips: the row kinds tell them apart by index (DistanceModel::edge_count).
    std::stable_partition(order.begin(), order.end(), [&](uint32_t row) { return row < distance.edge_count; });
    return order;
}

DualLanes lay_out_duals(const SweepBlocks& s, const ClothProxy& p, const DistanceModel& distance,
                        const std::vector<double>& inverse_mass) {
    const uint32_t lanes = SweepBlocks::lanes;
    std::vector<uint32_t> colour(p.particle_count(), 0);
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c)
        for (uint32_t i = p.colour_ranges[c]; i < p.colour_ranges[c + 1]; ++i) colour[i] = static_cast<uint32_t>(c);
    DualLanes d;
    d.mask.assign(s.offsets.back(), 0);
    for (size_t b = 0; b < s.blocks(); ++b)
        for (uint32_t q = 0; q < s.offsets[b + 1] - s.offsets[b]; ++q)
            for (uint32_t lane = 0; lane < s.width[b]; ++lane) {
                const uint32_t i = s.first[b] + lane, at = distance.offsets[i] + q;
                if (inverse_mass[i] == 0 || at >= distance.offsets[i + 1]) continue;
                const LinkIncidence inc = distance.incidences[at];
                if (inc.link >= distance.edge_count) continue;  // a skip carries no multiplier
                if (!(inverse_mass[inc.other] == 0 || colour[i] < colour[inc.other])) continue;  // the other end goes first
                uint16_t& mask = d.mask[s.offsets[b] + q];
                if (distance.hard[inc.link]) mask |= static_cast<uint16_t>(1u << lane);
                if (distance.strain_rows) mask |= static_cast<uint16_t>(1u << (lanes + lane));
            }
    return d;
}

BendLanes lay_out_bend(const SweepBlocks& s, const HingeState& hinge) {
    BendLanes l;
    if (hinge.bend_diagonal.empty()) return l;
    const uint32_t lanes = SweepBlocks::lanes;
    for (size_t b = 0; b < s.blocks(); ++b) {
        const uint32_t first = s.first[b], width = s.width[b];
        l.offsets.push_back(static_cast<uint32_t>(l.coefficient.size() / lanes));
        uint32_t rows = 0;
        for (uint32_t k = 0; k < lanes; ++k) {
            const uint32_t i = k < width ? first + k : first;
            const uint32_t count = k < width ? hinge.bend_offsets[i + 1] - hinge.bend_offsets[i] : 0;
            l.count.push_back(static_cast<int32_t>(count));
            rows = std::max(rows, count);
        }
        for (uint32_t q = 0; q < rows; ++q)
            for (uint32_t k = 0; k < lanes; ++k) {
                const uint32_t i = k < width ? first + k : first;
                const uint32_t at = hinge.bend_offsets[i] + q;
                const bool real = k < width && at < hinge.bend_offsets[i + 1];
                l.other_coordinate.push_back(static_cast<int32_t>((real ? hinge.bend_neighbours[at].other : i) * 3));
                l.coefficient.push_back(real ? hinge.bend_neighbours[at].coefficient : 0.0);
            }
    }
    l.offsets.push_back(static_cast<uint32_t>(l.coefficient.size() / lanes));
    return l;
}

}  // namespace weft::sweep_blocks
