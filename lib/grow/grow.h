// Growing cloth bones on a model that has none (docs/growth.md). For every garment the
// model's slots name (lib/garment) whose class is selected and that no authored chain moves:
//
//   surface    the garment's parts welded into one surface (garment/clumps.h)
//   clumps     hair: connected islands; skirt: radial wedges around the up axis through the bone
//              that holds it (--skirt-panels); a hair island that is a cap rather than a strand is
//              cut into wedges around its bone's axis the same way, and reported as such
//   drop       clumps shorter than min_strand_length or with fewer than min_strand_verts vertices
//   anchor     the end nearest the body bone carrying most of the clump's weight
//   polyline   vertices binned by distance from the anchored end, bin centroids, resampled to
//              --hair-segments / --skirt-segments equal lengths
//   bones      one joint per segment along the polyline, parented to that body bone, named
//              <garment>_<clump>_<k>, each bone's +Y axis along its segment; the polyline's far end
//              is the chain's tip (no end joint: the rig proxy adds a tip particle there)
//   weights    each vertex onto the two joints either side of where it projects, blended by where it
//              lands, the original body weight kept over the first root_blend of the chain and
//              handed over smoothly; a panel's vertices shared with the panel beside them by how far
//              round they sit, so the weights are continuous across panel borders (a dropped panel
//              carries with the body's weights); normalised, at most max_influences per vertex
//
//   stray      an authored chain joint's weight on a vertex beyond the chain's reach goes to the
//              vertex's other bones (GROW_STRAY_WEIGHT)
//
// The result is a copy of the scene with the new nodes appended (after every original node, so
// original indices stay valid), the new joints appended to each garment mesh's skin with their
// inverse bind matrices, and the garment vertices' influences rewritten.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "garment/garments.h"
#include "io/issue.h"
#include "scene/scene.h"

namespace weft {

/// docs/growth.md#drop: shorter or smaller clumps are fringe and ornaments, which cost what a
/// ponytail costs to simulate and only ever jitter around the face.
inline constexpr double kMinStrandLength = 0.060;   ///< metres, anchored end to farthest vertex
inline constexpr uint32_t kMinStrandVerts = 12;     ///< welded vertices
/// Share of a chain, from its anchored end, over which the original body weight is handed over to
/// the chain, so the scalp stays on the skull and the waistband on the hips (docs/growth.md#weights).
inline constexpr double kRootBlend = 0.22;
/// docs/growth.md#stray-weights: the least reach of an authored chain, metres (a head's radius); a
/// longer chain reaches its own length. A chain joint's weight on a vertex farther away is a stray one.
inline constexpr double kStrayWeightMinReach = 0.10;

struct GrowOptions {
    std::vector<std::string> classes{"hair", "skirt"};  ///< garment classes to grow (--classes)
    int hair_segments = 3;                    ///< bones per hair strand or cap wedge (--hair-segments), >= 1
    int skirt_segments = 4;                   ///< bones per skirt panel (--skirt-segments), >= 1
    int skirt_panels = 12;                    ///< wedges around the axis, for skirts and hair caps (--skirt-panels), >= 3
    double min_strand_length = kMinStrandLength;  ///< metres
    uint32_t min_strand_verts = kMinStrandVerts;
    double root_blend = kRootBlend;           ///< 0..1 share of the chain's length
    int max_influences = 4;                   ///< per vertex after re-weighting: 4 (JOINTS_0) or up to 8 (JOINTS_1)
};

/// "" when the options are usable, else which one is wrong and why.
std::string grow_options_error(const GrowOptions& options);

/// How one garment's classes are split (docs/growth.md#clumps).
enum class ClumpShape {
    strand,      ///< a connected island (hair)
    cap_wedge,   ///< a wedge of a hair island that was a cap, cut around its bone's axis
    skirt_wedge, ///< a radial panel of a skirt
};
const char* clump_shape_name(ClumpShape shape);  ///< "strand", "cap_wedge", "skirt_wedge"

/// One clump as the report sees it, grown or dropped.
struct ClumpReport {
    ClumpShape shape = ClumpShape::strand;
    uint32_t island = 0;          ///< the island it lies in
    int wedge = -1;               ///< panel index, -1 for a strand
    uint32_t vertices = 0;        ///< welded vertices
    double length = 0;            ///< metres from the anchored end to its farthest vertex
    int holder = -1;              ///< node carrying most of its weight (-1: none)
    std::string dropped;          ///< "" when grown; else "too_short", "too_few_vertices" or "no_holder"
    std::string reason;           ///< one line for people when dropped
    int chain = -1;               ///< index into GrowResult::chains when grown
};

/// A hair island found to be a cap and cut into wedges.
struct CapReport {
    uint32_t island = 0;
    uint32_t vertices = 0;
    double width = 0;   ///< metres: the arc it covers around its bone's axis, at its median radius
    double length = 0;  ///< metres: anchored end to farthest vertex, as a strand would measure
};

struct GrownChain {
    std::string name;              ///< "<garment>_<clump>"; its joints are name + "_<k>"
    std::string garment;           ///< the garment's name
    std::string class_name;        ///< "hair", "skirt"
    ClumpShape shape = ClumpShape::strand;
    int body_bone = -1;            ///< node (of both scenes) its root hangs from
    std::vector<int> joints;       ///< nodes of the grown scene, root to tip, one per segment
    std::vector<Vec3> polyline;    ///< scene space, bind pose: the joints' positions, then the tip
    std::vector<int> neighbours;   ///< other chains of this garment in the adjacent panels (wedges only), ascending
    uint32_t vertices = 0;         ///< welded vertices of its clump
    double length = 0;             ///< metres along the polyline
    int clump = -1;                ///< index into its GrownGarment::clumps
};

struct GrownGarment {
    int garment = -1;                 ///< index into ModelGarments::garments
    std::string name;
    std::string class_name;
    std::string outcome;              ///< "grown", or why nothing was (one line)
    std::vector<ClumpReport> clumps;  ///< in clump order: islands by lowest triangle, wedges by panel
    std::vector<CapReport> caps;      ///< hair islands cut into wedges
    std::vector<int> chains;          ///< indices into GrowResult::chains
    uint32_t dropped_short = 0;       ///< clumps dropped for length
    uint32_t dropped_small = 0;       ///< clumps dropped for vertex count
    double weld_tolerance = 0;        ///< metres
};

struct GrowResult {
    Scene scene;                          ///< the input with the grown bones, skins and weights
    std::vector<GrownChain> chains;
    std::vector<GrownGarment> garments;   ///< every garment of a selected class, grown or not
    std::vector<int> changed_meshes;      ///< meshes whose influences were rewritten, ascending
    Issues issues;                        ///< GROW_* codes (grow_codes.h)

    bool grew() const { return !chains.empty(); }
    size_t bone_count() const;
};

/// Grows chains for every garment of a selected class that no authored chain moves. Never throws
/// for anything about the model: a garment that cannot be grown is reported (why) and skipped.
GrowResult grow_cloth(const Scene& scene, const ModelGarments& garments, const GrowOptions& options = {});

}  // namespace weft
