// Splitting a garment into clumps, the pieces that each get one grown bone chain (docs/growth.md#clumps):
//
// - hair: connected islands over the mesh's own edges, after welding positions (a strand is a
//   connected piece of surface; clustering by position would merge two ponytails passing near each
//   other and split one that bends);
// - skirt: radial wedges around the body's up axis (a skirt is one connected surface, so islands
//   would return it whole: the bell-shaped failure). The same cut splits a hair island that is a cap
//   rather than a strand, around the head bone's axis.
//
// Everything here works on a GarmentSurface: the garment's parts concatenated into one source-vertex
// numbering and welded, so UV and normal seams and primitive boundaries do not split a piece.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "garment/garments.h"
#include "geom/vec.h"
#include "scene/scene.h"

namespace weft {

/// A garment's geometry as one welded surface.
struct GarmentSurface {
    std::vector<int> part_mesh;          ///< per part (Garment::parts order), its scene mesh
    std::vector<uint32_t> part_first;    ///< per part, its first source vertex; one extra entry: the total
    std::vector<uint32_t> mesh_vertex;   ///< per source vertex, its vertex index in its scene mesh
    std::vector<uint32_t> welded;        ///< per source vertex, its welded vertex
    std::vector<Vec3> position;          ///< per welded vertex, scene space (metres, Y up, bind pose)
    std::vector<uint32_t> triangles;     ///< welded vertices, three per triangle whose corners are all in the garment and distinct
    double weld_tolerance = 0;           ///< metres used

    uint32_t source_count() const { return static_cast<uint32_t>(mesh_vertex.size()); }
    uint32_t welded_count() const { return static_cast<uint32_t>(position.size()); }
    uint32_t triangle_count() const { return static_cast<uint32_t>(triangles.size() / 3); }
    /// The part a source vertex belongs to.
    uint32_t part_of(uint32_t source) const;
};

/// Concatenates the garment's parts (only the vertices each part lists; triangles whose three
/// corners it lists) and welds them by position within `relative` times the bounding-box diagonal
/// (geom/weld.h; the sheet builder's default). Non-finite positions are kept unwelded and their
/// triangles dropped, so they never join two pieces.
GarmentSurface weld_garment(const Scene& scene, const Garment& garment, double relative = 1e-5);

/// One clump: welded vertices that will hang from one chain.
struct Clump {
    std::vector<uint32_t> vertices;  ///< welded vertices, ascending
    uint32_t island = 0;             ///< the island it lies in (for a skirt's wedges, the lowest island it touches)
    int wedge = -1;                  ///< panel index around the axis it was cut around; -1 for a whole island
};

/// Connected islands over the surface's own edges (any shared edge joins two triangles), numbered
/// by their lowest triangle. Welded vertices no triangle uses belong to no island.
std::vector<Clump> island_clumps(const GarmentSurface& surface);

/// The axis wedges are cut around.
struct WedgeAxis {
    Vec3 origin;      ///< a point on the axis, scene space
    Vec3 direction;   ///< unit; the wedges' "up"
    Vec3 front;       ///< unit, perpendicular to direction: panel 0 is centred on it
};

/// Splits `vertices` (welded vertices of `surface`) into `panels` wedges of equal angle around the
/// axis: panel k covers azimuths [k - 1/2, k + 1/2) x 2pi/panels from `front` (an azimuth within
/// 1e-9 of a panel's width short of a boundary counts as past it), turning right-handed
/// about `direction` (for up = +Y and front = +Z, panel 1 is towards +X). Empty panels are left
/// out; the rest are returned in panel order, each clump's `wedge` its panel and `island` the given one.
std::vector<Clump> wedge_clumps(const GarmentSurface& surface, std::span<const uint32_t> vertices,
                                const WedgeAxis& axis, int panels, uint32_t island);

/// How much of the turn around the axis the points cover, radians in [0, 2pi]: 2pi minus the
/// largest empty gap between their azimuths. Points on the axis have no azimuth and are ignored.
double angular_coverage(std::span<const Vec3> points, const WedgeAxis& axis);

/// The azimuth of a point around the axis from `front`, radians in (-pi, pi]; 0 on the axis.
double azimuth(const Vec3& point, const WedgeAxis& axis);

}  // namespace weft
