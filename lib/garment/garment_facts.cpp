// What every way of finding a garment shares (garment_facts.h).
#include "garment/garment_facts.h"

#include <array>
#include <cmath>
#include <cstdio>

#include "garment/clumps.h"

namespace weft::garment_detail {

Rig make_rig(const Scene& scene, const std::vector<Chain>& chains) {
    Rig rig;
    rig.node_chains.resize(scene.nodes.size());
    rig.skin_joint.assign(scene.nodes.size(), 0);
    for (size_t c = 0; c < chains.size(); ++c)
        for (int j : chains[c].joints) {
            auto& list = rig.node_chains[static_cast<size_t>(j)];
            if (list.empty() || list.back() != static_cast<int>(c)) list.push_back(static_cast<int>(c));
        }
    for (const Skin& skin : scene.skins)
        for (int j : skin.joints) rig.skin_joint[static_cast<size_t>(j)] = 1;
    rig.mesh_holder.resize(scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) rig.mesh_holder[m] = rig.holder(scene, scene.meshes[m].node);
    return rig;
}

namespace {

// ---- pieces and span ------------------------------------------------------------------------

struct PieceStats {
    size_t pieces = 0;
    double span = 0;
};

/// Directions over which a piece's extent is taken: the axes, the face and the body diagonals.
/// Every unit direction is within 27.6 degrees of one of them, so the widest extent over these is
/// at least cos(27.6) = 0.886 of the piece's diameter.
constexpr std::array<Vec3, 13> kSpanDirections = [] {
    std::array<Vec3, 13> d{Vec3{1, 0, 0},  Vec3{0, 1, 0},  Vec3{0, 0, 1},  Vec3{1, 1, 0},  Vec3{1, -1, 0},
                           Vec3{1, 0, 1},  Vec3{1, 0, -1}, Vec3{0, 1, 1},  Vec3{0, 1, -1}, Vec3{1, 1, 1},
                           Vec3{1, 1, -1}, Vec3{1, -1, 1}, Vec3{-1, 1, 1}};
    for (Vec3& v : d) {
        double n2 = dot(v, v);
        double inv = n2 == 1 ? 1.0 : (n2 == 2 ? 0.70710678118654752 : 0.57735026918962576);
        v = v * inv;
    }
    return d;
}();

/// Welds the garment (clumps.h: UV and normal seams split vertices, the weld joins them again),
/// splits it into islands and measures each one's span.
PieceStats measure_pieces(const Scene& scene, const Garment& garment) {
    const GarmentSurface surface = weld_garment(scene, garment);
    PieceStats stats;
    for (const Clump& island : island_clumps(surface)) {
        if (island.vertices.empty()) continue;
        ++stats.pieces;
        std::array<double, 13> lo, hi;
        lo.fill(INFINITY);
        hi.fill(-INFINITY);
        for (uint32_t v : island.vertices) {
            const Vec3& x = surface.position[v];
            for (size_t d = 0; d < kSpanDirections.size(); ++d) {
                double s = dot(x, kSpanDirections[d]);
                lo[d] = std::min(lo[d], s);
                hi[d] = std::max(hi[d], s);
            }
        }
        double span = 0;
        for (size_t d = 0; d < kSpanDirections.size(); ++d) span = std::max(span, hi[d] - lo[d]);
        // Two farthest-point sweeps: a real pairwise distance, usually within a hair of the diameter.
        auto farthest = [&](const Vec3& from) {
            Vec3 best = from;
            double best_d = -1;
            for (uint32_t v : island.vertices) {
                double d2 = length_squared(surface.position[v] - from);
                if (d2 > best_d) best_d = d2, best = surface.position[v];
            }
            return best;
        };
        Vec3 a = farthest(surface.position[island.vertices.front()]);
        span = std::max(span, distance(a, farthest(a)));
        stats.span = std::max(stats.span, span);
    }
    return stats;
}

}  // namespace

// ---- facts and verdicts ---------------------------------------------------------------------

std::string millimetres(double metres) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f mm", metres * 1000);
    return buf;
}

/// Fills counts, bounds, pieces, weights, chains and the verdict of a garment whose parts are set.
void fill_facts(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains, Garment& g) {
    std::vector<double> weight(scene.nodes.size(), 0.0);
    std::vector<char> chain_touched(chains.size(), 0);
    g.vertex_count = g.triangle_count = 0;
    g.bounds = Bounds{};
    for (GarmentPart& part : g.parts) {
        const Mesh& mesh = scene.meshes[static_cast<size_t>(part.mesh)];
        std::vector<char> member(mesh.positions.size(), 0);
        for (uint32_t v : part.vertices) {
            member[v] = 1;
            if (is_finite(mesh.positions[v])) g.bounds.add(mesh.positions[v]);
            for_each_weight(scene, rig, static_cast<size_t>(part.mesh), v, [&](int node, double w) {
                weight[static_cast<size_t>(node)] += w;
                for (int c : rig.node_chains[static_cast<size_t>(node)]) chain_touched[static_cast<size_t>(c)] = 1;
            });
        }
        part.triangles = 0;
        for (size_t t = 0; t < mesh.triangle_count(); ++t)
            if (member[mesh.indices[3 * t]] && member[mesh.indices[3 * t + 1]] &&
                member[mesh.indices[3 * t + 2]])
                ++part.triangles;
        g.vertex_count += part.vertices.size();
        g.triangle_count += part.triangles;
    }
    PieceStats pieces = measure_pieces(scene, g);
    g.pieces = pieces.pieces;
    g.span = pieces.span;

    g.chains.clear();
    for (size_t c = 0; c < chains.size(); ++c)
        if (chain_touched[c]) g.chains.push_back(static_cast<int>(c));
    g.moves = !g.chains.empty();

    // The body bone: the heaviest bone that is not a chain joint (ties to the lower node index);
    // for a garment weighted wholly onto chains, the bone the heaviest chain hangs from.
    int best = -1, best_chain_joint = -1;
    for (size_t i = 0; i < weight.size(); ++i) {
        if (!(weight[i] > 0)) continue;
        int& slot = rig.in_chain(static_cast<int>(i)) ? best_chain_joint : best;
        if (slot < 0 || weight[i] > weight[static_cast<size_t>(slot)]) slot = static_cast<int>(i);
    }
    if (best < 0 && best_chain_joint >= 0)
        best = chains[static_cast<size_t>(rig.node_chains[static_cast<size_t>(best_chain_joint)].front())].parent;
    g.body_bone = best;

    g.welded_to = -1;
    if (g.moves) {
        g.verdict = "moves";
    } else if (g.body_bone >= 0) {
        g.welded_to = g.body_bone;
        g.verdict = "will not move: welded to " + scene.nodes[static_cast<size_t>(g.body_bone)].name;
    } else {
        g.verdict = "will not move: static mesh, no bones";
    }
}

/// Files `g` among the garments, its vertices taken so no later rule finds them again, or, when it
/// has a reason not to be one, among the not-garments. Whether it was taken.
bool admit_garment(Garment&& g, std::vector<std::vector<char>>& taken, ModelGarments& found) {
    if (!g.not_garment_reason.empty()) {
        g.verdict = "not a garment: " + g.not_garment_reason;
        found.not_garments.push_back(std::move(g));
        return false;
    }
    for (const GarmentPart& part : g.parts)
        for (uint32_t v : part.vertices) taken[static_cast<size_t>(part.mesh)][v] = 1;
    found.garments.push_back(std::move(g));
    return true;
}

}  // namespace weft::garment_detail
