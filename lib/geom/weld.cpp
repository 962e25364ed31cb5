#include "geom/weld.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace weft {
namespace {

constexpr uint32_t no_vertex = std::numeric_limits<uint32_t>::max();

// Cells are kCellTolerances tolerances wide: a point within tolerance of another lies in the same
// cell unless it is within one tolerance of a face, so along each axis a neighbour cell needs
// probing 2 times in 16, and most points probe one cell.
constexpr double kCellTolerances = 16;
// A point this close to the band's edge (in cells) probes the neighbour anyway: floor() and the
// division round, and a weld exactly at the tolerance must not depend on it.
constexpr double kBandMargin = 1e-6;

// Cell coordinates are clamped so a coordinate absurdly large for its tolerance still lands in a
// cell (all such points share the clamped cells and are compared by distance, slowly but
// correctly) instead of overflowing the conversion.
int64_t cell_coordinate(double scaled) {
    constexpr double limit = 4.0e18;
    return static_cast<int64_t>(std::clamp(std::floor(scaled), -limit, limit));
}

uint64_t cell_key(int64_t x, int64_t y, int64_t z) {
    uint64_t h = uint64_t(x) * 0x9E3779B97F4A7C15ull;
    h ^= uint64_t(y) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= uint64_t(z) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    return h ^ (h >> 29);
}

// Open-addressing table from a cell's 64-bit key to the newest welded vertex in it; older ones are
// chained through `next`. Two cells that share a key share a chain: that only adds candidates,
// which the distance test rejects, so the key alone identifies a slot. At most half full.
class CellTable {
public:
    explicit CellTable(size_t expected) {
        size_t size = 16;
        while (size < expected * 2) size *= 2;
        slots_.assign(size, Slot{});
        mask_ = size - 1;
    }
    uint32_t head(uint64_t key) const {
        for (size_t i = key & mask_;; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.head == no_vertex) return no_vertex;
            if (s.key == key) return s.head;
        }
    }
    // Makes `vertex` the cell's head and returns the previous head (no_vertex if the cell was empty).
    uint32_t push(uint64_t key, uint32_t vertex) {
        for (size_t i = key & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.head == no_vertex) {
                s.key = key;
                s.head = vertex;
                return no_vertex;
            }
            if (s.key == key) {
                uint32_t previous = s.head;
                s.head = vertex;
                return previous;
            }
        }
    }

private:
    struct Slot {
        uint64_t key = 0;
        uint32_t head = no_vertex;
    };
    std::vector<Slot> slots_;
    size_t mask_ = 0;
};

// Pass 1: byte-identical positions. -0 and +0 compare equal but differ in their bytes, so a copy
// with -0 turned into +0 is hashed when (and only when) some coordinate is -0. Ids come out in
// order of first appearance.
std::vector<uint32_t> exact_remap(std::span<const Vec3> positions, uint32_t& unique) {
    static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 must have no padding bytes to hash");
    const bool negative_zero = std::any_of(positions.begin(), positions.end(), [](const Vec3& p) {
        return (p.x == 0 && std::signbit(p.x)) || (p.y == 0 && std::signbit(p.y)) || (p.z == 0 && std::signbit(p.z));
    });
    std::vector<Vec3> canonical;
    if (negative_zero) {
        canonical.resize(positions.size());
        for (size_t i = 0; i < positions.size(); ++i) {
            const Vec3& p = positions[i];
            canonical[i] = Vec3{p.x + 0.0, p.y + 0.0, p.z + 0.0};
        }
    }
    const Vec3* data = negative_zero ? canonical.data() : positions.data();
    std::vector<uint32_t> remap(positions.size());
    unique = static_cast<uint32_t>(
        meshopt_generateVertexRemap(remap.data(), nullptr, positions.size(), data, positions.size(), sizeof(Vec3)));
    return remap;
}

}  // namespace

double weld_tolerance_for(std::span<const Vec3> positions, double relative) {
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    bool any = false;
    for (const Vec3& p : positions) {
        if (!is_finite(p)) continue;
        lo = min(lo, p);
        hi = max(hi, p);
        any = true;
    }
    if (!any) return 0;
    double diagonal = length(hi - lo);
    double t = relative * diagonal;
    return std::isfinite(t) && t > 0 ? t : 0;
}

WeldResult weld_positions(std::span<const Vec3> positions, double tolerance) {
    assert(positions.size() < no_vertex);
    WeldResult r;
    r.tolerance = std::isfinite(tolerance) && tolerance > 0 ? tolerance : 0;
    const size_t n = positions.size();
    if (n == 0) return r;

    std::vector<uint32_t> exact = exact_remap(positions, r.exact_unique);
    // The first input vertex of each exact id (ids are in first-appearance order).
    std::vector<uint32_t> exact_first(r.exact_unique, no_vertex);
    for (size_t i = 0; i < n; ++i)
        if (exact_first[exact[i]] == no_vertex) exact_first[exact[i]] = static_cast<uint32_t>(i);

    // Pass 2: tolerance, over the distinct positions in order of first appearance.
    std::vector<uint32_t> welded_of_exact(r.exact_unique);
    const double cell = kCellTolerances * r.tolerance;
    const double band = 1 / kCellTolerances + kBandMargin;
    const double tol2 = r.tolerance * r.tolerance;
    CellTable table(r.tolerance > 0 ? r.exact_unique : 0);
    std::vector<uint32_t> next;  // per welded vertex, the next older one in the same cell
    for (uint32_t u = 0; u < r.exact_unique; ++u) {
        const Vec3& p = positions[exact_first[u]];
        uint32_t found = no_vertex;
        uint64_t home = 0;
        const bool hashed = r.tolerance > 0 && is_finite(p);
        if (hashed) {
            const double s[3] = {p.x / cell, p.y / cell, p.z / cell};
            int64_t base[3], lo[3], hi[3];
            for (int k = 0; k < 3; ++k) {
                base[k] = cell_coordinate(s[k]);
                const double f = s[k] - std::floor(s[k]);
                lo[k] = f < band ? -1 : 0;
                hi[k] = f > 1 - band ? 1 : 0;
            }
            home = cell_key(base[0], base[1], base[2]);
            for (int64_t dx = lo[0]; dx <= hi[0]; ++dx)
                for (int64_t dy = lo[1]; dy <= hi[1]; ++dy)
                    for (int64_t dz = lo[2]; dz <= hi[2]; ++dz) {
                        const uint64_t key = cell_key(base[0] + dx, base[1] + dy, base[2] + dz);
                        for (uint32_t w = table.head(key); w != no_vertex; w = next[w])
                            if (w < found && length_squared(positions[r.first[w]] - p) <= tol2) found = w;
                    }
        }
        if (found == no_vertex) {
            found = static_cast<uint32_t>(r.first.size());
            r.first.push_back(exact_first[u]);
            next.push_back(hashed ? table.push(home, found) : no_vertex);
        }
        welded_of_exact[u] = found;
    }

    r.remap.resize(n);
    for (size_t i = 0; i < n; ++i) r.remap[i] = welded_of_exact[exact[i]];
    return r;
}

}  // namespace weft
