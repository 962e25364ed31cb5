// `weft bake` killed with SIGKILL (docs/architecture.md#conventions, atomic): whatever moment the kill lands, every output
// under OUT is complete or absent. The atomic writer (lib/io/atomic_file.h) writes each file to
// `<name>.tmp.<pid>.<counter>` in the same folder and renames it over `<name>`; a kill
// between open and rename can leave only such a temporary behind, never a short `<name>`. So here:
// every .clothproxy loads with the hardened decoder, every .json parses, every .glb's header and
// length agree with the file, and any other file must be a temporary named by the killed process's
// pid. A normal run afterwards completes and its outputs equal an uninterrupted run's byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <map>
#include <set>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

/// Starts weft with the given arguments, its output streams discarded. Returns the child's pid.
pid_t spawn_weft(const std::vector<std::string>& args) {
    std::vector<std::string> argv{test::weft_exe().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        const int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        execv(raw[0], raw.data());
        _exit(127);
    }
    return pid;
}

/// Regular files under `dir` (recursively), sorted by path.
std::vector<fs::path> files_under(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file()) out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
}

/// The atomic writer's temporary names (io/atomic_file.h temporary_owner): the pid, or -1.
long temporary_pid(const fs::path& file) {
    const long pid = temporary_owner(file.filename().string());
    return pid > 0 ? pid : -1;
}

/// "" when `file` is a complete output of its kind, else what is wrong with it.
std::string check_output(const fs::path& file) {
    std::vector<uint8_t> bytes;
    if (std::string why = read_file(file, bytes); !why.empty()) return why;
    const std::string ext = file.extension().string();
    if (ext == ".clothproxy") {
        const DecodeResult decoded = load_proxy(file);
        return decoded.ok() ? "" : decoded.error;
    }
    if (ext == ".json") {
        return json::accept(bytes.begin(), bytes.end()) ? "" : file.string() + ": does not parse as JSON";
    }
    if (ext == ".glb" || ext == ".vrm") {
        // GLB header: magic "glTF", version 2, total length; then chunks that must fit in it.
        if (bytes.size() < 20) return file.string() + ": shorter than a GLB header and one chunk";
        auto u32 = [&](size_t at) {
            uint32_t v;
            std::memcpy(&v, bytes.data() + at, 4);
            return v;
        };
        if (std::memcmp(bytes.data(), "glTF", 4) != 0 || u32(4) != 2) return file.string() + ": not a GLB 2 header";
        if (u32(8) != bytes.size())
            return file.string() + ": header says " + std::to_string(u32(8)) + " bytes, file has " +
                   std::to_string(bytes.size());
        size_t at = 12;
        while (at < bytes.size()) {
            if (at + 8 > bytes.size()) return file.string() + ": chunk header cut at byte " + std::to_string(at);
            const uint64_t end = at + 8 + uint64_t(u32(at));
            if (end > bytes.size()) return file.string() + ": chunk at byte " + std::to_string(at) + " runs past the end";
            at = static_cast<size_t>(end);
        }
        return "";
    }
    if (ext == ".html") {
        // The page (view_page.h): whole when it ends as it is written.
        const std::string text(bytes.begin(), bytes.end());
        return text.ends_with("</html>\n") ? "" : file.string() + ": does not end with </html>";
    }
    if (ext == ".png") {
        // The thumbnail: whole when its last chunk is IEND, with its CRC.
        static constexpr uint8_t iend[] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
        return bytes.size() >= 8 + sizeof iend && std::equal(std::end(iend) - sizeof iend, std::end(iend), bytes.end() - sizeof iend)
                   ? ""
                   : file.string() + ": does not end with its IEND chunk";
    }
    return file.string() + ": an output of no known kind";
}

/// Every file under OUT with its bytes, by relative path; bake-report.json, the index over it and
/// the atomic writer's temporaries left out (the report and the index say which models a run found
/// unchanged, and differ by design).
std::map<std::string, std::string> outputs(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const fs::path& f : files_under(dir)) {
        const std::string rel = f.lexically_relative(dir).generic_string();
        if (rel == "bake-report.json" || rel == "index.html" || temporary_pid(f) >= 0) continue;
        std::vector<uint8_t> bytes;
        EXPECT_EQ(read_file(f, bytes), "");
        out[rel] = std::string(bytes.begin(), bytes.end());
    }
    return out;
}

TEST(BakeKill, SigkillAtAnyMomentLeavesNoTruncatedOutputAndARerunFinishes) {
    // The test data, on the rig path so proxies, sidecars, grown .glb files, pages and the refused
    // models' reports are all written: every model but the dense sheet, whose resampling (6,160
    // vertices) was two thirds of the bake's time and writes no kind of file the other sheets don't
    // (a quarter of a second of baking at -j 2 in Release). What a kill can catch is a write in
    // progress, whatever the model.
    std::vector<std::string> inputs;
    for (const auto& entry : fs::directory_iterator(test::testdata_dir())) {
        if (entry.path().extension() == ".md") continue;  // what the folder's walk would skip too
        if (!entry.is_directory() || entry.path().filename() != "sheets") {
            inputs.push_back(entry.path().string());
            continue;
        }
        for (const auto& sheet : fs::directory_iterator(entry.path()))
            if (sheet.path().filename() != "dense.glb") inputs.push_back(sheet.path().string());
    }
    std::sort(inputs.begin(), inputs.end());
    const fs::path dir = test::scratch_dir("bake_kill");
    const fs::path reference = dir / "reference";
    const fs::path out = dir / "out";
    auto bake_args = [&](const fs::path& to, bool force) {
        std::vector<std::string> args{"bake"};
        args.insert(args.end(), inputs.begin(), inputs.end());
        for (const char* a : {"--grow-cloth", "-j", "2", "-q"}) args.push_back(a);
        args.push_back("-o");
        args.push_back(to.string());
        if (force) args.push_back("--force");
        return args;
    };

    const auto whole_start = std::chrono::steady_clock::now();
    const auto whole = test::run_weft(bake_args(reference, false));
    const double whole_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - whole_start).count();
    ASSERT_NE(whole.exit_code, 2) << whole.err;
    const auto expected = outputs(reference);
    ASSERT_GT(expected.size(), 3u);
    // Every kind of output the checks below know is among them, so each check is exercised.
    std::set<std::string> kinds;
    for (const auto& [rel, bytes] : expected) kinds.insert(fs::path(rel).extension().string());
    EXPECT_EQ(kinds, (std::set<std::string>{".clothproxy", ".glb", ".html", ".json", ".png"}));

    // Each run is --force, so it rewrites files the previous killed runs left: a writer that
    // truncated in place would be caught here too. The kill lands a given time after the run's
    // first new file appears in OUT, at a share of how long the whole run took (so it lands mid-bake
    // whatever the machine's and the build's speed: a Release bake is a few hundred milliseconds).
    std::set<long> pids;
    int killed_mid_run = 0;
    std::set<fs::path> temporaries;  // distinct ones seen: how often a kill landed inside a write
    size_t checked = 0;
    for (const double share : {0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.45, 0.6}) {
        const int delay_ms = static_cast<int>(share * whole_ms);
        const auto before = files_under(out).size();
        const auto start = std::chrono::steady_clock::now();
        const pid_t pid = spawn_weft(bake_args(out, true));
        ASSERT_GT(pid, 0);
        pids.insert(pid);
        int status = 0;
        bool exited = false;
        // Poll for the run's first write (a temporary or a new file), then wait delay_ms and kill.
        while (!exited) {
            if (waitpid(pid, &status, WNOHANG) == pid) {
                exited = true;
                break;
            }
            const std::vector<fs::path> now = files_under(out);  // one walk a poll: the bake shares the cores
            bool wrote = now.size() > before;
            for (const fs::path& f : now) wrote = wrote || temporary_pid(f) == pid;
            if (wrote) break;
            if (std::chrono::steady_clock::now() - start > std::chrono::seconds(60)) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        if (!exited) {
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            ASSERT_EQ(kill(pid, SIGKILL), 0);
            ASSERT_EQ(waitpid(pid, &status, 0), pid);
            exited = true;
        }
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ++killed_mid_run;

        for (const fs::path& f : files_under(out)) {
            const long tmp_pid = temporary_pid(f);
            if (tmp_pid >= 0) {
                // A temporary is only ever left by a killed run of ours: the writer renames or
                // unlinks it otherwise.
                EXPECT_TRUE(pids.count(tmp_pid)) << f;
                temporaries.insert(f);
                continue;
            }
            EXPECT_EQ(check_output(f), "") << "after a kill " << delay_ms << " ms into the bake";
            ++checked;
        }
    }
    // On a machine fast enough to finish before every kill the test proves nothing: say so.
    EXPECT_GE(killed_mid_run, 5) << "the bake finished before most kills landed";
    EXPECT_GT(checked, 0u);

    // A normal run finishes the job: exit status as the whole run's, outputs byte-identical to it.
    const auto rerun = test::run_weft(bake_args(out, false));
    EXPECT_EQ(rerun.exit_code, whole.exit_code) << rerun.err;
    EXPECT_EQ(outputs(out), expected);
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(out / "bake-report.json", bytes), "");
    const json report = json::parse(bytes.begin(), bytes.end());
    std::vector<uint8_t> ref_bytes;
    ASSERT_EQ(read_file(reference / "bake-report.json", ref_bytes), "");
    const json ref_report = json::parse(ref_bytes.begin(), ref_bytes.end());
    EXPECT_EQ(report["counts"], ref_report["counts"]);
    EXPECT_EQ(report["totals"]["models"], ref_report["totals"]["models"]);
    // ... and clears what the killed runs left half-written: no temporary survives it.
    for (const fs::path& f : files_under(out)) EXPECT_LT(temporary_pid(f), 0) << f;
    RecordProperty("temporaries_left", static_cast<int>(temporaries.size()));
}

}  // namespace
}  // namespace weft
