#include "io/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace weft {

namespace fs = std::filesystem;

namespace {
std::atomic<long> temporary_owner_pid{0};       // 0: this process
std::atomic<uint64_t> temporary_counter{0};
}  // namespace

void set_temporary_owner(long owner_pid, uint64_t first_number) {
    temporary_owner_pid = owner_pid;
    temporary_counter = first_number;
}

namespace {

/// The temporary's descriptor and what went wrong writing it: the first error is kept, later
/// writes are skipped, so a producer need not check after every piece.
struct TemporaryOutput {
    int fd = -1;
    std::string error;
    std::string buffer;  ///< pieces gathered into large writes

    void write_all(const char* data, size_t size, const fs::path& path) {
        size_t done = 0;
        while (error.empty() && done < size) {
            const ssize_t n = ::write(fd, data + done, size - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) error = "cannot write " + path.string() + ": " + std::strerror(errno);
            else done += static_cast<size_t>(n);
        }
    }
};

constexpr size_t kWriteBlock = size_t(1) << 16;

}  // namespace

std::string write_file_atomic(const fs::path& path, const std::function<void(const TextSink&)>& produce) {
    std::error_code ec;
    if (path.has_parent_path()) {
        fs::create_directories(path.parent_path(), ec);
        if (ec) return "cannot create folder " + path.parent_path().string() + ": " + ec.message();
    }
    // Unique per process and call, so parallel writers in one folder never share a temporary.
    const long owner = temporary_owner_pid.load();
    fs::path tmp = path;
    tmp += ".tmp." + std::to_string(owner > 0 ? owner : static_cast<long>(::getpid())) + "." +
           std::to_string(temporary_counter++);
    // The target is replaced only when it is a regular file (or absent): a rename over a FIFO, a
    // device node or a symbolic link would put a regular file where something else was (as root,
    // /dev/null). Checked again just before the rename.
    if (std::string why = refuse_special_output(path); !why.empty()) return why;
    // O_EXCL | O_NOFOLLOW: a temporary name planted in advance (a link to elsewhere) is never opened.
    TemporaryOutput out;
    out.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out.fd < 0) return "cannot write " + path.string() + ": " + std::strerror(errno);
    const TextSink sink = [&](std::string_view piece) {
        if (!out.error.empty()) return;
        if (piece.size() >= kWriteBlock) {
            out.write_all(out.buffer.data(), out.buffer.size(), path);
            out.buffer.clear();
            out.write_all(piece.data(), piece.size(), path);
            return;
        }
        out.buffer.append(piece);
        if (out.buffer.size() >= kWriteBlock) {
            out.write_all(out.buffer.data(), out.buffer.size(), path);
            out.buffer.clear();
        }
    };
    try {
        produce(sink);
    } catch (...) {  // the producer's failure (out of memory, say) leaves no temporary behind
        ::close(out.fd);
        ::unlink(tmp.c_str());
        throw;
    }
    out.write_all(out.buffer.data(), out.buffer.size(), path);
    if (!out.error.empty()) {
        ::close(out.fd);
        ::unlink(tmp.c_str());
        return out.error;
    }
    // No fsync: the rename alone makes a killed process leave the target complete or absent (the
    // written pages outlive the process). fsync adds only power-loss durability, which build outputs
    // do not promise (compilers and Ninja do not sync theirs), and it cost 15-20 ms of wall time per
    // baked model on a shared disk, more than the bake itself (tests/bench/bench_bake.cpp).
    if (::close(out.fd) != 0) {
        std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return "cannot write " + path.string() + ": " + why;
    }
    if (std::string why = refuse_special_output(path); !why.empty()) {
        ::unlink(tmp.c_str());
        return why;
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return "cannot rename into " + path.string() + ": " + why;
    }
    return {};
}

std::string write_file_atomic(const fs::path& path, std::span<const uint8_t> bytes) {
    return write_file_atomic(path, [&](const TextSink& sink) {
        sink(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    });
}

std::string write_file_atomic(const fs::path& path, std::string_view text) {
    return write_file_atomic(path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

const char* file_kind_name(const fs::path& path) {
    struct stat st{};
    if (::lstat(path.c_str(), &st) != 0) return nullptr;
    switch (st.st_mode & S_IFMT) {
        case S_IFREG: return nullptr;
        case S_IFDIR: return "a folder";
        case S_IFLNK: return "a symbolic link";
        case S_IFIFO: return "a FIFO";
        case S_IFCHR: return "a character device";
        case S_IFBLK: return "a block device";
        case S_IFSOCK: return "a socket";
    }
    return "not a regular file";
}

std::string refuse_special_output(const fs::path& path) {
    const char* kind = file_kind_name(path);
    if (!kind) return {};
    return path.string() + ": is " + kind + ", not a regular file; weft replaces only regular files (remove it or "
                           "choose another path)";
}

namespace {
/// What a non-regular file is called, from its st_mode (fstat of an open descriptor).
const char* mode_kind_name(mode_t mode) {
    switch (mode & S_IFMT) {
        case S_IFDIR: return "a folder";
        case S_IFIFO: return "a FIFO";
        case S_IFCHR: return "a character device";
        case S_IFBLK: return "a block device";
        case S_IFSOCK: return "a socket";
    }
    return "not a regular file";
}
}  // namespace

std::string read_file(const fs::path& path, std::vector<uint8_t>& out, uint64_t max_bytes) {
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever; the type is checked
    // on the open descriptor (no window between the check and the open), and only a regular file
    // is read.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR) return path.string() + ": no such file";
        if (errno == ELOOP) return path.string() + ": a symbolic link loop";
        if (errno == ENXIO) return path.string() + ": is a socket or a device with nothing behind it, not a regular file";
        return path.string() + ": cannot open: " + std::strerror(errno);
    }
    struct stat st{};
    if (::fstat(fd, &st) != 0) {
        std::string why = std::strerror(errno);
        ::close(fd);
        return path.string() + ": cannot stat: " + why;
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        if (S_ISDIR(st.st_mode)) return path.string() + ": is a directory, not a file";
        return path.string() + ": is " + mode_kind_name(st.st_mode) + ", not a regular file; weft reads only regular files";
    }
    // A regular file never blocks; reads stay blocking so a short read means the file shrank.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    if (static_cast<uint64_t>(st.st_size) > max_bytes) {
        ::close(fd);
        return path.string() + ": larger than " + std::to_string(max_bytes) + " bytes";
    }
    out.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < out.size()) {
        ssize_t n = ::read(fd, out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            std::string why = n < 0 ? std::strerror(errno) : "file shrank while reading";
            ::close(fd);
            return path.string() + ": cannot read: " + why;
        }
        done += static_cast<size_t>(n);
    }
    ::close(fd);
    return {};
}

long temporary_owner(std::string_view name) {
    const size_t tmp = name.rfind(".tmp.");
    if (tmp == std::string_view::npos) return 0;
    const std::string_view rest = name.substr(tmp + 5);  // "<pid>.<n>"
    const size_t dot = rest.find('.');
    if (dot == 0 || dot == std::string_view::npos || dot + 1 == rest.size()) return 0;
    long pid = 0;
    for (size_t i = 0; i < rest.size(); ++i) {
        if (i == dot) continue;
        if (rest[i] < '0' || rest[i] > '9') return 0;
        if (i < dot && pid < 100000000) pid = pid * 10 + (rest[i] - '0');
    }
    return pid;
}

size_t remove_stale_temporaries(const fs::path& dir) {
    size_t removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const long pid = temporary_owner(it->path().filename().string());
        if (pid <= 0 || pid == static_cast<long>(::getpid()) || pid == temporary_owner_pid.load()) continue;
        // kill(pid, 0) fails with ESRCH only when no such process exists: a live writer keeps its file.
        if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
        std::error_code rm;
        if (fs::remove(it->path(), rm)) ++removed;
    }
    return removed;
}

}  // namespace weft
