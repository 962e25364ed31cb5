// Inside the patch of a grown model (gltf_patch.h), one phase a file: reading the file through the
// import's glTF document (gltf_patch.cpp), the grown nodes (gltf_patch.cpp), skins and weights
// (gltf_patch_weights.cpp), spring bones (gltf_springs.h), images and pruning (gltf_patch_prune.cpp).
// Only those files include this header.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "scene/gltf_patch.h"
#include "scene/import_detail.h"

namespace weft::patch_detail {

using json = nlohmann::json;

/// The first thing that could not be matched or read, as one line.
struct PatchError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void fail(const std::string& message) { throw PatchError(message); }

/// The glTF file as the import read it, whole: its JSON (every member, accessors and buffer views
/// included) and its binary data through the one accessor layer, buffers confined to the model's
/// folder like the import's.
struct Document {
    std::vector<uint8_t> bytes;             ///< the file; `gltf`'s views point into it
    Issues issues;                          ///< what the reader refused, as the import words it
    import_detail::GltfDocument gltf;
    std::unique_ptr<import_detail::Reporter> report;
    std::unique_ptr<import_detail::GltfData> data;
    json doc;                               ///< the document being patched
    size_t original_accessors = 0;          ///< accessors below this index are the file's own
};

/// The first error the reader reported, without the file name the caller's message starts with.
[[noreturn]] void fail_with_issues(const Document& d, const std::string& fallback);

/// Reads `source` into `d` (throws PatchError naming what could not be read).
void load(const std::filesystem::path& source, bool allow_outside_folder, Document& d);

/// An accessor of the file read through the document's layer, with the checks a writer needs.
struct Values {
    const import_detail::GltfData::Accessor* a = nullptr;
    std::span<const uint8_t> bytes;
    uint64_t stride = 0;

    size_t count() const { return size_t(a->count); }
    int components() const { return int(a->components); }
    double get(size_t i, int c) const { return import_detail::GltfData::component(bytes, *a, i, uint32_t(c), stride); }
};

/// The file's accessor `index` (one of its own, not sparse), or PatchError naming `what`.
Values values(Document& d, const json& index, const std::string& what);

/// Where the grown scene binds a node (inverse of its inverse bind matrix in a skin, else its rest).
Mat4 scene_bind(const Scene& scene, int node);

size_t array_size(const json& doc, const char* key);

/// The one binary chunk being built: the file's buffers merged, then what the patch adds.
class Binary {
public:
    explicit Binary(json& doc);
    size_t append(std::span<const uint8_t> bytes);
    size_t view(std::span<const uint8_t> bytes, int target);
    size_t accessor(std::span<const uint8_t> bytes, int component_type, size_t count, const char* type, int target,
                    bool normalized = false);

    std::vector<uint8_t> bin;

private:
    json& doc_;
};

template <typename T>
std::span<const uint8_t> as_bytes(const std::vector<T>& v) {
    return {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T)};
}

/// How keep_rest maps an attribute: a position, a morph target's delta, a normal or tangent (normalised).
enum class RestAttribute { point, delta, direction };

/// The patch, phase by phase (gltf_patch.h's file comment).
class Patcher {
public:
    Patcher(const std::filesystem::path& source, const Scene& original, const Scene& grown, bool allow_outside_folder,
            GltfPatchResult& result)
        : source_(source), original_(original), grown_(grown), allow_outside_folder_(allow_outside_folder), result_(result) {}

    std::vector<uint8_t> run(std::span<const int> changed_meshes, const SpringBones* springs);

private:
    // gltf_patch.cpp: reading, node bookkeeping, the grown nodes.
    void open();
    int gltf_node(int scene_node);
    int scene_node_of(int g) const { return static_cast<int>(original_.nodes.size() + (size_t(g) - gltf_nodes_)); }
    Mat4 gltf_world(int g) const { return static_cast<size_t>(g) < worlds_.size() ? worlds_[size_t(g)] : new_world_.at(g); }
    void merge_buffers(Binary& binary);
    void add_nodes();
    void add_node(size_t k);

    // gltf_patch_weights.cpp: skins and weights, the rest pose kept.
    std::vector<int> extend_skin(Binary& binary, int gs, int s, const std::vector<Mat4>& skinning);
    std::vector<Mat4> file_skinning(int gskin, const std::string& what);
    void reweight_mesh(Binary& binary, int m);
    void reweight_primitive(Binary& binary, json& prim, const std::string& what, const std::vector<uint32_t>& scene_vertex,
                            const Mesh& gm, const std::vector<uint32_t>& joint_map, int gskin);
    void keep_rest(Binary& binary, json& prim, const std::string& what, const std::vector<std::optional<Mat4>>& correction);
    size_t corrected_accessor(Binary& binary, const Values& in, const std::vector<std::optional<Mat4>>& correction,
                              RestAttribute kind, bool bounds);

    // gltf_patch_inflate.cpp: Draco meshes written out plain.
    void inflate_draco(Binary& binary);
    void inflate_draco_primitive(Binary& binary, json& prim, std::set<size_t>& done);

    // gltf_patch_prune.cpp: images into the binary, what the patch replaced dropped.
    void embed_images(Binary& binary);
    void replaced(const json& index);
    void prune(Binary& binary);
    void compact(Binary& binary);

    const std::filesystem::path source_;
    const Scene& original_;
    const Scene& grown_;
    const bool allow_outside_folder_;
    GltfPatchResult& result_;
    Document d_;
    size_t gltf_nodes_ = 0;
    std::vector<Mat4> worlds_;
    std::map<int, Mat4> new_world_;
    std::set<int> extended_;
    std::map<int, std::vector<Mat4>> skin_matrices_;  ///< per glTF skin: every joint's world · inverse bind at rest, as
                                                      ///< the file has them and as the patch extends them
    std::set<std::pair<int, int>> reweighted_;   ///< (glTF mesh, primitive) pairs already re-weighted
    std::set<size_t> replaced_;                  ///< the file's accessors the patch took the place of
    std::set<size_t> freed_views_;               ///< the file's views nothing reads once the patch is done
};

}  // namespace weft::patch_detail
