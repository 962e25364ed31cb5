// `weft bake` when the run itself meets trouble (docs/bad-inputs.md, "Running a bake"): a model
// whose bake crashes, runs out of memory or never ends fails alone, with its code, while the others
// are baked and the report, depfile and stamps are written; outputs never replace a FIFO, a device
// or a link, never lead out of OUT, never remove an input; the walk names an unreadable folder, a
// link loop, a FIFO and a name that is not UTF-8 and goes on; FIFOs given as files never block.
// Every input is made here, from the generated fixtures in testdata/.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "batch/model_limits.h"
#include "io/atomic_file.h"
#include "support/file_times.h"
#include "support/json_files.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

bool has_code(const json& issues, const std::string& code) {
    for (const json& i : issues)
        if (i["code"] == code) return true;
    return false;
}

std::string issue_message(const json& issues, const std::string& code) {
    for (const json& i : issues)
        if (i["code"] == code) return i["message"];
    return "";
}

/// `weft ARGS` under a 60 s `timeout` (a hang fails the test as exit 124, never stalls the suite),
/// with WEFT_BAKE_FAULT set to `fault` when given.
test::CommandResult weft_bounded(std::vector<std::string> args, const std::string& fault = "") {
    args.insert(args.begin(), {"/usr/bin/timeout", "60", test::weft_exe().string()});
    if (!fault.empty()) ::setenv("WEFT_BAKE_FAULT", fault.c_str(), 1);
    test::CommandResult r = test::run_command(args);
    ::unsetenv("WEFT_BAKE_FAULT");
    return r;
}

/// A folder of three small good models: a.glb, b.glb (the flag) and c/m.glb (the mannequin).
fs::path three_models(const fs::path& dir) {
    const fs::path in = dir / "in";
    fs::create_directories(in / "c");
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "a.glb");
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "b.glb");
    fs::copy_file(test::testdata_dir() / "mannequin.glb", in / "c" / "m.glb");
    return in;
}

// --- A crash never takes the batch down -------------------------------------------------------

TEST(BakeHostile, CrashOfOneModelFailsOnlyItAndTheRunWritesEverything) {
    for (const std::string kind : {"segv", "abort"}) {
        SCOPED_TRACE(kind);
        const fs::path dir = test::scratch_dir("bake_crash_" + kind);
        const fs::path in = three_models(dir);
        const fs::path out = dir / "out";
        const auto r = weft_bounded({"bake", in.string(), "-o", out.string(), "-j", "2", "--depfile",
                                     (dir / "bake.d").string()},
                                    kind + ":b.glb");
        EXPECT_EQ(r.exit_code, 1) << r.err;
        const json report = test::read_json_file(out / "bake-report.json");
        ASSERT_TRUE(report.is_object());
        EXPECT_EQ(report["totals"]["models"], 3);
        EXPECT_EQ(report["totals"]["built"], 2);
        EXPECT_EQ(report["totals"]["failed"], 1);
        const json* b = test::bake_report_model(report, "b.glb");
        ASSERT_TRUE(b);
        EXPECT_EQ((*b)["status"], "failed");
        ASSERT_TRUE(has_code((*b)["issues"], "CRASHED")) << (*b)["issues"].dump();
        const std::string why = issue_message((*b)["issues"], "CRASHED");
        // Under the sanitizers their own handler catches the signal and exits with an error status.
        if (!built_with_sanitizers()) { EXPECT_NE(why.find(kind == "segv" ? "SIGSEGV" : "SIGABRT"), std::string::npos) << why; }
        EXPECT_NE(why.find("in stage build"), std::string::npos) << why;
        // The others were baked and stamped; the crashed one has no stamp, so the next run retries it.
        EXPECT_TRUE(fs::exists(out / "a.glb" / "bake-stamp.json"));
        EXPECT_TRUE(fs::exists(out / "c" / "m.glb" / "bake-stamp.json"));
        EXPECT_FALSE(fs::exists(out / "b.glb" / "bake-stamp.json"));
        // The depfile still names the crashed model: editing it re-runs the bake.
        std::vector<uint8_t> dep;
        ASSERT_EQ(read_file(dir / "bake.d", dep), "");
        EXPECT_NE(std::string(dep.begin(), dep.end()).find("in/b.glb"), std::string::npos);
        // Without the fault the next run bakes it and skips the rest.
        const auto again = weft_bounded({"bake", in.string(), "-o", out.string(), "-j", "2"});
        EXPECT_EQ(again.exit_code, 0) << again.err;
        const json second = test::read_json_file(out / "bake-report.json");
        EXPECT_EQ(second["totals"]["built"], 3);
        EXPECT_EQ(second["totals"]["unchanged"]["built"], 2);
        EXPECT_EQ(second["totals"]["built"], 3);
    }
}

TEST(BakeHostile, OutOfMemoryIsThatModelsCodeUnderMaxMemory) {
    if (built_with_sanitizers()) GTEST_SKIP() << "no address-space limit under the sanitizers (their shadow memory)";
    const fs::path dir = test::scratch_dir("bake_oom");
    const fs::path in = three_models(dir);
    const fs::path out = dir / "out";
    const auto start = std::chrono::steady_clock::now();
    const auto r = weft_bounded({"bake", in.string(), "-o", out.string(), "-j", "2", "--max-memory", "512"},
                                "oom:c/m.glb");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json report = test::read_json_file(out / "bake-report.json");
    const json* m = test::bake_report_model(report, "c/m.glb");
    ASSERT_TRUE(m);
    EXPECT_EQ((*m)["status"], "failed");
    EXPECT_TRUE(has_code((*m)["issues"], "OUT_OF_MEMORY")) << (*m)["issues"].dump();
    EXPECT_EQ(report["totals"]["built"], 2);
}

TEST(BakeHostile, ARunawayModelIsStoppedAtTheTimeLimit) {
    const fs::path dir = test::scratch_dir("bake_timeout");
    const fs::path in = three_models(dir);
    const fs::path out = dir / "out";
    const auto start = std::chrono::steady_clock::now();
    const auto r = weft_bounded({"bake", in.string(), "-o", out.string(), "-j", "2", "--time-limit", "1"}, "hang:a.glb");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_LT(seconds, 20.0);
    const json report = test::read_json_file(out / "bake-report.json");
    const json* a = test::bake_report_model(report, "a.glb");
    ASSERT_TRUE(a);
    EXPECT_EQ((*a)["status"], "failed");
    EXPECT_NE(issue_message((*a)["issues"], "TIMED_OUT").find("1 s"), std::string::npos) << (*a)["issues"].dump();
    EXPECT_EQ(report["totals"]["built"], 2);
    // A bad limit is a bad command line.
    EXPECT_EQ(weft_bounded({"bake", in.string(), "-o", out.string(), "--time-limit", "-3"}).exit_code, 2);
}

// --- Outputs ------------------------------------------------------------------------------------

TEST(BakeHostile, ReportAndDepfileNeverReplaceAFifoALinkOrADevice) {
    const fs::path dir = test::scratch_dir("bake_special_outputs");
    const fs::path model = test::testdata_dir() / "flag.glb";
    const fs::path fifo = dir / "report.fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    const fs::path target = dir / "precious.txt";
    {
        ASSERT_EQ(write_file_atomic(target, std::string_view("keep me\n")), "");
    }
    const fs::path link = dir / "report.link";
    fs::create_symlink(target, link);
    std::vector<fs::path> specials{fifo, link};
    const fs::path device = dir / "null.dev";
    if (::geteuid() == 0 && ::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) specials.push_back(device);
    for (const fs::path& special : specials) {
        SCOPED_TRACE(special.filename().string());
        for (const std::string option : {"--report", "--depfile"}) {
            const auto r = weft_bounded({"bake", model.string(), "-o", (dir / "out").string(), option, special.string()});
            EXPECT_EQ(r.exit_code, 1) << r.err;
            EXPECT_NE(r.err.find("OUTPUT_NOT_REGULAR"), std::string::npos) << r.err;
            EXPECT_NE(r.err.find(special.filename().string()), std::string::npos) << r.err;
            EXPECT_TRUE(fs::exists(dir / "out" / "bake-report.json"));  // the rest is still written
        }
    }
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(target, bytes), "");
    EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "keep me\n");
    if (specials.size() == 3) { EXPECT_TRUE(fs::is_character_file(fs::symlink_status(device))); }
    // bake-report.json itself in OUT, and a model's own output, as FIFOs.
    const fs::path out = dir / "out2";
    fs::create_directories(out / "flag.glb");
    ASSERT_EQ(::mkfifo((out / "bake-report.json").c_str(), 0644), 0);
    ASSERT_EQ(::mkfifo((out / "flag.glb" / "report.json").c_str(), 0644), 0);
    const auto r = weft_bounded({"bake", model.string(), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("OUTPUT_NOT_REGULAR"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(out / "bake-report.json")));
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(out / "flag.glb" / "report.json")));
}

TEST(BakeHostile, AModelStoredInItsOwnOutputFolderIsNeverListedNorRemoved) {
    const fs::path dir = test::scratch_dir("bake_input_in_out");
    const fs::path out = dir / "out";
    fs::create_directories(out / "flag.glb");
    const fs::path model = out / "flag.glb" / "flag.glb";
    fs::copy_file(test::testdata_dir() / "flag.glb", model);
    fs::copy_file(test::testdata_dir() / "flag.glb", out / "flag.glb" / "notes.glb");  // the user's, beside it
    for (int run = 0; run < 3; ++run) {
        const auto r = weft_bounded({"bake", model.string(), "-o", out.string(), "--force"});
        EXPECT_NE(r.exit_code, 2) << r.err;
        ASSERT_TRUE(fs::exists(model)) << "run " << run;
        EXPECT_TRUE(fs::exists(out / "flag.glb" / "notes.glb")) << "run " << run;
        const json report = test::read_json_file(out / "bake-report.json");
        const json* m = test::bake_report_model(report, "flag.glb");
        ASSERT_TRUE(m);
        for (const json& f : (*m)["outputs"]) {
            EXPECT_NE(f, "flag.glb");
            EXPECT_NE(f, "notes.glb");
            EXPECT_TRUE(fs::exists(out / "flag.glb" / f.get<std::string>())) << f;  // never a file that is gone
        }
        EXPECT_FALSE((*m)["outputs"].empty());
    }
    // A stamp of an older weft that listed the model as an output: the rebuild still keeps it.
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(out / "flag.glb" / "bake-stamp.json", bytes), "");
    json stamp = json::parse(bytes.begin(), bytes.end());
    stamp["outputs"].push_back("flag.glb");
    stamp["input_hash"] = "xxh64:0";
    ASSERT_EQ(write_file_atomic(out / "flag.glb" / "bake-stamp.json", stamp.dump()), "");
    EXPECT_NE(weft_bounded({"bake", model.string(), "-o", out.string()}).exit_code, 2);
    EXPECT_TRUE(fs::exists(model));
}

TEST(BakeHostile, TwoInputsWithTheSameRelativePathNeverShareAnOutputFolder) {
    const fs::path dir = test::scratch_dir("bake_clash");
    fs::create_directories(dir / "one" / "a");
    fs::create_directories(dir / "two" / "a");
    fs::copy_file(test::testdata_dir() / "flag.glb", dir / "one" / "a" / "b.glb");
    fs::copy_file(test::testdata_dir() / "mannequin.glb", dir / "two" / "a" / "b.glb");
    const fs::path out = dir / "out";
    const auto r = weft_bounded({"bake", (dir / "one").string(), (dir / "two").string(), "-o", out.string(), "-j", "2"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json report = test::read_json_file(out / "bake-report.json");
    ASSERT_EQ(report["models"].size(), 2u);
    EXPECT_EQ(report["models"][0]["status"], "built");
    EXPECT_EQ(report["models"][1]["status"], "refused");
    const std::string why = issue_message(report["models"][1]["issues"], "OUTPUT_CLASH");
    EXPECT_NE(why.find("two/a/b.glb"), std::string::npos) << why;
    EXPECT_NE(why.find("one/a/b.glb"), std::string::npos) << why;
    // OUT/a/b.glb/ holds the first input's outputs, every one listed there.
    EXPECT_TRUE(fs::exists(out / "a" / "b.glb" / "b.cloth.json"));
    for (const json& f : report["models"][0]["outputs"]) EXPECT_TRUE(fs::exists(out / "a" / "b.glb" / f.get<std::string>())) << f;
    EXPECT_TRUE(report["models"][1]["outputs"].empty());
}

// Two bakes into one OUT at once each wrote every file whole, but a model's folder could end with the
// grown model of one and the sidecar and stamp of the other (the mannequin with --classes skirt beside
// it without: 3 of 10 rounds mixed, both runs exiting 0, and the next run called the mix unchanged).
// A bake holds OUT for itself (flock on the folder): a second is refused before it writes anything.
TEST(BakeHostile, ABakeIntoAFolderAnotherBakeHoldsIsRefusedBeforeItWritesAnything) {
    const fs::path dir = test::scratch_dir("bake_held");
    const fs::path out = dir / "out";
    fs::create_directories(out);
    const int held = ::open(out.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);  // as a running bake holds it
    ASSERT_GE(held, 0);
    ASSERT_EQ(::flock(held, LOCK_EX | LOCK_NB), 0);
    for (const char* command : {"bake", "view"}) {
        const auto r = weft_bounded({command, (test::testdata_dir() / "flag.glb").string(), "-o", out.string()});
        EXPECT_EQ(r.exit_code, 1) << command << ": " << r.err;
        EXPECT_NE(r.err.find("cannot write into " + out.string() + ": another weft is writing into it"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("[OUTPUT_UNWRITABLE]"), std::string::npos) << r.err;
        EXPECT_TRUE(fs::is_empty(out)) << command << " wrote into a folder another bake holds";
    }
    ::close(held);  // that bake ends: the folder is free
    const auto r = weft_bounded({"bake", (test::testdata_dir() / "flag.glb").string(), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(out / "bake-report.json"));
}

TEST(BakeHostile, AnOutputFolderLinkedOutOfOutIsNeverWrittenThrough) {
    const fs::path dir = test::scratch_dir("bake_out_link");
    const fs::path in = dir / "in";
    fs::create_directories(in / "sub");
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "sub" / "flag.glb");
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "good.glb");
    const fs::path elsewhere = dir / "elsewhere";
    fs::create_directories(elsewhere);
    const fs::path out = dir / "out";
    fs::create_directories(out);
    fs::create_directory_symlink(elsewhere, out / "sub");
    const auto r = weft_bounded({"bake", in.string(), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_TRUE(fs::is_empty(elsewhere));
    const json report = test::read_json_file(out / "bake-report.json");
    const json* m = test::bake_report_model(report, "sub/flag.glb");
    ASSERT_TRUE(m);
    EXPECT_EQ((*m)["status"], "refused");
    EXPECT_TRUE(has_code((*m)["issues"], "OUTPUT_OUTSIDE_OUT")) << (*m)["issues"].dump();
    EXPECT_EQ((*test::bake_report_model(report, "good.glb"))["status"], "built");
}

// A model's output folder that cannot be resolved at all (here a link to itself) is a folder weft
// could not write, said as such, not a link "out of OUT"; the other model is built.
TEST(BakeHostile, AnOutputFolderThatCannotBeResolvedFailsThatModelAlone) {
    const fs::path dir = test::scratch_dir("bake_out_loop");
    const fs::path in = dir / "in";
    fs::create_directories(in / "sub");
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "sub" / "flag.glb");
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "good.glb");
    const fs::path out = dir / "out";
    fs::create_directories(out);
    fs::create_directory_symlink("sub", out / "sub");  // OUT/sub -> OUT/sub
    const auto r = weft_bounded({"bake", in.string(), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json report = test::read_json_file(out / "bake-report.json");
    const json* m = test::bake_report_model(report, "sub/flag.glb");
    ASSERT_TRUE(m);
    EXPECT_EQ((*m)["status"], "failed");
    EXPECT_TRUE(has_code((*m)["issues"], "OUTPUT_UNWRITABLE")) << (*m)["issues"].dump();
    EXPECT_FALSE(has_code((*m)["issues"], "OUTPUT_OUTSIDE_OUT")) << (*m)["issues"].dump();
    EXPECT_NE((*m)["issues"].dump().find("cannot be resolved"), std::string::npos) << (*m)["issues"].dump();
    EXPECT_EQ((*test::bake_report_model(report, "good.glb"))["status"], "built");
}

// An image renamed to .glb is said to be one; a file no reader knows is named by its path in its
// INPUT, never by an absolute path (which Assimp's message quoted, into every report and the page).
TEST(BakeHostile, ARenamedImageIsNamedAsOneAndNoOutputHoldsAnAbsolutePath) {
    const fs::path dir = test::scratch_dir("bake_not_a_model");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    std::ofstream(in / "picture.glb", std::ios::binary) << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << "pixels";
    std::ofstream(in / "notes.fbx", std::ios::binary) << "these are my notes, not a model\n";
    const fs::path out = dir / "out";
    const auto r = weft_bounded({"bake", in.string(), "-o", out.string()});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json report = test::read_json_file(out / "bake-report.json");
    const json* picture = test::bake_report_model(report, "picture.glb");
    ASSERT_TRUE(picture) << report.dump();
    EXPECT_EQ(issue_message((*picture)["issues"], "UNKNOWN_FORMAT"),
              "picture.glb: not a model: its bytes are a PNG image's (a file renamed or saved with the wrong extension?)");
    const json* notes = test::bake_report_model(report, "notes.fbx");
    ASSERT_TRUE(notes) << report.dump();
    EXPECT_TRUE(has_code((*notes)["issues"], "UNKNOWN_FORMAT") || has_code((*notes)["issues"], "IMPORT_FAILED")) << (*notes)["issues"];
    for (const auto& e : fs::recursive_directory_iterator(out)) {
        if (!e.is_regular_file()) continue;
        std::ifstream f(e.path(), std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        EXPECT_EQ(text.find(fs::absolute(dir).string()), std::string::npos) << e.path() << " names the absolute path";
    }
}

// --- The walk -----------------------------------------------------------------------------------

TEST(BakeHostile, WalkNamesLoopsFifosUnreadableFoldersAndOddNamesAndGoesOn) {
    const fs::path dir = test::scratch_dir("bake_walk");
    const fs::path in = three_models(dir);
    fs::create_symlink("loop.glb", in / "loop.glb");                       // a link to itself
    fs::create_directory_symlink("..", in / "c" / "up");                   // a folder link round the tree
    ASSERT_EQ(::mkfifo((in / "pipe.glb").c_str(), 0644), 0);               // would block an open
    const std::string odd = std::string("bad\xff\xfe") + "name.glb";        // not UTF-8
    fs::copy_file(test::testdata_dir() / "flag.glb", in / odd);
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "sp ace#1$.glb");
    fs::create_directories(in / "locked");
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "locked" / "x.glb");
    ::chmod((in / "locked").c_str(), 0);
    // As root a mode of 0 still opens: run as nobody where this test runs as root.
    std::vector<std::string> args{"bake", in.string(), "-o", (dir / "out").string(), "-j", "2"};
    std::vector<std::string> argv{"/usr/bin/timeout", "60"};
    const bool as_nobody = ::geteuid() == 0 && fs::exists("/usr/bin/setpriv");
    if (as_nobody) {
        for (const char* a : {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"}) argv.push_back(a);
        for (const fs::path& d : {dir, in, in / "c"}) fs::permissions(d, fs::perms::all);
        for (fs::path p = dir.parent_path(); p != p.root_path(); p = p.parent_path())
            fs::permissions(p, fs::perms::others_exec, fs::perm_options::add);
    }
    argv.push_back(test::weft_exe().string());
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = test::run_command(argv);
    ::chmod((in / "locked").c_str(), 0755);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    const json report = test::read_json_file(dir / "out" / "bake-report.json");
    ASSERT_TRUE(report.is_object()) << "the report is valid JSON";
    EXPECT_TRUE(has_code(report["issues"], "INPUT_LINK_LOOP")) << report["issues"].dump();
    EXPECT_NE(issue_message(report["issues"], "INPUT_NOT_REGULAR").find("pipe.glb"), std::string::npos);
    if (as_nobody) {
        EXPECT_NE(issue_message(report["issues"], "INPUT_UNREADABLE").find("locked"), std::string::npos)
            << report["issues"].dump();
    }
    // Every good model is baked, the odd name with its bytes escaped as \xHH.
    const json* escaped = test::bake_report_model(report, "bad\\xFF\\xFEname.glb");
    ASSERT_TRUE(escaped) << report["models"].dump();
    EXPECT_EQ((*escaped)["status"], "built");
    EXPECT_TRUE(has_code((*escaped)["issues"], "NAME_NOT_UTF8"));
    EXPECT_TRUE(fs::exists(dir / "out" / odd / "report.json"));
    for (const char* good : {"a.glb", "b.glb", "c/m.glb", "sp ace#1$.glb"}) {
        const json* m = test::bake_report_model(report, good);
        ASSERT_TRUE(m) << good;
        EXPECT_EQ((*m)["status"], "built") << good;
    }
    EXPECT_EQ(test::bake_report_model(report, "c/up/a.glb"), nullptr);  // folder links are not followed
}

// A model deeper than PATH_MAX (4,096 bytes) in an INPUT folder: the walk could not look at it and
// skipped it without a word ("0 models", exit 0). Now it is named, and the run's status says so.
TEST(BakeHostile, AModelPastPathMaxInTheWalkIsNamedNotSkippedSilently) {
    const fs::path dir = test::scratch_dir("bake_deep");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    // Built a level at a time from descriptors: no path this long can be given to mkdir.
    const std::string level(200, 'd');
    std::vector<int> fds{::open(in.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
    ASSERT_GE(fds.back(), 0);
    for (int depth = 0; depth < 22; ++depth) {  // 22 x 201 bytes: past 4,096 below `in`
        ASSERT_EQ(::mkdirat(fds.back(), level.c_str(), 0755), 0);
        fds.push_back(::openat(fds.back(), level.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        ASSERT_GE(fds.back(), 0);
    }
    {
        const std::string glb = [] {
            std::ifstream f(test::testdata_dir() / "flag.glb", std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(f), {});
        }();
        const int fd = ::openat(fds.back(), "flag.glb", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::write(fd, glb.data(), glb.size()), ssize_t(glb.size()));
        ::close(fd);
    }
    const auto r = weft_bounded({"bake", in.string(), "-o", (dir / "out").string(), "--no-page"});
    // Taken apart from the bottom before anything can fail (fs::remove_all cannot reach that deep).
    ::unlinkat(fds.back(), "flag.glb", 0);
    for (size_t k = fds.size() - 1; k > 0; --k) {
        ::close(fds[k]);
        ::unlinkat(fds[k - 1], level.c_str(), AT_REMOVEDIR);
    }
    ::close(fds[0]);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json report = test::read_json_file(dir / "out" / "bake-report.json");
    ASSERT_TRUE(report.is_object());
    const std::string why = issue_message(report["issues"], "INPUT_UNREADABLE");
    EXPECT_NE(why.find("cannot read: File name too long; skipped"), std::string::npos) << report["issues"].dump();
    EXPECT_NE(why.find(level + "/" + level), std::string::npos) << "names the path";
}

TEST(BakeHostile, FifosGivenAsFilesAreRefusedWithoutBlocking) {
    const fs::path dir = test::scratch_dir("bake_fifo_args");
    const fs::path fifo_json = dir / "weft.json";
    const fs::path fifo_proxy = dir / "p.clothproxy";
    const fs::path fifo_glb = dir / "m.glb";
    for (const fs::path& f : {fifo_json, fifo_proxy, fifo_glb}) ASSERT_EQ(::mkfifo(f.c_str(), 0644), 0);
    const auto start = std::chrono::steady_clock::now();
    const auto config = weft_bounded({"bake", (test::testdata_dir() / "flag.glb").string(), "-o", (dir / "out").string(),
                                      "--config", fifo_json.string()});
    EXPECT_EQ(config.exit_code, 2) << config.err;
    EXPECT_NE(config.err.find("FIFO"), std::string::npos) << config.err;
    for (const char* command : {"validate", "dump"}) {
        const auto r = weft_bounded({command, fifo_proxy.string()});
        EXPECT_EQ(r.exit_code, 1) << command << ": " << r.err;
        EXPECT_NE(r.err.find("FIFO"), std::string::npos) << command << ": " << r.err;
    }
    const auto model = weft_bounded({"bake", fifo_glb.string(), "-o", (dir / "out").string()});
    EXPECT_EQ(model.exit_code, 1) << model.err;
    EXPECT_NE(model.err.find("INPUT_NOT_REGULAR"), std::string::npos) << model.err;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

// --- The depfile, read by Ninja -----------------------------------------------------------------

TEST(BakeHostile, DepfileNamesReadByNinjaRebakeWhenTouched) {
    const fs::path ninja = "/usr/bin/ninja";
    if (!fs::exists(ninja)) GTEST_SKIP() << "ninja not installed";
    const fs::path dir = test::scratch_dir("bake_depfile_ninja");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    const std::string name = "a b#c$d:e\\f.glb";
    fs::copy_file(test::testdata_dir() / "flag.glb", in / name);
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "new\nline.glb");  // no depfile can name it
    {
        std::string build = "rule bake\n  command = " + test::weft_exe().string() +
                            " bake in -o out -q --depfile bake.d\n  depfile = bake.d\n  deps = gcc\n"
                            "build out/bake-report.json: bake\n";
        ASSERT_EQ(write_file_atomic(dir / "build.ninja", build), "");
    }
    auto run_ninja = [&] { return test::run_command({ninja.string(), "-C", dir.string()}); };
    const auto first = run_ninja();
    ASSERT_NE(first.out.find("[1/1]"), std::string::npos) << first.out << first.err;
    ASSERT_EQ(first.out.find("FAILED"), std::string::npos) << first.out << first.err;
    const json report = test::read_json_file(dir / "out" / "bake-report.json");
    EXPECT_TRUE(has_code(report["issues"], "DEPFILE_UNREPRESENTABLE")) << report["issues"].dump();
    const auto deps = test::run_command({ninja.string(), "-C", dir.string(), "-t", "deps"});
    EXPECT_NE(deps.out.find("in/" + name), std::string::npos) << deps.out;  // read back exactly
    EXPECT_NE(run_ninja().out.find("no work to do"), std::string::npos);
    // Touching the model with every special character in its name re-runs the bake, once.
    ASSERT_EQ(test::touch_later_than(in / name, dir / "out" / "bake-report.json"), "");
    EXPECT_EQ(run_ninja().out.find("no work to do"), std::string::npos);
    EXPECT_NE(run_ninja().out.find("no work to do"), std::string::npos);
}

// --- All of it at once, beside the shared models -------------------------------------------------

TEST(BakeHostile, HostileCasesMixedWithTheSharedModelsBakeEveryGoodModel) {
    const fs::path shared = test::shared_models_dir();
    if (shared.empty() || !fs::exists(shared)) GTEST_SKIP() << "shared models not present";
    const fs::path dir = test::scratch_dir("bake_hostile_mix");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    fs::create_symlink("loop.glb", in / "loop.glb");
    ASSERT_EQ(::mkfifo((in / "pipe.glb").c_str(), 0644), 0);
    fs::copy_file(test::testdata_dir() / "flag.glb", in / (std::string("x\xff") + ".glb"));
    fs::copy_file(test::testdata_dir() / "flag.glb", in / "crash.glb");
    const fs::path out = dir / "out";
    const auto r = weft_bounded({"bake", shared.string(), in.string(), "-o", out.string(), "-j", "2", "--depfile",
                                 (dir / "d").string()},
                                "segv:crash.glb");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const json report = test::read_json_file(out / "bake-report.json");
    ASSERT_TRUE(report.is_object());
    EXPECT_TRUE(fs::exists(dir / "d"));
    size_t shared_models = 0;
    for (const json& m : report["models"]) {
        const std::string input = m["input"];
        if (input == "crash.glb") {
            EXPECT_TRUE(has_code(m["issues"], "CRASHED"));
            continue;
        }
        EXPECT_NE(m["status"], "failed") << input << ": " << m["issues"].dump();
        if (fs::exists(shared / input)) ++shared_models;
    }
    EXPECT_GE(shared_models, 10u);
    EXPECT_TRUE(has_code(report["issues"], "INPUT_LINK_LOOP"));
    EXPECT_TRUE(has_code(report["issues"], "INPUT_NOT_REGULAR"));
}

}  // namespace
}  // namespace weft
