// weft bake's walk (bake.h): every model file under the INPUTs, in an order no listing changes.
#include "batch/bake.h"

#include <algorithm>

#include "io/utf8_text.h"
#include "scene/model_formats.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

}  // namespace

bool is_model_file(const fs::path& path) { return is_model_extension(ascii_lower(path.extension().string())); }

namespace {

/// Walks `dir` (an INPUT folder or one below it) into `found`. Folders are listed one at a time, so
/// an unreadable one, a link loop or a special file is one named issue and the walk goes on. Links
/// to folders are not followed (a link can never lead the walk round a loop or out of the tree);
/// links to files are, as before.
void walk_folder(const fs::path& root, const fs::path& dir, size_t k, const fs::path& exclude,
                 std::vector<BakeInput>& found, Issues& issues) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
        issues.push_back(make_issue(kInputUnreadable, utf8_escaped(dir.string()) + ": cannot list the folder: " + ec.message() +
                              "; its models were not baked (the rest of the walk goes on)",
                          ""));
        return;
    }
    std::vector<fs::path> folders;
    for (; it != end; it.increment(ec)) {
        const fs::path path = it->path();
        std::error_code link_ec;
        const fs::file_status own = fs::symlink_status(path, link_ec);
        if (link_ec == std::errc::no_such_file_or_directory) continue;  // gone since the listing
        if (link_ec) {
            // A path past PATH_MAX (ENAMETOOLONG), say: its models were skipped without a word before.
            issues.push_back(make_issue(kInputUnreadable, utf8_escaped(path.string()) + ": cannot read: " + link_ec.message() +
                                  "; skipped (the rest of the walk goes on)",
                              ""));
            continue;
        }
        if (fs::is_directory(own)) {
            if (!is_under(path, exclude)) folders.push_back(path);
            continue;
        }
        const bool model = is_model_file(path);
        std::error_code target_ec;
        const fs::file_status target = fs::is_symlink(own) ? fs::status(path, target_ec) : own;
        if (target_ec) {
            if (target_ec == std::errc::too_many_symbolic_link_levels)
                issues.push_back(make_issue(kInputLinkLoop, utf8_escaped(path.string()) + ": a symbolic link loop; skipped (remove or re-point the link)", ""));
            else if (model)
                issues.push_back(make_issue(kInputUnreadable, utf8_escaped(path.string()) + ": a symbolic link to nothing (" + target_ec.message() + "); skipped", ""));
            continue;
        }
        if (!model || fs::is_directory(target)) continue;
        if (!fs::is_regular_file(target)) {
            issues.push_back(make_issue(kInputNotRegular, utf8_escaped(path.string()) + ": is " + (fs::is_fifo(target) ? "a FIFO" : fs::is_socket(target) ? "a socket" : "a device") +
                                  ", not a regular file; not opened, skipped",
                              ""));
            continue;
        }
        found.push_back({path, path.lexically_relative(root).generic_string(), k});
    }
    if (ec)
        issues.push_back(make_issue(kInputUnreadable, utf8_escaped(dir.string()) + ": listing stopped: " + ec.message() + " (the rest of the walk goes on)", ""));
    for (const fs::path& f : folders) walk_folder(root, f, k, exclude, found, issues);
}

}  // namespace

std::vector<BakeInput> walk_inputs(const std::vector<fs::path>& inputs, const fs::path& exclude, Issues& issues) {
    std::vector<BakeInput> found;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const fs::path& in = inputs[k];
        std::error_code ec;
        const fs::file_status st = fs::status(in, ec);
        if (ec && ec == std::errc::too_many_symbolic_link_levels) {
            issues.push_back(make_issue(kInputLinkLoop, utf8_escaped(in.string()) + ": a symbolic link loop", ""));
        } else if (fs::is_regular_file(st)) {
            found.push_back({in, in.filename().generic_string(), k});
        } else if (fs::is_directory(st)) {
            walk_folder(in, in, k, exclude, found, issues);
        } else if (fs::exists(st)) {
            issues.push_back(make_issue(kInputNotRegular, utf8_escaped(in.string()) + ": is " + (fs::is_fifo(st) ? "a FIFO" : fs::is_socket(st) ? "a socket" : "a device") +
                                  ", not a regular file or folder; not opened",
                              ""));
        } else {
            issues.push_back(make_issue(kInputNotFound, utf8_escaped(in.string()) + ": no such file or folder", ""));
        }
    }
    // Relative path, then input index: the same order for any directory listing order (docs/architecture.md#conventions).
    std::stable_sort(found.begin(), found.end(), [](const BakeInput& a, const BakeInput& b) {
        if (a.relative != b.relative) return a.relative < b.relative;
        return a.input_index < b.input_index;
    });
    return found;
}

Issues missing_inputs(const std::vector<fs::path>& inputs) {
    Issues missing;
    for (const fs::path& in : inputs) {
        std::error_code ec;
        const fs::file_status st = fs::status(in, ec);
        if (ec == std::errc::too_many_symbolic_link_levels || fs::exists(st)) continue;
        missing.push_back(make_issue(kInputNotFound, utf8_escaped(in.string()) + ": no such file or folder", ""));
    }
    return missing;
}

}  // namespace weft
