// Where a clump hangs and the line it follows (docs/growth.md#anchor-and-polyline): the bone it
// hangs from as a segment, the garment's welded surface with its weights, the anchored end, the
// polyline fitted down the clump, and the frames its bones take. What grow.cpp builds chains on.
#pragma once
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "garment/garments.h"
#include "garment/clumps.h"
#include "geom/vec.h"
#include "scene/scene.h"

namespace weft {

/// A bone as a segment: from its origin along the way it points. The anchored end of a clump is the
/// end nearest this segment, not the bone's origin, because a head bone sits at the base of the
/// skull: measured from the origin, the tips of a fringe are nearer than the crown it grows from.
struct BoneSegment {
    Vec3 origin;
    Vec3 direction{0, 1, 0};  ///< unit
    double length = 0;        ///< metres
};

double distance_to_segment(const Vec3& p, const BoneSegment& s);

/// The scene's bones as segments, each worked out once.
class BoneGeometry {
public:
    explicit BoneGeometry(const Scene& scene) : scene_(scene) {}

    /// The bone's segment: to the child that continues it (the child most in line with the way the
    /// bone came from its parent), or, for a leaf such as a head without an end joint, along the
    /// incoming direction as far as the geometry it carries most reaches.
    BoneSegment segment(int node);

private:
    /// How far along the segment's direction the vertices this bone weights most reach (>= 0).
    double carried_extent(int node, const BoneSegment& s) const;

    const Scene& scene_;
    std::map<int, BoneSegment> segments_;
};

/// The welded surface plus, per welded vertex, its source vertices and its body weights.
struct Surface {
    GarmentSurface s;
    std::vector<uint32_t> source_offsets;  ///< welded vertex w's sources: source_list[offsets[w]..offsets[w+1])
    std::vector<uint32_t> source_list;
    std::vector<std::vector<std::pair<int, double>>> weights;  ///< per welded vertex: (node, weight) of its lowest source vertex

    const Mesh& mesh_of(const Scene& scene, uint32_t source) const {
        return scene.meshes[static_cast<size_t>(s.part_mesh[s.part_of(source)])];
    }
};

Surface make_surface(const Scene& scene, const Garment& garment);

/// The node carrying most of the clump's weight (ties to the lower node), or -1.
int holder_of(const Surface& surface, const std::vector<uint32_t>& vertices);

struct Anchored {
    Vec3 anchor;                 ///< the anchored end: centroid of the vertices nearest the bone
    std::vector<double> reach;   ///< per clump vertex, distance from the anchor
    double length = 0;           ///< the largest reach
};

/// The clump's anchored end: of its two ends along its own line, the one nearest `bone`.
Anchored anchor_clump(const Surface& surface, const std::vector<uint32_t>& vertices, const BoneSegment& bone);

/// A skirt panel anchored at its waistband: the centroid of its top fiftieth (by height), so the
/// chain roots where the skirt meets the hips, whatever bone its hem is weighted to.
Anchored anchor_at_top(const Surface& surface, const std::vector<uint32_t>& vertices);

/// Bin the vertices by distance from the anchored end and join the bins' centroids, so the chain
/// follows the piece's own curve; then resample to `segments` equal lengths.
std::vector<Vec3> fit_polyline(const Surface& surface, const std::vector<uint32_t>& vertices, const Anchored& a,
                               int segments);

/// Where a point projects onto the polyline: the nearest segment (ties to the lower), the parameter
/// along it, and the distance from the start along the polyline.
struct Projection {
    int segment = 0;
    double t = 0;
    double along = 0;
    double distance = 0;
};

Projection project(const std::vector<Vec3>& line, const std::vector<double>& cumulative, const Vec3& x);

/// A rotation whose +Y is `y` and whose +Z is as close to `z_hint` as that allows (falling back on
/// `x_hint` when `z_hint` is parallel to `y`): each bone's axis along its segment, its twist
/// following the bone it hangs from.
Mat3 frame_along(const Vec3& y, const Vec3& z_hint, const Vec3& x_hint);

/// The rigid transform placing `rotation` at `position`.
Mat4 rigid(const Vec3& position, const Mat3& rotation);

/// Column `c` of `m`'s rotation, normalised.
Vec3 column(const Mat4& m, int c);

}  // namespace weft
