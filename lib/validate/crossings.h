// Crossing triangles: pairs of a sheet's triangles that share no corner and whose interiors cut
// through each other — the cloth passed through itself (docs/validation.md#self-intersection).
// What SELF_INTERSECTION gates; a measure, independent of the solver.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "geom/vec.h"

namespace weft {

/// The number of pairs of `triangles` (corner indices into `x`) that share no corner and cross: an
/// edge of one passes through the other's interior, strictly (touching, or lying in its plane, is not
/// crossing). Triangles with a non-finite corner are left out. A spatial hash of the triangles' boxes
/// keeps it near linear: a 10,000-triangle sheet costs milliseconds.
uint32_t count_crossing_triangles(std::span<const Vec3> x, std::span<const std::array<uint32_t, 3>> triangles);

/// A pair that touched at rest: two triangles sharing no corner that do not cross at `rest` but lie
/// nearer each other there than `thickness` and than kTouchShare of the pair's longest edge (a
/// vertex on another piece's edge, two flaps modelled in one plane). Self-contact leaves such a pair
/// out by design (docs/solver.md#self-contact), and the least motion crosses it without the cloth
/// passing through itself (docs/validation.md#touching-at-rest).
constexpr double kTouchShare = 0.01;

/// As above, leaving out the pairs that touched at rest: `rest` the same particles at rest (as many
/// as `x`), `thickness` the fabric's. A pair crossing at rest is counted, as the rest pose counts it.
uint32_t count_crossing_triangles(std::span<const Vec3> x, std::span<const std::array<uint32_t, 3>> triangles,
                                  std::span<const Vec3> rest, double thickness);

}  // namespace weft
