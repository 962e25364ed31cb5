// Measured with `perf stat -e task-clock,page-faults weft bake MODELS --force` (13 third-party models,
// 2-core AMD EPYC VM): see tune_process_memory's comments and docs/testing.md#benchmarks.
#include "batch/process_memory.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#endif
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define WEFT_OWN_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define WEFT_OWN_ALLOCATOR 1
#endif
#endif

namespace weft {
namespace {

constexpr size_t kMiB = size_t(1) << 20;
constexpr uintptr_t kHugePage = 2 * kMiB;
std::atomic<long> tuned_in{0};  // the process whose heap was set up (a forked child sets up its own)

#if defined(__GLIBC__) && !defined(WEFT_OWN_ALLOCATOR)
/// Where the heap's free top block starts (it ends at the break), or 0 when that cannot be known.
uintptr_t heap_top_start() {
#if __GLIBC_PREREQ(2, 33)
    const uintptr_t end = reinterpret_cast<uintptr_t>(sbrk(0));
    const size_t top = mallinfo2().keepcost;  // the top block's size
    return end == uintptr_t(-1) || top > end ? 0 : end - top;
#else
    return 0;  // no mallinfo2
#endif
}

/// The end of the last page in [start, end) this process has touched (mincore: resident), or start.
uintptr_t touched_end(uintptr_t start, uintptr_t end) {
    constexpr uintptr_t kPage = 4096;
    constexpr uintptr_t kChunk = 4096;  // pages a call: 16 MiB
    unsigned char resident[kChunk];
    const uintptr_t first = start & ~(kPage - 1);
    for (uintptr_t hi = end; hi > first;) {  // from the end down: the touched pages are near the start
        const uintptr_t lo = hi - first > kChunk * kPage ? hi - kChunk * kPage : first;
        if (mincore(reinterpret_cast<void*>(lo), hi - lo, resident) != 0) return end;  // unknown: assume all
        for (uintptr_t k = (hi - lo + kPage - 1) / kPage; k > 0; --k)
            if (resident[k - 1] & 1) return std::max(start, lo + k * kPage);
        hi = lo;
    }
    return start;
}

/// Moves the start of the heap's free top past every page of it this process has touched, to a
/// 2 MiB boundary, with a block that is never freed nor touched beyond its header. After a fork
/// those pages are the parent's (small pages below the heap's first huge page; past it, huge pages
/// the parent wrote, its blocks freed since): every one the child writes would be a fault copying
/// it, about 15 us each on the shared VMs, 330-512 of them per `weft bake` worker. Past the
/// boundary, the child's blocks come from huge pages of its own, one fault per 2 MiB.
void start_top_on_huge_page() {
    // A block whose header and size reach exactly to the boundary is carved from the top, unless a
    // freed block at least that large is found first (the parent's, shared with it after a fork):
    // that one is kept too, untouched, and the next try reaches the top.
    for (int attempt = 0; attempt < 8; ++attempt) {
        const uintptr_t start = heap_top_start();
        const uintptr_t end = reinterpret_cast<uintptr_t>(sbrk(0));
        if (start == 0 || end == uintptr_t(-1)) return;
        const uintptr_t from = std::max(start + 64, touched_end(start, end));
        const uintptr_t boundary = (from + kHugePage - 1) & ~(kHugePage - 1);
        if (!std::malloc(boundary - start - 16) || heap_top_start() == boundary) return;
    }
}
#endif

}  // namespace

bool tune_process_memory() {
#if defined(__GLIBC__) && !defined(WEFT_OWN_ALLOCATOR)
    const long self = static_cast<long>(getpid());
    if (tuned_in.exchange(self) == self) return true;
    // Every block from the heap (none mmap'd on its own), freed memory never trimmed, the heap grown
    // in large steps: pages faulted in once are reused by every later model.
    mallopt(M_MMAP_THRESHOLD, int(256 * kMiB));
    mallopt(M_TRIM_THRESHOLD, int(1024 * kMiB));
    mallopt(M_TOP_PAD, int(64 * kMiB));
    // Grow the heap now by one large block, freed at once (it stays: nothing is trimmed), and ask
    // for huge pages on it: one fault maps 2 MiB instead of 4 KiB. Where transparent huge pages
    // are off the advice is refused and nothing else changes.
    start_top_on_huge_page();
    constexpr size_t kReserve = 192 * kMiB;
    const uintptr_t before = heap_top_start();
    void* block = std::malloc(kReserve);
    if (!block) return true;
    std::free(block);
    const uintptr_t after = reinterpret_cast<uintptr_t>(sbrk(0));
    const uintptr_t begin = (before + kHugePage - 1) & ~(kHugePage - 1);
    if (before != 0 && after != uintptr_t(-1) && after > begin) madvise(reinterpret_cast<void*>(begin), after - begin, MADV_HUGEPAGE);
    return true;
#else
    return false;
#endif
}

bool tune_forked_process_memory() {
    const long parent = tuned_in.load();
    return parent != 0 && parent != static_cast<long>(getpid()) && tune_process_memory();
}

bool tune_thread_memory() {
#if defined(__GLIBC__) && !defined(WEFT_OWN_ALLOCATOR)
    if (tuned_in.load() == 0) return false;
    // A block that fits a thread arena's heap (64 MiB at most on 64-bit glibc), advised and freed:
    // nothing is trimmed, so the thread's later blocks reuse these pages. Measured: -j 2 faulted
    // 4,300 pages without it.
    constexpr size_t kBlock = 48 * kMiB;
    void* block = std::malloc(kBlock);
    if (!block) return true;
    const uintptr_t at = reinterpret_cast<uintptr_t>(block);
    const uintptr_t begin = (at + kHugePage - 1) & ~(kHugePage - 1);
    const uintptr_t end = (at + kBlock) & ~(kHugePage - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    std::free(block);
    return true;
#else
    return false;
#endif
}

}  // namespace weft
