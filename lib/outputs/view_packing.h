// How the page's data packs numbers (docs/view.md#packed-arrays): base64 of little-endian integers,
// positions and series quantised to 16 bits over their bounds. Written here, read by
// web/src/decode.js.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace weft {

/// RFC 4648 base64 of `size` bytes.
std::string base64_of(const uint8_t* data, size_t size);

/// {width: 2|4, count, data}: unsigned 16-bit little-endian values when every one is below 65536,
/// else 32-bit, base64'd.
nlohmann::json indices_json(const std::vector<uint32_t>& values);

/// Per-axis bounds of x,y,z triples (non-finite values skipped; all 0 when there are none).
struct Bounds3 {
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
};
Bounds3 bounds_of(const std::vector<float>& xyz);
/// {min: [x,y,z], max: [x,y,z]}.
nlohmann::json bounds_json(const Bounds3& b);
/// x,y,z triples as 16-bit values over `b`, base64'd: value = min + q / 65535 * (max - min).
std::string quantise(const std::vector<float>& xyz, const Bounds3& b);

/// One number a step (or a bucket of steps), quantised over its own range: {min, max, data}, data
/// base64 of 16-bit values, value = min + q / 65535 * (max - min).
nlohmann::json series_json(const std::vector<double>& values);

/// 5 significant figures (non-finite as 0): what a page shows, short and the same on every machine.
double short_number(double v);

}  // namespace weft
