// The caller's side of the Assimp module (scene/assimp_module.h): found, loaded and checked once per
// process, the first time a model needs it.
#include "scene/assimp_module.h"

#include <cstdlib>
#include <mutex>

#include <dlfcn.h>
#include <unistd.h>

#include "io/utf8_text.h"
#include "scene/import_codes.h"

// Defined when the module's objects are linked into the program (the test suites, the benchmarks):
// then they are called directly and nothing is loaded. Weak, so the weft program links without them.
#pragma weak weft_assimp_import
#pragma weak weft_assimp_module_stamp
#pragma weak weft_draco_decode

namespace weft::import_detail {
namespace {

namespace fs = std::filesystem;

using ImportFunction = bool (*)(const AssimpRequest*);
using DracoFunction = bool (*)(DracoRequest*);
using StampFunction = const char* (*)();

/// The module as this process found it: its entry points, or why there are none.
struct LoadedModule {
    ImportFunction import = nullptr;
    DracoFunction draco = nullptr;
    std::string problem;  ///< what went wrong, naming every file tried
};

/// The folder of the running program (not of the library: both are linked into it).
fs::path program_folder() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : self.parent_path();
}

LoadedModule load_module() {
    LoadedModule out;
    if (&weft_assimp_import != nullptr && &weft_draco_decode != nullptr) {
        out.import = &weft_assimp_import;
        out.draco = &weft_draco_decode;
        return out;
    }
    std::string tried;
    for (const fs::path& candidate : assimp_module_candidates()) {
        std::error_code ec;
        if (!fs::exists(candidate, ec)) {
            tried += (tried.empty() ? "" : "; ") + candidate.string() + ": no such file";
            continue;
        }
        // RTLD_LOCAL: Assimp's symbols stay the module's own; nothing later binds to them by chance.
        void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = ::dlerror();
            tried += (tried.empty() ? "" : "; ") + std::string(why ? why : candidate.string() + ": cannot be loaded");
            continue;
        }
        auto stamp = reinterpret_cast<StampFunction>(::dlsym(handle, "weft_assimp_module_stamp"));
        auto import = reinterpret_cast<ImportFunction>(::dlsym(handle, "weft_assimp_import"));
        auto draco = reinterpret_cast<DracoFunction>(::dlsym(handle, "weft_draco_decode"));
        if (!stamp || !import || !draco) {
            tried += (tried.empty() ? "" : "; ") + candidate.string() + ": not weft's Assimp module (no weft_assimp_import)";
            ::dlclose(handle);
            continue;
        }
        if (stamp() != assimp_module_stamp()) {
            tried += (tried.empty() ? "" : "; ") + candidate.string() + ": built for another weft (" + stamp() +
                     ", this one is " + assimp_module_stamp() + ")";
            ::dlclose(handle);
            continue;
        }
        out.import = import;  // kept loaded for the rest of the process
        out.draco = draco;
        return out;
    }
    out.problem = tried.empty() ? "no place to look for it" : tried;
    return out;
}

}  // namespace

std::vector<fs::path> assimp_module_candidates() {
    const char* forced = std::getenv("WEFT_ASSIMP_MODULE");
    if (forced && *forced) return {fs::path(forced)};
    const fs::path folder = program_folder();
    if (folder.empty()) return {};
    return {folder / "weft-assimp.so", (folder / WEFT_ASSIMP_MODULE_FROM_BINDIR).lexically_normal()};
}

namespace {

/// The module, loaded once per process on first use.
const LoadedModule& loaded_module() {
    static std::once_flag once;
    static LoadedModule module;
    std::call_once(once, [] { module = load_module(); });
    return module;
}

void report_missing(const LoadedModule& module, const std::string& what, Reporter& report) {
    report.add(kImporterMissing, what + " is read by weft's Assimp module (weft-assimp.so), which could not be loaded (" +
                                     utf8_escaped(module.problem) +
                                     "); reinstall weft, or set WEFT_ASSIMP_MODULE to the module's path");
}

}  // namespace

bool import_through_assimp_module(const AssimpRequest& request, Reporter& report) {
    const LoadedModule& module = loaded_module();
    if (!module.import) {
        report_missing(module, "its format (" + request.scene->format + ")", report);
        return false;
    }
    return module.import(&request);
}

bool decode_draco_through_module(DracoRequest& request, const std::string& what, Reporter& report) {
    const LoadedModule& module = loaded_module();
    if (!module.draco) {
        report_missing(module, what + " (KHR_draco_mesh_compression)", report);
        return false;
    }
    return module.draco(&request);
}

}  // namespace weft::import_detail
