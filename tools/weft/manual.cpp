// weft_manual OUT_DIR: the man pages (weft.1 and weft-<command>.1, roff) and the bash completion
// (weft.bash) written from the command line's own definition (app.h), at build time, so they say
// exactly what `weft --help` says. The build compresses the pages and `cmake --install` and the
// Debian package carry them.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app.h"
#include "command.h"

namespace weft::cli {
namespace {

namespace fs = std::filesystem;

/// Text escaped for roff: backslashes, hyphens (so options copy as ASCII) and a leading dot or quote.
std::string roff(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\\') out += "\\e";
        else if (c == '-') out += "\\-";
        else out += c;
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
    return out;
}

std::vector<const CLI::App*> subcommands_of(const CLI::App& app) {
    return app.get_subcommands(std::function<bool(const CLI::App*)>([](const CLI::App*) { return true; }));
}

/// "-o, --out PATH" for an option, "model" for a positional.
std::string option_label(const CLI::Option& o) {
    if (!o.nonpositional()) return o.get_name(true);
    std::string names;
    for (const std::string& s : o.get_snames()) names += (names.empty() ? "-" : ", -") + s;
    for (const std::string& l : o.get_lnames()) names += (names.empty() ? "--" : ", --") + l;
    if (o.get_type_size() != 0 && !o.get_type_name().empty()) names += " " + o.get_type_name();
    return names;
}

const char* const kExitStatus =
    ".SH EXIT STATUS\n"
    ".TP\n.B 0\nEverything was read, built and passed.\n"
    ".TP\n.B 1\nSome input was refused or some validation gate failed; the report says which and why, and "
    "every other model was still processed.\n"
    ".TP\n.B 2\nThe command line was wrong.\n";

const char* const kManual =
    "The manual is README.md and the pages under docs/ (installed in /usr/share/doc/weft with the "
    "Debian package): docs/format.md says what a runtime reads; every JSON file weft writes has a "
    "schema in /usr/share/weft/schemas.\n";

void write_command_page(const CLI::App& app, const CLI::App& sub, const fs::path& dir) {
    const std::string name = "weft-" + sub.get_name();
    std::ofstream out(dir / (name + ".1"));
    out << ".TH " << roff(name) << " 1 \"\" \"weft " << WEFT_VERSION << "\" \"weft manual\"\n";
    out << ".SH NAME\n" << roff(name) << " \\- " << roff(sub.get_description()) << "\n";
    out << ".SH SYNOPSIS\n.B weft " << roff(sub.get_name()) << "\n[OPTIONS]";
    for (const CLI::Option* o : sub.get_options())
        if (!o->nonpositional()) out << " " << (o->get_required() ? "" : "[") << roff(o->get_name(true)) << (o->get_required() ? "" : "]");
    out << "\n.SH DESCRIPTION\n" << roff(sub.get_description()) << ".\n.PP\n" << roff(kManual);
    out << ".SH OPTIONS\n";
    for (const CLI::Option* o : sub.get_options()) {
        out << ".TP\n.B " << roff(option_label(*o)) << "\n" << roff(o->get_description());
        if (o->get_required()) out << " (required)";
        if (!o->get_default_str().empty()) out << " (default: " << roff(o->get_default_str()) << ")";
        out << "\n";
    }
    out << kExitStatus << ".SH SEE ALSO\n.BR weft (1)";
    for (const CLI::App* other : subcommands_of(app))
        if (other != &sub) out << ",\n.BR weft\\-" << roff(other->get_name()) << " (1)";
    out << "\n";
}

void write_main_page(const CLI::App& app, const fs::path& dir) {
    std::ofstream out(dir / "weft.1");
    out << ".TH WEFT 1 \"\" \"weft " << WEFT_VERSION << "\" \"weft manual\"\n";
    out << ".SH NAME\nweft \\- " << roff(std::string(weft_description).substr(std::string("weft: ").size())) << "\n";
    out << ".SH SYNOPSIS\n.B weft\nCOMMAND [OPTIONS] ...\n.br\n.B weft\n\\-\\-version | \\-\\-help\n";
    out << ".SH DESCRIPTION\n"
        << roff("weft reads character models (glTF, GLB, VRM, FBX and whatever else Assimp reads), finds the garments, "
                "builds a ClothProxy per garment (bone chains grown or authored, or a sheet), writes it with a JSON "
                "sidecar and the model with its spring bones, and simulates every proxy headless with its bundled "
                "solver to validate it.")
        << "\n.PP\n" << roff(kManual) << ".SH COMMANDS\n";
    for (const CLI::App* sub : subcommands_of(app))
        out << ".TP\n.BR weft\\-" << roff(sub->get_name()) << " (1)\n" << roff(sub->get_description()) << "\n";
    out << kExitStatus;
}

/// Bash: the commands after `weft`, each command's options after it, file names otherwise.
void write_completion(const CLI::App& app, const fs::path& dir) {
    std::ofstream out(dir / "weft.bash");
    out << "# bash completion for weft " << WEFT_VERSION << ", written from its command line (tools/weft/manual.cpp)\n"
        << "_weft() {\n"
        << "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" commands=\"";
    std::string commands;
    for (const CLI::App* sub : subcommands_of(app)) commands += (commands.empty() ? "" : " ") + sub->get_name();
    out << commands << "\" options=\"\"\n"
        << "    if [[ $COMP_CWORD -eq 1 ]]; then\n"
        << "        COMPREPLY=($(compgen -W \"$commands --help --version\" -- \"$cur\"))\n"
        << "        return\n    fi\n"
        << "    case \"${COMP_WORDS[1]}\" in\n";
    for (const CLI::App* sub : subcommands_of(app)) {
        std::string options;
        for (const CLI::Option* o : sub->get_options()) {
            for (const std::string& s : o->get_snames()) options += " -" + s;
            for (const std::string& l : o->get_lnames()) options += " --" + l;
        }
        out << "        " << sub->get_name() << ") options=\"" << options.substr(options.empty() ? 0 : 1) << "\" ;;\n";
    }
    out << "    esac\n"
        << "    if [[ $cur == -* ]]; then\n"
        << "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
        << "    else\n"
        << "        compopt -o filenames 2>/dev/null\n"
        << "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
        << "    fi\n"
        << "}\n"
        << "complete -F _weft weft\n";
}

}  // namespace
}  // namespace weft::cli

int main(int argc, char** argv) {
    using namespace weft::cli;
    if (argc != 2) {
        std::cerr << "usage: weft_manual OUT_DIR\n";
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    CLI::App app{weft_description, "weft"};
    add_commands(app);
    write_main_page(app, dir);
    for (const CLI::App* sub : subcommands_of(app)) write_command_page(app, *sub, dir);
    write_completion(app, dir);
    return 0;
}
