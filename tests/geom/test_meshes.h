// Hand-made meshes the geom and proxy suites share: each small enough to count its edges by hand.
// Sheets stand in the XY plane (Y up), like a flag or a cape seen from the front.
#pragma once
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "geom/vec.h"

namespace weft::test {

struct TriMesh {
    std::vector<Vec3> positions;
    std::vector<uint32_t> indices;

    uint32_t vertex_count() const { return static_cast<uint32_t>(positions.size()); }
    uint32_t triangle_count() const { return static_cast<uint32_t>(indices.size() / 3); }
    void add_triangle(uint32_t a, uint32_t b, uint32_t c) { indices.insert(indices.end(), {a, b, c}); }
};

/// A 1 m square in XY: vertices 0 (0,0), 1 (1,0), 2 (1,1), 3 (0,1); triangles (0,1,2), (0,2,3).
inline TriMesh quad() {
    TriMesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    m.add_triangle(0, 1, 2);
    m.add_triangle(0, 2, 3);
    return m;
}

/// nx x ny vertices spaced `spacing` apart in XY, row-major from the bottom-left (vertex y*nx + x),
/// each cell split along the same diagonal, wound counter-clockwise seen from +Z.
inline TriMesh grid(uint32_t nx, uint32_t ny, double spacing = 0.02) {
    TriMesh m;
    for (uint32_t y = 0; y < ny; ++y)
        for (uint32_t x = 0; x < nx; ++x) m.positions.push_back({x * spacing, y * spacing, 0});
    for (uint32_t y = 0; y + 1 < ny; ++y)
        for (uint32_t x = 0; x + 1 < nx; ++x) {
            uint32_t a = y * nx + x, b = a + 1, c = a + nx + 1, d = a + nx;
            m.add_triangle(a, b, c);
            m.add_triangle(a, c, d);
        }
    return m;
}

/// A strip of `quads` unit quads along X: a grid of (quads+1) x 2 vertices.
inline TriMesh strip(uint32_t quads) { return grid(quads + 1, 2, 1.0); }

/// An open tube around Y: `around` vertices per ring, `rings` rings, radius r, height `height`.
/// When `uv_seam`, each ring repeats its first vertex at the end (as exporters do where the UVs
/// wrap), so the tube only closes once welded.
inline TriMesh cylinder(uint32_t around, uint32_t rings, double r = 0.5, double height = 1.0, bool uv_seam = false) {
    TriMesh m;
    const uint32_t per_ring = around + (uv_seam ? 1 : 0);
    for (uint32_t j = 0; j < rings; ++j)
        for (uint32_t i = 0; i < per_ring; ++i) {
            double a = 2 * std::numbers::pi * (i % around) / around;
            m.positions.push_back({r * std::cos(a), height * j / (rings - 1), -r * std::sin(a)});
        }
    for (uint32_t j = 0; j + 1 < rings; ++j)
        for (uint32_t i = 0; i < around; ++i) {
            uint32_t i1 = uv_seam ? i + 1 : (i + 1) % around;
            uint32_t a = j * per_ring + i, b = j * per_ring + i1, c = (j + 1) * per_ring + i1, d = (j + 1) * per_ring + i;
            m.add_triangle(a, b, c);
            m.add_triangle(a, c, d);
        }
    return m;
}

/// Two unit quads 3 m apart: two islands.
inline TriMesh two_pieces() {
    TriMesh m = quad();
    TriMesh q = quad();
    for (Vec3 p : q.positions) m.positions.push_back(p + Vec3{3, 0, 0});
    for (uint32_t i : q.indices) m.indices.push_back(i + 4);
    return m;
}

/// A Möbius strip of `quads` quads: every quad wound the same way along the strip, so the half
/// twist makes the closing quad run its shared edge the same way as its neighbour. One-sided: no
/// choice of windings is consistent.
inline TriMesh moebius(uint32_t quads = 12, double radius = 1.0, double half_width = 0.2) {
    TriMesh m;
    for (uint32_t i = 0; i < quads; ++i) {
        double u = 2 * std::numbers::pi * i / quads;
        for (double v : {-half_width, half_width}) {
            double rr = radius + v * std::cos(u / 2);
            m.positions.push_back({rr * std::cos(u), v * std::sin(u / 2), rr * std::sin(u)});
        }
    }
    for (uint32_t i = 0; i < quads; ++i) {
        uint32_t lo = 2 * i, hi = 2 * i + 1;
        // At the seam the strip has turned over: its low side meets the first ring's high side.
        uint32_t nlo = i + 1 < quads ? 2 * (i + 1) : 1, nhi = i + 1 < quads ? 2 * (i + 1) + 1 : 0;
        m.add_triangle(lo, nlo, nhi);
        m.add_triangle(lo, nhi, hi);
    }
    return m;
}

/// Three triangles on the one edge (0,1), their apexes fanned round it: a non-manifold edge.
inline TriMesh fan_of_three() {
    TriMesh m;
    m.positions = {{0, 0, 0}, {0, 1, 0}, {1, 0.5, 0}, {-0.5, 0.5, 0.866}, {-0.5, 0.5, -0.866}};
    m.add_triangle(0, 1, 2);
    m.add_triangle(1, 0, 3);
    m.add_triangle(1, 0, 4);
    return m;
}

}  // namespace weft::test
