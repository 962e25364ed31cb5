#include "outputs/issue_json.h"

namespace weft {

nlohmann::json issue_json(const Issue& i) {
    return {{"code", i.code}, {"severity", severity_name(i.severity)}, {"message", i.message}, {"pointer", i.pointer}};
}

nlohmann::json issues_json(const Issues& issues) {
    nlohmann::json out = nlohmann::json::array();
    for (const Issue& i : issues) out.push_back(issue_json(i));
    return out;
}

Issue issue_from_json(const nlohmann::json& j) {
    Issue i;
    i.code = j.value("code", "");
    const std::string s = j.value("severity", "error");
    i.severity = s == "warning" ? Severity::warning : s == "info" ? Severity::info : Severity::error;
    i.message = j.value("message", "");
    i.pointer = j.value("pointer", "");
    return i;
}

}  // namespace weft
