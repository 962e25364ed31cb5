// Validation's work as a list of runs (a proxy's scenarios, or a whole model's proxies' together) that
// go side by side on borrowed cores (solver/spare_capacity.h; docs/commands.md, `weft bake`'s -j): the caller's
// thread takes the next run left, and while the budget has a slot free another thread joins it.
//
//   RunList list;
//   list.add(steps * particles, [&] { stats[0] = run_hang(); });   // each run writes only its own
//   list.add(...);
//   list.run(spare);                                                // every run done, or the first error
//
// Runs start longest first (by cost), so the last to finish is a short one; which thread runs which
// never shows in a result, since each run fills a slot of its own.
#pragma once
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "solver/spare_capacity.h"

namespace weft {

class RunList {
public:
    RunList() = default;
    RunList(const RunList&) = delete;
    RunList& operator=(const RunList&) = delete;
    ~RunList();

    /// A run costing about `cost` (any unit, the same for every run of the list).
    void add(double cost, std::function<void()> run);
    size_t size() const { return runs_.size(); }

    /// Runs every run, on the caller's thread alone without `spare` (in the order added), else on as many
    /// threads as `spare` lends. An exception a run lets out is kept; the first in the order added is
    /// rethrown once every run has ended.
    void run(SpareCapacity* spare);

    /// From inside a run, now and then: a thread for the runs not yet started, if a slot was freed.
    void recruit();

    /// The budget for the runs' own threads (a solver's, SolverConstants::spare): the slots `run` was
    /// given, lent only once every run has started, so runs side by side come before threads within one.
    SpareCapacity* leftover() { return spare_ ? &leftover_ : nullptr; }

private:
    struct Item {
        double cost = 0;
        std::function<void()> run;
        std::exception_ptr error;
    };
    class Leftover final : public SpareCapacity {
    public:
        explicit Leftover(RunList& list) : list_(list) {}
        bool try_take() override;
        void give_back() override { list_.spare_->give_back(); }
        void thread_started() override { list_.spare_->thread_started(); }

    private:
        RunList& list_;
    };

    void work();
    void join_helpers();

    std::vector<Item> runs_;
    std::vector<size_t> order_;  // runs_ by cost, longest first
    std::atomic<size_t> next_{0};
    SpareCapacity* spare_ = nullptr;
    Leftover leftover_{*this};
    std::mutex mutex_;  // helpers_
    std::vector<std::thread> helpers_;
};

}  // namespace weft
