// weft dump PROXY [--report FILE]: a .clothproxy as JSON (schemas/clothproxy.schema.json) on
// standard output, the same JSON to FILE with --report. A refused file is one line on standard
// error naming the file and the named error, and exit 1.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "command.h"
#include "io/atomic_file.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "proxy/file/proxy_json.h"

namespace weft::cli {
namespace {

struct DumpOptions {
    std::string proxy;
    std::string report;
    bool json = false;  ///< accepted for the uniform flags (docs/architecture.md#conventions); dump always prints JSON
    Verbosity verbosity;  ///< accepted like every command's; dump prints nothing but errors on standard error
};

int run_dump(const DumpOptions& o) {
    DecodeResult r = load_proxy(o.proxy);
    if (!r.ok()) {
        std::cerr << "weft dump: " << r.error << "\n";
        return exit_refused;
    }
    const std::string text = proxy_to_json(*r.proxy).dump(2) + "\n";
    if (!o.report.empty()) {
        if (std::string why = write_file_atomic(o.report, std::string_view(text)); !why.empty()) {
            std::cerr << "weft dump: " << why << "\n";
            return exit_refused;
        }
    }
    std::cout << text;
    return exit_ok;
}

const CommandRegistration dump_registration{
    "dump", "Print a .clothproxy as JSON (schemas/clothproxy.schema.json)", 60, [](CLI::App& app) {
        auto options = std::make_shared<DumpOptions>();
        app.add_option("proxy", options->proxy, "The .clothproxy file")->required();
        app.add_option("--report", options->report, "Also write the JSON to this file")->check(non_empty_path);
        app.add_flag("--json", options->json, "Print JSON on standard output (always on for dump)");
        add_verbosity(app, options->verbosity);
        return [options] { return run_dump(*options); };
    }};

}  // namespace
}  // namespace weft::cli
