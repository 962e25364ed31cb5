#include "outputs/json_text.h"

#include "io/utf8_text.h"

namespace weft {
namespace {

nlohmann::json utf8_safe_json(const nlohmann::json& v) {
    if (v.is_string()) return utf8_escaped(v.get_ref<const std::string&>());
    if (v.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const nlohmann::json& e : v) out.push_back(utf8_safe_json(e));
        return out;
    }
    if (v.is_object()) {
        nlohmann::json out = nlohmann::json::object();
        for (auto it = v.begin(); it != v.end(); ++it) out[utf8_escaped(it.key())] = utf8_safe_json(it.value());
        return out;
    }
    return v;
}

}  // namespace

std::string json_text(const nlohmann::json& j, int indent) {
    const std::string end = indent < 0 ? "" : "\n";
    try {
        return j.dump(indent) + end;
    } catch (const nlohmann::json::type_error&) {
        // Only a string that is not UTF-8 makes dump throw: written again with it escaped.
    }
    return utf8_safe_json(j).dump(indent) + end;
}

}  // namespace weft
