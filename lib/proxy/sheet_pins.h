// Internal to the sheet builder: who holds which particles (docs/proxy.md#pins). The
// rules are documented at PinRule (sheet_builder.h); the choices made here:
//
// - weights: a vertex is held when the weights on bones outside the garment sum to pin_weight or
//   more, and its holder is the heaviest of those bones (ties to the lower node), so a vertex shared
//   0.5/0.5 by spine and chest is held (by one of them) rather than left free for having no single
//   bone at 0.99. A particle welded from several source vertices is held by its lowest held one.
// - an unskinned sheet parented to a bone (the Knight's cape under `chest`) rides that bone, and by
//   default its top row is held by it: a cape, a tabard, a banner on a back all hang from their top
//   edge, and the vertices nearest the bone's origin are not a row (the cape's collar sits 0.29 to
//   0.37 m from `chest`, interleaved with the row below it).
// - the band of a rule defaults to a quarter of the sheet's median edge length: wide enough for a
//   row that is not quite straight (the cape's collar spans 34 mm in Y; its median edge is 176 mm,
//   so the band is 44 mm), narrow enough never to reach the next row, about a whole edge further
//   (the flag's hoist is 14-42 mm from the pole, the next column 58 mm; band 30 mm past 14 mm).
//   The positional rules take a quarter of the median step along their direction where that is
//   under half the median edge: the next row is one step away, and over a row of tall thin quads the
//   median edge is a tall one (Kenney's wide flag: 2.5 m edges, columns 0.1 m apart). Cells about as
//   long as wide keep the median edge (the cape's step 171 mm on 176 mm, the Goal_Flag's 0.75 of it).
// - left and right run along the scene's X, or along Z, right at -Z, for fabric spreading further
//   along Z than X: seen edge-on from the front, the extreme along X is the crest of a wave, not an
//   edge (docs/proxy.md#which-way-is-right).
// - nearest:NAME measures to the target's triangles (the point-triangle distance), not its vertices
//   or origin: a pole is a long cylinder whose vertices are all at its ends and whose origin is at
//   its foot. A node without geometry (a bone) is measured to its origin.
// - closed pieces of an unskinned sheet (every edge shared by two triangles: a solid) are held by
//   the frame node, not simulated: the banner's two brackets share its primitive, and a falling
//   bracket would be absurd. A closed piece thin for its width and of even thickness is a slab of
//   fabric and is simulated; a shield, thin but thicker at its boss, is not. Skinned garments are
//   held by their weights instead.
// - touching (the default of an unskinned sheet under no bone): the rigid geometry of the sheet's
//   own model holds it where it touches, each holder by its node: the sheet's closed pieces (held by
//   the frame node), then every unskinned mesh outside the garment, one holder per node. A holder
//   touches when the sheet's nearest particle is within one median edge of its triangles: at the
//   mesh's own resolution a vertex cannot sit closer to a surface that passes between vertices
//   (the banner's brackets pass through its top hem between vertices 98 mm from them, its median
//   edge 282 mm; the Goal_Flag's hoist is 14 mm from the pole, its median edge 120 mm). Each
//   touching holder holds the particles within the band of its nearest one, as nearest:NAME does.
// - a tablecloth or a blanket lies on its holder (docs/proxy.md#pins, held where it lies): the flat
//   fabric joined to a flat particle its holder touches, at that particle's height (within the band)
//   and over the holder's horizontal extent, is held by it too, since a prop pack leaves out the top
//   faces its cloth hides (Kenney's table keeps two strips of its top, 5.5 m apart, either side).
// - a particle two pins name goes to the lower holder (node index), as docs/proxy.md#pins rules.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/issue.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_detail.h"

namespace weft::sheet_detail {

struct PinContext {
    const Source& source;
    const SheetGarment& garment;
    const SheetOptions& options;
    std::span<const Vec3> particle_position;            ///< scene space
    std::span<const uint32_t> vertex_particle;          ///< per source vertex; no_particle for unused ones
    std::span<const uint32_t> particle_source;          ///< per particle, its lowest source vertex
    std::span<const std::array<uint32_t, 2>> edges;     ///< particle pairs
    std::span<const double> rest_length;                ///< per edge, metres
    std::span<const uint32_t> island;                   ///< per particle, its piece
    std::span<const uint8_t> island_closed;             ///< per piece: no boundary edge
    int frame_node = 0;                                 ///< the provisional frame: default holder of the positional rules
    std::span<const std::array<uint32_t, 3>> triangles; ///< particle triples, the sheet's kept triangles
};

struct PinAssignment {
    std::vector<int> holder;    ///< per particle, the holding node; -1 when free
    PinRule applied = PinRule::none;  ///< the rule automatic resolved to
    double tolerance = 0;       ///< metres, the band used (0 when none applies)
    uint32_t fabric = 0;        ///< particles the rule may hold: all but those of closed pieces held as solids
    std::string description;    ///< the rule as applied, for builder_options: "top", "nearest:Metal", ...
    std::vector<std::string> touched;  ///< touching: the holders found, as the messages name them
};

/// Applies the garment's pin rule and the closed-piece rule. Errors (unknown target, holder,
/// vertex) and decisions (closed pieces held, nothing held) go to `issues`.
PinAssignment assign_pins(const PinContext& context, Issues& issues);

/// True when any of the garment's meshes is skinned.
bool garment_is_skinned(const Source& source);

}  // namespace weft::sheet_detail
