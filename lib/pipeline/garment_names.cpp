#include "pipeline/garment_names.h"

#include <cstdint>

namespace weft {

namespace {

/// The length of the well-formed UTF-8 sequence at `at` whose code point a file name may keep
/// (U+00A0 and above, but not the General Punctuation block's spaces, joiners, line separators and
/// bidirectional controls, U+2000-U+206F, nor U+FEFF and the specials U+FFF0-U+FFFF), else 0.
size_t kept_sequence(const std::string& s, size_t at) {
    const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    const uint8_t lead = byte(at);
    size_t length = 0;
    uint32_t cp = 0;
    if (lead >= 0xC2 && lead <= 0xDF) length = 2, cp = lead & 0x1F;
    else if (lead >= 0xE0 && lead <= 0xEF) length = 3, cp = lead & 0x0F;
    else if (lead >= 0xF0 && lead <= 0xF4) length = 4, cp = lead & 0x07;
    else return 0;
    if (at + length > s.size()) return 0;
    for (size_t k = 1; k < length; ++k) {
        if ((byte(at + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(at + k) & 0x3F);
    }
    const bool shortest = length == 2 || (length == 3 && cp >= 0x800) || (length == 4 && cp >= 0x10000);
    const bool scalar = cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    const bool nameable = cp >= 0xA0 && !(cp >= 0x2000 && cp <= 0x206F) && cp != 0xFEFF && !(cp >= 0xFFF0 && cp <= 0xFFFF);
    return shortest && scalar && nameable ? length : 0;
}

}  // namespace

std::string garment_file_stem(const std::string& name) {
    std::string stem;
    for (size_t at = 0; at < name.size();) {
        const char c = name[at];
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                          c == '_' || c == '-';
        if (keep) {
            stem += c;
            ++at;
        } else if (const size_t n = kept_sequence(name, at); n > 0) {
            stem.append(name, at, n);  // a letter of another script: "髪" stays "髪", not "___"
            at += n;
        } else {
            stem += '_';
            ++at;
        }
    }
    if (stem.empty() || stem.front() == '.') stem.insert(stem.begin(), '_');
    if (stem.size() <= max_file_stem_bytes) return stem;
    // Too long for a file name once a suffix is on (a 300-letter material name left its proxy unwritten,
    // ENAMETOOLONG): a head of whole sequences, then "-" and a hash of the whole stem.
    uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
    for (unsigned char c : stem) hash = (hash ^ c) * 1099511628211ull;
    size_t head = max_file_stem_bytes - 17;
    while (head > 0 && (static_cast<unsigned char>(stem[head]) & 0xC0) == 0x80) --head;  // not inside a sequence
    static const char hex[] = "0123456789abcdef";
    std::string tail = "-";
    for (int shift = 60; shift >= 0; shift -= 4) tail += hex[(hash >> shift) & 0xF];
    return stem.substr(0, head) + tail;
}

std::string unique_garment_name(const std::string& wanted, std::set<std::string>& used_stems) {
    std::string name = wanted;
    for (int n = 2; used_stems.count(garment_file_stem(name)); ++n) name = wanted + "_" + std::to_string(n);
    used_stems.insert(garment_file_stem(name));
    return name;
}

}  // namespace weft
