// weft: turns game characters into cloth assets and proves they work.
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>

#include "app.h"
#include "command.h"

int main(int argc, char** argv) {
    using namespace weft::cli;
    CLI::App app{weft_description, "weft"};
    const auto runners = add_commands(app);

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
        try {
            return run();
        } catch (const std::exception& e) {
            std::cerr << "weft " << sub->get_name() << ": internal error: " << e.what() << "\n";
            return exit_refused;
        }
    }
    return exit_usage;
}
