#include "pipeline/model_stages.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "body/body_in_scene.h"
#include "io/atomic_file.h"
#include "io/content_hash.h"
#include "io/utf8_text.h"
#include "pipeline/config_rules.h"
#include "pipeline/garment_names.h"
#include "pipeline/pipeline_codes.h"
#include "pipeline/sheet_selection.h"
#include "scene/import.h"
#include "validate/model/model_validation.h"

namespace weft {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

void add_issue(Issues& issues, const IssueCode& code, std::string message, std::string pointer = {}) {
    issues.push_back(make_issue(code, std::move(message), std::move(pointer)));
}

void append(Issues& to, const Issues& from) { to.insert(to.end(), from.begin(), from.end()); }

void replace_all(std::string& text, std::string_view from, std::string_view to) {
    if (from.empty() || from == to) return;
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
}

/// A sheet builder's finding names the file and the element (mesh, vertex); in a bake of several
/// garments it must also name the garment it refuses, so that the model's other garments are judged
/// on their own (a dress's non-manifold waist is no reason to discard the hair beside it). The
/// builder opens each message with the file's name: that opening becomes the model and the garment.
std::string name_the_garment(std::string message, const std::string& file, const std::string& model_label,
                             const std::string& garment) {
    const std::string opening = file + ": ";
    const std::string named = model_label + ": garment '" + garment + "': ";
    if (message.find("garment '" + garment + "'") != std::string::npos) return message;
    if (message.rfind(opening, 0) == 0) return named + message.substr(opening.size());
    return named + message;
}

/// The sheet builder's suggested fixes are weft sheet's flags; here (weft rig, weft bake) the same
/// fixes are config rule keys, so a message never suggests a flag the command refuses.
std::string bake_fix(std::string message) {
    const std::pair<std::string_view, std::string_view> fixes[] = {
        {"Delete it, or pass --repair to drop it.",
         "Delete it, or give the garment a config rule with \"repair\": true to drop it."},
        {"Dropped (--repair).", "Dropped (the config rule's \"repair\")."},
        {"Pass --pin top|bottom|left|right|nearest:NODE to hang it.",
         "Give the garment a config rule with \"pin\": \"top\" (or bottom, left, right, nearest:NODE) to hang it."},
        {"Pin fewer (--pin top|bottom|left|right|nearest:NODE)",
         "Pin fewer (a config rule's \"pin\": top, bottom, left, right or nearest:NODE)"},
    };
    for (const auto& [from, to] : fixes)
        for (size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size()))
            message.replace(at, from.size(), to);
    return message;
}

class ModelStages {
public:
    ModelStages(const fs::path& model, const ModelBytes* bytes, const ModelOptions& options, ModelRecord& r)
        : model_(model), bytes_(bytes), out_dir_(options.out_dir), options_(options), r_(r) {}

    /// The stages, each once and in this order; a model that does not import goes from import to
    /// its report.
    void run() {
        r_.source = model_;
        r_.model = options_.model_label.empty() ? model_ : fs::path(options_.model_label);
        r_.out_dir = options_.out_label.empty() ? out_dir_ : fs::path(options_.out_label);
        timed(r_.seconds.import, [&] { import(); });
        if (r_.imported) {
            timed(r_.seconds.garments, [&] {
                r_.garments = find_garments(r_.imported_scene, options_.garments);
                for (std::string& m : rules_naming_nothing(r_.imported_scene, options_.garments.config))
                    add_issue(r_.issues, kConfigRuleNamesNothing, std::move(m), "/garments");
                for (const Garment& g : r_.garments.not_garments)
                    if (g.not_garment_rule == kTailIsBodyRule)
                        add_issue(r_.issues, kTailIsBody,
                                  r_.model.string() + ": '" + g.name + "' (" + g.class_name + ", by " + g.matched_by +
                                      ") is not built: " + g.not_garment_reason + "; a config rule {\"node\": \"" +
                                      g.name + "\", \"class\": \"tail\"} builds it",
                                  "/garments/" + g.name);
                BodyColliderOptions body = options_.body;  // with the config's edits for this model (docs/colliders.md#config)
                for (ColliderEdit& e : collider_edits(options_.garments.config, r_.model)) body.edits.push_back(std::move(e));
                r_.body = fit_body_colliders(r_.imported_scene, r_.garments, body);  // the body before anything grows
                for (const std::string& w : r_.body.warnings) add_issue(r_.issues, kColliderEditSkipped, r_.model.string() + ": " + w, "/colliders");
            });
            timed(r_.seconds.grow, [&] { grow(); });
            timed(r_.seconds.build, [&] { build_proxies(); });
            if (options_.validate) timed(r_.seconds.validate, [&] { validate(*options_.validate); });
        }
    }

private:
    template <class Stage>
    static void timed(double& seconds, Stage&& stage) {
        const auto start = std::chrono::steady_clock::now();
        stage();
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

    void import() {
        ImportResult imported;
        if (bytes_) {
            r_.bytes = bytes_->bytes.size();
            r_.content_hash = bytes_->content_hash;
            imported = import_scene(model_, bytes_->bytes, options_.import);
        } else {
            // One read for the hash and the import: the bytes hashed are the bytes imported.
            std::vector<uint8_t> bytes;
            if (read_file(model_, bytes).empty()) {
                r_.bytes = bytes.size();
                r_.content_hash = content_hash_text(xxh64(bytes));
                imported = import_scene(model_, bytes, options_.import);
            } else {
                imported = import_scene(model_, options_.import);  // it names what is wrong with the file
            }
        }
        // weft bake names the model by its path in its INPUT folder (model_label), never by where that
        // folder is: the import's messages and the scene's name say the label, so no output holds the
        // machine's path (docs/commands.md#hermetic-outputs).
        const std::string given = utf8_escaped(imported.scene.source_path.empty() ? model_.string() : imported.scene.source_path);
        if (!options_.model_label.empty()) {
            const std::string label = utf8_escaped(options_.model_label);
            for (Issue& issue : imported.issues) replace_all(issue.message, given, label);
            imported.scene.source_path = label;
        }
        append(r_.issues, imported.issues);
        r_.import_issues = imported.issues;
        r_.external_files = std::move(imported.external_files);
        if (!imported.ok()) return;
        r_.imported = true;
        r_.imported_scene = std::move(imported.scene);
        // The messages carry the model's path as text (UTF-8 only): a path of other bytes goes in
        // with them as \xHH (io/utf8_text.h).
        r_.imported_scene.source_path = utf8_escaped(r_.imported_scene.source_path);
    }

    void grow() {
        if (options_.grow_cloth) {
            GrowResult grown = grow_cloth(r_.imported_scene, r_.garments, options_.grow);
            append(r_.issues, grown.issues);
            r_.scene = std::move(grown.scene);
            grown.scene = Scene{};
            r_.grow = std::move(grown);
        } else {
            // Nothing grew: the imported scene is the result, moved rather than copied mesh by
            // mesh. imported_scene is only read to patch a grown model.
            r_.scene = std::move(r_.imported_scene);
            r_.imported_scene = Scene{};
        }
        r_.plans = plan_garments(r_.scene, r_.garments, {options_.grow_cloth, options_.sheets},
                                 r_.grow ? &*r_.grow : nullptr);
        r_.garments.verdict = planned_verdict(r_.scene, r_.garments, r_.plans);
        for (const Garment& g : r_.garments.garments)
            if (!g.stays_reason.empty())
                add_issue(r_.issues, kHairLiesOnHead,
                          r_.model.string() + ": garment '" + g.name + "' (" + g.class_name + ", by " + g.matched_by +
                              " '" + g.matched_name + "'): " + g.stays_reason + "; to build it, name it in weft.json: " +
                              rule_naming(g),
                          "/garments/" + g.name);
    }

    /// The config rule that names a garment found automatically, for a message to suggest.
    static std::string rule_naming(const Garment& g) {
        const bool geometry = g.matched_by == kMatchedByGeometry;  // by the body rules: the rule confirms the class
        const json rule = {{geometry ? std::string("geometry") : g.matched_by, geometry ? g.class_name : g.matched_name},
                           {"class", g.class_name}};
        return rule.dump();
    }

    void build_proxies() {
        if (options_.sheet_only) {
            build_selected_sheets(*options_.sheet_only);
            return;
        }
        collect_rigs();
        // Each rig particle collides with the hull round it, cut to the room the body leaves it at rest
        // (docs/proxy.md#collision-radius): the body the proxy is validated against and written with.
        const BodyShapes body = body_shapes(r_.scene, r_.body);
        for (RiggedGarment& g : r_.rigs) {
            g.built = build_rig(r_.scene, g.input, options_.rig);
            append(r_.issues, g.built.issues);
            if (!g.built.proxy) continue;
            ClothProxy& proxy = *g.built.proxy;
            const double thickness = suggested_fabric(proxy).thickness;
            fit_collision_radius(proxy, body_clear_of_rest(body_in_frame(body, proxy), proxy, thickness), thickness);
            // Then the render vertices the cut radii leave uncovered collide where they are (docs/colliders.md#virtual-particles).
            add_virtual_particles(g.built, thickness);
        }
        if (options_.sheets) build_sheets();
        // With sheets every garment found by name gets a proxy: none means nothing was found.
        if (options_.sheets && r_.rigs.empty() && r_.sheets.empty())
            add_issue(r_.issues, kNoGarmentFound,
                      r_.model.string() + ": " + r_.garments.verdict + "; name the cloth in weft.json (--config)");
    }

    /// Every built proxy, in memory (the codec is lossless: the file holds these numbers), through
    /// the model's verdict (validate/model/model_validation.h), with the body fitted to it.
    void validate(const ValidationOptions& options) {
        std::vector<ModelProxy> proxies;
        for (const RiggedGarment& g : r_.rigs)
            if (g.built.proxy) proxies.push_back({garment_file_stem(g.name) + ".clothproxy", &*g.built.proxy, &g.input, &g.built});
        for (const SheetedGarment& g : r_.sheets)
            if (g.built.proxy) proxies.push_back({g.file_stem + ".clothproxy", &*g.built.proxy, nullptr, nullptr});
        const ModelUnderTest model{&r_.scene, body_shapes(r_.scene, r_.body), r_.model.string(), r_.out_dir.string(),
                                   &options_.garments.config};
        ModelValidation v = validate_model(model, proxies, options, options_.validate_limits);
        append(r_.issues, v.issues);
        r_.validation_issues = std::move(v.issues);
        r_.validation = std::move(v.rigs);
        r_.proxy_validation = std::move(v.report);
    }

    std::string unique_name(const std::string& wanted) {
        return unique_garment_name(wanted, used_stems_);
    }

    /// Every garment found by name that neither moves on authored chains nor was grown: a sheet.
    void build_sheets() {
        for (size_t i = 0; i < r_.garments.garments.size(); ++i) {
            const Garment& garment = r_.garments.garments[i];
            if (r_.plans[i].action != "sheet") continue;
            const SheetSelection selection = sheet_selection(garment, r_.garments);
            if (!selection.skip_reason.empty()) continue;
            SheetedGarment g;
            g.name = unique_name(garment.name);
            g.class_name = garment.class_name;
            g.found_by = garment.matched_by;
            g.meshes = selection.garment.meshes;
            g.built = build_selected_sheet(r_.scene, selection, options_.sheet, false, model_.string());
            const std::string file = fs::path(r_.scene.source_path).filename().string();
            for (Issue& issue : g.built.issues)
                issue.message = name_the_garment(bake_fix(issue.message), file, r_.model.string(), g.name);
            const std::string stem = garment_file_stem(g.name);
            add_sheet(std::move(g), stem);
        }
    }

    /// sheet_only (weft sheet): the sheets it selects, each under its garment's own name, its file
    /// unique among the proxies built; a selection that names nothing is NO_GARMENT_FOUND.
    void build_selected_sheets(const SheetOnlyOptions& only) {
        std::set<std::string> stems;
        std::string& error = r_.sheet_selection_error;
        const std::vector<SheetSelection> selected = select_sheets(r_.scene, r_.garments, only, options_.garments, error);
        if (!error.empty()) add_issue(r_.issues, kNoGarmentFound, r_.model.string() + ": " + error);
        for (const SheetSelection& selection : selected) {
            SheetedGarment g;
            g.name = selection.garment.name;
            g.class_name = selection.garment.garment_class;
            g.found_by = selection.matched_by;
            g.meshes = selection.garment.meshes;
            g.skip_reason = selection.skip_reason;
            if (g.skip_reason.empty())
                g.built = build_selected_sheet(r_.scene, selection, options_.sheet, !only.pin.empty(), r_.model.string());
            const std::string stem = g.built.proxy ? garment_file_stem(unique_garment_name(g.name, stems)) : std::string();
            add_sheet(std::move(g), stem);
        }
    }

    /// A sheet into the record, its proxy to be written as `stem`.clothproxy: its build's findings
    /// its own and the model's.
    void add_sheet(SheetedGarment g, const std::string& stem) {
        g.issues = g.built.issues;
        append(r_.issues, g.issues);
        if (!g.skip_reason.empty())
            g.status = SheetStatus::skipped;
        else if (g.built.proxy && !has_error(g.issues))
            g.status = SheetStatus::built;
        else
            g.status = SheetStatus::refused;
        g.file_stem = stem;
        r_.sheets.push_back(std::move(g));
    }

    void collect_rigs() {
        const ModelGarments& found = r_.garments;
        std::vector<char> used(found.chains.size(), 0);
        // Grown garments, from their grown chains.
        if (r_.grow)
            for (const GrownGarment& gg : r_.grow->garments) {
                if (gg.chains.empty()) continue;
                RiggedGarment g;
                g.name = unique_name(gg.name);
                g.class_name = gg.class_name;
                g.found_by = "grown";
                g.input.name = g.name;
                g.input.garment_class = gg.class_name;
                for (int c : gg.chains) {
                    const GrownChain& chain = r_.grow->chains[static_cast<size_t>(c)];
                    RigChain rc;
                    rc.name = chain.name;
                    rc.joints = chain.joints;
                    rc.parent = chain.body_bone;
                    rc.tip = chain.polyline.back();
                    for (int n : chain.neighbours) {
                        auto it = std::find(gg.chains.begin(), gg.chains.end(), n);
                        if (it != gg.chains.end()) rc.neighbours.push_back(static_cast<size_t>(it - gg.chains.begin()));
                    }
                    g.input.chains.push_back(std::move(rc));
                    g.chains.push_back({"grown", {clump_shape_name(chain.shape)}});
                }
                r_.rigs.push_back(std::move(g));
            }
        // Garments that move on authored chains, each chain in the first garment that claims it.
        auto authored = [&](const Chain& chain) {
            RigChain rc;
            rc.name = chain.name;
            rc.joints = chain.joints;
            rc.parent = chain.parent;
            // VRM 1.0: "the last joint of a spring is its tail"; its mesh around it is no bone length.
            rc.ends_in_end_joint = std::find(chain.found_by.begin(), chain.found_by.end(), "VRMC_springBone") != chain.found_by.end();
            return rc;
        };
        for (const Garment& garment : found.garments) {
            if (!garment.moves) continue;
            RiggedGarment g;
            g.class_name = garment.class_name;
            g.found_by = garment.matched_by;
            for (int c : garment.chains) {
                if (used[static_cast<size_t>(c)]) continue;
                used[static_cast<size_t>(c)] = 1;
                g.input.chains.push_back(authored(found.chains[static_cast<size_t>(c)]));
                g.chains.push_back({"authored", found.chains[static_cast<size_t>(c)].found_by});
            }
            if (g.input.chains.empty()) continue;
            g.name = unique_name(garment.name);
            g.input.name = g.name;
            g.input.garment_class = g.class_name;
            r_.rigs.push_back(std::move(g));
        }
        // A chain whose garment is not one (a stub of a tail) does not move either.
        for (const Garment& garment : found.not_garments)
            if (garment.matched_by == kMatchedByChain)
                for (int c : garment.chains) used[static_cast<size_t>(c)] = 1;
        // Chains no garment claimed (a spring over no geometry): one garment per class.
        std::map<std::string, size_t> by_class;
        for (size_t c = 0; c < found.chains.size(); ++c) {
            if (used[c]) continue;
            const Chain& chain = found.chains[c];
            auto it = by_class.find(chain.class_name);
            if (it == by_class.end()) {
                RiggedGarment g;
                g.class_name = chain.class_name;
                g.found_by = "chain";
                g.name = unique_name(chain.name);
                g.input.name = g.name;
                g.input.garment_class = g.class_name;
                it = by_class.emplace(chain.class_name, r_.rigs.size()).first;
                r_.rigs.push_back(std::move(g));
            }
            RiggedGarment& g = r_.rigs[it->second];
            g.input.chains.push_back(authored(chain));
            g.chains.push_back({"authored", chain.found_by});
        }
    }

    const fs::path model_;
    const ModelBytes* bytes_;  ///< null: read the file
    const fs::path out_dir_;
    const ModelOptions& options_;
    ModelRecord& r_;
    std::set<std::string> used_stems_;
};

}  // namespace

void run_model_stages(const fs::path& model, const ModelBytes* bytes, const ModelOptions& options, ModelRecord& record) {
    ModelStages(model, bytes, options, record).run();
}

}  // namespace weft
