#include "geom/weld.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace weft {
namespace {

constexpr uint32_t none = std::numeric_limits<uint32_t>::max();

struct Cell {
    int64_t x = 0, y = 0, z = 0;
    bool operator==(const Cell&) const = default;
};

// Cell coordinates are clamped so a coordinate absurdly large for its tolerance still lands in a
// cell (all such points share the clamped cells and are compared by distance, slowly but
// correctly) instead of overflowing the conversion.
int64_t cell_coordinate(double scaled) {
    constexpr double limit = 4.0e18;
    return static_cast<int64_t>(std::clamp(std::floor(scaled), -limit, limit));
}

// Open-addressing table from a cell to the newest welded vertex in it; older ones are chained
// through `next`. Sized to at most half full, so probes stay short.
class CellTable {
public:
    explicit CellTable(size_t expected) {
        size_t size = 16;
        while (size < expected * 2) size *= 2;
        slots_.assign(size, Slot{});
        mask_ = size - 1;
    }
    uint32_t head(const Cell& c) const {
        for (size_t i = hash(c) & mask_;; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.head == none) return none;
            if (s.cell == c) return s.head;
        }
    }
    // Makes `vertex` the cell's head and returns the previous head (none if the cell was empty).
    uint32_t push(const Cell& c, uint32_t vertex) {
        for (size_t i = hash(c) & mask_;; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.head == none) {
                s.cell = c;
                s.head = vertex;
                return none;
            }
            if (s.cell == c) {
                uint32_t previous = s.head;
                s.head = vertex;
                return previous;
            }
        }
    }

private:
    struct Slot {
        Cell cell;
        uint32_t head = none;
    };
    static size_t hash(const Cell& c) {
        uint64_t h = uint64_t(c.x) * 0x9E3779B97F4A7C15ull;
        h ^= uint64_t(c.y) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
        h ^= uint64_t(c.z) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
        return size_t(h ^ (h >> 29));
    }
    std::vector<Slot> slots_;
    size_t mask_ = 0;
};

// Pass 1: byte-identical positions (after turning -0 into +0, which compares equal but differs in
// its bytes). Ids come out in order of first appearance.
std::vector<uint32_t> exact_remap(std::span<const Vec3> positions, uint32_t& unique) {
    std::vector<Vec3> canonical(positions.size());
    for (size_t i = 0; i < positions.size(); ++i) {
        const Vec3& p = positions[i];
        canonical[i] = Vec3{p.x + 0.0, p.y + 0.0, p.z + 0.0};
    }
    static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 must have no padding bytes to hash");
    std::vector<uint32_t> remap(positions.size());
    unique = static_cast<uint32_t>(meshopt_generateVertexRemap(remap.data(), nullptr, positions.size(), canonical.data(),
                                                                positions.size(), sizeof(Vec3)));
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
    assert(positions.size() < none);
    WeldResult r;
    r.tolerance = std::isfinite(tolerance) && tolerance > 0 ? tolerance : 0;
    const size_t n = positions.size();
    if (n == 0) return r;

    std::vector<uint32_t> exact = exact_remap(positions, r.exact_unique);
    // The first input vertex of each exact id (ids are in first-appearance order).
    std::vector<uint32_t> exact_first(r.exact_unique, none);
    for (size_t i = 0; i < n; ++i)
        if (exact_first[exact[i]] == none) exact_first[exact[i]] = static_cast<uint32_t>(i);

    // Pass 2: tolerance, over the distinct positions in order of first appearance.
    std::vector<uint32_t> welded_of_exact(r.exact_unique);
    const double cell = 2 * r.tolerance;
    const double tol2 = r.tolerance * r.tolerance;
    CellTable table(r.tolerance > 0 ? r.exact_unique : 0);
    std::vector<uint32_t> next;  // per welded vertex, the next older one in the same cell
    for (uint32_t u = 0; u < r.exact_unique; ++u) {
        const Vec3& p = positions[exact_first[u]];
        uint32_t found = none;
        Cell home;
        const bool hashed = r.tolerance > 0 && is_finite(p);
        if (hashed) {
            const double s[3] = {p.x / cell, p.y / cell, p.z / cell};
            int64_t base[3], side[3];
            for (int k = 0; k < 3; ++k) {
                base[k] = cell_coordinate(s[k]);
                // A point within tolerance (half a cell) lies in this cell or the neighbour on the
                // side of the cell's centre this point is on.
                side[k] = (s[k] - std::floor(s[k]) < 0.5) ? -1 : 1;
            }
            home = Cell{base[0], base[1], base[2]};
            for (int corner = 0; corner < 8; ++corner) {
                Cell c{base[0] + ((corner & 1) ? side[0] : 0), base[1] + ((corner & 2) ? side[1] : 0),
                       base[2] + ((corner & 4) ? side[2] : 0)};
                for (uint32_t w = table.head(c); w != none; w = next[w])
                    if (w < found && length_squared(positions[r.first[w]] - p) <= tol2) found = w;
            }
        }
        if (found == none) {
            found = static_cast<uint32_t>(r.first.size());
            r.first.push_back(exact_first[u]);
            next.push_back(hashed ? table.push(home, found) : none);
        }
        welded_of_exact[u] = found;
    }

    r.remap.resize(n);
    for (size_t i = 0; i < n; ++i) r.remap[i] = welded_of_exact[exact[i]];
    return r;
}

}  // namespace weft
