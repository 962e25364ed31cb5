// One model's bake: hash, skip when unchanged, the stages, the page, the stamp.
#include "batch/bake_model.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <new>
#include <optional>

#include <sys/stat.h>

#include "io/atomic_file.h"
#include "io/content_hash.h"
#include "io/utf8_text.h"
#include "batch/bake_stage.h"
#include "outputs/cloth_summary_json.h"
#include "outputs/issue_json.h"
#include "outputs/json_text.h"
#include "outputs/model_files.h"
#include "outputs/model_output.h"
#include "pipeline/model_stages.h"
#include "pipeline/pipeline_codes.h"
#include "batch/source_id.h"
#include "outputs/view_page.h"
#include "proxy/file/proxy_file.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

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

std::string options_hash(const ModelOptions& o) {
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

/// The files the model referenced when its stamp was written, resolved beside the model.
std::vector<fs::path> stamp_references(const json& stamp, const fs::path& model) {
    std::vector<fs::path> references;
    if (stamp.is_object() && stamp.contains("external_files") && stamp["external_files"].is_array())
        for (const json& f : stamp["external_files"])
            if (f.is_string()) references.push_back(model.parent_path() / fs::path(f.get<std::string>()));
    return references;
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

/// Whether `file` is one of `files` (the same file by any name).
bool is_one_of(const fs::path& file, const std::vector<fs::path>& files) {
    return std::any_of(files.begin(), files.end(), [&](const fs::path& f) {
        std::error_code ec;
        return fs::equivalent(file, f, ec);
    });
}

/// What the bake wrote into `dir`: regular files new since `before` or replaced (a new inode), not
/// the stamp, not a temporary, never one of the model's inputs.
std::vector<std::string> list_outputs(const fs::path& dir, const FolderFiles& before, const std::vector<fs::path>& inputs) {
    std::vector<std::string> out;
    for (const auto& [name, inode] : folder_files(dir)) {
        if (name == "bake-stamp.json" || temporary_owner(name) != 0) continue;
        if (auto was = before.find(name); was != before.end() && was->second == inode) continue;
        if (!is_one_of(dir / name, inputs)) out.push_back(name);
    }
    return out;  // sorted: a std::map's order
}

/// Rebuilding: what the last build wrote goes first, so an output these options no longer make (a
/// grown model, validation.json) is not left behind and listed as current. Only the regular files
/// its stamp names, and never one of the model's inputs (a stamp of an older weft may list a model
/// stored in its own output folder).
void remove_previous_outputs(const json& stamp, const fs::path& dir, const std::vector<fs::path>& inputs) {
    if (!stamp.is_object() || !stamp.contains("outputs") || !stamp["outputs"].is_array()) return;
    for (const json& f : stamp["outputs"]) {
        if (!f.is_string() || fs::path(f.get<std::string>()).filename() != fs::path(f.get<std::string>())) continue;
        const fs::path old = dir / f.get<std::string>();
        struct stat st{};
        if (::lstat(old.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        std::error_code rm;
        if (!is_one_of(old, inputs)) fs::remove(old, rm);
    }
}

/// The model's page and the index's thumbnail of it (view_page.h), from the proxies as written.
void write_page(const ModelOptions& o, ModelRecord& r) {
    ViewModel view;
    view.name = r.model.string();
    view.status = model_status_name(has_error(r.issues) ? ModelStatus::refused : ModelStatus::built);
    view.issues = r.issues;
    view.scene = r.imported ? &r.scene : nullptr;
    view.garments = r.imported ? &r.garments : nullptr;
    view.limits = (o.validate ? *o.validate : ValidationOptions{}).limits;
    const std::vector<ProxyValidation> none;
    const std::vector<ProxyValidation>& validations = r.proxy_validation ? r.proxy_validation->proxies : none;
    auto add = [&](const std::string& file) {
        if (file.empty()) return;
        DecodeResult loaded = load_proxy(o.out_dir / file);
        if (!loaded.ok()) return;
        ViewProxy vp{file, std::move(*loaded.proxy), nullptr, nullptr};
        for (const ProxyValidation& candidate : validations)
            if (candidate.file == file) vp.validation = &candidate;
        if (r.validation)
            for (const RigProxyValidation& m : r.validation->proxies)
                if (m.solver.file == file) vp.mesh = &m;
        view.proxies.push_back(std::move(vp));
    };
    for (const RiggedGarment& g : r.rigs) add(g.proxy_file);
    for (const SheetedGarment& g : r.sheets) add(g.proxy_file);
    write_model_output(o.out_dir / "view.html", view_model_html(view), r.issues);
    // A picture only of something: a model that was never read has none, and the index says why.
    if (const std::string png = view_thumbnail_png(view); !png.empty()) write_model_output(o.out_dir / "thumbnail.png", png, r.issues);
}

/// One model's bake, stage by stage, into its record.
class ModelBake {
public:
    ModelBake(const fs::path& model, const ModelOptions& options, Clock::time_point start, ModelRecord& r)
        : model_(model), o_(options), start_(start), r_(r) {
        // The page plays the scenarios back.
        if (o_.validate && o_.page) o_.validate->trace = view_trace_options();
    }

    void run() {
        r_.source = model_;
        r_.model = o_.model_label.empty() ? model_ : fs::path(o_.model_label);
        r_.out_dir = o_.out_label.empty() ? o_.out_dir : fs::path(o_.out_label);
        if (!is_valid_utf8(r_.model.string()))
            r_.issues.push_back(make_issue(kNameNotUtf8, utf8_escaped(r_.model.string()) +
                                                             ": the path is not valid UTF-8; reports write each invalid byte as \\xHH"));
        read_inputs();
        if (o_.stamp && !prepare_folder()) return;
        build();
        set_bake_stage("stamp");
        if (o_.stamp) {
            // The references come from the import's one parse of the model, so they are hashed after
            // it: a referenced file edited during its own model's bake can leave a stamp newer than
            // the outputs (the next --force run, or any edit, rebuilds it).
            finish_inputs(r_.external_files, hash_issues_);
            r_.outputs = list_outputs(o_.out_dir, before_, files_);
        }
        r_.status = has_error(r_.issues) ? ModelStatus::refused : ModelStatus::built;
        for (const Issue& i : r_.issues)
            if (i.code == kOutputUnwritable.code || i.code == kOutputNotRegular.code) r_.status = ModelStatus::failed;
        // Written last: a run killed before this point leaves no stamp, so the model is rebuilt.
        if (o_.stamp && r_.status != ModelStatus::failed && hash_issues_.empty() &&
            !write_model_output(o_.out_dir / "bake-stamp.json", json_text(bake_stamp_json(r_)), r_.issues))
            r_.status = ModelStatus::failed;
    }

private:
    /// The model's bytes, read once: hashed here, imported from the same bytes. A file that cannot
    /// be read is handed to the import by path, which names what is wrong with it.
    void read_inputs() {
        if (std::string why = read_file(model_, bytes_, ImportOptions{}.max_file_bytes); why.empty()) {
            model_bytes_ = ModelBytes{bytes_, content_hash_text(xxh64(bytes_))};
            input_lines_ = model_.filename().string() + " " + model_bytes_->content_hash + "\n";
        } else {
            hash_issues_.push_back(make_issue(kInputUnreadable, why, ""));
            input_lines_ = model_.filename().string() + " missing\n";
        }
        files_.push_back(model_);
        if (!o_.config_file.empty()) files_.push_back(o_.config_file);
        if (o_.stamp) r_.options_hash = options_hash(o_);
    }

    /// Hashes the files the model references and the config, in the stamp's order; sets depends and
    /// the input hash.
    void finish_inputs(const std::vector<fs::path>& references, Issues& issues) {
        std::string lines = input_lines_;
        std::vector<fs::path> depends{model_};
        for (const fs::path& f : references) {
            add_input_line(lines, f, issues);
            depends.push_back(f);
            files_.push_back(f);
        }
        if (!o_.config_file.empty()) {
            add_input_line(lines, o_.config_file, issues);
            depends.push_back(o_.config_file);
        }
        r_.depends.clear();
        for (const fs::path& f : depends) r_.depends.push_back(f.generic_string());
        std::sort(r_.depends.begin(), r_.depends.end());
        r_.input_hash = hash_text(lines);
    }

    /// The folder inside out_root, cleared of what a killed run left and of what the last build
    /// wrote, unless its stamp matches (the model is skipped). False when nothing is to be built.
    bool prepare_folder() {
        const fs::path& dir = o_.out_dir;
        // A symbolic link on the way (OUT/<a> -> /etc) would have the bake write, and its rebuild
        // delete, elsewhere.
        std::error_code unresolved;
        const bool inside = o_.out_root.empty() || is_under(dir, o_.out_root, unresolved);
        if (unresolved) {  // not a link out: a folder that went away or cannot be read while the bake looks
            finish_inputs({}, hash_issues_);
            r_.issues.push_back(make_issue(kOutputUnwritable, utf8_escaped(dir.string()) + ": the model's output folder cannot be resolved: " +
                                                                  utf8_escaped(unresolved.message()) + "; nothing written"));
            r_.status = ModelStatus::failed;
            return false;
        }
        if (!inside) {
            finish_inputs({}, hash_issues_);
            r_.issues.push_back(make_issue(kOutputOutsideOut, utf8_escaped(dir.string()) + ": the model's output folder leads out of " +
                                                                  utf8_escaped(o_.out_root.string()) +
                                                                  " through a symbolic link; nothing written (remove the link)"));
            r_.status = ModelStatus::refused;
            return false;
        }
        remove_stale_temporaries(dir);  // what a killed run left half-written is never renamed into place
        const fs::path stamp_path = dir / "bake-stamp.json";
        const json stamp = read_stamp(stamp_path);
        const std::vector<fs::path> references = stamp_references(stamp, model_);
        if (skip_unchanged(stamp, references)) {
            r_.seconds.hash = seconds_since(start_);
            return false;
        }
        std::vector<fs::path> inputs = files_;
        inputs.insert(inputs.end(), references.begin(), references.end());
        remove_previous_outputs(stamp, dir, inputs);
        std::error_code ec;
        if (refuse_special_output(stamp_path).empty()) fs::remove(stamp_path, ec);
        ec.clear();
        fs::create_directories(dir, ec);
        before_ = folder_files(dir);
        if (ec) {
            r_.issues.push_back(make_issue(kOutputUnwritable, utf8_escaped(dir.string()) + ": cannot create the folder: " + ec.message()));
            can_build_ = false;
        }
        return true;
    }

    /// Incremental: the same inputs, options and tool (version and sources) mean the outputs on disk are already
    /// right. The files the model references are the ones its stamp lists: the model's bytes are in
    /// the hash, so an unchanged model names the same files, and no JSON is parsed to skip. True
    /// when the record was filled from the stamp.
    bool skip_unchanged(const json& stamp, const std::vector<fs::path>& references) {
        if (o_.force || !hash_issues_.empty() || !stamp.is_object() || stamp.value("schema", "") != bake_stamp_schema ||
            stamp.value("weft_version", "") != WEFT_VERSION || stamp.value("weft_source", "") != weft_source_id() ||
            stamp.value("options_hash", "") != r_.options_hash ||
            !stamp.contains("external_files") || !stamp["external_files"].is_array() || !stamp.contains("outputs") ||
            !stamp["outputs"].is_array() || !stamp.contains("issues") || !stamp["issues"].is_array())
            return false;
        bool match = references.size() == stamp["external_files"].size();
        if (match) {
            Issues reference_issues;  // a listed file gone: rebuild, and the build reports it
            finish_inputs(references, reference_issues);
            match = reference_issues.empty() && stamp.value("input_hash", "") == r_.input_hash;
        }
        if (match)
            for (const json& f : stamp["outputs"]) match = match && f.is_string() && fs::exists(o_.out_dir / f.get<std::string>());
        // What the outputs say: the outcome and the cloth the stamp recorded (a stamp without them,
        // of an older weft, is rebuilt).
        const std::optional<ModelStatus> outcome = parse_model_status(stamp.value("status", ""));
        std::optional<ClothSummary> cloth = stamp.contains("cloth") ? cloth_summary_from_json(stamp["cloth"]) : std::nullopt;
        if (!match || !outcome || *outcome == ModelStatus::failed || !cloth) return false;
        r_.status = *outcome;
        r_.unchanged = true;
        r_.stamped_cloth = std::move(cloth);
        r_.external_files = references;
        for (const json& f : stamp["outputs"]) r_.outputs.push_back(f.get<std::string>());
        Issues recorded;
        for (const json& i : stamp["issues"]) recorded.push_back(issue_from_json(i));
        r_.issues = std::move(recorded);  // the name's warning is among them
        return true;
    }

    /// The stages (model_stages.h), then the page.
    void build() {
        if (!can_build_) return;
        if (o_.stamp && !model_bytes_ && !fs::exists(model_)) {
            r_.issues.insert(r_.issues.end(), hash_issues_.begin(), hash_issues_.end());
            return;
        }
        r_.seconds.hash = seconds_since(start_);
        set_bake_stage("build");
        run_model_stages(model_, model_bytes_ ? &*model_bytes_ : nullptr, o_, r_);
        if (!o_.write_files) return;
        set_bake_stage("write");
        auto start = Clock::now();
        write_model_files(o_, r_);
        r_.seconds.write = seconds_since(start);
        if (!o_.page) return;
        set_bake_stage("page");
        start = Clock::now();
        write_page(o_, r_);
        r_.seconds.page = seconds_since(start);
    }

    const fs::path model_;
    ModelOptions o_;
    const Clock::time_point start_;
    ModelRecord& r_;
    std::vector<uint8_t> bytes_;
    std::optional<ModelBytes> model_bytes_;  ///< unset when the file could not be read
    Issues hash_issues_;                     ///< the inputs' hashing: any keeps the stamp from being written
    std::string input_lines_;
    std::vector<fs::path> files_;            ///< every file the model is made from: never an output, never removed
    FolderFiles before_;
    bool can_build_ = true;
};

/// A model that failed still depends on its file and the config: the build system re-runs the
/// bake when either changes.
void failed(ModelRecord& r, const fs::path& model, const ModelOptions& o, Issue issue) {
    if (r.depends.empty()) {
        r.depends.push_back(model.generic_string());
        if (!o.config_file.empty()) r.depends.push_back(o.config_file.generic_string());
        std::sort(r.depends.begin(), r.depends.end());
    }
    r.issues.push_back(std::move(issue));
    r.status = ModelStatus::failed;
}

}  // namespace

ModelRecord bake_model(const fs::path& model, const ModelOptions& options) {
    const auto start = Clock::now();
    ModelRecord r;
    set_bake_stage("read");
    const std::string name = utf8_escaped(model.string());
    try {
        ModelBake(model, options, start, r).run();
    } catch (const std::bad_alloc&) {
        failed(r, model, options,
               make_issue(kOutOfMemory, name + ": ran out of memory" +
                                            (bake_stage() ? std::string(" in stage ") + bake_stage() : std::string()) +
                                            "; raise --max-memory or simplify the model"));
    } catch (const std::exception& e) {
        failed(r, model, options, make_issue(kInternalError, name + ": " + e.what()));
    } catch (...) {
        failed(r, model, options, make_issue(kInternalError, name + ": unknown exception"));
    }
    r.seconds.total = seconds_since(start);
    return r;
}

json bake_stamp_json(const ModelRecord& r) {
    json external = json::array();
    for (const fs::path& f : r.external_files) external.push_back(stamp_reference(f, r.source));
    return {{"schema", bake_stamp_schema},
            {"weft_version", WEFT_VERSION},
            {"weft_source", weft_source_id()},
            {"input_hash", r.input_hash},
            {"external_files", std::move(external)},
            {"options_hash", r.options_hash},
            {"status", model_status_name(r.status)},
            {"cloth", cloth_summary_json(summarise_cloth(r))},
            {"outputs", r.outputs},
            {"issues", issues_json(r.issues)}};
}

}  // namespace weft
