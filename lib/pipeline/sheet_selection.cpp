// The garment → sheet rule, weft sheet's selection and one sheet's build.
#include "pipeline/sheet_selection.h"

#include <cmath>
#include <set>

#include "io/format_text.h"

#include "garment/classes.h"
#include "pipeline/budgets.h"
#include "pipeline/pipeline_codes.h"
#include "proxy/sheet_codes.h"

namespace weft {

SheetSelection sheet_selection(const Garment& g, const ModelGarments& found) {
    SheetSelection s;
    s.garment.name = g.name;
    s.garment.garment_class = g.class_name;
    s.matched_by = "garment";
    s.fabric = g.fabric;
    s.pin = g.pin;
    s.repair = g.repair;
    for (const GarmentPart& part : g.parts) {
        s.garment.meshes.push_back(part.mesh);
        s.garment.vertices.push_back(part.vertices);  // a part of a mesh: cloth found by geometry, a name match's cloth without its pole
    }
    std::set<int> bones;
    for (int c : g.chains)
        if (c >= 0 && static_cast<size_t>(c) < found.chains.size())
            bones.insert(found.chains[c].joints.begin(), found.chains[c].joints.end());
    s.garment.garment_bones.assign(bones.begin(), bones.end());
    if (g.matched_by == kMatchedByChain)
        s.skip_reason = "found by its authored chains, not by name: a rig garment (its joints are the particles), "
                        "not a sheet";
    return s;
}

namespace {

/// Why the garment's sheet is past a budget (pipeline/budgets.h) before anything is built, or "".
const IssueCode* over_budget(const Scene& scene, const SheetSelection& s, const SheetOptions& options, std::string& why) {
    size_t triangles = 0;
    double area = 0;
    for (int m : s.garment.meshes) {
        if (m < 0 || static_cast<size_t>(m) >= scene.meshes.size()) continue;
        const Mesh& mesh = scene.meshes[static_cast<size_t>(m)];
        triangles += mesh.triangle_count();
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            const uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
            if (a < mesh.positions.size() && b < mesh.positions.size() && c < mesh.positions.size())
                area += 0.5 * length(cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]));
        }
    }
    if (triangles > kMaxSheetTriangles) {
        why = "its meshes have " + std::to_string(triangles) + " triangles, over the budget of " +
              std::to_string(kMaxSheetTriangles) + " for one sheet; split the garment or simplify its mesh";
        return &kGarmentOverBudget;
    }
    // An equilateral mesh of edge L has about 1.155 area / L² particles (sheet_builder.h).
    double particles = 0;
    if (options.resolution == SheetResolution::particles) particles = options.resolution_value;
    if (options.resolution == SheetResolution::edge_length && options.resolution_value > 0)
        particles = 2 / std::sqrt(3.0) * area / (options.resolution_value * options.resolution_value);
    if (particles > kMaxSheetParticles) {
        why = "its resolution " + resolution_text(options) + " asks for about " + format_text("%.3g", particles) +
              " particles, over the budget of " + format_text("%g", kMaxSheetParticles) + "; choose a coarser resolution";
        return &kParticlesOverBudget;
    }
    return nullptr;
}

}  // namespace

SheetBuildResult build_selected_sheet(const Scene& scene, const SheetSelection& s, SheetOptions options, bool pin_given,
                                      const std::string& model_label) {
    if (!s.fabric.empty()) options.fabric = s.fabric;
    options.max_particles = static_cast<uint32_t>(kMaxSheetParticles);  // particles:N is resampled within it
    if (s.repair) options.repair = true;
    if (!pin_given && !s.pin.is_null()) {
        if (std::string why = apply_pin_json(s.pin, options); !why.empty()) {
            SheetBuildResult refused;
            refused.issues.push_back(
                make_issue(kBadOption, model_label + ": garment '" + s.garment.name + "': the config's pin: " + why));
            return refused;
        }
    }
    std::string why;
    if (const IssueCode* code = over_budget(scene, s, options, why)) {
        SheetBuildResult refused;
        refused.issues.push_back(make_issue(*code, model_label + ": garment '" + s.garment.name + "': " + why));
        return refused;
    }
    SheetBuildResult built = build_sheet(scene, s.garment, options);
    if (built.proxy && built.proxy->particle_count() > kMaxSheetParticles) {
        built.issues.push_back(make_issue(kParticlesOverBudget, model_label + ": garment '" + s.garment.name + "': its sheet has " +
                                                                    std::to_string(built.proxy->particle_count()) +
                                                                    " particles (resolution " + resolution_text(options) +
                                                                    "), over the budget of " + format_text("%g", kMaxSheetParticles) +
                                                                    "; choose a coarser resolution"));
        built.proxy.reset();
    }
    fold_repeated_issues(built.issues);
    return built;
}

namespace {

std::string class_of_name(const std::string& name, const std::vector<GarmentClass>& classes) {
    const int c = classify_name(name, classes);
    return c >= 0 ? classes[c].name : "sheet";
}

/// One sheet from every mesh with the material, or with the mesh or node name, `name`.
std::vector<SheetSelection> select_by_mesh(const Scene& scene, bool by_material, const std::string& name,
                                           const GarmentOptions& garments, std::string& error) {
    SheetSelection s;
    s.garment.name = name;
    s.garment.garment_class = class_of_name(name, garments.config.classes);
    s.matched_by = by_material ? "material" : "mesh";
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        const bool hit = by_material ? (mesh.material >= 0 && scene.materials[mesh.material] == name)
                                     : (mesh.name == name || mesh.node_name == name);
        if (hit) s.garment.meshes.push_back(static_cast<int>(m));
    }
    if (s.garment.meshes.empty()) {
        error = std::string("no ") + (by_material ? "material" : "mesh or node") + " is called '" + name + "'";
        return {};
    }
    return {std::move(s)};
}

}  // namespace

std::vector<SheetSelection> select_sheets(const Scene& scene, const ModelGarments& found, const SheetOnlyOptions& o,
                                          const GarmentOptions& garments, std::string& error) {
    if (!o.material.empty()) return select_by_mesh(scene, true, o.material, garments, error);
    if (!o.mesh.empty()) return select_by_mesh(scene, false, o.mesh, garments, error);
    std::vector<SheetSelection> out;
    for (const Garment& g : found.garments) {
        if (!o.garment.empty() && g.name != o.garment) continue;
        out.push_back(sheet_selection(g, found));
    }
    if (out.empty()) {
        if (!o.garment.empty()) {
            error = "no garment is called '" + o.garment + "'";
            if (!found.garments.empty()) {
                error += " (found:";
                for (const Garment& g : found.garments) error += " '" + g.name + "'";
                error += ")";
            }
        } else {
            error = "no garment found by name (" + found.verdict + "); name the cloth with --material NAME or --mesh NAME";
        }
    }
    return out;
}

}  // namespace weft
