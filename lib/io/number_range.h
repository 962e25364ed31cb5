// The one check of a number an input file gives (docs/bad-inputs.md#numbers-from-a-file): finite and
// within the range it can mean something in, usually a multiple of the model's size. Every reader
// asks it, so a value is judged, and its message worded, the same way wherever it comes from.
#pragma once
#include <cmath>
#include <string>
#include <string_view>

namespace weft {

/// What a number may be. `low` and `high` are inclusive unless `low_open` (a scale of 0 is out);
/// each reason says what a value past that end would mean ("larger than the whole model (1.8 m
/// across)") and is shown after the value.
struct NumberRange {
    double low = -HUGE_VAL;
    double high = HUGE_VAL;
    bool low_open = false;
    std::string below = "is too small";
    std::string above = "is too large";
};

/// "" when `value` is finite and within `range`; else "`name` `value` " and why not: "is not
/// finite", or the range's reason for the end it is past (values at %g).
std::string number_out_of_range(std::string_view name, double value, const NumberRange& range);

/// How far `value` is from 1 (a quaternion's length, a sum of weights), as a range check against
/// `tolerance`: "" within it, else "`name` `value` is not 1 (within `tolerance`)".
std::string not_unit(std::string_view name, double value, double tolerance);

}  // namespace weft
