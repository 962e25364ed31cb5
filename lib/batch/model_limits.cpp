#include "batch/model_limits.h"

#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

#include "batch/bake_stage.h"

namespace weft {
namespace {

// Set once, before any thread can throw: read by the terminate handler, which must not allocate.
char uncaught_who[128] = "weft";
pid_t uncaught_reporter = 0;  // the process that asked; a process forked from it is a bake worker

/// write(2) until done: the handlers below may not use the C++ streams (their locks may be held by
/// the thread that failed, their buffers may need memory).
void write_all(const char* text, size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(STDERR_FILENO, text, size);
        if (n <= 0) return;
        text += n;
        size -= static_cast<size_t>(n);
    }
}

/// The stage bake_stage names, copied out (another thread may be writing it), or "".
void copy_stage(char (&out)[bake_stage_size]) {
    out[0] = '\0';
    if (const char* stage = bake_stage()) {
        std::memcpy(out, stage, bake_stage_size - 1);
        out[bake_stage_size - 1] = '\0';
    }
}

/// The uncaught exception's line into `out`: what it was, without allocating. Returns whether it
/// was std::bad_alloc.
bool uncaught_line(char* out, size_t size, const char* who) {
    bool out_of_memory = false;
    const char* what = "terminate was called with no exception in flight";
    if (std::exception_ptr e = std::current_exception()) {
        try {
            std::rethrow_exception(e);
        } catch (const std::bad_alloc&) {
            out_of_memory = true;
        } catch (const std::exception& x) {
            what = x.what();
        } catch (...) {
            what = "an exception of unknown type escaped";
        }
    }
    char stage[bake_stage_size];
    copy_stage(stage);
    const char* in = stage[0] ? " in stage " : "";
    if (out_of_memory)
        std::snprintf(out, size, "%s: ran out of memory%s%s; raise --max-memory or simplify the model [OUT_OF_MEMORY]\n", who,
                      in, stage);
    else
        std::snprintf(out, size, "%s: internal error%s%s: %s [INTERNAL_ERROR]\n", who, in, stage, what);
    return out_of_memory;
}

[[noreturn]] void on_terminate() {
    if (::getpid() != uncaught_reporter) ::_exit(3);  // a bake worker: its driver names the model and the cause
    char line[1024];
    const bool out_of_memory = uncaught_line(line, sizeof line, uncaught_who);
    write_all(line, std::strlen(line));
    if (out_of_memory) ::_exit(1);
    std::abort();  // a defect: keep the core dump
}

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

char watchdog_stage_slot[bake_stage_size];

}  // namespace

void bound_thread_reservations() {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, kMallocArenas);
    pthread_attr_t attributes;
    if (pthread_attr_init(&attributes) != 0) return;
    if (pthread_attr_setstacksize(&attributes, kThreadStackBytes) == 0) pthread_setattr_default_np(&attributes);
    pthread_attr_destroy(&attributes);
#endif
}

bool limit_address_space(uint64_t mib) {
    if (mib == 0 || built_with_sanitizers()) return false;
    bound_thread_reservations();
    const rlim_t bytes = static_cast<rlim_t>(std::min(mib, kMaxMemoryMibCeiling) << 20);
    const rlimit limit{bytes, bytes};
    return ::setrlimit(RLIMIT_AS, &limit) == 0;
}

void report_uncaught_exceptions(const std::string& who) {
    std::snprintf(uncaught_who, sizeof uncaught_who, "%s", who.c_str());
    uncaught_reporter = ::getpid();
    std::set_terminate(on_terminate);
}

std::string uncaught_exception_line(const std::string& who) {
    char line[1024];
    uncaught_line(line, sizeof line, who.c_str());
    return line;
}

ModelWatchdog::ModelWatchdog(std::string who, double seconds) : who_(std::move(who)), seconds_(seconds) {
    if (seconds_ <= 0) return;
    if (!bake_stage()) set_bake_stage_slot(watchdog_stage_slot);  // so the message can name the stage
    thread_ = std::thread([this] { watch(); });
}

ModelWatchdog::~ModelWatchdog() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

ModelWatchdog::Armed::Armed(ModelWatchdog& watchdog, const std::string& model) : watchdog_(watchdog) {
    if (!watchdog_.thread_.joinable()) return;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", watchdog_.seconds_);
    std::string line = watchdog_.who_ + ": " + model + ": ran past the time limit of " + seconds + " s (--time-limit)";
    {
        std::lock_guard<std::mutex> lock(watchdog_.mutex_);
        watchdog_.line_ = std::move(line);
        watchdog_.deadline_ = steady_seconds() + watchdog_.seconds_;
        watchdog_.armed_ = true;
    }
    watchdog_.wake_.notify_all();
}

ModelWatchdog::Armed::~Armed() {
    if (!watchdog_.thread_.joinable()) return;
    std::lock_guard<std::mutex> lock(watchdog_.mutex_);
    watchdog_.armed_ = false;
}

void ModelWatchdog::watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        if (stop_) return;
        if (!armed_) {
            wake_.wait(lock);
            continue;
        }
        const double left = deadline_ - steady_seconds();
        if (left > 0) {
            // In steps of at most an hour: a deadline a year away is no overflow of the clock's ticks.
            wake_.wait_for(lock, std::chrono::duration<double>(std::min(left, 3600.0)));
            continue;
        }
        char stage[bake_stage_size];
        copy_stage(stage);
        const std::string text = line_ + (stage[0] ? std::string(" in stage ") + stage : std::string()) +
                                 "; raise --time-limit or simplify the model [TIMED_OUT]\n";
        write_all(text.data(), text.size());
        ::_exit(1);  // the model's stage cannot be stopped from here and the rest trusted
    }
}

}  // namespace weft
