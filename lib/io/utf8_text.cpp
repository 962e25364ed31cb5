#include "io/utf8_text.h"

#include <cstdint>

namespace weft {
namespace {

/// The length of the valid UTF-8 sequence at text[i], or 0 when the byte there starts none.
size_t utf8_sequence_length(std::string_view text, size_t i) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
    const uint8_t b = byte(i);
    if (b < 0x80) return 1;
    size_t n = 0;
    uint8_t low = 0x80, high = 0xBF;  // bounds of the second byte (shortest form, no surrogates)
    if (b >= 0xC2 && b <= 0xDF) {
        n = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        if (b == 0xE0) low = 0xA0;
        if (b == 0xED) high = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        if (b == 0xF0) low = 0x90;
        if (b == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    if (i + n > text.size()) return 0;
    if (byte(i + 1) < low || byte(i + 1) > high) return 0;
    for (size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8_sequence_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string utf8_escaped(std::string_view text) {
    if (is_valid_utf8(text)) return std::string(text);
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() + 8);
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8_sequence_length(text, i);
        if (n == 0) {
            const auto b = static_cast<uint8_t>(text[i]);
            out += "\\x";
            out += hex[b >> 4];
            out += hex[b & 15];
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

}  // namespace weft
