// What one scenario measured on one proxy (docs/validation.md#measurements). Measuring only: whether
// a number passes is gates.h's business. Each field says its unit and its good and bad range, as
// meshopt_VertexCacheStatistics does.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "proxy/core/cloth_proxy.h"
#include "fabric/fabric.h"
#include "solver/solver.h"
#include "body/body_shapes.h"
#include "validate/clip_motion.h"
#include "validate/scenario.h"
#include "validate/trace.h"

namespace weft {

/// A distance row of the proxy: a stretch edge or a skip.
struct LinkRef {
    enum Kind : uint8_t { edge, skip } kind = edge;
    uint32_t index = 0;             ///< into proxy.edges or proxy.skips
    uint32_t a = 0, b = 0;          ///< its particles
};

struct ScenarioStats {
    Scenario scenario = Scenario::hang;
    std::string clip;               ///< Scenario::clip: the clip's name (reports say "clip:<name>"); "" otherwise
    uint32_t settle_steps = 0;      ///< steps of the unmeasured prelude (settles_first): up to settle_max_steps,
                                    ///< fewer when the cloth fell asleep; 0 for hang
    uint32_t steps = 0;             ///< scripted steps run: as asked, fewer only when a value went non-finite
                                    ///< or the run stopped early (stopped_step)
    uint32_t steps_awake = 0;       ///< steps the solver computed (the rest it slept through)

    // --- settling (docs/solver.md#sleep) -------------------------------------------------------------
    std::optional<uint32_t> sleep_step;      ///< 1-based scripted step that put the cloth to sleep first; good:
                                             ///< hang a few hundred (docs/measurements.md Z1: 220-770), bad: none
    std::optional<uint32_t> non_finite_step; ///< 1-based step that left a NaN or infinity in a position,
                                             ///< velocity or energy; good: none, anything else is broken
    std::optional<uint32_t> stopped_step;    ///< 1-based step after which the run stopped early, `stopped_gate` having
                                             ///< failed for good (docs/validation.md#early-exit); none: ran to its end
    std::string stopped_gate;                ///< the gate that stopped it ("STRAIN", ...); "" when it ran to its end

    // --- shape ---------------------------------------------------------------------------------------
    double max_strain = 0;           ///< worst length/rest of any stretch edge, in the starting pose and after
                                     ///< every step; good <= 1.02 (hard rows settle under 1%), bad > 1.10 (the
                                     ///< default gate); 0 for a proxy with no edges
    std::optional<LinkRef> max_strain_link;  ///< where max_strain was; none for a proxy with no edges
    uint32_t max_strain_step = 0;    ///< step of max_strain; 0 = the starting pose (the rest pose for hang)
    double max_skip_ratio = 0;       ///< worst length/rest of any skip, likewise. A skip is a soft bend row
                                     ///< (docs/solver.md#skip): a chain authored bent and pulled straight raises it with
                                     ///< no stretch at all (a 90° joint straightened: √2), so it is reported, not
                                     ///< gated; good: near 1 with max_strain near 1, bad: far above max_strain
    std::optional<LinkRef> max_skip_link;    ///< where max_skip_ratio was; none for a proxy with no skips
    uint32_t max_skip_step = 0;      ///< step of max_skip_ratio; 0 = the starting pose
    double max_tether_ratio = 0;     ///< worst |x − x_held|/d_geo of a free particle, likewise; good <= 1.005
                                     ///< (docs/measurements.md M1: 1.0035 worst in the library), bad > 1.05 (the leash is not holding)
    uint32_t max_tether_particle = no_particle;  ///< where; no_particle when nothing is tethered
    uint32_t max_tether_step = 0;    ///< step of max_tether_ratio; 0 = the starting pose
    std::vector<Vec3> final_positions; ///< every particle in the frame after the last step (weft validate
                                       ///< --positions; what an embedded runtime reproduces, docs/format.md)

    // --- speed (docs/solver.md#velocity-clamp) ------------------------------------------------------
    double peak_speed = 0;           ///< m/s, fastest free particle in the frame after any step
    uint32_t peak_speed_step = 0;    ///< 1-based step of peak_speed
    double velocity_clamp = 0;       ///< m/s, the clamp at full strength (4x the correction authority)
    double peak_speed_ratio = 0;     ///< peak_speed / velocity_clamp; good < 0.2 (5.7x headroom at worst,
                                     ///< docs/solver.md#velocity-clamp),
                                     ///< bad near 1 (the clamp is a behaviour, not a backstop)
    uint64_t clamped = 0;            ///< particle-substeps the clamp cut; good 0
    uint64_t substeps = 0;           ///< substeps over the awake steps (docs/solver.md#fast-cloth)
    uint64_t sweeps = 0;             ///< colour sweeps over the awake steps: the fabric's per substep, or what a
                                     ///< strain target took (docs/solver.md#iterating-to-a-target)
    uint32_t teleports = 0;          ///< steps the solver took as a teleport; good: 1 in teleport-*, 0 elsewhere

    // --- energy: does the step create it? -------------------------------------------------------------
    double kinetic_energy_end = 0;   ///< J at the last step; good: ~0 after hang (a hard chain < 1e-10,
                                     ///< docs/measurements.md#constants)
    double total_energy_end = 0;     ///< J, kinetic + gravitational (frame origin) + soft-row elastic
    std::optional<double> kinetic_energy_trend;  ///< J, least-squares change of kinetic energy across the undriven
                                                 ///< steps of the last third; good <= 0; none when it has none
    std::optional<double> total_energy_trend;    ///< J, the same for total energy; good <= 0, bad: a rise
    uint32_t trend_steps = 0;        ///< undriven steps in the last third the trends were fitted over
    double max_energy_step_rise = 0; ///< J, the largest rise of total energy in one undriven step anywhere;
                                     ///< good: ~0 (round-off), bad: comparable to the energy scale

    // --- teleport-* only (docs/solver.md#teleport) ----------------------------------------------------
    std::optional<uint32_t> teleport_step;     ///< 1-based step the solver teleported first
    std::optional<double> teleport_peak_speed; ///< m/s, fastest particle over the teleport step and the 20
                                               ///< after (the Reset ramp); Reset of a cloth authored at rest: 0
    std::optional<double> teleport_shift;      ///< m, largest move of a free particle relative to the holders in
                                               ///< the teleport step; Keep: one step of motion, Reset: to the rest pose

    // --- idle only (docs/validation.md#idle) -------------------------------------------------------------
    std::optional<double> idle_jitter_mean;    ///< deg/frame, direction change per step of every link with a free
                                               ///< end, minus the holders' own rotation, averaged over links and the
                                               ///< breathing steps; good < 0.02 (docs/growth.md#idle-stability), bad > 0.1
    std::optional<double> idle_jitter_worst;   ///< deg/frame, the worst link's average
    LinkRef idle_jitter_link;                  ///< that link

    // --- body (docs/validation.md#penetration): only when the run had body colliders -----------------
    std::optional<double> max_penetration;     ///< metres, deepest free particle inside a body collider after any
                                               ///< step; good: 0, bad: past the fabric's thickness (the gate)
    uint32_t max_penetration_particle = no_particle;  ///< where; no_particle when nothing went inside
    uint32_t max_penetration_step = 0;         ///< 1-based step of max_penetration; 0 when nothing went inside

    // --- self-intersection (docs/validation.md#self-intersection): only for a proxy with triangles ---------
    std::optional<uint32_t> crossings;         ///< pairs of triangles sharing no corner that cross each other after
                                               ///< the last step, but for pairs that touched at rest (crossings.h);
                                               ///< good: no more than the rest pose has
                                               ///< (ProxyValidation::rest_crossings), bad: any more (the cloth passed
                                               ///< through itself)
    // --- the bound render mesh (docs/validation.md#the-bound-render-mesh): a sheet with a binding only ---
    std::optional<double> max_mesh_stretch;    ///< worst posed length / rest length of a render triangle edge, the render
                                               ///< mesh placed from the particles after every step; good <= 1.02, bad >
                                               ///< 1.10 (MESH_STRETCH: the visible garment tears)
    std::array<uint32_t, 2> max_mesh_stretch_vertices{0, 0};  ///< where: its two source vertices
    uint32_t max_mesh_stretch_step = 0;        ///< 1-based step of max_mesh_stretch
    // A two-sided sheet (docs/validation.md#two-sided-sheets) models a thickness: max_mesh_stretch is then
    // measured on the cloth, each render vertex at its footprint with that thickness removed, and the mesh
    // as drawn is reported apart here.
    std::optional<double> max_thickness_stretch;  ///< worst posed / rest length of a render edge as drawn, thickness
                                               ///< and all; a face h off a mid-surface curling at curvature κ
                                               ///< stretches by about 1 + hκ on the outside of the bend; reported,
                                               ///< not gated (a thick flag folding, not a tear)
    std::array<uint32_t, 2> max_thickness_stretch_vertices{0, 0};  ///< where: its two source vertices
    uint32_t max_thickness_stretch_step = 0;   ///< 1-based step of max_thickness_stretch; 0 = the rest pose
    std::optional<double> min_face_area_ratio; ///< the least area of a render triangle as drawn, along the cloth's normal
                                               ///< there, over the same at rest, after any step: 1 as modelled, about
                                               ///< 1 - hκ on the inside of a bend, <= 0 once the bend's radius is under
                                               ///< the offset and the face has turned inside out; reported
    std::array<uint32_t, 3> min_face_area_ratio_vertices{0, 0, 0};  ///< where: the triangle's three source vertices
    uint32_t min_face_area_ratio_step = 0;     ///< 1-based step of min_face_area_ratio; 0 = the rest pose
    uint32_t inside_out_steps = 0;             ///< steps after which some face was inside out (a ratio <= 0); reported
    std::optional<uint32_t> inside_out_faces;  ///< faces inside out after the last step; good 0, bad: any
                                               ///< (FACE_INSIDE_OUT, judged at the end as SELF_INTERSECTION is)
    std::optional<double> max_render_penetration;  ///< metres, the deepest a bound render vertex, placed from the
                                               ///< particles after every step, sank into a body collider beyond
                                               ///< where it was bound; only with a body; good: 0, bad: past the
                                               ///< fabric's thickness (PENETRATION: the skin between particles cuts
                                               ///< the body, docs/validation.md#bound-sheets)
    uint32_t max_render_penetration_vertex = 0;  ///< where: its vertex in max_render_penetration_mesh (the
                                                 ///< garment's source vertex when the proxy names no meshes)
    std::string max_render_penetration_mesh;     ///< the model mesh it belongs to (ClothProxy::source_meshes); may be ""
    uint32_t max_render_penetration_step = 0;    ///< 1-based step of max_render_penetration; 0 when none went deeper

    // --- timing: machine-dependent, kept apart so everything above is deterministic ----------------
    double ms_per_step = 0;          ///< wall milliseconds per awake step, solver.step() only
};

/// How far a link turned in one step, degrees: the angle between its vector `before` and `after`,
/// less `holder_turn` (radians the holders turned in that step), floored at 0; 0 for a zero-length
/// link. Idle jitter is this, averaged (docs/validation.md#idle).
double link_turn_degrees(const Vec3& before, const Vec3& after, double holder_turn);

/// The energy a cloth of this proxy trades in a fall: free mass × |g| × reach, J. The scale the
/// energy gate's fraction is of; a floor of 1e-12 J keeps it positive.
double energy_scale(const ClothProxy& proxy);

/// Runs `scenario` on a solver of its own, its prelude (settles_first) then `steps` scripted steps of
/// validation_dt, and measures the scripted steps. Everything but ms_per_step is deterministic.
/// Throws std::invalid_argument (the solver's, naming the field and element) when the proxy or the
/// fabric cannot be simulated. With `trace` (and trace_options.figures) every scripted step's
/// figures, and frames as trace_options asks, are recorded into it; the measurements are the same.
ScenarioStats run_scenario(const ClothProxy& proxy, const Fabric& fabric, Scenario scenario, uint32_t steps,
                           ScenarioTrace* trace = nullptr, const TraceOptions& trace_options = {});

/// The prelude of every scenario but hang (settles_first): `solver` hangs still at the proxy's rest
/// frame until it falls asleep or settle_max_steps pass, unmeasured. Returns the steps it took. Every
/// scenario's prelude is this same run, so one settled solver forks into all of them.
/// With `body` (in the frame at rest, body_in_frame) the cloth settles against it.
uint32_t settle(Solver& solver, const BodyShapes* body = nullptr);

/// The input of every step of the prelude (settle()): the proxy's rest frame, the holders at rest and,
/// with `body` (in the frame at rest) whose colliders collide, the body at rest.
StepInput settle_input(const ClothProxy& proxy, const BodyShapes* body = nullptr);

/// Hang as the prelude (docs/validation.md#hang-steps-the-prelude). A cloth hung from rest and left
/// alone (no pose rows: hang's script drives nothing) takes in hang, until it falls asleep or
/// settle_max_steps pass, the very steps settle() takes. A hang run given a tap calls `settled`, once,
/// with its solver and the steps taken, after the step at which settle() would have stopped, provided
/// every step until then had `input` (settle_input) bit for bit; otherwise never.
struct SettleTap {
    StepInput input;
    std::function<void(const Solver& solver, uint32_t steps)> settled;
};

/// Called after every scripted step of a run, before its figures are taken: the scenario, the 1-based
/// step, every holder's pose in the frame at that step, and the state it left (which may hold a NaN:
/// the run stops after a non-finite step). What a caller measures beside validation (the rig's
/// skinned mesh) rides on the same run instead of simulating the scenario again.
using StepObserver = std::function<void(Scenario scenario, uint32_t step, const Pose& holders, const ClothState& state)>;

/// Called after every scripted step of a run with a body, after the StepObserver: the body's colliders
/// as that step placed them, in the solver's space (the particles'), whether or not the solver saw them.
using BodyObserver = std::function<void(uint32_t step, const StepInput& body)>;

/// A run's early exit (docs/validation.md#early-exit): a gate judged on the worst of every step fails
/// for good once that worst passes its limit, since a worst never shrinks; the run then stops after
/// that step. The run itself watches STRAIN and a particle's PENETRATION against the limits here
/// (infinite: never); whatever measures more beside it (a render mesh) calls fail() with its own.
struct RunStop {
    double max_strain = std::numeric_limits<double>::infinity();       ///< STRAIN's limit (GateLimits::max_strain)
    double max_penetration = std::numeric_limits<double>::infinity();  ///< PENETRATION's, metres (thicknesses × thickness)
    const char* gate = nullptr;  ///< the first gate failed for good, by its code; none: run on
    uint32_t step = 0;           ///< the 1-based step it failed at

    /// `gate` failed for good at `step`; the first call wins.
    void fail(const char* failed, uint32_t at) {
        if (gate) return;
        gate = failed;
        step = at;
    }
};

/// Runs `scenario` from `solver` as it stands, `steps` scripted steps, and measures them: a fresh
/// solver for hang, one that settle() ran (`settle_steps` its return) for the others. The same
/// figures, bit for bit, as the overload above, which builds and settles its own. With `body` (in the
/// frame at rest, body_in_frame) the body rides the holders, collides with the cloth and
/// max_penetration is measured. Scenario::clip needs `clip` (else it is hang's stillness): the clip
/// moves the frame, each pin's holder and each collider by its node (validate/clip_motion.h); the
/// observer is given the first pin's holder. With `tap`, a hang run hands on its settled solver (SettleTap).
ScenarioStats run_scenario(Solver solver, uint32_t settle_steps, Scenario scenario, uint32_t steps,
                           ScenarioTrace* trace = nullptr, const TraceOptions& trace_options = {},
                           const StepObserver& observer = {}, const BodyShapes* body = nullptr,
                           const ClipMotion* clip = nullptr, const BodyObserver& body_observer = {},
                           RunStop* stop = nullptr, SettleTap* tap = nullptr);

}  // namespace weft
