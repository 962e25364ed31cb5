#include "pipeline/config_rules.h"

#include <algorithm>
#include <filesystem>

namespace weft {
namespace {

/// "Flag, Pole" (at most eight, then how many more): what a rule could have named instead.
std::string rule_alternatives(std::vector<std::string> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    names.erase(std::remove(names.begin(), names.end(), std::string()), names.end());
    if (names.empty()) return "none";
    constexpr size_t kShown = 8;
    std::string text;
    for (size_t i = 0; i < names.size() && i < kShown; ++i) text += (i ? ", " : "") + names[i];
    if (names.size() > kShown) text += ", and " + std::to_string(names.size() - kShown) + " more";
    return text;
}

}  // namespace

std::vector<std::string> rules_naming_nothing(const Scene& scene, const GarmentConfig& config) {
    std::vector<std::string> meshes, nodes;
    for (const Mesh& m : scene.meshes) meshes.push_back(m.name);
    for (const Node& n : scene.nodes) nodes.push_back(n.name);  // joints too: a tail rule names its root joint
    const auto has = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    const std::string file = std::filesystem::path(config.path).filename().string();
    std::vector<std::string> messages;
    for (const GarmentRule& r : config.rules) {
        if (r.file.empty() || !rule_applies_to(r, scene.source_path)) continue;
        std::string kind, seen;
        if (!r.material.empty() && !has(scene.materials, r.material))
            kind = "materials", seen = rule_alternatives(scene.materials);
        else if (!r.mesh.empty() && !has(meshes, r.mesh))
            kind = "meshes", seen = rule_alternatives(meshes);
        else if (!r.node.empty() && !has(nodes, r.node))
            kind = "nodes", seen = rule_alternatives(nodes);
        if (kind.empty()) continue;
        messages.push_back(scene.source_path + ": " + file + " " + r.pointer + " (file \"" + r.file + "\", " + r.target() +
                           ") names nothing in this model, so it applies to nothing (its " + kind + ": " + seen +
                           "); check the name's spelling");
    }
    return messages;
}

}  // namespace weft
