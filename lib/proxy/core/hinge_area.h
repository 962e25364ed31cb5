// The area a hinge bends over, and the rule that makes a sheet's bending independent of its mesh
// (docs/solver.md#hinge). Shared by the sheet builder, which records per hinge the source mesh's hinge
// area where it lies, and by the solver, which scales each hinge's ratio by it.
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "geom/vec.h"

namespace weft {

/// The highest ratio of a hinge's m_eff/h² a hinge is given, whatever its area: inside the dissipative
/// band of about 8 (docs/solver.md#dissipative-band), with room for a particle's several hinges.
inline constexpr double kHingeRatioCeiling = 4.0;

/// A₁ + A₂: the areas of the hinge's two wing triangles (x0, x1, x2) and (x1, x0, x3), m².
double hinge_area(const std::array<uint32_t, 4>& hinge, std::span<const Vec3> position);

/// A hinge's ratio of its own m_eff/h² (docs/solver.md#hinge): `bend` at the reference area, scaled
/// by (reference / area)² so the energy per unit area at a given curvature does not depend on the
/// hinge's size, and capped at kHingeRatioCeiling. `reference` <= 0 (or an area <= 0) leaves `bend`.
double hinge_bend_ratio(double bend, double area, double reference);

/// Whether hinge_bend_ratio capped this hinge (its scaled ratio would exceed kHingeRatioCeiling).
bool hinge_bend_capped(double bend, double area, double reference);

}  // namespace weft
