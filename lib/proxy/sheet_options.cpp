// The sheet builder's options as the command line and config files write them (sheet_builder.h).
#include <charconv>
#include <cmath>
#include <cstdio>

#include "proxy/sheet_work.h"

namespace weft {

using sheet_detail::unset_index;

std::string_view pin_rule_name(PinRule rule) {
    switch (rule) {
        case PinRule::automatic: return "automatic";
        case PinRule::weights: return "weights";
        case PinRule::none: return "none";
        case PinRule::top: return "top";
        case PinRule::bottom: return "bottom";
        case PinRule::left: return "left";
        case PinRule::right: return "right";
        case PinRule::nearest: return "nearest";
        case PinRule::vertices: return "vertices";
        case PinRule::touching: return "touching";
    }
    return "none";
}

std::string parse_resolution(std::string_view text, SheetOptions& options) {
    if (text == "automatic" || text == "source") {
        options.resolution = text == "source" ? SheetResolution::source : SheetResolution::automatic;
        options.resolution_value = 0;
        return "";
    }
    for (const auto& [prefix, kind] : {std::pair{std::string_view("edge:"), SheetResolution::edge_length},
                                       std::pair{std::string_view("particles:"), SheetResolution::particles}}) {
        if (!text.starts_with(prefix)) continue;
        const std::string_view number = text.substr(prefix.size());
        double v = 0;
        auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
        if (number.empty() || ec != std::errc() || end != number.data() + number.size() || !std::isfinite(v) ||
            !(kind == SheetResolution::edge_length ? v > 0 : v >= 4))
            return "resolution '" + std::string(text) + "': want " +
                   (kind == SheetResolution::edge_length ? "edge:METRES with a length > 0" : "particles:N with N >= 4");
        options.resolution = kind;
        options.resolution_value = v;
        return "";
    }
    return "unknown resolution '" + std::string(text) + "': want automatic, source, edge:METRES or particles:N";
}

std::string resolution_text(const SheetOptions& options) {
    char number[32];
    switch (options.resolution) {
        case SheetResolution::automatic: return "automatic";
        case SheetResolution::source: return "source";
        case SheetResolution::edge_length:
            std::snprintf(number, sizeof number, "%g", options.resolution_value);
            return std::string("edge:") + number;
        case SheetResolution::particles:
            std::snprintf(number, sizeof number, "%g", options.resolution_value);
            return std::string("particles:") + number;
    }
    return "automatic";
}

std::string parse_pin_rule(std::string_view text, SheetOptions& options) {
    for (PinRule r : {PinRule::automatic, PinRule::weights, PinRule::none, PinRule::top, PinRule::bottom, PinRule::left,
                      PinRule::right, PinRule::touching})
        if (text == pin_rule_name(r)) {
            options.pin = r;
            return "";
        }
    if (text.starts_with("nearest:")) {
        std::string_view target = text.substr(8);
        if (target.empty()) return "pin rule 'nearest:' needs a node, mesh or material name after the colon";
        options.pin = PinRule::nearest;
        options.pin_target = std::string(target);
        return "";
    }
    if (text.starts_with("vertices:")) {
        std::string_view list = text.substr(9);
        std::vector<uint32_t> vertices;
        while (!list.empty()) {
            size_t comma = list.find(',');
            std::string_view item = list.substr(0, comma);
            uint32_t v = 0;
            auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
            if (item.empty() || ec != std::errc() || end != item.data() + item.size())
                return "pin rule 'vertices:': '" + std::string(item) + "' is not a vertex index";
            vertices.push_back(v);
            list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        }
        if (vertices.empty()) return "pin rule 'vertices:' needs at least one vertex index";
        options.pin = PinRule::vertices;
        options.pin_vertices = std::move(vertices);
        return "";
    }
    return "unknown pin rule '" + std::string(text) +
           "': want automatic, weights, none, top, bottom, left, right, nearest:NAME or vertices:I,J,...";
}

std::string apply_pin_json(const nlohmann::json& pin, SheetOptions& options) {
    if (pin.is_null()) return "";
    if (pin.is_string()) return parse_pin_rule(pin.get<std::string>(), options);
    if (!pin.is_object()) return "\"pin\" must be a rule string or an object";
    SheetOptions o = options;
    if (auto it = pin.find("rule"); it != pin.end()) {
        if (!it->is_string()) return "\"pin.rule\" must be a string";
        if (std::string e = parse_pin_rule(it->get<std::string>(), o); !e.empty()) return e;
    }
    if (auto it = pin.find("target"); it != pin.end()) {
        if (!it->is_string() || it->get<std::string>().empty()) return "\"pin.target\" must be a non-empty name";
        o.pin_target = it->get<std::string>();
        if (!pin.contains("rule")) o.pin = PinRule::nearest;
    }
    if (auto it = pin.find("vertices"); it != pin.end()) {
        if (!it->is_array() || it->empty()) return "\"pin.vertices\" must be a non-empty array of vertex indices";
        o.pin_vertices.clear();
        for (const auto& v : *it) {
            if (!v.is_number_unsigned() || v.get<uint64_t>() >= unset_index) return "\"pin.vertices\" holds a non-index value";
            o.pin_vertices.push_back(static_cast<uint32_t>(v.get<uint64_t>()));
        }
        if (!pin.contains("rule")) o.pin = PinRule::vertices;
    }
    if (auto it = pin.find("holder"); it != pin.end()) {
        if (!it->is_string()) return "\"pin.holder\" must be a node name";
        o.pin_holder = it->get<std::string>();
    }
    if (auto it = pin.find("tolerance"); it != pin.end()) {
        if (!it->is_number() || !(it->get<double>() >= 0)) return "\"pin.tolerance\" must be a length >= 0 in metres";
        o.pin_tolerance = it->get<double>();
    }
    if (auto it = pin.find("weight"); it != pin.end()) {
        if (!it->is_number() || !(it->get<double>() > 0 && it->get<double>() <= 1)) return "\"pin.weight\" must be in (0, 1]";
        o.pin_weight = it->get<double>();
    }
    for (auto it = pin.begin(); it != pin.end(); ++it)
        if (it.key() != "rule" && it.key() != "target" && it.key() != "vertices" && it.key() != "holder" &&
            it.key() != "tolerance" && it.key() != "weight")
            return "\"pin\" has an unknown key \"" + it.key() + "\"";
    options = std::move(o);
    return "";
}

}  // namespace weft
