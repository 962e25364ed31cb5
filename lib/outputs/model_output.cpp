#include "outputs/model_output.h"

#include <algorithm>

#include "io/atomic_file.h"
#include "io/utf8_text.h"
#include "pipeline/pipeline_codes.h"

namespace weft {

bool write_model_output(const std::filesystem::path& path, const std::function<void(const TextSink&)>& produce,
                        Issues& issues) {
    if (std::string why = refuse_special_output(path); !why.empty()) {
        issues.push_back(make_issue(kOutputNotRegular, utf8_escaped(why), ""));
        return false;
    }
    if (std::string why = write_file_atomic(path, produce); !why.empty()) {
        issues.push_back(make_issue(kOutputUnwritable, utf8_escaped(why), ""));
        return false;
    }
    return true;
}

bool write_model_output(const std::filesystem::path& path, const std::string& text, Issues& issues) {
    return write_model_output(path, [&](const TextSink& sink) { sink(text); }, issues);
}

bool is_under(const std::filesystem::path& path, const std::filesystem::path& dir, std::error_code& error) {
    error.clear();
    if (dir.empty()) return false;
    const std::filesystem::path p = std::filesystem::weakly_canonical(path, error);
    if (error) return false;
    const std::filesystem::path d = std::filesystem::weakly_canonical(dir, error);
    if (error) return false;
    auto [end, unused] = std::mismatch(d.begin(), d.end(), p.begin(), p.end());
    (void)unused;
    return end == d.end();
}

bool is_under(const std::filesystem::path& path, const std::filesystem::path& dir) {
    std::error_code ignored;
    return is_under(path, dir, ignored);
}

}  // namespace weft
