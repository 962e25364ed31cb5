#include "fabric/fabric.h"

#include <array>
#include <cctype>
#include <cmath>
#include <sstream>

namespace weft {

namespace {

Fabric make(const char* name, uint32_t substeps, uint32_t iterations, double stretch, bool strain_limit,
            double bend, double slack, double pose, double damping, double inertia, double thickness, double friction) {
    Fabric f;
    f.name = name;
    f.substeps = substeps;
    f.iterations = iterations;
    f.stretch = stretch;
    f.strain_limit = strain_limit;
    f.bend = bend;
    f.slack = slack;
    f.pose = pose;
    f.damping = damping;
    f.inertia = inertia;
    f.thickness = thickness;
    f.friction = friction;
    return f;
}

// The library (fabric.h has the field meanings). Budgets are docs/solver.md#budgets's; the strain-limit row is
// kept exactly where docs/solver.md#strain-limit keeps it (the 2x2 sheets and the chains); slack is 1 (no row) on rope and
// chain and below 1 on every sheet (the leash counts of docs/solver.md#budgets; docs/measurements.md#holds-and-the-hold-line: silk's slack caught a turning
// flag later than cotton's, so silk's is the looser); thickness is silk 4 mm and leather five times
// that (docs/solver.md#contacts). Damping is fitted so a 12-link chain at 8 cm, 50 g a joint, kicked at 3 m/s sleeps at
// the step counts of docs/measurements.md table Z1 (silk 770, cotton 438, denim 220, leather 238, rope 501, chain 285, hair 295, to
// within 1.5%: docs/measurements.md), which puts it in that order; the 2x2 entries need the most (docs/solver.md#damping: damping is
// load-bearing, it removes the energy a low budget's hard rows leave). Inertia and friction follow
// weight and surface: light, smooth fabrics feel more of the frame and slide more.
//
// The two bone-chain entries are hair and cotton as a spring-bone system moves them: pose
// rows at 2 Hz hold the artist's bind pose, so a styled strand or an A-line panel rests where it
// was modelled and skinning does not tear at the root blend (a chain that sags 40-60° off its bind
// direction stretched the grown models' skinned hair by 1.1-3.2x; with pose rows it stays within
// 1.02 at rest); and 3 substeps, because a rig proxy has tens of particles where the library's budgets were
// set for a thousand, and at 2x4 a grown hair cap's neighbour links stretched 19% in the sprint's
// dead stop (3x4: 3%). Panel takes 4: behind the sprint table's one-step 9 m/s wave its top link's
// kick crosses 0.4 of a row a substep at 3, which the fast-step split lets through, and its pose
// rows then hold the chain 0.40% past its reach, over the reference's 0.35% (4x4: 0.25%; 3x6 reaches
// 0.33%, too close to the bound to hold: docs/measurements.md#table-m1--fast-locomotion).
// The areal densities (kg/m²) are what a builder weighs a sheet of the fabric by: mass is area times
// density, a third to each corner of every triangle. Typical of the material at the scale a game
// garment is cut from: silk 40-80 g/m² (charmeuse, chiffon); cotton 100-200 g/m² (shirting to light
// canvas: flags, curtains, skirts); denim 350-450 g/m² (12 oz denim, heavy wool: capes, cloaks);
// leather a 1-1.5 mm hide; hair a shell or card of strands, far lighter than the solid it bounds;
// rope for a sheet someone labels so; chain riveted mail (~10 kg a shirt of ~2 m²); strand and
// panel as hair and cotton.
struct Entry {
    Fabric fabric;
    double areal_density;  ///< kg/m²
};

const std::array<Entry, 9>& entries() {
    //                              sub it  stretch strain  bend  slack pose damping inertia thick   mu     kg/m²
    static const std::array<Entry, 9> table = {{
        {make("silk",    2, 4, 0.5, false, 0.02, 0.6,  0, 1.17, 1.0, 0.004, 0.2), 0.06},
        {make("cotton",  2, 4, 0.5, false, 0.10, 0.4,  0, 2.39, 0.8, 0.006, 0.4), 0.15},
        {make("denim",   2, 2, 0.8, true,  0.40, 0.3,  0, 5.50, 0.7, 0.010, 0.5), 0.40},
        {make("leather", 2, 2, 1.0, true,  0.80, 0.25, 0, 4.72, 0.7, 0.020, 0.6), 0.90},
        {make("rope",    2, 4, 0.8, true,  0.30, 1.0,  0, 1.88, 0.8, 0.010, 0.5), 0.50},
        {make("chain",   2, 6, 1.0, true,  0.01, 1.0,  0, 3.98, 0.6, 0.010, 0.3), 5.00},
        {make("hair",    2, 4, 0.5, false, 0.30, 0.5,  0, 3.31, 0.8, 0.005, 0.3), 0.25},
        {make("strand",  3, 4, 0.5, false, 0.30, 0.5,  2, 3.31, 0.8, 0.005, 0.3), 0.25},
        {make("panel",   4, 4, 0.5, false, 0.10, 0.4,  2, 2.39, 0.8, 0.006, 0.4), 0.15},
    }};
    return table;
}

const std::array<Fabric, 9>& library() {
    static const std::array<Fabric, 9> fabrics = [] {
        std::array<Fabric, 9> out;
        for (size_t i = 0; i < out.size(); ++i) out[i] = entries()[i].fabric;
        return out;
    }();
    return fabrics;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

}  // namespace

std::span<const Fabric> fabric_library() { return library(); }

std::string fabric_library_names() {
    std::string names;
    for (const Fabric& f : library()) names += (names.empty() ? "" : ", ") + f.name;
    return names;
}

std::optional<double> fabric_areal_density(std::string_view fabric) {
    for (const Entry& e : entries())
        if (equal_ignoring_case(e.fabric.name, fabric)) return e.areal_density;
    return std::nullopt;
}

std::optional<Fabric> find_fabric(std::string_view name) {
    for (const Fabric& f : library())
        if (equal_ignoring_case(f.name, name)) return f;
    return std::nullopt;
}

std::string_view fabric_for_garment_class(std::string_view garment_class) {
    struct Suggestion {
        std::string_view garment_class;
        std::string_view fabric;
    };
    // Hair and tails swing as strands; ribbons and sashes are light and fast; capes, cloaks and coats
    // are heavy wovens, and so is the canvas of sails, tents and awnings; skirts, dresses, flags,
    // banners and bedding are the everyday middle.
    static constexpr std::array<Suggestion, 22> table = {{
        {"hair", "hair"},     {"tail", "hair"},     {"ear", "hair"},       {"ribbon", "silk"},
        {"sash", "silk"},     {"veil", "silk"},     {"scarf", "cotton"},   {"skirt", "cotton"},
        {"dress", "cotton"},  {"flag", "cotton"},   {"curtain", "cotton"}, {"cape", "denim"},
        {"cloak", "denim"},   {"coat", "leather"},  {"rope", "rope"},      {"chain", "chain"},
        {"banner", "cotton"}, {"blanket", "cotton"}, {"tablecloth", "cotton"}, {"sail", "denim"},
        {"awning", "denim"},  {"tent", "denim"},
    }};
    for (const Suggestion& s : table)
        if (equal_ignoring_case(s.garment_class, garment_class)) return s.fabric;
    return "cotton";
}

std::string_view fabric_for_rig_class(std::string_view garment_class) {
    // Ropes and chains hang as they fall; strands (hair, tails, ribbons) and panels (skirts, capes,
    // everything else) keep the pose they were bound in.
    static constexpr std::array<std::string_view, 6> strands = {"hair", "tail", "ear", "ribbon", "sash", "veil"};
    if (equal_ignoring_case(garment_class, "rope")) return "rope";
    if (equal_ignoring_case(garment_class, "chain")) return "chain";
    for (std::string_view s : strands)
        if (equal_ignoring_case(s, garment_class)) return "strand";
    return "panel";
}

double strain_allowance(double stretch) { return 1.0 + 0.25 * std::pow(10.0, -2.4 * stretch); }

std::string fabric_error(const Fabric& f) {
    std::ostringstream out;
    auto bad = [&](const char* field, double value, const char* want) {
        out << "fabric '" << f.name << "': " << field << " = " << value << ", want " << want;
        return out.str();
    };
    if (f.substeps < 1 || f.substeps > 64) return bad("substeps", f.substeps, "1..64");
    if (f.iterations < 1 || f.iterations > 256) return bad("iterations", f.iterations, "1..256");
    if (!(f.stretch >= 0 && f.stretch <= 1)) return bad("stretch", f.stretch, "0..1");
    if (!(f.stretch_stiffness > 0)) return bad("stretch_stiffness", f.stretch_stiffness, "> 0 N/m or +inf");
    if (!(f.bend >= 0 && std::isfinite(f.bend))) return bad("bend", f.bend, "a finite ratio >= 0");
    if (!(f.slack >= 0 && f.slack <= 1)) return bad("slack", f.slack, "0..1");
    if (!(f.pose >= 0 && f.pose <= 100)) return bad("pose", f.pose, "0..100 Hz");
    if (!(f.damping >= 0 && std::isfinite(f.damping))) return bad("damping", f.damping, "a finite rate >= 0 per second");
    if (!(f.inertia >= 0 && f.inertia <= 1)) return bad("inertia", f.inertia, "0..1");
    if (!(f.thickness >= 0 && std::isfinite(f.thickness))) return bad("thickness", f.thickness, "finite metres >= 0");
    if (!(f.friction >= 0 && std::isfinite(f.friction))) return bad("friction", f.friction, "finite >= 0");
    return {};
}

}  // namespace weft
