// What `weft bake`'s driver says about the run itself, as a build script or an artist meets it:
// `-j 0` is one worker per core (as make and ninja read it), an OUT that cannot be written is said
// once before anything is baked, Ctrl-C says what was finished and that the same command goes on
// from there, and a config rule whose `file` names no model of the run is a warning.
#include <gtest/gtest.h>

#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "support/json_files.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

size_t count_of(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

TEST(BakeDriver, JobsZeroIsOneWorkerPerCore) {
    const fs::path dir = test::scratch_dir("bake_jobs_zero");
    const auto r = test::run_weft({"bake", (test::testdata_dir() / "flag.glb").string(), "-o", (dir / "out").string(), "-j", "0"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    cpu_set_t allowed;
    ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
    const json report = test::read_json_file(dir / "out" / "bake-report.json");
    EXPECT_EQ(report["timings"]["jobs"], std::min(CPU_COUNT(&allowed), 256)) << "as `nproc` counts the cores";
    EXPECT_EQ(test::run_weft({"bake", (test::testdata_dir() / "flag.glb").string(), "-o", (dir / "o2").string(), "-j", "-1"}).exit_code,
              2);
}

// A huge limit meant as "no limit" is a usage error that says how to ask for none.
TEST(BakeDriver, ALimitPastItsCeilingSaysZeroIsNone) {
    const fs::path dir = test::scratch_dir("bake_limit_ceiling");
    const std::string flag = (test::testdata_dir() / "flag.glb").string();
    const auto time = test::run_weft({"bake", flag, "-o", (dir / "out").string(), "--time-limit", "1e9"});
    EXPECT_EQ(time.exit_code, 2);
    EXPECT_NE(time.err.find("--time-limit: '1e9' s is more than a year (31536000 s): give 0 for no limit"), std::string::npos) << time.err;
    const auto memory = test::run_weft({"validate", flag, "--max-memory", "99999999999"});
    EXPECT_EQ(memory.exit_code, 2);
    EXPECT_NE(memory.err.find("--max-memory: '99999999999' MiB is more than 128 TiB (134217728 MiB): give 0 for no limit"),
              std::string::npos)
        << memory.err;
    EXPECT_FALSE(fs::exists(dir / "out"));
}

// An OUT that is a file (or, run as nobody, a read-only folder) fails every model and every file
// of the run alike: one line says so, and nothing is baked.
TEST(BakeDriver, AnOutThatCannotBeWrittenIsSaidOnceAndNothingIsBaked) {
    const fs::path dir = test::scratch_dir("bake_out_unwritable");
    const fs::path file = dir / "out.glb";
    std::ofstream(file) << "a file, not a folder";
    const std::string flag = (test::testdata_dir() / "flag.glb").string();
    const auto r = test::run_weft({"bake", flag, (test::testdata_dir() / "mannequin.glb").string(), "-o", file.string(), "-j", "2"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(count_of(r.err, "[OUTPUT_UNWRITABLE]"), 1u) << r.err;
    EXPECT_NE(r.err.find("weft bake: cannot write into " + file.string() + ": it is not a folder; nothing baked [OUTPUT_UNWRITABLE]"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("[1/2]"), std::string::npos) << "no model was tried:\n" << r.err;
    EXPECT_EQ(count_of(r.err, "\n"), 1u) << r.err;
    // A read-only folder: as root every folder is writable, so as nobody where this runs as root.
    if (::geteuid() != 0 || !fs::exists("/usr/bin/setpriv")) return;
    const fs::path read_only = dir / "ro";
    fs::create_directories(read_only);
    for (fs::path p = dir; p != p.root_path(); p = p.parent_path()) fs::permissions(p, fs::perms::others_exec, fs::perm_options::add);
    fs::permissions(read_only, fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
    const auto ro = test::run_command({"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                       test::weft_exe().string(), "bake", flag, "-o", (read_only / "sub").string()});
    EXPECT_EQ(ro.exit_code, 1) << ro.err;
    EXPECT_EQ(count_of(ro.err, "[OUTPUT_UNWRITABLE]"), 1u) << ro.err;
    EXPECT_NE(ro.err.find("cannot write into " + (read_only / "sub").string() + ": cannot create the folder: Permission denied; nothing baked"),
              std::string::npos)
        << ro.err;
}

/// Runs weft in a process group of its own (as a shell runs a job) with standard error on a pipe and
/// WEFT_BAKE_FAULT set; returns its pid and the pipe's reading end.
std::pair<pid_t, int> spawn_job(const std::vector<std::string>& args, const std::string& fault) {
    std::vector<std::string> argv{test::weft_exe().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    int err[2];
    if (::pipe(err) != 0) return {-1, -1};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        ::setenv("WEFT_BAKE_FAULT", fault.c_str(), 1);
        ::dup2(err[1], 2);
        ::close(err[0]);
        ::close(err[1]);
        ::execv(raw[0], raw.data());
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::close(err[1]);
    return {pid, err[0]};
}

/// Reads `fd` into `text` until `what` appears in it or the pipe closes (or a minute passes, so a
/// broken program fails the test rather than hanging it).
bool read_until(int fd, std::string& text, const std::string& what) {
    while (text.find(what) == std::string::npos) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 60000) <= 0) return false;
        char chunk[4096];
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n <= 0) return false;
        text.append(chunk, static_cast<size_t>(n));
    }
    return true;
}

// Ctrl-C reaches the whole job (the driver and its workers): the driver says how many models are
// finished and that the same command goes on from there, and dies of the signal, so a shell sees
// status 130 and make stops; the rerun skips the finished models and bakes the rest.
TEST(BakeDriver, CtrlCSaysWhatWasFinishedAndTheSameCommandResumes) {
    const fs::path dir = test::scratch_dir("bake_interrupt");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    for (const char* name : {"a.glb", "b.glb", "c.glb"}) fs::copy_file(test::testdata_dir() / "flag.glb", in / name);
    const fs::path out = dir / "out";
    const std::vector<std::string> args{"bake", in.string(), "-o", out.string(), "-j", "1"};
    auto [pid, fd] = spawn_job(args, "hang:c.glb");  // c.glb is baked last (equal sizes: walk order) and never ends
    ASSERT_GT(pid, 0);
    std::string err;
    const bool two_done = read_until(fd, err, "[2/3] b.glb: built\n");
    ::kill(-pid, SIGINT);  // the terminal's Ctrl-C: every process of the job
    read_until(fd, err, "\x01");  // to the end
    ::close(fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ASSERT_TRUE(two_done) << err;
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status << "\n" << err;
    EXPECT_NE(err.find("weft bake: interrupted: 2 of 3 models are finished in " + out.string() +
                       "; the same command again bakes the other 1 and does not bake the finished ones again"),
              std::string::npos)
        << err;
    EXPECT_EQ(count_of(err, "interrupted"), 1u) << "the workers say nothing:\n" << err;
    EXPECT_EQ(err.find("CRASHED"), std::string::npos) << err;
    const auto again = test::run_weft(args);
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.err.find("[1/3] a.glb: built (unchanged)"), std::string::npos) << again.err;
    EXPECT_NE(again.err.find("[2/3] b.glb: built (unchanged)"), std::string::npos) << again.err;
    EXPECT_NE(again.err.find("[3/3] c.glb: built\n"), std::string::npos) << again.err;
}

// A rule whose `file` glob names none of the models would silently do nothing (a misspelt file
// name): a warning naming the config, the rule and the models there are; rules that match, and
// rules without `file`, say nothing.
TEST(BakeDriver, AConfigRuleWhoseFileNamesNoModelIsAWarning) {
    const fs::path dir = test::scratch_dir("bake_rule_no_model");
    const fs::path config = dir / "weft.json";
    std::ofstream(config) << R"({"schema": "weft.config/1",
      "garments": [{"file": "Flagg.glb", "material": "Flag", "class": "flag"},
                   {"file": "flag.glb", "material": "Flag", "class": "flag", "pin": "top"},
                   {"material": "Cape", "class": "cape"}],
      "clips": [{"file": "knight/*", "clips": "none"}],
      "colliders": [{"file": "fl?g.glb", "bone": "Hips", "edit": "remove"}]})";
    const fs::path library = dir / "library";  // a folder walked: the library the rules are for
    fs::create_directories(library);
    fs::copy_file(test::testdata_dir() / "flag.glb", library / "flag.glb", fs::copy_options::overwrite_existing);
    const std::vector<std::string> args{"bake", library.string(), "-o", (dir / "out").string(), "--config", config.string()};
    const auto r = test::run_weft(args);
    EXPECT_EQ(r.exit_code, 0) << "a warning: " << r.err;
    EXPECT_NE(r.err.find("weft bake: warning: " + config.string() +
                         " /garments/0: \"file\": \"Flagg.glb\" matches none of the models baked (flag.glb); the rule "
                         "applies to nothing [CONFIG_RULE_MATCHES_NO_MODEL]"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(" /clips/0: \"file\": \"knight/*\" matches none"), std::string::npos) << r.err;
    EXPECT_EQ(count_of(r.err, "CONFIG_RULE_MATCHES_NO_MODEL"), 2u) << r.err;
    const json report = test::read_json_file(dir / "out" / "bake-report.json");
    EXPECT_EQ(test::schema_errors(report.dump(), "bake-report.schema.json"), "");
    ASSERT_EQ(report["issues"].size(), 2u) << report["issues"].dump();
    EXPECT_EQ(report["issues"][0]["code"], "CONFIG_RULE_MATCHES_NO_MODEL");
    EXPECT_EQ(report["issues"][0]["severity"], "warning");
    EXPECT_EQ(report["issues"][0]["pointer"], "/garments/0");
    EXPECT_EQ(report["issues"][1]["pointer"], "/clips/0");
    EXPECT_EQ(report["totals"]["input_errors"], 0);
    auto quiet_args = args;
    quiet_args.push_back("-q");
    EXPECT_EQ(test::run_weft(quiet_args).err, "") << "-q: errors only";
    // One model named on its own (a build farm's action with the whole library's config): the rules
    // for the other models are not a mistake, and nothing is said.
    const auto one = test::run_weft({"bake", (library / "flag.glb").string(), "-o", (dir / "one").string(), "--config", config.string()});
    EXPECT_EQ(one.exit_code, 0) << one.err;
    EXPECT_EQ(count_of(one.err, "CONFIG_RULE_MATCHES_NO_MODEL"), 0u) << one.err;
}

}  // namespace
}  // namespace weft
