// SELF_INTERSECTION: crossing triangle pairs counted exactly on hand-made pairs, and a folded sheet
// whose upper layer sags through the lower one without self-contact and rests on it with it
// (docs/validation.md#self-intersection, docs/solver.md#self-contact).
#include <gtest/gtest.h>

#include <array>
#include <limits>
#include <span>
#include <vector>

#include "solver/test_proxies.h"
#include "validate/crossings.h"
#include "validate/validate.h"

namespace weft {
namespace {

using Triangles = std::vector<std::array<uint32_t, 3>>;

TEST(Crossings, CountsOnlyPairsWhoseInteriorsCut) {
    // A horizontal triangle and a vertical one stabbing through its middle.
    std::vector<Vec3> x = {{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}, {-0.2, -1, 0}, {0.2, -1, 0}, {0, 1, 0}};
    EXPECT_EQ(count_crossing_triangles(x, Triangles{{0, 1, 2}, {3, 4, 5}}), 1u);
    // Lifted clear above it: no crossing.
    std::vector<Vec3> lifted = x;
    for (int i = 3; i < 6; ++i) lifted[i].y += 2.5;
    EXPECT_EQ(count_crossing_triangles(lifted, Triangles{{0, 1, 2}, {3, 4, 5}}), 0u);
    // Sharing a corner: adjacent triangles are never counted, even cutting each other.
    std::vector<Vec3> shared = {{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}, {0, -1, 0}, {0, 1, 0}};
    EXPECT_EQ(count_crossing_triangles(shared, Triangles{{0, 1, 2}, {0, 3, 4}}), 0u);
    // Touching at a point, and coplanar overlap: not crossing.
    std::vector<Vec3> touching = {{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}, {0, 0, 0}, {0.5, 1, 0}, {-0.5, 1, 0}};
    EXPECT_EQ(count_crossing_triangles(touching, Triangles{{0, 1, 2}, {3, 4, 5}}), 0u);
    std::vector<Vec3> coplanar = {{-1, 0, -1}, {1, 0, -1}, {0, 0, 1}, {-1, 0, 1}, {1, 0, 1}, {0, 0, -1}};
    EXPECT_EQ(count_crossing_triangles(coplanar, Triangles{{0, 1, 2}, {3, 4, 5}}), 0u);
    // A triangle with a non-finite corner is left out.
    std::vector<Vec3> broken = x;
    broken[5].y = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(count_crossing_triangles(broken, Triangles{{0, 1, 2}, {3, 4, 5}}), 0u);
}

TEST(Crossings, PairsThatTouchedAtRestAreLeftOut) {
    // Two flaps about 1 m across modelled in one plane (y = 0), the second shifted 20 cm over the
    // first: at rest they touch and do not cross. Tipped by the least motion about the line z = 0.4
    // (its lower corners 1 mm up, its top 2.3 mm down), an edge of the second passes through the
    // first: one crossing pair, where the cloth did not pass through itself.
    const Triangles flaps{{0, 1, 2}, {3, 4, 5}};
    const std::vector<Vec3> rest = {{0, 0, 0}, {1, 0, 0}, {0.5, 0, 1}, {0.2, 0, 0.1}, {1.2, 0, 0.1}, {0.7, 0, 1.1}};
    std::vector<Vec3> moved = rest;
    moved[3].y = moved[4].y = 0.001;
    moved[5].y = -0.001 * 7 / 3;
    EXPECT_EQ(count_crossing_triangles(rest, flaps), 0u);
    ASSERT_EQ(count_crossing_triangles(moved, flaps), 1u);
    const double cotton = 0.006;
    EXPECT_EQ(count_crossing_triangles(moved, flaps, rest, cotton), 0u);
    // The second flap 5 cm off the first at rest (past the thickness): the crossing is counted.
    std::vector<Vec3> apart = rest;
    for (int i = 3; i < 6; ++i) apart[i].y = 0.05;
    EXPECT_EQ(count_crossing_triangles(moved, flaps, apart, cotton), 1u);
    // 2 mm off: within cotton's 6 mm and a hundredth of the 1.12 m longest edge, left out; with a
    // 1 mm fabric, counted.
    std::vector<Vec3> near = rest;
    for (int i = 3; i < 6; ++i) near[i].y = 0.002;
    EXPECT_EQ(count_crossing_triangles(moved, flaps, near, cotton), 0u);
    EXPECT_EQ(count_crossing_triangles(moved, flaps, near, 0.001), 1u);
    // The flaps shrunk to a tenth across, 2 mm off is more than a hundredth of their edges (1.1 mm):
    // layers of a fine mesh near each other, not touching, so the crossing counts.
    std::vector<Vec3> small_near = near, small_moved = moved;
    for (Vec3& p : small_near) p = {p.x * 0.1, p.y, p.z * 0.1};
    for (Vec3& p : small_moved) p = {p.x * 0.1, p.y, p.z * 0.1};
    ASSERT_EQ(count_crossing_triangles(small_moved, flaps), 1u);
    EXPECT_EQ(count_crossing_triangles(small_moved, flaps, small_near, cotton), 1u);
    // A pair that crossed at rest is counted at the end, as the rest pose counts it.
    EXPECT_EQ(count_crossing_triangles(moved, flaps, moved, cotton), 1u);
}

TEST(Crossings, TwoSheetsThroughEachOtherOnAFineGrid) {
    // Two 16x16 sheets (450 triangles each) at right angles, the second through the first's middle:
    // the broad phase finds every pair the brute force does.
    const uint32_t n = 16;
    std::vector<Vec3> x;
    Triangles t;
    auto grid = [&](auto place) {
        const uint32_t base = static_cast<uint32_t>(x.size());
        for (uint32_t j = 0; j < n; ++j)
            for (uint32_t i = 0; i < n; ++i) x.push_back(place(i / (n - 1.0), j / (n - 1.0)));
        for (uint32_t j = 0; j + 1 < n; ++j)
            for (uint32_t i = 0; i + 1 < n; ++i) {
                const uint32_t a = base + j * n + i;
                t.push_back({a, a + 1, a + n + 1});
                t.push_back({a, a + n + 1, a + n});
            }
    };
    grid([](double u, double v) { return Vec3{u, 0, v}; });
    grid([](double u, double v) { return Vec3{u * 0.9 + 0.013, v - 0.5013, 0.5071}; });
    uint32_t brute = 0;
    for (size_t a = 0; a < t.size(); ++a)
        for (size_t b = a + 1; b < t.size(); ++b)
            brute += count_crossing_triangles(x, Triangles{t[a], t[b]});
    const uint32_t counted = count_crossing_triangles(x, t);
    EXPECT_EQ(counted, brute);
    EXPECT_GT(counted, 0u);
}

ValidationOptions hang_only(bool self_contact) {
    ValidationOptions o;
    o.scenarios = {{Scenario::hang, 600}};
    o.self_contact = self_contact;
    o.stop_early = false;  // the crossings at the end are the subject: a run stopped early has no end
    return o;
}

const GateResult* self_gate(const ProxyValidation& v) {
    for (const GateResult& g : v.gates)
        if (g.gate == Gate::self_intersection) return &g;
    return nullptr;
}

TEST(SelfIntersection, FoldedSheetPassesThroughItselfWithoutSelfContactAndNotWithIt) {
    // The lower layer lies held on a table; the upper one, 3.8 cm above it and held at its far edge,
    // hangs from the fold's slack. Without self-contact it sags through the lower layer (56 crossing
    // pairs where its rest pose has none); with it, it comes to rest one cotton thickness (6 mm) above
    // the lower layer, crossing nothing, and sleeps.
    const ClothProxy folded = test::folded_sheet_proxy(8, 16, 0.02, 0);
    const ProxyValidation without = validate_proxy(folded, hang_only(false));
    const ProxyValidation with = validate_proxy(folded, hang_only(true));
    ASSERT_FALSE(without.refused);
    ASSERT_FALSE(with.refused);
    ASSERT_TRUE(without.rest_crossings && with.rest_crossings);
    EXPECT_EQ(*without.rest_crossings, 0u);
    ASSERT_TRUE(without.scenarios[0].crossings && with.scenarios[0].crossings);
    EXPECT_GE(*without.scenarios[0].crossings, 40u);
    EXPECT_EQ(*with.scenarios[0].crossings, 0u);

    const GateResult* off = self_gate(without);
    const GateResult* on = self_gate(with);
    ASSERT_TRUE(off && on);
    EXPECT_FALSE(off->passed);
    EXPECT_EQ(off->value, *without.scenarios[0].crossings);
    EXPECT_EQ(off->limit, 0.0);
    EXPECT_TRUE(on->passed);
    EXPECT_TRUE(with.passed()) << report_text(ValidationReport{{}, {with}});

    // Over the lower layer (away from the fold and the held edge), every free particle of the upper
    // layer ends no lower than the thickness; without self-contact some end under the table.
    const double thickness = suggested_fabric(folded).thickness;
    double lowest_with = 1e9, lowest_without = 1e9;
    for (uint32_t i = 0; i < folded.particle_count(); ++i) {
        const Vec3& r = folded.rest_position[i];
        if (folded.inverse_mass[i] == 0 || r.y <= 0.03 || r.z < 0.02 || r.z > 0.28) continue;
        lowest_with = std::min(lowest_with, with.scenarios[0].final_positions[i].y);
        lowest_without = std::min(lowest_without, without.scenarios[0].final_positions[i].y);
    }
    EXPECT_GE(lowest_with, 0.99 * thickness);
    EXPECT_LT(lowest_with, 1.5 * thickness);
    EXPECT_LT(lowest_without, 0.0);
    EXPECT_TRUE(with.scenarios[0].sleep_step);
}

TEST(SelfIntersection, RestPoseCrossingsAreTheBaseline) {
    // A proxy authored crossing itself is not blamed on the solve: the limit is the rest pose's count.
    ScenarioStats s;
    s.scenario = Scenario::swing;
    s.crossings = 12;
    const std::vector<GateResult> at_rest = evaluate_gates(std::span(&s, 1), 1.0, GateLimits{}, 0.006, 12);
    const std::vector<GateResult> one_more = evaluate_gates(std::span(&s, 1), 1.0, GateLimits{}, 0.006, 11);
    auto gate = [](const std::vector<GateResult>& r) {
        for (const GateResult& g : r)
            if (g.gate == Gate::self_intersection) return g;
        return GateResult{};
    };
    EXPECT_TRUE(gate(at_rest).passed);
    EXPECT_FALSE(gate(one_more).passed);
    EXPECT_EQ(gate(one_more).limit, 11.0);
    EXPECT_STREQ(gate_code(Gate::self_intersection), "SELF_INTERSECTION");
    // No triangles, no gate.
    s.crossings.reset();
    for (const GateResult& g : evaluate_gates(std::span(&s, 1), 1.0, GateLimits{}, 0.006, 0))
        EXPECT_NE(g.gate, Gate::self_intersection);
}

}  // namespace
}  // namespace weft
