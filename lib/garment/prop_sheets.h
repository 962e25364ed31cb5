// Cloth on props, found by geometry (docs/garments-by-geometry.md#cloth-on-props): a sail on
// materials called `Red` and `White`, an awning on `RoofTiles_Red`, a blanket on `DarkRed`. No name
// says cloth, yet a person sees a thin sheet hanging from, or spread over, the rigid parts of the
// model: poles, yards, frames, posts, a bed, a table.
//
// The model's static surface (meshes that are not skinned and ride no bone) is welded into one and
// cut into regions: triangles joined by edges two triangles share, on one material. A region is
// thin (geom/surface_shape.h, is_thin_sheet); a thin region whose
// material does not name a rigid substance or a plant is sheet, every other region rigid. Sheet regions that
// share an edge are one piece; a piece is held where it touches the rigid geometry (as the sheet
// builder's `touching` pin holds it), and its class is what its shape and its hold say:
//
//   flag        upright, held along one upright edge (a pole), free across
//   banner      upright, held only along its top, flat
//   curtain     upright, held only along its top, gathered in folds
//   sail        upright, held at its top and its foot, or along its top and one side (yards, mast, boom)
//   tent        sloping from a high hold down to the model's floor
//   awning      sloping or level, high above the floor, on posts or a frame, nothing under it
//   blanket     lying on a rigid top and hanging over its edge, beside rigid geometry rising above it (a headboard)
//   tablecloth  lying on a rigid top and hanging over its edge, nothing rising beside it
//
// A piece no rule takes stays rigid. The same cut splits a garment a name found on static meshes:
// its rigid regions (a pole modelled in the banner's mesh) leave the garment and hold it.
#pragma once
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "scene/scene.h"

namespace weft {

/// The classes found on props, in the order their rules are tried.
const std::vector<std::string>& prop_sheet_classes();

/// Whether a material's name says a substance that is never cloth, however thin it was modelled: a
/// rigid one (wood, metal, stone, ...: a deck, a hull, a breastplate) or a plant's (grass, leaves:
/// a tree's foliage modelled as a box with a jagged hem).
bool not_cloth_material_name(const std::string& name);

/// One piece of a prop that is cloth, and why.
struct PropSheet {
    std::string class_name;                                    ///< one of prop_sheet_classes()
    std::string rule;                                          ///< the rule that took it, for a person
    std::vector<std::pair<std::string, double>> measurements;  ///< what the rule read (shares, metres)
    std::map<int, std::vector<uint32_t>> vertices;             ///< scene mesh -> its vertices in the piece, ascending
    int node = -1;                                             ///< the node of its largest mesh
    std::vector<std::string> materials;                        ///< the materials it lies on, in mesh order
};

/// The static surface a prop's cloth is looked for in: per scene mesh, whether it may be searched
/// (unskinned, riding no bone) and which of its vertices are free (no name or chain took them).
struct StaticSurfaceInput {
    std::vector<char> mesh_static;                 ///< per scene mesh
    std::vector<std::vector<char>> vertex_taken;   ///< per scene mesh, per vertex
};

/// The pieces of cloth on the model's static surface, one per connected piece, in the order of
/// their lowest mesh and vertex; only classes in `wanted` (all when empty).
std::vector<PropSheet> find_prop_sheets(const Scene& scene, const StaticSurfaceInput& input,
                                        const std::vector<std::string>& wanted);

/// What the same cut makes of a name match on static meshes (`parts`: scene mesh -> vertices).
struct NameMatchCut {
    std::map<int, std::vector<uint32_t>> rigid;  ///< the vertices on rigid regions: leave them out, they hold it
    bool sheet = false;                          ///< some region of it is sheet
    bool all_closed = false;                     ///< every piece of it is closed (no border): a solid
};
NameMatchCut cut_name_match(const Scene& scene, const std::map<int, std::vector<uint32_t>>& parts);

}  // namespace weft
