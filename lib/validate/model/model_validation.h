// A model's verdict (docs/validation.md): every proxy of the model through the scenarios and the
// model's own clips, with the model's body colliding, and each rig proxy's skinned mesh posed from
// what the solver did (rig_validate.h). The one function every command validates with — `weft bake
// --validate`, `weft rig --validate`, `weft sheet --validate` and `weft validate` on a proxy whose
// model it can read — so a proxy's verdict never depends on the command.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "body/body_shapes.h"
#include "garment/config.h"
#include "io/issue.h"
#include "proxy/rig_builder.h"
#include "scene/scene.h"
#include "validate/model/rig_validate.h"
#include "validate/validate.h"

namespace weft {

/// One proxy of a model to validate. A rig carries what it was built from, so its skinned mesh is
/// posed too; a sheet is simulated alone.
struct ModelProxy {
    std::string file;                        ///< its file name in the model's folder: reports and issues name it
    const ClothProxy* proxy = nullptr;       ///< the proxy simulated (from memory or read from its file)
    const RigGarment* rig = nullptr;         ///< a rig: the garment it was built from, else null
    const RigBuildResult* rig_built = nullptr;  ///< a rig: its build (the joint binding); its proxy is `proxy`'s twin
};

/// What the model's proxies did.
struct ModelValidation {
    ValidationReport report;                 ///< every proxy, in the order given (validation.json)
    std::optional<RigModelValidation> rigs;  ///< the rig proxies' skinned meshes, when there is a rig
    Issues issues;                           ///< a clip the model lacks, then each failed gate under its own code

    bool passed() const { return !has_error(issues); }
};

/// The model the proxies belong to, as validation sees it.
struct ModelUnderTest {
    const Scene* scene = nullptr;     ///< the scene the proxies were built from (the grown one when bones grew)
    BodyShapes body;                  ///< its body colliders at the bind pose (body/body_in_scene.h)
    std::string label;                ///< the model as messages name it
    std::string out_label;            ///< the folder issues name proxy files under ("" = the file alone)
    const GarmentConfig* config = nullptr;  ///< its config's clip choices for this model, if any
};

/// Runs `proxies` of `model` under `options` (its scenarios, clip choice, limits; the body and clips
/// come from `model`), the mesh gates at `mesh_limits`. Every proxy's runs share one RunList (the
/// results are as one thread gives them).
ModelValidation validate_model(const ModelUnderTest& model, std::span<const ModelProxy> proxies,
                               const ValidationOptions& options, const RigValidationLimits& mesh_limits = {});

}  // namespace weft
