// weft bake's walk, per-model bake, worker pool, stamps, report and depfile.
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

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

#include <assimp/cimport.h>
#include <assimp/types.h>

#include "io/atomic_file.h"
#include "io/content_hash.h"
#include "io/format_text.h"
#include "io/utf8_text.h"
#include "pipeline/issue_json.h"
#include "scene/import.h"
#include "pipeline/json_text.h"
#include "pipeline/process_memory.h"
#include "pipeline/sidecar.h"
#include "pipeline/view_page.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"

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
        issues.push_back(make_issue(kInputUnreadable, why, ""));
        lines += file.filename().string() + " missing\n";
        return;
    }
    lines += file.filename().string() + " " + content_hash_text(xxh64(bytes)) + "\n";
}

std::string options_hash(const BakeOptions& o) {
    return hash_text(o.options_text + (o.model.grow_cloth ? " grow" : "") + (o.model.validate ? " validate" : ""));
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

/// The regular files of a model's folder by name, with their inode numbers: what was there before
/// the bake. Every output is written by rename (io/atomic_file.h), so a file the bake wrote has a
/// new inode and a file it did not write (an input stored there, anything else of the user's)
/// keeps its own.
using FolderFiles = std::map<std::string, uint64_t>;

FolderFiles folder_files(const fs::path& dir) {
    FolderFiles out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        struct stat st{};
        if (::lstat(it->path().c_str(), &st) == 0 && S_ISREG(st.st_mode))
            out[it->path().filename().string()] = static_cast<uint64_t>(st.st_ino);
    }
    return out;
}

/// What the bake wrote into `dir`: regular files new since `before` or replaced (a new inode), not
/// the stamp, not a temporary, never one of the model's inputs.
std::vector<std::string> list_outputs(const fs::path& dir, const FolderFiles& before, const std::vector<fs::path>& inputs) {
    std::vector<std::string> out;
    for (const auto& [name, inode] : folder_files(dir)) {
        if (name == "bake-stamp.json" || temporary_owner(name) != 0) continue;
        if (auto was = before.find(name); was != before.end() && was->second == inode) continue;
        bool input = false;
        for (const fs::path& f : inputs) {
            std::error_code ec;
            input = input || fs::equivalent(dir / name, f, ec);
        }
        if (!input) out.push_back(name);
    }
    return out;  // sorted: a std::map's order
}

/// The stage a worker process is in, in a page it shares with the driver (bake's isolation): what
/// a crash report names. Null in a process that bakes in its own threads.
char* bake_stage_slot = nullptr;
constexpr size_t bake_stage_size = 64;

void set_bake_stage(const char* stage) {
    if (!bake_stage_slot) return;
    std::strncpy(bake_stage_slot, stage, bake_stage_size - 1);
    bake_stage_slot[bake_stage_size - 1] = '\0';
}

/// Writes one of a model's outputs; a special file in the way is OUTPUT_NOT_REGULAR, any other
/// failure OUTPUT_UNWRITABLE.
bool write_model_output(const fs::path& path, const std::string& text, Issues& issues) {
    if (std::string why = refuse_special_output(path); !why.empty()) {
        issues.push_back(make_issue(kOutputNotRegular, utf8_escaped(why), ""));
        return false;
    }
    if (std::string why = write_file_atomic(path, text); !why.empty()) {
        issues.push_back(make_issue(kOutputUnwritable, utf8_escaped(why), ""));
        return false;
    }
    return true;
}

/// The model's page and the index's thumbnail of it (view_page.h), from the proxies as written.
void write_view(const fs::path& dir, const RigModelResult& model, const std::vector<ProxyValidation>& validations,
                const BakeOptions& o, BakeModelResult& r) {
    ViewModel view;
    view.name = r.input.relative;
    view.status = model_status_name(has_error(r.issues) ? ModelStatus::refused : ModelStatus::built);
    view.issues = r.issues;
    view.scene = model.imported ? &model.scene : nullptr;
    view.limits = (o.model.validate ? *o.model.validate : ValidationOptions{}).limits;
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
        write_model_output(dir / name, text, r.issues);
}

/// Returns the files the model references (RigModelResult::external_files).
std::vector<fs::path> bake_one(const BakeInput& input, const ModelBytes* bytes, const fs::path& dir,
                               const BakeOptions& o, BakeModelResult& r) {
    RigModelOptions options = o.model;
    // The reports name the model and its folder by relative path, so they are the same for any OUT.
    options.model_label = input.relative;
    options.out_label = input.relative;
    if (options.validate && o.page) options.validate->trace = view_trace_options();  // the page plays the scenarios back
    set_bake_stage("build");
    RigModelResult model = bytes ? rig_model(input.path, *bytes, dir, options) : rig_model(input.path, dir, options);
    r.stages = model.seconds;
    r.validate_seconds = model.seconds.validate;
    r.issues = model.issues;
    set_bake_stage("report");
    if (model.proxy_validation)
        write_model_output(dir / "validation.json", bake_json_text(report_json(*model.proxy_validation, false)), r.issues);
    write_model_output(dir / "report.json", bake_json_text(rig_report_json(model, false)), r.issues);
    if (o.page) {
        set_bake_stage("page");
        const auto start = std::chrono::steady_clock::now();
        write_view(dir, model, model.proxy_validation ? model.proxy_validation->proxies : std::vector<ProxyValidation>{}, o, r);
        r.page_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return std::move(model.external_files);
}

}  // namespace

bool is_model_file(const fs::path& path) {
    return model_extensions().count(lower(path.extension().string())) > 0;
}

namespace {

/// Walks `dir` (an INPUT folder or one below it) into `found`. Folders are listed one at a time, so
/// an unreadable one, a link loop or a special file is one named issue and the walk goes on. Links
/// to folders are not followed (a link can never lead the walk round a loop or out of the tree);
/// links to files are, as before.
void walk_folder(const fs::path& root, const fs::path& dir, size_t k, const fs::path& exclude,
                 std::vector<BakeInput>& found, Issues& issues) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
        issues.push_back(make_issue(kInputUnreadable, utf8_escaped(dir.string()) + ": cannot list the folder: " + ec.message() +
                              "; its models were not baked (the rest of the walk goes on)",
                          ""));
        return;
    }
    std::vector<fs::path> folders;
    for (; it != end; it.increment(ec)) {
        const fs::path path = it->path();
        std::error_code link_ec;
        const fs::file_status own = fs::symlink_status(path, link_ec);
        if (link_ec) continue;  // gone since the listing
        if (fs::is_directory(own)) {
            if (!is_under(path, exclude)) folders.push_back(path);
            continue;
        }
        const bool model = is_model_file(path);
        std::error_code target_ec;
        const fs::file_status target = fs::is_symlink(own) ? fs::status(path, target_ec) : own;
        if (target_ec) {
            if (target_ec == std::errc::too_many_symbolic_link_levels)
                issues.push_back(make_issue(kInputLinkLoop, utf8_escaped(path.string()) + ": a symbolic link loop; skipped (remove or re-point the link)", ""));
            else if (model)
                issues.push_back(make_issue(kInputUnreadable, utf8_escaped(path.string()) + ": a symbolic link to nothing (" + target_ec.message() + "); skipped", ""));
            continue;
        }
        if (!model || fs::is_directory(target)) continue;
        if (!fs::is_regular_file(target)) {
            issues.push_back(make_issue(kInputNotRegular, utf8_escaped(path.string()) + ": is " + (fs::is_fifo(target) ? "a FIFO" : fs::is_socket(target) ? "a socket" : "a device") +
                                  ", not a regular file; not opened, skipped",
                              ""));
            continue;
        }
        found.push_back({path, path.lexically_relative(root).generic_string(), k});
    }
    if (ec)
        issues.push_back(make_issue(kInputUnreadable, utf8_escaped(dir.string()) + ": listing stopped: " + ec.message() + " (the rest of the walk goes on)", ""));
    for (const fs::path& f : folders) walk_folder(root, f, k, exclude, found, issues);
}

}  // namespace

std::vector<BakeInput> walk_inputs(const std::vector<fs::path>& inputs, const fs::path& exclude, Issues& issues) {
    std::vector<BakeInput> found;
    for (size_t k = 0; k < inputs.size(); ++k) {
        const fs::path& in = inputs[k];
        std::error_code ec;
        const fs::file_status st = fs::status(in, ec);
        if (ec && ec == std::errc::too_many_symbolic_link_levels) {
            issues.push_back(make_issue(kInputLinkLoop, utf8_escaped(in.string()) + ": a symbolic link loop", ""));
        } else if (fs::is_regular_file(st)) {
            found.push_back({in, in.filename().generic_string(), k});
        } else if (fs::is_directory(st)) {
            walk_folder(in, in, k, exclude, found, issues);
        } else if (fs::exists(st)) {
            issues.push_back(make_issue(kInputNotRegular, utf8_escaped(in.string()) + ": is " + (fs::is_fifo(st) ? "a FIFO" : fs::is_socket(st) ? "a socket" : "a device") +
                                  ", not a regular file or folder; not opened",
                              ""));
        } else {
            issues.push_back(make_issue(kInputNotFound, utf8_escaped(in.string()) + ": no such file or folder", ""));
        }
    }
    // Relative path, then input index: the same order for any directory listing order (docs/architecture.md#conventions).
    std::stable_sort(found.begin(), found.end(), [](const BakeInput& a, const BakeInput& b) {
        if (a.relative != b.relative) return a.relative < b.relative;
        return a.input_index < b.input_index;
    });
    return found;
}

namespace {
/// A model that failed still depends on its file and the config: the build system re-runs the
/// bake when either changes.
void failed_depends(BakeModelResult& r, const BakeInput& input, const BakeOptions& o) {
    if (!r.depends.empty()) return;
    r.depends.push_back(input.path.generic_string());
    if (!o.config_file.empty()) r.depends.push_back(o.config_file.generic_string());
    std::sort(r.depends.begin(), r.depends.end());
}
}  // namespace

BakeModelResult bake_model(const BakeInput& input, const BakeOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    BakeModelResult r;
    r.input = input;
    set_bake_stage("read");
    try {
        const fs::path dir = o.out_dir / fs::path(input.relative);
        if (!is_valid_utf8(input.relative))
            r.issues.push_back({"NAME_NOT_UTF8", Severity::warning,
                                utf8_escaped(input.relative) + ": the path is not valid UTF-8; reports write each invalid byte as \\xHH", ""});
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
            hash_issues.push_back(make_issue(kInputUnreadable, why, ""));
            input_lines = input.path.filename().string() + " missing\n";
        }
        const std::string opt_hash = options_hash(o);
        // Every file the model is made from: never listed as an output, never removed.
        std::vector<fs::path> input_files{input.path};
        if (!o.config_file.empty()) input_files.push_back(o.config_file);
        // Hashes the files the model references and the config, in the stamp's order; sets depends.
        auto finish_inputs = [&](const std::vector<fs::path>& references, Issues& issues) {
            std::string lines = input_lines;
            std::vector<fs::path> depends{input.path};
            for (const fs::path& f : references) {
                add_input_line(lines, f, issues);
                depends.push_back(f);
                input_files.push_back(f);
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

        // The model's folder must be inside OUT: a symbolic link on the way (OUT/<a> -> /etc)
        // would have the bake write, and its rebuild delete, elsewhere.
        if (!o.out_dir.empty() && !is_under(dir, o.out_dir)) {
            finish_inputs({}, hash_issues);
            r.issues.push_back(make_issue(kOutputOutsideOut, utf8_escaped(dir.string()) + ": the model's output folder leads out of " +
                                    utf8_escaped(o.out_dir.string()) + " through a symbolic link; nothing written (remove the link)",
                                ""));
            r.status = ModelStatus::refused;
            r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            return r;
        }

        // What a killed run left half-written is never renamed into place: clear it first.
        remove_stale_temporaries(dir);

        // Incremental: the same inputs, options and tool version mean the outputs on disk are already
        // right. The files the model references are the ones its stamp lists: the model's bytes are
        // in the hash, so an unchanged model names the same files, and no JSON is parsed to skip.
        const fs::path stamp_path = dir / "bake-stamp.json";
        const json stamp = read_stamp(stamp_path);
        std::vector<fs::path> stamp_references;
        if (stamp.is_object() && stamp.contains("external_files") && stamp["external_files"].is_array())
            for (const json& f : stamp["external_files"])
                if (f.is_string()) stamp_references.push_back(input.path.parent_path() / fs::path(f.get<std::string>()));
        if (!o.force && hash_issues.empty() && stamp.is_object() && stamp.value("schema", "") == bake_stamp_schema &&
            stamp.value("weft_version", "") == WEFT_VERSION && stamp.value("options_hash", "") == opt_hash &&
            stamp.contains("external_files") && stamp["external_files"].is_array() && stamp.contains("outputs") &&
            stamp["outputs"].is_array() && stamp.contains("issues") && stamp["issues"].is_array()) {
            bool match = stamp_references.size() == stamp["external_files"].size();
            if (match) {
                Issues reference_issues;  // a listed file gone: rebuild, and the build reports it
                finish_inputs(stamp_references, reference_issues);
                match = reference_issues.empty() && stamp.value("input_hash", "") == r.input_hash;
            }
            if (match)
                for (const json& f : stamp["outputs"]) match = match && f.is_string() && fs::exists(dir / f.get<std::string>());
            if (match) {
                r.status = ModelStatus::skipped;
                for (const json& f : stamp["outputs"]) r.outputs.push_back(f.get<std::string>());
                for (const json& i : stamp["issues"]) r.issues.push_back(issue_from_json(i));
                r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                r.hash_seconds = r.seconds;
                return r;
            }
        }
        // Rebuilding: what the last build wrote goes first, so an output these options no longer
        // make (a grown model, validation.json) is not left behind and listed as current. Only the
        // regular files its stamp names, and never one of the model's inputs (a stamp of an older
        // weft may list a model stored in its own output folder).
        if (stamp.is_object() && stamp.contains("outputs") && stamp["outputs"].is_array())
            for (const json& f : stamp["outputs"]) {
                if (!f.is_string() || fs::path(f.get<std::string>()).filename() != fs::path(f.get<std::string>())) continue;
                const fs::path old = dir / f.get<std::string>();
                struct stat st{};
                if (::lstat(old.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
                bool input = false;
                for (const fs::path& in : input_files) {
                    std::error_code eq;
                    input = input || fs::equivalent(old, in, eq);
                }
                for (const fs::path& in : stamp_references) {
                    std::error_code eq;
                    input = input || fs::equivalent(old, in, eq);
                }
                std::error_code rm;
                if (!input) fs::remove(old, rm);
            }
        std::error_code ec;
        if (refuse_special_output(stamp_path).empty()) fs::remove(stamp_path, ec);
        ec.clear();
        fs::create_directories(dir, ec);
        const FolderFiles before = folder_files(dir);
        std::vector<fs::path> references;
        if (ec) {
            r.issues.push_back(make_issue(kOutputUnwritable, utf8_escaped(dir.string()) + ": cannot create the folder: " + ec.message(), ""));
        } else if (!model && !fs::exists(input.path)) {
            r.issues.insert(r.issues.end(), hash_issues.begin(), hash_issues.end());
        } else {
            r.hash_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            Issues name_issues = std::move(r.issues);
            references = bake_one(input, model ? &*model : nullptr, dir, o, r);
            r.issues.insert(r.issues.begin(), name_issues.begin(), name_issues.end());
        }
        set_bake_stage("stamp");
        // The references come from the import's one parse of the model, so they are hashed after
        // it: a referenced file edited during its own model's bake can leave a stamp newer than
        // the outputs (the next --force run, or any edit, rebuilds it).
        finish_inputs(references, hash_issues);
        r.outputs = list_outputs(dir, before, input_files);
        r.status = has_error(r.issues) ? ModelStatus::refused : ModelStatus::built;
        for (const Issue& i : r.issues)
            if (i.code == kOutputUnwritable.code || i.code == kWriteFailed.code || i.code == kOutputNotRegular.code) r.status = ModelStatus::failed;
        if (r.status != ModelStatus::failed && hash_issues.empty()) {
            json external = json::array();
            for (const fs::path& f : references) external.push_back(stamp_reference(f, input.path));
            json stamp_out = {{"schema", bake_stamp_schema},
                              {"weft_version", WEFT_VERSION},
                              {"input_hash", r.input_hash},
                              {"external_files", std::move(external)},
                              {"options_hash", opt_hash},
                              {"status", model_status_name(r.status)},
                              {"outputs", r.outputs}};
            json issues = json::array();
            for (const Issue& i : r.issues) issues.push_back(issue_json(i));
            stamp_out["issues"] = std::move(issues);
            // Written last: a run killed before this point leaves no stamp, so the model is rebuilt.
            if (!write_model_output(stamp_path, bake_json_text(stamp_out), r.issues)) r.status = ModelStatus::failed;
        }
    } catch (const std::bad_alloc&) {
        failed_depends(r, input, o);
        r.issues.push_back(make_issue(kOutOfMemory, utf8_escaped(input.path.string()) + ": ran out of memory" +
                                (bake_stage_slot ? std::string(" in stage ") + bake_stage_slot : std::string()) +
                                "; raise --max-memory or simplify the model",
                            ""));
        r.status = ModelStatus::failed;
    } catch (const std::exception& e) {
        failed_depends(r, input, o);
        r.issues.push_back(make_issue(kInternalError, utf8_escaped(input.path.string()) + ": " + e.what(), ""));
        r.status = ModelStatus::failed;
    } catch (...) {
        failed_depends(r, input, o);
        r.issues.push_back(make_issue(kInternalError, utf8_escaped(input.path.string()) + ": unknown exception", ""));
        r.status = ModelStatus::failed;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

int BakeResult::exit_code() const {
    if (has_error(run_issues)) return 1;
    // A skipped model keeps the errors its stamp recorded: skipping never turns a refusal into a pass.
    for (const BakeModelResult& m : models)
        if (m.status == ModelStatus::refused || m.status == ModelStatus::failed || has_error(m.issues)) return 1;
    return 0;
}

namespace {

// --- Isolation: one worker process per job slot -------------------------------------------------
//
// The driver forks N workers (N = -j) before the first model and hands each a model index at a time
// over a socket pair; a worker bakes it with bake_model and sends the result back (CBOR: file names
// are bytes, not always UTF-8). A worker that dies (a signal, an exit) takes only the model it was
// baking: that model is `failed` with CRASHED or OUT_OF_MEMORY naming the signal and the stage (the
// worker writes its stage into a page it shares with the driver), a fresh worker takes the next
// model. A worker past the wall-clock limit is killed: TIMED_OUT. Workers are kept from model to
// model, so a worker's heap is reused as a thread's was (process_memory.h), and a fork costs well
// under a millisecond of a model's ~0.3 s; fork rather than exec, because the worker needs the
// driver's options, config and walk as they are, and the driver is single-threaded when it forks.

constexpr size_t worker_slot_bytes = 128;   // stage name [0, 64), out-of-memory flag at 64
constexpr size_t worker_oom_flag = 64;

json result_to_wire(const BakeModelResult& r, bool worker_exits) {
    json issues = json::array();
    for (const Issue& i : r.issues) issues.push_back({i.code, static_cast<int>(i.severity), i.message, i.pointer});
    return {{"status", model_status_name(r.status)},
            {"issues", std::move(issues)},
            {"outputs", r.outputs},
            {"depends", r.depends},
            {"input_hash", r.input_hash},
            {"seconds", r.seconds},
            {"stages", {r.stages.import, r.stages.garments, r.stages.grow, r.stages.build, r.stages.validate, r.stages.write}},
            {"hash_seconds", r.hash_seconds},
            {"validate_seconds", r.validate_seconds},
            {"page_seconds", r.page_seconds},
            {"worker_exits", worker_exits}};
}

void result_from_wire(const json& j, BakeModelResult& r) {
    r.status = parse_model_status(j.at("status").get<std::string>()).value_or(ModelStatus::failed);
    for (const json& i : j.at("issues"))
        r.issues.push_back({i.at(0).get<std::string>(), static_cast<Severity>(i.at(1).get<int>()), i.at(2).get<std::string>(),
                            i.at(3).get<std::string>()});
    r.outputs = j.at("outputs").get<std::vector<std::string>>();
    r.depends = j.at("depends").get<std::vector<std::string>>();
    r.input_hash = j.at("input_hash").get<std::string>();
    r.seconds = j.at("seconds").get<double>();
    const json& st = j.at("stages");
    r.stages = {st.at(0).get<double>(), st.at(1).get<double>(), st.at(2).get<double>(),
                st.at(3).get<double>(), st.at(4).get<double>(), st.at(5).get<double>()};
    r.hash_seconds = j.at("hash_seconds").get<double>();
    r.validate_seconds = j.at("validate_seconds").get<double>();
    r.page_seconds = j.value("page_seconds", 0.0);
}

bool send_all(int fd, const void* data, size_t size) {
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);  // a dead peer is an error, not SIGPIPE
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

bool recv_all(int fd, void* data, size_t size) {
    auto* p = static_cast<char*>(data);
    while (size > 0) {
        const ssize_t n = ::recv(fd, p, size, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

/// Sanitizers reserve terabytes of address space for their shadow memory: an address-space limit
/// would stop the worker before it starts, so under them the limit is not set.
constexpr bool address_space_limit_works() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    return false;
#else
    return true;
#endif
#else
    return true;
#endif
}

char* worker_oom_slot = nullptr;

/// operator new's last resort in a worker: marks the slot, then lets the allocation fail
/// (std::bad_alloc, OUT_OF_MEMORY; or, where nothing catches it, a signal the driver reports as
/// OUT_OF_MEMORY by the mark).
void worker_new_handler() {
    if (worker_oom_slot) *worker_oom_slot = 1;
    std::set_new_handler(nullptr);
}

/// A test's way to make one model's worker die the ways real inputs do (WEFT_BAKE_FAULT =
/// "<segv|abort|oom|hang>:<relative path>"); unset in normal runs.
void worker_fault(const BakeInput& input) {
    const char* fault = std::getenv("WEFT_BAKE_FAULT");
    if (!fault) return;
    const std::string_view f(fault);
    const size_t colon = f.find(':');
    if (colon == std::string_view::npos || f.substr(colon + 1) != input.relative) return;
    const std::string_view kind = f.substr(0, colon);
    set_bake_stage("build");
    if (kind == "segv") ::raise(SIGSEGV);
    if (kind == "abort") std::abort();
    if (kind == "hang")
        for (;;) ::pause();
    if (kind == "oom") {
        std::vector<std::unique_ptr<char[]>> hog;
        for (;;) {
            hog.emplace_back(new char[size_t(64) << 20]);
            std::memset(hog.back().get(), 1, size_t(64) << 20);
        }
    }
}

[[noreturn]] void worker_main(int fd, char* slot, const std::vector<BakeInput>& inputs, const BakeOptions& o,
                              pid_t driver) {
    // A worker never outlives its driver (a killed `weft bake` must not leave models baking).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != driver) ::_exit(0);
    set_temporary_owner(driver, static_cast<uint64_t>(::getpid()) * 1000000);
    bake_stage_slot = slot;
    worker_oom_slot = slot + worker_oom_flag;
    if (o.max_memory_bytes > 0 && address_space_limit_works()) {
        const rlimit limit{static_cast<rlim_t>(o.max_memory_bytes), static_cast<rlim_t>(o.max_memory_bytes)};
        ::setrlimit(RLIMIT_AS, &limit);
    }
    for (;;) {
        uint32_t k = 0;
        if (!recv_all(fd, &k, sizeof k) || k >= inputs.size()) ::_exit(0);
        *worker_oom_slot = 0;
        set_bake_stage("read");
        std::set_new_handler(worker_new_handler);
        bool exits = false;
        std::vector<uint8_t> wire;
        try {
            worker_fault(inputs[k]);
            BakeModelResult r = bake_model(inputs[k], o);
            // After running out of memory the heap is in no state to trust: a fresh worker goes on.
            exits = *worker_oom_slot != 0;
            if (exits && std::none_of(r.issues.begin(), r.issues.end(), [](const Issue& i) { return i.code == kOutOfMemory.code; })) {
                r.issues.push_back(make_issue(kOutOfMemory, utf8_escaped(inputs[k].relative) + ": an allocation failed in stage " +
                                        std::string(slot, ::strnlen(slot, bake_stage_size)) + "; raise --max-memory or simplify the model",
                                    ""));
                r.status = ModelStatus::failed;
            }
            wire = json::to_cbor(result_to_wire(r, exits));
        } catch (...) {
            ::_exit(3);  // the driver reports the model CRASHED (or OUT_OF_MEMORY by the mark)
        }
        const auto size = static_cast<uint32_t>(wire.size());
        if (!send_all(fd, &size, sizeof size) || !send_all(fd, wire.data(), wire.size())) ::_exit(0);
        if (exits) ::_exit(0);
    }
}

const char* signal_name(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV (segmentation fault)";
        case SIGBUS: return "SIGBUS (bus error)";
        case SIGABRT: return "SIGABRT (abort)";
        case SIGFPE: return "SIGFPE (arithmetic exception)";
        case SIGILL: return "SIGILL (illegal instruction)";
        case SIGKILL: return "SIGKILL (killed from outside, e.g. by the system's out-of-memory killer)";
        case SIGTRAP: return "SIGTRAP (trap)";
        case SIGSYS: return "SIGSYS (bad system call)";
        case SIGXCPU: return "SIGXCPU (CPU time limit)";
        case SIGXFSZ: return "SIGXFSZ (file size limit)";
        case SIGTERM: return "SIGTERM (terminated)";
    }
    return nullptr;
}

struct Worker {
    pid_t pid = 0;
    int fd = -1;
    long model = -1;                                   ///< index into the walk, -1 when idle
    std::chrono::steady_clock::time_point start;
    std::vector<uint8_t> buffer;                       ///< what the worker sent of its result so far
    char* slot = nullptr;
};

}  // namespace

BakeResult bake(const BakeOptions& o,
                const std::function<void(const BakeModelResult&, size_t, size_t)>& progress) {
    const auto start = std::chrono::steady_clock::now();
    BakeResult result;
    const std::vector<BakeInput> inputs = walk_inputs(o.inputs, o.out_dir, result.run_issues);
    remove_stale_temporaries(o.out_dir);  // a killed run's half-written bake-report.json
    result.models.resize(inputs.size());
    // Two INPUTs holding the same relative path would bake into one folder, the later overwriting
    // the earlier's outputs: the first (in INPUT order; the walk sorts by path, then INPUT) is
    // baked, the later ones refused by name.
    std::vector<uint8_t> clash(inputs.size(), 0);
    for (size_t k = 1; k < inputs.size(); ++k) {
        if (inputs[k].relative != inputs[k - 1].relative) continue;
        size_t first = k - 1;
        while (clash[first]) --first;
        clash[k] = 1;
        BakeModelResult& r = result.models[k];
        r.input = inputs[k];
        r.status = ModelStatus::refused;
        r.depends = {inputs[k].path.generic_string()};
        r.issues.push_back(make_issue(kOutputClash, utf8_escaped(inputs[k].path.string()) + ": has the same relative path as " +
                                utf8_escaped(inputs[first].path.string()) + ", baked into " +
                                utf8_escaped((o.out_dir / inputs[k].relative).string()) +
                                "; not baked (bake the two folders into different OUTs, or rename one)",
                            ""));
    }
    // Largest files first, so with -j N the last model to finish is a small one; results keep walk
    // order (stored by index), so the order of work never shows in the outputs.
    std::vector<size_t> order;
    std::vector<uintmax_t> bytes(inputs.size(), 0);
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (clash[k]) continue;
        order.push_back(k);
        std::error_code ec;
        const uintmax_t size = fs::file_size(inputs[k].path, ec);
        bytes[k] = ec ? 0 : size;
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
    size_t done = 0;
    for (size_t k = 0; k < inputs.size(); ++k)
        if (clash[k] && progress) progress(result.models[k], ++done, inputs.size());
    const size_t n = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(std::max(1, o.jobs)), order.size()));

    if (!o.isolate) {
        std::atomic<size_t> next{0};
        std::mutex mutex;
        auto worker = [&] {
            for (size_t m = next++; m < order.size(); m = next++) {
                const size_t k = order[m];
                BakeModelResult r = bake_model(inputs[k], o);
                std::lock_guard<std::mutex> lock(mutex);
                result.models[k] = std::move(r);
                ++done;
                if (progress) progress(result.models[k], done, inputs.size());
            }
        };
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

    void* shared = ::mmap(nullptr, n * worker_slot_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) shared = nullptr;
    std::vector<Worker> workers(n);
    for (size_t w = 0; w < n; ++w)
        workers[w].slot = shared ? static_cast<char*>(shared) + w * worker_slot_bytes : nullptr;
    std::vector<char> local_slots;  // without a shared page, stages are simply not known
    if (!shared) {
        local_slots.assign(n * worker_slot_bytes, 0);
        for (size_t w = 0; w < n; ++w) workers[w].slot = local_slots.data() + w * worker_slot_bytes;
    }

    const pid_t driver = ::getpid();
    auto start_worker = [&](Worker& w) {
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return false;
        std::memset(w.slot, 0, worker_slot_bytes);
        const pid_t pid = ::fork();
        if (pid < 0) {
            ::close(sv[0]);
            ::close(sv[1]);
            return false;
        }
        if (pid == 0) {
            ::close(sv[0]);
            for (const Worker& other : workers)
                if (other.fd >= 0) ::close(other.fd);  // a sibling's socket would keep it from seeing EOF
            worker_main(sv[1], w.slot, inputs, o, driver);
        }
        ::close(sv[1]);
        w.pid = pid;
        w.fd = sv[0];
        return true;
    };
    auto stop_worker = [&](Worker& w, bool kill) {
        if (w.fd >= 0) ::close(w.fd);
        w.fd = -1;
        int status = 0;
        if (w.pid > 0) {
            if (kill) ::kill(w.pid, SIGKILL);
            while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
            }
        }
        w.pid = 0;
        return status;
    };
    auto finish = [&](Worker& w, BakeModelResult&& r) {
        const auto k = static_cast<size_t>(w.model);
        w.model = -1;
        w.buffer.clear();
        result.models[k] = std::move(r);
        ++done;
        if (progress) progress(result.models[k], done, inputs.size());
    };
    // A model whose worker died or was stopped: failed, with what is known of it.
    auto lost = [&](Worker& w, const IssueCode& code, const std::string& what) {
        const auto k = static_cast<size_t>(w.model);
        BakeModelResult r;
        r.input = inputs[k];
        r.status = ModelStatus::failed;
        failed_depends(r, inputs[k], o);
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w.start).count();
        const std::string stage = w.slot[0] ? std::string(w.slot, ::strnlen(w.slot, bake_stage_size)) : "start";
        r.issues.push_back(make_issue(code,
                                      utf8_escaped(inputs[k].relative) + ": " + what + " in stage " + stage +
                                          "; nothing of it is stamped, the other models were baked",
                                      "/stages/" + stage));
        finish(w, std::move(r));
    };
    auto died = [&](Worker& w) {
        const bool oom = w.slot[worker_oom_flag] != 0;
        const int status = stop_worker(w, false);
        if (oom) {
            lost(w, kOutOfMemory, "ran out of memory (limit --max-memory " + std::to_string(o.max_memory_bytes >> 20) + " MiB)");
        } else if (WIFSIGNALED(status)) {
            const int sig = WTERMSIG(status);
            const char* name = signal_name(sig);
            lost(w, kCrashed, std::string("the bake crashed with ") + (name ? name : "signal " + std::to_string(sig)));
        } else {
            lost(w, kCrashed, "the bake's worker exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                   " before sending its result");
        }
    };

    size_t next = 0;
    while (done < inputs.size()) {
        // Hand every idle worker its next model; one that cannot take it is restarted.
        for (Worker& w : workers) {
            if (w.model >= 0 || next >= order.size()) continue;
            const auto k = static_cast<uint32_t>(order[next]);
            bool sent = false;
            for (int attempt = 0; attempt < 2 && !sent; ++attempt) {
                if (w.pid == 0 && !start_worker(w)) break;
                std::memset(w.slot, 0, worker_slot_bytes);
                sent = send_all(w.fd, &k, sizeof k);
                if (!sent) stop_worker(w, true);
            }
            ++next;
            if (!sent) {  // no process to be had: this model bakes here, unisolated
                BakeModelResult r = bake_model(inputs[k], o);
                result.models[k] = std::move(r);
                ++done;
                if (progress) progress(result.models[k], done, inputs.size());
                continue;
            }
            w.model = k;
            w.start = std::chrono::steady_clock::now();
            w.buffer.clear();
        }
        std::vector<pollfd> fds;
        std::vector<Worker*> busy;
        int timeout_ms = -1;
        const auto now = std::chrono::steady_clock::now();
        for (Worker& w : workers) {
            if (w.model < 0) continue;
            fds.push_back({w.fd, POLLIN, 0});
            busy.push_back(&w);
            if (o.time_limit_seconds > 0) {
                const double left = o.time_limit_seconds - std::chrono::duration<double>(now - w.start).count();
                const int ms = left <= 0 ? 0 : static_cast<int>(std::min(left * 1000 + 1, 3.6e6));
                timeout_ms = timeout_ms < 0 ? ms : std::min(timeout_ms, ms);
            }
        }
        if (busy.empty()) continue;
        const int ready = ::poll(fds.data(), fds.size(), timeout_ms);
        if (ready < 0 && errno != EINTR) break;
        for (size_t i = 0; i < busy.size(); ++i) {
            Worker& w = *busy[i];
            if (ready > 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                uint8_t chunk[65536];
                const ssize_t got = ::recv(w.fd, chunk, sizeof chunk, 0);
                if (got < 0 && errno == EINTR) continue;
                if (got <= 0) {
                    died(w);
                    continue;
                }
                w.buffer.insert(w.buffer.end(), chunk, chunk + got);
                uint32_t size = 0;
                if (w.buffer.size() < sizeof size) continue;
                std::memcpy(&size, w.buffer.data(), sizeof size);
                if (w.buffer.size() < sizeof size + size) continue;
                BakeModelResult r;
                r.input = inputs[static_cast<size_t>(w.model)];
                bool exits = true;
                try {
                    const json wire = json::from_cbor(w.buffer.begin() + sizeof size, w.buffer.begin() + sizeof size + size);
                    result_from_wire(wire, r);
                    exits = wire.value("worker_exits", false);
                } catch (const std::exception&) {
                    stop_worker(w, true);
                    lost(w, kCrashed, "the bake's worker sent an unreadable result");
                    continue;
                }
                if (exits) stop_worker(w, false);
                finish(w, std::move(r));
            } else if (o.time_limit_seconds > 0 &&
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - w.start).count() >= o.time_limit_seconds) {
                stop_worker(w, true);
                lost(w, kTimedOut, "ran past the time limit of " + format_text("%g", o.time_limit_seconds) + " s (--time-limit)");
            }
        }
    }
    for (Worker& w : workers) stop_worker(w, false);  // EOF on its socket: each worker exits
    if (shared) ::munmap(shared, n * worker_slot_bytes);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

json bake_report_json(const BakeResult& result, const BakeOptions& o) {
    json report;
    report["schema"] = bake_report_schema;
    report["weft_version"] = WEFT_VERSION;
    report["grow_cloth"] = o.model.grow_cloth;
    report["validate"] = o.model.validate.has_value();
    std::map<std::string, int> counts;
    std::map<ModelStatus, int> statuses;
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
                          {"status", model_status_name(m.status)},
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
                        {"built", statuses[ModelStatus::built]},
                        {"skipped", statuses[ModelStatus::skipped]},
                        {"refused", statuses[ModelStatus::refused]},
                        {"failed", statuses[ModelStatus::failed]}};
    report["exit_code"] = result.exit_code();
    report["timings"] = {{"total_seconds", result.seconds}, {"jobs", o.jobs}, {"models", std::move(timings)}};
    return report;
}

namespace {

/// A path as Make and Ninja read it in a depfile, or nullopt when no depfile can name it. Space,
/// '#' and ':' take a backslash, and the backslashes right before them are doubled (2N+1
/// backslashes and the character read as N and the character); '$' is "$$"; any other backslash
/// stands for itself. A newline, a carriage return or a tab cannot be written in a depfile (Make
/// ends the line or the name there, Ninja too), nor can a name ending in ':' or '\' (read as the
/// rule's colon, or as escaping what follows): tested against ninja 1.11 (tests/cli/bake_outputs_test).
std::optional<std::string> depfile_escape(const std::string& path) {
    if (path.empty() || path.find_first_of("\n\r\t") != std::string::npos || path.back() == ':' || path.back() == '\\')
        return std::nullopt;
    std::string out;
    size_t backslashes = 0;
    for (char c : path) {
        if (c == ' ' || c == '#' || c == ':') {
            out.append(backslashes, '\\');
            out += '\\';
        } else if (c == '$') {
            out += '$';
        }
        out += c;
        backslashes = c == '\\' ? backslashes + 1 : 0;
    }
    return out;
}

}  // namespace

std::string bake_depfile(const BakeResult& result, const std::string& target, Issues* unrepresentable) {
    std::set<std::string> deps;
    for (const BakeModelResult& m : result.models) deps.insert(m.depends.begin(), m.depends.end());
    std::string text = depfile_escape(target).value_or("bake-report.json") + ":";
    for (const std::string& d : deps) {
        if (std::optional<std::string> escaped = depfile_escape(d)) {
            text += " \\\n  " + *escaped;
        } else if (unrepresentable) {
            unrepresentable->push_back(make_issue(kDepfileUnrepresentable, utf8_escaped(d) + ": holds a newline, a carriage return or a tab, or ends in ':' or '\\', "
                                                          "which no depfile can name; left out of the depfile (rename the file to have it tracked)",
                                        ""));
        }
    }
    return text + "\n";
}

std::string bake_json_text(const json& j) { return json_text(j); }

}  // namespace weft
