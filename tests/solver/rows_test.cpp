// The rows of docs/solver.md: a soft row is Hooke's law (#hard-and-soft-rows), the hinge stencil is
// flat-invariant (#hinge), the strain allowance fits the reference's table (#strain-limit).
#include <gtest/gtest.h>

#include <cmath>

#include "solver/solver.h"
#include "test_proxies.h"

namespace weft {
namespace {

using test::particle;

/// A 0.05 kg particle hanging from a held one on a single soft 1 kN/m row, stepped to rest; returns
/// extension / Hooke's mg/k.
double hooke_ratio(const SolverConstants& base) {
    ClothProxy link = test::chain_proxy(1, 0.1, 0.05, {0, -1, 0}, false);
    Fabric f = *find_fabric("rope");
    f.stretch_stiffness = 1000;  // N/m
    f.strain_limit = false;
    SolverConstants c = base;
    c.tethers = false;  // the row alone, as the reference measured it (a tether at d_geo would bound it)
    c.sleep = false;
    Solver solver(link, f, c);
    StepInput in;
    for (int s = 0; s < 1200; ++s) solver.step(in);
    const double length = distance(solver.state().x[particle(link, 0)], solver.state().x[particle(link, 1)]);
    return (length - 0.1) / (0.05 * 9.81 / 1000);
}

// docs/solver.md#hard-and-soft-rows: a soft row carries no multiplier, so it reads Hooke exactly whatever α, β, γ and the
// band are doing ("extension/Hooke = 1.0000" in every row of the table).
TEST(Rows, SoftRowReadsHookeAtAnyConstants) {
    SolverConstants chosen;
    SolverConstants alpha0;
    alpha0.alpha = 0;
    SolverConstants alpha1;
    alpha1.alpha = 1;
    alpha1.gamma = 1;
    SolverConstants beta0;
    beta0.beta = 0;
    SolverConstants band;
    band.k_min_ratio = 8;
    band.k_max_ratio = 8 * 1024;
    for (const SolverConstants& c : {chosen, alpha0, alpha1, beta0, band}) EXPECT_NEAR(hooke_ratio(c), 1.0, 5e-5);
}

// docs/solver.md#hinge: the quadratic bending stencil's weights make Σ w·x vanish on any flat diamond, so a sheet
// cut flat feels no bending force at rest, in zero gravity it does not move by a bit.
TEST(Rows, HingeIsSilentOnAFlatSheet) {
    ClothProxy sheet = test::grid_sheet_proxy(4, 4, 0.1, 0.16);
    SolverConstants c;
    c.sleep = false;
    Solver flat(sheet, *find_fabric("leather"), c);
    StepInput zero_g;
    zero_g.gravity = {};
    for (int s = 0; s < 10; ++s) flat.step(zero_g);
    // To the rounding of the cotangents: Σ w·x is zero in exact arithmetic, a few ulps in double.
    for (uint32_t i = 0; i < sheet.particle_count(); ++i) EXPECT_LT(length(flat.state().x[i] - sheet.rest_position[i]), 1e-14);
}

/// A 6x6 sheet at 8 cm cut curved: rolled a quarter turn about x (a cape round a back, a skirt round
/// hips), its z = 0 row held.
ClothProxy curved_sheet() {
    const double spacing = 0.08, radius = 0.25;
    test::ProxyDraft d = test::grid_draft(6, 6, spacing, 0.36, false);
    for (Vec3& p : d.position) {
        const double t = p.z / radius;
        p = {p.x, -radius * (1 - std::cos(t)), radius * std::sin(t)};
    }
    return test::finish_proxy(d);
}

// A sheet modelled curved rests in its curve: the hinge pulls toward the rest pose's own bend
// (Σ w·x − C̄), not toward flat (the plain model reads a curved rest as bent; a game's capes and skirts
// are modelled curved, and the Knight's cape strained 38% on its first step). Kicked, it swings and
// comes back to the curve it was cut in, the hold-line turn included (it moves a bent hinge's C).
TEST(Rows, HingeIsSilentOnACurvedRestPoseAndRestoresIt) {
    const ClothProxy sheet = curved_sheet();
    SolverConstants c;
    c.sleep = false;
    StepInput zero_g;
    zero_g.gravity = {};
    Solver still(sheet, *find_fabric("leather"), c);
    for (int s = 0; s < 10; ++s) still.step(zero_g);
    for (uint32_t i = 0; i < sheet.particle_count(); ++i) EXPECT_LT(length(still.state().x[i] - sheet.rest_position[i]), 1e-12);

    Fabric f = *find_fabric("leather");
    f.slack = 1;  // only the hinges and the stretch rows know the shape
    Solver kicked(sheet, f, c);
    kicked.add_velocity({0, 0.5, 0});
    double widest = 0;
    for (int s = 0; s < 600; ++s) {
        kicked.step(zero_g);
        for (uint32_t i = 0; i < sheet.particle_count(); ++i)
            widest = std::max(widest, length(kicked.state().x[i] - sheet.rest_position[i]));
    }
    EXPECT_GT(widest, 0.01);
    for (uint32_t i = 0; i < sheet.particle_count(); ++i) EXPECT_LT(length(kicked.state().x[i] - sheet.rest_position[i]), 1e-3) << i;
}

/// A roof panel fanned from one free eave particle to five held ridge particles on a straight line:
/// the hinge on each inner fan edge has its two wings on the ridge, so the eave's weight is the
/// cotangents of two supplementary angles at the ridge, zero but for rounding, and the eave is the
/// hinge's only free end (a market stand's awning slab is fanned so, its ridge held by the beam).
ClothProxy ridge_fan() {
    test::ProxyDraft d;
    d.garment = "ridge fan";
    const double ridge_x[5] = {0, 0.137, 0.291, 0.413, 0.607};
    for (double x : ridge_x) {
        d.position.push_back({x, 0.1 + 0.3 * x, 0.03 * x});  // a sloping ridge, off the axes
        d.mass.push_back(0.01);
        d.held.push_back(1);
    }
    d.position.push_back({0.31, -0.37, 0.41});
    d.mass.push_back(0.01);
    d.held.push_back(0);
    for (uint32_t k = 0; k < 5; ++k) d.edges.push_back({5, k});
    for (uint32_t k = 0; k + 1 < 5; ++k) {
        d.edges.push_back({k, k + 1});
        d.triangles.push_back({5, k, k + 1});
    }
    d.pins.push_back({0, 1, 2, 3, 4});
    return test::finish_proxy(d);
}

// docs/solver.md#hinge: a hinge whose free ends carry no weight cannot be bent by them and gives them
// no force. Before, its stiffness k = ratio/(h²·Σ w²/m) was the reciprocal of a rounding (1e27 kg) and the
// bending operator's terms of that size, cancelling, left the eave a force of rounding times 1e27: it
// left its rest pose by centimetres in the first step in zero gravity (the awnings blew up at step 1).
TEST(Rows, HingeWithoutLeverageOnItsFreeEndIsSilent) {
    const ClothProxy fan = ridge_fan();
    SolverConstants c;
    c.sleep = false;
    StepInput zero_g;
    zero_g.gravity = {};
    for (const char* name : {"silk", "denim", "leather"}) {
        Solver still(fan, *find_fabric(name), c);
        for (int s = 0; s < 10; ++s) still.step(zero_g);
        const uint32_t eave = particle(fan, 5);
        EXPECT_LT(length(still.state().x[eave] - fan.rest_position[eave]), 1e-12) << name;
    }
}

// Hinge rows resist folding: a sheet held along one edge, in zero gravity, thrown upwards. With stiff
// hinges it turns about its held edge nearly as a plate (every row of it at one angle about that
// edge); with no bend rows it curls, the far rows lagging the near ones.
TEST(Rows, HingesResistFolding) {
    ClothProxy sheet = test::grid_sheet_proxy(8, 8, 0.05, 0.3);
    auto curl = [&](double bend) {
        Fabric f = *find_fabric("leather");
        f.bend = bend;
        f.slack = 1;
        f.damping = 0;
        SolverConstants c;
        c.sleep = false;
        // At the fabric's own substeps: a hinge's stiffness is set per substep (docs/solver.md#hinge),
        // and a throw split into more of them would measure the split, not the hinge.
        c.speed_substep_ratio = 0;
        Solver solver(sheet, f, c);
        solver.add_velocity({0, 1, 0});
        StepInput in;
        in.gravity = {};
        for (int s = 0; s < 10; ++s) solver.step(in);
        double lo = INFINITY, hi = -INFINITY;
        for (uint32_t iz = 1; iz < 8; ++iz) {  // down the middle of the sheet, away from its free sides
            const Vec3& x = solver.state().x[particle(sheet, iz * 8 + 4)];
            double angle = std::atan2(x.y, x.z);
            lo = std::min(lo, angle);
            hi = std::max(hi, angle);
        }
        return hi - lo;
    };
    const double stiff = curl(1.0), limp = curl(0.0);
    EXPECT_LT(stiff, 0.25 * limp) << "stiff " << stiff << " limp " << limp;
}

// docs/measurements.md, table S1: allowance(stretch) = 1 + 0.25·10^(−2.4·stretch) is fitted to the
// reference's allowance column (1.0829, 1.0158, 1.0010) and reproduces it within 1.3e-4 (0.2 gives
// 1.08277); asserted at 1.5e-4, the fit's own error, not ten times the table's precision. What the
// row delivers with it, which the fit did not use, is Measurements.StrainLimitTableMatchesTheReference.
TEST(Rows, StrainAllowanceFitsTheReferenceColumn) {
    EXPECT_NEAR(strain_allowance(0.2), 1.0829, 1.5e-4);
    EXPECT_NEAR(strain_allowance(0.5), 1.0158, 0.5e-4);
    EXPECT_NEAR(strain_allowance(1.0), 1.0010, 0.5e-4);
}

}  // namespace
}  // namespace weft
