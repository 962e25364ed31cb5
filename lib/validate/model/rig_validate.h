// Validation of a model's rig proxies (docs/validation.md#the-skinned-mesh-of-a-rig-proxy: "the skinned
// mesh does not tear"): every rig proxy through the solver's scenarios (validate/validate.h), then the
// garment's skinned mesh posed from what the solver did and measured against its bind pose.
//
//   validate   validate_proxy: hang, swing, sprint, teleport-*, idle; the solver gates (gates.h); one run,
//              the mesh riding on it (its StepObserver), so each scenario is simulated once per proxy
//   pose       at every step of every scenario (the states the solver's gates saw, body colliders
//              included) each chain joint is posed from
//              its particle: translation = the particle, rotation = the shortest turn taking its
//              bind segment (to the next particle of its chain) onto the simulated one; an end
//              joint turns as the joint before it; a node with no particle keeps its bind transform
//              relative to its parent; the body (every bone no chain joint sits above) stays at bind,
//              but in a clip scenario, where it takes the clip's pose of that step (and the particles
//              are placed by the frame as the clip moves it)
//   skin       linear blend skinning of every vertex of a skinned mesh some free chain joint of the
//              proxy weights, with the scene's weights; a joint's skinning matrix is its posed world
//              times its inverse bind (T(x)·R·T(−bind position))
//   measure    over every edge of every triangle that has such a vertex: worst posed length / bind
//              length (MESH_STRETCH gates it at max_mesh_stretch); over the scalp / waistband
//              vertices (weight at least half on body bones: the root blend's held end,
//              docs/growth.md#root-blend): the worst distance from the bind position (in a clip
//              scenario: from where the clip's own skinning puts it); with body colliders, the
//              deepest a vertex sinks into one (where the step has it) beyond its bind depth
//   gate       MESH_STRETCH, SCALP_DISPLACEMENT in every scenario (near-pose limits in hang and idle,
//              motion limits elsewhere); with a body, PENETRATION: a garment render vertex's depth beyond
//              its bind depth against the particles' allowance (docs/validation.md#render-vertex-penetration)
//
// The model stages (model_stages.h) run it in its validate stage, on the proxies in memory:
//   RigProxyValidation v = validate_rig_mesh(scene, garment, built, options);   // v.solver: validate_proxy's
//   v.passed();
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "proxy/rig_builder.h"
#include "scene/scene.h"
#include "validate/validate.h"

namespace weft {

/// The default MESH_STRETCH limit: no garment edge stretches more than 10% against its bind length (docs/validation.md#mesh-stretch).
inline constexpr double kMaxMeshStretch = 1.10;
/// The default SCALP_DISPLACEMENT limit, metres: the scalp/waistband vertices stay where they were
/// (docs/validation.md#scalp-displacement); a hair's breadth is a tenth of this.
inline constexpr double kMaxScalpDisplacement = 0.002;
/// MESH_STRETCH's limit in a driven scenario (swing, sprint, teleport-*): a broken rig (a joint posed from
/// another's particle, weights on the wrong chain) stretches edges tens of times; the root blend, split
/// between the body and a joint a 3 m/s kick or a 9 m/s yank moves centimetres a step, stretches its
/// short edges up to 7.3x on the shared rigs (docs/validation.md#mesh-stretch).
inline constexpr double kMaxMotionMeshStretch = 10.0;
/// SCALP_DISPLACEMENT's limit in a driven scenario, metres: a scalp vertex farther than a head's radius
/// from its bind position has left the head (docs/validation.md#scalp-displacement).
inline constexpr double kMaxMotionScalpDisplacement = 0.15;
/// A vertex whose weight on body bones is at least this share is scalp / waistband: the held end of
/// the root blend (grow.h kRootBlend), which must stay on the skull and the hips.
inline constexpr double kScalpBodyShare = 0.5;

/// The skinned mesh in one simulated pose.
struct MeshPoseStats {
    uint32_t step = 0;                ///< 1-based scripted step of the scenario this pose is from
    double max_edge_stretch = 0;      ///< worst posed length / bind length of a garment triangle edge; good
                                      ///< <= 1.02, bad > max_mesh_stretch (the mesh tears); 0 when no edge
    std::string max_edge_stretch_mesh;///< where: mesh name, "" when no edge
    std::array<uint32_t, 2> max_edge_stretch_vertices{0, 0};  ///< where: that mesh's two vertices
    double max_scalp_displacement = 0;///< metres, worst distance of a scalp / waistband vertex from its bind
                                      ///< position; good: millimetres (a hair's breadth), bad: centimetres
    std::string max_scalp_mesh;       ///< where: mesh name, "" when there is no scalp vertex
    uint32_t max_scalp_vertex = 0;    ///< where: that mesh's vertex
    uint32_t max_scalp_step = 0;      ///< when: the 1-based step of max_scalp_displacement (the page marks it)
    double max_scalp_chain_share = 0; ///< that vertex's share of weight on the chain's bones (under kScalpBodyShare)
    double max_scalp_reach = 0;       ///< metres at bind from that vertex to the nearest segment of a chain joint
                                      ///< that moves it: the lever a turn of the chain's root carries it by
    Scenario scenario = Scenario::hang;  ///< the scenario this pose is from
    std::string clip;                    ///< Scenario::clip: the clip's name (labelled clip:<name>)
    std::optional<double> max_penetration;  ///< metres, deepest garment vertex inside a body collider over every
                                            ///< frame; only with body colliders (ValidationOptions::body)
    std::string max_penetration_mesh;  ///< where: mesh name, "" when no vertex went inside
    uint32_t max_penetration_vertex = 0;
    uint32_t max_penetration_step = 0; ///< when: the 1-based step of max_penetration (the page marks it)
    std::optional<double> max_penetration_past_hull;  ///< metres, the worst of a vertex's depth past its bind depth less
                                                      ///< its own hull radius (reported against render_penetration_limit); with body colliders
    std::string max_penetration_past_hull_mesh;       ///< where: mesh name, "" when none went past
    uint32_t max_penetration_past_hull_vertex = 0;
};

/// One mesh gate result (the solver's own are in ProxyValidation::gates).
struct MeshGateResult {
    std::string gate;    ///< "MESH_STRETCH" (value: max_edge_stretch), "SCALP_DISPLACEMENT" or "PENETRATION" (metres)
    Scenario scenario = Scenario::hang;
    std::string clip;    ///< Scenario::clip: the clip's name
    bool passed = true;
    double value = 0;
    double limit = 0;
    std::string message; ///< one line with the garment, the scenario, the numbers and, on failure, where
};

/// Everything validation found out about one rig proxy and its skinned mesh.
struct RigProxyValidation {
    std::string garment;
    ProxyValidation solver;                ///< validate_proxy's result (scenarios, gates)
    uint32_t mesh_vertices = 0;            ///< skinned vertices the proxy's free joints weight
    uint32_t mesh_edges = 0;               ///< distinct edges of the triangles touching them
    uint32_t scalp_vertices = 0;           ///< of the mesh vertices, those at least kScalpBodyShare on body bones
    std::optional<MeshPoseStats> hang;     ///< the settled end of hang; none when hang was not run or refused
    std::optional<MeshPoseStats> idle;     ///< the idle frame with the worst edge stretch (its scalp displacement is
                                           ///< the worst over every frame); none when idle was not run or refused
    std::vector<MeshPoseStats> poses;      ///< per scenario run, in order: its frame with the worst edge stretch, the
                                           ///< worst scalp displacement and render-vertex penetration over every frame
                                           ///< (hang and idle are two of these)
    double hull_radius = 0;                ///< metres, the farthest a garment vertex lies at bind from the nearest segment
                                           ///< of a joint that moves it (docs/validation.md#render-vertex-penetration)
    double render_penetration_limit = 0;   ///< metres, what a render vertex's depth (max_penetration) is held to by
                                           ///< PENETRATION: GateLimits::max_penetration fabric thicknesses; 0 without a body
    std::vector<MeshGateResult> mesh_gates;///< per scenario run, in order: MESH_STRETCH, SCALP_DISPLACEMENT, then (with a body) PENETRATION
    double ms = 0;                         ///< wall milliseconds for everything above (machine-dependent)

    bool passed() const;
};

struct RigValidationLimits {
    double max_mesh_stretch = kMaxMeshStretch;  ///< MESH_STRETCH: worst garment edge posed/bind length allowed
    double max_scalp_displacement = kMaxScalpDisplacement;  ///< SCALP_DISPLACEMENT: metres a scalp/waistband vertex may move
    double max_motion_mesh_stretch = kMaxMotionMeshStretch;  ///< MESH_STRETCH in a driven scenario
    double max_motion_scalp_displacement = kMaxMotionScalpDisplacement;  ///< SCALP_DISPLACEMENT in a driven scenario, metres
};

struct RigModelValidation {
    GateLimits limits;                   ///< the solver's
    RigValidationLimits mesh_limits;
    std::vector<RigProxyValidation> proxies;  ///< per built rig proxy, in ModelRecord::rigs order

    bool passed() const;
};

/// Validates one rig proxy built from `garment` in `scene` (the scene it was built from: the grown
/// one when bones were grown): validate_proxy of `built.proxy` under `options` (`file` labels it), with
/// the skinned mesh posed and measured at every step of that one run, and the mesh gates added.
/// `options.observer`, if any, still sees every step. Deterministic but for the timing.
RigProxyValidation validate_rig_mesh(const Scene& scene, const RigGarment& garment, const RigBuildResult& built,
                                     const ValidationOptions& options, const RigValidationLimits& mesh_limits = {},
                                     const std::string& file = "");

/// validate_rig_mesh in three parts (as ProxyValidator), so that a model's proxies share one RunList:
/// made, its runs added to the list (which runs them), the result. Everything it is given, and the
/// list, must outlive it.
class RigMeshValidator {
public:
    RigMeshValidator(const Scene& scene, const RigGarment& garment, const RigBuildResult& built,
                     const ValidationOptions& options, const RigValidationLimits& mesh_limits = {},
                     const std::string& file = "");
    ~RigMeshValidator();
    RigMeshValidator(RigMeshValidator&&) noexcept;
    RigMeshValidator& operator=(RigMeshValidator&&) noexcept;

    void add_runs(RunList& list);
    RigProxyValidation finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// The validation as JSON: the "validation" object of schemas/rig-report.schema.json; each proxy's
/// "timing" only with `timings` (its only machine-dependent part).
nlohmann::json rig_validation_json(const RigModelValidation& validation, bool timings = true);

/// The same for people: a line per proxy (rig_validation_failures has the failed gates).
std::string rig_validation_text(const RigModelValidation& validation);

}  // namespace weft
