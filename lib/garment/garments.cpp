#include "garment/garments.h"

#include "garment/chain_root.h"
#include "garment/garment_facts.h"
#include "garment/hair_on_head.h"
#include "garment/prop_sheets.h"
#include "garment/sewn_in.h"
#include "garment/tail_body.h"
#include "garment/tail_shape.h"
#include "geom/topology.h"
#include "geom/weld.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <iterator>
#include <numeric>

namespace weft {

using namespace garment_detail;

namespace {

/// The least length of a tail's chain, as a share of the body's length: the tails that swing
/// measured 0.27 (the Cow's) to 0.50 (the Rat's), a stub (the Stag's) 0.09 and a tail curled tight
/// over the back (the Shiba's) 0.11.
constexpr double kStubTail = 1.0 / 6.0;

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

/// The name a mesh match goes by: the file's own mesh name. Import names each primitive of a glTF mesh
/// with several "<mesh>-<k>" (one per material); an unskinned mesh's primitives are one match under
/// the mesh's name, so a sail and the yard modelled in its mesh are one garment the prop cut splits
/// (garment/prop_sheets.h) rather than a sail with a border where the yard was.
std::string source_mesh_name(const Scene& scene, size_t m) {
    const Mesh& mesh = scene.meshes[m];
    if (is_skinned(mesh) || mesh.source_mesh < 0) return mesh.name;
    bool siblings = false;
    for (size_t k = 0; k < scene.meshes.size() && !siblings; ++k)
        siblings = k != m && scene.meshes[k].source_mesh == mesh.source_mesh && scene.meshes[k].node == mesh.node;
    const size_t dash = mesh.name.rfind('-');
    if (!siblings || dash == std::string::npos || dash + 1 == mesh.name.size() ||
        mesh.name.find_first_not_of("0123456789", dash + 1) != std::string::npos)
        return mesh.name;
    return mesh.name.substr(0, dash);
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
        const std::string mesh_name = source_mesh_name(scene, i);
        const std::pair<const char*, const std::string*> names[] = {
            {kMatchedByMaterial, &material}, {kMatchedByMesh, &mesh_name}, {kMatchedByNode, &mesh.node_name}};
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

/// A name match on static meshes (unskinned, riding no bone) keeps only its sheet: the regions the
/// prop cut (garment/prop_sheets.h) finds rigid, a pole or a frame modelled in the banner's mesh,
/// leave it and hold it where it touches them. A match with no sheet region stays whole (its name
/// says cloth; the sheet builder holds its closed solids); whether it is a solid and no cloth at
/// all: every piece of it closed, none thin.
bool leave_rigid_out(const Scene& scene, const Rig& rig, Garment& g) {
    if (g.matched_by == kMatchedByConfig || g.parts.empty()) return false;
    std::map<int, std::vector<uint32_t>> parts;
    for (const GarmentPart& part : g.parts) {
        const size_t m = static_cast<size_t>(part.mesh);
        if (is_skinned(scene.meshes[m]) || rig.mesh_holder[m] >= 0) return false;
        parts[part.mesh] = part.vertices;
    }
    const NameMatchCut cut = cut_name_match(scene, parts);
    if (!cut.sheet) return cut.all_closed;
    for (GarmentPart& part : g.parts) {
        auto it = cut.rigid.find(part.mesh);
        if (it == cut.rigid.end()) continue;
        std::vector<uint32_t> kept;
        std::set_difference(part.vertices.begin(), part.vertices.end(), it->second.begin(), it->second.end(),
                            std::back_inserter(kept));
        part.vertices = std::move(kept);
    }
    std::erase_if(g.parts, [](const GarmentPart& part) { return part.vertices.empty(); });
    return false;
}

/// Why a tail on an authored chain is a stub rather than a garment, or "" when it is not one: its
/// chain is shorter than kStubTail of the body's length (the longest side of the skinned meshes'
/// bounds). A stub or a tail curled tight over the back has no room to swing.
std::string stub_tail_reason(const Scene& scene, const std::vector<Chain>& chains, const Garment& g) {
    Bounds body;
    for (const Mesh& mesh : scene.meshes)
        if (is_skinned(mesh))
            for (const Vec3& p : mesh.positions)
                if (is_finite(p)) body.add(p);
    const Vec3 extent = body.max - body.min;
    const double length = std::max({extent.x, extent.y, extent.z});
    double chain = 0;
    for (int c : g.chains) chain = std::max(chain, chains[static_cast<size_t>(c)].length);
    if (g.chains.empty() || !(length > 0) || chain >= kStubTail * length) return "";
    char share[32];
    std::snprintf(share, sizeof share, "%.2f", chain / length);
    return "a stub, not a tail that swings: its chain is " + millimetres(chain) + " long, " + share +
           " of the body's " + millimetres(length) + " (a tail needs 1/6; docs/garments-by-geometry.md#tails)";
}

/// Whether a config rule applying to the model names `joint` (a chain's root) as a tail: the user
/// has said it swings, whatever it measures (docs/config.md).
bool named_a_tail(const Scene& scene, const GarmentConfig& config, const std::string& joint) {
    for (const GarmentRule& r : config.rules)
        if (r.node == joint && r.class_name == "tail" && rule_applies_to(r, scene.source_path)) return true;
    return false;
}

/// Whether a config rule applying to the model says the node `joint` is no garment
/// (`{"node": "Bone.004", "class": "none"}`): a tail found by shape the user rejects.
bool config_says_none(const Scene& scene, const GarmentConfig& config, const std::string& joint) {
    for (const GarmentRule& r : config.rules)
        if (r.node == joint && r.class_name == kNotAGarment && rule_applies_to(r, scene.source_path)) return true;
    return false;
}

/// Why a tail found on authored chains is not a garment, or "": a stub, or the body
/// (garment/tail_body.h) unless a config rule names its chain. Measured on its longest chain.
/// Both on the chains as authored (a root left to the animation is still the tail's).
void judge_chain_tail(const Scene& scene, const std::vector<Chain>& found_chains, const GarmentConfig& config, Garment& g) {
    std::vector<Chain> chains;
    for (const Chain& c : found_chains) chains.push_back(as_authored(scene, c));
    g.not_garment_reason = stub_tail_reason(scene, chains, g);
    if (!g.not_garment_reason.empty() || g.chains.empty()) return;
    const Chain* longest = nullptr;
    for (int c : g.chains)
        if (!longest || chains[static_cast<size_t>(c)].length > longest->length) longest = &chains[static_cast<size_t>(c)];
    if (named_a_tail(scene, config, longest->name)) return;
    g.not_garment_reason = tail_is_body_reason(scene, *longest);
    if (!g.not_garment_reason.empty()) g.not_garment_rule = kTailIsBodyRule;
}

/// Geometry authored chains weight (or carry rigidly) that no name found: one garment per chain
/// class, each vertex going to the class of the chain joint that weights it most.
std::vector<Garment> chain_garments(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains,
                                    const std::vector<std::vector<char>>& taken, const GarmentConfig& config) {
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
        if (g.class_name == "tail") judge_chain_tail(scene, chains, config, g);
        garments.push_back(std::move(g));
    }
    return garments;
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
    // A stub or a tail that is the body was found on authored chains, not by a name.
    size_t on_chains = 0;
    for (const Garment& g : found.not_garments) on_chains += g.matched_by == kMatchedByChain;
    const size_t by_names = found.not_garments.size() - on_chains;
    if (by_names > 0)
        verdict += "; " + std::to_string(by_names) + (by_names == 1 ? " name match is" : " name matches are") + " not a garment";
    if (on_chains > 0)
        verdict += "; " + std::to_string(on_chains) + (on_chains == 1 ? " garment" : " garments") +
                   " on authored chains " + (on_chains == 1 ? "is" : "are") + " not one (a stub, or the body)";
    return verdict;
}

ModelGarments find_garments(const Scene& scene, const GarmentOptions& options) {
    ModelGarments found;
    found.chains = find_chains(scene, {options.config.classes, options.selected});
    if (class_selected(options.selected, "tail"))
        if (std::optional<Chain> tail = find_tail_by_shape(scene, found.chains);
            tail && !config_says_none(scene, options.config, tail->name))
            found.chains.push_back(std::move(*tail));
    leave_heavy_roots_to_animation(scene, found.chains);
    const Rig rig = make_rig(scene, found.chains);
    const double min_span = options.config.min_garment_span.value_or(kDefaultMinGarmentSpan);
    const HumanoidBones bones = find_humanoid_bones(scene);

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
        const bool solid = leave_rigid_out(scene, rig, g);
        fill_facts(scene, rig, found.chains, g);
        if (solid) {
            g.not_garment_reason = "a solid, not cloth: every piece of it is closed and none is thin for its width "
                                   "(docs/garments-by-geometry.md#cloth-on-props)";
        } else if (c.not_garment) {
            g.not_garment_reason = "config rule " + c.rule_pointer + " (" + c.rule_target + ") says it is not a garment";
        } else if (c.matched_by != kMatchedByConfig && g.span < min_span) {
            g.not_garment_reason = "too small to simulate: its largest piece spans " + millimetres(g.span) +
                                   " (a garment needs " + millimetres(min_span) + ")";
        } else if (c.matched_by != kMatchedByConfig && !g.moves) {
            g.not_garment_reason = sewn_in_reason(measure_sewn_in(scene, g), g.span);
        }
        judge_hair_on_head(scene, bones, g);
        if (admit_garment(std::move(g), taken, found)) found.found_by_name = true;
    }
    for (Garment& g : chain_garments(scene, rig, found.chains, taken, options.config)) admit_garment(std::move(g), taken, found);
    body_garments(scene, rig, found.chains, taken, options, min_span, found);
    prop_garments(scene, rig, found.chains, taken, options, min_span, found);

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
