// weft: turns game characters into cloth assets and proves they work.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>

#include "command.h"
#include "batch/model_limits.h"
#include "batch/source_id.h"

namespace weft::cli {

std::vector<CommandInfo>& command_registry() {
    static std::vector<CommandInfo> registry;
    return registry;
}

}  // namespace weft::cli

int main(int argc, char** argv) {
    using namespace weft::cli;
    CLI::App app{"weft: cloth assets from game characters, built and proven headless", "weft"};
    app.set_version_flag("--version", std::string("weft ") + WEFT_VERSION + " (sources " + weft::weft_source_id() + ")");
    app.require_subcommand(1);
    app.fallthrough(false);

    auto& registry = command_registry();
    std::sort(registry.begin(), registry.end(),
              [](const CommandInfo& a, const CommandInfo& b) { return a.order < b.order; });
    std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
    for (const auto& info : registry) {
        CLI::App* sub = app.add_subcommand(info.name, info.description);
        runners.emplace_back(sub, info.setup(*sub));
    }

    // Run bare: the command list, as gltfpack and gltf-transform print theirs (a usage error: nothing
    // was asked).
    if (argc <= 1) {
        std::cerr << app.help();
        return exit_usage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return exit_usage;
    }

    for (auto& [sub, run] : runners) {
        if (!sub->parsed()) continue;
        const std::string who = "weft " + sub->get_name();
        weft::report_uncaught_exceptions(who);  // a thread's escape too, by name (batch/model_limits.h)
        try {
            return run();
        } catch (const std::bad_alloc&) {
            std::cerr << weft::uncaught_exception_line(who);
            return exit_refused;
        } catch (const std::exception& e) {
            std::cerr << "weft " << sub->get_name() << ": internal error: " << e.what() << "\n";
            return exit_refused;
        }
    }
    return exit_usage;
}
