// The fabric library: what a cloth is made of, in one place for both the builders (which weigh a sheet
// by the fabric's areal density and name the fabric a garment class suggests) and the solver (which
// runs it) (docs/solver.md#fabric-library). Depends on the C++ standard library alone.
//
// Every entry, in one table (docs/fabrics.md is this table; fabric.cpp has the values
// and why each was chosen):
//
//   entry    budget  stretch  strain row  bend   slack  damping  inertia  thickness  friction  Z1 sleep
//   silk      2x4     0.5       no        0.02   0.6     1.17     1.0     0.004 m     0.2        770
//   cotton    2x4     0.5       no        0.10   0.4     2.39     0.8     0.006 m     0.4        439
//   denim     2x2     0.8       yes       0.40   0.3     5.50     0.7     0.010 m     0.5        221
//   leather   2x2     1.0       yes       0.80   0.25    4.72     0.7     0.020 m     0.6        240
//   rope      2x4     0.8       yes       0.30   1 (no)  1.88     0.8     0.010 m     0.5        502
//   chain     2x6     1.0       yes       0.01   1 (no)  3.98     0.6     0.010 m     0.3        285
//   hair      2x4     0.5       no        0.30   0.5     3.31     0.8     0.005 m     0.3        294
//
//   bone chains: every field as above, plus pose
//   entry    budget  stretch  strain row  bend   slack  pose   damping  inertia  thickness  friction  Z1 sleep
//   strand    3x4     0.5       no        0.30   0.5    2 Hz    3.31     0.8     0.005 m     0.3        258
//   panel     4x4     0.5       no        0.10   0.4    2 Hz    2.39     0.8     0.006 m     0.4        347
//
// (Z1 sleep, docs/measurements.md table Z1: the step at which a 12-link chain at 8 cm, 50 g a joint, kicked at 3 m/s falls asleep.)
//
// How the fields act (the docs/solver.md section that says why):
// - budget (substeps x iterations): docs/solver.md#budgets — DENIM and LEATHER 2x2 (more particles per
//   garment), CHAIN 2x6 (heavy links, long reach), the other sheet fabrics 2x4; the bone chains STRAND
//   3x4 and PANEL 4x4 (a rig proxy has tens of particles).
// - stretch: the strain-limit allowance 1 + 0.25·10^(−2.4·stretch) of link length
//   (docs/solver.md#strain-limit). The row is built only where `strain_limit` is set: the 2x2 entries and the chains
//   keep it, the 2x4 sheets clear it (docs/measurements.md table S1: their residual is already about 1%).
// - stretch_stiffness: +inf (the default) makes stretch rows hard, an augmented Lagrangian; a finite
//   value in N/m makes them soft penalties (docs/solver.md#hard-and-soft-rows, docs/solver.md#dissipative-band: only hard rows rest at cloth stiffness).
// - bend: skip rows (chains, docs/solver.md#skip) and hinge rows (sheets, docs/solver.md#hinge) as a ratio of the row's own
//   effective m/h²; 0 builds none. Keep it under 8, the dissipative band (docs/solver.md#dissipative-band).
// - slack: leash radius 2·slack·d_geo to the animated pose (docs/solver.md#slack); 1 builds no row.
// - pose: Hz, a soft zero-length row from every free particle to its animated position lifted by
//   its rest weight (rest gravity in the frame / ω², ω = 2π·pose; stiffness mass·ω²): the bind pose is
//   the equilibrium with the model standing as bound, and a tilt or a push swings it at about this
//   frequency (the spring-bone `stiffness` of VRMC_springBone, MagicaCloth's shape restoration). 0
//   builds none; the seven sheet and chain fabrics have none, so a sheet drapes.
// - damping: 1/s, velocities decay as exp(−damping·t) in the frame; sleep order = damping order
//   (docs/solver.md#damping).
// - inertia: 0..1, how much of the frame's world motion the cloth feels (docs/solver.md#inertia).
// - thickness: contact radius against colliders, metres (docs/solver.md#contacts: not the velocity clamp).
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace weft {

struct Fabric {
    std::string name;                   ///< library key, lower case ("silk"); free text for a custom fabric
    uint32_t substeps = 2;              ///< substeps per step, >= 1
    uint32_t iterations = 4;            ///< colour sweeps per substep, >= 1
    double stretch = 0.5;               ///< 0..1, strain-limit allowance 1 + 0.25·10^(−2.4·stretch)
    bool strain_limit = false;          ///< build the strain-limit row on every stretch edge
    double stretch_stiffness = std::numeric_limits<double>::infinity();  ///< N/m; +inf = hard rows
    double bend = 0.1;                  ///< skip/hinge stiffness as a ratio of the row's m_eff/h²; 0 = none
    double slack = 1.0;                 ///< 0..1, leash radius 2·slack·d_geo; >= 1 = no slack row
    double pose = 0.0;                  ///< Hz, the pull back to the bind pose (strand, panel: bone chains); 0 = no pose row
    double damping = 1.0;               ///< 1/s, velocity decay rate in the frame; >= 0
    double inertia = 1.0;               ///< 0..1 share of the frame's world motion the cloth feels
    double thickness = 0.005;           ///< metres, contact radius against colliders
    double friction = 0.3;              ///< Coulomb coefficient against colliders, >= 0
};

/// The library entries, in table order: silk, cotton, denim, leather, rope, chain, hair (the
/// seven sheet and chain fabrics), then strand and panel (bone chains).
std::span<const Fabric> fabric_library();

/// Every library name, comma-separated in table order, for messages ("silk, cotton, ...").
std::string fabric_library_names();

/// A library entry by name (case-insensitive), or nullopt when there is none.
std::optional<Fabric> find_fabric(std::string_view name);

/// The library entry a garment class suggests (hair→hair, skirt→cotton, cape→denim, ribbon→silk,
/// tail→hair, ...; "cotton" for a class it does not know). Returns a library name.
std::string_view fabric_for_garment_class(std::string_view garment_class);

/// The library entry a rig proxy (bone chains) of a garment class suggests: rope→rope, chain→chain,
/// hair/tail/ear/ribbon/sash/veil→strand, anything else→panel.
std::string_view fabric_for_rig_class(std::string_view garment_class);

/// Areal density of a library fabric (case-insensitive name), kg/m²: what a sheet of it weighs per
/// square metre (fabric.cpp says what each stands for); nullopt for a name not in the library.
std::optional<double> fabric_areal_density(std::string_view fabric);

/// 1 + 0.25·10^(−2.4·stretch): the strain-limit row's rest-length factor (docs/solver.md#rows, fitted to docs/measurements.md
/// table S1 to three figures).
double strain_allowance(double stretch);

/// "" when the fabric is usable, else a message naming the field and its value.
std::string fabric_error(const Fabric& fabric);

}  // namespace weft
