#include "scene/confine.h"
#include "scene/import_codes.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace weft {

namespace fs = std::filesystem;

namespace {

/// Whether `inner` is `outer` or below it; both absolute and normal (no `.`, `..`, links).
bool path_within(const fs::path& inner, const fs::path& outer) {
    auto i = inner.begin();
    for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
        if (o->empty()) continue;  // a trailing separator
        if (i == inner.end() || *i != *o) return false;
    }
    return true;
}

}  // namespace

ReferenceCheck check_reference(const fs::path& folder, const fs::path& name, bool allow_outside) {
    ReferenceCheck out;
    out.path = name.is_absolute() ? name : folder / name;
    std::error_code ec;
    if (!allow_outside) {
        // Links are followed as far as the path exists (weakly_canonical), so a link inside the
        // folder that points out of it is outside; `..` is resolved the same way.
        const fs::path root = fs::weakly_canonical(fs::absolute(folder.empty() ? fs::path(".") : folder, ec), ec);
        const fs::path target = ec ? fs::path() : fs::weakly_canonical(fs::absolute(out.path, ec), ec);
        if (ec || !path_within(target, root)) {
            out.code = &kFileOutsideFolder;
            out.problem = "resolves to " + (ec ? out.path.string() : target.string()) +
                          ", outside the model's folder " + (ec ? folder.string() : root.string()) +
                          "; a model reads only files in its own folder (pass --allow-outside-folder to trust it)";
            return out;
        }
    }
    struct stat st{};
    if (::stat(out.path.c_str(), &st) != 0) {
        const int err = errno;
        out.code = &kReferencedFileMissing;
        out.problem = err == ENOENT || err == ENOTDIR ? "does not exist (looked for " + out.path.string() + ")"
                                                      : "cannot be looked at: " + std::string(std::strerror(err));
        return out;
    }
    if (!S_ISREG(st.st_mode)) {
        out.code = &kNotAFile;
        out.problem = S_ISDIR(st.st_mode) ? "is a directory, not a file" : "is not a regular file (a FIFO, device or socket)";
        return out;
    }
    return out;
}

int open_regular_file(const fs::path& path, std::string& problem) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        problem = std::string("cannot be opened: ") + std::strerror(errno);
        return -1;
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        problem = "is not a regular file (a FIFO, device or socket)";
        return -1;
    }
    // Regular files ignore O_NONBLOCK; clear it anyway so stdio sees an ordinary descriptor.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

}  // namespace weft
