// Self-contact's candidate lists (docs/solver.md#self-contact): each free particle's list is exactly the
// triangles not excluded whose nearest point lies within its search distance plus the margin,
// ascending, as an O(n²) search over every triangle finds them, on sheets crumpled into layers and
// into a ball; and the rows found from lists kept over several detections are those of lists made
// again at every detection (the margin's guarantee), bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "geom/nearest_on_triangle.h"
#include "solver/self_contact_rows.h"
#include "solver/test_proxies.h"

namespace weft {
namespace {
namespace candidate_lists {  // its own names: the suite is compiled in unity batches

constexpr double kSpacing = 0.02;
constexpr double kThickness = 0.006;  // cotton's

/// What detect reads, for `proxy` at positions `x`: unit masses, each particle's trust radius its
/// shortest edge (as the solver cooks it), the proxy's reach.
struct Inputs {
    std::vector<uint32_t> free_particles;
    std::vector<double> mass, trust_radius;
    double reach = 0;

    explicit Inputs(const ClothProxy& proxy) : mass(proxy.particle_count(), 1.0),
        trust_radius(proxy.particle_count(), std::numeric_limits<double>::infinity()), reach(weft::reach(proxy)) {
        for (uint32_t i = 0; i < proxy.particle_count(); ++i)
            if (proxy.inverse_mass[i] > 0) free_particles.push_back(i);
        for (size_t e = 0; e < proxy.edges.size(); ++e)
            for (uint32_t end : proxy.edges[e]) trust_radius[end] = std::min(trust_radius[end], proxy.rest_length[e]);
    }
    SelfContactInputs at(const std::vector<Vec3>& x, const std::vector<Vec3>& x_prev) const {
        return {free_particles, x.data(), x_prev.data(), mass, trust_radius, reach, 3600.0};
    }
};

/// Uniform in [-1, 1) from the generator's own output (the distributions' algorithms are the library's).
double jitter(std::mt19937& g) { return static_cast<double>(g()) / 2147483648.0 - 1.0; }

/// The sheet folded like an accordion across z into layers 4 mm apart, every particle moved up to
/// `shake` metres each way: layers in reach of one another, at every angle.
std::vector<Vec3> layered(const ClothProxy& proxy, double shake, uint32_t seed) {
    std::mt19937 g(seed);
    const double pleat = 3 * kSpacing;
    std::vector<Vec3> x;
    for (const Vec3& r : proxy.rest_position) {
        const double u = r.z / pleat;
        const double layer = std::floor(u), f = u - layer;
        const bool even = static_cast<int64_t>(layer) % 2 == 0;
        x.push_back(Vec3{r.x, 0.004 * layer, pleat * (even ? f : 1 - f)} +
                    Vec3{jitter(g), jitter(g), jitter(g)} * shake);
    }
    return x;
}

/// The sheet crushed to a fifth of its size round its middle, jittered: most triangles within reach.
std::vector<Vec3> balled(const ClothProxy& proxy, uint32_t seed) {
    std::mt19937 g(seed);
    Vec3 middle{};
    for (const Vec3& r : proxy.rest_position) middle = middle + r;
    middle = middle * (1.0 / static_cast<double>(proxy.particle_count()));
    std::vector<Vec3> x;
    for (const Vec3& r : proxy.rest_position)
        x.push_back(middle + (r - middle) * 0.2 + Vec3{jitter(g), jitter(g), jitter(g)} * 0.01);
    return x;
}

/// Every free particle's list by the definition: every triangle with finite corners, not excluded, whose
/// nearest point is nearer than the particle's search distance plus the margin, ascending.
std::vector<std::vector<uint32_t>> brute_force(const SelfContactModel& m, const Inputs& in, const std::vector<Vec3>& x) {
    std::vector<std::vector<uint32_t>> lists(x.size());
    for (uint32_t i : in.free_particles) {
        if (!is_finite(x[i])) continue;
        const double tr = in.trust_radius[i];
        const double reach = m.thickness + (std::isfinite(tr) ? tr : in.reach) + m.margin;
        const auto excluded_begin = m.excluded.begin() + m.excluded_offset[i];
        const auto excluded_end = m.excluded.begin() + m.excluded_offset[i + 1];
        for (uint32_t t = 0; t < m.triangles.size(); ++t) {
            const Vec3 &a = x[m.triangles[t][0]], &b = x[m.triangles[t][1]], &c = x[m.triangles[t][2]];
            if (!is_finite(a) || !is_finite(b) || !is_finite(c)) continue;
            if (std::binary_search(excluded_begin, excluded_end, t)) continue;
            if (length(x[i] - nearest_on_triangle(x[i], a, b, c).point) < reach) lists[i].push_back(t);
        }
    }
    return lists;
}

/// detect's lists after a detection at `x`, per particle.
std::vector<std::vector<uint32_t>> listed(const SelfContactState& s, size_t n) {
    std::vector<std::vector<uint32_t>> lists(n);
    for (size_t i = 0; i < n; ++i)
        lists[i].assign(s.candidates.begin() + s.candidate_first[i], s.candidates.begin() + s.candidate_first[i + 1]);
    return lists;
}

size_t total(const std::vector<std::vector<uint32_t>>& lists) {
    size_t sum = 0;
    for (const auto& l : lists) sum += l.size();
    return sum;
}

TEST(SelfContactLists, AreTheBruteForceListsOnCrumpledSheets) {
    const ClothProxy proxy = test::grid_sheet_proxy(16, 16, kSpacing, 0.5);
    const SelfContactModel m = self_contact_rows::build(proxy, kThickness, true);
    ASSERT_TRUE(m.enabled);
    const Inputs in(proxy);
    const size_t n = proxy.particle_count();
    std::vector<Vec3> nan_corner = layered(proxy, 0.002, 7);
    nan_corner[5 * 16 + 7].y = std::numeric_limits<double>::quiet_NaN();  // its triangles and itself drop out
    // The sheet flung to x = 1e300 m (finite): every x rounds to one value, so its cell index is far
    // beyond int64_t's range and must saturate, not overflow.
    std::vector<Vec3> flung = proxy.rest_position;
    for (Vec3& p : flung) p.x += 1e300;
    const std::vector<std::vector<Vec3>> shapes = {proxy.rest_position, layered(proxy, 0, 1), layered(proxy, 0.002, 2),
                                                   layered(proxy, 0.008, 3), balled(proxy, 4), nan_corner, flung};
    const size_t least[] = {0, 800, 800, 800, 20000, 800, 0};  // pairs the search finds: the shape has layers in reach
    for (size_t k = 0; k < shapes.size(); ++k) {
        SCOPED_TRACE(k);
        SelfContactState s;
        self_contact_rows::detect(m, s, in.at(shapes[k], shapes[k]), SolverConstants{});
        const std::vector<std::vector<uint32_t>> expected = brute_force(m, in, shapes[k]);
        EXPECT_GE(total(expected), least[k]);
        EXPECT_EQ(listed(s, n), expected);
    }
}

bool same_rows(const SelfContactState& a, const SelfContactState& b) {
    if (a.first != b.first || a.rows.size() != b.rows.size()) return false;
    for (size_t r = 0; r < a.rows.size(); ++r) {
        const SelfContact &p = a.rows[r], &q = b.rows[r];
        if (p.vertex != q.vertex || p.triangle != q.triangle || p.c0 != q.c0 || p.lambda != q.lambda || p.k != q.k ||
            !(p.gradient == q.gradient) || !(p.anchor == q.anchor))
            return false;
    }
    return true;
}

TEST(SelfContactLists, KeptListsFindTheRowsOfListsMadeAtEveryDetection) {
    const ClothProxy proxy = test::grid_sheet_proxy(16, 16, kSpacing, 0.5);
    const SelfContactModel m = self_contact_rows::build(proxy, kThickness, true);
    const Inputs in(proxy);
    // From flat into layers in small moves, each detection's duals updated at its own positions so the
    // multipliers carried over are not all zero.
    const std::vector<Vec3> flat = proxy.rest_position, folded = layered(proxy, 0.002, 11);
    constexpr int kMoves = 120;
    SelfContactState kept, made;
    std::vector<Vec3> x_prev = flat;
    int reused = 0, rows = 0;
    for (int s = 1; s <= kMoves; ++s) {
        std::vector<Vec3> x(flat.size());
        const double f = static_cast<double>(s) / kMoves;
        for (size_t i = 0; i < x.size(); ++i) x[i] = flat[i] * (1 - f) + folded[i] * f;
        made.listed_at.clear();  // lists made again at this detection
        const std::vector<Vec3> before = kept.listed_at;
        rows += self_contact_rows::detect(m, kept, in.at(x, x_prev), SolverConstants{});
        self_contact_rows::detect(m, made, in.at(x, x_prev), SolverConstants{});
        reused += kept.listed_at == before;
        ASSERT_TRUE(same_rows(kept, made)) << "detection " << s;
        self_contact_rows::update_duals(kept, in.free_particles, x.data());
        self_contact_rows::update_duals(made, in.free_particles, x.data());
        x_prev = x;
    }
    EXPECT_GT(reused, kMoves / 4);  // the lists were kept over many detections
    EXPECT_LT(reused, kMoves);      // and made again when the particles drifted
    EXPECT_GT(rows, 1000);
}

}  // namespace candidate_lists
}  // namespace
}  // namespace weft
