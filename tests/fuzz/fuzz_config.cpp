// libFuzzer harness for the garment config loader (parse_garment_config, what `--config` and a
// folder's weft.json go through). Invariants, any breach an abort:
//   - it never throws; an error is one line that starts with the origin;
//   - an accepted config has every rule naming exactly one material, mesh or node and a known class
//     (or "none"), every class name valid and unique, a span in [0, 100] m, and every pin rule
//     (kept for later stages) a string or an object no deeper than the loader's bound.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "garment/config.h"

namespace {

void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz_config: invariant broken: %s\n", what);
    std::abort();
}

int json_depth(const nlohmann::json& j) {
    // Bounded by the loader's nesting limit, so this recursion is shallow on anything accepted.
    int deepest = 0;
    if (j.is_structured())
        for (const auto& child : j) deepest = std::max(deepest, json_depth(child));
    return j.is_structured() ? deepest + 1 : 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string origin = "fuzz/weft.json";
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    weft::ConfigResult result = weft::parse_garment_config(text, origin);
    if (!result.error.empty()) {
        require(result.error.rfind(origin + ": ", 0) == 0, "an error starts with the origin");
        require(result.error.find('\n') == std::string::npos, "an error is one line");
        return 0;
    }
    const weft::GarmentConfig& config = result.config;
    std::set<std::string> classes;
    for (const weft::GarmentClass& c : config.classes) {
        require(!c.name.empty() && c.name.size() <= 64, "class names are 1..64 bytes");
        require(classes.insert(c.name).second, "class names are unique");
    }
    for (const weft::GarmentRule& rule : config.rules) {
        require(!rule.material.empty() + !rule.mesh.empty() + !rule.node.empty() == 1, "a rule names one thing");
        require(rule.class_name == weft::kNotAGarment || classes.count(rule.class_name), "a rule's class is known");
        require(rule.pin.is_null() || rule.pin.is_string() || rule.pin.is_object(), "a pin is a string or an object");
        require(json_depth(rule.pin) <= weft::kMaxConfigDepth, "a pin is no deeper than the bound");
        (void)weft::rule_applies_to(rule, "models/a/Couch_Blue.glb");
    }
    if (config.min_garment_span)
        require(std::isfinite(*config.min_garment_span) && *config.min_garment_span >= 0 &&
                    *config.min_garment_span <= 100,
                "the span is in [0, 100] m");
    return 0;
}
