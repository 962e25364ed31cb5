#include "pipeline/budgets.h"

#include <map>
#include <string>

namespace weft {

void fold_repeated_issues(Issues& issues, size_t keep) {
    std::map<std::string, size_t> seen;
    for (const Issue& i : issues) ++seen[i.code];
    bool folds = false;
    for (const auto& [code, n] : seen) folds = folds || n > keep;
    if (!folds) return;
    Issues out;
    std::map<std::string, size_t> kept;
    for (Issue& i : issues) {
        const size_t total = seen[i.code];
        size_t& k = kept[i.code];
        if (k < keep) {
            ++k;
            const bool last = k == keep && total > keep;
            const Issue& like = i;
            Issue more{like.code, like.severity, "", like.pointer};
            if (last) {
                const std::string& m = like.message;
                const size_t colon = m.find(": ");  // the file the message names
                more.message = (colon == std::string::npos ? std::string() : m.substr(0, colon + 2)) + "and " +
                               std::to_string(total - keep) + " more like it (" + std::to_string(total) + " in all; the first " +
                               std::to_string(keep) + " are listed)";
            }
            out.push_back(std::move(i));
            if (last) out.push_back(std::move(more));
        }
    }
    issues = std::move(out);
}

}  // namespace weft
