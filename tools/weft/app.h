// The weft command line as one CLI11 App: what `weft` parses and what weft_manual writes the man pages
// and the shell completion from (tools/weft/manual.cpp), so the two never disagree.
#pragma once
#include <functional>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace weft::cli {

/// `weft`'s one-line description, the top of `weft --help` and the man page's NAME.
inline constexpr const char* weft_description = "weft: cloth assets from game characters, built and proven headless";

/// Every registered subcommand added to `app` in order (command.h), each with the function that runs
/// it once parsed; the version flag too.
std::vector<std::pair<CLI::App*, std::function<int()>>> add_commands(CLI::App& app);

}  // namespace weft::cli
