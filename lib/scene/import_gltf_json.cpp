// The glTF container and its JSON: splitting a GLB into chunks with every length checked
// against the bytes present, and reading the JSON without building the parts nobody needs.
#include <cstring>
#include <string>
#include <unordered_set>

#include "scene/import_detail.h"

namespace weft::import_detail {
namespace {

constexpr uint32_t kGlbMagic = 0x46546C67;      // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A;     // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;      // "BIN\0"
constexpr int kMaxJsonDepth = 64;               // glTF needs about 8; extras rarely 20

uint32_t read_u32(std::span<const uint8_t> bytes, size_t at) {
    return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 |
           uint32_t(bytes[at + 3]) << 24;
}

/// Finds the extent of JSON values without building them: a glTF's animations and its accessor
/// and buffer view lists are most of a big file's JSON (1.9 of the Knight's 2.0 MB), and only a
/// few entries are ever needed here, so only those are handed to nlohmann. Nesting is capped so
/// no recursive parser downstream (Assimp's rapidjson) can run out of stack.
class Scanner {
public:
    explicit Scanner(std::string_view text) : s_(text) {}

    size_t at() const { return i_; }
    const std::string& error() const { return error_; }
    /// The error is a key written twice in one object (GLTF_DUPLICATE_KEY), not bad syntax.
    bool duplicate_key() const { return duplicate_; }

    void skip_space() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    bool consume(char c) {
        skip_space();
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    bool peek(char c) {
        skip_space();
        return i_ < s_.size() && s_[i_] == c;
    }

    /// A string's raw contents (escapes left as written); the cursor moves past it.
    bool string(std::string_view& out) {
        if (!consume('"')) return fail("expected a string");
        size_t begin = i_;
        // memchr to each quote, then count the backslashes before it: an odd run escapes it.
        while (i_ < s_.size()) {
            const void* q = std::memchr(s_.data() + i_, '"', s_.size() - i_);
            if (!q) break;
            size_t quote = size_t(static_cast<const char*>(q) - s_.data());
            size_t backslashes = 0;
            while (quote - backslashes > begin && s_[quote - backslashes - 1] == '\\') ++backslashes;
            i_ = quote + 1;
            if (backslashes % 2 == 0) {
                out = s_.substr(begin, quote - begin);
                return true;
            }
        }
        i_ = s_.size();
        return fail("unterminated string");
    }

    /// The text of the next value, whatever it is.
    bool value(std::string_view& out, int depth) {
        skip_space();
        size_t begin = i_;
        if (!skip_value(depth)) return false;
        out = s_.substr(begin, i_ - begin);
        return true;
    }

    /// The keys one object has had so far: a short list for the usual small object (a node, an
    /// accessor), a hash set once it grows long.
    struct Keys {
        std::vector<std::string> few;
        std::unordered_set<std::string> many;
    };

    /// Records `key` (raw text between the quotes) in `seen`; false, with the error set, when the
    /// object already had it. Escaped keys are compared decoded ("\u0061" is "a" to every reader).
    bool distinct_key(std::string_view key, Keys& seen) {
        std::string name(key);
        if (key.find('\\') != std::string_view::npos) {
            try {
                name = nlohmann::json::parse("\"" + name + "\"").get<std::string>();
            } catch (const nlohmann::json::exception&) {
                return fail("a key with a bad escape");
            }
        }
        if (seen.many.empty() && seen.few.size() < 32) {
            for (const std::string& k : seen.few)
                if (k == name) return duplicate(name);
            seen.few.push_back(std::move(name));
            return true;
        }
        if (seen.many.empty()) seen.many.insert(seen.few.begin(), seen.few.end());
        return seen.many.insert(std::move(name)).second || duplicate(std::string(key));
    }

    // ---- plain reading -------------------------------------------------------------------
    // The usual shape of an accessor, a buffer view and the animations, read straight into their
    // records in the same pass that finds the members' extents, without building a JSON value or
    // allocating per object. Each returns false at the first thing outside that shape (an escape, a
    // key written twice, a value of another kind, extensions, extras), leaving the error unset: the
    // caller rewinds and reads the element the general way, which names what is wrong.

    /// An accessor at the cursor; false (cursor undefined) when it is not plain.
    bool plain_accessor(ScannedAccessor& out) {
        out = {};
        uint32_t seen = 0;
        const bool ok = plain_object([&](std::string_view key) {
            if (key == "bufferView") return plain_member(seen, 0) && plain_uint(out.buffer_view);
            if (key == "byteOffset") return plain_member(seen, 1) && plain_uint(out.byte_offset);
            if (key == "componentType") return plain_member(seen, 2) && plain_uint(out.component_type);
            if (key == "count") return plain_member(seen, 3) && plain_uint(out.count);
            if (key == "type") return plain_member(seen, 4) && (out.has_type = plain_string(out.type));
            if (key == "normalized") return plain_member(seen, 5) && plain_bool(out.normalized);
            if (key == "name") return plain_member(seen, 6) && plain_string();
            if (key == "min") return plain_member(seen, 7) && plain_numbers();
            if (key == "max") return plain_member(seen, 8) && plain_numbers();
            return false;
        });
        out.plain = ok;
        return ok;
    }

    /// A buffer view at the cursor; false when it is not plain.
    bool plain_view(ScannedView& out) {
        out = {};
        uint32_t seen = 0;
        const bool ok = plain_object([&](std::string_view key) {
            if (key == "buffer") return plain_member(seen, 0) && plain_uint(out.buffer);
            if (key == "byteOffset") return plain_member(seen, 1) && plain_uint(out.byte_offset);
            if (key == "byteLength") return plain_member(seen, 2) && plain_uint(out.byte_length);
            if (key == "byteStride") return plain_member(seen, 3) && plain_uint(out.byte_stride);
            int64_t ignored = 0;
            if (key == "target") return plain_member(seen, 4) && plain_uint(ignored);
            if (key == "name") return plain_member(seen, 5) && plain_string();
            return false;
        });
        out.plain = ok;
        return ok;
    }

    /// The animations array at the cursor; false when any part of it is not plain.
    bool plain_animations(std::vector<GltfAnimation>& out) {
        return plain_array([&] {
            GltfAnimation& a = out.emplace_back();
            uint32_t seen = 0;
            return plain_object([&](std::string_view key) {
                if (key == "name") {
                    std::string_view name;
                    if (!plain_member(seen, 0) || !plain_string(name)) return false;
                    a.name.assign(name);
                    return true;
                }
                if (key == "channels") return plain_member(seen, 1) && plain_array([&] { return plain_channel(a.channels.emplace_back()); });
                if (key == "samplers") return plain_member(seen, 2) && plain_array([&] { return plain_sampler(a.samplers.emplace_back()); });
                return false;
            });
        });
    }

    /// Moves the cursor (to rewind after a plain read that failed).
    void seek(size_t at) { i_ = at; }

private:
    std::string_view s_;
    size_t i_ = 0;
    std::string error_;
    bool duplicate_ = false;

    /// Marks known member `bit` seen; false when it was already (a key written twice).
    static bool plain_member(uint32_t& seen, int bit) {
        if (seen & (1u << bit)) return false;
        seen |= 1u << bit;
        return true;
    }

    bool plain_channel(GltfAnimation::Channel& c) {
        uint32_t seen = 0;
        return plain_object([&](std::string_view k) {
            if (k == "sampler") return plain_member(seen, 0) && plain_index(c.sampler);
            if (k == "target") {
                uint32_t target_seen = 0;
                return plain_member(seen, 1) && plain_object([&](std::string_view tk) {
                           if (tk == "node") return plain_member(target_seen, 0) && plain_index(c.node);
                           if (tk != "path" || !plain_member(target_seen, 1)) return false;
                           std::string_view path;
                           if (!plain_string(path)) return false;
                           using Path = GltfAnimation::Path;
                           c.path = path == "translation" ? Path::translation
                                    : path == "rotation"  ? Path::rotation
                                    : path == "scale"     ? Path::scale
                                    : path == "weights"   ? Path::weights
                                                          : Path::other;
                           return true;
                       });
            }
            return false;
        });
    }

    bool plain_sampler(GltfAnimation::Sampler& s) {
        uint32_t seen = 0;
        return plain_object([&](std::string_view k) {
            if (k == "input") return plain_member(seen, 0) && plain_index(s.input);
            if (k == "output") return plain_member(seen, 1) && plain_index(s.output);
            if (k != "interpolation" || !plain_member(seen, 2)) return false;
            std::string_view interpolation;
            if (!plain_string(interpolation)) return false;
            s.cubic = interpolation == "CUBICSPLINE";
            return true;
        });
    }

    /// `{ "key": value, ... }` with `member(key)` reading each value; keys with escapes are not plain.
    template <typename F>
    bool plain_object(F member) {
        if (!consume('{')) return false;
        if (consume('}')) return true;
        do {
            std::string_view key;
            skip_space();
            if (!plain_string(key) || !consume(':')) return false;
            skip_space();
            if (!member(key)) return false;
        } while (consume(','));
        return consume('}');
    }

    template <typename F>
    bool plain_array(F each) {
        if (!consume('[')) return false;
        if (consume(']')) return true;
        do {
            skip_space();
            if (!each()) return false;
        } while (consume(','));
        return consume(']');
    }

    /// A string of printable ASCII without escapes (its raw text is then its value).
    bool plain_string(std::string_view& out) {
        if (i_ >= s_.size() || s_[i_] != '"') return false;
        const size_t begin = ++i_;
        for (; i_ < s_.size() && s_[i_] != '"'; ++i_) {
            const unsigned char c = static_cast<unsigned char>(s_[i_]);
            if (c == '\\' || c < 0x20 || c >= 0x80) return false;
        }
        if (i_ >= s_.size()) return false;
        out = s_.substr(begin, i_ - begin);
        ++i_;
        return true;
    }
    bool plain_string() {
        std::string_view ignored;
        return plain_string(ignored);
    }

    bool plain_bool(bool& out) {
        if (s_.substr(i_, 4) == "true") {
            i_ += 4;
            out = true;
            return true;
        }
        if (s_.substr(i_, 5) == "false") {
            i_ += 5;
            out = false;
            return true;
        }
        return false;
    }

    bool digit() const { return i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9'; }

    /// An unsigned integer of at most 18 digits, no leading zero, not followed by a fraction or an
    /// exponent (nlohmann reads those as floating point, which no index or count is).
    bool plain_uint(int64_t& out) {
        const size_t begin = i_;
        int64_t v = 0;
        while (digit() && i_ - begin < 19) v = v * 10 + (s_[i_++] - '0');
        const size_t n = i_ - begin;
        if (n == 0 || n > 18 || (s_[begin] == '0' && n > 1)) return false;
        if (i_ < s_.size() && (s_[i_] == '.' || s_[i_] == 'e' || s_[i_] == 'E' || digit())) return false;
        out = v;
        return true;
    }

    /// An index below INT32_MAX.
    bool plain_index(int& out) {
        int64_t v = 0;
        if (!plain_uint(v) || v >= INT32_MAX) return false;
        out = int(v);
        return true;
    }

    /// A number as RFC 8259 writes one.
    bool plain_number() {
        if (i_ < s_.size() && s_[i_] == '-') ++i_;
        if (i_ < s_.size() && s_[i_] == '0') {
            ++i_;
        } else {
            if (!digit()) return false;
            while (digit()) ++i_;
        }
        if (i_ < s_.size() && s_[i_] == '.') {
            ++i_;
            if (!digit()) return false;
            while (digit()) ++i_;
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            ++i_;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
            if (!digit()) return false;
            while (digit()) ++i_;
        }
        return true;
    }

    /// An array of numbers (an accessor's min or max, which nothing here reads).
    bool plain_numbers() {
        return plain_array([&] { return plain_number(); });
    }

    bool duplicate(const std::string& key) {
        if (error_.empty()) {
            error_ = "the key \"" + key + "\" is written twice in one object (before byte " + std::to_string(i_) +
                     "); readers disagree on which copy counts, so keep one";
            duplicate_ = true;
        }
        return false;
    }

    bool fail(const char* what) {
        if (error_.empty()) error_ = std::string(what) + " at byte " + std::to_string(i_);
        return false;
    }

    bool skip_value(int depth) {
        skip_space();
        if (i_ >= s_.size()) return fail("unexpected end");
        char c = s_[i_];
        if (c == '"') {
            std::string_view ignored;
            return string(ignored);
        }
        if (c == '{' || c == '[') {
            if (depth >= kMaxJsonDepth) return fail("nesting deeper than 64 levels, which no model needs,");
            const char close = c == '{' ? '}' : ']';
            ++i_;
            if (consume(close)) return true;
            Keys keys;
            do {
                if (c == '{') {
                    std::string_view key;
                    if (!string(key) || !consume(':')) return fail("expected a key and ':'");
                    if (!distinct_key(key, keys)) return false;
                }
                if (!skip_value(depth + 1)) return false;
            } while (consume(','));
            return consume(close) || fail("expected ',' or a closing bracket");
        }
        // A number, true, false or null: up to the next delimiter (nlohmann or Assimp checks the
        // spelling of the ones they read).
        size_t begin = i_;
        while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' && s_[i_] != ' ' &&
               s_[i_] != '\n' && s_[i_] != '\r' && s_[i_] != '\t' && s_[i_] != '"')
            ++i_;
        return i_ > begin || fail("expected a value");
    }
};

/// A buffer object whose "uri" is a data URI kept as a view (GltfDocument::data_uris); false when
/// the object is not that simple (an escaped key or URI, a non-ASCII byte), so the caller parses
/// it whole and nothing is lost.
bool parse_buffer_with_data_uri(std::string_view text, nlohmann::json& out, std::string_view& data_uri) {
    Scanner scan(text);
    if (!scan.consume('{')) return false;
    nlohmann::json object = nlohmann::json::object();
    std::string_view uri;
    if (!scan.consume('}')) {
        do {
            std::string_view key, value;
            if (!scan.string(key) || !scan.consume(':')) return false;
            for (char c : key)
                if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e || c == '\\') return false;
            if (!scan.value(value, 3)) return false;
            if (key == "uri") {
                // Anything but a plain data URI (or a second "uri") goes the general way.
                if (!uri.empty() || value.size() < 7 || value.substr(0, 6) != "\"data:") return false;
                const std::string_view contents = value.substr(1, value.size() - 2);
                // Printable ASCII only: then the raw text is the string's value (no escapes, nothing
                // a JSON parser would refuse), as nlohmann would have read it.
                for (char c : contents)
                    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e || c == '\\')
                        return false;
                const size_t comma = contents.find(',');
                if (comma == std::string_view::npos) return false;
                uri = contents;
                object[std::string(key)] = std::string(contents.substr(0, comma + 1));
                continue;
            }
            try {
                object[std::string(key)] = nlohmann::json::parse(value.begin(), value.end());
            } catch (const nlohmann::json::exception&) {
                return false;
            }
        } while (scan.consume(','));
        if (!scan.consume('}')) return false;
    }
    scan.skip_space();
    if (scan.at() != text.size() || uri.empty()) return false;
    out = std::move(object);
    data_uri = uri;
    return true;
}

}  // namespace

bool split_glb(std::span<const uint8_t> bytes, std::string_view& json_text, std::span<const uint8_t>& bin,
               Reporter& report) {
    if (bytes.size() < 12) {
        report.add(kGlbTruncated, "GLB header needs 12 bytes, the file has " + std::to_string(bytes.size()));
        return false;
    }
    uint32_t version = read_u32(bytes, 4), length = read_u32(bytes, 8);
    if (read_u32(bytes, 0) != kGlbMagic || version != 2) {
        report.add(kGlbMalformed, "GLB version " + std::to_string(version) + " (only version 2 is read)");
        return false;
    }
    if (length > bytes.size()) {
        report.add(kGlbTruncated, "GLB header declares " + std::to_string(length) + " bytes but the file has " +
                                        std::to_string(bytes.size()) + "; the file was cut short");
        return false;
    }
    if (length < bytes.size())
        report.add(kGlbTrailingBytes, "GLB header declares " + std::to_string(length) + " bytes, the file has " +
                                             std::to_string(bytes.size()) + "; the rest is ignored");
    bytes = bytes.first(length);
    if (length < 20) {
        report.add(kGlbTruncated, "GLB ends before its JSON chunk header");
        return false;
    }
    uint64_t json_length = read_u32(bytes, 12);
    if (read_u32(bytes, 16) != kChunkJson) {
        report.add(kGlbMalformed, "the GLB's first chunk is not JSON");
        return false;
    }
    if (20 + json_length > length) {
        report.add(kGlbTruncated, "the GLB's JSON chunk declares " + std::to_string(json_length) +
                                        " bytes but only " + std::to_string(length - 20) + " follow");
        return false;
    }
    json_text = std::string_view(reinterpret_cast<const char*>(bytes.data()) + 20, size_t(json_length));
    bin = {};
    // Later chunks: the first BIN is the buffer; unknown chunk types are skipped (glTF 2.0 specification 4.4.3).
    uint64_t at = 20 + json_length;
    while (at < length) {
        if (at + 8 > length) {
            report.add(kGlbTruncated, "the GLB ends inside a chunk header at byte " + std::to_string(at));
            return false;
        }
        uint64_t chunk_length = read_u32(bytes, size_t(at));
        uint32_t type = read_u32(bytes, size_t(at + 4));
        if (at + 8 + chunk_length > length) {
            report.add(kGlbTruncated, "a GLB chunk at byte " + std::to_string(at) + " declares " +
                                            std::to_string(chunk_length) + " bytes but only " +
                                            std::to_string(length - at - 8) + " follow");
            return false;
        }
        if (type == kChunkBin && bin.empty()) bin = bytes.subspan(size_t(at + 8), size_t(chunk_length));
        at += 8 + chunk_length;
    }
    return true;
}

namespace {

/// "buffers" with each data URI kept as a view into the text; false (doc untouched) when the
/// member is not an array of values, so the caller parses it as any other member and reports.
bool parse_buffers(std::string_view text, GltfDocument& doc) {
    Scanner scan(text);
    std::vector<std::string_view> items;
    if (!scan.consume('[')) return false;
    if (!scan.consume(']')) {
        do {
            std::string_view item;
            if (!scan.value(item, 2)) return false;
            items.push_back(item);
        } while (scan.consume(','));
        if (!scan.consume(']')) return false;
    }
    nlohmann::json buffers = nlohmann::json::array();
    std::vector<std::string_view> data_uris(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        nlohmann::json buffer;
        if (!parse_buffer_with_data_uri(items[i], buffer, data_uris[i])) {
            try {
                buffer = nlohmann::json::parse(items[i].begin(), items[i].end());
            } catch (const nlohmann::json::exception&) {
                return false;
            }
        }
        buffers.push_back(std::move(buffer));
    }
    doc.json["buffers"] = std::move(buffers);
    doc.data_uris = std::move(data_uris);
    return true;
}

}  // namespace

bool parse_gltf_json(std::string_view text, GltfDocument& doc, Reporter& report) {
    auto invalid = [&](const std::string& why) {
        report.add(kGltfJsonInvalid, "the glTF JSON does not parse: " + why);
        return false;
    };
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    Scanner scan(text);
    doc.json = nlohmann::json::object();
    doc.accessors.clear();
    doc.buffer_views.clear();
    doc.scanned_accessors.clear();
    doc.scanned_views.clear();
    doc.animations.clear();
    doc.scanned_animations = false;
    doc.data_uris.clear();
    auto scan_failed = [&] {
        if (scan.duplicate_key()) {
            report.add(kGltfDuplicateKey, scan.error());
            return false;
        }
        return invalid(scan.error());
    };
    if (!scan.consume('{')) return invalid("the document is not a JSON object");
    Scanner::Keys top_keys;
    if (!scan.consume('}')) {
        do {
            std::string_view key, value;
            if (!scan.string(key) || !scan.consume(':')) return invalid(scan.error().empty() ? "expected a key" : scan.error());
            if (!scan.distinct_key(key, top_keys)) return scan_failed();
            if (key == "accessors" || key == "bufferViews") {
                const bool accessors = key == "accessors";
                std::vector<std::string_view>& list = accessors ? doc.accessors : doc.buffer_views;
                list.clear();
                if (accessors) doc.scanned_accessors.clear(); else doc.scanned_views.clear();
                if (!scan.consume('[')) return invalid(std::string(key) + " is not an array");
                if (!scan.consume(']')) {
                    do {
                        // Read plain in one go; else rewound and only its extent found (and its
                        // syntax, keys and depth checked), its text parsed when it is read.
                        scan.skip_space();
                        const size_t begin = scan.at();
                        const bool plain = accessors ? scan.plain_accessor(doc.scanned_accessors.emplace_back())
                                                     : scan.plain_view(doc.scanned_views.emplace_back());
                        if (plain) {
                            list.push_back(text.substr(begin, scan.at() - begin));
                            continue;
                        }
                        scan.seek(begin);
                        if (!scan.value(value, 2)) return scan_failed();
                        list.push_back(value);
                    } while (scan.consume(','));
                    if (!scan.consume(']')) return invalid("expected ',' or ']' at byte " + std::to_string(scan.at()));
                }
                continue;
            }
            if (key == "animations" && doc.keep_animations && doc.animations_as_text) {
                scan.skip_space();
                const size_t begin = scan.at();
                doc.animations.clear();
                if (scan.plain_animations(doc.animations)) {
                    doc.scanned_animations = true;
                    continue;
                }
                doc.animations.clear();
                scan.seek(begin);
                if (!scan.value(value, 1)) return scan_failed();
                doc.animations_text = value;
                continue;
            }
            if (!scan.value(value, 1)) return scan_failed();
            // Assimp reads the animations; nothing here needs them.
            if (key == "animations" && !doc.keep_animations) continue;
            if (key == "buffers" && parse_buffers(value, doc)) continue;
            try {
                doc.json[std::string(key)] = nlohmann::json::parse(value.begin(), value.end());
            } catch (const nlohmann::json::exception& e) {
                return invalid("member \"" + std::string(key) + "\": " + e.what());
            }
        } while (scan.consume(','));
        if (!scan.consume('}')) return invalid("expected ',' or '}' at byte " + std::to_string(scan.at()));
    }
    // GLB pads its JSON chunk with spaces; some writers pad with NULs.
    if (text.find_first_not_of(std::string_view(" \t\r\n\0", 5), scan.at()) != std::string_view::npos)
        return invalid("text after the closing '}' at byte " + std::to_string(scan.at()));
    return true;
}

}  // namespace weft::import_detail
