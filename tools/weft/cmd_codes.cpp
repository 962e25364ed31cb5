// weft codes [--json | --markdown]: every issue code weft reports, per stage, with its severity and
// meaning (lib/batch/issue_codes.h). docs/issue-codes.md is `weft codes --markdown`.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "command.h"
#include "batch/issue_codes.h"

namespace weft::cli {
namespace {

struct CodesOptions {
    bool json = false;
    bool markdown = false;
    Verbosity verbosity;  ///< accepted like every command's; codes writes nothing on standard error
};

int run_codes(const CodesOptions& o) {
    if (o.markdown) {
        std::cout << issue_codes_markdown();
        return exit_ok;
    }
    if (o.json) {
        nlohmann::json stages = nlohmann::json::array();
        for (const StageCodes& stage : every_issue_code()) {
            nlohmann::json codes = nlohmann::json::array();
            for (const IssueCode& c : stage.codes)
                codes.push_back({{"code", c.code}, {"severity", severity_name(c.severity)}, {"description", c.description}});
            stages.push_back({{"stage", stage.stage}, {"what", stage.what}, {"codes", codes}});
        }
        std::cout << nlohmann::json{{"schema", "weft.codes/1"}, {"stages", stages}}.dump(2) << "\n";
        return exit_ok;
    }
    for (const StageCodes& stage : every_issue_code()) {
        std::cout << stage.stage << ": " << stage.what << "\n";
        for (const IssueCode& c : stage.codes)
            std::cout << "  " << c.code << " (" << severity_name(c.severity) << "): " << c.description << "\n";
    }
    return exit_ok;
}

const CommandRegistration codes_registration{
    "codes", "List every issue code weft reports, per stage, with its severity and meaning", 90, [](CLI::App& app) {
        auto o = std::make_shared<CodesOptions>();
        auto* json = app.add_flag("--json", o->json, "As JSON: {schema, stages: [{stage, what, codes: [{code, severity, description}]}]}");
        app.add_flag("--markdown", o->markdown, "As the Markdown page docs/issue-codes.md")->excludes(json);
        add_verbosity(app, o->verbosity);
        return [o] { return run_codes(*o); };
    }};

}  // namespace
}  // namespace weft::cli
