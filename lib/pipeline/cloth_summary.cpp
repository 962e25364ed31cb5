#include "pipeline/cloth_summary.h"

#include <cmath>
#include <limits>
#include <map>

#include "pipeline/model_record.h"
#include "validate/gates.h"
#include "validate/scenario.h"

namespace weft {
namespace {

/// Keeps `candidate` when it is worse than `worst`: failed before passed, then nearer its limit;
/// the first seen wins a tie, so the choice follows report order.
void keep_worse(std::optional<WorstGate>& worst, double& worst_nearness, WorstGate candidate) {
    const double n = gate_nearness(candidate.gate, candidate.value, candidate.limit);
    if (std::isnan(n)) return;
    const bool better = !worst || (!candidate.passed && worst->passed) ||
                        (candidate.passed == worst->passed && n > worst_nearness);
    if (!better) return;
    worst_nearness = n;
    worst = std::move(candidate);
}

}  // namespace

double gate_nearness(const std::string& gate, double value, double limit) {
    const double base = gate == "STRAIN" || gate == "MESH_STRETCH" ? 1.0 : 0.0;
    if (limit > base) return (value - base) / (limit - base);
    return value > limit ? std::numeric_limits<double>::infinity() : 0.0;
}

ClothSummary summarise_cloth(const ModelRecord& r) {
    if (r.unchanged && r.stamped_cloth) return *r.stamped_cloth;
    ClothSummary s;
    s.garments = static_cast<uint32_t>(r.garments.garments.size());
    for (const GarmentPlan& p : r.plans) s.moving += p.moves() ? 1 : 0;
    for (const RiggedGarment& g : r.rigs) s.proxies += g.proxy_file.empty() ? 0 : 1;
    for (const SheetedGarment& g : r.sheets) s.proxies += g.proxy_file.empty() ? 0 : 1;
    if (!r.proxy_validation) return s;
    // A rig proxy passes when its skinned mesh does too.
    std::map<std::string, const RigProxyValidation*> meshes;
    if (r.validation)
        for (const RigProxyValidation& m : r.validation->proxies) meshes[m.solver.file] = &m;
    uint32_t passing = 0;
    double worst_nearness = 0;
    for (const ProxyValidation& v : r.proxy_validation->proxies) {
        const auto mesh = meshes.find(v.file);
        const bool mesh_passed = mesh == meshes.end() || mesh->second->passed();
        passing += v.passed() && mesh_passed ? 1 : 0;
        for (const GateResult& g : v.gates)
            if (g.value && g.limit)
                keep_worse(s.worst_gate, worst_nearness,
                           {gate_code(g.gate), v.file, scenario_label(g.scenario, g.clip), *g.value, *g.limit, g.passed});
        if (mesh == meshes.end()) continue;
        for (const MeshGateResult& g : mesh->second->mesh_gates)
            keep_worse(s.worst_gate, worst_nearness,
                       {g.gate, v.file, scenario_label(g.scenario, g.clip), g.value, g.limit, g.passed});
    }
    s.passing = passing;
    return s;
}

}  // namespace weft
