// The shape of a piece of triangle surface, as a person reads it before asking what it is made of:
// how far it reaches along its three principal directions, which way it faces, and how thick it is
// (docs/garments-by-geometry.md#cloth-on-props). A sheet of fabric is thin for its width whether it
// was modelled single-sided (thickness 0) or as a slab with a front and a back face a few
// millimetres apart; a pole, a beam or a crate is about as thick as it is wide.
//
// Thickness is measured as a ray from each sampled triangle's centre along its inward normal (the
// reverse of its winding's normal) to the nearest triangle of the piece that faces back at it: a
// slab's front face finds its back face at the slab's thickness, a beam's side finds the opposite
// side at the beam's width, and a single-sided sheet finds nothing (thickness 0). The piece's
// thickness is the area-weighted median over the samples, so a slab's rim, whose rays run along the
// slab, does not count.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "geom/vec.h"

namespace weft {

/// Triangles sampled for thickness, at most: every k-th triangle in index order, k the smallest
/// stride that keeps the count within this. Deterministic in the triangle order.
inline constexpr size_t kThicknessSamples = 256;

/// A piece is a thin sheet when its thickness is at most this share of its width: the slab sails,
/// flags and awnings of the corpus measured 0.01 to 0.10, its planks, beams, poles, shields and roof
/// slabs 0.14 and up (docs/garments-by-geometry.md#cloth-on-props).
inline constexpr double kThinSheetShare = 0.12;

/// A slab is even when the upper quartile of its thickness is at most this times the lower: a
/// fabric slab's two faces run parallel (the corpus's slab awnings, sails, pennants and banners
/// measured 1.00 to 1.12), a solid thin for its width is not (KayKit's shield with two swords
/// through it, 0.10 to 0.15 m: 1.48) (docs/proxy.md#pins, closed pieces).
inline constexpr double kEvenThicknessSpread = 1.25;

struct SurfaceShape {
    double area = 0;                  ///< m², the triangles' total
    Vec3 centre;                      ///< area-weighted centroid, scene space
    std::array<Vec3, 3> axes{};       ///< unit principal directions of the area-weighted spread, widest first
    std::array<double, 3> extent{};   ///< metres, max - min of the vertices along each of `axes`
    Vec3 normal_axis;                 ///< unit: the axis the area-weighted normals agree on most (sign arbitrary)
    double flatness = 0;              ///< share of the area-weighted normals' squared length along normal_axis: 1 flat, 1/3 a sphere
    double thickness = 0;             ///< metres: area-weighted median inward distance to a back face (0: single-sided)
    double faced_share = 0;           ///< share of the sampled area whose inward ray found a back face
    std::array<double, 2> thickness_quartiles{};  ///< metres: the area-weighted 25th and 75th percentiles of the same

    /// The middle extent: the width of a sheet (extent[0] is its length, extent[2] its thickness or its curl).
    double width() const { return extent[1]; }
    /// Thin for its width (kThinSheetShare): fabric, whether single-sided or a slab.
    bool is_thin_sheet() const { return area > 0 && width() > 0 && thickness <= kThinSheetShare * width(); }
    /// Of even thickness (kEvenThicknessSpread): both faces of a slab parallel; a single-sided sheet
    /// (no back face) is not a slab and not even.
    bool is_even_slab() const {
        return thickness_quartiles[0] > 0 && thickness_quartiles[1] <= kEvenThicknessSpread * thickness_quartiles[0];
    }
};

/// Measures the piece `triangles` (indices into `triangle_indices`, three vertex indices each, into
/// `positions`). Triangles with no area count for nothing. An empty piece gives a zero shape.
SurfaceShape measure_surface(std::span<const Vec3> positions, std::span<const uint32_t> triangle_indices,
                             std::span<const uint32_t> triangles);

/// The distance along triangle `t`'s inward normal, from its centre, to the nearest triangle of
/// `triangles` that faces back at it (its normal against `t`'s); +infinity when the ray meets none.
/// Triangle indices as for measure_surface.
double inward_distance(std::span<const Vec3> positions, std::span<const uint32_t> triangle_indices,
                       std::span<const uint32_t> triangles, uint32_t t);

/// The eigen-decomposition of a symmetric 3x3 matrix (cyclic Jacobi rotations): values descending,
/// vectors unit and matching. Deterministic; exact to rounding for the covariances measured here.
void symmetric_eigen(const std::array<std::array<double, 3>, 3>& m, std::array<double, 3>& values,
                     std::array<Vec3, 3>& vectors);

}  // namespace weft
