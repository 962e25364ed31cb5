// Cores a caller lends beyond its own thread (docs/commands.md, `weft bake`'s -j): a validation runs its
// scenarios on them side by side, a solver splits a large colour over them (docs/solver.md#lanes).
// One budget for both, so a bake never runs more threads than its -j slots.
#pragma once

namespace weft {

/// Slots of a shared budget of cores. Implementations are called from several threads at once.
class SpareCapacity {
public:
    virtual ~SpareCapacity() = default;
    /// One more thread may run now: true hands it a slot; never blocks.
    virtual bool try_take() = 0;
    /// Gives back a slot try_take handed out.
    virtual void give_back() = 0;
    /// Called first on every thread started with a slot (a heap of its own to set up).
    virtual void thread_started() {}
};

}  // namespace weft
