#include "support/paths.h"

#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace weft::test {

namespace fs = std::filesystem;

fs::path shared_models_dir() { return WEFT_SHARED_MODELS_DIR; }
fs::path testdata_dir() { return WEFT_TESTDATA_DIR; }
fs::path source_dir() { return WEFT_SOURCE_DIR; }
fs::path binary_dir() { return WEFT_BINARY_DIR; }
fs::path weft_exe() { return WEFT_EXE; }

fs::path shared_model(const std::string& name) {
    fs::path p = shared_models_dir() / name;
    std::error_code ec;
    return fs::exists(p, ec) ? p : fs::path{};
}

fs::path shared_models_config() { return source_dir() / "tests" / "golden" / "weft.json"; }

fs::path scratch_dir(const std::string& test_name) {
    fs::path p = binary_dir() / "test-scratch" / test_name;
    std::error_code ec;
    fs::remove_all(p, ec);
    fs::create_directories(p);
    return p;
}

CommandResult run_command(const std::vector<std::string>& argv) {
    CommandResult result;
    int out_pipe[2], err_pipe[2];
    if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) {
        result.err = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        close(out_pipe[0]); close(out_pipe[1]);
        close(err_pipe[0]); close(err_pipe[1]);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    std::array<pollfd, 2> fds{{{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}}};
    std::array<std::string*, 2> sinks{&result.out, &result.err};
    int open_count = 2;
    char buf[65536];
    while (open_count > 0) {
        if (poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (size_t i = 0; i < fds.size(); ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                sinks[i]->append(buf, static_cast<size_t>(n));
            } else {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_count;
            }
        }
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
    return result;
}

CommandResult run_weft(const std::vector<std::string>& args) {
    std::vector<std::string> argv{weft_exe().string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv);
}

std::string js_tools_missing(const std::string& package) {
    static const bool node = run_command({"/usr/bin/env", "node", "--version"}).exit_code == 0;
    const fs::path js = source_dir() / "tests" / "js";
    const std::string fix = ": run `npm ci` in tests/js (scripts/test.sh runs it before the tests)";
    if (!node) return "node is not installed (scripts/deps.sh installs it), so tests/js cannot run " + package;
    if (!fs::exists(js / "node_modules" / package)) return "tests/js/node_modules/" + package + " is missing" + fix;
    // npm ci writes node_modules/.package-lock.json, the lock it installed; an older one is another lock's modules.
    std::error_code a, b;
    const auto installed = fs::last_write_time(js / "node_modules" / ".package-lock.json", a);
    const auto locked = fs::last_write_time(js / "package-lock.json", b);
    if (a || (!b && installed < locked)) return "tests/js/node_modules is older than tests/js/package-lock.json" + fix;
    return {};
}

std::string schema_errors(const std::string& json_text, const std::string& schema_file) {
    fs::path script = source_dir() / "tests" / "js" / "validate_schema.mjs";
    if (std::string missing = js_tools_missing("ajv"); !missing.empty()) return missing;
    fs::path data = scratch_dir("schema-" + std::to_string(::getpid()) + "-" +
                                std::to_string(std::hash<std::string>{}(json_text))) / "data.json";
    {
        std::ofstream f(data);
        f << json_text;
    }
    CommandResult r = run_command({"/usr/bin/env", "node", script.string(),
                                   (source_dir() / "schemas" / schema_file).string(), data.string()});
    if (r.exit_code == 0) return {};
    return r.err.empty() ? r.out + " (exit " + std::to_string(r.exit_code) + ")" : r.err;
}

}  // namespace weft::test
