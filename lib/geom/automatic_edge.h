// The automatic resolution's edge length (docs/proxy.md#resampling): the sheet builder resamples to it,
// and the prop finder judges a coarse piece on the hold the builder would give it once refined to it
// (docs/proxy.md#too-coarse-to-hang), so both read it here.
#pragma once
#include <algorithm>
#include <cmath>

namespace weft {

/// About this many particles of an equilateral mesh over the sheet's area, within [kMinEdgeLength,
/// kMaxEdgeLength] metres.
inline constexpr double kAutomaticParticles = 256;
inline constexpr double kMinEdgeLength = 0.01;
inline constexpr double kMaxEdgeLength = 0.25;

/// The target edge length, metres, of a sheet of `area` m²: an equilateral mesh of edge L has about
/// 2/sqrt(3)·area/L² particles (two triangles of sqrt(3)/4·L² each).
inline double automatic_edge_length(double area) {
    const double L = std::sqrt(2 / std::sqrt(3.0) * std::max(area, 0.0) / kAutomaticParticles);
    return std::clamp(L, kMinEdgeLength, kMaxEdgeLength);
}

}  // namespace weft
