// RunList (validate/run_list.h): runs side by side on lent slots, each writing its own result; the
// first error in the order added; the runs' own threads lent only once every run has started.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "validate/run_list.h"

namespace weft {
namespace {

class Slots final : public SpareCapacity {
public:
    explicit Slots(int slots) : free(slots) {}
    bool try_take() override {
        ++asked;
        for (int n = free.load(); n > 0;)
            if (free.compare_exchange_weak(n, n - 1)) {
                ++taken;
                return true;
            }
        return false;
    }
    void give_back() override { ++free; }
    void thread_started() override { ++started; }
    std::atomic<int> free, taken{0}, started{0}, asked{0};
};

// Eight runs on two lent slots: the longest waits until another has started on a helper; every run
// ran once and every slot came back.
TEST(RunList, RunsEachOnceOnLentThreadsAndGivesTheSlotsBack) {
    Slots slots(2);
    RunList list;
    std::vector<std::atomic<int>> ran(8);
    std::atomic<bool> helped{false};
    const std::thread::id caller = std::this_thread::get_id();
    for (int i = 0; i < 8; ++i)
        list.add(i, [&, i] {
            ++ran[i];
            if (std::this_thread::get_id() != caller) helped = true;
            if (i != 7) return;
            for (int wait = 0; wait < 10000 && !helped; ++wait) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
    list.run(&slots);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(ran[i].load(), 1) << i;
    EXPECT_TRUE(helped.load());
    EXPECT_EQ(slots.started.load(), slots.taken.load());
    EXPECT_EQ(slots.free.load(), 2);
}

// Without slots, runs go in the order added on the caller's thread; errors are rethrown, the first
// added first, after every run ended.
TEST(RunList, OneThreadInOrderAndTheFirstErrorAdded) {
    RunList list;
    std::vector<int> order;
    list.add(1, [&] { order.push_back(0); });
    list.add(9, [&] { order.push_back(1); throw std::runtime_error("first"); });
    list.add(5, [&] { order.push_back(2); throw std::runtime_error("second"); });
    try {
        list.run(nullptr);
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "first");
    }
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(list.leftover(), nullptr);
}

// Longest first; the leftover budget (a run's solver threads) asks for no slot while a run waits to
// start, and lends the list's once every run has.
TEST(RunList, LeftoverLendsOnlyOnceEveryRunStarted) {
    Slots slots(0);
    RunList list;
    std::vector<int> order;
    list.add(1, [&] {
        order.push_back(1);
        SpareCapacity* left = list.leftover();
        ASSERT_NE(left, nullptr);
        EXPECT_TRUE(left->try_take());
        left->give_back();
    });
    list.add(2, [&] {
        order.push_back(2);
        EXPECT_FALSE(list.leftover()->try_take());
        EXPECT_EQ(slots.asked.load(), 1);  // the one recruit before this run; the leftover did not ask
        slots.free = 1;                    // too late for a helper: the other run is next on this thread
    });
    list.run(&slots);
    EXPECT_EQ(order, (std::vector<int>{2, 1}));
    EXPECT_EQ(slots.free.load(), 1);
}

}  // namespace
}  // namespace weft
