// Internal to the importer (lib/scene/import*.cpp): the steps import_scene strings together.
// Nothing outside lib/scene includes this header; the public API is scene/import.h.
#pragma once
#include <array>
#include <cstdint>
#include <utility>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <assimp/matrix4x4.h>
#include <nlohmann/json.hpp>

#include "geom/vec.h"
#include "io/issue.h"
#include "scene/import_codes.h"
#include "scene/import.h"

struct aiScene;

namespace weft::import_detail {

/// object[key], or nullptr when `object` is not an object or has no `key`; never throws. Shared by
/// the glTF and VRM readers (one definition, so lib/scene also compiles as one unity batch).
inline const nlohmann::json* member(const nlohmann::json& object, const char* key) {
    if (!object.is_object()) return nullptr;
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

/// Collects the issues of one import. Every message starts with the file as the user named it;
/// the severity comes from the table in scene/import_codes.h.
class Reporter {
public:
    Reporter(std::string file, Issues& issues) : file_(std::move(file)), issues_(issues) {}
    void add(const IssueCode& code, const std::string& message, std::string pointer = {});
    const std::string& file() const { return file_; }
    bool failed() const { return has_error(issues_); }

private:
    std::string file_;
    Issues& issues_;
};

/// An accessor as the document's scanner read it straight from the JSON text, when it has the
/// usual shape: unsigned integers, strings without escapes, `normalized` a boolean, `min`/`max`
/// arrays of numbers (checked and dropped), each key once. `plain` is false for anything else
/// (sparse, extensions, extras, escapes, another kind of value): GltfData then parses its text
/// with nlohmann, which names what is wrong. Absent integers are -1.
struct ScannedAccessor {
    bool plain = false;
    bool has_type = false;
    bool normalized = false;
    int64_t buffer_view = -1, byte_offset = -1, component_type = -1, count = -1;
    std::string_view type;  ///< raw text between the quotes
};

/// A buffer view read the same way (`buffer`, `byteOffset`, `byteLength`, `byteStride` unsigned
/// integers; other members plain values, dropped).
struct ScannedView {
    bool plain = false;
    int64_t buffer = -1, byte_offset = -1, byte_length = -1, byte_stride = -1;
};

/// A glTF animation as the native reader needs it: channels and samplers by index.
struct GltfAnimation {
    enum class Path : uint8_t { other, translation, rotation, scale, weights };
    struct Channel {
        int sampler = -1, node = -1;
        Path path = Path::other;
    };
    struct Sampler {
        int input = -1, output = -1;
        bool cubic = false;  ///< interpolation "CUBICSPLINE"
    };
    std::string name;
    std::vector<Channel> channels;
    std::vector<Sampler> samplers;
};

/// A glTF 2.0 document as the checks, the native reader, the VRM reader and the grown-model writer
/// (gltf_patch.cpp) see it; its binary data is read through GltfData (scene/gltf_document.h).
struct GltfDocument {
    nlohmann::json json;                 ///< every top-level member but the three below, parsed
    std::vector<std::string_view> accessors;     ///< JSON text of each accessor, parsed on demand
    std::vector<std::string_view> buffer_views;  ///< JSON text of each buffer view, parsed on demand
    /// Per accessor and buffer view, its members as the scanner read them in the same pass (a big
    /// file has thousands: the Knight 8,839 accessors), so most are never handed to a JSON parser.
    std::vector<ScannedAccessor> scanned_accessors;
    std::vector<ScannedView> scanned_views;
    /// Per buffer, the text of its "uri" when that is a data URI of plain ASCII (no escapes),
    /// pointing into the JSON text; empty for other buffers. Such a buffer's `json` "uri" holds only
    /// the URI's header up to the comma ("data:...;base64,"): a .gltf's megabytes of base64 are
    /// never copied through a JSON parser.
    std::vector<std::string_view> data_uris;
    /// `animations` is read only when set (the import's clips; the grown-model writer keeps them).
    bool keep_animations = false;
    /// With keep_animations, read `animations` with the scanner into `animations` (scanned_animations
    /// set) when it has the usual shape, else keep its JSON text in animations_text (the native
    /// reader then parses it with nlohmann), never into `json`.
    bool animations_as_text = false;
    bool scanned_animations = false;
    std::vector<GltfAnimation> animations;
    std::string_view animations_text;
    std::span<const uint8_t> bin;        ///< the GLB BIN chunk; empty for .gltf text or a GLB without one
    bool glb = false;                    ///< the bytes were a GLB container
    std::filesystem::path base_dir;      ///< folder relative buffer URIs resolve against
    bool allow_outside_folder = false;   ///< ImportOptions::allow_outside_folder
    uint64_t max_buffer_bytes = uint64_t(1) << 31;  ///< ImportOptions::max_file_bytes, per buffer
};

/// A URI's %XX escapes decoded (glTF URIs are percent-encoded; a file "a b.bin" is "a%20b.bin").
std::string percent_decode(std::string_view uri);

/// A URI naming a file, decoded into `path`; false when the name would hold a NUL byte (`%00`):
/// no file is named so, and the byte would cut the path short wherever it is written (a depfile).
bool uri_path(std::string_view uri, std::string& path);

/// Splits GLB bytes into the JSON text and the BIN chunk, checking the header and every chunk
/// length against the bytes present (GLB_TRUNCATED, GLB_MALFORMED, GLB_TRAILING_BYTES).
bool split_glb(std::span<const uint8_t> bytes, std::string_view& json_text,
               std::span<const uint8_t>& bin, Reporter& report);

/// Parses glTF JSON text into `doc` (json, accessors, buffer_views; the spans point into `text`,
/// which must outlive `doc`). Refuses nesting deeper than 64 levels before any recursive parser
/// (Assimp's rapidjson) could run out of stack on it (GLTF_JSON_INVALID).
bool parse_gltf_json(std::string_view text, GltfDocument& doc, Reporter& report);

class GltfData;  // scene/gltf_document.h

/// Checks a glTF 2.0 document before the native reader reads it: every buffer present, every accessor this
/// check reads (and its view) in bounds, mesh/node/skin/scene references valid, the node graph
/// a forest of bounded depth, every triangle index
/// below its primitive's vertex count (INDEX_OUT_OF_RANGE) and every weighted joint inside its
/// skin (JOINT_OUT_OF_RANGE): what Assimp 5.2.5 silently dropped or read past a buffer for,
/// each a named error.
bool check_gltf(const GltfDocument& doc, GltfData& data, Reporter& report);

/// Checks a glTF 1.0 document's node graph (ids, not indices) before Assimp's recursive reader
/// follows it: every child a node id, one parent each, no cycle, bounded depth
/// (GLTF_REFERENCE_INVALID).
bool check_gltf1(const GltfDocument& doc, Reporter& report);

/// Checks the formats whose Assimp readers trust counts and indices in the file (PLY, MD5 mesh,
/// Collada; import_precheck.cpp) against the bytes present (COUNT_TOO_LARGE,
/// MODEL_INDEX_OUT_OF_RANGE). True for anything else.
bool precheck_model(std::span<const uint8_t> bytes, Reporter& report);

/// One joint's pull on a SourceMesh: the Scene node it is (-1: none found), the matrix that takes
/// the mesh from its own space to the joint's (the file's inverse bind), and its weights by vertex.
struct SourceBone {
    std::string name;
    int node = -1;
    Mat4 offset;
    std::vector<std::pair<uint32_t, float>> weights;  ///< (vertex, weight), as the file gives them
};

/// One mesh as a reader hands it over before it is put in scene space: single-precision data in the
/// mesh's own space, exactly as read (Assimp's arrays, or a glTF primitive's accessors after the
/// vertex join of import_gltf.cpp), so every reader's meshes are finished by one function.
struct SourceMesh {
    std::string name;
    int material = -1;                          ///< index into Scene::materials
    std::vector<std::array<float, 3>> positions;
    std::vector<std::array<float, 3>> normals;  ///< empty or one per vertex
    std::vector<std::array<float, 2>> uvs;      ///< empty or one per vertex (top-left origin)
    std::vector<uint32_t> triangles;            ///< three corners per triangle, in face order
    size_t lines = 0;                           ///< point and line faces beside the triangles
    int morph_target_count = 0;
    std::vector<SourceBone> bones;              ///< empty when unskinned
    std::string skin_name;                      ///< the file's name for the skin, when it has one
};

/// Puts `source`, instanced at scene.nodes[node], into `mesh` in scene space (static: through the
/// node's world transform; skinned: posed by the rest skeleton) with triangles, normals, UVs and
/// normalised influences, finding or adding its Skin in `scene`. False (reported) when refused.
/// An Assimp matrix (row-major, ai_real) as weft's Mat4: both readers compose node transforms in
/// Assimp's single precision, so their Scenes agree to the last bit.
Mat4 to_mat4(const aiMatrix4x4& a);

/// Per skin joint `bind_to_rest` gains, on first sight, its world at the default pose times the
/// file's inverse bind: the identity where the default pose is the bind pose.
using BindToRest = std::map<int, Mat4>;
bool finish_mesh(const SourceMesh& source, int node, const ImportOptions& options, Scene& scene, Mesh& mesh,
                 Reporter& report, BindToRest& bind_to_rest);

/// DEFAULT_POSE_OFF_BIND (docs/growth.md#default-pose), once every mesh is finished: each joint's own
/// turn from its bind pose (against its parent joint's, so a turned hip is not counted again in every
/// bone below it); a root joint's carries the mesh's placement and is skipped.
void warn_default_pose_off_bind(const BindToRest& bind_to_rest, const Scene& scene, Reporter& report);

/// Natively reads a checked glTF 2.0 document (check_gltf passed) into `scene`: nodes, materials,
/// meshes, skins and clips, with node and vertex identity by index (import_gltf.cpp).
/// `scene_of_gltf` receives, per glTF node, its Scene node. False when an error was reported.
bool read_gltf_scene(const GltfDocument& doc, GltfData& data, const ImportOptions& options, Scene& scene,
                     std::vector<int>& scene_of_gltf, Reporter& report);

/// The correction that takes the source's units and axes to metres, Y up, right-handed (the
/// identity for glTF). Reads FBX's UnitScaleFactor (centimetres per unit) and its Up/Front/Coord
/// axes from the aiScene metadata; fills scene.unit_scale and scene.up_axis.
Mat4 source_correction(const aiScene& ai, Scene& scene, Reporter& report);

/// Converts Assimp's scene (FBX, OBJ, glTF 1.0, ...) into `scene` (nodes, materials, meshes,
/// skins, animation names), premultiplying `correction` into the root. Returns false when an error
/// was reported.
bool convert_scene(const aiScene& ai, const Mat4& correction, const ImportOptions& options, Scene& scene,
                   Reporter& report);

/// Fills scene.springs and scene.colliders from the VRM 0.x `VRM.secondaryAnimation` and the
/// VRM 1.0 `VRMC_springBone` extensions, which Assimp does not expose.
void read_declared_springs(const nlohmann::json& gltf, const std::vector<int>& scene_of_gltf,
                           Scene& scene, Reporter& report);

}  // namespace weft::import_detail
