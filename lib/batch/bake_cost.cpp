#include "batch/bake_cost.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <map>
#include <set>
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

namespace {

/// What the last bake's report says each model cost, read as it streams by (nlohmann's SAX
/// interface): the report of a library is hundreds of megabytes, and the driver keeps only a name
/// and a number a model (docs/measurements.md#the-cost-curve-a-library-of-10-to-1000-models).
class LastSeconds final : public nlohmann::json::json_sax_t {
public:
    explicit LastSeconds(bool validate) : validate_(validate) {}

    /// The seconds of the models the last run built (not those it found unchanged: they took no
    /// time then), or none when the report was not one of a bake with the same validate.
    std::map<std::string, double> result() {
        if (!same_validate_) return {};
        std::map<std::string, double> out;
        for (auto& [input, s] : seconds_)
            if (!unchanged_.count(input)) out.emplace(input, s);
        return out;
    }

    bool null() override { return true; }
    bool boolean(bool b) override {
        const std::string at = here();
        if (at == "/validate") same_validate_ = b == validate_;
        if (at == "/models/[]/unchanged") row_unchanged_ = b;
        return true;
    }
    bool number_integer(number_integer_t n) override { return number(static_cast<double>(n)); }
    bool number_unsigned(number_unsigned_t n) override { return number(static_cast<double>(n)); }
    bool number_float(number_float_t n, const string_t&) override { return number(n); }
    bool string(string_t& text) override {
        const std::string at = here();
        if (at == "/models/[]/input" || at == "/timings/models/[]/input") row_input_ = text;
        if (at == "/models/[]/status") row_unchanged_ = row_unchanged_ || text == "skipped";  // before weft.bake-report/2
        return true;
    }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return enter(false); }
    bool end_object() override {
        if (path_ == "/models/[]" && !row_input_.empty() && row_unchanged_) unchanged_.insert(row_input_);
        if (path_ == "/timings/models/[]" && !row_input_.empty() && row_seconds_ >= 0) seconds_[row_input_] = row_seconds_;
        return leave();
    }
    bool start_array(std::size_t) override { return enter(true); }
    bool end_array() override { return leave(); }
    bool key(string_t& k) override {
        key_ = k;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    /// Where a value is: its container's path and its key ("[]" for an array's element).
    std::string here() const { return in_array_.empty() ? std::string() : path_ + "/" + (in_array_.back() ? "[]" : key_); }
    bool number(double v) {
        if (here() == "/timings/models/[]/seconds") row_seconds_ = v;
        return true;
    }
    bool enter(bool array) {
        stack_.push_back(path_.size());
        path_ = here();
        in_array_.push_back(array);
        if (path_ == "/models/[]" || path_ == "/timings/models/[]") row_input_.clear(), row_unchanged_ = false, row_seconds_ = -1;
        return stack_.size() < 64;  // no report nests deeper: another file, read no further
    }
    bool leave() {
        path_.resize(stack_.back());
        stack_.pop_back();
        in_array_.pop_back();
        return true;
    }

    bool validate_, same_validate_ = false;
    std::string path_, key_;
    std::vector<size_t> stack_;
    std::vector<bool> in_array_;
    std::string row_input_;
    bool row_unchanged_ = false;
    double row_seconds_ = -1;
    std::map<std::string, double> seconds_;
    std::set<std::string> unchanged_;
};

}  // namespace

std::map<std::string, double> last_bake_seconds(const fs::path& report, bool validate) {
    // O_NONBLOCK: a FIFO in the report's place must not stall the bake (fstat then finds it is no
    // regular file and it is no history); a regular file's reads are unaffected.
    const int fd = ::open(report.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return {};
    struct stat st{};
    std::FILE* file = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? ::fdopen(fd, "rb") : nullptr;
    if (!file) {
        ::close(fd);
        return {};
    }
    LastSeconds reader(validate);
    // Any other shape (a report edited by hand, another tool's file) is no history: never an error.
    const bool read = nlohmann::json::sax_parse(file, &reader, nlohmann::json::input_format_t::json, false);
    std::fclose(file);
    return read ? reader.result() : std::map<std::string, double>{};
}

std::vector<double> model_costs(const std::vector<fs::path>& models, const std::vector<std::string>& relative,
                                const fs::path& report, bool validate) {
    const std::map<std::string, double> seconds = last_bake_seconds(report, validate);
    std::vector<double> cost(models.size(), 0);
    // Every model timed (a re-bake into the same OUT): no file is read, the driver starts its
    // workers that much sooner.
    if (std::all_of(relative.begin(), relative.end(), [&](const std::string& r) { return seconds.count(r) > 0; })) {
        for (size_t k = 0; k < models.size(); ++k) cost[k] = seconds.at(relative[k]);
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
