// How a subcommand joins the `weft` command line: each cmd_*.cpp registers itself with a static
// CommandRegistration, so adding a command touches no other file.
#pragma once
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace weft::cli {

/// Exit statuses shared by every command (DESIGN.md §1).
enum ExitCode : int {
    exit_ok = 0,          ///< everything was read, built and passed
    exit_refused = 1,     ///< some input was refused or some gate failed; the rest was still processed
    exit_usage = 2,       ///< the command line was wrong
};

/// Adds the subcommand's options to `app` and returns the function that runs it after parsing.
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

struct CommandInfo {
    std::string name;
    std::string description;
    CommandSetup setup;
    int order;  ///< position in --help
};

std::vector<CommandInfo>& command_registry();

struct CommandRegistration {
    CommandRegistration(std::string name, std::string description, int order, CommandSetup setup) {
        command_registry().push_back({std::move(name), std::move(description), std::move(setup), order});
    }
};

}  // namespace weft::cli
