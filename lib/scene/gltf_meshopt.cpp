// EXT_meshopt_compression (scene/gltf_meshopt.h): a buffer view's extension parsed and checked,
// and its bytes decoded on first use with meshoptimizer's decoders and filters.
#include "scene/gltf_meshopt.h"

#include <algorithm>

#include <meshoptimizer.h>

#include "scene/gltf_document.h"

namespace weft::import_detail {

using nlohmann::json;

std::string meshopt_shape_problem(const MeshoptView& v) {
    if (v.count == 0) return "a count of 0";
    switch (v.mode) {
        case MeshoptView::Mode::attributes:
            if (v.stride == 0 || v.stride % 4 != 0 || v.stride > 256)
                return "mode ATTRIBUTES with byteStride " + std::to_string(v.stride) + " (a multiple of 4 up to 256)";
            break;
        case MeshoptView::Mode::triangles:
        case MeshoptView::Mode::indices:
            if (v.stride != 2 && v.stride != 4) return "an index byteStride of " + std::to_string(v.stride) + " (2 or 4)";
            if (v.mode == MeshoptView::Mode::triangles && v.count % 3 != 0)
                return "mode TRIANGLES with a count of " + std::to_string(v.count) + " (a multiple of 3)";
            if (v.filter != MeshoptView::Filter::none) return "a filter on index data";
            break;
    }
    switch (v.filter) {
        case MeshoptView::Filter::none: break;
        case MeshoptView::Filter::octahedral:
            if (v.stride != 4 && v.stride != 8) return "filter OCTAHEDRAL with byteStride " + std::to_string(v.stride) + " (4 or 8)";
            break;
        case MeshoptView::Filter::quaternion:
            if (v.stride != 8) return "filter QUATERNION with byteStride " + std::to_string(v.stride) + " (8)";
            break;
        case MeshoptView::Filter::exponential:
            if (v.stride % 4 != 0) return "filter EXPONENTIAL with byteStride " + std::to_string(v.stride) + " (a multiple of 4)";
            break;
    }
    return {};
}

bool decode_meshopt(const MeshoptView& v, std::span<const uint8_t> encoded, std::vector<uint8_t>& out,
                    std::string& problem) {
    problem = meshopt_shape_problem(v);
    if (!problem.empty()) return false;
    out.assign(size_t(v.count * v.stride), 0);
    const size_t count = size_t(v.count), stride = size_t(v.stride);
    int status = 0;
    switch (v.mode) {
        case MeshoptView::Mode::attributes:
            status = meshopt_decodeVertexBuffer(out.data(), count, stride, encoded.data(), encoded.size());
            break;
        case MeshoptView::Mode::triangles:
            status = meshopt_decodeIndexBuffer(out.data(), count, stride, encoded.data(), encoded.size());
            break;
        case MeshoptView::Mode::indices:
            status = meshopt_decodeIndexSequence(out.data(), count, stride, encoded.data(), encoded.size());
            break;
    }
    if (status != 0) {
        problem = status == -1   ? "its header is not of a version this build of meshoptimizer decodes"
                  : status == -2 ? "its compressed bytes end early"
                  : status == -3 ? "its compressed bytes run on past the data"
                                 : "it does not decode (status " + std::to_string(status) + ")";
        return false;
    }
    switch (v.filter) {
        case MeshoptView::Filter::none: break;
        case MeshoptView::Filter::octahedral: meshopt_decodeFilterOct(out.data(), count, stride); break;
        case MeshoptView::Filter::quaternion: meshopt_decodeFilterQuat(out.data(), count, stride); break;
        case MeshoptView::Filter::exponential: meshopt_decodeFilterExp(out.data(), count, stride); break;
    }
    return true;
}

/// A view's EXT_meshopt_compression object: its compressed range inside a buffer with bytes, and
/// a decoded size the view's byteLength needs and the compressed bytes can hold (kMeshoptMaxRatio).
bool GltfData::parse_meshopt(const json& ext, int i, const std::string& where, const std::string& ptr, View& out) {
    MeshoptView& m = out.meshopt;
    m.present = true;
    const std::string what = where + " EXT_meshopt_compression";
    if (!index_member(ext, "buffer", buffers_.size(), what, ptr, m.buffer)) return false;
    const std::optional<int64_t> offset = optional_uint(ext, "byteOffset"), length = optional_uint(ext, "byteLength"),
                                 stride = optional_uint(ext, "byteStride"), count = optional_uint(ext, "count");
    const json* mode = member(ext, "mode");
    const json* filter = member(ext, "filter");
    const std::string mode_text = mode && mode->is_string() ? mode->get<std::string>() : "";
    const std::string filter_text = filter && filter->is_string() ? filter->get<std::string>() : "NONE";
    if (m.buffer < 0 || (offset && *offset < 0) || !length || *length < 0 || !stride || *stride < 1 || *stride > 256 ||
        !count || *count < 1) {
        bad(what + " needs a buffer, a byteLength, a byteStride of 1 to 256 and a count", ptr);
        return false;
    }
    m.offset = offset ? uint64_t(*offset) : 0;
    m.length = uint64_t(*length);
    m.stride = uint64_t(*stride);
    m.count = uint64_t(*count);
    using Mode = MeshoptView::Mode;
    using Filter = MeshoptView::Filter;
    if (mode_text == "ATTRIBUTES") m.mode = Mode::attributes;
    else if (mode_text == "TRIANGLES") m.mode = Mode::triangles;
    else if (mode_text == "INDICES") m.mode = Mode::indices;
    else {
        bad(what + " has mode '" + mode_text + "' (ATTRIBUTES, TRIANGLES or INDICES)", ptr + "/mode");
        return false;
    }
    if (filter_text == "NONE") m.filter = Filter::none;
    else if (filter_text == "OCTAHEDRAL") m.filter = Filter::octahedral;
    else if (filter_text == "QUATERNION") m.filter = Filter::quaternion;
    else if (filter_text == "EXPONENTIAL") m.filter = Filter::exponential;
    else {
        bad(what + " has filter '" + filter_text + "', which this reader does not decode", ptr + "/filter");
        return false;
    }
    const std::string shape = meshopt_shape_problem(m);
    if (!shape.empty()) {
        bad(what + " has " + shape, ptr);
        return false;
    }
    const Buffer& source = buffers_[size_t(m.buffer)];
    if (m.offset + m.length > source.byte_length || !source.valid || source.kind == Buffer::Kind::fallback) {
        bad(what + " reads bytes " + std::to_string(m.offset) + ".." + std::to_string(m.offset + m.length) +
                " of buffer " + std::to_string(m.buffer) + ", which has " + std::to_string(source.byte_length) +
                (source.kind == Buffer::Kind::fallback ? " and no data" : ""),
            ptr);
        return false;
    }
    // count * stride, without wrapping: count is below 2^63 and stride at most 256.
    const uint64_t cap = std::min<uint64_t>(doc_.max_buffer_bytes, kMeshoptMaxRatio * m.length + 4096);
    if (m.count > cap / m.stride || m.count * m.stride < out.length) {
        bad(what + " decodes " + std::to_string(m.count) + " elements of " + std::to_string(m.stride) +
                " bytes: " + (m.count > cap / m.stride ? "more than its " + std::to_string(m.length) +
                                                          " compressed bytes can hold"
                                                    : "fewer than the view's byteLength " + std::to_string(out.length)),
            ptr);
        return false;
    }
    (void)i;
    return true;
}

/// A compressed view's bytes, decoded on first use (reported once when they do not decode).
std::span<const uint8_t> GltfData::meshopt_data(int index, View& v) {
    if (v.loaded) return v.bytes.size() < v.length ? std::span<const uint8_t>() : std::span<const uint8_t>(v.bytes);
    v.loaded = true;
    const MeshoptView& m = v.meshopt;
    Buffer& source = buffers_[size_t(m.buffer)];
    std::vector<uint8_t> read;  // an external file's compressed range
    std::span<const uint8_t> encoded;
    if (source.kind == Buffer::Kind::external) {
        if (read_range(source.path, m.offset, m.length, read)) encoded = read;
    } else {
        const std::span<const uint8_t> whole = buffer_bytes(m.buffer);
        if (whole.size() >= m.offset + m.length) encoded = whole.subspan(size_t(m.offset), size_t(m.length));
    }
    const std::string ptr = "/bufferViews/" + std::to_string(index) + "/extensions/EXT_meshopt_compression";
    if (encoded.size() != m.length) {
        report_.add(kBufferMissing, "bufferView " + std::to_string(index) + ": the compressed bytes in buffer " +
                                        std::to_string(m.buffer) + " could not be read", ptr);
        return {};
    }
    std::string problem;
    if (!decode_meshopt(m, encoded, v.bytes, problem)) {
        v.bytes.clear();
        bad("bufferView " + std::to_string(index) + " EXT_meshopt_compression does not decode: " + problem, ptr);
        return {};
    }
    return v.bytes;
}

}  // namespace weft::import_detail
