// Garments found by geometry (docs/garments-by-geometry.md): on a humanoid's body
// (garment/geometry.h) and on a prop's static meshes (garment/prop_sheets.h).
#include <array>
#include <map>

#include "garment/clumps.h"
#include "garment/garment_facts.h"
#include "garment/geometry.h"
#include "garment/hair_on_head.h"
#include "garment/prop_sheets.h"
#include "garment/sewn_in.h"

namespace weft::garment_detail {

namespace {

/// The classes of `candidates` selected, configured, and not already found by a name or a chain.
std::vector<std::string> wanted_classes(const std::vector<std::string>& candidates, const GarmentOptions& options,
                                        const ModelGarments& found) {
    std::vector<std::string> wanted;
    for (const std::string& c : candidates) {
        if (!class_selected(options.selected, c) || find_class(options.config.classes, c) < 0) continue;
        bool named = false;
        for (const Garment& g : found.garments) named = named || g.class_name == c;
        if (!named) wanted.push_back(c);
    }
    return wanted;
}

/// What the body's rules found of one class, over every material.
struct BodyFound {
    std::map<int, std::vector<uint32_t>> vertices;  // mesh -> source vertices
    std::vector<std::string> materials;
    PieceClass best;
    size_t best_size = 0;
};

/// Body-part groups a joined island is split along: legs and hips, the upper body, the head, the rest.
int body_group(const HumanoidBones& bones, const std::vector<std::pair<int, double>>& weights) {
    std::array<double, 4> g{};
    for (const auto& [node, wt] : weights) {
        const BodyRegion r = bones.region[static_cast<size_t>(node)];
        const int k = r == BodyRegion::hips || r == BodyRegion::legs ? 0
                      : r == BodyRegion::head                      ? 2
                      : r == BodyRegion::other                     ? 3
                                                                   : 1;
        g[static_cast<size_t>(k)] += wt;
    }
    return static_cast<int>(std::max_element(g.begin(), g.end()) - g.begin());
}

/// One material's free vertices as a candidate garment (every mesh of that material).
Garment material_candidate(const Scene& scene, int material, const std::vector<std::vector<char>>& taken) {
    Garment candidate;
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        if (mesh.material != material || mesh.triangle_count() == 0) continue;
        GarmentPart part{static_cast<int>(m), {}, 0};
        for (uint32_t v = 0; v < mesh.positions.size(); ++v)
            if (!taken[m][v]) part.vertices.push_back(v);
        if (!part.vertices.empty()) candidate.parts.push_back(std::move(part));
    }
    return candidate;
}

/// Classifies one material's pieces (islands, split by body part where an island spans several)
/// against the skeleton, adding what each class took to `by_class`.
void classify_material(const Scene& scene, const Rig& rig, const HumanoidBones& bones, int material,
                       const std::vector<std::vector<char>>& taken, const std::vector<std::string>& wanted,
                       std::map<std::string, BodyFound>& by_class) {
    const Garment candidate = material_candidate(scene, material, taken);
    if (candidate.parts.empty()) return;
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
    const std::string material_name =
        material >= 0 ? scene.materials[static_cast<size_t>(material)] : std::string("(no material)");
    for (const Clump& island : island_clumps(surface)) {
        std::array<std::vector<uint32_t>, 4> groups;
        for (uint32_t w : island.vertices) groups[static_cast<size_t>(body_group(bones, weights_of(w)))].push_back(w);
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
            std::vector<uint32_t> local(surface.welded_count(), UINT32_MAX);
            for (uint32_t w : piece) {
                local[w] = static_cast<uint32_t>(body.positions.size());
                body.positions.push_back(surface.position[w]);
                body.weights.push_back(weights_of(w));
            }
            for (size_t t = 0; t + 2 < surface.triangles.size(); t += 3) {
                const uint32_t a = local[surface.triangles[t]], b = local[surface.triangles[t + 1]],
                               c = local[surface.triangles[t + 2]];
                if (a != UINT32_MAX && b != UINT32_MAX && c != UINT32_MAX) body.triangles.insert(body.triangles.end(), {a, b, c});
            }
            PieceClass cls = classify_piece(bones, body, wanted);
            if (cls.class_name.empty()) continue;
            BodyFound& f = by_class[cls.class_name];
            std::vector<char> in(surface.welded_count(), 0);
            for (uint32_t w : piece) in[w] = 1;
            for (uint32_t v = 0; v < surface.source_count(); ++v)
                if (in[surface.welded[v]]) f.vertices[surface.part_mesh[surface.part_of(v)]].push_back(surface.mesh_vertex[v]);
            if (std::find(f.materials.begin(), f.materials.end(), material_name) == f.materials.end())
                f.materials.push_back(material_name);
            if (piece.size() > f.best_size) f.best_size = piece.size(), f.best = std::move(cls);
        }
    }
}

/// A garment of `vertices` found by geometry as `cls`, its facts filled.
Garment geometry_garment(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains, const std::string& cls,
                         std::map<int, std::vector<uint32_t>>& vertices, const std::vector<std::string>& materials,
                         std::string rule, std::vector<std::pair<std::string, double>> measurements) {
    Garment g;
    g.class_name = g.geometry_class = cls;
    g.name = cls;
    g.matched_by = kMatchedByGeometry;
    for (size_t i = 0; i < materials.size(); ++i) g.matched_name += (i ? "+" : "") + materials[i];
    g.geometry_rule = std::move(rule);
    g.geometry_measurements = std::move(measurements);
    for (auto& [mesh, vs] : vertices) {
        std::sort(vs.begin(), vs.end());
        vs.erase(std::unique(vs.begin(), vs.end()), vs.end());
        g.parts.push_back({mesh, std::move(vs), 0});
    }
    fill_facts(scene, rig, chains, g);
    return g;
}

}  // namespace

void apply_geometry_rule(const Scene& scene, const GarmentOptions& options, double min_span, Garment& g) {
    const GarmentRule* rule = nullptr;
    for (const GarmentRule& r : options.config.rules)
        if (r.geometry == g.geometry_class && rule_applies_to(r, scene.source_path)) {
            rule = &r;
            break;
        }
    if (!rule) {
        if (g.span < min_span)
            g.not_garment_reason = "too small to simulate: its largest piece spans " + millimetres(g.span) +
                                   " (a garment needs " + millimetres(min_span) + ")";
        return;
    }
    g.rule_pointer = rule->pointer;
    g.rule_target = rule->target();
    g.fabric = rule->fabric;
    g.pin = rule->pin;
    g.repair = rule->repair;
    if (rule->class_name == kNotAGarment) {
        g.not_garment_reason = "config rule " + rule->pointer + " (" + g.rule_target + ") says it is not a garment";
    } else {
        if (g.name == g.class_name) g.name = rule->class_name;
        g.class_name = rule->class_name;
    }
}

void body_garments(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains,
                   std::vector<std::vector<char>>& taken, const GarmentOptions& options, double min_span,
                   ModelGarments& found) {
    const HumanoidBones bones = find_humanoid_bones(scene);
    if (!bones.humanoid()) return;
    const std::vector<std::string> wanted = wanted_classes(geometry_classes(), options, found);
    if (wanted.empty()) return;
    std::map<std::string, BodyFound> by_class;
    std::vector<int> material_order;
    for (const Mesh& m : scene.meshes)
        if (std::find(material_order.begin(), material_order.end(), m.material) == material_order.end())
            material_order.push_back(m.material);
    for (int material : material_order) classify_material(scene, rig, bones, material, taken, wanted, by_class);
    // One garment per class: the Witch's skirt and its hem trim, on two materials, are one skirt.
    for (const std::string& cls : geometry_classes()) {
        auto it = by_class.find(cls);
        if (it == by_class.end()) continue;
        BodyFound& f = it->second;
        Garment g = geometry_garment(scene, rig, chains, cls, f.vertices, f.materials, f.best.rule, f.best.measurements);
        apply_geometry_rule(scene, options, min_span, g);
        if (g.rule_pointer.empty() && g.not_garment_reason.empty())
            g.not_garment_reason = sewn_in_reason(measure_sewn_in(scene, g), g.span);
        judge_hair_on_head(scene, bones, g);
        admit_garment(std::move(g), taken, found);
    }
}

void prop_garments(const Scene& scene, const Rig& rig, const std::vector<Chain>& chains,
                   std::vector<std::vector<char>>& taken, const GarmentOptions& options, double min_span,
                   ModelGarments& found) {
    // A class a name found is still looked for on other nodes: a model named for its flag
    // (Kenney's flagBlueWide) is matched on its root's mesh, pole and finial, while the cloth is a
    // child node's. Only a piece on a node where a name found its class is left to that name.
    const std::vector<std::string> wanted = wanted_classes(prop_sheet_classes(), options, ModelGarments{});
    if (wanted.empty()) return;
    std::vector<std::pair<int, std::string>> named;
    for (const Garment& g : found.garments)
        for (const GarmentPart& part : g.parts) named.push_back({scene.meshes[static_cast<size_t>(part.mesh)].node, g.class_name});
    StaticSurfaceInput input;
    input.vertex_taken = taken;
    input.mesh_static.resize(scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        input.mesh_static[m] = !is_skinned(scene.meshes[m]) && rig.mesh_holder[m] < 0;
    // One garment per class per node: the two sails of one mast are one garment, its flag another.
    std::vector<PropSheet> sheets = find_prop_sheets(scene, input, wanted);
    std::erase_if(sheets, [&](const PropSheet& s) {
        return std::find(named.begin(), named.end(), std::pair{s.node, s.class_name}) != named.end();
    });
    std::vector<std::pair<int, std::string>> keys;
    for (const PropSheet& s : sheets)
        if (std::find(keys.begin(), keys.end(), std::pair{s.node, s.class_name}) == keys.end()) keys.push_back({s.node, s.class_name});
    for (const auto& [node, cls] : keys) {
        std::map<int, std::vector<uint32_t>> vertices;
        std::vector<std::string> materials;
        const PropSheet* first = nullptr;
        for (const PropSheet& s : sheets) {
            if (s.node != node || s.class_name != cls) continue;
            if (!first) first = &s;
            for (const auto& [m, vs] : s.vertices) vertices[m].insert(vertices[m].end(), vs.begin(), vs.end());
            for (const std::string& mat : s.materials)
                if (std::find(materials.begin(), materials.end(), mat) == materials.end()) materials.push_back(mat);
        }
        Garment g = geometry_garment(scene, rig, chains, cls, vertices, materials, first->rule, first->measurements);
        // Named after its node where the node has no other: a person finds "Front Sail" in the model.
        const std::string node_name = has_node(scene, node) ? scene.nodes[static_cast<size_t>(node)].name : std::string();
        size_t on_node = 0;
        for (const auto& k : keys) on_node += k.first == node;
        g.name = node_name.empty() ? cls : on_node == 1 ? node_name : node_name + "-" + cls;
        auto taken_name = [&](const std::string& name) {
            for (const Garment& other : found.garments)
                if (other.name == name) return true;
            return false;
        };
        if (taken_name(g.name)) g.name += "-" + cls;
        const std::string base = g.name;
        for (int k = 2; taken_name(g.name); ++k) g.name = base + "-" + std::to_string(k);
        apply_geometry_rule(scene, options, min_span, g);
        admit_garment(std::move(g), taken, found);
    }
}

}  // namespace weft::garment_detail
