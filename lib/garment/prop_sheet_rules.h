// Internal to lib/garment: the rules that say what a piece of a prop's sheet is
// (garment/prop_sheets.h, docs/garments-by-geometry.md#cloth-on-props), over plain arrays in scene
// space (metres, Y up), so they can be read and tested apart from the cut that finds the pieces.
#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "geom/surface_shape.h"
#include "geom/vec.h"

namespace weft::prop_detail {

/// What the rules read of one piece.
struct PieceFacts {
    std::vector<Vec3> points;                   ///< the piece's welded vertices
    std::vector<char> held;                     ///< per point: rigid geometry holds it (the builder's `touching`)
    std::vector<char> held_refined;             ///< per point: held once the builder refines a piece `held` holds whole (else `held`)
    std::vector<std::array<Vec3, 3>> triangles; ///< the piece's triangles
    std::vector<std::array<Vec3, 3>> rigid;     ///< rigid triangles near the piece
    SurfaceShape shape;                         ///< of the piece's triangles
    double floor = 0;                           ///< the model's lowest point, y
    double height = 0;                          ///< the model's height, metres
    double footprint_short = 0;                 ///< the shorter side of the model's horizontal bounding box, metres
};

struct PropClass {
    std::string class_name;  ///< "" when no rule takes it
    std::string rule;
    std::vector<std::pair<std::string, double>> measurements;
};

/// The first rule the piece satisfies among `wanted` (prop_sheet_classes() order), or none.
PropClass classify_prop_piece(const PieceFacts& piece, const std::vector<std::string>& wanted);

}  // namespace weft::prop_detail
