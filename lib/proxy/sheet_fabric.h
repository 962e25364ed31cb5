// What a sheet is made of, as far as its mass goes: the areal density of each library fabric and
// the fabric a garment class suggests. Mass is area times areal density, shared a third to each
// corner of every triangle (docs/proxy.md#mass).
//
// Areal densities, kg/m², typical of the material at the scale a game garment is cut from:
//
//   fabric   kg/m²   what it stands for
//   silk     0.06    charmeuse, chiffon: 40-80 g/m²
//   cotton   0.15    shirting to light canvas: 100-200 g/m² (flags, curtains, skirts)
//   denim    0.40    12 oz denim, heavy wool: 350-450 g/m² (capes, cloaks)
//   leather  0.90    1-1.5 mm hide
//   hair     0.25    a hair shell or card: a layer of strands, far lighter than the solid it bounds
//   rope     0.50    chain fabrics, given for a sheet someone labels so
//   chain    5.00    riveted mail: ~10 kg a shirt of ~2 m²
//   strand   0.25    hair's, for a sheet someone simulates as bone-chain strands
//   panel    0.15    cotton's, likewise
//
// The class-to-fabric tables mirror lib/solver's fabric_for_garment_class and fabric_for_rig_class (docs/architecture.md#stages keeps the
// builders from linking the solver); keep the two in step.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace weft {

/// Areal density of a library fabric (case-insensitive name), kg/m²; nullopt for an unknown name.
std::optional<double> fabric_areal_density(std::string_view fabric);

/// Every fabric with a density, comma-separated in the solver library's order, for messages.
std::string fabric_density_names();

/// The library fabric a garment class suggests: hair/tail→hair, ribbon/sash/veil→silk,
/// cape/cloak→denim, coat→leather, skirt/dress/flag/curtain/scarf→cotton, ...; "cotton" otherwise.
std::string_view sheet_fabric_for_class(std::string_view garment_class);

/// The library fabric a rig proxy (bone chains) of a garment class suggests: rope and chain as
/// themselves, strands (what sheets make of hair or silk: hair, tails, ribbons) "strand", every
/// other class "panel". Its mass still comes from the class's own material (sheet_fabric_for_class).
std::string_view rig_fabric_for_class(std::string_view garment_class);

}  // namespace weft
