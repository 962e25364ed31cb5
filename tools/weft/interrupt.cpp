#include "interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "io/utf8_text.h"

namespace weft::cli {
namespace {

// The handler may only call async-signal-safe functions (POSIX, signal-safety(7)): it formats into
// a fixed buffer with its own digits and write(2)s once. The words are made before any signal.
std::atomic<size_t> models_done{0}, models_total{0}, models_unfinished{0};
pid_t driver_pid = 0;
bool on_terminal = false;
char who_text[128];
char out_text[512];

struct Text {
    char buffer[1024];
    size_t size = 0;
    void add(const char* s) {
        for (; *s && size < sizeof buffer; ++s) buffer[size++] = *s;
    }
    void add(size_t n) {
        char digits[24];
        size_t k = 0;
        do digits[k++] = static_cast<char>('0' + n % 10);
        while ((n /= 10) > 0 && k < sizeof digits);
        while (k > 0 && size < sizeof buffer) buffer[size++] = digits[--k];
    }
};

void on_signal(int sig) {
    if (::getpid() != driver_pid) {  // a worker: dies of the signal; the driver speaks for the run
        ::signal(sig, SIG_DFL);
        ::raise(sig);
        return;
    }
    const size_t total = models_total.load(), done = models_done.load(), unfinished = models_unfinished.load();
    const size_t finished = done >= unfinished ? done - unfinished : 0;  // read while the driver counts
    Text t;
    t.add(on_terminal ? "\r\033[K" : "");
    t.add(who_text);
    t.add(sig == SIGINT ? ": interrupted: " : ": terminated: ");
    if (total == 0) {
        t.add("no model was finished yet; the same command again bakes them all");
    } else {
        t.add(finished);
        t.add(" of ");
        t.add(total);
        t.add(total == 1 ? " model is finished in " : " models are finished in ");
        t.add(out_text);
        if (finished < total) {
            t.add("; the same command again bakes the other ");
            t.add(total - finished);
            t.add(" and does not bake the finished ones again");
        }
    }
    t.add(" (bake-report.json and the page are written by a run that ends)\n");
    for (size_t at = 0; at < t.size;) {
        const ssize_t n = ::write(STDERR_FILENO, t.buffer + at, t.size - at);
        if (n <= 0) break;
        at += static_cast<size_t>(n);
    }
    // Die of the signal itself (its default action), not exit(130): a shell, make or ninja calling
    // weft then knows it was interrupted and stops too.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void copy_text(char* to, size_t size, const std::string& from) {
    const size_t n = std::min(size - 1, from.size());
    std::memcpy(to, from.data(), n);
    to[n] = '\0';
}

}  // namespace

void say_progress_when_interrupted(const std::string& who, const std::filesystem::path& out) {
    driver_pid = ::getpid();
    on_terminal = ::isatty(STDERR_FILENO);
    copy_text(who_text, sizeof who_text, who);
    copy_text(out_text, sizeof out_text, utf8_escaped(out.string()));
    struct sigaction action{};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    for (int sig : {SIGINT, SIGTERM}) {
        struct sigaction before{};
        // A signal ignored when weft started (`nohup`, a background job of a shell without job
        // control) stays ignored, as POSIX asks of a program that handles it.
        if (::sigaction(sig, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
        ::sigaction(sig, &action, nullptr);
    }
}

void note_bake_progress(size_t done, size_t total, size_t unfinished) {
    models_unfinished.store(unfinished);
    models_total.store(total);
    models_done.store(done);
}

}  // namespace weft::cli
