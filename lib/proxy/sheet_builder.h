// The sheet-proxy builder (docs/proxy.md#sheet-proxy): one particle per welded vertex
// of a garment's triangles, a stretch row per edge, a hinge per interior edge, the authoring
// mistakes refused by name, what holds the sheet, the geodesic distance to it, and the particles
// coloured and permuted into colour ranges. The steps, in build_sheet's order:
//
//   gather    the garment's meshes, concatenated: one source-vertex numbering (ClothProxy::source_meshes)
//   weld      by position within a tolerance (geom/weld.h), across seams and primitives
//   check     non-finite vertices, repeated-index / zero-area / duplicate triangles, non-manifold
//             edges, winding (docs/proxy.md#authoring-checks): every defect named, not just the first
//   rows      edges + rest lengths, hinges (shared edge, then each triangle's opposite wing), triangles
//   frame     what the sheet rides; rest positions in it
//   mass      areal density x area, a third to each corner (fabric/fabric.h)
//   pins      who holds which particles (sheet_pins.h)
//   resample  the simulation mesh of its own at a resolution from the garment's size, holds kept
//             (sheet_resample.h, docs/proxy.md#resampling); `source` keeps one particle per vertex
//   d_geo     geodesic distance to the nearest held particle (graph/geodesic.h, docs/proxy.md#geodesic-distance)
//   bind      every render vertex to a proxy triangle: barycentric coordinates and an offset along the
//             particle normal (sheet_binding.h, docs/proxy.md#binding)
//   colour    coupling graph -> greedy colouring -> validated -> particles permuted into colour
//             ranges (colour_permute.h, docs/proxy.md#colouring)
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "geom/automatic_edge.h"
#include "io/issue.h"
#include "proxy/core/cloth_proxy.h"
#include "scene/scene.h"

namespace weft {

/// The meshes one sheet is built from.
struct SheetGarment {
    std::string name;                ///< unique in the model: the proxy's file stem
    std::string garment_class;       ///< "cape", "flag", ... (lib/garment); picks the fabric; "" reads as "sheet"
    std::vector<int> meshes;         ///< indices into Scene::meshes, welded into one sheet, in this order
    std::vector<int> garment_bones;  ///< skinned: nodes of the garment's own joints; weight on any other joint of the skin holds
    /// Per mesh of `meshes`, the garment's vertices of it, ascending; empty (or missing): the whole
    /// mesh. A triangle is the garment's when its three corners are; the mesh's other triangles are
    /// rigid geometry of the model (a pole modelled in the banner's mesh) that holds it (`touching`).
    std::vector<std::vector<uint32_t>> vertices;
};

/// What holds the sheet (docs/proxy.md#pins). Extremes are in scene space, Y up:
/// top = largest Y, bottom = smallest Y, left = smallest X, right = largest X (the scene's axes,
/// not the character's sides).
enum class PinRule {
    automatic,  ///< skinned: by weight (body bones); unskinned under a bone: `top`, held by that bone; otherwise `touching`
    weights,    ///< skinned vertices whose weight on non-garment bones is >= pin_weight; holder = the heaviest of those bones
    none,       ///< nothing holds it: it falls
    top,        ///< particles within pin_tolerance of the extreme along Y (left, right: X, or Z for a sheet wider
                ///< along Z, right at -Z); holder = pin_holder or the frame node
    bottom,
    left,
    right,
    nearest,    ///< particles within pin_tolerance of the nearest one's distance to pin_target's geometry
    vertices,   ///< the source vertices in pin_vertices; holder = pin_holder or the frame node
    touching,   ///< unskinned: held where it touches rigid geometry of its model (its own closed pieces, unskinned
                ///< meshes outside it), by that geometry's node; see sheet_pins.h
};

/// "automatic", "top", "nearest", ...
std::string_view pin_rule_name(PinRule rule);

/// The simulation mesh's resolution (docs/proxy.md#resampling).
enum class SheetResolution {
    automatic,    ///< an edge length chosen from the garment's area (automatic_edge_length), where the sheet is denser
    edge_length,  ///< resolution_value metres
    particles,    ///< about resolution_value particles, never past max_particles
    source,       ///< one particle per welded render vertex, as the garment was modelled
};

struct SheetOptions {
    std::optional<double> weld_tolerance;  ///< metres; unset = weld_relative x the garment's bounding-box diagonal
    double weld_relative = 1e-5;           ///< see weld_tolerance_for: welds export rounding, never an edge
    bool repair = false;                   ///< drop repeated-index, zero-area and duplicate triangles instead of refusing
    PinRule pin = PinRule::automatic;
    std::string pin_target;                ///< nearest: a node, mesh or material name (tried in that order)
    std::vector<uint32_t> pin_vertices;    ///< vertices: source-vertex indices (source_meshes numbering)
    std::string pin_holder;                ///< top/bottom/left/right/vertices: holder node; "" = the frame node
    std::optional<double> pin_tolerance;   ///< metres; unset = a quarter of the sheet's median edge length (one row of vertices), or of the median step along a positional rule where under half of it
    double pin_weight = 0.99;              ///< weights: share of a vertex's weight on body bones that holds it, 0..1
    std::optional<double> areal_density;   ///< kg/m²; unset = the fabric's (fabric/fabric.h)
    std::string fabric;                    ///< library fabric; "" = the one the garment class suggests
    bool closed_islands_rigid = true;      ///< unskinned: a closed piece (no boundary edge) is held by the frame node
    // `automatic`: a dense sheet is coarsened to about kAutomaticParticles, any other kept as modelled
    // (docs/proxy.md#resampling).
    SheetResolution resolution = SheetResolution::automatic;
    double resolution_value = 0;           ///< edge_length: metres; particles: a particle budget
    /// `particles:N` resampled past this many particles (the resampler overshoots N by up to half) is
    /// resampled again within it (docs/proxy.md#resampling); 0 = no ceiling. The pipeline sets its
    /// particle budget (pipeline/budgets.h).
    uint32_t max_particles = 0;
};

/// Default options but one particle per welded vertex (SheetResolution::source).
inline SheetOptions source_resolution_options() {
    SheetOptions o;
    o.resolution = SheetResolution::source;
    return o;
}

/// Parses a resolution as the command line and config files write it: "automatic", "source",
/// "edge:0.05" (metres) or "particles:600". Sets it in `options`; returns "" on success, else why not.
std::string parse_resolution(std::string_view text, SheetOptions& options);

/// The resolution as parse_resolution reads it ("automatic", "edge:0.05", ...).
std::string resolution_text(const SheetOptions& options);


/// Parses a pin rule as the command line and config files write it: "automatic", "weights",
/// "none", "top", "bottom", "left", "right", "touching", "nearest:NAME", "vertices:3,17,42". Sets the rule and
/// its target or vertices in `options`; returns "" on success, else why not.
std::string parse_pin_rule(std::string_view text, SheetOptions& options);

/// Applies a config rule's "pin" value (lib/garment carries it through uninterpreted): a string as
/// parse_pin_rule reads, or an object {"rule": "...", "target": "NAME", "vertices": [...],
/// "holder": "NODE", "tolerance": metres, "weight": 0..1}. Returns "" on success, else why not.
std::string apply_pin_json(const nlohmann::json& pin, SheetOptions& options);

/// What the build did, in numbers (the report's "stats").
struct SheetStats {
    uint32_t source_vertices = 0;         ///< vertices of the garment's meshes, before welding
    uint32_t source_triangles = 0;
    uint32_t particles = 0;               ///< welded vertices some kept triangle uses
    uint32_t edges = 0;                   ///< stretch rows
    uint32_t boundary_edges = 0;
    uint32_t hinges = 0;                  ///< interior edges
    uint32_t triangles = 0;               ///< kept triangles
    uint32_t islands = 0;                 ///< connected pieces
    uint32_t closed_islands = 0;          ///< pieces with no boundary edge
    uint32_t held = 0;                    ///< particles with inverse mass 0
    uint32_t pins = 0;                    ///< holders
    uint32_t colours = 0;
    uint32_t largest_colour = 0;          ///< particles in the largest colour range
    uint32_t smallest_colour = 0;         ///< particles in the smallest
    uint32_t repeated_index_triangles = 0;///< found (dropped with repair)
    uint32_t zero_area_triangles = 0;     ///< found (dropped with repair)
    uint32_t duplicate_triangles = 0;     ///< found (dropped with repair)
    uint32_t dropped_triangles = 0;       ///< repair: distinct triangles dropped (one can have several defects)
    uint32_t non_manifold_edges = 0;
    uint32_t inconsistent_edges = 0;
    uint32_t non_finite_vertices = 0;
    double weld_tolerance = 0;            ///< metres used
    double pin_tolerance = 0;             ///< metres used by the pin rule (0 when no band applies)
    double area = 0;                      ///< m², kept triangles
    double total_mass = 0;                ///< kg
    double max_d_geo = 0;                 ///< metres, largest finite d_geo (0 when nothing is held)
    // The simulation mesh (docs/proxy.md#resampling).
    std::string resolution = "source";    ///< as resolution_text writes it; "source" where nothing was resampled
    double edge_length = 0;               ///< metres, the target edge length (0 for source)
    uint32_t welded_particles = 0;        ///< particles one per welded vertex would have made
    double worst_aspect = 0;              ///< worst longest edge / height of a free triangle (one with a free corner)
    double worst_mass_ratio = 0;          ///< worst mass ratio of two free particles sharing an edge (>= 1)
    bool one_face = false;                ///< modelled two-sided, simulated on one face (docs/proxy.md#two-sided-sheets)
    // The render mesh bound to it (docs/proxy.md#binding).
    uint32_t bound_vertices = 0;          ///< source vertices with a binding (every one a kept triangle uses)
    double binding_error_max = 0;         ///< metres: worst distance of a bound vertex, placed from the rest pose, from its source position
    double binding_error_mean = 0;        ///< metres: the mean of that distance
};

struct SheetBuildResult {
    std::optional<ClothProxy> proxy;  ///< set unless an error was found
    Issues issues;                    ///< every defect and decision, in check order
    SheetStats stats;
};

/// Builds the sheet proxy of one garment. Never throws for bad geometry: every problem is an Issue
/// naming the file (scene.source_path), the mesh, and the vertex, triangle or edge by its source
/// indices and position, with what to do. The proxy is deterministic in (scene, garment, options).
SheetBuildResult build_sheet(const Scene& scene, const SheetGarment& garment, const SheetOptions& options = {});

}  // namespace weft
