#include "bake_run.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <cstdio>
#include <iostream>
#include <memory>

#include "interrupt.h"
#include "io/utf8_text.h"
#include "outputs/issue_json.h"
#include "outputs/model_output.h"
#include "outputs/view_page.h"
#include "pipeline/pipeline_codes.h"

namespace weft::cli {

namespace fs = std::filesystem;

bool inputs_exist(const std::vector<fs::path>& inputs, const std::string& who) {
    const Issues missing = missing_inputs(inputs);
    for (const Issue& i : missing) std::cerr << who << ": " << i.message << "; nothing baked [" << i.code << "]\n";
    return missing.empty();
}

bool out_writable(const fs::path& out, const std::string& who) {
    std::error_code ec;
    std::string why;
    if (fs::create_directories(out, ec); ec)
        why = fs::exists(out) && !fs::is_directory(out) ? "it is not a folder" : "cannot create the folder: " + ec.message();
    else if (!fs::is_directory(out, ec))
        why = "it is not a folder";
    else if (::access(out.c_str(), W_OK | X_OK) != 0)  // a read-only folder or file system
        why = std::strerror(errno);
    if (why.empty()) return true;
    std::cerr << who << ": cannot write into " << utf8_escaped(out.string()) << ": " << why << "; nothing baked ["
              << kOutputUnwritable.code << "]\n";
    return false;
}

int hold_out(const fs::path& out, const std::string& who) {
    const int fd = ::open(out.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    std::string why;
    if (fd < 0) why = std::strerror(errno);
    else if (::flock(fd, LOCK_EX | LOCK_NB) != 0)
        why = errno == EWOULDBLOCK ? "another weft is writing into it (one bake into one folder at a time: two at once mix their outputs)"
                                   : std::strerror(errno);
    if (why.empty()) return fd;
    if (fd >= 0) ::close(fd);
    std::cerr << who << ": cannot write into " << utf8_escaped(out.string()) << ": " << why << "; nothing baked ["
              << kOutputUnwritable.code << "]\n";
    return -1;
}

BakeProgress bake_progress(const std::string& who, const Verbosity& verbosity) {
    const bool quiet = verbosity.quiet;
    const bool tty = !quiet && isatty(STDERR_FILENO);
    const auto start = std::chrono::steady_clock::now();
    auto failed = std::make_shared<size_t>(0);  // not stamped: an interrupted run's rerun bakes them again
    return [=](const BakeModelResult& m, size_t done, size_t total) {
        *failed += m.status == ModelStatus::failed ? 1 : 0;
        note_bake_progress(done, total, *failed);
        const std::string name = utf8_escaped(m.input.relative);
        const std::string outcome = model_outcome_text(m.status, m.unchanged);
        if (tty) {
            const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const double left = spent / static_cast<double>(done) * static_cast<double>(total - done);
            std::fprintf(stderr, "\r\033[K[%zu/%zu] %s: %s, about %.0f s left", done, total, name.c_str(), outcome.c_str(), left);
            if (done == total) std::fprintf(stderr, "\n");
        } else if (!quiet) {
            std::cerr << "[" << done << "/" << total << "] " << name << ": " << outcome << "\n";
        }
        if (tty && done != total && !m.issues.empty()) std::fprintf(stderr, "\r\033[K");
        Issues escaped = m.issues;
        for (Issue& i : escaped) i.message = utf8_escaped(i.message);
        print_issues(std::cerr, who + ": " + name, escaped, verbosity);
    };
}

int finish_bake(const BakeResult& result, const BakeOptions& options, const BakeFinish& f) {
    for (const Issue& i : result.run_issues) {
        if (i.severity != Severity::error && f.verbosity.quiet) continue;
        std::cerr << f.who << ": " << (i.severity == Severity::warning ? "warning: " : "") << i.message << " [" << i.code << "]\n";
    }
    int status = result.exit_code() == 0 ? exit_ok : exit_refused;
    // Outputs replace only regular files: a FIFO, a device or a link in the way is refused by name.
    // Each is written a model at a time (the driver never holds a library's report whole).
    auto write_output = [&](const fs::path& path, const std::function<void(const TextSink&)>& produce) {
        Issues issues;
        const bool written = write_model_output(path, produce, issues);
        for (const Issue& i : issues) std::cerr << f.who << ": " << i.message << " [" << i.code << "]\n";
        if (!written) status = exit_refused;
        return written;
    };
    const fs::path report_path = f.out / "bake-report.json";
    Issues unrepresentable;  // the depfile's, which the report lists among the run's issues
    if (!f.depfile.empty()) {
        write_output(f.depfile, [&](const TextSink& sink) {
            write_bake_depfile(result, report_path.generic_string(), &unrepresentable, sink);
        });
        if (!f.verbosity.quiet)
            for (const Issue& i : unrepresentable) std::cerr << f.who << ": warning: " << i.message << " [" << i.code << "]\n";
    }
    auto report = [&](const TextSink& sink) { write_bake_report(result, options, unrepresentable, sink); };
    for (const fs::path& path : {report_path, f.report})
        if (!path.empty()) write_output(path, report);
    // The page over every model (each model's own is OUT/<model>/view.html): always rewritten, like
    // the report it is made from; named on standard error only once it is there.
    const nlohmann::json head = bake_report_head(result, options, unrepresentable);
    const bool page = f.page && write_output(f.out / "index.html", [&](const TextSink& sink) { write_bake_index(result, head, sink); });
    if (f.json) report([](std::string_view piece) { std::cout << piece; });
    if (!f.verbosity.quiet) {
        std::cerr << f.who << ": " << head["summary"].get<std::string>() << " -> " << utf8_escaped(f.out.string()) << "\n";
        if (page)
            std::cerr << f.who << ": the page: " << utf8_escaped((fs::absolute(f.out) / "index.html").lexically_normal().string())
                      << "\n";
        else if (f.page)
            std::cerr << f.who << ": the page was not written (above)\n";
    }
    return status;
}

}  // namespace weft::cli
