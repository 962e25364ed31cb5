#include "grow/plan.h"

#include <algorithm>

#include "scene/hierarchy.h"

namespace weft {

namespace {

std::string node_name_of(const Scene& scene, int node) {
    return has_node(scene, node) ? scene.nodes[static_cast<size_t>(node)].name : std::string("?");
}

}  // namespace

bool grown_class(const std::string& class_name) { return class_name == "hair" || class_name == "skirt"; }

std::vector<GarmentPlan> plan_garments(const Scene& scene, const ModelGarments& found, const PlanOptions& options,
                                       const GrowResult* grown) {
    std::vector<GarmentPlan> plans(found.garments.size());
    for (size_t i = 0; i < found.garments.size(); ++i) {
        const Garment& g = found.garments[i];
        GarmentPlan& p = plans[i];
        if (g.moves) {
            p.action = "authored";
            p.verdict = "moves on " + std::to_string(g.chains.size()) + " authored chain" + (g.chains.size() == 1 ? "" : "s");
            continue;
        }
        if (!g.stays_reason.empty()) {
            // Found automatically and judged not cloth (hair lying on the head): neither grown nor a sheet.
            p.action = "stays";
            p.held_by = g.body_bone;
            p.verdict = "will not move: " + g.stays_reason;
            continue;
        }
        const GrownGarment* gg = nullptr;
        if (options.grow && grown)
            for (const GrownGarment& candidate : grown->garments)
                if (candidate.garment == static_cast<int>(i)) gg = &candidate;
        if (gg && !gg->chains.empty()) {
            size_t bones = 0;
            std::vector<std::string> roots;
            for (int c : gg->chains) {
                const GrownChain& chain = grown->chains[static_cast<size_t>(c)];
                bones += chain.joints.size();
                const std::string root = node_name_of(scene, chain.body_bone);
                if (std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(root);
            }
            std::string from;
            for (size_t k = 0; k < roots.size(); ++k) from += (k ? ", " : "") + roots[k];
            p.action = "grown";
            p.verdict = "moves: grown, " + std::to_string(gg->chains.size()) + " chains of " + std::to_string(bones) +
                        " bones rooted on " + from;
            continue;
        }
        const std::string welded = g.body_bone >= 0 ? "welded to " + node_name_of(scene, g.body_bone)
                                                    : "a static mesh, no bones";
        if (!options.sheets) {
            p.action = "stays";
            p.held_by = g.body_bone;
            p.verdict = "will not move: " + welded + (gg ? " (" + gg->outcome + ")" : "");
            continue;
        }
        if (options.grow && g.class_name == "hair") {
            // A hair shell is closed, non-manifold or inconsistently wound as often as not: the
            // sheet builder refuses it, and a sheet would not be how hair moves anyway.
            p.action = "stays";
            p.held_by = g.body_bone;
            p.verdict = "will not move: " + (gg ? gg->outcome : std::string("its class is not grown")) +
                        "; hair is not built as a sheet, it stays " + welded;
            continue;
        }
        p.action = "sheet";
        p.held_by = g.body_bone;
        // A static mesh has no bone to hold it: the sheet builder holds it where it touches rigid
        // geometry of its model (docs/proxy.md#pins), and refuses it when nothing does.
        p.verdict = g.body_bone >= 0 ? "moves as a sheet held by " + node_name_of(scene, g.body_bone)
                    : g.pin.is_null()
                        ? "moves as a sheet held where it touches rigid geometry of its model (a static mesh, no "
                          "bones; refused if nothing touches it: give it a config rule's \"pin\")"
                        : "moves as a sheet hung by its config pin (a static mesh, no bones)";
    }
    return plans;
}

std::string planned_verdict(const Scene& scene, const ModelGarments& found, const std::vector<GarmentPlan>& plans) {
    std::vector<uint8_t> moves;
    for (const GarmentPlan& plan : plans) moves.push_back(plan.moves());
    return model_verdict(scene, found, moves);
}

}  // namespace weft
