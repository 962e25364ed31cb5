#include "solver/sweep_pool.h"

#include <chrono>
#include <system_error>

namespace weft {

namespace {

/// How long a thread waits awake before it sleeps on the condition: the next colour follows the last
/// within microseconds. Short, because on a loaded machine a thread spinning takes the time of the one
/// it waits for (a 50 µs spin made the 1k sheet's split frame 12 ms against 2.3 ms, two threads of one
/// bench on a 2-core VM at load 13); a colour worth splitting takes milliseconds, so a wake costs little.
constexpr std::chrono::microseconds spin_time{5};

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
}

}  // namespace

SweepPool::~SweepPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_.store(true);
        generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
    if (lender_)
        for (size_t t = 0; t < threads_.size(); ++t) lender_->give_back();
}

void SweepPool::grow(uint32_t wanted, SpareCapacity* spare) {
    if (spare && lender_ && spare != lender_) return;  // one budget per pool
    while (threads_.size() < wanted) {
        if (spare && !spare->try_take()) return;
        try {
            const auto part = static_cast<uint32_t>(threads_.size() + 1);
            threads_.emplace_back([this, part, spare] {
                if (spare) spare->thread_started();
                helper(part);
            });
        } catch (...) {  // no thread to be had (std::system_error, or no memory for one): the caller's share is the rest
            if (spare) spare->give_back();
            return;
        }
        if (spare) lender_ = spare;
    }
}

void SweepPool::run(uint32_t parts, Job job, void* context) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = job;
        context_ = context;
        parts_ = parts;
        pending_.store(parts - 1, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    job(context, 0);
    const auto until = std::chrono::steady_clock::now() + spin_time;
    while (pending_.load(std::memory_order_acquire) != 0) {
        if (std::chrono::steady_clock::now() < until) {
            relax();
            continue;
        }
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return pending_.load(std::memory_order_acquire) == 0; });
    }
}

void SweepPool::helper(uint32_t part) {
    uint64_t seen = 0;
    for (;;) {
        const auto until = std::chrono::steady_clock::now() + spin_time;
        while (generation_.load(std::memory_order_acquire) == seen) {
            if (std::chrono::steady_clock::now() < until) {
                relax();
                continue;
            }
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen; });
        }
        Job job = nullptr;
        void* context = nullptr;
        uint32_t parts = 0;
        {  // one job's fields together: a helper not needed for the last job may meet the next one here
            std::lock_guard<std::mutex> lock(mutex_);
            seen = generation_.load(std::memory_order_relaxed);
            job = job_;
            context = context_;
            parts = parts_;
        }
        if (stop_.load()) return;
        if (part >= parts) continue;
        job(context, part);
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            std::lock_guard<std::mutex> lock(mutex_);  // the caller checks pending_ under it before it sleeps
            done_.notify_one();
        }
    }
}

}  // namespace weft
