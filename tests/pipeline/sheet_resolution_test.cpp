// A sheet bends alike at every resolution (docs/solver.md#hinge): the shared Goal Flag, held by its
// pole where it touches, built at its source mesh and resampled finer, hangs in cotton with
// self-contact on (as validation runs). With each hinge's ratio of its own m_eff/h² scaled by the
// square of the source mesh's hinge area where it lies over its own, the finer proxies sag as the
// source does; with the ratio alone (the rule before) they sag up to tens of centimetres and fold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "fabric/fabric.h"
#include "proxy/core/hinge_area.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_test_scenes.h"
#include "scene/import.h"
#include "solver/solver.h"
#include "support/paths.h"
#include "validate/scenario.h"

namespace weft {
namespace {

SheetGarment goal_flag_garment(const Scene& scene) {
    SheetGarment g{"Flag", "flag", {}, {}};
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        if (scene.meshes[m].material >= 0 && scene.materials[scene.meshes[m].material] == "Flag") g.meshes.push_back(static_cast<int>(m));
    return g;
}

struct Sag {
    size_t particles = 0;
    double mean = 0, worst = 0;  ///< metres a free particle ends hang from its rest position
    size_t references = 0;       ///< entries of the proxy's hinge_reference_area
};

ClothProxy goal_flag_proxy(const Scene& scene, const char* resolution) {
    SheetOptions o;
    EXPECT_EQ(parse_resolution(resolution, o), "");
    SheetBuildResult r = build_sheet(scene, goal_flag_garment(scene), o);
    for (const Issue& i : r.issues) EXPECT_NE(i.severity, Severity::error) << i.code << ": " << i.message;
    return r.proxy ? std::move(*r.proxy) : ClothProxy{};
}

// Hang as validation runs it (docs/validation.md): the frame at rest, gravity, 600 steps at 60 Hz.
Sag hang_sag(const ClothProxy& p, const std::string& label, bool self_contact = true) {
    Sag s;
    if (!p.particle_count()) return s;
    SolverConstants constants;
    constants.self_contact = self_contact;
    Solver solver(p, *find_fabric("cotton"), constants);
    StepInput in;
    in.frame = rest_frame_pose(p);
    for (int step = 0; step < 600; ++step) solver.step(in);
    size_t free = 0;
    for (size_t i = 0; i < p.particle_count(); ++i) {
        if (p.held(static_cast<uint32_t>(i))) continue;
        const double d = distance(solver.state().x[i], p.rest_position[i]);
        s.mean += d;
        s.worst = std::max(s.worst, d);
        ++free;
    }
    s.mean /= std::max<size_t>(free, 1);
    s.particles = p.particle_count();
    s.references = p.hinge_reference_area.size();
    std::printf("Goal_Flag %s, cotton%s: %zu particles, %zu hinges, %zu reference areas, hang sag mean %.4f m, worst %.4f m\n",
                label.c_str(), self_contact ? "" : " without self-contact", s.particles, p.hinges.size(), s.references, s.mean, s.worst);
    return s;
}

// The rule before: every hinge at the fabric's ratio of its own m_eff/h² (no reference areas). Run
// without self-contact: such a sheet folds onto itself and contact then fights the folds, four times
// the test's time for the same sag (388 / 335 mm mean without it, 385 / 304 mm with it).
ClothProxy without_references(ClothProxy p) {
    p.hinge_reference_area.clear();
    return p;
}

TEST(SheetResolution, GoalFlagSagsAlikeAtEveryResolution) {
    WEFT_REQUIRE_SHARED_MODEL(flag, "quaternius_Goal_Flag.glb");
    const Scene scene = test::import_ok(flag);
    const ClothProxy source_proxy = goal_flag_proxy(scene, "source");
    const ClothProxy medium_proxy = goal_flag_proxy(scene, "edge:0.1");
    const ClothProxy fine_proxy = goal_flag_proxy(scene, "edge:0.06");
    // At its source resolution a hinge is its own reference (the proxy records none); resampled, every
    // hinge records the source hinge where it lies.
    EXPECT_TRUE(source_proxy.hinge_reference_area.empty());
    EXPECT_EQ(medium_proxy.hinge_reference_area.size(), medium_proxy.hinges.size());
    EXPECT_EQ(fine_proxy.hinge_reference_area.size(), fine_proxy.hinges.size());
    const Sag source = hang_sag(source_proxy, "source");
    const Sag medium = hang_sag(medium_proxy, "edge:0.1");
    const Sag fine = hang_sag(fine_proxy, "edge:0.06");
    const Sag medium_before = hang_sag(without_references(medium_proxy), "edge:0.1, every hinge its own reference", false);
    const Sag fine_before = hang_sag(without_references(fine_proxy), "edge:0.06, every hinge its own reference", false);
    ASSERT_GT(source.particles, 0u);
    EXPECT_GT(medium.particles, source.particles);
    EXPECT_GT(fine.particles, medium.particles);
    // Measured (docs/solver.md#hinge): the source hangs within 5.3 mm on average (9.4 mm at worst);
    // at edge:0.06 (416 particles) 26 mm (62 mm: hinges capped at the band's ceiling, softer than the
    // source there); every hinge at the fabric's ratio instead, 326 mm (749 mm), off by a factor 13.
    // The edge:0.1 proxy (174 particles) hangs 143 mm (274 mm): next to the pole its resampled mesh
    // leaves a free particle whose one hinge puts no weight on it (-5e-16), so nothing bends there and
    // the flag swings down about it; before hinges with weightless free ends gave no force, that
    // hinge's rounding held it at 16 mm. A defect of the resampler's shape there, not of the
    // reference rule, which still halves the sag (347 mm before).
    EXPECT_LT(source.mean, 0.006);
    EXPECT_LT(source.worst, 0.011);
    EXPECT_LT(fine.mean, 6 * source.mean);
    EXPECT_LT(fine.worst, 0.08);
    EXPECT_GT(medium_before.mean, 2 * medium.mean);
    EXPECT_GT(medium_before.worst, 0.5);
    EXPECT_GT(fine_before.mean, 10 * fine.mean);
    EXPECT_GT(fine_before.worst, 0.5);
}

}  // namespace
}  // namespace weft
