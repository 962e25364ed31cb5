// weft validate PROXY... [validation flags: --scenario, --steps, --clips, --no-collide, --whole-runs, gate limits,
// --strain-target, --fabric] [model flags: --no-grow, --classes, --config, ...] [--model FILE|none]
// [--json] [--report FILE] [--trace FILE] [--positions]
// Gives each proxy the verdict weft bake --validate gives it (validate/model/model_validation.h): its
// model (the proxy's source_file as given or beside it, or --model) is read through bake's own record
// pass with the same model flags, and the proxy is simulated through the scenarios and the model's
// clips with the model's body, a rig's skinned mesh posed from it. A proxy whose model is not there is
// validated alone (said on standard error); --model none asks for that. Text on standard output by
// default; --json puts the report (schemas/validation.schema.json) there instead and nothing else;
// --report also writes it to FILE. A file the loader refuses is one line on standard error naming it;
// the others are still validated. Exit 0 when every proxy loaded and passed every gate, 1 otherwise, 2
// for a bad command line or a clip the model lacks.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command.h"
#include "model_flags.h"
#include "io/atomic_file.h"
#include "io/utf8_text.h"
#include "batch/bake_model.h"
#include "batch/bake_stage.h"
#include "body/body_in_scene.h"
#include "pipeline/garment_names.h"
#include "validate/model/model_validation.h"
#include "proxy/file/proxy_file.h"
#include "scene/confine.h"
#include "scene/import.h"
#include "scene/import_codes.h"
#include "scene/model_formats.h"
#include "validate/validate.h"
#include "validate/validation_codes.h"

namespace weft::cli {
namespace {

/// validate takes the validation flags and, for the record pass of each proxy's model, the flags that
/// decide what bake builds (model_flags.h), with bake's defaults.
constexpr unsigned kValidateFlags =
    model_flags_input | model_flags_grow | model_flags_fabric | model_flags_validation | model_flags_limits;

struct ValidateOptions {
    std::vector<std::string> proxies;
    ModelFlags flags;
    bool json = false;
    bool positions = false;
    std::string report;
    std::string trace;            ///< "" = none; else the per-step figures, .csv or .json
    std::string model;            ///< --model: "" = each proxy's own model, "none" = the proxy alone
    Verbosity verbosity;
};

/// The model a proxy was built from: --model, else its source_file (a relative one from the proxy's
/// folder, as weft writes it: docs/commands.md#hermetic-outputs; then as given, from the working
/// directory, as older proxies hold it), else a file of that name beside the proxy; "" when none is
/// there. The recorded name is the proxy's own claim (a proxy handed over could name /etc/passwd), so
/// it is opened as a model's buffers are (scene/confine.h): a regular file inside the working folder
/// or beside the proxy, unless --allow-outside-folder; elsewhere only a model file (by its extension,
/// as bake's walk decides), which is where a bake from another folder leaves it. `refused` says why one
/// that is there was not opened.
std::filesystem::path model_of(const ValidateOptions& o, const std::filesystem::path& proxy_path, const ClothProxy& proxy,
                               std::string& refused) {
    namespace fs = std::filesystem;
    if (!o.model.empty()) return o.model;
    const fs::path given = proxy.source_file;
    if (given.empty()) return {};
    const fs::path folder = proxy_path.parent_path();
    std::vector<ReferenceCheck> checks;
    const auto confined = [&](const fs::path& base, const fs::path& name) {
        ReferenceCheck c = check_reference(base, name, o.flags.allow_outside_folder);
        if (c.code == &kFileOutsideFolder && is_model_extension(ascii_lower(name.extension().string())))
            c = check_reference(base, name, true);
        return c;
    };
    if (given.is_relative()) {
        ReferenceCheck from_proxy = confined(".", folder / given);
        if (!from_proxy.code) {
            // Named without the climb through the output folder when that is the same file (not through a link).
            std::error_code ec;
            const fs::path named = folder / given, shorter = named.lexically_normal();
            return fs::equivalent(shorter, named, ec) ? shorter : named;
        }
        checks.push_back(std::move(from_proxy));
    }
    checks.push_back(confined(".", given));
    if (!checks.back().code) return given;
    checks.push_back(confined(folder, given.filename()));
    if (!checks.back().code) return checks.back().path;
    for (const ReferenceCheck& c : checks)
        if (c.code != &kReferencedFileMissing) {
            refused = (c.code == &kFileOutsideFolder
                           ? "resolves outside the working folder and the proxy's folder: not opened (name it with --model, "
                             "or pass --allow-outside-folder)"
                           : c.path.string() + " " + c.problem + ": not opened (name the model with --model)") +
                      " [" + std::string(c.code->code) + "]";
            break;
        }
    return {};
}

/// The models read so far, each through bake's record pass once (inspect_preset: nothing written).
class ModelRecords {
public:
    ModelRecords(const ModelOptions& options) : options_(options) {}

    const ModelRecord& get(const std::filesystem::path& model) {
        auto it = records_.find(model.string());
        if (it == records_.end()) it = records_.emplace(model.string(), bake_model(model, options_)).first;
        return it->second;
    }
    const ModelOptions& options() const { return options_; }

private:
    ModelOptions options_;
    std::map<std::string, ModelRecord> records_;
};

/// The proxy of `record` that was written as `file`, else the one of `garment`'s name: its twin in
/// the record, as a ModelProxy for `proxy` (the file read). Empty when the record builds no such proxy.
std::optional<ModelProxy> twin(const ModelRecord& record, const std::string& file, const std::string& garment,
                               const ClothProxy& proxy, const std::string& label) {
    for (int pass = 0; pass < 2; ++pass) {
        for (const RiggedGarment& g : record.rigs)
            if (g.built.proxy && (pass ? g.name == garment : garment_file_stem(g.name) + ".clothproxy" == file))
                return ModelProxy{label, &proxy, &g.input, &g.built};
        for (const SheetedGarment& g : record.sheets)
            if (g.built.proxy && (pass ? g.name == garment : g.file_stem + ".clothproxy" == file))
                return ModelProxy{label, &proxy, nullptr, nullptr};
    }
    return std::nullopt;
}

/// The proxy at `path` given the verdict bake gives it: with its model's body, clips and (a rig) its
/// skinned mesh (validate/model/model_validation.h); alone when it has no model to read. Clip issues
/// (a clip the model lacks) go to `clip_issues`.
ProxyValidation validate_one(const ValidateOptions& o, const ValidationOptions& options, ModelRecords& records,
                             const std::string& path, Issues& clip_issues) {
    DecodeResult loaded = load_proxy(path);
    if (!loaded.ok()) return validate_file(path, options);  // the loader's refusal
    const ClothProxy& proxy = *loaded.proxy;
    std::string refused;
    const std::filesystem::path model = o.model == "none" ? std::filesystem::path() : model_of(o, path, proxy, refused);
    if (model.empty()) {
        if (o.model != "none" && !proxy.source_file.empty())
            std::cerr << "weft validate: " << path << ": its model '" << proxy.source_file << "' "
                      << (refused.empty() ? "is not there (name it with --model)" : refused)
                      << ": validated alone, without its body, clips or skinned mesh\n";
        set_bake_stage("validate");
        return validate_proxy(proxy, options, path);
    }
    const ModelRecord& record = records.get(model);
    if (!record.imported) {
        ProxyValidation out;
        out.file = path;
        out.garment = proxy.garment;
        std::string why = "cannot be read";
        for (const Issue& i : record.issues)
            if (i.severity == Severity::error) {
                why = i.code + ": " + i.message;
                break;
            }
        out.refused = Refusal{std::string(kClipModelUnreadable.code),
                              path + ": its model '" + model.string() + "' " + why + " (name another with --model, or --model none)"};
        return out;
    }
    std::optional<ModelProxy> mine = twin(record, std::filesystem::path(path).filename().string(), proxy.garment, proxy, path);
    if (!mine) {
        std::cerr << "weft validate: " << path << ": " << model.string()
                  << " builds no such proxy with these flags: validated with its body and clips, without a skinned mesh\n";
        mine = ModelProxy{path, &proxy, nullptr, nullptr};
    }
    set_bake_stage("validate");
    const ModelUnderTest under{&record.scene, body_shapes(record.scene, record.body), model.string(), "",
                               &records.options().garments.config};
    ModelValidation v = validate_model(under, std::span<const ModelProxy>(&*mine, 1), options);
    for (const Issue& i : v.issues) {
        if (i.code == kClipNotFound.code) clip_issues.push_back(i);
        if (i.code == kClipOverBudget.code && !o.verbosity.quiet)
            std::cerr << "weft validate: warning: " << i.message << " [" << i.code << "]\n";
    }
    return std::move(v.report.proxies.front());
}

/// validate_one, or the proxy refused OUT_OF_MEMORY when it needed more than --max-memory (the
/// memory is given back as the stack unwinds: the next proxy is validated).
ProxyValidation validate_within_memory(const ValidateOptions& o, const ValidationOptions& options, ModelRecords& records,
                                       const std::string& path, Issues& clip_issues) {
    try {
        return validate_one(o, options, records, path, clip_issues);
    } catch (const std::bad_alloc&) {
        ProxyValidation out;
        out.file = path;
        const char* stage = bake_stage();
        out.refused = Refusal{std::string(kOutOfMemory.code), path + ": ran out of memory" +
                                                                   (stage && *stage ? std::string(" in stage ") + stage : std::string()) +
                                                                   "; raise --max-memory or simplify the model"};
        return out;
    }
}

int run_validate(const ValidateOptions& o) {
    ValidationOptions options;
    if (!validation_options_from_flags(o.flags, "weft validate", options)) return exit_usage;
    options.trace.figures = !o.trace.empty();
    ModelOptions model_options = inspect_preset();
    if (!apply_model_flags(o.flags, kValidateFlags & ~model_flags_validation, o.proxies, "weft validate", model_options))
        return exit_usage;
    ModelRecords records(model_options);

    const auto watchdog = apply_model_limits(o.flags, "weft validate");
    const bool progress = !o.verbosity.quiet && isatty(STDERR_FILENO) != 0;  // quiet in CI logs (docs/architecture.md#conventions)
    ValidationReport report{options.limits, {}};
    for (size_t i = 0; i < o.proxies.size(); ++i) {
        if (progress) std::cerr << "validating " << (i + 1) << "/" << o.proxies.size() << ": " << o.proxies[i] << "\r" << std::flush;
        Issues clip_issues;
        std::optional<ProxyValidation> validated;
        {
            ModelWatchdog::Armed armed(*watchdog, o.proxies[i]);
            validated = validate_within_memory(o, options, records, o.proxies[i], clip_issues);
        }
        ProxyValidation& v = *validated;
        if (!clip_issues.empty()) {  // a clip named on the command line that the model lacks
            if (progress) std::cerr << "\n";
            for (const Issue& issue : clip_issues) std::cerr << "weft validate: --clips: " << issue.message << " [" << issue.code << "]\n";
            return exit_usage;
        }
        if (v.refused) {
            if (progress) std::cerr << "\n";
            std::cerr << "weft validate: " << v.refused->message << "\n";
        }
        report.proxies.push_back(std::move(v));
    }
    if (progress) std::cerr << "\n";

    const nlohmann::json json = report_json(report);
    int status = report.passed() ? exit_ok : exit_refused;
    if (!o.trace.empty()) {
        // CSV when the file says so (one table, a garment and a scenario per row), else JSON.
        std::string text;
        if (o.trace.ends_with(".csv")) {
            for (const ProxyValidation& v : report.proxies)
                for (const ScenarioTrace& t : v.traces) text += trace_csv(v.garment, t, text.empty());
            if (text.empty()) text = trace_csv("", ScenarioTrace{}, true);
        } else {
            nlohmann::json proxies = nlohmann::json::array();
            for (const ProxyValidation& v : report.proxies) {
                nlohmann::json scenarios = nlohmann::json::array();
                for (const ScenarioTrace& t : v.traces) scenarios.push_back(trace_json(t));
                proxies.push_back({{"file", v.file}, {"garment", v.garment}, {"scenarios", scenarios}});
            }
            text = nlohmann::json{{"schema", "weft.trace/1"}, {"dt", validation_dt}, {"proxies", proxies}}.dump(1) + "\n";
        }
        if (std::string why = write_file_atomic(o.trace, std::string_view(text)); !why.empty()) {
            std::cerr << "weft validate: --trace: " << why << "\n";
            status = exit_refused;
        }
    }
    if (!o.report.empty()) {
        if (std::string why = write_file_atomic(o.report, std::string_view(json.dump(2) + "\n")); !why.empty()) {
            std::cerr << "weft validate: " << why << "\n";
            status = exit_refused;
        }
    }
    std::cout << (o.json ? json.dump(2) + "\n" : report_text(report));
    if (o.positions && !o.json) {
        // Where each particle ended, in the frame, round-trip precision: what an embedded runtime
        // stepping the same proxy the same way prints (examples/runtime/run_proxy.c).
        char line[160];
        for (const ProxyValidation& v : report.proxies)
            for (const ScenarioStats& st : v.scenarios) {
                std::cout << "positions " << v.file << " " << scenario_label(st.scenario, st.clip) << " after " << st.steps << " steps\n";
                for (size_t i = 0; i < st.final_positions.size(); ++i) {
                    const Vec3& x = st.final_positions[i];
                    std::snprintf(line, sizeof line, "%zu %.17g %.17g %.17g\n", i, x.x, x.y, x.z);
                    std::cout << line;
                }
            }
    }
    return status;
}

const CommandRegistration validate_registration{
    "validate", "Simulate proxies headless and gate on what they do (schemas/validation.schema.json)", 50,
    [](CLI::App& app) {
        auto o = std::make_shared<ValidateOptions>();
        app.add_option("proxy", o->proxies, "The .clothproxy files")->required();
        add_model_flags(app, o->flags, kValidateFlags);
        app.add_option("--model", o->model,
                       "The model the proxies were built from, whose body, clips and skinned mesh they are validated with "
                       "(default: each proxy's own, its source_file as given or beside the proxy); none: the proxy alone")
            ->check(non_empty_path);
        app.add_flag("--json", o->json, "Print the JSON report on standard output, nothing else");
        app.add_option("--report", o->report, "Also write the JSON report to this file")->check(non_empty_path);
        app.add_flag("--positions", o->positions,
                     "After the text report, every particle's position in the frame at the end of each scenario");
        app.add_option("--trace", o->trace,
                       "Write every step's figures (speed, strain, energy) to FILE: CSV when it ends in .csv, else "
                       "JSON (schemas/trace.schema.json)")
            ->check(non_empty_path);
        add_verbosity(app, o->verbosity);
        return [o] { return run_validate(*o); };
    }};

}  // namespace
}  // namespace weft::cli
