// weft bake's worker processes (bake_workers.h): one per -j slot, each model handed to one, a
// death or a runaway failing that model alone.
#include "batch/bake_workers.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <optional>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include "batch/bake_stage.h"
#include "batch/model_limits.h"
#include "batch/process_memory.h"
#include "io/atomic_file.h"
#include "io/format_text.h"
#include "io/utf8_text.h"
#include "outputs/cloth_summary_json.h"
#include "scene/model_formats.h"

namespace weft {

using nlohmann::json;

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
json result_to_wire(const BakeModelResult& r, bool worker_exits) {
    json wire = bake_row_to_wire(r);
    wire["worker_exits"] = worker_exits;
    return wire;
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
    limit_address_space((o.max_memory_bytes + (uint64_t(1) << 20) - 1) >> 20);  // --max-memory is given in MiB
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
            if (o_.out_lock_fd >= 0) ::close(o_.out_lock_fd);  // OUT is the driver's to hold
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
        result_.models.put(k, r);
        ++done_;
        if (progress_) progress_(r, done_, inputs_.size());
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
            bake_row_from_wire(wire, r);
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

void bake_in_workers(const std::vector<BakeInput>& inputs, const std::vector<size_t>& order, size_t n, const BakeOptions& o,
                     const BakeProgress& progress, BakeResult& result, size_t& done) {
    IsolatedBake(inputs, order, n, o, progress, result, done).run();
}

}  // namespace weft
