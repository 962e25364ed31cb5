// What a model's bake made of its cloth, in a few numbers: the index's row of the model
// (bake-report.json's "cloth", the stamp keeps it for a re-run that finds the model unchanged).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace weft {

struct ModelRecord;

/// The gate nearest its limit (a failed one first) over every proxy, scenario and mesh gate.
struct WorstGate {
    std::string gate;      ///< the gate's code: STRAIN, SCALP_DISPLACEMENT, ...
    std::string proxy;     ///< the proxy's file name in the model's folder
    std::string scenario;  ///< as reports name a run: "sprint", "clip:Walk"
    double value = 0;      ///< what was measured, in the gate's unit (docs/validation.md#gates)
    double limit = 0;      ///< what it was held to
    bool passed = true;
};

struct ClothSummary {
    uint32_t garments = 0;             ///< garments found (by slot, chains, shape)
    uint32_t moving = 0;               ///< of them, those planned to move (grow/plan.h): authored, grown or a sheet
    uint32_t proxies = 0;              ///< proxies written
    std::optional<uint32_t> passing;   ///< with validation: proxies that passed every gate (the mesh's too)
    std::optional<WorstGate> worst_gate;  ///< with validation and a gate that has a limit
};

/// How near its limit a gate's value came: 0 at the gate's baseline (1 for a length ratio, STRAIN and
/// MESH_STRETCH: nothing stretched; 0 for the rest), 1 at the limit, more past it; infinite for
/// anything above a limit at the baseline (no crossing, no face inside out allowed).
double gate_nearness(const std::string& gate, double value, double limit);

/// The summary of a baked record (for one found unchanged, its stamped_cloth).
ClothSummary summarise_cloth(const ModelRecord& record);

}  // namespace weft
