// The heap of a process forked from a tuned one (a `weft bake` worker, batch/process_memory.h):
// its new blocks come from huge pages of its own, not from the pages it shares copy-on-write with
// its parent, each of which would be a fault when written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch/process_memory.h"

namespace weft {
namespace {

/// Whether the kernel gives huge pages to a region advised for them (the mode reads
/// "always [madvise] never" or "[always] madvise never").
bool huge_pages_on_advice() {
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::stringstream text;
    text << in.rdbuf();
    return text.str().find("[never]") == std::string::npos && !text.str().empty();
}

long minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

TEST(ProcessMemory, AForkedProcessWritesItsNewBlocksOnPagesOfItsOwn) {
    if (!tune_process_memory()) GTEST_SKIP() << "not glibc's allocator (a sanitizer's, or another C library)";
    if (!huge_pages_on_advice()) GTEST_SKIP() << "transparent huge pages are off";
    // The parent's blocks since tuning, kept and freed: the kept ones sit at the start of the heap's
    // top, the freed ones (8 MB, written) went back into it; a child would otherwise fill their pages first.
    for (int i = 0; i < 64; ++i) std::memset(std::malloc(4096), 1, 4096);
    std::vector<void*> freed;
    for (int i = 0; i < 400; ++i) freed.push_back(std::memset(std::malloc(20000), 1, 20000));
    for (void* block : freed) std::free(block);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const bool tuned = tune_forked_process_memory();
        // 8 MiB written a page at a time: 2,048 small pages. On huge pages of its own that is five
        // faults at most (four huge pages and one the block's end may reach); on the parent's pages,
        // hundreds. 64 leaves room for the C library's own first writes.
        const size_t bytes = size_t(8) << 20;
        const long before = minor_faults();
        auto* block = static_cast<char*>(std::malloc(bytes));
        for (size_t at = 0; block && at < bytes; at += 4096) block[at] = 1;
        const long faults = minor_faults() - before;
        _exit(tuned && block && faults < 64 ? 0 : 1 + static_cast<int>(std::min<long>(faults / 64, 100)));
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the child took about " << (WEXITSTATUS(status) - 1) * 64 << " or more faults, or was not tuned";
    EXPECT_FALSE(tune_forked_process_memory()) << "this process is no fork of a tuned one: nothing to do";
}

}  // namespace
}  // namespace weft
