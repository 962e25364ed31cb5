// Touching an input the way an editor's save does, for the tests that expect Ninja to re-run a
// bake (docs/bad-inputs.md, "Running a bake"). Inline: one more source in the support library
// costs more compile time under the sanitizers than this does in each suite that includes it.
#pragma once
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>

namespace weft::test {

/// A file's modification time in nanoseconds, or -1 when it cannot be read.
inline long long mtime_ns(const std::filesystem::path& file) {
    struct stat st{};
    if (::stat(file.c_str(), &st) != 0) return -1;
    return static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

/// Sets `file`'s modification time to the kernel's now (utimensat with UTIME_NOW, as `touch` does),
/// again until the time read back is later than `output`'s. Returns "" or why not.
///
/// Ninja re-runs a command when an input is newer than its output, or than the time it recorded in
/// .ninja_log (the output's after the run in 1.11; from 1.12 on, the run's start, read off a file it
/// writes then), and holds it up to date when neither is older: a tie is up to date. The kernel
/// stamps every write with its coarse clock, which advances once a scheduler tick (4 ms at HZ=250)
/// and lags CLOCK_REALTIME, the clock std::filesystem's clock::now() reads. So an input set to
/// clock::now() can be newer than the output a re-bake writes a millisecond later, and Ninja re-runs
/// it once more; and a touch within the tick that stamped the output ties with it, and Ninja does not
/// re-run at all. Stamped by the kernel's clock and past `output`, the input is newer than what Ninja
/// recorded and no newer than any file written after it.
inline std::string touch_later_than(const std::filesystem::path& file, const std::filesystem::path& output) {
    const long long before = mtime_ns(output);
    if (before < 0) return output.string() + ": cannot stat";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    for (;;) {
        if (::utimensat(AT_FDCWD, file.c_str(), nullptr, 0) != 0) return file.string() + ": cannot touch";
        const long long touched = mtime_ns(file);
        if (touched > before) return "";
        if (std::chrono::steady_clock::now() > deadline)
            return file.string() + ": still at " + std::to_string(touched) + " ns, not past " + output.string() +
                   "'s " + std::to_string(before) + " ns after 5 s";
        // Until the next tick moves the kernel's clock on.
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

}  // namespace weft::test
