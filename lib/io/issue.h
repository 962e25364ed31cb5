// One finding about an input, in glTF-Validator's shape: a stable code, a severity, a message that
// names the file and the element, and a pointer to where in the model it is.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

enum class Severity { error, warning, info };

inline const char* severity_name(Severity s) {
    switch (s) {
        case Severity::error: return "error";
        case Severity::warning: return "warning";
        case Severity::info: return "info";
    }
    return "error";
}

struct Issue {
    std::string code;      ///< stable, SCREAMING_SNAKE (e.g. "NON_MANIFOLD_EDGE"); never reworded
    Severity severity = Severity::error;
    std::string message;   ///< one line a person can act on: the file, the mesh/material, the element, what to do
    std::string pointer;   ///< where: "/meshes/Couch_Mustard/edges/12-40", "/nodes/Tail3", "" for the whole file
};

using Issues = std::vector<Issue>;

/// One row of a stage's table of findings (the Khronos glTF-Validator's shape): every code a
/// stage reports is listed once with its default severity and a line for the docs
/// (batch/issue_codes.h gathers the tables; `weft codes` prints them).
struct IssueCode {
    std::string_view code;         ///< stable SCREAMING_SNAKE; never reworded
    Severity severity;             ///< default severity
    std::string_view description;  ///< one line for the docs
};

/// An issue under `code` at the severity its table gives it: a call site names the code's constant
/// and never repeats its severity.
inline Issue make_issue(const IssueCode& code, std::string message, std::string pointer = {}) {
    return {std::string(code.code), code.severity, std::move(message), std::move(pointer)};
}

/// The row of `table` for `code`, or nullptr.
constexpr const IssueCode* find_issue_code(std::span<const IssueCode> table, std::string_view code) {
    for (const IssueCode& c : table)
        if (c.code == code) return &c;
    return nullptr;
}

inline bool has_error(const Issues& issues) {
    for (const Issue& i : issues)
        if (i.severity == Severity::error) return true;
    return false;
}

}  // namespace weft
