// Keeping a particle's few deepest contacts in a fixed array (contact and self-contact rows): the
// rows a particle solves are bounded, and which ones it keeps must not depend on thread or lane.
#pragma once
#include <array>
#include <cstddef>

namespace weft {

/// Puts `item` among the `count` kept in `kept` while there is room; when full, in place of the one
/// whose `depth` is largest if `item`'s is smaller. Equal depths keep what came first, so the result
/// depends only on the order items are offered.
template <class T, std::size_t N, class Count, class Depth>
void keep_deepest(std::array<T, N>& kept, Count& count, const T& item, Depth depth) {
    std::size_t slot = N;
    if (static_cast<std::size_t>(count) < N) {
        slot = static_cast<std::size_t>(count);
        ++count;
    } else {
        std::size_t worst = 0;
        for (std::size_t q = 1; q < N; ++q)
            if (depth(kept[q]) > depth(kept[worst])) worst = q;
        if (depth(item) < depth(kept[worst])) slot = worst;
    }
    if (slot < N) kept[slot] = item;
}

}  // namespace weft
