// Internal to the sheet builder (sheet_builder.cpp, sheet_pins.cpp): the garment's meshes as one
// source-vertex numbering, and how a finding names a vertex or triangle for the person fixing it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "geom/vec.h"
#include "proxy/sheet_builder.h"
#include "scene/scene.h"

namespace weft::sheet_detail {

/// The garment's meshes concatenated: source vertex v of part k is vertex v - first_vertex[k] of
/// scene mesh meshes[k]. Only triangles whose three indices are in range are kept.
struct Source {
    const Scene* scene = nullptr;
    std::vector<int> meshes;              ///< scene mesh index per part
    std::vector<uint32_t> first_vertex;   ///< per part, its first source vertex; one extra entry: the total
    std::vector<Vec3> positions;          ///< per source vertex, scene space (metres, Y up)
    std::vector<uint32_t> indices;        ///< kept triangles, three source vertices each
    std::vector<uint32_t> triangle_part;  ///< per kept triangle, its part
    std::vector<uint32_t> triangle_local; ///< per kept triangle, its index in its mesh

    uint32_t vertex_count() const { return static_cast<uint32_t>(positions.size()); }
    uint32_t triangle_count() const { return static_cast<uint32_t>(triangle_part.size()); }
    uint32_t part_of(uint32_t v) const;   ///< the part a source vertex belongs to
    const Mesh& mesh(uint32_t part) const { return scene->meshes[static_cast<size_t>(meshes[part])]; }
    uint32_t local_vertex(uint32_t v) const { return v - first_vertex[part_of(v)]; }

    /// The model file, as named in every message.
    std::string file() const;
    /// "mesh 'Couch_Mustard' vertex 17 at (0.1, 0.25, -1)"
    std::string vertex_text(uint32_t v) const;
    /// "mesh 'Couch_Mustard' triangle 40"
    std::string triangle_text(uint32_t t) const;
    /// "(17, 18, 20)": a triangle's corners as its mesh numbers them
    std::string corners_text(uint32_t t) const;
    std::string vertex_pointer(uint32_t v) const;    ///< "/meshes/Couch_Mustard/vertices/17"
    std::string triangle_pointer(uint32_t t) const;  ///< "/meshes/Couch_Mustard/triangles/40"
    std::string edge_pointer(uint32_t a, uint32_t b) const;  ///< "/meshes/Couch_Mustard/edges/12-40" (by source vertices)
};

/// Per vertex of scene mesh `mesh` (`vertex_count` of them), whether the garment has it
/// (SheetGarment::vertices; every vertex when it lists none for the mesh).
std::vector<char> garment_member(const SheetGarment& garment, int mesh, size_t vertex_count);

/// "(0.1, 0.25, -1)" with six significant digits.
std::string position_text(const Vec3& p);
/// A length for a message: "5.2e-05 m", "0.0312 m".
std::string metres_text(double metres);

}  // namespace weft::sheet_detail
