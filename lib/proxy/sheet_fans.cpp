// Fans of three triangles on one edge (docs/proxy.md#fans): where one sheet runs straight on across
// the edge and another piece meets it there (a second skirt layer sewn at a waist, the cap a
// mirror modifier leaves in a sail's mid-plane), the other piece is taken off the edge: split off
// as a piece of its own, or, when every vertex of it lies within the sheet's thickness, dropped from the
// simulation as a partition across the sheet (still drawn, bound to the sheet). Anything less
// clear is left to the edge checks, which refuse it by edge.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>

#include "proxy/sheet_work.h"

namespace weft::sheet_detail {

namespace {

/// The straight pair turns less than this share of any other pair's turn ...
constexpr double kFanTurnRatio = 0.5;
/// ... and at least this much less (degrees).
constexpr double kFanTurnMargin = 10.0;
/// A piece taken off is a partition when every vertex of it is within this share of the sheet's
/// median edge of the rest's vertices: inside the sheet's own thickness, not cloth of its own.
constexpr double kPartitionReach = 0.25;

uint32_t fan_root(std::vector<uint32_t>& parent, uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/// Patches: triangles joined across edges exactly two of them share, numbered by their root.
std::vector<uint32_t> fan_patches(const EdgeTable& table, size_t triangles) {
    std::vector<uint32_t> parent(triangles);
    for (uint32_t t = 0; t < triangles; ++t) parent[t] = t;
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        if (table.face_count(e) != 2) continue;
        const auto f = table.faces(e);
        const uint32_t a = fan_root(parent, f[0]), b = fan_root(parent, f[1]);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
    for (uint32_t t = 0; t < triangles; ++t) parent[t] = fan_root(parent, t);
    return parent;
}

/// How far (degrees) the surface turns from triangle `t` across edge (a, b) into triangle `u`: 0
/// where they continue straight on, 90 for a fin standing square on it.
double fan_turn(const SheetWork& work, uint32_t a, uint32_t b, uint32_t t, uint32_t u) {
    auto at = [&](uint32_t w) -> const Vec3& { return work.src.positions[work.weld.first[w]]; };
    const Vec3 axis = normalize(at(b) - at(a));
    auto wing = [&](uint32_t tri) {
        uint32_t o = a;
        for (int k = 0; k < 3; ++k)
            if (work.clean[3 * tri + k] != a && work.clean[3 * tri + k] != b) o = work.clean[3 * tri + k];
        const Vec3 d = at(o) - at(a);
        return normalize(d - axis * dot(d, axis));
    };
    const double c = std::clamp(dot(wing(t), wing(u)), -1.0, 1.0);
    return 180.0 - std::acos(c) * 180.0 / std::numbers::pi;
}

/// One fan's reading: the face that meets the straight pair, or 3 when no pair is clearly straight.
struct FanReading {
    uint32_t odd = 3;
    double straight = 0, other = 0;  ///< degrees: the straight pair's turn, the smallest other pair's
};

FanReading read_fan(const SheetWork& work, const EdgeTable& table, uint32_t e) {
    const auto f = table.faces(e);
    const uint32_t a = table.edges[e][0], b = table.edges[e][1];
    const double turn[3] = {fan_turn(work, a, b, f[1], f[2]), fan_turn(work, a, b, f[0], f[2]), fan_turn(work, a, b, f[0], f[1])};
    // turn[k]: the pair without face k.
    const uint32_t k = static_cast<uint32_t>(std::min_element(turn, turn + 3) - turn);
    const double other = std::min(turn[(k + 1) % 3], turn[(k + 2) % 3]);
    FanReading r;
    r.straight = turn[k], r.other = other;
    if (turn[k] < kFanTurnRatio * other && turn[k] + kFanTurnMargin <= other) r.odd = k;
    return r;
}

struct FanPlan {
    std::vector<uint8_t> split;           ///< per patch root: taken off its fans
    std::vector<uint32_t> fans;           ///< the edges of three
    double straight_max = 0, other_min = 180;
    bool clear = true;
};

/// Which patches come off: each fan's odd face's patch, when no patch is odd on one fan and
/// straight on another, and the straight pair is never that patch's.
FanPlan plan_fans(const SheetWork& work, const EdgeTable& table, const std::vector<uint32_t>& patch) {
    FanPlan plan;
    std::vector<uint8_t> odd(patch.size(), 0), straight(patch.size(), 0);
    for (uint32_t e = 0; e < table.edge_count() && plan.clear; ++e) {
        if (table.face_count(e) < 3) continue;
        if (table.face_count(e) > 3) plan.clear = false;
        else {
            const FanReading r = read_fan(work, table, e);
            const auto f = table.faces(e);
            if (r.odd == 3) {
                plan.clear = false;
                break;
            }
            plan.fans.push_back(e);
            plan.straight_max = std::max(plan.straight_max, r.straight);
            plan.other_min = std::min(plan.other_min, r.other);
            for (uint32_t k = 0; k < 3; ++k) (k == r.odd ? odd : straight)[patch[f[k]]] = 1;
        }
    }
    for (size_t p = 0; p < patch.size(); ++p) plan.clear = plan.clear && !(odd[p] && straight[p]);
    plan.split = std::move(odd);
    return plan;
}

/// Where a split-off piece's own vertices along its fans come from: per welded vertex on the fans
/// it uses, a source vertex of it no other kept triangle uses (a particle's source vertex must weld
/// into it). `ok` is false when one has none (its triangles share the sheet's vertex in the file).
struct OwnSources {
    bool ok = false;
    std::vector<uint32_t> source;          ///< per welded vertex
    std::vector<uint8_t> used_elsewhere;   ///< per source vertex
};

OwnSources own_sources(const SheetWork& work, const std::vector<uint32_t>& triangles, const std::vector<uint8_t>& on_fan) {
    OwnSources own;
    std::vector<uint8_t> in_piece(work.kept.size(), 0);
    own.used_elsewhere.assign(work.vertex_count, 0);
    for (uint32_t t : triangles) in_piece[t] = 1;
    for (uint32_t t = 0; t < work.kept.size(); ++t)
        if (!in_piece[t])
            for (int k = 0; k < 3; ++k) own.used_elsewhere[work.src.indices[3 * work.kept[t] + k]] = 1;
    own.source.assign(work.welded_count, unset_index);
    for (uint32_t t : triangles)
        for (int k = 0; k < 3; ++k) {
            const uint32_t w = work.clean[3 * t + k], v = work.src.indices[3 * work.kept[t] + k];
            if (on_fan[w] && !own.used_elsewhere[v]) own.source[w] = std::min(own.source[w], v);
        }
    for (uint32_t t : triangles)
        for (int k = 0; k < 3; ++k)
            if (on_fan[work.clean[3 * t + k]] && own.source[work.clean[3 * t + k]] == unset_index) return own;
    own.ok = true;
    return own;
}

/// The split-off piece's welded vertices on its fans become vertices of their own, made of the
/// piece's own source vertices there; the sheet's keep the rest (and a first vertex of them).
void detach_piece(SheetWork& work, const std::vector<uint32_t>& triangles, const std::vector<uint8_t>& on_fan, const OwnSources& own) {
    WeldResult& weld = work.weld;
    std::vector<uint32_t> copy(on_fan.size(), unset_index);
    for (uint32_t t : triangles)
        for (int k = 0; k < 3; ++k) {
            uint32_t& w = work.clean[3 * t + k];
            if (w >= on_fan.size() || !on_fan[w]) continue;
            if (copy[w] == unset_index) {
                copy[w] = work.welded_count++;
                weld.first.push_back(own.source[w]);
            }
            w = copy[w];
        }
    std::vector<uint32_t> first(on_fan.size(), unset_index);  // the sheet's new first vertex, where it moved
    for (uint32_t v = 0; v < work.vertex_count; ++v) {
        const uint32_t w = weld.remap[v];
        if (w >= on_fan.size() || copy[w] == unset_index) continue;
        if (!own.used_elsewhere[v]) weld.remap[v] = copy[w];
        else first[w] = std::min(first[w], v);
    }
    for (uint32_t w = 0; w < on_fan.size(); ++w)
        if (copy[w] != unset_index && weld.remap[weld.first[w]] != w && first[w] != unset_index) weld.first[w] = first[w];
}

/// The median length of the table's edges, at the welded positions.
double median_edge(const SheetWork& work, const EdgeTable& table) {
    std::vector<double> lengths;
    lengths.reserve(table.edge_count());
    for (const auto& [a, b] : table.edges) lengths.push_back(distance(work.src.positions[work.weld.first[a]], work.src.positions[work.weld.first[b]]));
    if (lengths.empty()) return 0;
    std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
    return lengths[lengths.size() / 2];
}

/// Whether every vertex of `piece` (kept triangles) lies within `reach` of a vertex of the other
/// kept triangles: a grid of cells `reach` wide, each vertex probing the 27 around it.
bool within_reach_of_rest(const SheetWork& work, const std::vector<uint32_t>& piece, double reach) {
    if (!(reach > 0)) return false;
    auto at = [&](uint32_t w) -> const Vec3& { return work.src.positions[work.weld.first[w]]; };
    auto cell = [&](const Vec3& p) {
        return std::array<int64_t, 3>{static_cast<int64_t>(std::floor(p.x / reach)), static_cast<int64_t>(std::floor(p.y / reach)),
                                      static_cast<int64_t>(std::floor(p.z / reach))};
    };
    std::vector<uint8_t> in_piece(work.kept.size(), 0);
    for (uint32_t t : piece) in_piece[t] = 1;
    std::map<std::array<int64_t, 3>, std::vector<uint32_t>> grid;
    for (uint32_t t = 0; t < work.kept.size(); ++t)
        if (!in_piece[t])
            for (int k = 0; k < 3; ++k) grid[cell(at(work.clean[3 * t + k]))].push_back(work.clean[3 * t + k]);
    for (uint32_t t : piece)
        for (int k = 0; k < 3; ++k) {
            const Vec3& p = at(work.clean[3 * t + k]);
            const auto c = cell(p);
            bool near = false;
            for (int64_t dx = -1; dx <= 1 && !near; ++dx)
                for (int64_t dy = -1; dy <= 1 && !near; ++dy)
                    for (int64_t dz = -1; dz <= 1 && !near; ++dz) {
                        auto it = grid.find({c[0] + dx, c[1] + dy, c[2] + dz});
                        if (it == grid.end()) continue;
                        for (uint32_t w : it->second) near = near || distance(at(w), p) <= reach;
                    }
            if (!near) return false;
        }
    return true;
}

std::string degrees_text(double d) { return std::to_string(static_cast<int>(std::lround(d))) + "°"; }

}  // namespace

void sheet_split_fans(SheetWork& work) {
    if (work.kept.empty()) return;
    for (uint8_t d : work.defect)
        if (SheetWork::refuses(d) && !work.options.repair) return;  // refused already
    const EdgeTable& table = work.clean_table();
    const std::vector<uint32_t> patch = fan_patches(table, work.kept.size());
    const FanPlan plan = plan_fans(work, table, patch);
    if (plan.fans.empty() || !plan.clear) return;

    std::vector<uint8_t> on_fan(work.welded_count, 0);
    for (uint32_t e : plan.fans) on_fan[table.edges[e][0]] = on_fan[table.edges[e][1]] = 1;
    // Per split-off patch, its triangles, and whether it is cloth of its own (a vertex beyond the
    // reach of the rest) or a partition.
    std::vector<std::vector<uint32_t>> pieces(work.kept.size());
    std::vector<uint8_t> own_cloth(work.kept.size(), 0);
    for (uint32_t t = 0; t < work.kept.size(); ++t) {
        if (!plan.split[patch[t]]) continue;
        pieces[patch[t]].push_back(t);
    }
    const double reach = kPartitionReach * median_edge(work, table);
    for (uint32_t p = 0; p < pieces.size(); ++p)
        if (!pieces[p].empty()) own_cloth[p] = !within_reach_of_rest(work, pieces[p], reach);
    // Every piece that comes off must have vertices of its own along the fans, or nothing is split.
    std::vector<OwnSources> sources(pieces.size());
    for (uint32_t p = 0; p < pieces.size(); ++p)
        if (!pieces[p].empty() && own_cloth[p] && !(sources[p] = own_sources(work, pieces[p], on_fan)).ok) return;
    std::vector<uint8_t> dropped(work.kept.size(), 0);
    uint32_t split = 0, partitions = 0, partition_triangles = 0;
    for (uint32_t p = 0; p < pieces.size(); ++p) {
        if (pieces[p].empty()) continue;
        if (own_cloth[p]) {
            detach_piece(work, pieces[p], on_fan, sources[p]);
            ++split;
            continue;
        }
        ++partitions;
        for (uint32_t t : pieces[p]) dropped[t] = 1, work.defect[work.kept[t]] = kPartition, ++partition_triangles;
    }
    std::vector<uint32_t> kept, clean;
    for (uint32_t t = 0; t < work.kept.size(); ++t) {
        if (dropped[t]) continue;
        kept.push_back(work.kept[t]);
        clean.insert(clean.end(), {work.clean[3 * t], work.clean[3 * t + 1], work.clean[3 * t + 2]});
    }
    const uint32_t e0 = plan.fans.front();
    const uint32_t a = work.weld.first[table.edges[e0][0]], b = work.weld.first[table.edges[e0][1]];
    const std::vector<uint32_t> first_fan(table.faces(e0).begin(), table.faces(e0).end());
    const std::string fan_text = triangles_text(work.src, first_fan, work.kept);
    work.kept = std::move(kept);
    work.clean = std::move(clean);
    work.all_kept = false;
    work.dropped_table = build_edge_table(work.clean, work.welded_count);
    work.stats.dropped_triangles += partition_triangles;

    const Source& src = work.src;
    std::string what;
    if (split) what = std::to_string(split) + " piece" + (split == 1 ? "" : "s") + " split off along them, each simulated as a piece of its own";
    if (partitions)
        what += (split ? "; " : "") + std::to_string(partitions) + " partition" + (partitions == 1 ? "" : "s") + " (" +
                std::to_string(partition_triangles) + " triangles, every vertex within a quarter of the median edge of the sheet's) dropped from the simulation, drawn and bound to the sheet";
    work.issues.push_back({"FAN_SPLIT", Severity::warning,
                           src.file() + ": " + std::to_string(plan.fans.size()) + " edge" + (plan.fans.size() == 1 ? " is" : "s are") +
                               " shared by 3 triangles where a sheet runs straight on (turning at most " +
                               degrees_text(plan.straight_max) + ") and another piece meets it (turning at least " +
                               degrees_text(plan.other_min) + "), the first from " + src.vertex_text(a) + " to " +
                               src.vertex_text(b) + " (" + fan_text + "): " + what + ".",
                           src.edge_pointer(a, b)});
}

}  // namespace weft::sheet_detail
