#include "validate/run_list.h"

#include <algorithm>
#include <system_error>

namespace weft {

RunList::~RunList() { join_helpers(); }

void RunList::add(double cost, std::function<void()> run) { runs_.push_back({cost, std::move(run), nullptr}); }

bool RunList::Leftover::try_take() { return list_.next_.load() >= list_.runs_.size() && list_.spare_->try_take(); }

void RunList::run(SpareCapacity* spare) {
    spare_ = spare;
    order_.resize(runs_.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
    if (spare_)
        std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) { return runs_[a].cost > runs_[b].cost; });
    next_ = 0;
    work();
    join_helpers();
    spare_ = nullptr;
    for (Item& item : runs_)
        if (item.error) std::rethrow_exception(item.error);  // the first in the order added
}

void RunList::recruit() {
    if (!spare_ || next_.load() >= runs_.size() || !spare_->try_take()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (next_.load() >= runs_.size()) {  // every run was handed out meanwhile
        spare_->give_back();
        return;
    }
    try {
        helpers_.emplace_back([this] {
            spare_->thread_started();
            work();
            spare_->give_back();
        });
    } catch (...) {  // no thread to be had (std::system_error, or no memory for one): the runs go on where they are
        spare_->give_back();
    }
}

void RunList::work() {
    for (size_t i = next_++; i < runs_.size(); i = next_++) {
        recruit();
        Item& item = runs_[order_[i]];
        try {
            item.run();
        } catch (...) {
            item.error = std::current_exception();
        }
    }
}

void RunList::join_helpers() {
    for (;;) {  // no helper starts once every run is handed out
        std::thread helper;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (helpers_.empty()) return;
            helper = std::move(helpers_.back());
            helpers_.pop_back();
        }
        helper.join();
    }
}

}  // namespace weft
