#include "proxy/sheet_fabric.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace weft {
namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

struct Density {
    std::string_view fabric;
    double kg_per_m2;
};
constexpr std::array<Density, 9> kDensities = {{
    {"silk", 0.06}, {"cotton", 0.15}, {"denim", 0.40},  {"leather", 0.90}, {"rope", 0.50},
    {"chain", 5.00}, {"hair", 0.25},  {"strand", 0.25}, {"panel", 0.15},
}};

struct Suggestion {
    std::string_view garment_class;
    std::string_view fabric;
};
constexpr std::array<Suggestion, 16> kSuggestions = {{
    {"hair", "hair"},     {"tail", "hair"},     {"ear", "hair"},       {"ribbon", "silk"},
    {"sash", "silk"},     {"veil", "silk"},     {"scarf", "cotton"},   {"skirt", "cotton"},
    {"dress", "cotton"},  {"flag", "cotton"},   {"curtain", "cotton"}, {"cape", "denim"},
    {"cloak", "denim"},   {"coat", "leather"},  {"rope", "rope"},      {"chain", "chain"},
}};

}  // namespace

std::optional<double> fabric_areal_density(std::string_view fabric) {
    for (const Density& d : kDensities)
        if (equal_ignoring_case(d.fabric, fabric)) return d.kg_per_m2;
    return std::nullopt;
}

std::string fabric_density_names() {
    std::string names;
    for (const Density& d : kDensities) names += (names.empty() ? "" : ", ") + std::string(d.fabric);
    return names;
}

std::string_view sheet_fabric_for_class(std::string_view garment_class) {
    for (const Suggestion& s : kSuggestions)
        if (equal_ignoring_case(s.garment_class, garment_class)) return s.fabric;
    return "cotton";
}

std::string_view rig_fabric_for_class(std::string_view garment_class) {
    const std::string_view material = sheet_fabric_for_class(garment_class);
    if (material == "rope" || material == "chain") return material;
    return material == "hair" || material == "silk" ? "strand" : "panel";
}

}  // namespace weft
