#include "io/number_range.h"

#include "io/format_text.h"

namespace weft {

// Both are asked for every key of every clip: the message is worded only for a value that is out.
std::string number_out_of_range(std::string_view name, double value, const NumberRange& range) {
    const auto said = [&] { return std::string(name) + " " + format_text("%g", value) + " "; };
    if (!std::isfinite(value)) return said() + "is not finite";
    if (value < range.low || (range.low_open && value == range.low)) return said() + range.below;
    if (value > range.high) return said() + range.above;
    return {};
}

std::string not_unit(std::string_view name, double value, double tolerance) {
    if (value >= 1 - tolerance && value <= 1 + tolerance) return {};
    const std::string above = "is not 1 (within " + format_text("%g", tolerance) + ")";
    return number_out_of_range(name, value, {1 - tolerance, 1 + tolerance, false, above, above});
}

}  // namespace weft
