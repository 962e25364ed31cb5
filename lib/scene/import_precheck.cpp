// Checks of non-glTF formats before Assimp 5.2.5 reads them, where its readers trust the file:
//   - PLY: element counts and list lengths size allocations before any byte behind them is read
//     (a 220-byte binary file with a list count of 2e9 grew to 12 GB); here every count is checked
//     against the bytes left, walking the body once.
//   - MD5 mesh: a vertex's weight range and a weight's joint are indices Assimp follows unchecked
//     (SIGSEGV), and a vertex, weight or triangle index resizes its array to fit (any size).
//   - Collada: an <accessor> whose count x stride runs past its source array is read past the
//     array's end when an index points there (SIGSEGV).
// Each is a linear scan of the bytes already in memory; what it cannot parse it leaves to Assimp,
// which refuses it itself.
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "scene/import_detail.h"

namespace weft::import_detail {
namespace {

std::string_view as_text(std::span<const uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

/// Whitespace-separated tokens of a text, one at a time.
struct Tokens {
    std::string_view s;
    size_t i = 0;
    std::string_view next() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
        size_t b = i;
        while (i < s.size() && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
        return s.substr(b, i - b);
    }
    std::string_view line() {  // the rest of the current line
        size_t b = i;
        while (i < s.size() && s[i] != '\n') ++i;
        return s.substr(b, i - b);
    }
    size_t left() const { return s.size() - i; }
};

bool to_u64(std::string_view t, uint64_t& v) {
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return ec == std::errc() && end == t.data() + t.size();
}

bool to_i64(std::string_view t, int64_t& v) {
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    return ec == std::errc() && end == t.data() + t.size();
}

// ---- PLY -----------------------------------------------------------------------------------

int ply_type_size(std::string_view t) {
    if (t == "char" || t == "uchar" || t == "int8" || t == "uint8") return 1;
    if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
    if (t == "int" || t == "uint" || t == "float" || t == "int32" || t == "uint32" || t == "float32") return 4;
    if (t == "double" || t == "float64") return 8;
    return 0;
}

struct PlyProperty {
    int size = 0;        ///< scalar size, or the list's item size
    int count_size = 0;  ///< list: size of its count; 0 for a scalar
};

struct PlyElement {
    std::string name;
    uint64_t count = 0;
    std::vector<PlyProperty> properties;
};

bool check_ply(std::span<const uint8_t> bytes, Reporter& report) {
    const std::string_view text = as_text(bytes);
    const size_t end = text.find("end_header");
    if (end == std::string_view::npos) return true;  // Assimp refuses it
    const size_t body_at = text.find('\n', end);
    if (body_at == std::string_view::npos) return true;
    Tokens header{text.substr(0, end)};
    std::vector<PlyElement> elements;
    int format = -1;  // 0 ascii, 1 little endian, 2 big endian
    for (std::string_view word = header.next(); !word.empty(); word = header.next()) {
        if (word == "format") {
            std::string_view f = header.next();
            format = f == "ascii" ? 0 : f == "binary_little_endian" ? 1 : f == "binary_big_endian" ? 2 : -1;
        } else if (word == "element") {
            PlyElement e;
            e.name = std::string(header.next());
            if (!to_u64(header.next(), e.count)) return true;
            elements.push_back(std::move(e));
        } else if (word == "property" && !elements.empty()) {
            std::string_view type = header.next();
            PlyProperty p;
            if (type == "list") {
                p.count_size = ply_type_size(header.next());
                p.size = ply_type_size(header.next());
            } else {
                p.size = ply_type_size(type);
            }
            if (p.size == 0 || (type == "list" && p.count_size == 0)) return true;
            elements.back().properties.push_back(p);
        } else if (word == "comment" || word == "obj_info") {
            header.line();
        }
    }
    if (format < 0) return true;
    const std::span<const uint8_t> body = bytes.subspan(body_at + 1);
    auto too_large = [&](const PlyElement& e, uint64_t index, const std::string& what, uint64_t count, uint64_t left) {
        report.add(kCountTooLarge, "PLY element '" + e.name + "' " + std::to_string(index) + ": " + what + " of " +
                                          std::to_string(count) + " but only " + std::to_string(left) +
                                          " bytes of the file follow; the file is corrupt or hostile");
        return false;
    };
    if (format == 0) {
        Tokens t{as_text(body)};
        for (const PlyElement& e : elements) {
            // Each property of each element is at least one character and a separator.
            if (e.properties.size() && e.count > t.left() / (2 * e.properties.size()))
                return too_large(e, 0, "a count", e.count, t.left());
            for (uint64_t k = 0; k < e.count; ++k)
                for (const PlyProperty& p : e.properties) {
                    uint64_t n = 1;
                    if (p.count_size) {
                        if (!to_u64(t.next(), n)) return true;  // Assimp refuses what does not parse
                        if (n > t.left() / 2) return too_large(e, k, "a list count", n, t.left());
                    }
                    for (uint64_t j = 0; j < n; ++j) t.next();
                }
        }
        return true;
    }
    size_t at = 0;
    auto read_count = [&](int size) -> uint64_t {
        uint64_t v = 0;
        for (int b = 0; b < size; ++b) {
            const uint8_t byte = body[at + size_t(format == 1 ? b : size - 1 - b)];
            v |= uint64_t(byte) << (8 * b);
        }
        // A signed count type with its top bit set is negative: a huge unsigned value, refused.
        at += size_t(size);
        return v;
    };
    for (const PlyElement& e : elements) {
        uint64_t smallest = 0;
        for (const PlyProperty& p : e.properties) smallest += p.count_size ? p.count_size : p.size;
        if (smallest && e.count > (body.size() - at) / smallest)
            return too_large(e, 0, "a count", e.count, body.size() - at);
        for (uint64_t k = 0; k < e.count; ++k)
            for (const PlyProperty& p : e.properties) {
                if (!p.count_size) {
                    if (body.size() - at < size_t(p.size)) return too_large(e, k, "a value", 1, body.size() - at);
                    at += size_t(p.size);
                    continue;
                }
                if (body.size() - at < size_t(p.count_size)) return too_large(e, k, "a list", 1, body.size() - at);
                const uint64_t n = read_count(p.count_size);
                if (n > (body.size() - at) / uint64_t(p.size))
                    return too_large(e, k, "a list count", n, body.size() - at);
                at += size_t(n * uint64_t(p.size));
            }
    }
    return true;
}

// ---- MD5 mesh ------------------------------------------------------------------------------

bool check_md5_mesh(std::span<const uint8_t> bytes, Reporter& report) {
    Tokens t{as_text(bytes)};
    uint64_t joints = 0, mesh = 0;
    auto bad = [&](const std::string& what) {
        report.add(kModelIndexOutOfRange, "MD5 mesh " + std::to_string(mesh) + ": " + what +
                                                   "; the file is corrupt or hostile");
        return false;
    };
    struct Vert { uint64_t index, first, count; };
    std::vector<Vert> verts;
    std::vector<std::pair<uint64_t, uint64_t>> weights;  // index, joint
    std::vector<uint64_t> corners;
    uint64_t numverts = 0, numweights = 0, numtris = 0;
    auto finish_mesh = [&]() {
        for (const Vert& v : verts) {
            if (v.index >= numverts) return bad("vertex " + std::to_string(v.index) + " of " + std::to_string(numverts));
            if (v.first > numweights || v.count > numweights - v.first)
                return bad("vertex " + std::to_string(v.index) + " uses weights " + std::to_string(v.first) + ".." +
                           std::to_string(v.first + v.count) + " of " + std::to_string(numweights));
        }
        for (const auto& [index, joint] : weights) {
            if (index >= numweights) return bad("weight " + std::to_string(index) + " of " + std::to_string(numweights));
            if (joint >= joints)
                return bad("weight " + std::to_string(index) + " names joint " + std::to_string(joint) + " of " +
                           std::to_string(joints));
        }
        for (uint64_t c : corners)
            if (c >= numverts) return bad("a triangle names vertex " + std::to_string(c) + " of " + std::to_string(numverts));
        verts.clear();
        weights.clear();
        corners.clear();
        numverts = numweights = numtris = 0;
        ++mesh;
        return true;
    };
    bool in_mesh = false;
    for (std::string_view w = t.next(); !w.empty(); w = t.next()) {
        uint64_t a = 0, b = 0, c = 0;
        int64_t signed_value = 0;
        if (w == "//") {
            t.line();
        } else if (w == "numJoints") {
            if (!to_u64(t.next(), joints)) return true;
        } else if (w == "mesh") {
            in_mesh = true;
        } else if (w == "}" && in_mesh) {
            in_mesh = false;
            if (!finish_mesh()) return false;
        } else if (!in_mesh) {
            continue;
        } else if (w == "numverts" || w == "numweights" || w == "numtris") {
            // Each entry is at least a dozen bytes: a count beyond the file is a lie.
            uint64_t& n = w == "numverts" ? numverts : w == "numweights" ? numweights : numtris;
            if (!to_i64(t.next(), signed_value) || signed_value < 0) return bad(std::string(w) + " is not a count");
            n = uint64_t(signed_value);
            if (n > bytes.size() / 8)
                return report.add(kCountTooLarge, "MD5 mesh " + std::to_string(mesh) + ": " + std::string(w) + " " +
                                                        std::to_string(n) + " in a file of " +
                                                        std::to_string(bytes.size()) + " bytes"),
                       false;
        } else if (w == "vert") {
            // vert INDEX ( U V ) FIRST COUNT
            if (!to_u64(t.next(), a)) return bad("a vert line without an index");
            t.next(); t.next(); t.next(); t.next();
            if (!to_i64(t.next(), signed_value) || signed_value < 0) return bad("vertex " + std::to_string(a) + " has a bad first weight");
            b = uint64_t(signed_value);
            if (!to_i64(t.next(), signed_value) || signed_value < 0) return bad("vertex " + std::to_string(a) + " has a bad weight count");
            c = uint64_t(signed_value);
            verts.push_back({a, b, c});
        } else if (w == "weight") {
            // weight INDEX JOINT BIAS ( X Y Z )
            if (!to_u64(t.next(), a)) return bad("a weight line without an index");
            if (!to_i64(t.next(), signed_value) || signed_value < 0) return bad("weight " + std::to_string(a) + " names no joint");
            weights.push_back({a, uint64_t(signed_value)});
        } else if (w == "tri") {
            if (!to_u64(t.next(), a)) return bad("a tri line without an index");
            if (a >= numtris) return bad("triangle " + std::to_string(a) + " of " + std::to_string(numtris));
            for (int k = 0; k < 3; ++k) {
                if (!to_i64(t.next(), signed_value) || signed_value < 0) return bad("triangle " + std::to_string(a) + " has a bad corner");
                corners.push_back(uint64_t(signed_value));
            }
        }
    }
    return true;
}

// ---- Collada -------------------------------------------------------------------------------

/// The value of attribute `name` in the tag text `tag` ("<accessor source="#a" count="3">"), or "".
std::string_view xml_attribute(std::string_view tag, std::string_view name) {
    for (size_t at = tag.find(name); at != std::string_view::npos; at = tag.find(name, at + 1)) {
        const size_t after = at + name.size();
        const bool starts = at > 0 && (tag[at - 1] == ' ' || tag[at - 1] == '\t' || tag[at - 1] == '\n' || tag[at - 1] == '\r');
        if (!starts || after >= tag.size() || tag[after] != '=' || after + 1 >= tag.size()) continue;
        const char quote = tag[after + 1];
        if (quote != '"' && quote != '\'') continue;
        const size_t close = tag.find(quote, after + 2);
        if (close == std::string_view::npos) return {};
        return tag.substr(after + 2, close - after - 2);
    }
    return {};
}

bool check_collada(std::span<const uint8_t> bytes, Reporter& report) {
    const std::string_view text = as_text(bytes);
    std::unordered_map<std::string, uint64_t> array_count;  // id -> declared count
    for (size_t at = text.find('<'); at != std::string_view::npos; at = text.find('<', at + 1)) {
        const size_t close = text.find('>', at);
        if (close == std::string_view::npos) break;
        const std::string_view tag = text.substr(at, close - at);
        const size_t name_end = tag.find_first_of(" \t\r\n/");
        const std::string_view name = tag.substr(1, (name_end == std::string_view::npos ? tag.size() : name_end) - 1);
        if (name.size() > 6 && name.substr(name.size() - 6) == "_array") {
            uint64_t count = 0;
            const std::string_view id = xml_attribute(tag, "id");
            if (!id.empty() && to_u64(xml_attribute(tag, "count"), count)) array_count[std::string(id)] = count;
        } else if (name == "accessor") {
            std::string_view source = xml_attribute(tag, "source");
            if (!source.empty() && source[0] == '#') source.remove_prefix(1);
            const auto found = array_count.find(std::string(source));
            if (found == array_count.end()) continue;  // declared later or elsewhere: Assimp checks the reference
            uint64_t count = 0, stride = 1, offset = 0;
            if (!to_u64(xml_attribute(tag, "count"), count)) continue;
            if (!xml_attribute(tag, "stride").empty() && !to_u64(xml_attribute(tag, "stride"), stride)) stride = 0;
            if (!xml_attribute(tag, "offset").empty() && !to_u64(xml_attribute(tag, "offset"), offset)) offset = UINT64_MAX;
            const uint64_t n = found->second;
            // count x stride + offset <= array count, without overflow.
            const bool fits = stride > 0 && offset <= n && count <= (n - offset) / stride;
            if (!fits) {
                report.add(kModelIndexOutOfRange,
                           "Collada accessor of '" + std::string(source) + "' reads " + std::to_string(count) +
                               " elements of stride " + std::to_string(stride) + " from offset " +
                               std::to_string(offset) + " but the array holds " + std::to_string(n) +
                               " values; the file is corrupt or hostile");
                return false;
            }
        }
    }
    return true;
}

bool starts_with(std::span<const uint8_t> bytes, std::string_view prefix) {
    return bytes.size() >= prefix.size() && std::memcmp(bytes.data(), prefix.data(), prefix.size()) == 0;
}

/// What a file that is no model at all is, by the signature it starts with (the formats' own magic
/// numbers): an image or a document saved or renamed with a model's extension, which Assimp would
/// only call "no suitable reader". "" when it is none of them.
std::string_view not_a_model(std::span<const uint8_t> bytes) {
    static constexpr std::pair<std::string_view, std::string_view> kinds[] = {
        {"\x89PNG\r\n\x1a\n", "a PNG image"}, {"\xff\xd8\xff", "a JPEG image"}, {"GIF8", "a GIF image"},
        {"%PDF-", "a PDF document"}, {"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"},
    };  // not ZIP or gzip: Assimp reads models packed in them (.3mf, .zae)
    for (const auto& [magic, kind] : kinds)
        if (starts_with(bytes, magic)) return kind;
    return {};
}

}  // namespace

bool precheck_model(std::span<const uint8_t> bytes, Reporter& report) {
    if (const std::string_view kind = not_a_model(bytes); !kind.empty()) {
        report.add(kUnknownFormat, "not a model: its bytes are " + std::string(kind) + "'s (a file renamed or saved with the wrong extension?)");
        return false;
    }
    if (starts_with(bytes, "ply\n") || starts_with(bytes, "ply\r\n")) return check_ply(bytes, report);
    if (starts_with(bytes, "MD5Version")) return check_md5_mesh(bytes, report);
    const std::string_view head = as_text(bytes.first(std::min<size_t>(bytes.size(), 4096)));
    if (head.find("<COLLADA") != std::string_view::npos) return check_collada(bytes, report);
    return true;
}

}  // namespace weft::import_detail
