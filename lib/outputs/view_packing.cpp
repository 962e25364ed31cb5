#include "outputs/view_packing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace weft {

using json = nlohmann::json;

std::string base64_of(const uint8_t* data, size_t size) {
    static constexpr char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((size + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < size; i += 3) {
        const uint32_t v = uint32_t(data[i]) << 16 | uint32_t(data[i + 1]) << 8 | data[i + 2];
        out += digits[v >> 18];
        out += digits[(v >> 12) & 63];
        out += digits[(v >> 6) & 63];
        out += digits[v & 63];
    }
    if (i < size) {
        const uint32_t v = uint32_t(data[i]) << 16 | (i + 1 < size ? uint32_t(data[i + 1]) << 8 : 0);
        out += digits[v >> 18];
        out += digits[(v >> 12) & 63];
        out += i + 1 < size ? digits[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

json indices_json(const std::vector<uint32_t>& values) {
    uint32_t top = 0;
    for (uint32_t v : values) top = std::max(top, v);
    std::vector<uint8_t> bytes;
    const int width = top < 65536 ? 2 : 4;
    bytes.reserve(values.size() * width);
    for (uint32_t v : values)
        for (int b = 0; b < width; ++b) bytes.push_back(uint8_t(v >> (8 * b)));
    return {{"width", width}, {"count", values.size()}, {"data", base64_of(bytes.data(), bytes.size())}};
}

Bounds3 bounds_of(const std::vector<float>& xyz) {
    Bounds3 b;
    bool seen[3] = {false, false, false};
    for (size_t i = 0; i < xyz.size(); ++i) {
        const int k = static_cast<int>(i % 3);
        const float v = xyz[i];
        if (!std::isfinite(v)) continue;
        if (!seen[k] || v < b.lo[k]) b.lo[k] = v;
        if (!seen[k] || v > b.hi[k]) b.hi[k] = v;
        seen[k] = true;
    }
    return b;
}

json bounds_json(const Bounds3& b) {
    return {{"min", {b.lo[0], b.lo[1], b.lo[2]}}, {"max", {b.hi[0], b.hi[1], b.hi[2]}}};
}

namespace {

uint16_t quantum(double v, double lo, double hi) {
    const double span = hi - lo;
    double t = span > 0 ? (v - lo) / span : 0.0;
    if (!std::isfinite(t)) t = 0;
    return static_cast<uint16_t>(std::lround(std::clamp(t, 0.0, 1.0) * 65535.0));
}

std::string base64_of_16(const std::vector<uint16_t>& q) {
    std::vector<uint8_t> bytes;
    bytes.reserve(q.size() * 2);
    for (uint16_t v : q) {
        bytes.push_back(uint8_t(v));
        bytes.push_back(uint8_t(v >> 8));
    }
    return base64_of(bytes.data(), bytes.size());
}

}  // namespace

std::string quantise(const std::vector<float>& xyz, const Bounds3& b) {
    std::vector<uint16_t> q(xyz.size());
    for (size_t i = 0; i < xyz.size(); ++i) q[i] = quantum(xyz[i], b.lo[i % 3], b.hi[i % 3]);
    return base64_of_16(q);
}

json series_json(const std::vector<double>& values) {
    double lo = 0, hi = 0;
    bool first = true;
    for (double v : values) {
        if (!std::isfinite(v)) continue;
        lo = first ? v : std::min(lo, v);
        hi = first ? v : std::max(hi, v);
        first = false;
    }
    lo = short_number(lo);
    hi = short_number(hi);
    std::vector<uint16_t> q(values.size());
    for (size_t i = 0; i < values.size(); ++i) q[i] = quantum(values[i], lo, hi);
    return {{"min", lo}, {"max", hi}, {"data", base64_of_16(q)}};
}

double short_number(double v) {
    if (!std::isfinite(v)) return 0;
    char text[32];
    std::snprintf(text, sizeof text, "%.5g", v);
    return std::strtod(text, nullptr);
}

}  // namespace weft
