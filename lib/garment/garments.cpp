#include "garment/garments.h"

#include "garment/clumps.h"
#include "garment/geometry.h"
#include "geom/topology.h"
#include "geom/weld.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

namespace weft {

namespace {

bool class_selected(const std::vector<std::string>& selected, const std::string& name) {
    return selected.empty() || std::find(selected.begin(), selected.end(), name) != selected.end();
}

std::string material_name(const Scene& scene, const Mesh& mesh) {
    const std::string* name = material_of(scene, mesh);
    return name ? *name : std::string();
}

/// What the skeleton looks like to a garment: which nodes are chain joints (and of which chains),
/// which are skin joints, and what holds each unskinned mesh.
struct Rig {
    std::vector<std::vector<int>> node_chains;  ///< per node: indices of the chains it belongs to
    std::vector<char> skin_joint;               ///< per node: a joint of some skin
    std::vector<int> mesh_holder;               ///< per mesh: holder() of its node (used when unskinned)

    bool in_chain(int node) const { return !node_chains[static_cast<size_t>(node)].empty(); }

    /// The node an unskinned mesh at `node` rides: the nearest chain or skin joint at or above
    /// it, or -1 when none (a static prop).
    int holder(const Scene& scene, int node) const {
        for (int n : self_and_ancestors(scene, node))
            if (in_chain(n) || skin_joint[static_cast<size_t>(n)]) return n;
        return -1;
    }
};

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

/// Calls f(node, weight) for every influence on vertex v; an unskinned mesh's vertex has one,
/// weight 1 on the node that holds the mesh (none for a static prop).
template <typename F>
void for_each_weight(const Scene& scene, const Rig& rig, size_t mesh_index, uint32_t v, F&& f) {
    const Mesh& mesh = scene.meshes[mesh_index];
    if (!is_skinned(mesh)) {
        int h = rig.mesh_holder[mesh_index];
        if (h >= 0) f(h, 1.0);
        return;
    }
    for (const BoneWeight& bw : influences(scene, mesh, v)) f(bw.bone, static_cast<double>(bw.weight));
}

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

/// A garment-to-be found by a name: which meshes carry it.
struct Candidate {
    std::string class_name, matched_by, matched_name, rule_pointer, rule_target, fabric;
    nlohmann::json pin;
    bool not_garment = false;  ///< a config rule said "none"
    std::vector<int> meshes;
    bool repair = false;
    std::vector<int> holders;  ///< closed solids of the name match left out (separate_holders)
};

void add_to_candidate(std::vector<Candidate>& candidates, Candidate c, int mesh) {
    for (Candidate& existing : candidates)
        if (existing.class_name == c.class_name && existing.matched_by == c.matched_by &&
            existing.matched_name == c.matched_name && existing.rule_pointer == c.rule_pointer) {
            existing.meshes.push_back(mesh);
            return;
        }
    c.meshes.push_back(mesh);
    candidates.push_back(std::move(c));
}

std::vector<Candidate> find_candidates(const Scene& scene, const GarmentOptions& options) {
    const auto& classes = options.config.classes;
    std::vector<const GarmentRule*> rules;
    for (const GarmentRule& r : options.config.rules)
        if (rule_applies_to(r, scene.source_path)) rules.push_back(&r);

    // A node whose meshes (one source mesh split per material by import, which also renames the
    // parts: "Goal_Flag-0", "Goal_Flag-1") have a slot naming a class has said which part is the
    // garment; its other parts are not taken by the mesh's or node's name (the Goal_Flag mesh's
    // `Metal` pole is not a flag because the mesh is called Goal_Flag).
    auto same_source = [&](const Mesh& a, const Mesh& b) {
        return a.node == b.node && (a.node >= 0 || a.name == b.name);
    };
    std::vector<char> slot_says(scene.meshes.size(), 0);
    for (size_t i = 0; i < scene.meshes.size(); ++i)
        if (classify_name(material_name(scene, scene.meshes[i]), classes) >= 0)
            for (size_t j = 0; j < scene.meshes.size(); ++j)
                if (same_source(scene.meshes[i], scene.meshes[j])) slot_says[j] = 1;

    std::vector<Candidate> candidates;
    for (size_t i = 0; i < scene.meshes.size(); ++i) {
        const Mesh& mesh = scene.meshes[i];
        if (mesh.positions.empty() || mesh.triangle_count() == 0) continue;
        const std::string material = material_name(scene, mesh);
        const GarmentRule* rule = nullptr;
        for (const GarmentRule* r : rules)
            if ((!r->material.empty() && r->material == material) || (!r->mesh.empty() && r->mesh == mesh.name) ||
                (!r->node.empty() && r->node == mesh.node_name)) {
                rule = r;
                break;
            }
        if (rule) {
            const std::string& named = !rule->material.empty() ? material
                                       : !rule->mesh.empty()     ? mesh.name
                                                                 : mesh.node_name;
            Candidate c{rule->class_name, kMatchedByConfig, named, rule->pointer, rule->target(), rule->fabric,
                        rule->pin, rule->class_name == kNotAGarment, {}, rule->repair, {}};
            if (c.not_garment || class_selected(options.selected, c.class_name))
                add_to_candidate(candidates, std::move(c), static_cast<int>(i));
            continue;  // the config decided, whether or not its class is selected
        }
        const std::pair<const char*, const std::string*> names[] = {
            {kMatchedByMaterial, &material}, {kMatchedByMesh, &mesh.name}, {kMatchedByNode, &mesh.node_name}};
        for (const auto& [by, name] : names) {
            if (by != kMatchedByMaterial && slot_says[i]) break;
            int c = classify_name(*name, classes);
            if (c < 0) continue;
            const std::string& cls = classes[static_cast<size_t>(c)].name;
            if (class_selected(options.selected, cls))
                add_to_candidate(candidates, Candidate{cls, by, *name, "", "", "", nullptr, false, {}, false, {}},
                                 static_cast<int>(i));
            break;  // the first name that says a class decides, selected or not
        }
    }
    return candidates;
}

/// Whether an unskinned mesh is a closed solid: after welding by position (geom/weld.h's default),
/// every edge has exactly two triangles. A rod, a ring, a bracket; never a sheet, which has a border.
bool rigid_solid(const Mesh& mesh) {
    if (is_skinned(mesh) || mesh.triangle_count() == 0) return false;
    for (const Vec3& p : mesh.positions)
        if (!is_finite(p)) return false;
    const WeldResult weld = weld_positions(mesh.positions, weld_tolerance_for(mesh.positions));
    std::vector<uint32_t> indices(mesh.indices.size());
    for (size_t k = 0; k < indices.size(); ++k) {
        if (mesh.indices[k] >= weld.remap.size()) return false;
        indices[k] = weld.remap[mesh.indices[k]];
    }
    const EdgeTable table = build_edge_table(indices, static_cast<uint32_t>(weld.unique_count()));
    for (uint32_t e = 0; e < table.edge_count(); ++e)
        if (table.face_count(e) != 2) return false;
    return table.edge_count() > 0;
}

/// A node (or mesh) named for a garment can carry the rigid piece that holds it: a curtain's node
/// with its rod, a flag's with its pole (import names a mesh's primitives "Curtain-0",
/// "Curtain-1", so each can be a name match of its own). A closed unskinned mesh of a name match is
/// a holder, not cloth, when an open mesh of a name match on the same node is cloth: it leaves the
/// candidates and is listed in that candidate's `holders`. A node of closed meshes only stays whole
/// (a hair shell is closed too; what it is, the sheet builder and growing decide).
std::vector<Candidate> separate_holders(const Scene& scene, std::vector<Candidate> candidates) {
    auto by_name = [](const Candidate& c) {
        return !c.not_garment && (c.matched_by == kMatchedByNode || c.matched_by == kMatchedByMesh);
    };
    std::vector<std::vector<char>> solid(candidates.size());
    for (size_t i = 0; i < candidates.size(); ++i)
        for (int m : candidates[i].meshes)
            solid[i].push_back(by_name(candidates[i]) && rigid_solid(scene.meshes[static_cast<size_t>(m)]));
    std::vector<Candidate> out;
    std::vector<int> kept(candidates.size(), -1);
    // The cloth: each name match's open meshes, and config/material matches whole.
    for (size_t i = 0; i < candidates.size(); ++i) {
        Candidate c = candidates[i];
        c.meshes.clear();
        for (size_t k = 0; k < candidates[i].meshes.size(); ++k)
            if (!solid[i][k]) c.meshes.push_back(candidates[i].meshes[k]);
        if (c.meshes.empty()) continue;
        kept[i] = static_cast<int>(out.size());
        out.push_back(std::move(c));
    }
    // The solids: to a kept name match on the same node, else back to their own match, whole.
    for (size_t i = 0; i < candidates.size(); ++i)
        for (size_t k = 0; k < candidates[i].meshes.size(); ++k) {
            if (!solid[i][k]) continue;
            const int m = candidates[i].meshes[k];
            const int node = scene.meshes[static_cast<size_t>(m)].node;
            Candidate* holder_of = nullptr;
            for (size_t j = 0; j < candidates.size() && !holder_of; ++j)
                if (kept[j] >= 0 && by_name(candidates[j]))
                    for (int cm : out[static_cast<size_t>(kept[j])].meshes)
                        if (scene.meshes[static_cast<size_t>(cm)].node == node) holder_of = &out[static_cast<size_t>(kept[j])];
            if (holder_of) {
                holder_of->holders.push_back(m);
                continue;
            }
            if (kept[i] < 0) {
                Candidate c = candidates[i];
                c.meshes.clear();
                kept[i] = static_cast<int>(out.size());
                out.push_back(std::move(c));
            }
            out[static_cast<size_t>(kept[i])].meshes.push_back(m);
        }
    // Candidates keep find_candidates' order (by their first mesh); meshes ascend within one.
    for (Candidate& c : out) {
        std::sort(c.meshes.begin(), c.meshes.end());
        std::sort(c.holders.begin(), c.holders.end());
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Candidate& a, const Candidate& b) { return a.meshes.front() < b.meshes.front(); });
    return out;
}

/// Geometry authored chains weight (or carry rigidly) that no name found: one garment per chain
/// class, each vertex going to the class of the chain joint that weights it most.
std::vector<Garment> chain_garments(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains,
                                    const std::vector<std::vector<char>>& taken) {
    std::vector<std::string> class_order;
    for (const Chain& c : chains)
        if (std::find(class_order.begin(), class_order.end(), c.class_name) == class_order.end())
            class_order.push_back(c.class_name);
    std::vector<Garment> result(class_order.size());
    for (size_t k = 0; k < class_order.size(); ++k) {
        result[k].class_name = class_order[k];
        result[k].matched_by = kMatchedByChain;
    }
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        std::vector<std::vector<uint32_t>> per_class(class_order.size());
        for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
            if (taken[m][v]) continue;
            int best_node = -1;
            double best_w = 0;
            for_each_weight(scene, rig, m, v, [&](int node, double w) {
                if (rig.in_chain(node) && (w > best_w || (w == best_w && node < best_node))) best_w = w, best_node = node;
            });
            if (best_node < 0) continue;
            const std::string& cls = chains[static_cast<size_t>(rig.node_chains[static_cast<size_t>(best_node)].front())].class_name;
            size_t k = static_cast<size_t>(std::find(class_order.begin(), class_order.end(), cls) - class_order.begin());
            per_class[k].push_back(v);
        }
        for (size_t k = 0; k < class_order.size(); ++k)
            if (!per_class[k].empty()) result[k].parts.push_back({static_cast<int>(m), std::move(per_class[k]), 0});
    }
    std::vector<Garment> garments;
    for (Garment& g : result) {
        if (g.parts.empty()) continue;
        fill_facts(scene, rig, chains, g);
        g.name = g.matched_name = g.chains.empty() ? g.class_name : chains[static_cast<size_t>(g.chains.front())].name;
        garments.push_back(std::move(g));
    }
    return garments;
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

/// Garments found by geometry (garment/geometry.h) in the material no name or chain took, for the
/// geometry classes nothing else found on a humanoid skeleton. One garment per class: the Witch's
/// skirt and its hem trim, on two materials, are one skirt.
void geometry_garments(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains,
                       std::vector<std::vector<char>>& taken, const GarmentOptions& options, double min_span,
                       ModelGarments& found) {
    const HumanoidBones bones = find_humanoid_bones(scene);
    if (!bones.humanoid()) return;
    const auto& classes = options.config.classes;
    std::vector<std::string> wanted;
    for (const std::string& c : geometry_classes()) {
        if (!class_selected(options.selected, c) || find_class(classes, c) < 0) continue;
        bool named = false;
        for (const Garment& g : found.garments) named = named || g.class_name == c;
        if (!named) wanted.push_back(c);
    }
    if (wanted.empty()) return;

    struct Found {
        std::map<int, std::vector<uint32_t>> vertices;  // mesh -> source vertices
        std::vector<std::string> materials;
        PieceClass best;
        size_t best_size = 0;
    };
    std::map<std::string, Found> by_class;
    std::vector<int> material_order;
    for (const Mesh& m : scene.meshes)
        if (std::find(material_order.begin(), material_order.end(), m.material) == material_order.end())
            material_order.push_back(m.material);
    for (int material : material_order) {
        Garment candidate;
        for (size_t m = 0; m < scene.meshes.size(); ++m) {
            const Mesh& mesh = scene.meshes[m];
            if (mesh.material != material || mesh.triangle_count() == 0) continue;
            GarmentPart part{static_cast<int>(m), {}, 0};
            for (uint32_t v = 0; v < mesh.positions.size(); ++v)
                if (!taken[m][v]) part.vertices.push_back(v);
            if (!part.vertices.empty()) candidate.parts.push_back(std::move(part));
        }
        if (candidate.parts.empty()) continue;
        const GarmentSurface surface = weld_garment(scene, candidate);
        std::vector<uint32_t> first_source(surface.welded_count(), UINT32_MAX);
        for (uint32_t v = 0; v < surface.source_count(); ++v)
            if (first_source[surface.welded[v]] == UINT32_MAX) first_source[surface.welded[v]] = v;
        auto weights_of = [&](uint32_t w) {
            std::vector<std::pair<int, double>> out;
            const uint32_t v = first_source[w];
            if (v == UINT32_MAX) return out;
            const size_t mesh = static_cast<size_t>(surface.part_mesh[surface.part_of(v)]);
            for_each_weight(scene, rig, mesh, surface.mesh_vertex[v], [&](int node, double wt) { out.push_back({node, wt}); });
            return out;
        };
        // Body-part groups a joined island is split along: legs and hips, the upper body, the head.
        auto group_of = [&](const std::vector<std::pair<int, double>>& ws) {
            std::array<double, 4> g{};
            for (const auto& [node, wt] : ws) {
                const BodyRegion r = bones.region[static_cast<size_t>(node)];
                const int k = r == BodyRegion::hips || r == BodyRegion::legs ? 0
                              : r == BodyRegion::head                      ? 2
                              : r == BodyRegion::other                     ? 3
                                                                           : 1;
                g[static_cast<size_t>(k)] += wt;
            }
            return static_cast<int>(std::max_element(g.begin(), g.end()) - g.begin());
        };
        for (const Clump& island : island_clumps(surface)) {
            std::vector<std::vector<std::pair<int, double>>> ws;
            std::array<std::vector<uint32_t>, 4> groups;
            for (uint32_t w : island.vertices) {
                ws.push_back(weights_of(w));
                groups[static_cast<size_t>(group_of(ws.back()))].push_back(w);
            }
            std::vector<std::vector<uint32_t>> pieces;
            size_t big = 0;
            for (const auto& g : groups) big += g.size() >= 0.15 * double(island.vertices.size());
            if (big >= 2) {
                for (auto& g : groups)
                    if (!g.empty()) pieces.push_back(std::move(g));
            } else {
                pieces.push_back(island.vertices);
            }
            for (const std::vector<uint32_t>& piece : pieces) {
                if (piece.size() < 12) continue;
                BodyPiece body;
                for (uint32_t w : piece) {
                    body.positions.push_back(surface.position[w]);
                    body.weights.push_back(weights_of(w));
                }
                PieceClass cls = classify_piece(bones, body, wanted);
                if (cls.class_name.empty()) continue;
                Found& f = by_class[cls.class_name];
                std::vector<char> in(surface.welded_count(), 0);
                for (uint32_t w : piece) in[w] = 1;
                for (uint32_t v = 0; v < surface.source_count(); ++v)
                    if (in[surface.welded[v]])
                        f.vertices[surface.part_mesh[surface.part_of(v)]].push_back(surface.mesh_vertex[v]);
                const std::string mat =
                    material >= 0 ? scene.materials[static_cast<size_t>(material)] : std::string("(no material)");
                if (std::find(f.materials.begin(), f.materials.end(), mat) == f.materials.end()) f.materials.push_back(mat);
                if (piece.size() > f.best_size) f.best_size = piece.size(), f.best = std::move(cls);
            }
        }
    }
    std::vector<const GarmentRule*> rules;
    for (const GarmentRule& r : options.config.rules)
        if (!r.geometry.empty() && rule_applies_to(r, scene.source_path)) rules.push_back(&r);
    for (const std::string& cls : geometry_classes()) {
        auto it = by_class.find(cls);
        if (it == by_class.end()) continue;
        Found& f = it->second;
        Garment g;
        g.class_name = g.geometry_class = cls;
        g.name = cls;
        g.matched_by = kMatchedByGeometry;
        for (size_t i = 0; i < f.materials.size(); ++i) g.matched_name += (i ? "+" : "") + f.materials[i];
        g.geometry_rule = f.best.rule;
        g.geometry_measurements = f.best.measurements;
        for (auto& [mesh, vs] : f.vertices) {
            std::sort(vs.begin(), vs.end());
            vs.erase(std::unique(vs.begin(), vs.end()), vs.end());
            g.parts.push_back({mesh, std::move(vs), 0});
        }
        fill_facts(scene, rig, chains, g);
        const GarmentRule* rule = nullptr;
        for (const GarmentRule* r : rules)
            if (r->geometry == cls) {
                rule = r;
                break;
            }
        if (rule) {
            g.rule_pointer = rule->pointer;
            g.rule_target = rule->target();
            g.fabric = rule->fabric;
            g.pin = rule->pin;
            g.repair = rule->repair;
            if (rule->class_name == kNotAGarment) {
                g.not_garment_reason = "config rule " + rule->pointer + " (" + g.rule_target + ") says it is not a garment";
            } else {
                g.class_name = rule->class_name;
                g.name = rule->class_name;
            }
        } else if (g.span < min_span) {
            g.not_garment_reason = "too small to simulate: its largest piece spans " + millimetres(g.span) +
                                   " (a garment needs " + millimetres(min_span) + ")";
        }
        admit_garment(std::move(g), taken, found);
    }
}

}  // namespace

std::string model_verdict(const Scene& scene, const ModelGarments& found, const std::vector<uint8_t>& moves) {
    std::string verdict;
    size_t by_name = 0, by_name_moving = 0, by_chain = 0, by_geometry = 0;
    for (size_t i = 0; i < found.garments.size(); ++i) {
        const Garment& g = found.garments[i];
        if (g.matched_by == kMatchedByGeometry) {
            ++by_geometry;
        } else if (g.matched_by == kMatchedByChain) {
            ++by_chain;
        } else {
            ++by_name;
            by_name_moving += i < moves.size() ? moves[i] != 0 : g.moves;
        }
    }
    if (by_name == 0) {
        verdict = "no garment found by slot (materials seen: ";
        for (size_t i = 0; i < scene.materials.size(); ++i) verdict += (i ? ", " : "") + scene.materials[i];
        verdict += scene.materials.empty() ? "none)" : ")";
    } else {
        verdict = std::to_string(by_name) + (by_name == 1 ? " garment" : " garments") + " found by name: " +
                  std::to_string(by_name_moving) + (by_name_moving == 1 ? " moves, " : " move, ") +
                  std::to_string(by_name - by_name_moving) + " will not move";
    }
    if (by_chain > 0)
        verdict += "; " + std::to_string(by_chain) + (by_chain == 1 ? " garment moves" : " garments move") +
                   " on authored chains";
    if (by_geometry > 0) {
        verdict += "; " + std::to_string(by_geometry) + " found by geometry (";
        size_t k = 0;
        for (const Garment& g : found.garments)
            if (g.matched_by == kMatchedByGeometry) verdict += (k++ ? ", " : "") + g.class_name;
        verdict += ")";
    }
    if (!found.not_garments.empty())
        verdict += "; " + std::to_string(found.not_garments.size()) +
                   (found.not_garments.size() == 1 ? " name match is" : " name matches are") + " not a garment";
    return verdict;
}

ModelGarments find_garments(const Scene& scene, const GarmentOptions& options) {
    ModelGarments found;
    found.chains = find_chains(scene, {options.config.classes, options.selected});
    const Rig rig = make_rig(scene, found.chains);
    const double min_span = options.config.min_garment_span.value_or(kDefaultMinGarmentSpan);

    std::vector<std::vector<char>> taken(scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) taken[m].assign(scene.meshes[m].positions.size(), 0);

    for (Candidate& c : separate_holders(scene, find_candidates(scene, options))) {
        Garment g;
        g.name = c.matched_name;
        g.class_name = c.class_name;
        g.matched_by = c.matched_by;
        g.matched_name = c.matched_name;
        g.rule_pointer = c.rule_pointer;
        g.rule_target = c.rule_target;
        g.fabric = c.fabric;
        g.pin = c.pin;
        g.repair = c.repair;
        g.holders = c.holders;
        for (int m : c.meshes) {
            GarmentPart part{m, std::vector<uint32_t>(scene.meshes[static_cast<size_t>(m)].positions.size()), 0};
            std::iota(part.vertices.begin(), part.vertices.end(), 0u);
            g.parts.push_back(std::move(part));
        }
        fill_facts(scene, rig, found.chains, g);
        if (c.not_garment) {
            g.not_garment_reason = "config rule " + c.rule_pointer + " (" + c.rule_target + ") says it is not a garment";
        } else if (c.matched_by != kMatchedByConfig && g.span < min_span) {
            g.not_garment_reason = "too small to simulate: its largest piece spans " + millimetres(g.span) +
                                   " (a garment needs " + millimetres(min_span) + ")";
        }
        if (admit_garment(std::move(g), taken, found)) found.found_by_name = true;
    }
    for (Garment& g : chain_garments(scene, rig, found.chains, taken)) admit_garment(std::move(g), taken, found);
    geometry_garments(scene, rig, found.chains, taken, options, min_span, found);

    // What each chain weights or carries, counted over every mesh.
    found.chain_vertices.assign(found.chains.size(), 0);
    std::vector<char> touched(found.chains.size());
    for (size_t m = 0; m < scene.meshes.size() && !found.chains.empty(); ++m)
        for (uint32_t v = 0; v < scene.meshes[m].positions.size(); ++v) {
            std::fill(touched.begin(), touched.end(), 0);
            for_each_weight(scene, rig, m, v, [&](int node, double) {
                for (int c : rig.node_chains[static_cast<size_t>(node)]) touched[static_cast<size_t>(c)] = 1;
            });
            for (size_t c = 0; c < touched.size(); ++c) found.chain_vertices[c] += touched[c];
        }
    found.verdict = model_verdict(scene, found);
    return found;
}

}  // namespace weft
