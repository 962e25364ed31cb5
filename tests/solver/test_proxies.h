// Small ClothProxies built in code for the solver's tests and benchmark: chains, a strand rig, a
// sheet held along its top edge, a flag held along a vertical hoist. Built with lib/graph the way a
// proxy builder does (geodesic distance to the held particles, greedy colouring of the coupling
// graph, particles permuted into colour ranges), without depending on lib/proxy's builders.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "proxy/core/cloth_proxy.h"

namespace weft::test {

/// A proxy before colouring: particles in authoring order.
struct ProxyDraft {
    ProxyKind kind = ProxyKind::sheet;
    std::string garment = "test";
    std::vector<Vec3> position;                       ///< rest positions, metres
    std::vector<double> mass;                         ///< kg per particle (held ones too)
    std::vector<uint8_t> held;                        ///< 1 = held (inverse mass 0)
    std::vector<std::array<uint32_t, 2>> edges;       ///< stretch rows; rest length from positions
    std::vector<std::array<uint32_t, 2>> skips;       ///< skip rows; rest length from positions
    std::vector<std::array<uint32_t, 3>> triangles;   ///< consistently wound; hinges derived from them
    std::vector<std::vector<uint32_t>> pins;          ///< particles per pin (authoring indices)
};

/// Geodesic distance, colouring, permutation into colour order. `source[i]` of the result is particle
/// i's authoring index.
ClothProxy finish_proxy(const ProxyDraft& draft);

/// The particle whose authoring index is `original`.
uint32_t particle(const ClothProxy& proxy, uint32_t original);

/// A chain of `links` links of `spacing` metres from particle 0 (held at the origin) along
/// `direction`; every particle `particle_mass` kg; skip rows to the grandparent when `skips`.
ClothProxy chain_proxy(uint32_t links, double spacing, double particle_mass, Vec3 direction = {0, -1, 0},
                       bool skips = true);

/// `strands` chains of `links` links side by side along +z (`spacing` apart), authored along +x,
/// roots held, neighbouring strands joined at every depth, skips along each strand (table L1 of docs/measurements.md).
ClothProxy strand_rig_proxy(uint32_t strands, uint32_t links, double spacing, double particle_mass);

/// The draft of grid_sheet_proxy (vertical = false) or flag_proxy (vertical = true), for a test that
/// moves its rest positions before finishing it.
ProxyDraft grid_draft(uint32_t nx, uint32_t ny, double spacing, double total_mass, bool vertical);

/// An nx x nz grid at `spacing` in the horizontal x-z plane, one diagonal per quad, `total_mass` kg
/// shared equally, the row z = 0 held (docs/solver.md#budgets: hung from its top edge, dropped through 90°).
/// Authoring index of (ix, iz) is iz·nx + ix.
ClothProxy grid_sheet_proxy(uint32_t nx, uint32_t nz, double spacing, double total_mass);

/// An nx x ny flag in the vertical x-y plane (y down from 0), held along its hoist x = 0.
/// Authoring index of (ix, iy) is iy·nx + ix.
ClothProxy flag_proxy(uint32_t nx, uint32_t ny, double spacing, double total_mass);

}  // namespace weft::test

namespace weft::test {

/// A sheet folded over on itself, `nx` particles wide along x at `spacing`: a lower layer of `rows`
/// rows along +z at y = 0, held whole (a table); a half-turn fold of three edges at its far end
/// (z = (rows − 1)·spacing) up to y = 6·spacing/π; and an upper layer of `rows` rows back along −z,
/// arched `arch` metres up between the fold and its last row, which is held above the lower
/// layer's first. The arch makes the upper layer longer than its span: falling, it must sag through
/// the lower layer unless self-contact stops it (docs/solver.md#self-contact). 0.5 kg in all.
ClothProxy folded_sheet_proxy(uint32_t nx, uint32_t rows, double spacing, double arch);

}  // namespace weft::test
