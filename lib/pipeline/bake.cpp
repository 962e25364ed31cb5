// weft bake's walk, per-model bake, worker pool, stamps, report and depfile (issue 6).
#include "pipeline/bake.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <assimp/cimport.h>
#include <assimp/types.h>

#include "io/atomic_file.h"
#include "io/content_hash.h"
#include "scene/import.h"
#include "pipeline/process_memory.h"
#include "pipeline/sidecar.h"
#include "pipeline/view_page.h"
#include "proxy/core/codec.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

/// Assimp's extensions (".obj", ...) and .vrm, lower case; read once.
const std::set<std::string>& model_extensions() {
    static const std::set<std::string> extensions = [] {
        std::set<std::string> out{".vrm"};
        aiString list;
        aiGetExtensionList(&list);
        std::string text(list.C_Str());
        std::stringstream in(text);
        std::string item;
        while (std::getline(in, item, ';')) {
            const size_t dot = item.find('.');
            if (dot != std::string::npos) out.insert(lower(item.substr(dot)));
        }
        return out;
    }();
    return extensions;
}

json issue_json(const Issue& i) {
    return {{"code", i.code}, {"severity", severity_name(i.severity)}, {"message", i.message}, {"pointer", i.pointer}};
}

Issue issue_from_json(const json& j) {
    Issue i;
    i.code = j.value("code", "");
    const std::string s = j.value("severity", "error");
    i.severity = s == "warning" ? Severity::warning : s == "info" ? Severity::info : Severity::error;
    i.message = j.value("message", "");
    i.pointer = j.value("pointer", "");
    return i;
}

bool is_under(const fs::path& path, const fs::path& dir) {
    if (dir.empty()) return false;
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(path, ec);
    const fs::path d = fs::weakly_canonical(dir, ec);
    auto [end, unused] = std::mismatch(d.begin(), d.end(), p.begin(), p.end());
    (void)unused;
    return end == d.end();
}

std::string hash_text(std::string_view text) {
    return content_hash_text(xxh64({reinterpret_cast<const uint8_t*>(text.data()), text.size()}));
}

/// One line per file a model's outputs are made from, "<name> <hash>" (or "<name> missing", with
/// INPUT_UNREADABLE); the input hash is the hash of the lines, model first, then the files it
/// references, then the config file.
void add_input_line(std::string& lines, const fs::path& file, Issues& issues) {
    std::vector<uint8_t> bytes;
    if (std::string why = read_file(file, bytes); !why.empty()) {
        issues.push_back({"INPUT_UNREADABLE", Severity::error, why, ""});
        lines += file.filename().string() + " missing\n";
        return;
    }
    lines += file.filename().string() + " " + content_hash_text(xxh64(bytes)) + "\n";
}

std::string options_hash(const BakeOptions& o) {
    return hash_text(o.options_text + (o.grow_cloth ? " grow" : "") + (o.validate ? " validate" : ""));
}

/// How a stamp names a file the model references: relative to the model's folder, so the stamp
/// holds wherever the inputs are named from; absolute when the reference is.
std::string stamp_reference(const fs::path& file, const fs::path& model) {
    const fs::path relative = file.lexically_relative(model.parent_path());
    return relative.empty() ? file.generic_string() : relative.generic_string();
}

/// The stamp's JSON, or null when there is none or it does not parse.
json read_stamp(const fs::path& path) {
    std::vector<uint8_t> bytes;
    if (!read_file(path, bytes, uint64_t(64) << 20).empty()) return nullptr;
    json stamp = json::parse(bytes.begin(), bytes.end(), nullptr, false);
    return stamp.is_object() ? stamp : json(nullptr);
}

std::vector<std::string> list_outputs(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file() && it->path().filename() != "bake-stamp.json" &&
            temporary_owner(it->path().filename().string()) == 0)
            out.push_back(it->path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

/// With validate: every proxy the model wrote, loaded back from disk (what an engine will read)
/// and run through the scenarios; validation.json beside them, each failed gate an issue. A rig
/// proxy's skinned mesh is posed from the simulation too (rig_validate.h), its numbers in the
/// model's report.json and its failed mesh gates issues under their codes.
void validate_outputs(const fs::path& dir, RigModelResult& model, const BakeOptions& o, BakeModelResult& r,
                      std::vector<ProxyValidation>& kept) {
    ValidationOptions traced = o.validation;  // the page plays the scenarios back from their traces
    if (o.page) traced.trace = view_trace_options();
    ValidationReport report;
    report.limits = o.validation.limits;
    RigModelValidation rig_validation;
    rig_validation.limits = o.validation.limits;
    rig_validation.mesh_limits = o.rig.validate_limits;
    auto validate_one = [&](const std::string& file, const RiggedGarment* rig) {
        ProxyValidation v = validate_file(dir / file, traced);
        v.file = file;  // the report names proxies relative to the model's folder, for any OUT
        const std::string where = r.input.relative + "/" + file;
        if (v.refused) {
            r.issues.push_back({v.refused->code, Severity::error, where + ": " + v.refused->message, "/proxies/" + file});
        } else {
            for (const GateResult& g : v.gates)
                if (!g.passed) r.issues.push_back({gate_code(g.gate), Severity::error, where + ": " + g.message, "/proxies/" + file});
        }
        if (rig && !v.refused) {
            RigProxyValidation mesh = validate_rig_mesh(model.scene, rig->input, rig->built, v, o.validation, o.rig.validate_limits);
            for (const MeshGateResult& g : mesh.mesh_gates)
                if (!g.passed) r.issues.push_back({g.gate, Severity::error, where + ": " + g.message, "/validation"});
            rig_validation.proxies.push_back(std::move(mesh));
        }
        report.proxies.push_back(std::move(v));
    };
    for (const RiggedGarment& g : model.rigs)
        if (!g.proxy_file.empty()) validate_one(g.proxy_file, &g);
    for (const SheetedGarment& g : model.sheets)
        if (!g.proxy_file.empty()) validate_one(g.proxy_file, nullptr);
    if (!rig_validation.proxies.empty()) model.validation = std::move(rig_validation);
    json j = report_json(report);
    // Timings are the report's only nondeterministic part; bake keeps them in bake-report.json.
    for (json& proxy : j["proxies"])
        for (json& scenario : proxy["scenarios"]) scenario.erase("timing");
    if (std::string why = write_file_atomic(dir / "validation.json", j.dump(2) + "\n"); !why.empty())
        r.issues.push_back({"OUTPUT_UNWRITABLE", Severity::error, why, ""});
    kept = std::move(report.proxies);
}

/// The model's page and the index's thumbnail of it (view_page.h), from the proxies as written.
void write_view(const fs::path& dir, const RigModelResult& model, const std::vector<ProxyValidation>& validations,
                const BakeOptions& o, BakeModelResult& r) {
    ViewModel view;
    view.name = r.input.relative;
    view.status = has_error(r.issues) ? "refused" : "built";
    view.issues = r.issues;
    view.scene = model.imported ? &model.scene : nullptr;
    view.limits = o.validation.limits;
    auto add = [&](const std::string& file) {
        if (file.empty()) return;
        DecodeResult loaded = load_proxy(dir / file);
        if (!loaded.ok()) return;
        const ProxyValidation* v = nullptr;
        for (const ProxyValidation& candidate : validations)
            if (candidate.file == file) v = &candidate;
        view.proxies.push_back({file, std::move(*loaded.proxy), v});
    };
    for (const RiggedGarment& g : model.rigs) add(g.proxy_file);
    for (const SheetedGarment& g : model.sheets) add(g.proxy_file);
    for (const auto& [name, text] : {std::pair{"view.html", view_model_html(view)},
                                     std::pair{"thumbnail.svg", view_thumbnail_svg(view)}})
        if (std::string why = write_file_atomic(dir / name, text); !why.empty())
            r.issues.push_back({"OUTPUT_UNWRITABLE", Severity::error, why, ""});
}

/// Returns the files the model references (RigModelResult::external_files).
std::vector<fs::path> bake_one(const BakeInput& input, const ModelBytes* bytes, const fs::path& dir,
                               const BakeOptions& o, BakeModelResult& r) {
    RigModelOptions options = o.rig;
    options.grow_cloth = o.grow_cloth;
    options.sheets = true;
    options.write_report = false;  // written below, with the validation's findings
    options.garments = o.garments;
    RigModelResult model = bytes ? rig_model(input.path, *bytes, dir, options) : rig_model(input.path, dir, options);
    r.stages = model.seconds;
    // The report names the model and folder by relative path so it is the same for any OUT.
    model.model = input.relative;
    model.out_dir = input.relative;
    r.issues = std::move(model.issues);
    if (model.imported && model.rigs.empty() && model.sheets.empty())
        r.issues.push_back({"NO_GARMENT_FOUND", Severity::warning,
                            input.relative + ": " + model.garments.verdict + "; name the cloth in weft.json (--config)", ""});
    std::vector<ProxyValidation> validations;
    if (o.validate) {
        const auto start = std::chrono::steady_clock::now();
        validate_outputs(dir, model, o, r, validations);
        r.validate_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    model.issues = r.issues;
    json report = rig_report_json(model);
    if (model.validation)  // timings are bake-report.json's: report.json stays byte-identical
        for (json& proxy : report["validation"]["proxies"]) proxy.erase("timing");
    if (std::string why = write_file_atomic(dir / "report.json", report.dump(2) + "\n"); !why.empty())
        r.issues.push_back({"OUTPUT_UNWRITABLE", Severity::error, why, ""});
    if (o.page) {
        const auto start = std::chrono::steady_clock::now();
        write_view(dir, model, validations, o, r);
        r.page_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return std::move(model.external_files);
}

}  // namespace

bool is_model_file(const fs::path& path) {
    return model_extensions().count(lower(path.extension().string())) > 0;
}

std::vector<BakeInput> walk_inputs(const std::vector<fs::path>& inputs, const fs::path& exclude, Issues& issues) {
    std::vector<BakeInput> found;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const fs::path& in = inputs[k];
        std::error_code ec;
        if (fs::is_regular_file(in, ec)) {
            found.push_back({in, in.filename().generic_string(), k});
        } else if (fs::is_directory(in, ec)) {
            for (fs::recursive_directory_iterator it(in, ec), end; !ec && it != end; it.increment(ec)) {
                if (it->is_directory() && is_under(it->path(), exclude)) {
                    it.disable_recursion_pending();
                    continue;
                }
                if (!it->is_regular_file() || !is_model_file(it->path())) continue;
                found.push_back({it->path(), it->path().lexically_relative(in).generic_string(), k});
            }
            if (ec) issues.push_back({"INPUT_UNREADABLE", Severity::error, in.string() + ": " + ec.message(), ""});
        } else {
            issues.push_back({"INPUT_NOT_FOUND", Severity::error, in.string() + ": no such file or folder", ""});
        }
    }
    // Relative path, then input index: the same order for any directory listing order (style.md).
    std::stable_sort(found.begin(), found.end(), [](const BakeInput& a, const BakeInput& b) {
        if (a.relative != b.relative) return a.relative < b.relative;
        return a.input_index < b.input_index;
    });
    return found;
}

BakeModelResult bake_model(const BakeInput& input, const BakeOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    BakeModelResult r;
    r.input = input;
    try {
        const fs::path dir = o.out_dir / fs::path(input.relative);
        // The model is read once: hashed here, imported from the same bytes (a file that cannot be
        // read is handed to the import by path, which names what is wrong with it).
        std::vector<uint8_t> model_bytes;
        std::optional<ModelBytes> model;
        Issues hash_issues;
        std::string input_lines;
        if (std::string why = read_file(input.path, model_bytes, ImportOptions{}.max_file_bytes); why.empty()) {
            model = ModelBytes{model_bytes, content_hash_text(xxh64(model_bytes))};
            input_lines = input.path.filename().string() + " " + model->content_hash + "\n";
        } else {
            hash_issues.push_back({"INPUT_UNREADABLE", Severity::error, why, ""});
            input_lines = input.path.filename().string() + " missing\n";
        }
        const std::string opt_hash = options_hash(o);
        // Hashes the files the model references and the config, in the stamp's order; sets depends.
        auto finish_inputs = [&](const std::vector<fs::path>& references, Issues& issues) {
            std::string lines = input_lines;
            std::vector<fs::path> depends{input.path};
            for (const fs::path& f : references) {
                add_input_line(lines, f, issues);
                depends.push_back(f);
            }
            if (!o.config_file.empty()) {
                add_input_line(lines, o.config_file, issues);
                depends.push_back(o.config_file);
            }
            r.depends.clear();
            for (const fs::path& f : depends) r.depends.push_back(f.generic_string());
            std::sort(r.depends.begin(), r.depends.end());
            r.input_hash = hash_text(lines);
        };

        // What a killed run left half-written is never renamed into place: clear it first.
        remove_stale_temporaries(dir);

        // Issue 6: the same inputs, options and tool version mean the outputs on disk are already
        // right. The files the model references are the ones its stamp lists: the model's bytes are
        // in the hash, so an unchanged model names the same files, and no JSON is parsed to skip.
        const fs::path stamp_path = dir / "bake-stamp.json";
        const json stamp = read_stamp(stamp_path);
        if (!o.force && hash_issues.empty() && stamp.is_object() && stamp.value("schema", "") == bake_stamp_schema &&
            stamp.value("weft_version", "") == WEFT_VERSION && stamp.value("options_hash", "") == opt_hash &&
            stamp.contains("external_files") && stamp["external_files"].is_array() && stamp.contains("outputs") &&
            stamp["outputs"].is_array() && stamp.contains("issues") && stamp["issues"].is_array()) {
            std::vector<fs::path> references;
            bool match = true;
            for (const json& f : stamp["external_files"]) {
                match = match && f.is_string();
                if (match) references.push_back(input.path.parent_path() / fs::path(f.get<std::string>()));
            }
            if (match) {
                Issues reference_issues;  // a listed file gone: rebuild, and the build reports it
                finish_inputs(references, reference_issues);
                match = reference_issues.empty() && stamp.value("input_hash", "") == r.input_hash;
            }
            if (match)
                for (const json& f : stamp["outputs"]) match = match && f.is_string() && fs::exists(dir / f.get<std::string>());
            if (match) {
                r.status = "skipped";
                for (const json& f : stamp["outputs"]) r.outputs.push_back(f.get<std::string>());
                for (const json& i : stamp["issues"]) r.issues.push_back(issue_from_json(i));
                r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                r.hash_seconds = r.seconds;
                return r;
            }
        }
        // Rebuilding: what the last build wrote goes first, so an output these options no longer
        // make (a grown model, validation.json) is not left behind and listed as current. Only the
        // files its stamp names: the folder may hold nothing else of weft's.
        if (stamp.is_object() && stamp.contains("outputs") && stamp["outputs"].is_array())
            for (const json& f : stamp["outputs"])
                if (f.is_string() && fs::path(f.get<std::string>()).filename() == fs::path(f.get<std::string>())) {
                    std::error_code rm;
                    fs::remove(dir / f.get<std::string>(), rm);
                }
        std::error_code ec;
        fs::remove(stamp_path, ec);
        fs::create_directories(dir, ec);
        std::vector<fs::path> references;
        if (ec) {
            r.issues.push_back({"OUTPUT_UNWRITABLE", Severity::error, dir.string() + ": cannot create the folder: " + ec.message(), ""});
        } else if (!model && !fs::exists(input.path)) {
            r.issues = hash_issues;
        } else {
            r.hash_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            references = bake_one(input, model ? &*model : nullptr, dir, o, r);
        }
        // The references come from the import's one parse of the model, so they are hashed after
        // it: a referenced file edited during its own model's bake can leave a stamp newer than
        // the outputs (the next --force run, or any edit, rebuilds it).
        finish_inputs(references, hash_issues);
        r.outputs = list_outputs(dir);
        r.status = has_error(r.issues) ? "refused" : "built";
        for (const Issue& i : r.issues)
            if (i.code == "OUTPUT_UNWRITABLE" || i.code == "WRITE_FAILED") r.status = "failed";
        if (r.status != "failed" && hash_issues.empty()) {
            json external = json::array();
            for (const fs::path& f : references) external.push_back(stamp_reference(f, input.path));
            json stamp_out = {{"schema", bake_stamp_schema},
                              {"weft_version", WEFT_VERSION},
                              {"input_hash", r.input_hash},
                              {"external_files", std::move(external)},
                              {"options_hash", opt_hash},
                              {"status", r.status},
                              {"outputs", r.outputs}};
            json issues = json::array();
            for (const Issue& i : r.issues) issues.push_back(issue_json(i));
            stamp_out["issues"] = std::move(issues);
            // Written last: a run killed before this point leaves no stamp, so the model is rebuilt.
            if (std::string why = write_file_atomic(stamp_path, stamp_out.dump(2) + "\n"); !why.empty()) {
                r.issues.push_back({"OUTPUT_UNWRITABLE", Severity::error, why, ""});
                r.status = "failed";
            }
        }
    } catch (const std::exception& e) {
        r.issues.push_back({"INTERNAL_ERROR", Severity::error, input.path.string() + ": " + e.what(), ""});
        r.status = "failed";
    } catch (...) {
        r.issues.push_back({"INTERNAL_ERROR", Severity::error, input.path.string() + ": unknown exception", ""});
        r.status = "failed";
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

int BakeResult::exit_code() const {
    if (has_error(run_issues)) return 1;
    // A skipped model keeps the errors its stamp recorded: skipping never turns a refusal into a pass.
    for (const BakeModelResult& m : models)
        if (m.status == "refused" || m.status == "failed" || has_error(m.issues)) return 1;
    return 0;
}

BakeResult bake(const BakeOptions& o,
                const std::function<void(const BakeModelResult&, size_t, size_t)>& progress) {
    const auto start = std::chrono::steady_clock::now();
    BakeResult result;
    const std::vector<BakeInput> inputs = walk_inputs(o.inputs, o.out_dir, result.run_issues);
    remove_stale_temporaries(o.out_dir);  // a killed run's half-written bake-report.json
    result.models.resize(inputs.size());
    // Largest files first, so with -j N the last model to finish is a small one; results keep walk
    // order (stored by index), so the order of work never shows in the outputs.
    std::vector<size_t> order(inputs.size());
    std::vector<uintmax_t> bytes(inputs.size(), 0);
    for (size_t k = 0; k < inputs.size(); ++k) {
        order[k] = k;
        std::error_code ec;
        const uintmax_t size = fs::file_size(inputs[k].path, ec);
        bytes[k] = ec ? 0 : size;
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
    std::atomic<size_t> next{0};
    size_t done = 0;
    std::mutex mutex;
    auto worker = [&] {
        for (size_t n = next++; n < order.size(); n = next++) {
            const size_t k = order[n];
            BakeModelResult r = bake_model(inputs[k], o);
            std::lock_guard<std::mutex> lock(mutex);
            result.models[k] = std::move(r);
            ++done;
            if (progress) progress(result.models[k], done, inputs.size());
        }
    };
    const size_t n = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(1, o.jobs)), inputs.size()));
    std::vector<std::thread> threads;
    for (size_t t = 1; t < n; ++t)
        threads.emplace_back([&] {
            tune_thread_memory();  // this thread's own heap, as the main one (process_memory.h)
            worker();
        });
    worker();
    for (std::thread& t : threads) t.join();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

json bake_report_json(const BakeResult& result, const BakeOptions& o) {
    json report;
    report["schema"] = bake_report_schema;
    report["weft_version"] = WEFT_VERSION;
    report["grow_cloth"] = o.grow_cloth;
    report["validate"] = o.validate;
    std::map<std::string, int> counts;
    std::map<std::string, int> statuses{{"built", 0}, {"skipped", 0}, {"refused", 0}, {"failed", 0}};
    json run_issues = json::array();
    for (const Issue& i : result.run_issues) {
        run_issues.push_back(issue_json(i));
        ++counts[i.code];
    }
    json models = json::array();
    json timings = json::array();
    for (const BakeModelResult& m : result.models) {
        json issues = json::array();
        for (const Issue& i : m.issues) {
            issues.push_back(issue_json(i));
            ++counts[i.code];
        }
        ++statuses[m.status];
        models.push_back({{"input", m.input.relative},
                          {"output_dir", m.input.relative},
                          {"status", m.status},
                          {"input_hash", m.input_hash},
                          {"outputs", m.outputs},
                          {"issues", std::move(issues)}});
        timings.push_back({{"input", m.input.relative},
                           {"seconds", m.seconds},
                           {"stages",
                            {{"hash", m.hash_seconds},
                             {"import", m.stages.import},
                             {"garments", m.stages.garments},
                             {"grow", m.stages.grow},
                             {"build", m.stages.build},
                             {"write", m.stages.write},
                             {"validate", m.validate_seconds},
                             {"page", m.page_seconds}}}});
    }
    report["issues"] = std::move(run_issues);
    report["models"] = std::move(models);
    report["counts"] = counts;
    report["totals"] = {{"models", result.models.size()},
                        {"built", statuses["built"]},
                        {"skipped", statuses["skipped"]},
                        {"refused", statuses["refused"]},
                        {"failed", statuses["failed"]}};
    report["exit_code"] = result.exit_code();
    report["timings"] = {{"total_seconds", result.seconds}, {"jobs", o.jobs}, {"models", std::move(timings)}};
    return report;
}

namespace {
std::string make_escape(const std::string& path) {
    std::string out;
    for (char c : path) {
        if (c == ' ' || c == '#' || c == '\\') out += '\\';
        if (c == '$') out += '$';
        out += c;
    }
    return out;
}
}  // namespace

std::string bake_depfile(const BakeResult& result, const std::string& target) {
    std::set<std::string> deps;
    for (const BakeModelResult& m : result.models) deps.insert(m.depends.begin(), m.depends.end());
    std::string text = make_escape(target) + ":";
    for (const std::string& d : deps) text += " \\\n  " + make_escape(d);
    return text + "\n";
}

}  // namespace weft
