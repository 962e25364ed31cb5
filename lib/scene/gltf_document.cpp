// The glTF document's binary data, read once and checked against the bytes present
// (scene/gltf_document.h): what the import's checks, its vertex identity and the grown-model
// writer read, so each buffer, view and accessor rule is written once.
#include "scene/gltf_document.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <unistd.h>

#include "scene/confine.h"

namespace weft::import_detail {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// An accessor with no buffer view is zeros (a sparse base): no bytes back its count, so these caps
// bound what any reader allocates for it (4 Mi elements, 16 MiB; a morph target of 100k vertices
// needs 1.2 MB).
constexpr uint64_t kMaxZeroAccessorCount = uint64_t(1) << 22;
constexpr uint64_t kMaxZeroAccessorBytes = uint64_t(1) << 24;

/// Bytes per element, with the column padding glTF requires for small-component matrices.
uint64_t element_bytes(std::string_view type, uint32_t csize, uint32_t components) {
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
        value[uint8_t('+')] = value[uint8_t('-')] = 62;
        value[uint8_t('/')] = value[uint8_t('_')] = 63;
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

const json& array_or_empty(const json& object, const char* key) {
    static const json empty = json::array();
    const json* m = member(object, key);
    return m && m->is_array() ? *m : empty;
}

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

uint32_t gltf_component_size(uint32_t type) {
    switch (type) {
        case 5120: case 5121: return 1;
        case 5122: case 5123: return 2;
        case 5125: case 5126: return 4;
        default: return 0;
    }
}

uint32_t gltf_component_count(std::string_view type) {
    if (type == "SCALAR") return 1;
    if (type == "VEC2") return 2;
    if (type == "VEC3") return 3;
    if (type == "VEC4" || type == "MAT2") return 4;
    if (type == "MAT3") return 9;
    if (type == "MAT4") return 16;
    return 0;
}

bool uri_path(std::string_view uri, std::string& out) {
    out = percent_decode(uri);
    return out.find('\0') == std::string::npos;
}

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

// ---- buffers, views, accessors -----------------------------------------------------------

GltfData::GltfData(const GltfDocument& doc, Reporter& report) : doc_(doc), report_(report) {
    views_.resize(doc_.buffer_views.size());
    accessors_.resize(doc_.accessors.size());
    find_draco_sources();
}

void GltfData::bad(const std::string& message, const std::string& pointer) {
    report_.add(kGltfReferenceInvalid, message, pointer);
}

/// Validates `object[key]` as an index into an array of `size`; reports and returns false
/// when present and invalid. `out` is -1 when absent.
bool GltfData::index_member(const json& object, const char* key, size_t size, const std::string& where,
                  const std::string& pointer, int& out) {
    return index_value(optional_uint(object, key), key, size, where, pointer, out);
}

bool GltfData::index_value(std::optional<int64_t> v, const char* key, size_t size, const std::string& where,
                           const std::string& pointer, int& out) {
    out = -1;
    if (!v) return true;
    if (*v < 0 || uint64_t(*v) >= size) {
        bad(where + ": '" + key + "' is not an index below " + std::to_string(size), pointer + "/" + key);
        return false;
    }
    out = int(*v);
    return true;
}

void GltfData::check_buffers() {
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
        out.valid = check_buffer_uri(b, i, ptr, out);
    }
    check_images();
}

/// Where buffer `i`'s bytes are (the GLB's BIN chunk, a data URI, a file beside the model, or
/// none) and whether they are all there; reports and returns false when not.
bool GltfData::check_buffer_uri(const json& b, size_t i, const std::string& ptr, Buffer& out) {
    const json* uri = member(b, "uri");
    if (!uri && doc_.glb && i == 0) {
        out.kind = Buffer::Kind::glb_bin;
        if (doc_.bin.size() >= out.byte_length) return true;
        report_.add(kGlbTruncated,
                    "the GLB's BIN chunk holds " + std::to_string(doc_.bin.size()) + " bytes but buffer 0 declares " +
                        std::to_string(out.byte_length),
                    ptr);
        return false;
    }
    if (!uri) {
        // EXT_meshopt_compression's fallback buffer has no bytes: the views it backs are decoded
        // from another buffer. Any other view that reads it is refused when it does (view_data).
        out.kind = Buffer::Kind::fallback;
        return true;
    }
    if (!uri->is_string()) {
        bad("buffer " + std::to_string(i) + " uri is not a string", ptr + "/uri");
        return false;
    }
    const std::string_view text = i < doc_.data_uris.size() && !doc_.data_uris[i].empty()
                                      ? doc_.data_uris[i]
                                      : std::string_view(uri->get_ref<const std::string&>());
    if (text.rfind("data:", 0) == 0) {
        out.kind = Buffer::Kind::data_uri;
        out.data_uri = text;
        const uint64_t have = data_uri_size(text);
        if (have >= out.byte_length) return true;
        bad("buffer " + std::to_string(i) + " data URI holds " + std::to_string(have) +
                " bytes but declares byteLength " + std::to_string(out.byte_length),
            ptr);
        return false;
    }
    out.kind = Buffer::Kind::external;
    if (!uri_path(text, out.uri)) {
        bad("buffer " + std::to_string(i) + " uri '" + std::string(text) +
                "' decodes to a NUL byte (%00), which no file name holds",
            ptr + "/uri");
        return false;
    }
    const ReferenceCheck check = check_reference(doc_.base_dir, fs::path(out.uri), doc_.allow_outside_folder);
    out.path = check.path;
    if (check.code) {
        report_.add(check.code == &kReferencedFileMissing ? kBufferMissing : *check.code,
                    "buffer " + std::to_string(i) + " file '" + out.uri + "' " + check.problem, ptr + "/uri");
        return false;
    }
    std::error_code ec;
    const uint64_t size = fs::file_size(out.path, ec);
    if (ec || size < out.byte_length) {
        report_.add(kBufferMissing,
                    "buffer " + std::to_string(i) + " file '" + out.uri + "' has " + std::to_string(size) +
                        " bytes but byteLength declares " + std::to_string(out.byte_length),
                    ptr + "/uri");
        return false;
    }
    if (out.byte_length > doc_.max_buffer_bytes) {
        // A buffer read whole (the grown-model writer) allocates its declared length.
        report_.add(kBufferMissing,
                    "buffer " + std::to_string(i) + " file '" + out.uri + "' declares byteLength " +
                        std::to_string(out.byte_length) + ", more than the file limit of " +
                        std::to_string(doc_.max_buffer_bytes) + " bytes",
                    ptr + "/uri");
        return false;
    }
    return true;
}

/// Every image a file names must be there to be read (the grown model embeds them): inside
/// the folder, a regular file. Data URIs and URLs are left alone.
void GltfData::check_images() {
    const json& images = array_or_empty(doc_.json, "images");
    for (size_t i = 0; i < images.size(); ++i) {
        const json* uri = member(images[i], "uri");
        if (!uri || !uri->is_string()) continue;
        const std::string& u = uri->get_ref<const std::string&>();
        if (u.empty() || u.rfind("data:", 0) == 0 || u.find("://") != std::string::npos) continue;
        std::string name;
        if (!uri_path(u, name)) {
            bad(name_of(images[i], i, "image") + " uri '" + u + "' decodes to a NUL byte (%00), which no file name holds",
                "/images/" + std::to_string(i) + "/uri");
            continue;
        }
        const ReferenceCheck check = check_reference(doc_.base_dir, fs::path(name), doc_.allow_outside_folder);
        if (!check.code) continue;
        report_.add(*check.code, name_of(images[i], i, "image") + " file '" + name + "' " + check.problem,
                    "/images/" + std::to_string(i) + "/uri");
    }
}

namespace {

/// A scanned integer (-1 absent) as optional_uint gives a parsed one.
std::optional<int64_t> scanned_uint(int64_t v) {
    return v < 0 ? std::nullopt : std::optional<int64_t>(v);
}

}  // namespace

/// Buffer view `i`, parsed and bounds-checked on first use; nullptr (reported once) when bad.
const GltfData::View* GltfData::view(int i) {
    if (i < 0 || size_t(i) >= views_.size()) return nullptr;
    View& out = views_[size_t(i)];
    if (out.state != State::unchecked) return out.state == State::ok ? &out : nullptr;
    out.state = State::bad;
    std::string ptr = "/bufferViews/" + std::to_string(i);
    std::string where = "bufferView " + std::to_string(i);
    std::optional<int64_t> buffer_index, offset, length, stride;
    json v;  // only for a view the scanner did not read
    const json* meshopt = nullptr;
    if (size_t(i) < doc_.scanned_views.size() && doc_.scanned_views[size_t(i)].plain) {
        const ScannedView& s = doc_.scanned_views[size_t(i)];
        buffer_index = scanned_uint(s.buffer);
        offset = scanned_uint(s.byte_offset);
        length = scanned_uint(s.byte_length);
        stride = scanned_uint(s.byte_stride);
    } else {
        if (!parse_element(doc_.buffer_views[size_t(i)], v, ptr)) return nullptr;
        buffer_index = optional_uint(v, "buffer");
        offset = optional_uint(v, "byteOffset");
        length = optional_uint(v, "byteLength");
        stride = optional_uint(v, "byteStride");
        if (const json* ext = member(v, "extensions")) meshopt = member(*ext, "EXT_meshopt_compression");
    }
    int buffer = -1;
    if (!index_value(buffer_index, "buffer", buffers_.size(), where, ptr, buffer)) return nullptr;
    if (buffer < 0) {
        bad(where + " names no buffer", ptr);
        return nullptr;
    }
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
    if (meshopt && !parse_meshopt(*meshopt, i, where, ptr + "/extensions/EXT_meshopt_compression", out)) return nullptr;
    out.state = State::ok;
    return &out;
}

/// True when `count` elements of `element` bytes at `offset` with `stride` fit in `view`.
bool GltfData::fits(const View& view, uint64_t offset, uint64_t count, uint64_t element, uint64_t stride) const {
    if (count == 0) return offset <= view.length;
    if (stride == 0) stride = element;
    if (count > (uint64_t(1) << 32) || offset > view.length) return false;
    uint64_t last = offset + (count - 1) * stride + element;  // < 2^32 * 256 + 2^63: no wrap
    return last <= view.length;
}

/// Accessor `i`, checked on first use; nullptr (reported once) when bad. Its members come from the
/// scanner (GltfDocument::scanned_accessors) or, for one of another shape, from its text parsed here.
const GltfData::Accessor* GltfData::accessor(int i) {
    if (i < 0 || size_t(i) >= accessors_.size()) return nullptr;
    Accessor& out = accessors_[size_t(i)];
    if (out.state != State::unchecked) return out.state == State::ok ? &out : nullptr;
    out.state = State::bad;
    std::string ptr = "/accessors/" + std::to_string(i);
    std::string where = "accessor " + std::to_string(i);
    std::optional<int64_t> ctype, count, offset, view_index;
    std::optional<std::string_view> type;
    bool normalized = false;
    json a;  // only for an accessor the scanner did not read
    const json* sparse = nullptr;
    if (size_t(i) < doc_.scanned_accessors.size() && doc_.scanned_accessors[size_t(i)].plain) {
        const ScannedAccessor& s = doc_.scanned_accessors[size_t(i)];
        ctype = scanned_uint(s.component_type);
        count = scanned_uint(s.count);
        offset = scanned_uint(s.byte_offset);
        view_index = scanned_uint(s.buffer_view);
        if (s.has_type) type = s.type;
        normalized = s.normalized;
    } else {
        if (!parse_element(doc_.accessors[size_t(i)], a, ptr)) return nullptr;
        ctype = optional_uint(a, "componentType");
        count = optional_uint(a, "count");
        offset = optional_uint(a, "byteOffset");
        view_index = optional_uint(a, "bufferView");
        const json* t = member(a, "type");
        if (t && t->is_string()) type = std::string_view(t->get_ref<const std::string&>());
        const json* norm = member(a, "normalized");
        normalized = norm && norm->is_boolean() && norm->get<bool>();
        sparse = member(a, "sparse");
    }
    uint32_t csize = ctype ? gltf_component_size(uint32_t(*ctype)) : 0;
    uint32_t ccount = type ? gltf_component_count(*type) : 0;
    if (!ctype || csize == 0 || ccount == 0 || !count || *count < 1 || (offset && *offset < 0)) {
        bad(where + " has an invalid componentType, type, count or byteOffset", ptr);
        return nullptr;
    }
    out.component_type = uint32_t(*ctype);
    out.components = ccount;
    out.count = uint64_t(*count);
    out.offset = offset ? uint64_t(*offset) : 0;
    out.element_size = element_bytes(*type, csize, ccount);
    out.normalized = normalized;
    if (!index_value(view_index, "bufferView", views_.size(), where, ptr, out.view)) return nullptr;
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
    } else if (size_t(i) < draco_source_of_.size() && draco_source_of_[size_t(i)] >= 0) {
        out.draco = i;  // its bytes are the Draco mesh's, checked against its count when decoded
    } else if (out.count > kMaxZeroAccessorCount || out.count * out.element_size > kMaxZeroAccessorBytes) {
        // No bytes back it, so nothing bounds what a reader allocates for it but this cap.
        bad(where + " has no bufferView and a count of " + std::to_string(out.count) + " (at most " +
                std::to_string(kMaxZeroAccessorCount) + " elements and " + std::to_string(kMaxZeroAccessorBytes) +
                " bytes without bytes behind them)",
            ptr);
        return nullptr;
    }
    if (sparse) {
        out.sparse = true;
        if (!check_sparse(*sparse, out, where, ptr + "/sparse")) return nullptr;
    }
    out.state = State::ok;
    return &out;
}

bool GltfData::parse_element(std::string_view text, json& out, const std::string& pointer) {
    try {
        out = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        report_.add(kGltfJsonInvalid, std::string("the glTF JSON does not parse: ") + e.what(), pointer);
        return false;
    }
    if (!out.is_object()) {
        bad("not a JSON object", pointer);
        return false;
    }
    return true;
}

bool GltfData::check_sparse(const json& sparse, Accessor& acc, const std::string& where, const std::string& ptr) {
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
    uint32_t isize = itype ? gltf_component_size(uint32_t(*itype)) : 0;
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

bool GltfData::read_range(const fs::path& path, uint64_t offset, uint64_t length, std::vector<uint8_t>& out) {
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
std::span<const uint8_t> GltfData::buffer_bytes(int index) {
    Buffer& b = buffers_[index];
    if (b.kind == Buffer::Kind::glb_bin) return doc_.bin;
    if (b.load_failed) return {};
    if (b.kind == Buffer::Kind::fallback) {
        b.load_failed = true;
        bad("buffer " + std::to_string(index) + " has no uri, so no bytes, yet a buffer view without "
                "EXT_meshopt_compression reads it (only a GLB's first buffer may omit its uri)",
            "/buffers/" + std::to_string(index));
        return {};
    }
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
        report_.add(kBufferMissing, "buffer " + std::to_string(index) + " could not be read or decoded",
                    "/buffers/" + std::to_string(index));
        return {};
    }
    return b.bytes;
}

/// Reads component `c` of element `e` as a double (normalised integers scaled to [0, 1]).
/// Only called on accessors that passed the bounds checks and have a buffer view.
double GltfData::component(std::span<const uint8_t> data, const Accessor& a, uint64_t e, uint32_t c,
                        uint64_t stride) {
    uint32_t csize = gltf_component_size(a.component_type);
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
std::span<const uint8_t> GltfData::accessor_data(const Accessor& a, uint64_t& stride) {
    if (a.state != State::ok) return {};
    if (a.view < 0) {
        if (a.draco < 0) return {};
        stride = a.element_size;
        return draco_data(a.draco);
    }
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
std::span<const uint8_t> GltfData::view_data(int index) {
    View& v = views_[size_t(index)];
    if (v.state != State::ok) return {};
    if (v.meshopt.present) return meshopt_data(index, v);
    Buffer& b = buffers_[size_t(v.buffer)];
    if (b.kind == Buffer::Kind::external) {
        if (!v.loaded && !b.load_failed) {
            v.loaded = true;
            if (!read_range(b.path, v.offset, v.length, v.bytes)) {
                b.load_failed = true;
                report_.add(kBufferMissing, "buffer " + std::to_string(v.buffer) + " could not be read",
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
bool GltfData::scalar_values(const Accessor& a, int index, std::vector<uint32_t>& out) {
    // The bytes first: a Draco accessor's count is checked against its decoded mesh only there, so
    // nothing is allocated for a count no bytes back.
    uint64_t stride = 0;
    std::span<const uint8_t> data;
    if (a.view >= 0 || a.draco >= 0) {
        data = accessor_data(a, stride);
        if (data.empty()) return false;
    }
    out.assign(size_t(a.count), 0);
    if (!data.empty())
        for (uint64_t i = 0; i < a.count; ++i) out[size_t(i)] = uint32_t(component(data, a, i, 0, stride));
    if (!a.sparse) return true;
    std::vector<uint64_t> targets;
    std::span<const uint8_t> values;
    if (!sparse_block(a, index, targets, values)) return false;
    for (size_t k = 0; k < targets.size(); ++k) out[size_t(targets[k])] = uint32_t(component(values, a, k, 0, a.element_size));
    return true;
}

/// Every sparse block is read here, once for every reader: the index and value views must have
/// their bytes (a data URI that does not decode has none), each target below the count and after
/// the one before it (the specification's order; Assimp 5.2.5 wrote such a substitution
/// wherever its index pointed).
bool GltfData::sparse_block(const Accessor& a, int index, std::vector<uint64_t>& targets,
                            std::span<const uint8_t>& values) {
    const std::string ptr = "/accessors/" + std::to_string(index) + "/sparse";
    std::span<const uint8_t> idata = view_data(a.sparse_index_view);
    values = view_data(a.sparse_value_view);
    const uint64_t isize = gltf_component_size(a.sparse_index_type);
    // check_sparse fitted both blocks in their views; a view whose buffer could not be read
    // (reported there) has no bytes at all.
    if (idata.size() < a.sparse_index_offset + a.sparse_count * isize ||
        values.size() < a.sparse_value_offset + a.sparse_count * a.element_size) {
        bad("accessor " + std::to_string(index) + " sparse indices or values could not be read", ptr);
        return false;
    }
    idata = idata.subspan(size_t(a.sparse_index_offset));
    values = values.subspan(size_t(a.sparse_value_offset));
    Accessor itype;
    itype.component_type = a.sparse_index_type;
    targets.resize(size_t(a.sparse_count));
    for (uint64_t k = 0; k < a.sparse_count; ++k) {
        const uint64_t target = uint64_t(component(idata, itype, k, 0, isize));
        if (target >= a.count || (k > 0 && target <= targets[size_t(k - 1)])) {
            bad("accessor " + std::to_string(index) + " sparse substitution " + std::to_string(k) + " names element " +
                    std::to_string(target) +
                    (target >= a.count ? " but the accessor has " + std::to_string(a.count)
                                       : ", not after the previous one (" + std::to_string(targets[size_t(k - 1)]) + ")") +
                    "; re-export the mesh",
                ptr + "/indices");
            return false;
        }
        targets[size_t(k)] = target;
    }
    return true;
}

bool GltfData::floats(int index, uint32_t n, std::vector<float>& out, const std::string& what, const char* part) {
    const Accessor* a = accessor(index);
    if (!a) return false;
    if (a->components < n) {
        bad(what + part + " accessor " + std::to_string(index) + " has " + std::to_string(a->components) +
                " components per element, fewer than " + std::to_string(n),
            "/accessors/" + std::to_string(index));
        return false;
    }
    uint64_t stride = 0;
    std::span<const uint8_t> bytes;  // first, as in scalar_values
    if (a->view >= 0 || a->draco >= 0) {
        bytes = accessor_data(*a, stride);
        if (bytes.empty()) return false;
    }
    out.assign(size_t(a->count) * n, 0.f);
    if (!bytes.empty()) {
        if (a->component_type == 5126 && stride == uint64_t(n) * 4) {  // floats as stored, packed: one copy
            std::memcpy(out.data(), bytes.data(), size_t(a->count) * n * 4);
        } else if (a->component_type == 5126) {
            for (uint64_t e = 0; e < a->count; ++e) std::memcpy(&out[size_t(e) * n], bytes.data() + e * stride, n * 4);
        } else {
            for (uint64_t e = 0; e < a->count; ++e)
                for (uint32_t c = 0; c < n; ++c) out[size_t(e) * n + c] = float(component(bytes, *a, e, c, stride));
        }
    }
    if (!a->sparse) return true;
    std::vector<uint64_t> targets;
    std::span<const uint8_t> values;
    if (!sparse_block(*a, index, targets, values)) return false;
    for (size_t k = 0; k < targets.size(); ++k)
        for (uint32_t c = 0; c < n; ++c)
            out[size_t(targets[k]) * n + c] = float(component(values, *a, k, c, a->element_size));
    return true;
}

std::span<const uint8_t> GltfData::buffer_data(int index) {
    if (index < 0 || size_t(index) >= buffers_.size() || !buffers_[size_t(index)].valid) return {};
    Buffer& b = buffers_[size_t(index)];
    if (b.kind == Buffer::Kind::glb_bin) return doc_.bin.first(size_t(b.byte_length));
    if (b.kind == Buffer::Kind::external && !b.loaded && !b.load_failed) {
        b.loaded = true;
        if (!read_range(b.path, 0, b.byte_length, b.bytes)) {
            b.load_failed = true;
            report_.add(kBufferMissing, "buffer " + std::to_string(index) + " file '" + b.uri + "' could not be read",
                        "/buffers/" + std::to_string(index));
        }
    }
    std::span<const uint8_t> bytes = b.kind == Buffer::Kind::external ? std::span<const uint8_t>(b.bytes) : buffer_bytes(index);
    return bytes.size() < b.byte_length ? std::span<const uint8_t>() : bytes.first(size_t(b.byte_length));
}

bool GltfData::uri_data(const std::string& uri, std::vector<uint8_t>& out, std::string& mime, const std::string& pointer) {
    mime.clear();
    out.clear();
    if (uri.rfind("data:", 0) == 0) {
        const size_t comma = uri.find(',');
        const std::string_view header = std::string_view(uri).substr(5, comma == std::string::npos ? 0 : comma - 5);
        const bool is_base64 = header.size() >= 7 && header.substr(header.size() - 7) == ";base64";
        if (comma == std::string::npos || !is_base64 || !base64_decode(std::string_view(uri).substr(comma + 1), out)) {
            report_.add(kBufferMissing, "a data URI is not base64 data", pointer);
            return false;
        }
        mime = std::string(header.substr(0, header.size() - 7));
        return true;
    }
    std::string name;
    if (!uri_path(uri, name)) {
        bad("uri '" + uri + "' decodes to a NUL byte (%00), which no file name holds", pointer);
        return false;
    }
    const ReferenceCheck check = check_reference(doc_.base_dir, fs::path(name), doc_.allow_outside_folder);
    if (check.code) {
        report_.add(check.code == &kReferencedFileMissing ? kBufferMissing : *check.code,
                    "file '" + name + "' " + check.problem, pointer);
        return false;
    }
    std::error_code ec;
    const uint64_t size = fs::file_size(check.path, ec);
    if (ec || size > doc_.max_buffer_bytes || !read_range(check.path, 0, size, out)) {
        report_.add(kBufferMissing, "file '" + name + "' could not be read", pointer);
        return false;
    }
    return true;
}

}  // namespace weft::import_detail
