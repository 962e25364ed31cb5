// The Assimp module's side (weft-assimp.so, scene/assimp_module.h): Assimp reads what weft does not
// read itself, every file it opens confined to the model's folder, and the aiScene is converted
// (assimp_convert.cpp). The only code that calls into libassimp; the weft program loads it on demand.
//
// What Assimp 5.2.5 does by default and why it is not used here (measured on the third-party test models):
//   - aiProcess_RemoveRedundantMaterials merges equal materials: Godette's `Body` vanishes into
//     `Face`. Not used: material slot names are how garments are found (docs/growth.md#finding-the-geometry).
//   - aiProcess_FindDegenerates turns triangles with repeated corners into lines that
//     aiProcess_SortByPType splits into a separate mesh (the Couch's 17). Neither is used: such
//     triangles stay triangles so the sheet builder can refuse them by name.
//   - FBX is read from the bytes import_scene already read (the "fbx" hint), not opened again.
//   - The FBX reader keeps the file's units and axes (UnitScaleFactor and UpAxis only land in the
//     scene metadata); aiProcess_GlobalScale would scale vertices and node translations but not a
//     node's own scale. The fix is applied once, at the root (source_correction, assimp_convert.cpp).
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include "scene/assimp_module.h"
#include "scene/confine.h"
#include "scene/import_codes.h"
#include "scene/import_detail.h"

namespace weft::import_detail {

namespace {

namespace fs = std::filesystem;

/// A read-only stream over a FILE* the IO system opened (Assimp's own DefaultIOStream cannot be
/// built from one outside Assimp).
class FileStream : public Assimp::IOStream {
public:
    explicit FileStream(FILE* file) : file_(file) {}
    ~FileStream() override { std::fclose(file_); }
    size_t Read(void* buffer, size_t size, size_t count) override {
        return size && count ? std::fread(buffer, size, count, file_) : 0;
    }
    size_t Write(const void*, size_t, size_t) override { return 0; }
    aiReturn Seek(size_t offset, aiOrigin origin) override {
        const int whence = origin == aiOrigin_SET ? SEEK_SET : origin == aiOrigin_CUR ? SEEK_CUR : SEEK_END;
        return ::fseeko(file_, off_t(offset), whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
    }
    size_t Tell() const override { return size_t(::ftello(file_)); }
    size_t FileSize() const override {
        struct stat st{};
        return ::fstat(::fileno(file_), &st) == 0 ? size_t(st.st_size) : 0;
    }
    void Flush() override {}

private:
    FILE* file_;
};

/// Every file Assimp opens goes through here: relative names resolve against the model's folder
/// (absolute, so a relative model path is not joined to its folder twice), each is confined to
/// that folder (scene/confine.h) and opened without blocking. What it refuses is kept, so the
/// import names each file as an error even where Assimp only warns and carries on.
class ConfinedIOSystem : public Assimp::IOSystem {
public:
    struct Refusal {
        std::string name;
        const IssueCode* code;
        std::string problem;
    };

    ConfinedIOSystem(fs::path folder, fs::path model, bool allow_outside)
        : folder_(std::move(folder)), model_(std::move(model)), allow_outside_(allow_outside) {}

    bool Exists(const char* file) const override {
        const ReferenceCheck check = check_reference(folder_, fs::path(file), allow_outside_);
        return !check.code;
    }
    char getOsSeparator() const override { return '/'; }

    Assimp::IOStream* Open(const char* file, const char* mode = "rb") override {
        if (!mode || mode[0] != 'r') return nullptr;  // an import never writes
        const fs::path name(file);
        // The model itself was named by the user, so it may be a link to anywhere.
        ReferenceCheck check = check_reference(folder_, name, allow_outside_ || name == model_);
        std::string problem = check.problem;
        FILE* stream = nullptr;
        if (!check.code) {
            const int fd = open_regular_file(check.path, problem);
            if (fd < 0) {
                check.code = &kReferencedFileMissing;
            } else if (!(stream = ::fdopen(fd, "rb"))) {
                ::close(fd);
                check.code = &kReferencedFileMissing;
                problem = std::string("cannot be read: ") + std::strerror(errno);
            }
        }
        if (!stream) {
            // Assimp probes for companions that need not exist (an MD5 mesh's .md5anim and
            // .md5camera, named after the model); anything else the model names must be there.
            std::error_code ec;
            const bool probe = check.path.parent_path() == model_.parent_path() &&
                               check.path.stem() == model_.stem() && !fs::exists(check.path, ec);
            if (!probe) note(std::string(file), check.code, problem);
            return nullptr;
        }
        return new FileStream(stream);
    }
    void Close(Assimp::IOStream* stream) override { delete stream; }

    const std::vector<Refusal>& refused() const { return refused_; }

private:
    fs::path folder_, model_;
    bool allow_outside_;
    std::vector<Refusal> refused_;

    void note(std::string name, const IssueCode* code, const std::string& problem) {
        for (const Refusal& r : refused_)
            if (r.name == name) return;
        refused_.push_back({std::move(name), code, problem});
    }
};

}  // namespace

bool import_with_assimp(const AssimpRequest& request) {
    const fs::path& file = *request.file;
    const ImportOptions& options = *request.options;
    Scene& scene = *request.scene;
    Reporter report(file.string(), *request.issues);
    const std::span<const uint8_t> bytes = request.bytes;
    const char* memory_hint = request.memory_hint;
    Assimp::Importer importer;
    // One node per FBX node: pivots folded into the node transform instead of "$AssimpFbx$" helpers.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    std::error_code ec;
    const fs::path model_path = fs::absolute(file, ec);
    auto* io = new ConfinedIOSystem(model_path.parent_path(), model_path, options.allow_outside_folder);
    importer.SetIOHandler(io);  // the importer owns it
    // Every file Assimp was refused is an error naming it, whether Assimp failed or carried on.
    auto report_refused = [&] {
        for (const ConfinedIOSystem::Refusal& r : io->refused())
            report.add(*r.code, "the model names '" + r.name + "', which " + r.problem);
        return !io->refused().empty();
    };
    const aiScene* ai = nullptr;
    // The join runs after the finite-position check below (the flags are otherwise the same).
    const unsigned int read_flags = assimp_postprocess_flags() & ~unsigned(aiProcess_JoinIdenticalVertices);
    try {
        ai = memory_hint ? importer.ReadFileFromMemory(bytes.data(), bytes.size(), read_flags, memory_hint)
                         : importer.ReadFile(model_path.string(), read_flags);
    } catch (const std::exception& e) {
        if (!report_refused()) report.add(kImportFailed, std::string("Assimp failed: ") + e.what());
        return false;
    }
    if (report_refused()) return false;
    if (!ai) {
        std::string why = importer.GetErrorString();
        // Assimp quotes the absolute path it was given: the model's name stands at the head of the
        // message already, and an output holds no absolute path (docs/commands.md#hermetic-outputs).
        for (const std::string quoted = model_path.string(); !quoted.empty();) {
            const size_t at = why.find(quoted);
            if (at == std::string::npos) break;
            why.replace(at, quoted.size(), model_path.filename().string());
        }
        if (why.find("No suitable reader") != std::string::npos)
            report.add(kUnknownFormat, "not a model file any reader recognises (Assimp: " + why + ")");
        else
            report.add(kImportFailed, "Assimp could not read it: " + why);
        return false;
    }
    if (!ai->mRootNode || ai->mNumMeshes == 0) {
        report.add(kNoMeshes, "the model has no meshes; nothing to build cloth from");
        return false;
    }
    // Non-finite positions are refused before the join: JoinIdenticalVertices compares positions,
    // and a NaN one would be merged into a finite neighbour and vanish unreported.
    for (unsigned m = 0; m < ai->mNumMeshes; ++m) {
        const aiMesh* mesh = ai->mMeshes[m];
        if (!mesh || !mesh->mVertices) continue;
        for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
            const aiVector3D& x = mesh->mVertices[v];
            if (std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z)) continue;
            const unsigned material = mesh->mMaterialIndex;
            const std::string material_name =
                material < ai->mNumMaterials && ai->mMaterials[material] ? ai->mMaterials[material]->GetName().C_Str() : "";
            report.add(kNonFinitePosition,
                       "mesh '" + std::string(mesh->mName.C_Str()) + "'" +
                           (material_name.empty() ? "" : " (material '" + material_name + "')") + ": vertex " +
                           std::to_string(v) + " position is (" + std::to_string(x.x) + ", " + std::to_string(x.y) +
                           ", " + std::to_string(x.z) + "); fix the mesh in its authoring tool",
                       "/meshes/" + std::string(mesh->mName.C_Str()) + "/vertices/" + std::to_string(v));
            return false;
        }
    }
    try {
        ai = importer.ApplyPostProcessing(aiProcess_JoinIdenticalVertices);
    } catch (const std::exception& e) {
        ai = nullptr;
    }
    if (!ai) {
        report.add(kImportFailed, std::string("Assimp could not join vertices: ") + importer.GetErrorString());
        return false;
    }
    const Mat4 correction = source_correction(*ai, scene, report);
    return convert_scene(*ai, correction, options, scene, report);
}

}  // namespace weft::import_detail

__attribute__((visibility("default"))) const char* weft_assimp_module_stamp() {
    static const std::string stamp = weft::import_detail::assimp_module_stamp();
    return stamp.c_str();
}

__attribute__((visibility("default"))) bool weft_assimp_import(const weft::import_detail::AssimpRequest* request) {
    return weft::import_detail::import_with_assimp(*request);
}
