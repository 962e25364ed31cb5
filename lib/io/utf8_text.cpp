#include "io/utf8_text.h"

#include <cstdint>

namespace weft {

namespace {

/// Length of the well-formed sequence starting at text[i], or 0 when it is ill-formed; `bad` is
/// then the length of its maximal subpart (at least 1), what one U+FFFD replaces.
size_t utf8_sequence(std::string_view text, size_t i, size_t& bad) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
    const uint8_t b0 = byte(i);
    bad = 1;
    if (b0 < 0x80) return 1;
    size_t need;
    uint8_t lo = 0x80, hi = 0xBF;  // the second byte's range (Table 3-7)
    if (b0 >= 0xC2 && b0 <= 0xDF) need = 2;
    else if (b0 == 0xE0) need = 3, lo = 0xA0;
    else if (b0 == 0xED) need = 3, hi = 0x9F;
    else if (b0 >= 0xE1 && b0 <= 0xEF) need = 3;
    else if (b0 == 0xF0) need = 4, lo = 0x90;
    else if (b0 == 0xF4) need = 4, hi = 0x8F;
    else if (b0 >= 0xF1 && b0 <= 0xF3) need = 4;
    else return 0;
    for (size_t k = 1; k < need; ++k) {
        if (i + k >= text.size()) return 0;
        const uint8_t b = byte(i + k);
        if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) return 0;
        bad = k + 1;
    }
    return need;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    size_t bad = 0;
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8_sequence(text, i, bad);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

namespace {

/// `text` with each ill-formed part handed to `bad_part(out, i, bad)`, which appends its repair and
/// returns how many bytes it consumed; well-formed sequences are copied.
template <class BadPart>
std::string repaired(std::string_view text, BadPart bad_part) {
    if (is_valid_utf8(text)) return std::string(text);
    std::string out;
    out.reserve(text.size() + 8);
    size_t bad = 0;
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8_sequence(text, i, bad);
        if (n == 0) {
            i += bad_part(out, i, bad);
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

}  // namespace

std::string utf8_escaped(std::string_view text) {
    return repaired(text, [&](std::string& out, size_t i, size_t) -> size_t {
        static constexpr char hex[] = "0123456789ABCDEF";
        const auto b = static_cast<uint8_t>(text[i]);
        out += "\\x";
        out += hex[b >> 4];
        out += hex[b & 15];
        return 1;  // byte by byte, so every byte can be recovered
    });
}

std::string valid_utf8(std::string_view text) {
    return repaired(text, [](std::string& out, size_t, size_t bad) -> size_t {
        out += "\xEF\xBF\xBD";
        return bad;
    });
}

std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

}  // namespace weft
