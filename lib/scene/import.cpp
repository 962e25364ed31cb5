// import_scene: read the file once, recognise it by content, check what can be checked before
// Assimp sees the bytes; glTF 2.0 and VRM are read here (import_gltf.cpp, import_vrm.cpp), anything
// else by Assimp in its module (scene/assimp_module.h, lib/scene/assimp/), which converts its scene.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <assimp/postprocess.h>  // the flags' values only: Assimp is called in its module (scene/assimp_module.h)

#include "scene/assimp_module.h"
#include "scene/confine.h"
#include "scene/import.h"
#include "scene/import_codes.h"
#include "scene/gltf_document.h"
#include "scene/import_detail.h"
#include "scene/invariants.h"
#include "io/utf8_text.h"

namespace weft {

void import_detail::Reporter::add(const IssueCode& code, const std::string& message, std::string pointer) {
    // Names inside a message come from the file as raw bytes; reports are JSON (io/utf8_text.h).
    issues_.push_back(make_issue(code, valid_utf8(file_ + ": " + message), valid_utf8(pointer)));
}

namespace {

namespace fs = std::filesystem;
using import_detail::Reporter;

/// What the bytes are, by content (the extension only breaks ties Assimp must settle).
enum class Container { glb, gltf_json, fbx, other };

/// A file's bytes, not zero-filled first (read() writes every one of them).
struct FileBytes {
    std::unique_ptr<uint8_t[]> data;
    size_t size = 0;
    std::span<const uint8_t> span() const { return {data.get(), size}; }
};

/// Reads the whole file, refusing what is not a readable, non-empty regular file of bounded
/// size. The descriptor is opened non-blocking and checked again, so a path swapped for a FIFO
/// between the check and the open cannot hang the import.
bool read_model_file(const fs::path& file, uint64_t max_bytes, FileBytes& out, Reporter& report) {
    struct stat st{};
    if (::stat(file.c_str(), &st) != 0) {
        int err = errno;
        if (err == ENOENT || err == ENOTDIR)
            report.add(kFileNotFound, "no such file; check the path");
        else
            report.add(kFileUnreadable, std::string("cannot look at the file: ") + std::strerror(err));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        report.add(kNotAFile, "is a directory, not a model file");
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        report.add(kNotAFile, "is not a regular file (a device, FIFO or socket)");
        return false;
    }
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        report.add(kFileUnreadable, std::string("cannot open: ") + std::strerror(errno) + "; check its permissions");
        return false;
    }
    struct Closer { int fd; ~Closer() { ::close(fd); } } closer{fd};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        report.add(kNotAFile, "is not a regular file");
        return false;
    }
    if (st.st_size == 0) {
        report.add(kFileEmpty, "the file is empty (0 bytes)");
        return false;
    }
    if (uint64_t(st.st_size) > max_bytes) {
        report.add(kFileTooLarge, "the file has " + std::to_string(st.st_size) + " bytes, more than the limit of " +
                                         std::to_string(max_bytes));
        return false;
    }
    const size_t size = size_t(st.st_size);
    out.data.reset(new uint8_t[size]);
    size_t done = 0;
    while (done < size) {
        ssize_t n = ::read(fd, out.data.get() + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            report.add(kFileUnreadable, std::string("cannot read: ") + std::strerror(errno));
            return false;
        }
        if (n == 0) break;  // shrank while reading: parse what is there, the checks catch truncation
        done += size_t(n);
    }
    out.size = done;
    if (out.size == 0) {
        report.add(kFileEmpty, "the file is empty (0 bytes)");
        return false;
    }
    return true;
}

Container sniff(std::span<const uint8_t> bytes) {
    auto starts = [&](std::string_view s) {
        return bytes.size() >= s.size() && std::memcmp(bytes.data(), s.data(), s.size()) == 0;
    };
    if (starts("glTF")) return Container::glb;
    if (starts("Kaydara FBX Binary")) return Container::fbx;
    size_t i = starts("\xEF\xBB\xBF") ? 3 : 0;
    while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r' || bytes[i] == '\n')) ++i;
    if (i < bytes.size() && bytes[i] == '{') return Container::gltf_json;
    // ASCII FBX opens with a comment and an FBXHeaderExtension block.
    std::string_view head(reinterpret_cast<const char*>(bytes.data()), std::min<size_t>(bytes.size(), 4096));
    if (head.find("FBXHeaderExtension") != std::string_view::npos || head.rfind("; FBX", 0) == 0) return Container::fbx;
    return Container::other;
}

bool declares_vrm(const nlohmann::json& doc) {
    auto has = [&](const char* name) {
        auto used = doc.find("extensionsUsed");
        if (used != doc.end() && used->is_array())
            for (const auto& e : *used)
                if (e.is_string() && e.get_ref<const std::string&>() == name) return true;
        auto ext = doc.find("extensions");
        return ext != doc.end() && ext->is_object() && ext->contains(name);
    };
    return has("VRM") || has("VRMC_vrm");
}

/// Every buffer and image URI that names a file (not a data URI, not a URL), resolved against the
/// model's folder: what weft bake hashes and lists in depfiles beside the model. A file the import
/// refuses to read (outside the folder, not a regular file) is not one: the model's outputs never
/// depend on it, and hashing it could read anything or block.
std::vector<fs::path> external_files(const nlohmann::json& doc, const fs::path& base_dir, bool allow_outside) {
    std::vector<fs::path> out;
    for (const char* key : {"buffers", "images"}) {
        auto list = doc.find(key);
        if (list == doc.end() || !list->is_array()) continue;
        for (const nlohmann::json& item : *list) {
            if (!item.is_object()) continue;
            auto uri = item.find("uri");
            if (uri == item.end() || !uri->is_string()) continue;
            const std::string& u = uri->get_ref<const std::string&>();
            if (u.empty() || u.rfind("data:", 0) == 0 || u.find("://") != std::string::npos) continue;
            std::string name;
            if (!import_detail::uri_path(u, name)) continue;  // refused by name by the import (GltfData)
            const ReferenceCheck check = check_reference(base_dir, fs::path(name), allow_outside);
            if (check.code == &kFileOutsideFolder || check.code == &kNotAFile) continue;
            out.push_back(check.path);
        }
    }
    // Paths compare by their text, so equal names sort together whatever the file order was.
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void import_bytes(const fs::path& file, std::span<const uint8_t> bytes, const ImportOptions& options,
                  ImportResult& result);
void finish_scene(ImportResult& result, Reporter& report);

std::string lower_extension(const fs::path& file) {
    std::string ext = file.extension().string();
    if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

}  // namespace

unsigned int assimp_postprocess_flags() {
    // Triangulate: polygons to triangles (FBX). JoinIdenticalVertices: FBX stores a vertex per
    // face corner, and glTF primitives that share one vertex buffer each get all of it; joining
    // keeps only the vertices a mesh's triangles use (UV seams stay split: welding is later).
    // FlipUVs: UVs with a top-left origin, as glTF stores them. ValidateDataStructure: Assimp's
    // own consistency check, so a broken file fails there and not in the converter.
    return aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_FlipUVs |
           aiProcess_ValidateDataStructure;
}

ImportResult import_scene(const fs::path& file, const ImportOptions& options) {
    ImportResult result;
    Reporter report(file.string(), result.issues);
    FileBytes file_bytes;
    if (!read_model_file(file, options.max_file_bytes, file_bytes, report)) {
        result.scene.source_path = file.string();
        return result;
    }
    import_bytes(file, file_bytes.span(), options, result);
    return result;
}

ImportResult import_scene(const fs::path& file, std::span<const uint8_t> bytes, const ImportOptions& options) {
    ImportResult result;
    Reporter report(file.string(), result.issues);
    // The limits read_model_file applies, for bytes read elsewhere.
    if (bytes.empty()) {
        report.add(kFileEmpty, "the file is empty (0 bytes)");
    } else if (uint64_t(bytes.size()) > options.max_file_bytes) {
        report.add(kFileTooLarge, "the file has " + std::to_string(bytes.size()) + " bytes, more than the limit of " +
                                         std::to_string(options.max_file_bytes));
    } else {
        import_bytes(file, bytes, options, result);
        return result;
    }
    result.scene.source_path = file.string();
    return result;
}

namespace {

void import_bytes(const fs::path& file, std::span<const uint8_t> bytes, const ImportOptions& options,
                  ImportResult& result) {
    Scene& scene = result.scene;
    scene.source_path = file.string();
    Reporter report(file.string(), result.issues);

    import_detail::GltfDocument gltf;
    gltf.base_dir = file.parent_path();
    gltf.allow_outside_folder = options.allow_outside_folder;
    gltf.max_buffer_bytes = options.max_file_bytes;
    gltf.keep_animations = true;  // the native reader's clips
    gltf.animations_as_text = true;
    bool have_gltf = false;     // a glTF 2.0 document whose JSON was checked
    const char* memory_hint = nullptr;
    Container container = sniff(bytes);
    switch (container) {
        case Container::glb: {
            std::string_view json_text;
            if (!import_detail::split_glb(bytes, json_text, gltf.bin, report)) return;
            if (!import_detail::parse_gltf_json(json_text, gltf, report)) return;
            result.external_files = external_files(gltf.json, gltf.base_dir, options.allow_outside_folder);
            gltf.glb = true;
            have_gltf = true;
            scene.format = declares_vrm(gltf.json) ? "vrm" : "glb";
            break;
        }
        case Container::gltf_json: {
            std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
            if (!import_detail::parse_gltf_json(text, gltf, report)) return;
            result.external_files = external_files(gltf.json, gltf.base_dir, options.allow_outside_folder);
            const auto asset = gltf.json.find("asset");
            if (asset == gltf.json.end() || !asset->is_object()) {
                report.add(kUnknownFormat, "JSON, but not glTF (no \"asset\" object)");
                return;
            }
            auto version = asset->find("version");
            bool v2 = version != asset->end() && version->is_string() && version->get<std::string>().rfind("2", 0) == 0;
            scene.format = declares_vrm(gltf.json) ? "vrm" : "gltf";
            // glTF 1.0 goes to Assimp's own reader by path; the checks below are for 2.0.
            have_gltf = v2;
            if (!v2 && !import_detail::check_gltf1(gltf, report)) return;
            break;
        }
        case Container::fbx:
            scene.format = "fbx";
            memory_hint = "fbx";
            break;
        case Container::other:
            scene.format = lower_extension(file);
            if (!import_detail::precheck_model(bytes, report)) return;
            break;
    }
    if (have_gltf) {
        import_detail::GltfData gltf_data(gltf, report);
        if (!import_detail::check_gltf(gltf, gltf_data, report)) return;
        std::vector<int> scene_of_gltf;
        if (!import_detail::read_gltf_scene(gltf, gltf_data, options, scene, scene_of_gltf, report)) {
            if (!report.failed())  // every refusal names its element; this only guards that promise
                report.add(kImportFailed, "a buffer the glTF's meshes, skins or animations need could not be read");
            return;
        }
        import_detail::read_declared_springs(gltf.json, scene_of_gltf, scene, report);
        finish_scene(result, report);
        return;
    }

    import_detail::AssimpRequest request;
    request.file = &file;
    request.bytes = bytes;
    request.memory_hint = memory_hint;
    request.options = &options;
    request.scene = &scene;
    request.issues = &result.issues;
    if (!import_detail::import_through_assimp_module(request, report)) return;
    finish_scene(result, report);
}

/// What every reader's Scene goes through last: the invariants, at least one triangle, and the
/// warnings the Scene keeps.
void finish_scene(ImportResult& result, Reporter& report) {
    Scene& scene = result.scene;
    if (!enforce_scene_invariants(scene, result.issues)) return;
    // Meshes with only lines or points stay (their line_count says what was dropped), but a
    // model needs at least one triangle.
    bool any_triangle = false;
    for (const Mesh& mesh : scene.meshes) any_triangle = any_triangle || mesh.triangle_count() > 0;
    if (!any_triangle) {
        report.add(kNoMeshes, "the model has no triangles in its scene; nothing to build cloth from");
        return;
    }
    for (const Issue& issue : result.issues)
        if (issue.severity != Severity::error) scene.warnings.push_back(issue.message);
}

}  // namespace

}  // namespace weft
