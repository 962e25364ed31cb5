#include "app.h"

#include <algorithm>
#include <string>

#include "batch/source_id.h"
#include "command.h"

namespace weft::cli {

std::vector<CommandInfo>& command_registry() {
    static std::vector<CommandInfo> registry;
    return registry;
}

std::vector<std::pair<CLI::App*, std::function<int()>>> add_commands(CLI::App& app) {
    app.set_version_flag("--version", std::string("weft ") + WEFT_VERSION + " (sources " + weft::weft_source_id() + ")");
    app.require_subcommand(1);
    app.fallthrough(false);
    auto& registry = command_registry();
    std::sort(registry.begin(), registry.end(), [](const CommandInfo& a, const CommandInfo& b) { return a.order < b.order; });
    std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
    for (const auto& info : registry) {
        CLI::App* sub = app.add_subcommand(info.name, info.description);
        runners.emplace_back(sub, info.setup(*sub));
    }
    return runners;
}

}  // namespace weft::cli
