// Colliders: one-sided contact rows with thickness and friction (docs/solver.md#contacts).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "solver/collider.h"
#include "solver/contact_rows.h"
#include "solver/solver.h"
#include "solver/virtual_rows.h"
#include "test_proxies.h"

namespace weft {
namespace {

TEST(Colliders, SurfacePoints) {
    SurfacePoint s = surface_point(SphereCollider{{1, 0, 0}, 0.5}, {1, 2, 0});
    EXPECT_DOUBLE_EQ(s.distance, 1.5);
    EXPECT_EQ(s.normal, (Vec3{0, 1, 0}));
    SurfacePoint c = surface_point(CapsuleCollider{{0, 0, 0}, {0, 0, 2}, 0.25}, {0.5, 0, 1});
    EXPECT_DOUBLE_EQ(c.distance, 0.25);
    EXPECT_EQ(c.normal, (Vec3{1, 0, 0}));
    SurfacePoint end = surface_point(CapsuleCollider{{0, 0, 0}, {0, 0, 2}, 0.25}, {0, 0, 3});
    EXPECT_DOUBLE_EQ(end.distance, 0.75);
    SurfacePoint centre = surface_point(SphereCollider{{0, 0, 0}, 1}, {0, 0, 0});
    EXPECT_DOUBLE_EQ(centre.distance, -1);
    EXPECT_DOUBLE_EQ(length(centre.normal), 1);
}

/// The deepest any free particle sits inside `thickness` of the colliders, over the run.
template <class Collide>
double worst_penetration(const ClothProxy& sheet, const Fabric& f, const StepInput& base, Collide distance_of, int steps) {
    Solver solver(sheet, f);
    StepInput in = base;
    double worst = 0;
    for (int s = 0; s < steps; ++s) {
        solver.step(in);
        for (uint32_t i = 0; i < sheet.particle_count(); ++i)
            if (sheet.inverse_mass[i] > 0) worst = std::max(worst, f.thickness - distance_of(solver.state().x[i]));
    }
    return worst;
}

// A sheet held along one edge swings down onto a sphere beneath it and drapes there: no particle
// goes deeper than a millimetre into the sphere's thickness shell.
TEST(Colliders, SheetDrapesOverASphere) {
    ClothProxy sheet = test::grid_sheet_proxy(12, 12, 0.04, 0.2);
    const SphereCollider ball{{0.22, -0.25, 0.2}, 0.15};
    StepInput in;
    in.spheres = {ball};
    const Fabric f = *find_fabric("cotton");
    double worst = worst_penetration(sheet, f, in, [&](const Vec3& x) { return surface_point(ball, x).distance; }, 300);
    EXPECT_LT(worst, 1e-3);
    // Without the collider the same sheet falls straight through where the ball would be.
    StepInput none;
    double through = worst_penetration(sheet, f, none, [&](const Vec3& x) { return surface_point(ball, x).distance; }, 300);
    EXPECT_GT(through, 0.05);
}

TEST(Colliders, RopeRestsOnACapsule) {
    ClothProxy rope = test::chain_proxy(12, 0.05, 0.02, {1, 0, 0});
    const CapsuleCollider bar{{0.3, -0.1, -1}, {0.3, -0.1, 1}, 0.05};
    StepInput in;
    in.capsules = {bar};
    const Fabric f = *find_fabric("rope");
    double worst = worst_penetration(rope, f, in, [&](const Vec3& x) { return surface_point(bar, x).distance; }, 300);
    EXPECT_LT(worst, 1e-3);
}

// A particle with a collision radius keeps it clear as well (docs/solver.md#contacts): the rope
// that rests a thickness above the bar rests its radius higher with one, and as before without.
TEST(Colliders, ParticlesKeepTheirCollisionRadiusClear) {
    ClothProxy rope = test::chain_proxy(12, 0.05, 0.02, {1, 0, 0});
    const CapsuleCollider bar{{0.3, -0.1, -1}, {0.3, -0.1, 1}, 0.05};
    StepInput in;
    in.capsules = {bar};
    const Fabric f = *find_fabric("rope");
    const double radius = 0.03;
    rope.collision_radius.assign(rope.particle_count(), radius);
    auto lowest_clearance = [&](const ClothProxy& p) {
        Solver solver(p, f);
        double lowest = INFINITY;
        for (int s = 0; s < 300; ++s) {
            solver.step(in);
            if (s < 200) continue;  // settled on the bar
            for (uint32_t i = 0; i < p.particle_count(); ++i)
                if (p.inverse_mass[i] > 0) lowest = std::min(lowest, surface_point(bar, solver.state().x[i]).distance);
        }
        return lowest;
    };
    const double with = lowest_clearance(rope);
    EXPECT_GT(with, f.thickness + radius - 1e-3);
    EXPECT_LT(with, f.thickness + radius + 5e-3);  // it rests on the bar, not above it
    rope.collision_radius.clear();
    const double without = lowest_clearance(rope);
    // Without a radius the links rest on the bar a thickness clear of it (docs/colliders.md#spans), and
    // the particles either side of the bar a little higher.
    EXPECT_GT(without, f.thickness - 1e-3);
    EXPECT_LT(without, f.thickness + 5e-3);
}

// The point of a segment nearest a collider's core (docs/colliders.md#spans).
TEST(Colliders, NearestPointOnASpan) {
    // A span over a sphere: its nearest point is where the centre projects, 0.1 m inside the surface.
    const SpanPoint over = nearest_on_span(CapsuleCollider{{0.5, 0.1, 0}, {0.5, 0.1, 0}, 0.2}, {-1, 0, 0}, {1, 0, 0});
    EXPECT_DOUBLE_EQ(over.s, 0.75);
    EXPECT_NEAR(over.surface.distance, -0.1, 1e-15);
    EXPECT_NEAR(over.surface.normal.y, -1, 1e-15);
    // Across a capsule at right angles, 0.3 m above its core: the crossing point.
    const SpanPoint across = nearest_on_span(CapsuleCollider{{0.2, 0, -1}, {0.2, 0, 1}, 0.1}, {0, 0.3, 0}, {1, 0.3, 0});
    EXPECT_DOUBLE_EQ(across.s, 0.2);
    EXPECT_NEAR(across.surface.distance, 0.2, 1e-15);
    // Past the capsule's end the nearest point is the span's end nearest the cap.
    const SpanPoint beyond = nearest_on_span(CapsuleCollider{{0, 0, 0}, {0, 0, 1}, 0.1}, {0, 0.2, 2}, {0, 0.2, 3});
    EXPECT_DOUBLE_EQ(beyond.s, 0);
    // Parallel to the core: the point nearest the core's middle, not an end.
    const SpanPoint parallel = nearest_on_span(CapsuleCollider{{0, 0, 0.4}, {0, 0, 0.6}, 0.05}, {0, 0.1, 0}, {0, 0.1, 1});
    EXPECT_DOUBLE_EQ(parallel.s, 0.5);
    EXPECT_NEAR(parallel.surface.distance, 0.05, 1e-15);
}

/// A rope of 6 links 10 cm apart hanging at rest from the origin, and a collider swept through it
/// sideways (+x, 0.2 m/s for 1.5 s, then still for 1 s) at the height of its third link's middle.
/// Returns the deepest that link's point nearest the collider went inside the fabric's thickness
/// (metres), and the deepest any particle did.
struct SpanRun {
    double span_depth = 0, particle_depth = 0;
};
SpanRun sweep_through_rope(CapsuleCollider collider, bool spans) {
    const ClothProxy rope = test::chain_proxy(6, 0.1, 0.02);
    const Fabric f = *find_fabric("rope");
    SolverConstants c;
    c.span_contacts = spans;
    Solver solver(rope, f, c);
    SpanRun run;
    for (int s = 0; s < 150; ++s) {
        const Vec3 shift{0.3 * std::min(s, 90) / 90.0, 0, 0};
        const CapsuleCollider placed{collider.a + shift, collider.b + shift, collider.radius};
        StepInput in;
        if (collider.a == collider.b) in.spheres = {{placed.a, placed.radius}};
        else in.capsules = {placed};
        solver.step(in);
        const std::vector<Vec3>& x = solver.state().x;
        for (const auto& e : rope.edges)
            run.span_depth = std::max(run.span_depth, f.thickness - nearest_on_span(placed, x[e[0]], x[e[1]]).surface.distance);
        for (uint32_t i = 0; i < rope.particle_count(); ++i)
            if (rope.inverse_mass[i] > 0) run.particle_depth = std::max(run.particle_depth, f.thickness - surface_point(placed, x[i]).distance);
    }
    return run;
}

// A link straddling a collider thinner than the link: each particle passes on its own side while the
// link between them goes through, unless the span collides too (docs/colliders.md#spans). A 1.5 cm
// sphere and a 1 cm bar cross a hanging rope at the middle of a link, 5 cm from either particle.
TEST(Colliders, ASpanBetweenTwoParticlesStaysOutOfASphereAndABar) {
    const double thickness = find_fabric("rope")->thickness;
    const CapsuleCollider sphere{{-0.1, -0.25, 0}, {-0.1, -0.25, 0}, 0.015};
    const CapsuleCollider bar{{-0.1, -0.25, -0.3}, {-0.1, -0.25, 0.3}, 0.01};
    for (const CapsuleCollider& collider : {sphere, bar}) {
        const SpanRun points = sweep_through_rope(collider, false);
        const SpanRun spans = sweep_through_rope(collider, true);
        const std::string round = "collider " + std::to_string(collider.radius * 1e3) + " mm round";
        // As points the collider passes through the link's middle (depth = thickness + radius) and no
        // particle comes within its thickness.
        EXPECT_LE(points.particle_depth, 1e-3) << round;
        EXPECT_GT(points.span_depth, thickness + collider.radius - 2e-3) << round;
        // With spans the link is pushed along in front of it.
        EXPECT_LT(spans.span_depth, 1e-3) << round;
        EXPECT_LE(spans.particle_depth, 1e-3) << round;
    }
}

// The virtual particle's contact gradient (docs/colliders.md#virtual-particles) is the derivative of
// where it sits: central differences of n·p in the link's far end agree to 1e-7 (the differences'
// truncation at a 1e-6 m step), turned 0°, 40° and 150° off its rest link.
TEST(Colliders, AVirtualParticlesGradientIsItsPositionsDerivative) {
    const Vec3 rest_link{0, -0.1, 0}, offset{0.1, -0.05, 0.02}, n = normalize(Vec3{0.3, 1, -0.2});
    const Vec3 from{0, 0, 0};
    for (double degrees : {0.0, 40.0, 150.0}) {
        const double a = degrees * M_PI / 180;
        const Vec3 to{0.1 * std::sin(a), -0.1 * std::cos(a), 0.03};
        const Vec3 g = virtual_turn_gradient(from, to, rest_link, offset, n);
        const double h = 1e-6;
        for (int k = 0; k < 3; ++k) {
            Vec3 e{};
            e[k] = h;
            const double numeric = (dot(n, virtual_position(from, from, to + e, rest_link, offset)) -
                                    dot(n, virtual_position(from, from, to - e, rest_link, offset))) / (2 * h);
            EXPECT_NEAR(g[k], numeric, 1e-7) << degrees << " degrees, axis " << k;
        }
    }
}

/// A 10 cm link hanging from a held root, a virtual particle 10 cm beside it (a render vertex wholly on
/// that link, as Godette's hair ball is bound), and a 4 cm sphere above the point, out of the link's
/// reach: kicked 1.5 m/s along +x, the link turns about its root and lifts the point into the sphere.
/// Returns the deepest the point went inside the sphere itself (metres) and inside its thickness.
std::pair<double, double> swing_virtual_particle_into_sphere(bool virtual_contacts) {
    ClothProxy link = test::chain_proxy(1, 0.1, 0.02);
    link.kind = ProxyKind::rig;  // its link collides as a span too (docs/colliders.md#spans)
    const uint32_t root = test::particle(link, 0), tip = test::particle(link, 1);
    link.virtual_link = {{root, root, tip}};
    link.virtual_rest_position = {{0.1, -0.05, 0}};
    const SphereCollider ball{{0.1, 0.03, 0}, 0.04};
    const Fabric f = *find_fabric("rope");
    SolverConstants c;
    c.virtual_contacts = virtual_contacts;
    Solver solver(link, f, c);
    StepInput in;
    in.spheres = {ball};
    solver.step(in);
    solver.add_velocity({1.5, 0, 0});
    double inside = -INFINITY, past_thickness = -INFINITY;
    for (int s = 0; s < 60; ++s) {
        solver.step(in);
        const std::vector<Vec3>& x = solver.state().x;
        const Vec3 p = virtual_position(x[root], x[root], x[tip], link.rest_position[tip] - link.rest_position[root],
                                        link.virtual_rest_position[0] - link.rest_position[root]);
        const double distance = surface_point(ball, p).distance;
        inside = std::max(inside, -distance);
        past_thickness = std::max(past_thickness, f.thickness - distance);
        // The link itself never reaches the sphere: what goes in is the point alone.
        EXPECT_GT(surface_point(ball, x[tip]).distance, f.thickness) << s;
    }
    return {inside, past_thickness};
}

// What spans do not catch (docs/colliders.md#virtual-particles): without its virtual particle the
// point swings 32.6 mm into the sphere; with it, it stops at the fabric's thickness outside (measured
// 0.04 mm short of it; held to 1 mm: the contact is linearised once a substep and the turn is not linear).
TEST(Colliders, AVirtualParticleFarOffItsLinkStaysOutOfASphere) {
    const auto [without, without_past] = swing_virtual_particle_into_sphere(false);
    const auto [with, with_past] = swing_virtual_particle_into_sphere(true);
    EXPECT_GT(without, 0.025) << "deepest in the sphere without: " << without * 1e3 << " mm";
    EXPECT_LT(with, 0.0) << "deepest in the sphere with: " << with * 1e3 << " mm";
    EXPECT_LT(with_past, 0.001) << "past the thickness with: " << with_past * 1e3 << " mm (without: "
                                << without_past * 1e3 << " mm)";
}

// Span rows and virtual particles' rows keep the sweep's lanes and threads bit for bit
// (docs/solver.md#lanes): twelve strands of a rope rig, joined side by side, fall onto a bar thinner than
// their links, every third link carrying a virtual particle 3 cm off it.
TEST(Colliders, SpanRowsGiveTheSameResultInLanesAndThreads) {
    ClothProxy rig = test::strand_rig_proxy(12, 8, 0.04, 0.02);
    for (size_t e = 0; e < rig.edges.size(); e += 3) {
        const auto [a, b] = rig.edges[e];
        rig.virtual_link.push_back({a, a, b});
        rig.virtual_rest_position.push_back(rig.rest_position[a] + Vec3{0.01, -0.03, 0.01});
    }
    const Fabric f = *find_fabric("rope");
    auto run = [&](SolverConstants c) {
        c.sleep = false;
        Solver solver(rig, f, c);
        StepInput in;
        in.capsules = {{{0.07, -0.07, -1}, {0.07, -0.07, 1}, 0.008}};  // across the fall, between two joints
        uint32_t contacts = 0;
        for (int s = 0; s < 90; ++s) contacts = std::max(contacts, solver.step(in).contacts);
        EXPECT_GT(contacts, 0u);
        return solver.state().x;
    };
    SolverConstants scalar;
    scalar.simd = false;
    SolverConstants threads;
    threads.threads = 3;
    threads.thread_min_particles = 1;
    SolverConstants four;  // four lanes (AVX2) where the machine has eight
    four.simd_lanes = 4;
    const std::vector<Vec3> a = run(scalar), b = run(SolverConstants{}), t = run(threads), w = run(four);
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec3)), 0);
    EXPECT_EQ(std::memcmp(a.data(), t.data(), a.size() * sizeof(Vec3)), 0);
    EXPECT_EQ(std::memcmp(a.data(), w.data(), a.size() * sizeof(Vec3)), 0);
}

// The broad phase passes over only colliders no row could come from (docs/solver.md#contacts): a sphere
// whose surface lies a picometre inside a particle's reach (thickness, collision radius, look-ahead)
// along an axis, where its box is as near as its surface, still gives that particle its row; and a span
// whose held end lies outside the free particles' box still finds the sphere at its middle.
TEST(Colliders, TheBroadPhaseKeepsEveryRowWithinReach) {
    ContactModel model;
    model.thickness = 0.004;
    model.radius = {0.01, 0.0, 0.02};
    const std::vector<Vec3> x = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    const std::vector<uint32_t> free = {0, 1, 2};
    const std::vector<double> mass(3, 0.01), trust = {0.02, 0.03, INFINITY};
    const double cloth_reach = 0.5;  // the look-ahead of a particle with no finite trust radius
    const ContactInputs in{free, x.data(), x.data(), mass, trust, cloth_reach, 14400};
    ContactState st = contact_rows::initial_state(3);
    const double r = 0.05, inside = 1e-12;
    std::vector<double> band(3);
    for (uint32_t i = 0; i < 3; ++i) {
        band[i] = std::isfinite(trust[i]) ? trust[i] : cloth_reach;
        const double reach = model.thickness + model.radius[i] + band[i];
        st.spheres.push_back({x[i] + Vec3{0, r + reach - inside, 0}, r});  // just inside, above
        st.spheres.push_back({x[i] + Vec3{0, 0, -(r + reach + 1e-6)}, r});  // a micrometre outside, behind
    }
    EXPECT_EQ(contact_rows::detect(model, st, in, 1.0, SolverConstants{}), 3u);
    for (uint32_t i = 0; i < 3; ++i) {
        ASSERT_EQ(st.count[i], 1) << "particle " << i;
        EXPECT_EQ(st.rows[i][0].collider, 2 * i);
        EXPECT_LT(st.rows[i][0].c0, band[i]);
        EXPECT_GT(st.rows[i][0].c0, band[i] - 1e-9);
        EXPECT_NEAR(st.rows[i][0].normal.y, -1.0, 1e-12);  // out of the sphere, down to the particle
    }

    // A rig's span from a held particle at the origin to a free one a metre off: the sphere sits over its
    // middle, half a look-ahead clear, half a metre from either end.
    ContactModel rig;
    rig.thickness = 0.004;
    rig.spans = {{0, 1}};
    const std::vector<Vec3> ends = {{0, 0, 0}, {1, 0, 0}};
    const std::vector<uint32_t> free_end = {1};
    const std::vector<double> end_mass = {0.01, 0.01}, end_trust = {0.02, 0.02};
    const ContactInputs span_in{free_end, ends.data(), ends.data(), end_mass, end_trust, 1.0, 14400};
    ContactState span_state = contact_rows::initial_state(2);
    span_state.spheres = {{{0.5, r + rig.thickness + 0.01, 0}, r}};
    EXPECT_EQ(contact_rows::detect(rig, span_state, span_in, 1.0, SolverConstants{}), 1u);
    EXPECT_EQ(span_state.count[1], 0);  // the sphere is half a metre from the particle itself
    ASSERT_EQ(span_state.span_count[1], 1);
    EXPECT_NEAR(span_state.span_rows[1][0].depth, 0.01, 1e-12);
}

// A virtual particle half a metre off a 10 cm link, with a sphere just under it and nothing else near:
// its row comes from where the point is, however far that is from the particles' own boxes.
TEST(Colliders, TheBroadPhaseReachesAVirtualParticleFarOffItsLink) {
    ContactModel model;
    model.thickness = 0.004;
    const std::vector<Vec3> x = {{0, 0, 0}, {0.1, 0, 0}};  // held root, free tip
    model.virtual_link = {{1, 0, 1}};                       // carried by the tip, turned with the link
    model.virtual_rest = {{0.1, -0.5, 0}};
    model.virtual_offset = {{0, -0.5, 0}};
    model.virtual_rest_link = {{0.1, 0, 0}};
    const std::vector<uint32_t> free = {1};
    const std::vector<double> mass = {0.01, 0.01}, trust = {0.02, 0.02};
    const ContactInputs in{free, x.data(), x.data(), mass, trust, 1.0, 14400};
    ContactState st = contact_rows::initial_state(2);
    const double r = 0.05;
    st.spheres = {{{0.1, -0.5 - r - model.thickness - 0.005, 0}, r}};  // the point 5 mm clear of its clearance
    EXPECT_EQ(contact_rows::detect(model, st, in, 1.0, SolverConstants{}), 1u);
    EXPECT_EQ(st.count[1], 0);
    ASSERT_EQ(st.span_count[1], 1);
    EXPECT_NEAR(st.span_rows[1][0].depth, 0.005, 1e-12);
}

// A link's points share its turn and its look at the colliders, formed once a substep from its farthest
// point (docs/colliders.md#virtual-particles): each point still gets the rows it gets alone, to the bit.
// A 10 cm link carries a point 5 cm under it, then one half a metre under it, each above a sphere of its
// own; a second link, turned a quarter from its rest direction, carries a point its turn puts beside a
// third sphere. Fails where a link looks only as far as its first point, or shares another link's turn.
TEST(Colliders, ALinksPointsShareItsTurnAndGetTheRowsEachGetsAlone) {
    const double r = 0.05, thickness = 0.004;
    const std::vector<Vec3> x = {{0, 0, 0}, {0.1, 0, 0}, {1, 0, 0}, {1, 0.1, 0}};  // two held roots, two free tips
    const std::vector<uint32_t> free = {1, 3};
    const std::vector<double> mass(4, 0.01), trust(4, 0.02);
    const ContactInputs in{free, x.data(), x.data(), mass, trust, 1.0, 14400};
    struct Point {
        std::array<uint32_t, 3> link;
        Vec3 offset;
    };
    const std::vector<Point> points = {{{1, 0, 1}, {0, -0.05, 0}}, {{1, 0, 1}, {0, -0.5, 0}}, {{3, 2, 3}, {0, -0.3, 0}}};
    const std::vector<SphereCollider> spheres = {
        {{0.1, -0.05 - r - thickness - 0.005, 0}, r},  // 5 mm clear of the near point's clearance
        {{0.1, -0.5 - r - thickness - 0.007, 0}, r},   // 7 mm clear of the far point's
        {{1.3 + r + thickness + 0.003, 0.1, 0}, r}};   // 3 mm beside the turned point: (0, -0.3) turned to (+0.3, 0)
    auto detect = [&](const std::vector<size_t>& which) {
        ContactModel model;
        model.thickness = thickness;
        for (size_t v : which) {
            const Point& p = points[v];
            model.virtual_link.push_back(p.link);
            model.virtual_rest.push_back(x[p.link[0]] + p.offset);  // at rest as the first link is now
            model.virtual_offset.push_back(p.offset);
            model.virtual_rest_link.push_back({0.1, 0, 0});
        }
        ContactState st = contact_rows::initial_state(4);
        st.spheres = spheres;
        contact_rows::detect(model, st, in, 1.0, SolverConstants{});
        std::vector<SpanContact> rows;
        for (uint32_t i : free)
            for (int s = 0; s < st.span_count[i]; ++s) rows.push_back(st.span_rows[i][s]);
        return rows;
    };
    const std::vector<SpanContact> together = detect({0, 1, 2});
    ASSERT_EQ(together.size(), 3u);
    for (size_t v = 0; v < points.size(); ++v) {
        const std::vector<SpanContact> alone = detect({v});
        ASSERT_EQ(alone.size(), 1u) << "point " << v;
        EXPECT_EQ(alone[0].collider, v) << "point " << v;
        const auto found = std::find_if(together.begin(), together.end(),
                                        [&](const SpanContact& c) { return c.collider == alone[0].collider; });
        ASSERT_NE(found, together.end()) << "point " << v;
        const SpanContact& row = *found;
        EXPECT_EQ(row.depth, alone[0].depth) << "point " << v;
        EXPECT_EQ(row.c0, alone[0].c0) << "point " << v;
        EXPECT_EQ(std::memcmp(&row.normal, &alone[0].normal, sizeof(Vec3)), 0) << "point " << v;
    }
    EXPECT_NEAR(together[0].depth, 0.005, 1e-12);
    EXPECT_NEAR(together[1].depth, 0.007, 1e-12);
    EXPECT_NEAR(together[2].depth, 0.003, 1e-12);
}

}  // namespace
}  // namespace weft


namespace weft {
namespace {

/// The change of a series over its length, by a least-squares line (the ENERGY_RISING gate's measure,
/// docs/validation.md).
double fitted_change(const std::vector<double>& e) {
    const double n = static_cast<double>(e.size());
    double st = 0, se = 0, stt = 0, ste = 0;
    for (size_t i = 0; i < e.size(); ++i) {
        const double t = static_cast<double>(i);
        st += t, se += e[i], stt += t * t, ste += t * e[i];
    }
    return (n * ste - st * se) / (n * stt - st * st) * (n - 1);
}

/// A tail held against the body (docs/solver.md#spans-against-pose-rows): a 4-link strand chain of 10 cm
/// links laid out along +x from its held root, its pose rows holding it there, and a 2 cm bar across
/// it at `bar_x` that moves in over the first second from a metre off to `depth` metres past the
/// chain's clearance, where it stays: the bar pushes the link it crosses out while the pose rows pull
/// both its ends back. Returns the total energy's change over the last third of 900 steps (joules, a
/// least-squares line as the ENERGY_RISING gate fits it) and the deepest any link went inside the
/// fabric's thickness of the bar in that third.
std::pair<double, double> tail_against_a_bar(bool coupled, double bar_x, double depth) {
    ClothProxy chain = test::chain_proxy(4, 0.1, 0.02, {1, 0, 0});
    chain.kind = ProxyKind::rig;
    const Fabric f = *find_fabric("strand");
    SolverConstants c;
    c.coupled_spans = coupled;
    c.sleep = false;
    Solver solver(chain, f, c);
    const double radius = 0.02;
    std::vector<double> energy;
    double deepest = 0;
    for (int s = 0; s < 900; ++s) {
        const double z = radius + f.thickness - depth + std::max(0.0, 1.0 - s / 60.0);
        StepInput in;
        in.capsules = {{{bar_x, -0.3, z}, {bar_x, 0.3, z}, radius}};
        solver.step(in);
        if (s < 600) continue;
        energy.push_back(solver.energy(in.gravity).total());
        const std::vector<Vec3>& x = solver.state().x;
        for (const auto& [a, b] : chain.edges)
            deepest = std::max(deepest, f.thickness - nearest_on_span(in.capsules[0], x[a], x[b]).surface.distance);
    }
    return {fitted_change(energy), deepest};
}

// With each end of the crossed link pushed by its own share (coupled_spans off) the chain gains
// 2.0e-4 J over the last 300 steps with the bar a centimetre past it at 0.215 m, near the third
// particle; as one row of both ends its energy stays within 1e-14 J wherever the bar crosses the
// link, and the link stays out of the bar.
TEST(Colliders, ALinkHeldAgainstABarByItsPoseRowsGainsNoEnergy) {
    const auto [split, split_deep] = tail_against_a_bar(false, 0.215, 0.01);
    EXPECT_GT(split, 1e-4) << "each end its own share";
    for (double bar_x : {0.115, 0.15, 0.215, 0.23})
        for (double depth : {0.005, 0.01, 0.02}) {
            const auto [one, deep] = tail_against_a_bar(true, bar_x, depth);
            EXPECT_LT(one, 1e-12) << "bar at " << bar_x << " m, " << depth << " m past";
            EXPECT_LT(deep, 1e-3) << "bar at " << bar_x << " m, " << depth << " m past";
        }
}

}  // namespace
}  // namespace weft
