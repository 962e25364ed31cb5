// A structural check of a glTF document before Assimp reads it. Assimp 5.2.5's glTF reader
// drops out-of-range triangles and joint weights without a word, dereferences a skin's missing
// inverse bind matrices, and follows node references recursively, so a hostile file could make
// it crash or loop; what is checked here is checked against the bytes actually present.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>
#include <string>
#include <utility>
#include <cerrno>
#include <unistd.h>

#include "scene/confine.h"

#include "scene/import_detail.h"

namespace weft::import_detail {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr int kMaxNodeDepth = 1024;             // Assimp's node import recurses once per level
// An accessor with no buffer view is zeros (a sparse base): no bytes back its count, so these caps
// bound what any reader allocates for it (4 Mi elements, 16 MiB; a morph target of 100k vertices
// needs 1.2 MB).
constexpr uint64_t kMaxZeroAccessorCount = uint64_t(1) << 22;
constexpr uint64_t kMaxZeroAccessorBytes = uint64_t(1) << 24;

// ---- JSON access that never throws -------------------------------------------------------

const json& array_or_empty(const json& object, const char* key) {
    static const json empty = json::array();
    const json* m = member(object, key);
    return m && m->is_array() ? *m : empty;
}

/// An optional non-negative integer member: nullopt when absent, -1 when present but not a
/// non-negative integer.
std::optional<int64_t> optional_uint(const json& object, const char* key) {
    const json* m = member(object, key);
    if (!m) return std::nullopt;
    if (m->is_number_unsigned()) {
        uint64_t v = m->get<uint64_t>();
        return v > uint64_t(INT64_MAX) ? -1 : int64_t(v);
    }
    if (m->is_number_integer() && m->get<int64_t>() >= 0) return m->get<int64_t>();
    return -1;
}

std::string name_of(const json& object, size_t index, const char* kind) {
    const json* n = member(object, "name");
    if (n && n->is_string() && !n->get_ref<const std::string&>().empty())
        return std::string(kind) + " '" + n->get<std::string>() + "'";
    return std::string(kind) + " " + std::to_string(index);
}

// ---- buffers, views, accessors -----------------------------------------------------------

struct Buffer {
    uint64_t byte_length = 0;
    enum class Kind { glb_bin, data_uri, external } kind = Kind::external;
    std::string uri;            ///< external: the decoded relative path
    std::string_view data_uri;  ///< data URI: its text (in the document's JSON text or its json)
    fs::path path;              ///< external: resolved file
    bool loaded = false;
    bool load_failed = false;
    std::vector<uint8_t> bytes; ///< data URI contents once loaded; an external file's first bytes, as far as used
};

enum class State { unchecked, ok, bad };

struct View {
    State state = State::unchecked;
    int buffer = -1;
    uint64_t offset = 0;
    uint64_t length = 0;
    uint64_t stride = 0;   ///< 0 when tightly packed
    bool loaded = false;   ///< external buffer: `bytes` read
    std::vector<uint8_t> bytes;  ///< external buffer: this view's bytes, once read
};

struct Accessor {
    int view = -1;          ///< -1: all zeros (or sparse only)
    uint64_t offset = 0;
    uint32_t component_type = 0;
    uint32_t components = 0;
    uint64_t count = 0;
    uint64_t element_size = 0;
    bool normalized = false;
    bool sparse = false;
    uint64_t sparse_count = 0;        ///< substitutions
    int sparse_index_view = -1;       ///< their indices' view, offset and component type
    uint64_t sparse_index_offset = 0;
    uint32_t sparse_index_type = 0;
    int sparse_value_view = -1;       ///< their values' view and offset
    uint64_t sparse_value_offset = 0;
    State state = State::unchecked;  ///< only accessors that passed the bounds checks are read
};

uint32_t component_size(uint32_t type) {
    switch (type) {
        case 5120: case 5121: return 1;
        case 5122: case 5123: return 2;
        case 5125: case 5126: return 4;
        default: return 0;
    }
}

uint32_t component_count(const std::string& type) {
    if (type == "SCALAR") return 1;
    if (type == "VEC2") return 2;
    if (type == "VEC3") return 3;
    if (type == "VEC4" || type == "MAT2") return 4;
    if (type == "MAT3") return 9;
    if (type == "MAT4") return 16;
    return 0;
}

/// Bytes per element, with the column padding glTF requires for small-component matrices.
uint64_t element_bytes(const std::string& type, uint32_t csize, uint32_t components) {
    if (type == "MAT2" && csize == 1) return 8;
    if (type == "MAT3" && csize == 1) return 12;
    if (type == "MAT3" && csize == 2) return 24;
    return uint64_t(csize) * components;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// Each character's 6-bit value (standard and URL-safe alphabets), 255 for anything else.
struct Base64Table {
    uint8_t value[256];
    constexpr Base64Table() : value{} {
        for (int c = 0; c < 256; ++c) value[c] = 255;
        for (int c = 'A'; c <= 'Z'; ++c) value[c] = uint8_t(c - 'A');
        for (int c = 'a'; c <= 'z'; ++c) value[c] = uint8_t(c - 'a' + 26);
        for (int c = '0'; c <= '9'; ++c) value[c] = uint8_t(c - '0' + 52);
        value['+'] = value['-'] = 62;
        value['/'] = value['_'] = 63;
    }
};
constexpr Base64Table kBase64;

/// Decodes up to the first '='. Four characters at a time into a buffer sized once: a .gltf's
/// data URI is megabytes, and this runs on every import of one.
bool base64_decode(std::string_view text, std::vector<uint8_t>& out) {
    const size_t end = std::min(text.size(), text.find('='));
    out.resize(end / 4 * 3 + 3);
    const auto* in = reinterpret_cast<const unsigned char*>(text.data());
    uint8_t* o = out.data();
    size_t i = 0;
    for (; i + 4 <= end; i += 4) {
        const uint32_t a = kBase64.value[in[i]], b = kBase64.value[in[i + 1]], c = kBase64.value[in[i + 2]],
                       d = kBase64.value[in[i + 3]];
        if ((a | b | c | d) > 63) return false;
        const uint32_t v = a << 18 | b << 12 | c << 6 | d;
        *o++ = uint8_t(v >> 16);
        *o++ = uint8_t(v >> 8);
        *o++ = uint8_t(v);
    }
    // The last 2 or 3 characters carry 1 or 2 bytes; a single one carries none.
    uint32_t acc = 0;
    int bits = 0;
    for (; i < end; ++i) {
        const uint32_t v = kBase64.value[in[i]];
        if (v > 63) return false;
        acc = (acc << 6) | v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = uint8_t(acc >> bits);
        }
    }
    out.resize(size_t(o - out.data()));
    return true;
}

/// Decoded size of a data URI's payload without decoding it: base64 is 3 bytes per 4 chars.
uint64_t data_uri_size(std::string_view uri) {
    size_t comma = uri.find(',');
    if (comma == std::string_view::npos) return 0;
    std::string_view header = uri.substr(0, comma), payload = uri.substr(comma + 1);
    if (header.size() >= 7 && header.substr(header.size() - 7) == ";base64") {
        size_t n = payload.size();
        while (n > 0 && payload[n - 1] == '=') --n;
        return uint64_t(n) * 3 / 4;
    }
    return percent_decode(payload).size();
}

}  // namespace

std::string percent_decode(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
            out.push_back(char(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
            i += 2;
        } else {
            out.push_back(s[i]);
        }
    }
    return out;
}

namespace {

class Checker {
public:
    Checker(const GltfDocument& doc, Reporter& report) : doc_(doc), report_(report) {}

    bool run() {
        const json& root = doc_.json;
        if (!root.is_object()) {
            report_.add("GLTF_JSON_INVALID", "the glTF JSON is not an object");
            return false;
        }
        views_.resize(doc_.buffer_views.size());
        accessors_.resize(doc_.accessors.size());
        check_buffers();
        check_nodes();
        check_skins();
        check_meshes();
        check_scenes();
        if (report_.failed()) return false;  // nothing below may read an accessor that failed
        check_index_values();
        check_joint_values();
        return !report_.failed();
    }

private:
    const GltfDocument& doc_;
    Reporter& report_;
    std::vector<Buffer> buffers_;
    std::vector<View> views_;
    std::vector<Accessor> accessors_;
    std::vector<int> parent_;

    void bad(const std::string& message, const std::string& pointer) {
        report_.add("GLTF_REFERENCE_INVALID", message, pointer);
    }

    /// Validates `object[key]` as an index into an array of `size`; reports and returns false
    /// when present and invalid. `out` is -1 when absent.
    bool index_member(const json& object, const char* key, size_t size, const std::string& where,
                      const std::string& pointer, int& out) {
        out = -1;
        std::optional<int64_t> v = optional_uint(object, key);
        if (!v) return true;
        if (*v < 0 || uint64_t(*v) >= size) {
            bad(where + ": '" + key + "' is not an index below " + std::to_string(size), pointer + "/" + key);
            return false;
        }
        out = int(*v);
        return true;
    }

    void check_buffers() {
        const json& list = array_or_empty(doc_.json, "buffers");
        buffers_.resize(list.size());
        for (size_t i = 0; i < list.size(); ++i) {
            const json& b = list[i];
            std::string ptr = "/buffers/" + std::to_string(i);
            Buffer& out = buffers_[i];
            std::optional<int64_t> len = optional_uint(b, "byteLength");
            if (!len || *len < 0) {
                bad("buffer " + std::to_string(i) + " has no valid byteLength", ptr);
                continue;
            }
            out.byte_length = uint64_t(*len);
            const json* uri = member(b, "uri");
            if (!uri) {
                if (!(doc_.glb && i == 0)) {
                    bad("buffer " + std::to_string(i) + " has no uri (only a GLB's first buffer may omit it)", ptr);
                    continue;
                }
                out.kind = Buffer::Kind::glb_bin;
                if (doc_.bin.size() < out.byte_length) {
                    report_.add("GLB_TRUNCATED",
                                "the GLB's BIN chunk holds " + std::to_string(doc_.bin.size()) +
                                    " bytes but buffer 0 declares " + std::to_string(out.byte_length),
                                ptr);
                }
                continue;
            }
            if (!uri->is_string()) {
                bad("buffer " + std::to_string(i) + " uri is not a string", ptr + "/uri");
                continue;
            }
            const std::string_view text = i < doc_.data_uris.size() && !doc_.data_uris[i].empty()
                                              ? doc_.data_uris[i]
                                              : std::string_view(uri->get_ref<const std::string&>());
            if (text.rfind("data:", 0) == 0) {
                out.kind = Buffer::Kind::data_uri;
                out.data_uri = text;
                uint64_t have = data_uri_size(text);
                if (have < out.byte_length)
                    bad("buffer " + std::to_string(i) + " data URI holds " + std::to_string(have) +
                            " bytes but declares byteLength " + std::to_string(out.byte_length),
                        ptr);
                continue;
            }
            out.kind = Buffer::Kind::external;
            out.uri = percent_decode(text);
            const ReferenceCheck check = check_reference(doc_.base_dir, fs::path(out.uri), doc_.allow_outside_folder);
            out.path = check.path;
            if (check.code == "REFERENCED_FILE_MISSING") {
                report_.add("BUFFER_MISSING", "buffer " + std::to_string(i) + " file '" + out.uri + "' " + check.problem,
                            ptr + "/uri");
                continue;
            }
            if (!check.code.empty()) {
                report_.add(check.code, "buffer " + std::to_string(i) + " file '" + out.uri + "' " + check.problem,
                            ptr + "/uri");
                continue;
            }
            std::error_code ec;
            const uint64_t size = fs::file_size(out.path, ec);
            if (ec || size < out.byte_length) {
                report_.add("BUFFER_MISSING",
                            "buffer " + std::to_string(i) + " file '" + out.uri + "' has " + std::to_string(size) +
                                " bytes but byteLength declares " + std::to_string(out.byte_length),
                            ptr + "/uri");
            } else if (out.byte_length > doc_.max_buffer_bytes) {
                // Assimp reads a buffer whole, so its declared length is what it allocates.
                report_.add("BUFFER_MISSING",
                            "buffer " + std::to_string(i) + " file '" + out.uri + "' declares byteLength " +
                                std::to_string(out.byte_length) + ", more than the file limit of " +
                                std::to_string(doc_.max_buffer_bytes) + " bytes",
                            ptr + "/uri");
            }
        }
        check_images();
    }

    /// Every image a file names must be there to be read (the grown model embeds them): inside
    /// the folder, a regular file. Data URIs and URLs are left alone.
    void check_images() {
        const json& images = array_or_empty(doc_.json, "images");
        for (size_t i = 0; i < images.size(); ++i) {
            const json* uri = member(images[i], "uri");
            if (!uri || !uri->is_string()) continue;
            const std::string& u = uri->get_ref<const std::string&>();
            if (u.empty() || u.rfind("data:", 0) == 0 || u.find("://") != std::string::npos) continue;
            const std::string name = percent_decode(u);
            const ReferenceCheck check = check_reference(doc_.base_dir, fs::path(name), doc_.allow_outside_folder);
            if (check.code.empty()) continue;
            report_.add(check.code, name_of(images[i], i, "image") + " file '" + name + "' " + check.problem,
                        "/images/" + std::to_string(i) + "/uri");
        }
    }

    /// Buffer view `i`, parsed and bounds-checked on first use; nullptr (reported once) when bad.
    const View* view(int i) {
        if (i < 0 || size_t(i) >= views_.size()) return nullptr;
        View& out = views_[size_t(i)];
        if (out.state != State::unchecked) return out.state == State::ok ? &out : nullptr;
        out.state = State::bad;
        std::string ptr = "/bufferViews/" + std::to_string(i);
        std::string where = "bufferView " + std::to_string(i);
        json v;
        if (!parse_element(doc_.buffer_views[size_t(i)], v, ptr)) return nullptr;
        int buffer = -1;
        if (!index_member(v, "buffer", buffers_.size(), where, ptr, buffer)) return nullptr;
        if (buffer < 0) {
            bad(where + " names no buffer", ptr);
            return nullptr;
        }
        std::optional<int64_t> offset = optional_uint(v, "byteOffset");
        std::optional<int64_t> length = optional_uint(v, "byteLength");
        std::optional<int64_t> stride = optional_uint(v, "byteStride");
        if ((offset && *offset < 0) || !length || *length < 0 || (stride && (*stride < 4 || *stride > 252))) {
            bad(where + " has an invalid byteOffset, byteLength or byteStride", ptr);
            return nullptr;
        }
        out.offset = offset ? uint64_t(*offset) : 0;
        out.length = uint64_t(*length);
        out.stride = stride ? uint64_t(*stride) : 0;
        // Both terms are below 2^63, so the sum cannot wrap.
        if (out.offset + out.length > buffers_[size_t(buffer)].byte_length) {
            bad(where + " spans bytes " + std::to_string(out.offset) + ".." + std::to_string(out.offset + out.length) +
                    " of buffer " + std::to_string(buffer) + ", which has " +
                    std::to_string(buffers_[size_t(buffer)].byte_length),
                ptr);
            return nullptr;
        }
        out.buffer = buffer;
        out.state = State::ok;
        return &out;
    }

    /// True when `count` elements of `element` bytes at `offset` with `stride` fit in `view`.
    bool fits(const View& view, uint64_t offset, uint64_t count, uint64_t element, uint64_t stride) const {
        if (count == 0) return offset <= view.length;
        if (stride == 0) stride = element;
        if (count > (uint64_t(1) << 32) || offset > view.length) return false;
        uint64_t last = offset + (count - 1) * stride + element;  // < 2^32 * 256 + 2^63: no wrap
        return last <= view.length;
    }

    /// Accessor `i`, parsed and bounds-checked on first use; nullptr (reported once) when bad.
    /// Only accessors whose values this checker reads come through here; the rest (animation
    /// data, most of a big file's JSON) are left to Assimp, which bounds-checks every accessor
    /// and buffer view it reads ("is out of range").
    const Accessor* accessor(int i) {
        if (i < 0 || size_t(i) >= accessors_.size()) return nullptr;
        Accessor& out = accessors_[size_t(i)];
        if (out.state != State::unchecked) return out.state == State::ok ? &out : nullptr;
        out.state = State::bad;
        std::string ptr = "/accessors/" + std::to_string(i);
        std::string where = "accessor " + std::to_string(i);
        json a;
        if (!parse_element(doc_.accessors[size_t(i)], a, ptr)) return nullptr;
        std::optional<int64_t> ctype = optional_uint(a, "componentType");
        std::optional<int64_t> count = optional_uint(a, "count");
        std::optional<int64_t> offset = optional_uint(a, "byteOffset");
        const json* type = member(a, "type");
        uint32_t csize = ctype ? component_size(uint32_t(*ctype)) : 0;
        uint32_t ccount = type && type->is_string() ? component_count(type->get<std::string>()) : 0;
        if (!ctype || csize == 0 || ccount == 0 || !count || *count < 1 || (offset && *offset < 0)) {
            bad(where + " has an invalid componentType, type, count or byteOffset", ptr);
            return nullptr;
        }
        out.component_type = uint32_t(*ctype);
        out.components = ccount;
        out.count = uint64_t(*count);
        out.offset = offset ? uint64_t(*offset) : 0;
        out.element_size = element_bytes(type->get<std::string>(), csize, ccount);
        const json* norm = member(a, "normalized");
        out.normalized = norm && norm->is_boolean() && norm->get<bool>();
        if (!index_member(a, "bufferView", views_.size(), where, ptr, out.view)) return nullptr;
        if (out.view >= 0) {
            const View* v = view(out.view);
            if (!v) return nullptr;
            if (v->stride != 0 && v->stride < out.element_size) {
                bad(where + " elements of " + std::to_string(out.element_size) +
                        " bytes do not fit its view's byteStride " + std::to_string(v->stride),
                    ptr);
                return nullptr;
            }
            if (!fits(*v, out.offset, out.count, out.element_size, v->stride)) {
                bad(where + " (" + std::to_string(out.count) + " elements from byte " + std::to_string(out.offset) +
                        ") runs past the end of bufferView " + std::to_string(out.view) + " (" +
                        std::to_string(v->length) + " bytes)",
                    ptr);
                return nullptr;
            }
        } else if (out.count > kMaxZeroAccessorCount || out.count * out.element_size > kMaxZeroAccessorBytes) {
            // No bytes back it, so nothing bounds what a reader allocates for it but this cap.
            bad(where + " has no bufferView and a count of " + std::to_string(out.count) + " (at most " +
                    std::to_string(kMaxZeroAccessorCount) + " elements and " + std::to_string(kMaxZeroAccessorBytes) +
                    " bytes without bytes behind them)",
                ptr);
            return nullptr;
        }
        if (const json* sparse = member(a, "sparse")) {
            out.sparse = true;
            if (!check_sparse(*sparse, out, where, ptr + "/sparse")) return nullptr;
        }
        out.state = State::ok;
        return &out;
    }

    bool parse_element(std::string_view text, json& out, const std::string& pointer) {
        try {
            out = json::parse(text.begin(), text.end());
        } catch (const json::exception& e) {
            report_.add("GLTF_JSON_INVALID", std::string("the glTF JSON does not parse: ") + e.what(), pointer);
            return false;
        }
        if (!out.is_object()) {
            bad("not a JSON object", pointer);
            return false;
        }
        return true;
    }

    bool check_sparse(const json& sparse, Accessor& acc, const std::string& where, const std::string& ptr) {
        std::optional<int64_t> count = optional_uint(sparse, "count");
        const json* indices = member(sparse, "indices");
        const json* values = member(sparse, "values");
        if (!count || *count < 1 || uint64_t(*count) > acc.count || !indices || !values) {
            bad(where + " has an invalid sparse block", ptr);
            return false;
        }
        int iview = -1, vview = -1;
        if (!index_member(*indices, "bufferView", views_.size(), where + " sparse indices", ptr + "/indices", iview) ||
            !index_member(*values, "bufferView", views_.size(), where + " sparse values", ptr + "/values", vview))
            return false;
        std::optional<int64_t> itype = optional_uint(*indices, "componentType");
        uint32_t isize = itype ? component_size(uint32_t(*itype)) : 0;
        std::optional<int64_t> ioff = optional_uint(*indices, "byteOffset");
        std::optional<int64_t> voff = optional_uint(*values, "byteOffset");
        const View* iv = view(iview);
        const View* vv = view(vview);
        if (!iv || !vv || isize == 0 || *itype == 5126 || (ioff && *ioff < 0) || (voff && *voff < 0) ||
            !fits(*iv, ioff ? uint64_t(*ioff) : 0, uint64_t(*count), isize, 0) ||
            !fits(*vv, voff ? uint64_t(*voff) : 0, uint64_t(*count), acc.element_size, 0)) {
            bad(where + " sparse indices or values run out of their buffer views", ptr);
            return false;
        }
        acc.sparse_count = uint64_t(*count);
        acc.sparse_index_view = iview;
        acc.sparse_index_offset = ioff ? uint64_t(*ioff) : 0;
        acc.sparse_index_type = uint32_t(*itype);
        acc.sparse_value_view = vview;
        acc.sparse_value_offset = voff ? uint64_t(*voff) : 0;
        return true;
    }

    void check_nodes() {
        const json& nodes = array_or_empty(doc_.json, "nodes");
        const size_t n = nodes.size();
        parent_.assign(n, -1);
        size_t meshes = array_or_empty(doc_.json, "meshes").size();
        size_t skins = array_or_empty(doc_.json, "skins").size();
        size_t cameras = array_or_empty(doc_.json, "cameras").size();
        for (size_t i = 0; i < n; ++i) {
            const json& node = nodes[i];
            std::string ptr = "/nodes/" + std::to_string(i);
            std::string where = name_of(node, i, "node");
            int idx = -1;
            index_member(node, "mesh", meshes, where, ptr, idx);
            index_member(node, "skin", skins, where, ptr, idx);
            index_member(node, "camera", cameras, where, ptr, idx);
            const json& children = array_or_empty(node, "children");
            for (size_t c = 0; c < children.size(); ++c) {
                const json& child = children[c];
                std::string cptr = ptr + "/children/" + std::to_string(c);
                if (!child.is_number_unsigned() || child.get<uint64_t>() >= n) {
                    bad(where + " has a child that is not a node index below " + std::to_string(n), cptr);
                    continue;
                }
                size_t ci = child.get<size_t>();
                if (ci == i || parent_[ci] >= 0) {
                    // A node with two parents (or its own parent) makes the hierarchy a graph,
                    // which glTF forbids: Assimp would import the shared subtree twice and the
                    // node map (convert_scene) needs a tree.
                    bad(where + " lists node " + std::to_string(ci) + " as a child, but it already has a parent",
                        cptr);
                    continue;
                }
                parent_[ci] = int(i);
            }
        }
        if (report_.failed()) return;
        // With one parent each, a cycle is a chain that never reaches a root; depth bounds both.
        for (size_t i = 0; i < n; ++i) {
            int depth = 0;
            for (int p = parent_[i]; p >= 0; p = parent_[p]) {
                if (++depth > kMaxNodeDepth) {
                    bad(name_of(nodes[i], i, "node") + " is in a cycle or deeper than " +
                            std::to_string(kMaxNodeDepth) + " levels",
                        "/nodes/" + std::to_string(i));
                    return;
                }
            }
        }
    }

    void check_skins() {
        const json& skins = array_or_empty(doc_.json, "skins");
        size_t nodes = array_or_empty(doc_.json, "nodes").size();
        for (size_t i = 0; i < skins.size(); ++i) {
            const json& skin = skins[i];
            std::string ptr = "/skins/" + std::to_string(i);
            std::string where = name_of(skin, i, "skin");
            const json& joints = array_or_empty(skin, "joints");
            if (joints.empty()) bad(where + " has no joints", ptr + "/joints");
            for (size_t j = 0; j < joints.size(); ++j)
                if (!joints[j].is_number_unsigned() || joints[j].get<uint64_t>() >= nodes)
                    bad(where + " joint " + std::to_string(j) + " is not a node index below " + std::to_string(nodes),
                        ptr + "/joints/" + std::to_string(j));
            int ibm = -1;
            if (!index_member(skin, "inverseBindMatrices", accessors_.size(), where, ptr, ibm)) continue;
            if (ibm < 0) {
                // Valid glTF (identity matrices), but Assimp 5.2.5 dereferences the missing
                // accessor; refuse rather than crash.
                report_.add("IMPORT_FAILED",
                            where + " has no inverseBindMatrices, which Assimp 5.2.5 cannot read; "
                                    "re-export the model with inverse bind matrices",
                            ptr);
                continue;
            }
            const Accessor* a = accessor(ibm);
            if (!a) continue;
            if (a->component_type != 5126 || a->components != 16 || a->count < joints.size())
                bad(where + " inverseBindMatrices accessor " + std::to_string(ibm) + " is not " +
                        std::to_string(joints.size()) + " float MAT4s",
                    ptr + "/inverseBindMatrices");
            int skeleton = -1;
            index_member(skin, "skeleton", nodes, where, ptr, skeleton);
        }
    }

    void check_meshes() {
        const json& meshes = array_or_empty(doc_.json, "meshes");
        size_t materials = array_or_empty(doc_.json, "materials").size();
        for (size_t m = 0; m < meshes.size(); ++m) {
            const json& mesh = meshes[m];
            std::string where = name_of(mesh, m, "mesh");
            std::string mptr = "/meshes/" + std::to_string(m);
            const json& prims = array_or_empty(mesh, "primitives");
            if (prims.empty()) bad(where + " has no primitives", mptr + "/primitives");
            for (size_t p = 0; p < prims.size(); ++p) {
                const json& prim = prims[p];
                std::string pw = where + " primitive " + std::to_string(p);
                std::string ptr = mptr + "/primitives/" + std::to_string(p);
                const json* attrs = member(prim, "attributes");
                if (!attrs || !attrs->is_object()) {
                    bad(pw + " has no attributes", ptr);
                    continue;
                }
                for (auto it = attrs->begin(); it != attrs->end(); ++it) {
                    if (!it.value().is_number_unsigned() || it.value().get<uint64_t>() >= accessors_.size())
                        bad(pw + " attribute " + it.key() + " is not an accessor index", ptr + "/attributes/" + it.key());
                }
                int pos = -1;
                if (!index_member(*attrs, "POSITION", accessors_.size(), pw, ptr + "/attributes", pos)) continue;
                if (pos >= 0) {
                    const Accessor* a = accessor(pos);
                    if (a && (a->component_type != 5126 || a->components != 3))
                        bad(pw + " POSITION is not float VEC3", ptr + "/attributes/POSITION");
                }
                int indices = -1;
                if (index_member(prim, "indices", accessors_.size(), pw, ptr, indices) && indices >= 0) {
                    const Accessor* a = accessor(indices);
                    if (a && (a->components != 1 || (a->component_type != 5121 && a->component_type != 5123 &&
                                                      a->component_type != 5125)))
                        bad(pw + " indices accessor " + std::to_string(indices) + " is not unsigned scalars",
                            ptr + "/indices");
                }
                int material = -1;
                index_member(prim, "material", materials, pw, ptr, material);
                std::optional<int64_t> mode = optional_uint(prim, "mode");
                if (mode && (*mode < 0 || *mode > 6)) bad(pw + " has an invalid mode", ptr + "/mode");
                const json& targets = array_or_empty(prim, "targets");
                for (size_t t = 0; t < targets.size(); ++t) {
                    if (!targets[t].is_object()) continue;
                    for (auto it = targets[t].begin(); it != targets[t].end(); ++it)
                        if (!it.value().is_number_unsigned() || it.value().get<uint64_t>() >= accessors_.size())
                            bad(pw + " morph target " + std::to_string(t) + " " + it.key() + " is not an accessor index",
                                ptr + "/targets/" + std::to_string(t));
                }
            }
        }
    }

    void check_scenes() {
        const json& scenes = array_or_empty(doc_.json, "scenes");
        size_t nodes = array_or_empty(doc_.json, "nodes").size();
        int scene = -1;
        index_member(doc_.json, "scene", scenes.size(), "the document", "", scene);
        for (size_t s = 0; s < scenes.size(); ++s) {
            const json& roots = array_or_empty(scenes[s], "nodes");
            for (size_t r = 0; r < roots.size(); ++r) {
                std::string ptr = "/scenes/" + std::to_string(s) + "/nodes/" + std::to_string(r);
                if (!roots[r].is_number_unsigned() || roots[r].get<uint64_t>() >= nodes) {
                    bad("scene " + std::to_string(s) + " names a root that is not a node index", ptr);
                } else if (parent_[roots[r].get<size_t>()] >= 0) {
                    bad("scene " + std::to_string(s) + " names node " + std::to_string(roots[r].get<size_t>()) +
                            " as a root, but it has a parent",
                        ptr);
                }
            }
        }
    }

    // ---- values --------------------------------------------------------------------------

    /// Bytes [offset, offset + length) of a regular file, read without blocking; false when short.
    static bool read_range(const fs::path& path, uint64_t offset, uint64_t length, std::vector<uint8_t>& out) {
        std::string problem;
        const int fd = open_regular_file(path, problem);
        if (fd < 0) return false;
        out.resize(size_t(length));
        size_t done = 0;
        while (done < length) {
            const ssize_t n = ::pread(fd, out.data() + done, size_t(length - done), off_t(offset + done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            done += size_t(n);
        }
        ::close(fd);
        return done == length;
    }

    /// The bytes of a GLB's BIN chunk or a data URI (decoded whole on first use); external files
    /// are read per view (accessor_data).
    std::span<const uint8_t> buffer_bytes(int index) {
        Buffer& b = buffers_[index];
        if (b.kind == Buffer::Kind::glb_bin) return doc_.bin;
        if (b.load_failed) return {};
        if (b.kind == Buffer::Kind::data_uri && !b.loaded) {
            b.loaded = true;
            size_t comma = b.data_uri.find(',');
            std::string_view header = b.data_uri.substr(0, comma);
            std::string_view payload = b.data_uri.substr(comma + 1);
            bool is_base64 = header.size() >= 7 && header.substr(header.size() - 7) == ";base64";
            if (is_base64) {
                b.load_failed = !base64_decode(payload, b.bytes);
            } else {
                std::string raw = percent_decode(payload);
                b.bytes.assign(raw.begin(), raw.end());
            }
            if (!b.load_failed && b.bytes.size() < b.byte_length) b.load_failed = true;
        }
        if (b.load_failed) {
            report_.add("BUFFER_MISSING", "buffer " + std::to_string(index) + " could not be read or decoded",
                        "/buffers/" + std::to_string(index));
            return {};
        }
        return b.bytes;
    }

    /// Reads component `c` of element `e` as a double (normalised integers scaled to [0, 1]).
    /// Only called on accessors that passed the bounds checks and have a buffer view.
    static double component(std::span<const uint8_t> data, const Accessor& a, uint64_t e, uint32_t c,
                            uint64_t stride) {
        uint32_t csize = component_size(a.component_type);
        const uint8_t* p = data.data() + e * stride + uint64_t(c) * csize;
        switch (a.component_type) {
            case 5121: return a.normalized ? p[0] / 255.0 : p[0];
            case 5123: {
                uint16_t v;
                std::memcpy(&v, p, 2);
                return a.normalized ? v / 65535.0 : v;
            }
            case 5125: {
                uint32_t v;
                std::memcpy(&v, p, 4);
                return v;
            }
            case 5126: {
                float v;
                std::memcpy(&v, p, 4);
                return v;
            }
            case 5120: return a.normalized ? std::max(int8_t(p[0]) / 127.0, -1.0) : int8_t(p[0]);
            case 5122: {
                int16_t v;
                std::memcpy(&v, p, 2);
                return a.normalized ? std::max(v / 32767.0, -1.0) : v;
            }
        }
        return 0;
    }

    /// The element bytes of an accessor (from its first element) and its stride, or an empty
    /// span when it has no view or its buffer is unavailable. Sparse accessors are read through
    /// their dense base only; their substitutions are checked by Assimp's own bounds.
    std::span<const uint8_t> accessor_data(const Accessor& a, uint64_t& stride) {
        if (a.state != State::ok || a.view < 0) return {};
        const View& v = views_[size_t(a.view)];
        stride = v.stride ? v.stride : a.element_size;
        std::span<const uint8_t> data = view_data(a.view);
        if (data.size() < v.length) return {};
        return data.subspan(a.offset, v.length - a.offset);
    }

    /// The bytes of a checked buffer view, or an empty span when its buffer is unavailable. An
    /// external file's views each read their own bytes, once: only what the checked accessors use
    /// is read, however long the buffer declares itself (its length was checked against the
    /// file's size and the file limit).
    std::span<const uint8_t> view_data(int index) {
        View& v = views_[size_t(index)];
        if (v.state != State::ok) return {};
        Buffer& b = buffers_[size_t(v.buffer)];
        if (b.kind == Buffer::Kind::external) {
            if (!v.loaded && !b.load_failed) {
                v.loaded = true;
                if (!read_range(b.path, v.offset, v.length, v.bytes)) {
                    b.load_failed = true;
                    report_.add("BUFFER_MISSING", "buffer " + std::to_string(v.buffer) + " could not be read",
                                "/buffers/" + std::to_string(v.buffer));
                }
            }
            if (b.load_failed || v.bytes.size() < v.length) return {};
            return v.bytes;
        }
        std::span<const uint8_t> buffer = buffer_bytes(v.buffer);
        if (buffer.size() < v.offset + v.length) return {};
        return buffer.subspan(v.offset, v.length);
    }

    /// Component 0 of every element of a scalar accessor as the file means it: its view's values
    /// (zeros without one) with the sparse substitutions applied. False when a value cannot be
    /// read, or a substitution names an element past the count or out of order (reported):
    /// Assimp 5.2.5 writes such a substitution wherever its index points.
    bool scalar_values(const Accessor& a, int index, std::vector<uint32_t>& out) {
        out.assign(size_t(a.count), 0);
        if (a.view >= 0) {
            uint64_t stride = 0;
            std::span<const uint8_t> data = accessor_data(a, stride);
            if (data.empty()) return false;
            for (uint64_t i = 0; i < a.count; ++i) out[size_t(i)] = uint32_t(component(data, a, i, 0, stride));
        }
        if (!a.sparse) return true;
        const std::string ptr = "/accessors/" + std::to_string(index) + "/sparse";
        std::span<const uint8_t> idata = view_data(a.sparse_index_view);
        std::span<const uint8_t> vdata = view_data(a.sparse_value_view);
        if (idata.empty() || vdata.empty()) return false;
        idata = idata.subspan(a.sparse_index_offset);
        vdata = vdata.subspan(a.sparse_value_offset);
        Accessor itype;
        itype.component_type = a.sparse_index_type;
        const uint64_t isize = component_size(a.sparse_index_type);
        uint64_t previous = 0;
        for (uint64_t k = 0; k < a.sparse_count; ++k) {
            const uint64_t target = uint64_t(component(idata, itype, k, 0, isize));
            if (target >= a.count || (k > 0 && target <= previous)) {
                bad("accessor " + std::to_string(index) + " sparse substitution " + std::to_string(k) +
                        " names element " + std::to_string(target) +
                        (target >= a.count ? " but the accessor has " + std::to_string(a.count)
                                           : ", not after the previous one (" + std::to_string(previous) + ")") +
                        "; re-export the mesh",
                    ptr + "/indices");
                return false;
            }
            previous = target;
            out[size_t(target)] = uint32_t(component(vdata, a, k, 0, a.element_size));
        }
        return true;
    }

    void check_index_values() {
        const json& meshes = array_or_empty(doc_.json, "meshes");
        std::vector<uint32_t> values;  // index accessors are unsigned byte, short or int
        for (size_t m = 0; m < meshes.size(); ++m) {
            const json& prims = array_or_empty(meshes[m], "primitives");
            for (size_t p = 0; p < prims.size(); ++p) {
                const json* attrs = member(prims[p], "attributes");
                std::optional<int64_t> pos = attrs ? optional_uint(*attrs, "POSITION") : std::nullopt;
                std::optional<int64_t> ind = optional_uint(prims[p], "indices");
                std::optional<int64_t> mode = optional_uint(prims[p], "mode");
                const bool triangles = !mode || *mode == 4;
                const std::string ptr = "/meshes/" + std::to_string(m) + "/primitives/" + std::to_string(p);
                if (!pos) continue;
                const Accessor* pa = accessor(int(*pos));
                const Accessor* ia = ind ? accessor(int(*ind)) : nullptr;
                if (!pa || (ind && !ia)) continue;
                // A triangle list needs whole triangles: Assimp drops a trailing one or two
                // indices without a word, so a list cut short (or padded) would build silently.
                const uint64_t corners = ia ? ia->count : pa->count;
                if (triangles && corners % 3 != 0) {
                    report_.add("INDEX_COUNT_INVALID",
                                name_of(meshes[m], m, "mesh") + " primitive " + std::to_string(p) + " is a triangle list of " +
                                    std::to_string(corners) + (ia ? " indices" : " vertices") +
                                    ", not a multiple of 3: its last triangle is incomplete; re-export the mesh",
                                ptr + (ia ? "/indices" : "/attributes/POSITION"));
                    continue;
                }
                if (!ia) continue;
                const Accessor& positions = *pa;
                const Accessor& indices = *ia;
                if (!scalar_values(indices, int(*ind), values)) continue;
                uint64_t bad_count = 0, first = 0, first_value = 0;
                for (uint64_t i = 0; i < indices.count; ++i) {
                    const uint64_t v = values[size_t(i)];
                    if (v >= positions.count) {
                        if (bad_count++ == 0) first = i, first_value = v;
                    }
                }
                if (bad_count == 0) continue;
                std::string element = triangles ? "triangle " + std::to_string(first / 3) + " corner " +
                                                      std::to_string(first % 3)
                                                : "index " + std::to_string(first);
                report_.add("INDEX_OUT_OF_RANGE",
                            name_of(meshes[m], m, "mesh") + " primitive " + std::to_string(p) + ": " + element +
                                " names vertex " + std::to_string(first_value) + " but the primitive has " +
                                std::to_string(positions.count) + " vertices (" + std::to_string(bad_count) +
                                " indices out of range); re-export the mesh",
                            ptr + "/indices");
            }
        }
    }

    void check_joint_values() {
        const json& nodes = array_or_empty(doc_.json, "nodes");
        const json& meshes = array_or_empty(doc_.json, "meshes");
        const json& skins = array_or_empty(doc_.json, "skins");
        std::vector<std::pair<size_t, size_t>> done;  // (mesh, skin) pairs already checked
        for (size_t n = 0; n < nodes.size(); ++n) {
            std::optional<int64_t> mesh = optional_uint(nodes[n], "mesh");
            std::optional<int64_t> skin = optional_uint(nodes[n], "skin");
            if (!mesh || !skin) continue;
            std::pair<size_t, size_t> key{size_t(*mesh), size_t(*skin)};
            if (std::find(done.begin(), done.end(), key) != done.end()) continue;
            done.push_back(key);
            uint64_t joint_count = array_or_empty(skins[key.second], "joints").size();
            const json& prims = array_or_empty(meshes[key.first], "primitives");
            for (size_t p = 0; p < prims.size(); ++p) {
                const json* attrs = member(prims[p], "attributes");
                if (!attrs) continue;
                // Sets JOINTS_0/WEIGHTS_0, JOINTS_1/WEIGHTS_1, ... pair up.
                for (int set = 0; set < 8; ++set) {
                    std::string js = "JOINTS_" + std::to_string(set), ws = "WEIGHTS_" + std::to_string(set);
                    std::optional<int64_t> ji = optional_uint(*attrs, js.c_str());
                    std::optional<int64_t> wi = optional_uint(*attrs, ws.c_str());
                    if (!ji || !wi) break;
                    const Accessor* ja = accessor(int(*ji));
                    const Accessor* wa = accessor(int(*wi));
                    if (ja && wa)
                        check_joint_set(meshes[key.first], key.first, p, skins[key.second], key.second, joint_count,
                                        *ja, *wa, js);
                }
            }
        }
    }

    void check_joint_set(const json& mesh, size_t m, size_t p, const json& skin, size_t s, uint64_t joint_count,
                         const Accessor& joints, const Accessor& weights, const std::string& set) {
        std::string ptr = "/meshes/" + std::to_string(m) + "/primitives/" + std::to_string(p) + "/attributes/" + set;
        if (joints.components != 4 || (joints.component_type != 5121 && joints.component_type != 5123) ||
            weights.components != 4 || joints.count != weights.count) {
            bad(name_of(mesh, m, "mesh") + " primitive " + std::to_string(p) + " " + set +
                    " is not unsigned byte/short VEC4 matching its weights",
                ptr);
            return;
        }
        uint64_t jstride = 0, wstride = 0;
        std::span<const uint8_t> jdata = accessor_data(joints, jstride);
        std::span<const uint8_t> wdata = accessor_data(weights, wstride);
        if (jdata.empty() || wdata.empty() || joints.sparse || weights.sparse) return;
        // Assimp keeps only weights above zero, so a NaN one vanishes and its vertex is skinned by
        // what is left: refuse it by name.
        for (uint64_t v = 0; v < weights.count; ++v)
            for (uint32_t c = 0; c < 4; ++c) {
                const double w = component(wdata, weights, v, c, wstride);
                if (std::isfinite(w) && w >= 0) continue;
                report_.add("WEIGHT_INVALID",
                            name_of(mesh, m, "mesh") + " primitive " + std::to_string(p) + ": vertex " +
                                std::to_string(v) + " weight " + std::to_string(c) + " of " + set + " is " +
                                std::to_string(w) + " (NaN, infinite or negative); re-export the skin",
                            ptr);
                return;
            }
        uint64_t bad_count = 0, first_vertex = 0, first_joint = 0;
        for (uint64_t v = 0; v < joints.count; ++v)
            for (uint32_t c = 0; c < 4; ++c) {
                // A joint under zero weight moves nothing; only a weighted one must exist.
                if (!(component(wdata, weights, v, c, wstride) > 0)) continue;
                uint64_t j = uint64_t(component(jdata, joints, v, c, jstride));
                if (j >= joint_count && bad_count++ == 0) first_vertex = v, first_joint = j;
            }
        if (bad_count == 0) return;
        report_.add("JOINT_OUT_OF_RANGE",
                    name_of(mesh, m, "mesh") + " primitive " + std::to_string(p) + ": vertex " +
                        std::to_string(first_vertex) + " is weighted to joint " + std::to_string(first_joint) +
                        " but " + name_of(skin, s, "skin") + " has " + std::to_string(joint_count) + " joints (" +
                        std::to_string(bad_count) + " weights name missing joints); re-export the skin",
                    ptr);
    }
};

}  // namespace

bool check_gltf(const GltfDocument& doc, Reporter& report) { return Checker(doc, report).run(); }

bool check_gltf1(const GltfDocument& doc, Reporter& report) {
    // glTF 1.0 names nodes by id ("nodes": {"id": {"children": ["id", ...]}}). Assimp's reader
    // follows children recursively with no check: a node that is its own child recurses until the
    // stack runs out, and so does a chain deep enough. Same rule as 2.0: a forest of bounded depth.
    const json* nodes = member(doc.json, "nodes");
    if (!nodes || !nodes->is_object()) return true;
    std::unordered_map<std::string, int> index;
    std::vector<std::string> ids;
    for (auto it = nodes->begin(); it != nodes->end(); ++it) {
        index.emplace(it.key(), int(ids.size()));
        ids.push_back(it.key());
    }
    std::vector<int> parent(ids.size(), -1);
    auto bad = [&](const std::string& message, const std::string& pointer) {
        report.add("GLTF_REFERENCE_INVALID", message, pointer);
        return false;
    };
    int n = 0;
    for (auto it = nodes->begin(); it != nodes->end(); ++it, ++n) {
        const json* children = member(it.value(), "children");
        if (!children) continue;
        const std::string ptr = "/nodes/" + it.key() + "/children";
        if (!children->is_array()) return bad("node '" + it.key() + "' has children that are not a list", ptr);
        for (size_t c = 0; c < children->size(); ++c) {
            const json& child = (*children)[c];
            auto found = child.is_string() ? index.find(child.get_ref<const std::string&>()) : index.end();
            if (found == index.end())
                return bad("node '" + it.key() + "' has a child that is not a node id", ptr + "/" + std::to_string(c));
            if (found->second == n || parent[size_t(found->second)] >= 0)
                return bad("node '" + it.key() + "' lists node '" + found->first +
                               "' as a child, but it already has a parent (or is the node itself)",
                           ptr + "/" + std::to_string(c));
            parent[size_t(found->second)] = n;
        }
    }
    // One parent each: a cycle never reaches a root, and the depth bound catches it too. Each
    // node's depth is computed once (memoised), so a long chain costs its length, not its square.
    std::vector<int> depth(ids.size(), -1);
    for (size_t i = 0; i < ids.size(); ++i) {
        std::vector<size_t> path;
        size_t at = i;
        while (depth[at] < 0 && parent[at] >= 0 && path.size() <= size_t(kMaxNodeDepth)) {
            path.push_back(at);
            at = size_t(parent[at]);
        }
        int d = depth[at] >= 0 ? depth[at] : (parent[at] < 0 ? 0 : kMaxNodeDepth + 1);
        for (size_t k = path.size(); k-- > 0;) depth[path[k]] = ++d;
        if (d > kMaxNodeDepth)
            return bad("node '" + ids[i] + "' is in a cycle or deeper than " + std::to_string(kMaxNodeDepth) + " levels",
                       "/nodes/" + ids[i]);
    }
    return true;
}

}  // namespace weft::import_detail
