#include "outputs/cloth_summary_json.h"

#include <cmath>
#include <cstdio>

namespace weft {
namespace {

using nlohmann::json;

/// Five significant figures: what a dashboard shows, and the same text on every machine.
double rounded(double v) {
    if (!std::isfinite(v)) return 0;
    char text[32];
    std::snprintf(text, sizeof text, "%.5g", v);
    return std::strtod(text, nullptr);
}

bool is_count(const json& j, const char* key) {
    return j.contains(key) && j[key].is_number_unsigned();
}

}  // namespace

json cloth_summary_json(const ClothSummary& s) {
    json out = {{"garments", s.garments}, {"moving", s.moving}, {"proxies", s.proxies}};
    if (s.passing) out["passing"] = *s.passing;
    if (s.worst_gate) {
        const WorstGate& g = *s.worst_gate;
        out["worst_gate"] = {{"gate", g.gate},           {"proxy", g.proxy},          {"scenario", g.scenario},
                             {"value", rounded(g.value)}, {"limit", rounded(g.limit)}, {"passed", g.passed}};
    }
    return out;
}

std::optional<ClothSummary> cloth_summary_from_json(const json& j) {
    if (!j.is_object() || !is_count(j, "garments") || !is_count(j, "moving") || !is_count(j, "proxies")) return std::nullopt;
    ClothSummary s;
    s.garments = j["garments"].get<uint32_t>();
    s.moving = j["moving"].get<uint32_t>();
    s.proxies = j["proxies"].get<uint32_t>();
    if (j.contains("passing")) {
        if (!is_count(j, "passing")) return std::nullopt;
        s.passing = j["passing"].get<uint32_t>();
    }
    if (j.contains("worst_gate")) {
        const json& g = j["worst_gate"];
        if (!g.is_object()) return std::nullopt;
        WorstGate w;
        for (auto [key, field] : {std::pair{"gate", &w.gate}, {"proxy", &w.proxy}, {"scenario", &w.scenario}}) {
            if (!g.contains(key) || !g[key].is_string()) return std::nullopt;
            *field = g[key].get<std::string>();
        }
        if (!g.contains("value") || !g["value"].is_number() || !g.contains("limit") || !g["limit"].is_number() ||
            !g.contains("passed") || !g["passed"].is_boolean())
            return std::nullopt;
        w.value = g["value"].get<double>();
        w.limit = g["limit"].get<double>();
        w.passed = g["passed"].get<bool>();
        s.worst_gate = std::move(w);
    }
    return s;
}

}  // namespace weft
