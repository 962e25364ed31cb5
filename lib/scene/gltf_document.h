// The one reader of a glTF 2.0 document's binary data: its buffers (GLB BIN chunk, base64 data
// URI, external file confined to the model's folder by scene/confine.h), buffer views and
// accessors, each parsed and bounds-checked against the bytes present on first use. The import's
// checks (import_gltf_check.cpp), the import's vertex identity (import.cpp) and the writer that
// patches a grown model (gltf_patch.cpp) all read through it; the JSON itself is the GltfDocument
// of scene/import_detail.h. Internal to lib/scene.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "scene/gltf_meshopt.h"
#include "scene/import_detail.h"

namespace weft::import_detail {

/// `object[key]` when it is an array, else an empty array; never throws.
const nlohmann::json& array_or_empty(const nlohmann::json& object, const char* key);

/// An optional non-negative integer member: nullopt when absent, -1 when present but not a
/// non-negative integer.
std::optional<int64_t> optional_uint(const nlohmann::json& object, const char* key);

/// "mesh 'Body'" or "mesh 3" when the object has no name.
std::string name_of(const nlohmann::json& object, size_t index, const char* kind);

/// Bytes per component of a glTF componentType (5120..5126), 0 for anything else.
uint32_t gltf_component_size(uint32_t component_type);

/// Components per element of a glTF accessor type ("VEC3" is 3), 0 for anything else.
uint32_t gltf_component_count(std::string_view type);

class GltfData {
public:
    enum class State { unchecked, ok, bad };

    struct Buffer {
        uint64_t byte_length = 0;
        /// fallback: no uri, standing in for data EXT_meshopt_compression decodes (holds no bytes).
        enum class Kind { glb_bin, data_uri, external, fallback } kind = Kind::external;
        std::string uri;            ///< external: the decoded relative path
        std::string_view data_uri;  ///< data URI: its text (in the document's JSON text or its json)
        std::filesystem::path path; ///< external: resolved file
        bool loaded = false;
        bool load_failed = false;
        bool valid = false;         ///< passed check_buffers
        std::vector<uint8_t> bytes; ///< data URI contents once loaded; an external file's, once read whole
    };

    struct View {
        State state = State::unchecked;
        int buffer = -1;
        uint64_t offset = 0;
        uint64_t length = 0;
        uint64_t stride = 0;   ///< 0 when tightly packed
        bool loaded = false;   ///< external buffer or meshopt: `bytes` read (or decoded)
        std::vector<uint8_t> bytes;  ///< external buffer: this view's bytes, once read; meshopt: decoded
        MeshoptView meshopt;   ///< its EXT_meshopt_compression, when meshopt.present
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
        /// Its own index when a KHR_draco_mesh_compression primitive decodes it (it has no view);
        /// else -1.
        int draco = -1;
    };

    /// Problems are reported to `report` (GLTF_REFERENCE_INVALID, BUFFER_MISSING, ...) once each.
    GltfData(const GltfDocument& doc, Reporter& report);

    /// Checks every buffer (present, long enough, confined) and every image file the document
    /// names; run once before anything is read.
    void check_buffers();

    /// Buffer view `i`, parsed and bounds-checked on first use; nullptr (reported once) when bad.
    const View* view(int i);
    /// Accessor `i`, parsed and bounds-checked on first use; nullptr (reported once) when bad.
    /// Only accessors a reader asks for are parsed: the rest of a big file's JSON never is.
    const Accessor* accessor(int i);

    size_t view_count() const { return views_.size(); }
    size_t accessor_count() const { return accessors_.size(); }

    /// Component `c` of element `e` as a double (normalised integers scaled to [0, 1] or [-1, 1]).
    /// Only for accessors that passed the bounds checks, with `data` from accessor_data.
    static double component(std::span<const uint8_t> data, const Accessor& a, uint64_t e, uint32_t c,
                            uint64_t stride);
    /// The element bytes of an accessor (from its first element) and its stride, or an empty span
    /// when it has no view or its buffer is unavailable. A sparse accessor's substitutions are not
    /// applied here (scalar_values applies them).
    std::span<const uint8_t> accessor_data(const Accessor& a, uint64_t& stride);
    /// The bytes of a checked buffer view, or an empty span when its buffer is unavailable.
    std::span<const uint8_t> view_data(int index);
    /// Component 0 of every element of a scalar accessor as the file means it: its view's values
    /// (zeros without one) with the sparse substitutions applied. False when a value cannot be
    /// read or a substitution is out of range or out of order (reported).
    bool scalar_values(const Accessor& a, int index, std::vector<uint32_t>& out);
    /// Every element of accessor `index` as `n` floats each, as the file means them (integers
    /// converted, normalised ones scaled, the view's stride followed, sparse substitutions
    /// applied); false (reported) when it cannot be read or has fewer than `n` components. `what`
    /// and `part` name it in a message, joined only when one is written.
    bool floats(int index, uint32_t n, std::vector<float>& out, const std::string& what, const char* part = "");
    /// Every byte of buffer `index` (exactly its byteLength), read whole; empty span (reported)
    /// when it failed check_buffers or cannot be read.
    std::span<const uint8_t> buffer_data(int index);
    /// The bytes a URI names: a data URI decoded (`mime` its media type) or a file beside the
    /// model, confined like the buffers (`mime` empty). False (reported) when it cannot be read.
    bool uri_data(const std::string& uri, std::vector<uint8_t>& out, std::string& mime, const std::string& pointer);

    /// Validates `object[key]` as an index into an array of `size`; reports and returns false when
    /// present and invalid. `out` is -1 when absent.
    bool index_member(const nlohmann::json& object, const char* key, size_t size, const std::string& where,
                      const std::string& pointer, int& out);
    /// The same for a value already read (nullopt: absent; negative: not an index).
    bool index_value(std::optional<int64_t> value, const char* key, size_t size, const std::string& where,
                     const std::string& pointer, int& out);
    /// GLTF_REFERENCE_INVALID with this message and JSON pointer.
    void bad(const std::string& message, const std::string& pointer);

private:
    const GltfDocument& doc_;
    Reporter& report_;
    std::vector<Buffer> buffers_;
    std::vector<View> views_;
    std::vector<Accessor> accessors_;

    /// A KHR_draco_mesh_compression primitive: the view holding its Draco mesh and the accessors it
    /// decodes (scene/gltf_draco.h), each with its attribute's unique id.
    struct DracoSource {
        int view = -1;
        std::string where;    ///< "mesh 'Body' primitive 0", for messages
        std::string pointer;  ///< its extension's JSON pointer
        std::vector<std::pair<int, uint32_t>> attributes;  ///< accessor, Draco unique id
        int indices = -1;                                  ///< the indices accessor, or -1
        State state = State::unchecked;
    };
    std::vector<DracoSource> draco_sources_;
    /// Per accessor, when the file has Draco primitives: the source decoding it (-1: none) and,
    /// once decoded, its values in its own component type.
    std::vector<int> draco_source_of_;
    std::vector<std::vector<uint8_t>> draco_values_;

    void find_draco_sources();
    /// The decoded values of accessor `index` (a Draco one), decoding its primitive on first use;
    /// empty (reported) when it does not decode or disagrees with its accessors.
    std::span<const uint8_t> draco_data(int index);
    bool decode_draco_source(DracoSource& source);
    bool store_draco_indices(const DracoSource& source, const std::vector<uint32_t>& corners, uint64_t points);

    void check_images();
    bool check_buffer_uri(const nlohmann::json& b, size_t i, const std::string& ptr, Buffer& out);
    bool parse_meshopt(const nlohmann::json& view, int i, const std::string& where, const std::string& ptr, View& out);
    std::span<const uint8_t> meshopt_data(int index, View& v);
    /// The sparse block of `a` checked against its count: its targets (strictly increasing, each
    /// below the count) and the bytes of its values; false (reported) otherwise.
    bool sparse_block(const Accessor& a, int index, std::vector<uint64_t>& targets, std::span<const uint8_t>& values);
    bool fits(const View& view, uint64_t offset, uint64_t count, uint64_t element, uint64_t stride) const;
    bool parse_element(std::string_view text, nlohmann::json& out, const std::string& pointer);
    bool check_sparse(const nlohmann::json& sparse, Accessor& acc, const std::string& where, const std::string& ptr);
    static bool read_range(const std::filesystem::path& path, uint64_t offset, uint64_t length, std::vector<uint8_t>& out);
    std::span<const uint8_t> buffer_bytes(int index);
};

}  // namespace weft::import_detail
