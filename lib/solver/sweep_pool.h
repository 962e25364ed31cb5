// The threads a solver splits a large colour over (docs/solver.md#lanes): started on the first colour
// large enough and kept until the solver ends, so a sweep starts no thread. std only (lib/runtime).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "solver/spare_capacity.h"

namespace weft {

class SweepPool {
public:
    using Job = void (*)(void* context, uint32_t part);

    SweepPool() = default;
    ~SweepPool();
    SweepPool(const SweepPool&) = delete;
    SweepPool& operator=(const SweepPool&) = delete;

    /// Starts helpers up to `wanted` (the caller's own thread not counted), each on a slot of `spare`
    /// when one is given (none free: fewer helpers, tried again on the next call), given back when the
    /// pool ends.
    void grow(uint32_t wanted, SpareCapacity* spare);
    uint32_t helpers() const { return static_cast<uint32_t>(threads_.size()); }
    /// job(context, p) for every p in [0, parts), parts <= helpers() + 1: part 0 on the caller's thread,
    /// part p on helper p; returns when every part has.
    void run(uint32_t parts, Job job, void* context);

private:
    void helper(uint32_t part);

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::atomic<uint64_t> generation_{0};  // a new job (or the stop) was posted
    std::atomic<uint32_t> pending_{0};     // helpers' parts of this job not yet done
    std::atomic<bool> stop_{false};
    uint32_t parts_ = 0;
    Job job_ = nullptr;
    void* context_ = nullptr;
    std::vector<std::thread> threads_;
    SpareCapacity* lender_ = nullptr;  // where the helpers' slots came from
};

/// The pool a solver's state holds: its own, so a copy (a fork, which runs on a thread of its own)
/// starts without one.
struct SweepThreads {
    std::unique_ptr<SweepPool> pool;

    SweepThreads() = default;
    SweepThreads(const SweepThreads&) {}
    SweepThreads& operator=(const SweepThreads&) { return *this; }
    SweepThreads(SweepThreads&&) noexcept = default;
    SweepThreads& operator=(SweepThreads&&) noexcept = default;
};

}  // namespace weft
