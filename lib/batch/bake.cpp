// weft bake's walk, per-model bake, worker pool, stamps, report and depfile.
#include "batch/bake.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "io/atomic_file.h"
#include "io/format_text.h"
#include "io/utf8_text.h"
#include "outputs/cloth_summary_json.h"
#include "outputs/issue_json.h"
#include "outputs/json_text.h"
#include "batch/bake_cost.h"
#include "batch/bake_stage.h"
#include "outputs/model_output.h"
#include "batch/process_memory.h"
#include "scene/model_formats.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

}  // namespace

bool is_model_file(const fs::path& path) { return is_model_extension(ascii_lower(path.extension().string())); }

namespace {

/// Walks `dir` (an INPUT folder or one below it) into `found`. Folders are listed one at a time, so
/// an unreadable one, a link loop or a special file is one named issue and the walk goes on. Links
/// to folders are not followed (a link can never lead the walk round a loop or out of the tree);
/// links to files are, as before.
void walk_folder(const fs::path& root, const fs::path& dir, size_t k, const fs::path& exclude,
                 std::vector<BakeInput>& found, Issues& issues) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
        issues.push_back(make_issue(kInputUnreadable, utf8_escaped(dir.string()) + ": cannot list the folder: " + ec.message() +
                              "; its models were not baked (the rest of the walk goes on)",
                          ""));
        return;
    }
    std::vector<fs::path> folders;
    for (; it != end; it.increment(ec)) {
        const fs::path path = it->path();
        std::error_code link_ec;
        const fs::file_status own = fs::symlink_status(path, link_ec);
        if (link_ec) continue;  // gone since the listing
        if (fs::is_directory(own)) {
            if (!is_under(path, exclude)) folders.push_back(path);
            continue;
        }
        const bool model = is_model_file(path);
        std::error_code target_ec;
        const fs::file_status target = fs::is_symlink(own) ? fs::status(path, target_ec) : own;
        if (target_ec) {
            if (target_ec == std::errc::too_many_symbolic_link_levels)
                issues.push_back(make_issue(kInputLinkLoop, utf8_escaped(path.string()) + ": a symbolic link loop; skipped (remove or re-point the link)", ""));
            else if (model)
                issues.push_back(make_issue(kInputUnreadable, utf8_escaped(path.string()) + ": a symbolic link to nothing (" + target_ec.message() + "); skipped", ""));
            continue;
        }
        if (!model || fs::is_directory(target)) continue;
        if (!fs::is_regular_file(target)) {
            issues.push_back(make_issue(kInputNotRegular, utf8_escaped(path.string()) + ": is " + (fs::is_fifo(target) ? "a FIFO" : fs::is_socket(target) ? "a socket" : "a device") +
                                  ", not a regular file; not opened, skipped",
                              ""));
            continue;
        }
        found.push_back({path, path.lexically_relative(root).generic_string(), k});
    }
    if (ec)
        issues.push_back(make_issue(kInputUnreadable, utf8_escaped(dir.string()) + ": listing stopped: " + ec.message() + " (the rest of the walk goes on)", ""));
    for (const fs::path& f : folders) walk_folder(root, f, k, exclude, found, issues);
}

}  // namespace

std::vector<BakeInput> walk_inputs(const std::vector<fs::path>& inputs, const fs::path& exclude, Issues& issues) {
    std::vector<BakeInput> found;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const fs::path& in = inputs[k];
        std::error_code ec;
        const fs::file_status st = fs::status(in, ec);
        if (ec && ec == std::errc::too_many_symbolic_link_levels) {
            issues.push_back(make_issue(kInputLinkLoop, utf8_escaped(in.string()) + ": a symbolic link loop", ""));
        } else if (fs::is_regular_file(st)) {
            found.push_back({in, in.filename().generic_string(), k});
        } else if (fs::is_directory(st)) {
            walk_folder(in, in, k, exclude, found, issues);
        } else if (fs::exists(st)) {
            issues.push_back(make_issue(kInputNotRegular, utf8_escaped(in.string()) + ": is " + (fs::is_fifo(st) ? "a FIFO" : fs::is_socket(st) ? "a socket" : "a device") +
                                  ", not a regular file or folder; not opened",
                              ""));
        } else {
            issues.push_back(make_issue(kInputNotFound, utf8_escaped(in.string()) + ": no such file or folder", ""));
        }
    }
    // Relative path, then input index: the same order for any directory listing order (docs/architecture.md#conventions).
    std::stable_sort(found.begin(), found.end(), [](const BakeInput& a, const BakeInput& b) {
        if (a.relative != b.relative) return a.relative < b.relative;
        return a.input_index < b.input_index;
    });
    return found;
}

Issues missing_inputs(const std::vector<fs::path>& inputs) {
    Issues missing;
    for (const fs::path& in : inputs) {
        std::error_code ec;
        const fs::file_status st = fs::status(in, ec);
        if (ec == std::errc::too_many_symbolic_link_levels || fs::exists(st)) continue;
        missing.push_back(make_issue(kInputNotFound, utf8_escaped(in.string()) + ": no such file or folder", ""));
    }
    return missing;
}

ModelOptions bake_model_options(const BakeInput& input, const BakeOptions& o) {
    ModelOptions options = o.model;
    options.out_dir = o.out_dir / fs::path(input.relative);
    options.out_root = o.out_dir;
    options.model_label = input.relative;
    options.out_label = input.relative;
    return options;
}

BakeModelResult bake_row(const BakeInput& input, const ModelRecord& r) {
    return {input, r.status, r.unchanged, summarise_cloth(r), r.issues, r.outputs, r.depends, r.input_hash, r.seconds};
}

BakeTotals BakeResult::totals() const {
    BakeTotals t;
    t.models = models.size();
    for (const BakeModelResult& m : models) {
        switch (m.status) {
            case ModelStatus::built: ++t.built; t.unchanged_built += m.unchanged ? 1 : 0; break;
            case ModelStatus::refused: ++t.refused; t.unchanged_refused += m.unchanged ? 1 : 0; break;
            case ModelStatus::failed: ++t.failed; break;
        }
    }
    for (const Issue& i : run_issues) t.input_errors += i.severity == Severity::error ? 1 : 0;
    return t;
}

int BakeResult::exit_code() const {
    const BakeTotals t = totals();
    return t.refused + t.failed + t.input_errors > 0 ? 1 : 0;
}

std::string bake_totals_text(const BakeTotals& t) {
    auto count = [](size_t n, const char* word, size_t unchanged) {
        return std::to_string(n) + " " + word + (unchanged ? " (" + std::to_string(unchanged) + " unchanged)" : "");
    };
    std::string text = std::to_string(t.models) + (t.models == 1 ? " model: " : " models: ") +
                       count(t.built, "built", t.unchanged_built) + ", " + count(t.refused, "refused", t.unchanged_refused) +
                       ", " + count(t.failed, "failed", 0);
    if (t.input_errors) text += ", " + std::to_string(t.input_errors) + (t.input_errors == 1 ? " input" : " inputs") + " not read";
    return text;
}

namespace {

// --- Isolation: one worker process per job slot -------------------------------------------------
//
// The driver forks N workers (N = -j) before the first model and hands each a model index at a time
// over a socket pair; a worker bakes it with bake_model and sends the result back (CBOR: file names
// are bytes, not always UTF-8). A worker that dies (a signal, an exit) takes only the model it was
// baking: that model is `failed` with CRASHED or OUT_OF_MEMORY naming the signal and the stage (the
// worker writes its stage into a page it shares with the driver), a fresh worker takes the next
// model. A worker past the wall-clock limit is killed: TIMED_OUT. Workers are kept from model to
// model, so a worker's heap is reused as a thread's was (process_memory.h), and a fork costs well
// under a millisecond of a model's ~0.3 s; fork rather than exec, because the worker needs the
// driver's options, config and walk as they are, and the driver is single-threaded when it forks.

constexpr size_t worker_slot_bytes = 128;   // stage name [0, 64), out-of-memory flag at 64, tokens held at 72
constexpr size_t worker_oom_flag = 64;
constexpr size_t worker_tokens_held = 72;

/// The spare slots a worker holds, counted in its shared page: a worker that dies holding some (its
/// threads die with it) has them written back by the driver, so no slot is lost for the rest of the run.
std::atomic_ref<uint32_t> tokens_held(char* slot) {
    return std::atomic_ref<uint32_t>(*reinterpret_cast<uint32_t*>(slot + worker_tokens_held));
}

/// A model baked here: its record reduced to its row.
BakeModelResult bake_one(const BakeInput& input, const BakeOptions& o) {
    return bake_row(input, bake_model(input.path, bake_model_options(input, o)));
}

// --- Spare capacity: the -j slots no model is using ----------------------------------------------
//
// Once fewer models are left than workers, a worker that finds none exits and its slot is handed to
// the validations still running, which run their scenarios side by side on it (ValidationOptions::
// spare; README, `weft bake`). -j beyond the number of models gives its extra slots at once; -j 1
// has none to give, so a bake at -j 1 never starts a thread.

/// `o` with `spare` lent to its validations (none without --validate).
BakeOptions with_spare(const BakeOptions& o, SpareCapacity* spare) {
    BakeOptions out = o;
    if (out.model.validate) out.model.validate->spare = spare;
    return out;
}

/// A make-style jobserver between processes: a pipe holding one byte per free slot. The driver
/// writes a byte for each slot a worker leaves; a worker's validation reads one (without waiting)
/// to start a thread and writes it back when the thread ends. Workers inherit both ends at fork.
class TokenPipe final : public SpareCapacity {
public:
    TokenPipe() {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) return;
        ::fcntl(fds[0], F_SETFL, O_NONBLOCK);  // try_take never waits
        read_ = fds[0];
        write_ = fds[1];
    }
    ~TokenPipe() override {
        if (read_ >= 0) ::close(read_);
        if (write_ >= 0) ::close(write_);
    }
    TokenPipe(const TokenPipe&) = delete;
    TokenPipe& operator=(const TokenPipe&) = delete;

    bool open() const { return read_ >= 0; }
    bool try_take() override {
        char token = 0;
        for (;;) {
            const ssize_t got = ::read(read_, &token, 1);
            if (got == 1) return true;
            if (got < 0 && errno == EINTR) continue;
            return false;  // empty (EAGAIN), or no pipe
        }
    }
    void give_back() override {
        const char token = '+';
        while (::write(write_, &token, 1) < 0 && errno == EINTR) {
        }
    }
    void thread_started() override { tune_thread_memory(); }

private:
    int read_ = -1, write_ = -1;
};

/// A worker's side of the TokenPipe: every slot it holds counted in its shared page (tokens_held).
class WorkerTokens final : public SpareCapacity {
public:
    WorkerTokens(SpareCapacity* pipe, char* slot) : pipe_(*pipe), slot_(slot) {}
    bool try_take() override {
        if (!pipe_.try_take()) return false;
        tokens_held(slot_).fetch_add(1);  // a death between the two loses this one slot, never adds one
        return true;
    }
    void give_back() override {
        tokens_held(slot_).fetch_sub(1);
        pipe_.give_back();
    }
    void thread_started() override { pipe_.thread_started(); }

private:
    SpareCapacity& pipe_;
    char* slot_;
};

/// The same within one process (bake without isolation): a count of free slots.
class SlotCount final : public SpareCapacity {
public:
    bool try_take() override {
        for (long n = free_.load(); n > 0;)
            if (free_.compare_exchange_weak(n, n - 1)) return true;
        return false;
    }
    void give_back() override { ++free_; }
    void thread_started() override { tune_thread_memory(); }

private:
    std::atomic<long> free_{0};
};

json result_to_wire(const BakeModelResult& r, bool worker_exits) {
    json issues = json::array();
    for (const Issue& i : r.issues) issues.push_back({i.code, static_cast<int>(i.severity), i.message, i.pointer});
    return {{"status", model_status_name(r.status)},
            {"unchanged", r.unchanged},
            {"cloth", cloth_summary_json(r.cloth)},
            {"issues", std::move(issues)},
            {"outputs", r.outputs},
            {"depends", r.depends},
            {"input_hash", r.input_hash},
            {"seconds", {r.seconds.hash, r.seconds.import, r.seconds.garments, r.seconds.grow, r.seconds.build, r.seconds.validate,
                         r.seconds.write, r.seconds.page, r.seconds.total}},
            {"worker_exits", worker_exits}};
}

void result_from_wire(const json& j, BakeModelResult& r) {
    r.status = parse_model_status(j.at("status").get<std::string>()).value_or(ModelStatus::failed);
    r.unchanged = j.at("unchanged").get<bool>();
    r.cloth = cloth_summary_from_json(j.at("cloth")).value_or(ClothSummary{});
    for (const json& i : j.at("issues"))
        r.issues.push_back({i.at(0).get<std::string>(), static_cast<Severity>(i.at(1).get<int>()), i.at(2).get<std::string>(),
                            i.at(3).get<std::string>()});
    r.outputs = j.at("outputs").get<std::vector<std::string>>();
    r.depends = j.at("depends").get<std::vector<std::string>>();
    r.input_hash = j.at("input_hash").get<std::string>();
    const json& st = j.at("seconds");
    r.seconds = {st.at(0).get<double>(), st.at(1).get<double>(), st.at(2).get<double>(), st.at(3).get<double>(), st.at(4).get<double>(),
                 st.at(5).get<double>(), st.at(6).get<double>(), st.at(7).get<double>(), st.at(8).get<double>()};
}

bool send_all(int fd, const void* data, size_t size) {
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);  // a dead peer is an error, not SIGPIPE
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

bool recv_all(int fd, void* data, size_t size) {
    auto* p = static_cast<char*>(data);
    while (size > 0) {
        const ssize_t n = ::recv(fd, p, size, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

/// Sanitizers reserve terabytes of address space for their shadow memory: an address-space limit
/// would stop the worker before it starts, so under them the limit is not set.
constexpr bool address_space_limit_works() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    return false;
#else
    return true;
#endif
#else
    return true;
#endif
}

char* worker_oom_slot = nullptr;

/// operator new's last resort in a worker: marks the slot, then lets the allocation fail
/// (std::bad_alloc, OUT_OF_MEMORY; or, where nothing catches it, a signal the driver reports as
/// OUT_OF_MEMORY by the mark).
void worker_new_handler() {
    if (worker_oom_slot) *worker_oom_slot = 1;
    std::set_new_handler(nullptr);
}

/// A test's way to make one model's worker die the ways real inputs do (WEFT_BAKE_FAULT =
/// "<segv|abort|oom|hang>:<relative path>"); unset in normal runs.
void worker_fault(const BakeInput& input) {
    const char* fault = std::getenv("WEFT_BAKE_FAULT");
    if (!fault) return;
    const std::string_view f(fault);
    const size_t colon = f.find(':');
    if (colon == std::string_view::npos || f.substr(colon + 1) != input.relative) return;
    const std::string_view kind = f.substr(0, colon);
    set_bake_stage("build");
    if (kind == "segv") ::raise(SIGSEGV);
    if (kind == "abort") std::abort();
    if (kind == "hang")
        for (;;) ::pause();
    if (kind == "oom") {
        std::vector<std::unique_ptr<char[]>> hog;
        for (;;) {
            hog.emplace_back(new char[size_t(64) << 20]);
            std::memset(hog.back().get(), 1, size_t(64) << 20);
        }
    }
}

[[noreturn]] void worker_main(int fd, char* slot, const std::vector<BakeInput>& inputs, const BakeOptions& given,
                              pid_t driver, SpareCapacity* spare) {
    tune_forked_process_memory();  // before this worker's first block (process_memory.h)
    std::optional<WorkerTokens> counted;
    if (spare) counted.emplace(spare, slot);
    const BakeOptions o = with_spare(given, counted ? &*counted : nullptr);
    // A worker never outlives its driver (a killed `weft bake` must not leave models baking).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != driver) ::_exit(0);
    set_temporary_owner(driver, static_cast<uint64_t>(::getpid()) * 1000000);
    set_bake_stage_slot(slot);
    worker_oom_slot = slot + worker_oom_flag;
    if (o.max_memory_bytes > 0 && address_space_limit_works()) {
        const rlimit limit{static_cast<rlim_t>(o.max_memory_bytes), static_cast<rlim_t>(o.max_memory_bytes)};
        ::setrlimit(RLIMIT_AS, &limit);
    }
    for (;;) {
        uint32_t k = 0;
        if (!recv_all(fd, &k, sizeof k) || k >= inputs.size()) ::_exit(0);
        *worker_oom_slot = 0;
        set_bake_stage("read");
        std::set_new_handler(worker_new_handler);
        bool exits = false;
        std::vector<uint8_t> wire;
        try {
            worker_fault(inputs[k]);
            BakeModelResult r = bake_one(inputs[k], o);
            // After running out of memory the heap is in no state to trust: a fresh worker goes on.
            exits = *worker_oom_slot != 0;
            if (exits && std::none_of(r.issues.begin(), r.issues.end(), [](const Issue& i) { return i.code == kOutOfMemory.code; })) {
                r.issues.push_back(make_issue(kOutOfMemory, utf8_escaped(inputs[k].relative) + ": an allocation failed in stage " +
                                        std::string(slot, ::strnlen(slot, bake_stage_size)) + "; raise --max-memory or simplify the model",
                                    ""));
                r.status = ModelStatus::failed;
            }
            wire = json::to_cbor(result_to_wire(r, exits));
        } catch (...) {
            ::_exit(3);  // the driver reports the model CRASHED (or OUT_OF_MEMORY by the mark)
        }
        const auto size = static_cast<uint32_t>(wire.size());
        if (!send_all(fd, &size, sizeof size) || !send_all(fd, wire.data(), wire.size())) ::_exit(0);
        if (exits) ::_exit(0);
    }
}

const char* signal_name(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV (segmentation fault)";
        case SIGBUS: return "SIGBUS (bus error)";
        case SIGABRT: return "SIGABRT (abort)";
        case SIGFPE: return "SIGFPE (arithmetic exception)";
        case SIGILL: return "SIGILL (illegal instruction)";
        case SIGKILL: return "SIGKILL (killed from outside, e.g. by the system's out-of-memory killer)";
        case SIGTRAP: return "SIGTRAP (trap)";
        case SIGSYS: return "SIGSYS (bad system call)";
        case SIGXCPU: return "SIGXCPU (CPU time limit)";
        case SIGXFSZ: return "SIGXFSZ (file size limit)";
        case SIGTERM: return "SIGTERM (terminated)";
    }
    return nullptr;
}

}  // namespace

struct ExitingWorkers {
    std::vector<pid_t> pids;
    ExitingWorkers() = default;
    ExitingWorkers(const ExitingWorkers&) = delete;
    ExitingWorkers& operator=(const ExitingWorkers&) = delete;
    ~ExitingWorkers() {
        for (const pid_t pid : pids)
            while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
            }
    }
};

namespace {

struct Worker {
    pid_t pid = 0;
    int fd = -1;
    long model = -1;                                   ///< index into the walk, -1 when idle
    std::chrono::steady_clock::time_point start;
    std::vector<uint8_t> buffer;                       ///< what the worker sent of its result so far
    char* slot = nullptr;
    bool left = false;                                 ///< no model was left for it: its slot is spare
    bool assimp = false;                               ///< was handed a model Assimp reads: has loaded its module
};

/// Two INPUTs holding the same relative path would bake into one folder, the later overwriting the
/// earlier's outputs: the first (in INPUT order; the walk sorts by path, then INPUT) is baked, the
/// later ones refused by name. Returns 1 for each refused model.
std::vector<uint8_t> refuse_clashes(const std::vector<BakeInput>& inputs, const BakeOptions& o, BakeResult& result) {
    std::vector<uint8_t> clash(inputs.size(), 0);
    for (size_t k = 1; k < inputs.size(); ++k) {
        if (inputs[k].relative != inputs[k - 1].relative) continue;
        size_t first = k - 1;
        while (clash[first]) --first;
        clash[k] = 1;
        BakeModelResult& r = result.models[k];
        r.input = inputs[k];
        r.status = ModelStatus::refused;
        r.depends = {inputs[k].path.generic_string()};
        r.issues.push_back(make_issue(kOutputClash, utf8_escaped(inputs[k].path.string()) + ": has the same relative path as " +
                                utf8_escaped(inputs[first].path.string()) + ", baked into " +
                                utf8_escaped((o.out_dir / inputs[k].relative).string()) +
                                "; not baked (bake the two folders into different OUTs, or rename one)",
                            ""));
    }
    return clash;
}

/// The longest expected first (bake_cost.h), so with -j N the last model to finish is a short one;
/// results keep walk order (stored by index), so the order of work never shows in the outputs.
std::vector<size_t> bake_order(const std::vector<BakeInput>& inputs, const std::vector<uint8_t>& clash, const BakeOptions& o) {
    std::vector<size_t> order;
    std::vector<fs::path> paths;
    std::vector<std::string> relative;
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (clash[k]) continue;
        order.push_back(k);
        paths.push_back(inputs[k].path);
        relative.push_back(inputs[k].relative);
    }
    const std::vector<double> cost = model_costs(paths, relative, o.out_dir / "bake-report.json", o.model.validate.has_value());
    std::vector<size_t> at(order.size());
    for (size_t i = 0; i < at.size(); ++i) at[i] = i;
    std::stable_sort(at.begin(), at.end(), [&](size_t a, size_t b) { return cost[a] > cost[b]; });
    std::vector<size_t> sorted;
    for (size_t i : at) sorted.push_back(order[i]);
    return sorted;
}

/// The models in `order`, baked on `n` threads of this process.
void bake_in_threads(const std::vector<BakeInput>& inputs, const std::vector<size_t>& order, size_t n,
                     const BakeOptions& o, const BakeProgress& progress, BakeResult& result, size_t& done) {
    std::atomic<size_t> next{0};
    std::mutex mutex;
    SlotCount slots;
    for (size_t t = n; t < static_cast<size_t>(o.jobs); ++t) slots.give_back();  // -j beyond the models
    const BakeOptions lent = with_spare(o, o.jobs > 1 ? &slots : nullptr);
    auto worker = [&] {
        for (size_t m = next++; m < order.size(); m = next++) {
            const size_t k = order[m];
            BakeModelResult r = bake_one(inputs[k], lent);
            std::lock_guard<std::mutex> lock(mutex);
            result.models[k] = std::move(r);
            ++done;
            if (progress) progress(result.models[k], done, inputs.size());
        }
        slots.give_back();  // no model left: this thread's slot goes to the validations still running
    };
    std::vector<std::thread> threads;
    for (size_t t = 1; t < n; ++t)
        threads.emplace_back([&] {
            tune_thread_memory();  // this thread's own heap, as the main one (process_memory.h)
            worker();
        });
    worker();
    for (std::thread& t : threads) t.join();
}

/// The models in `order`, each baked in a worker process of its own (--isolate): a crash, memory
/// exhaustion or a runaway fails that model alone, named with the stage it died in.
class IsolatedBake {
public:
    IsolatedBake(const std::vector<BakeInput>& inputs, const std::vector<size_t>& order, size_t n, const BakeOptions& o,
                 const BakeProgress& progress, BakeResult& result, size_t& done)
        : inputs_(inputs), order_(order), n_(n), o_(o), progress_(progress), result_(result), done_(done), workers_(n) {
        shared_ = ::mmap(nullptr, n * worker_slot_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared_ == MAP_FAILED) shared_ = nullptr;
        for (size_t w = 0; w < n; ++w)
            workers_[w].slot = shared_ ? static_cast<char*>(shared_) + w * worker_slot_bytes : nullptr;
        if (!shared_) {  // without a shared page, stages are simply not known
            local_slots_.assign(n * worker_slot_bytes, 0);
            for (size_t w = 0; w < n; ++w) workers_[w].slot = local_slots_.data() + w * worker_slot_bytes;
        }
        if (o.jobs > 1 && tokens_.open())
            for (size_t t = n; t < static_cast<size_t>(o.jobs); ++t) tokens_.give_back();  // -j beyond the models
    }

    void run() {
        while (done_ < inputs_.size()) {
            hand_out();
            if (!wait_and_collect()) break;
        }
        // EOF on every socket: the workers exit side by side, waited for when the caller is done with
        // the result (a worker's exit unmaps its heap: milliseconds, while the report is written).
        for (Worker& w : workers_) let_go(w);
        auto exiting = std::make_shared<ExitingWorkers>();
        for (Worker& w : workers_)
            if (w.pid > 0) exiting->pids.push_back(std::exchange(w.pid, 0));
        result_.exiting_workers = std::move(exiting);
        if (shared_) ::munmap(shared_, n_ * worker_slot_bytes);
    }

private:
    bool start_worker(Worker& w) {
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return false;
        std::memset(w.slot, 0, worker_slot_bytes);
        w.assimp = false;
        const pid_t pid = ::fork();
        if (pid < 0) {
            ::close(sv[0]);
            ::close(sv[1]);
            return false;
        }
        if (pid == 0) {
            ::close(sv[0]);
            for (const Worker& other : workers_)
                if (other.fd >= 0) ::close(other.fd);  // a sibling's socket would keep it from seeing EOF
            worker_main(sv[1], w.slot, inputs_, o_, driver_, o_.jobs > 1 && tokens_.open() ? &tokens_ : nullptr);
        }
        ::close(sv[1]);
        w.pid = pid;
        w.fd = sv[0];
        return true;
    }

    /// EOF on its socket: the worker exits; reaped by stop_worker.
    static void let_go(Worker& w) {
        if (w.fd >= 0) ::close(w.fd);
        w.fd = -1;
    }

    static int stop_worker(Worker& w, bool kill) {
        if (w.fd >= 0) ::close(w.fd);
        w.fd = -1;
        int status = 0;
        if (w.pid > 0) {
            if (kill) ::kill(w.pid, SIGKILL);
            while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
            }
        }
        w.pid = 0;
        return status;
    }

    void store(size_t k, BakeModelResult&& r) {
        result_.models[k] = std::move(r);
        ++done_;
        if (progress_) progress_(result_.models[k], done_, inputs_.size());
    }

    void finish(Worker& w, BakeModelResult&& r) {
        const auto k = static_cast<size_t>(w.model);
        w.model = -1;
        w.buffer.clear();
        store(k, std::move(r));
    }

    /// A model whose worker died or was stopped: failed, with what is known of it. The spare slots its
    /// threads held go back to the pipe.
    void lost(Worker& w, const IssueCode& code, const std::string& what) {
        for (uint32_t held = tokens_held(w.slot).exchange(0); held > 0; --held) tokens_.give_back();
        const auto k = static_cast<size_t>(w.model);
        BakeModelResult r;
        r.input = inputs_[k];
        r.status = ModelStatus::failed;
        r.depends.push_back(inputs_[k].path.generic_string());  // the build system re-runs the bake when either changes
        if (!o_.model.config_file.empty()) r.depends.push_back(o_.model.config_file.generic_string());
        std::sort(r.depends.begin(), r.depends.end());
        r.seconds.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - w.start).count();
        const std::string stage = w.slot[0] ? std::string(w.slot, ::strnlen(w.slot, bake_stage_size)) : "start";
        r.issues.push_back(make_issue(code,
                                      utf8_escaped(inputs_[k].relative) + ": " + what + " in stage " + stage +
                                          "; nothing of it is stamped, the other models were baked",
                                      "/stages/" + stage));
        finish(w, std::move(r));
    }

    void died(Worker& w) {
        const bool oom = w.slot[worker_oom_flag] != 0;
        const int status = stop_worker(w, false);
        if (oom) {
            lost(w, kOutOfMemory, "ran out of memory (limit --max-memory " + std::to_string(o_.max_memory_bytes >> 20) + " MiB)");
        } else if (WIFSIGNALED(status)) {
            const int sig = WTERMSIG(status);
            const char* name = signal_name(sig);
            lost(w, kCrashed, std::string("the bake crashed with ") + (name ? name : "signal " + std::to_string(sig)));
        } else {
            lost(w, kCrashed, "the bake's worker exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                   " before sending its result");
        }
    }

    /// Where in order_ `w`'s next model is: the first not handed out, except that with several
    /// workers the models Assimp reads go to the worker that has loaded the Assimp module while the
    /// others have models weft reads itself to take. Each process that loads the module pays for it
    /// (~15 ms of CPU, docs/measurements.md "The folder bake's fixed cost"), so one pays, not every one.
    size_t pick(const Worker& w) {
        // Each kind's first untaken place only moves forward, so a whole batch costs O(models).
        for (int kind = 0; kind < 2; ++kind)
            while (first_untaken_[kind] < order_.size() &&
                   (taken_[first_untaken_[kind]] || through_assimp_[first_untaken_[kind]] != kind))
                ++first_untaken_[kind];
        const size_t first = std::min(first_untaken_[0], first_untaken_[1]);
        bool others_have = false;
        for (const Worker& other : workers_) others_have = others_have || (&other != &w && other.pid > 0 && other.assimp);
        if (n_ == 1 || (!w.assimp && !others_have)) return first;  // no preference
        const size_t preferred = first_untaken_[w.assimp ? 1 : 0];
        return preferred < order_.size() ? preferred : first;
    }

    /// Hands every idle worker its next model; one that cannot take it is restarted.
    void hand_out() {
        for (Worker& w : workers_) {
            if (w.model < 0 && next_ >= order_.size() && !w.left) {  // none left for it: it exits, its slot is spare
                w.left = true;
                let_go(w);  // reaped at the end: the driver goes on collecting the others meanwhile
                if (o_.jobs > 1 && tokens_.open()) tokens_.give_back();
            }
            if (w.model >= 0 || next_ >= order_.size()) continue;
            const size_t at = pick(w);
            taken_[at] = 1;
            const auto k = static_cast<uint32_t>(order_[at]);
            bool sent = false;
            for (int attempt = 0; attempt < 2 && !sent; ++attempt) {
                if (w.pid == 0 && !start_worker(w)) break;
                std::memset(w.slot, 0, worker_slot_bytes);
                sent = send_all(w.fd, &k, sizeof k);
                if (!sent) stop_worker(w, true);
            }
            ++next_;
            if (!sent) {  // no process to be had: this model bakes here, unisolated
                store(k, bake_one(inputs_[k], o_));
                continue;
            }
            w.model = k;
            w.assimp = w.assimp || through_assimp_[at];
            w.start = std::chrono::steady_clock::now();
            w.buffer.clear();
        }
    }

    /// Reads what a worker sent; a whole result finishes its model.
    void receive(Worker& w) {
        uint8_t chunk[65536];
        const ssize_t got = ::recv(w.fd, chunk, sizeof chunk, 0);
        if (got < 0 && errno == EINTR) return;
        if (got <= 0) {
            died(w);
            return;
        }
        w.buffer.insert(w.buffer.end(), chunk, chunk + got);
        uint32_t size = 0;
        if (w.buffer.size() < sizeof size) return;
        std::memcpy(&size, w.buffer.data(), sizeof size);
        if (w.buffer.size() < sizeof size + size) return;
        BakeModelResult r;
        r.input = inputs_[static_cast<size_t>(w.model)];
        bool exits = true;
        try {
            const json wire = json::from_cbor(w.buffer.begin() + sizeof size, w.buffer.begin() + sizeof size + size);
            result_from_wire(wire, r);
            exits = wire.value("worker_exits", false);
        } catch (const std::exception&) {
            stop_worker(w, true);
            lost(w, kCrashed, "the bake's worker sent an unreadable result");
            return;
        }
        if (exits) stop_worker(w, false);
        finish(w, std::move(r));
    }

    /// Waits for a busy worker to send (or for the first time limit to pass); false when poll fails.
    bool wait_and_collect() {
        std::vector<pollfd> fds;
        std::vector<Worker*> busy;
        int timeout_ms = -1;
        const auto now = std::chrono::steady_clock::now();
        for (Worker& w : workers_) {
            if (w.model < 0) continue;
            fds.push_back({w.fd, POLLIN, 0});
            busy.push_back(&w);
            if (o_.time_limit_seconds > 0) {
                const double left = o_.time_limit_seconds - std::chrono::duration<double>(now - w.start).count();
                const int ms = left <= 0 ? 0 : static_cast<int>(std::min(left * 1000 + 1, 3.6e6));
                timeout_ms = timeout_ms < 0 ? ms : std::min(timeout_ms, ms);
            }
        }
        if (busy.empty()) return true;
        const int ready = ::poll(fds.data(), fds.size(), timeout_ms);
        if (ready < 0 && errno != EINTR) return false;
        for (size_t i = 0; i < busy.size(); ++i) {
            Worker& w = *busy[i];
            if (ready > 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                receive(w);
            } else if (o_.time_limit_seconds > 0 &&
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - w.start).count() >= o_.time_limit_seconds) {
                stop_worker(w, true);
                lost(w, kTimedOut, "ran past the time limit of " + format_text("%g", o_.time_limit_seconds) + " s (--time-limit)");
            }
        }
        return true;
    }

    const std::vector<BakeInput>& inputs_;
    const std::vector<size_t>& order_;
    const size_t n_;
    const BakeOptions& o_;
    const BakeProgress& progress_;
    BakeResult& result_;
    size_t& done_;
    std::vector<Worker> workers_;
    void* shared_ = nullptr;
    std::vector<char> local_slots_;
    const pid_t driver_ = ::getpid();
    size_t next_ = 0;                 ///< models handed out
    std::vector<uint8_t> taken_ = std::vector<uint8_t>(order_.size(), 0);  ///< per place in order_
    size_t first_untaken_[2] = {0, 0};  ///< per kind (read by weft, by Assimp): no untaken place of it before
    /// Per place in order_: the model is read by Assimp (by its extension; scene/model_formats.h).
    std::vector<uint8_t> through_assimp_ = [this] {
        std::vector<uint8_t> out;
        for (const size_t k : order_) out.push_back(!read_without_assimp(ascii_lower(inputs_[k].path.extension().string())));
        return out;
    }();
    TokenPipe tokens_;  // the workers' spare slots (TokenPipe)
};

}  // namespace

BakeResult bake(const BakeOptions& o, const BakeProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    BakeResult result;
    const std::vector<BakeInput> inputs = walk_inputs(o.inputs, o.out_dir, result.run_issues);
    remove_stale_temporaries(o.out_dir);  // a killed run's half-written bake-report.json
    result.models.resize(inputs.size());
    const std::vector<uint8_t> clash = refuse_clashes(inputs, o, result);
    const std::vector<size_t> order = bake_order(inputs, clash, o);
    size_t done = 0;
    for (size_t k = 0; k < inputs.size(); ++k)
        if (clash[k] && progress) progress(result.models[k], ++done, inputs.size());
    const size_t n = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(1, o.jobs)), order.size()));
    if (o.isolate)
        IsolatedBake(inputs, order, n, o, progress, result, done).run();
    else
        bake_in_threads(inputs, order, n, o, progress, result, done);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

json bake_report_json(const BakeResult& result, const BakeOptions& o) {
    json report;
    report["schema"] = bake_report_schema;
    report["weft_version"] = WEFT_VERSION;
    report["grow_cloth"] = o.model.grow_cloth;
    report["validate"] = o.model.validate.has_value();
    std::map<std::string, int> counts;
    json run_issues = json::array();
    for (const Issue& i : result.run_issues) {
        run_issues.push_back(issue_json(i));
        ++counts[i.code];
    }
    json models = json::array();
    json timings = json::array();
    for (const BakeModelResult& m : result.models) {
        json issues = json::array();
        for (const Issue& i : m.issues) {
            issues.push_back(issue_json(i));
            ++counts[i.code];
        }
        models.push_back({{"input", m.input.relative},
                          {"output_dir", m.input.relative},
                          {"status", model_status_name(m.status)},
                          {"unchanged", m.unchanged},
                          {"input_hash", m.input_hash},
                          {"cloth", cloth_summary_json(m.cloth)},
                          {"outputs", m.outputs},
                          {"issues", std::move(issues)}});
        timings.push_back({{"input", m.input.relative},
                           {"seconds", m.seconds.total},
                           {"stages",
                            {{"hash", m.seconds.hash},
                             {"import", m.seconds.import},
                             {"garments", m.seconds.garments},
                             {"grow", m.seconds.grow},
                             {"build", m.seconds.build},
                             {"write", m.seconds.write},
                             {"validate", m.seconds.validate},
                             {"page", m.seconds.page}}}});
    }
    const BakeTotals t = result.totals();
    report["issues"] = std::move(run_issues);
    report["models"] = std::move(models);
    report["counts"] = counts;
    report["totals"] = {{"models", t.models},
                        {"built", t.built},
                        {"refused", t.refused},
                        {"failed", t.failed},
                        {"unchanged", {{"built", t.unchanged_built}, {"refused", t.unchanged_refused}}},
                        {"input_errors", t.input_errors}};
    report["summary"] = bake_totals_text(t);
    report["exit_code"] = result.exit_code();
    report["timings"] = {{"total_seconds", result.seconds}, {"jobs", o.jobs}, {"models", std::move(timings)}};
    return report;
}

namespace {

/// A path as Make and Ninja read it in a depfile, or nullopt when no depfile can name it. Space,
/// '#' and ':' take a backslash, and the backslashes right before them are doubled (2N+1
/// backslashes and the character read as N and the character); '$' is "$$"; any other backslash
/// stands for itself. A newline, a carriage return or a tab cannot be written in a depfile (Make
/// ends the line or the name there, Ninja too), nor can a name ending in ':' or '\' (read as the
/// rule's colon, or as escaping what follows): tested against ninja 1.11 (tests/cli/bake_outputs_test).
std::optional<std::string> depfile_escape(const std::string& path) {
    if (path.empty() || path.find_first_of("\n\r\t") != std::string::npos || path.back() == ':' || path.back() == '\\')
        return std::nullopt;
    std::string out;
    size_t backslashes = 0;
    for (char c : path) {
        if (c == ' ' || c == '#' || c == ':') {
            out.append(backslashes, '\\');
            out += '\\';
        } else if (c == '$') {
            out += '$';
        }
        out += c;
        backslashes = c == '\\' ? backslashes + 1 : 0;
    }
    return out;
}

}  // namespace

std::string bake_depfile(const BakeResult& result, const std::string& target, Issues* unrepresentable) {
    std::set<std::string> deps;
    for (const BakeModelResult& m : result.models) deps.insert(m.depends.begin(), m.depends.end());
    std::string text = depfile_escape(target).value_or("bake-report.json") + ":";
    for (const std::string& d : deps) {
        if (std::optional<std::string> escaped = depfile_escape(d)) {
            text += " \\\n  " + *escaped;
        } else if (unrepresentable) {
            unrepresentable->push_back(make_issue(kDepfileUnrepresentable, utf8_escaped(d) + ": holds a newline, a carriage return or a tab, or ends in ':' or '\\', "
                                                          "which no depfile can name; left out of the depfile (rename the file to have it tracked)",
                                        ""));
        }
    }
    return text + "\n";
}

std::string bake_json_text(const json& j) { return json_text(j); }

}  // namespace weft
