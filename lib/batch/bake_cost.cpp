#include "batch/bake_cost.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <map>
#include <string_view>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/atomic_file.h"

namespace weft {

namespace fs = std::filesystem;

namespace {

/// Every "uri" string value in a glTF's text, found by a scan rather than a parse (a .gltf with its
/// buffers inline is megabytes of base64): an estimate needs no more.
std::vector<std::string> uris(std::string_view text) {
    std::vector<std::string> found;
    constexpr std::string_view key = "\"uri\"";
    for (size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + key.size())) {
        size_t p = at + key.size();
        while (p < text.size() && (text[p] == ' ' || text[p] == '\t' || text[p] == '\n' || text[p] == '\r' || text[p] == ':')) ++p;
        if (p >= text.size() || text[p] != '"') continue;
        const size_t end = text.find('"', p + 1);
        if (end == std::string_view::npos) break;
        const std::string_view uri = text.substr(p + 1, end - p - 1);
        if (uri.rfind("data:", 0) != 0 && uri.find(':') == std::string_view::npos) found.emplace_back(uri);
        at = end;
    }
    return found;
}

/// A file's bytes read into pages of their own (empty when it cannot be read), given back to the
/// system when done. The driver estimates costs before it forks its workers: a heap block it had
/// filled (a .gltf with its buffers inline is megabytes) would be reused by every worker's
/// allocations, each first write a copy-on-write fault copying the page (1,150 such faults a folder
/// bake at -j 1, most of them one memset over the freed block). Read, not mapped from the file: a
/// file truncated while mapped would end the bake with SIGBUS.
class PrivateCopy {
public:
    explicit PrivateCopy(const fs::path& path) {
        // O_NONBLOCK: a FIFO put in the model's place since it was listed must not stall the driver
        // (fstat then finds it is no regular file); a regular file's reads are unaffected.
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) return;
        struct stat st{};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= (off_t(256) << 20)) {
            capacity_ = static_cast<size_t>(st.st_size);
            void* at = ::mmap(nullptr, capacity_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (at != MAP_FAILED) {
                data_ = static_cast<char*>(at);
                while (size_ < capacity_) {
                    const ssize_t got = ::read(fd, data_ + size_, capacity_ - size_);
                    if (got < 0 && errno == EINTR) continue;
                    if (got <= 0) break;
                    size_ += static_cast<size_t>(got);
                }
            }
        }
        ::close(fd);
    }
    ~PrivateCopy() {
        if (data_) ::munmap(data_, capacity_);
    }
    PrivateCopy(const PrivateCopy&) = delete;
    PrivateCopy& operator=(const PrivateCopy&) = delete;

    std::string_view view() const { return {data_, size_}; }

private:
    char* data_ = nullptr;
    size_t size_ = 0, capacity_ = 0;
};

}  // namespace

uintmax_t model_input_bytes(const fs::path& model) {
    std::error_code ec;
    uintmax_t bytes = fs::file_size(model, ec);
    if (ec) return 0;
    std::string ext = model.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext != ".gltf") return bytes;
    const PrivateCopy text(model);
    for (const std::string& uri : uris(text.view())) {
        const fs::path beside = model.parent_path() / uri;
        if (!fs::is_regular_file(beside, ec)) continue;
        const uintmax_t size = fs::file_size(beside, ec);
        if (!ec) bytes += size;
    }
    return bytes;
}

std::vector<double> model_costs(const std::vector<fs::path>& models, const std::vector<std::string>& relative,
                                const fs::path& report, bool validate) {
    std::map<std::string, double> seconds;  // the last bake's, of the models it built
    std::vector<uint8_t> bytes;
    if (read_file(report, bytes, uint64_t(64) << 20).empty()) {
        const nlohmann::json j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
        // Any other shape (a report edited by hand, another tool's file) is no history: never an error.
        if (j.is_object() && j.contains("validate") && j["validate"].is_boolean() && j["validate"].get<bool>() == validate &&
            j.contains("models") && j["models"].is_array() &&
            j.contains("timings") && j["timings"].is_object() && j["timings"].contains("models") && j["timings"]["models"].is_array()) {
            // A model the last run found unchanged took no time to bake then (a report before
            // weft.bake-report/2 said "skipped").
            std::map<std::string, bool> unchanged;
            for (const nlohmann::json& m : j["models"])
                if (m.is_object() && m.contains("input") && m["input"].is_string())
                    unchanged[m["input"].get<std::string>()] =
                        (m.contains("unchanged") && m["unchanged"] == true) || (m.contains("status") && m["status"] == "skipped");
            for (const nlohmann::json& t : j["timings"]["models"])
                if (t.is_object() && t.contains("input") && t["input"].is_string() && t.contains("seconds") && t["seconds"].is_number() &&
                    t["seconds"].get<double>() >= 0) {
                    const std::string input = t["input"].get<std::string>();
                    if (!unchanged[input]) seconds[input] = t["seconds"].get<double>();
                }
        }
    }
    std::vector<double> cost(models.size(), 0);
    // Every model timed (a re-bake into the same OUT): no file is read, the driver starts its
    // workers that much sooner.
    if (std::all_of(relative.begin(), relative.end(), [&](const std::string& r) { return seconds.count(r) > 0; })) {
        for (size_t k = 0; k < models.size(); ++k) cost[k] = seconds[relative[k]];
        return cost;
    }
    std::vector<uintmax_t> size(models.size(), 0);
    double timed = 0, timed_bytes = 0;
    for (size_t k = 0; k < models.size(); ++k) {
        size[k] = model_input_bytes(models[k]);
        const auto it = seconds.find(relative[k]);
        if (it == seconds.end()) continue;
        cost[k] = it->second;
        timed += it->second;
        timed_bytes += static_cast<double>(size[k]);
    }
    const double per_byte = timed > 0 && timed_bytes > 0 ? timed / timed_bytes : 1e-6;
    for (size_t k = 0; k < models.size(); ++k)
        if (!seconds.count(relative[k])) cost[k] = static_cast<double>(size[k]) * per_byte;
    return cost;
}

}  // namespace weft
