// What happens to each garment a model has: the one decision `weft inspect` reports and `weft bake`
// (pipeline/model_stages.h) carries out, so the two never disagree (docs/garments-by-geometry.md):
//
//   authored   authored chains move it: a rig proxy from those chains
//   grown      chains were grown for it (grow/grow.h): a rig proxy from the grown chains
//   sheet      a sheet proxy, held where its node or weights hang it (an unskinned cape under a
//              `chest` node rides that bone and is pinned to it)
//   stays      nothing moves it: hair lying on the head (garment/hair_on_head.h) is neither grown nor
//              built; hair whose growing grew nothing is not handed to the sheet builder
//              (a closed hair shell is no sheet; it stays on the head), and with sheets off
//              (weft rig) a garment no chain moves stays welded to its bone
#pragma once
#include <string>
#include <vector>

#include "garment/garments.h"
#include "grow/grow.h"
#include "scene/scene.h"

namespace weft {

struct GarmentPlan {
    std::string action;   ///< "authored", "grown", "sheet", "stays"
    std::string verdict;  ///< one line for people: "moves as a sheet held by chest", ...
    int held_by = -1;     ///< sheet: the bone it is pinned to; stays: the bone it is welded to; -1 otherwise
    bool moves() const { return action != "stays"; }
};

struct PlanOptions {
    bool grow = true;     ///< chains are grown (weft bake without --no-grow)
    bool sheets = true;   ///< garments no chain moves become sheets (weft bake; not weft rig)
};

/// Whether growing is the answer for a class: hair strands and skirt panels are grown, not sheeted.
bool grown_class(const std::string& class_name);

/// One plan per found.garments entry. `grown` is grow_cloth's result on the same garments when
/// options.grow (null otherwise).
std::vector<GarmentPlan> plan_garments(const Scene& scene, const ModelGarments& found, const PlanOptions& options,
                                       const GrowResult* grown);
/// The model's line (model_verdict) counting what moves as `plans` decide, as each plan's verdict says,
/// not what moved as found.
std::string planned_verdict(const Scene& scene, const ModelGarments& found, const std::vector<GarmentPlan>& plans);

}  // namespace weft
