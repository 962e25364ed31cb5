// The memory and the time a command gives each model (docs/bad-inputs.md#budgets). `weft bake` runs
// each model in a worker process of its own and enforces both from outside (bake.h); the commands
// that read models in their own process (`inspect`, `sheet`, `rig`, `validate`) enforce the same
// two flags here:
//
//   memory  the process's address space is capped (setrlimit RLIMIT_AS): an allocation past it
//           fails with std::bad_alloc, which the model's bake reports as OUT_OF_MEMORY (bake_model.h)
//           and the command goes on with the next model
//   time    a watchdog thread: a model still running past the limit stops the command there, with
//           TIMED_OUT naming the model and its stage on standard error and exit status 1 (a stage
//           cannot be stopped from outside its own process and leave the rest in a state to trust)
//   escapes an exception nothing catches (in any thread) is reported by name, OUT_OF_MEMORY for
//           std::bad_alloc, never as the C++ runtime's "terminate called after throwing ..."
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace weft {

/// The ceiling of --max-memory: x86-64's user address space, 128 TiB. A larger value is a usage
/// error (it used to wrap round to 0, no limit, past 2^44 MiB).
inline constexpr uint64_t kMaxMemoryMibCeiling = uint64_t(1) << 27;
/// The ceiling of --time-limit: a year of seconds (larger values are usage errors, not overflows).
inline constexpr double kTimeLimitCeiling = 365.0 * 24 * 3600;

struct ModelLimits {
    uint64_t max_memory_mib = 4096;  ///< address space of the process, 0 = no limit (as bake's --max-memory)
    double time_limit_seconds = 300; ///< wall time per model, 0 = no limit (as bake's --time-limit)
};

/// Whether this build runs under a sanitizer. They reserve terabytes of address space for their
/// shadow memory, so an address-space cap would stop the process (or a bake worker) before it starts,
/// and they catch signals themselves.
constexpr bool built_with_sanitizers() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

/// What a thread may hold of a capped process's address space before it allocates anything: the
/// cap is --max-memory, what a model needs, so it must not shrink with the machine's cores. glibc
/// reserves 64 MiB of address space for each malloc arena, one per thread up to 8 per core, and a
/// thread's stack is RLIMIT_STACK (8 MiB): a bake worker whose solver splits a colour over 63 helpers
/// (a 64-core machine) held 4.5 GiB before its model had a byte, past the 4 GiB default.
inline constexpr int kMallocArenas = 4;                        ///< M_ARENA_MAX: 256 MiB reserved at most
inline constexpr size_t kThreadStackBytes = size_t(2) << 20;  ///< stacks of threads started after the cap

/// Bounds what threads reserve (kMallocArenas, kThreadStackBytes) for every thread started from now
/// on, so the address space a process uses beyond its model's data no longer grows with the cores.
void bound_thread_reservations();

/// Caps this process's address space at `mib` MiB (0: no cap), after bound_thread_reservations. Not
/// under sanitizers, whose shadow memory needs terabytes of address space. Returns whether a cap was
/// set. A bake worker is capped through it too (bake_workers.cpp).
bool limit_address_space(uint64_t mib);

/// From now on an exception that escapes (a thread's body, a noexcept function) prints one line,
/// "`who`: ran out of memory ... [OUT_OF_MEMORY]" for std::bad_alloc, "`who`: internal error: ...
/// [INTERNAL_ERROR]" otherwise, naming the stage when one is known (bake_stage.h), and ends the
/// process (status 1 after running out of memory, SIGABRT otherwise). In a process forked from the
/// caller (a `weft bake` worker, whose driver names the model and the cause: OUT_OF_MEMORY by its
/// new-handler's mark, else CRASHED) nothing is printed and the process ends with status 3.
void report_uncaught_exceptions(const std::string& who);

/// The one line (with its newline) report_uncaught_exceptions prints for the exception being
/// handled, for its tests.
std::string uncaught_exception_line(const std::string& who);

/// The watchdog of a command's time limit: armed for one model at a time.
///
///   ModelWatchdog watchdog("weft inspect", limits.time_limit_seconds);
///   for (model : models) { ModelWatchdog::Armed armed(watchdog, model); inspect(model); }
///
/// Past the limit it writes "`who`: `model`: ran past the time limit of S s (--time-limit) in stage
/// STAGE; raise --time-limit or simplify the model [TIMED_OUT]" to standard error and ends the
/// process with status 1. Its thread starts when it is made, before any model can use up the
/// memory a thread needs.
class ModelWatchdog {
public:
    ModelWatchdog(std::string who, double seconds);
    ~ModelWatchdog();
    ModelWatchdog(const ModelWatchdog&) = delete;
    ModelWatchdog& operator=(const ModelWatchdog&) = delete;

    /// Counts the time of one model from now until it goes out of scope.
    class Armed {
    public:
        Armed(ModelWatchdog& watchdog, const std::string& model);
        ~Armed();
        Armed(const Armed&) = delete;
        Armed& operator=(const Armed&) = delete;

    private:
        ModelWatchdog& watchdog_;
    };

private:
    void watch();

    const std::string who_;
    const double seconds_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool armed_ = false;
    bool stop_ = false;
    std::string line_;  ///< the message up to the stage, made when armed (nothing is allocated when it fires)
    double deadline_ = 0;  ///< steady-clock seconds
    std::thread thread_;
};

}  // namespace weft
