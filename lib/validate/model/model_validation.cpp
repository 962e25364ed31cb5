#include "validate/model/model_validation.h"

#include "validate/model/clip_motions.h"
#include "validate/model/mesh_codes.h"
#include "validate/validation_codes.h"

namespace weft {
namespace {

/// A failed gate under its own code (the solver's, validate/validation_codes.h, or the mesh's), at its
/// table's severity.
void add_gate_issue(Issues& issues, std::string_view code, std::string message, std::string pointer) {
    const IssueCode* row = find_issue_code(validation_codes, code);
    if (!row) row = find_issue_code(mesh_codes, code);
    issues.push_back({std::string(code), row ? row->severity : Severity::error, std::move(message), std::move(pointer)});
}

/// One proxy's validation under way: a rig's mesh rides on its one validation run (rig_validate.h),
/// a sheet is validate_proxy alone.
struct Pending {
    std::string file;
    std::optional<RigBuildResult> rebuilt;  // a rig whose proxy is not its build's own: the build, with the proxy given
    std::optional<RigMeshValidator> rig;
    std::optional<ProxyValidator> sheet;
};

/// The options the model's proxies run under: the model's body collides with its cloth, its clips
/// (the config's choice for it first) are scenarios of their own.
ValidationOptions model_options(const ModelUnderTest& model, const ValidationOptions& given, Issues& issues) {
    ValidationOptions options = given;
    options.body = model.body;
    options.body.collide = given.body_collides;
    if (model.config) options.clip_choice = configured_clips(*model.config, model.label, options.clip_choice);
    add_clip_scenarios(*model.scene, model.label, options, issues);  // docs/validation.md#clips
    return options;
}

/// One proxy's results into the verdict: its gates' failures as issues naming its file.
void add_result(const ModelUnderTest& model, Pending& p, ModelValidation& out) {
    std::optional<RigProxyValidation> mesh;
    if (p.rig) mesh = p.rig->finish();
    ProxyValidation v = mesh ? mesh->solver : p.sheet->finish();
    v.file = p.file;  // the report names proxies relative to the model's folder, for any OUT
    const std::string where = model.out_label.empty() ? p.file : model.out_label + "/" + p.file;
    if (v.refused) {
        add_gate_issue(out.issues, v.refused->code, where + ": " + v.refused->message, "/proxies/" + p.file);
    } else {
        for (const GateResult& g : v.gates)
            if (!g.passed) add_gate_issue(out.issues, gate_code(g.gate), where + ": " + g.message, "/proxies/" + p.file);
    }
    if (mesh && !v.refused) {
        for (const MeshGateResult& g : mesh->mesh_gates) {
            if (!g.passed) add_gate_issue(out.issues, g.gate, where + ": " + g.message, "/validation");
            v.mesh_gates.push_back({g.gate, scenario_label(g.scenario, g.clip), g.passed, g.value, g.limit, g.message});
        }
        mesh->solver = v;
        out.rigs->proxies.push_back(std::move(*mesh));
    }
    out.report.proxies.push_back(std::move(v));
}

}  // namespace

ModelValidation validate_model(const ModelUnderTest& model, std::span<const ModelProxy> proxies,
                               const ValidationOptions& given, const RigValidationLimits& mesh_limits) {
    ModelValidation out;
    const ValidationOptions options = model_options(model, given, out.issues);  // a clip the model lacks first
    out.report.limits = options.limits;
    out.rigs.emplace();
    out.rigs->limits = options.limits;
    out.rigs->mesh_limits = mesh_limits;
    // Every proxy's scenario runs in one list, so that a model's garments share the slots (two
    // garments' scenarios side by side), then the results in proxy order as one thread gives them.
    RunList list;  // before the validators: their solvers' threads hold the list's slots until they end
    std::vector<Pending> pending;
    pending.reserve(proxies.size());  // the validators hold references into their Pending: it never moves
    for (const ModelProxy& m : proxies) {
        Pending& p = pending.emplace_back(Pending{m.file, {}, {}, {}});
        const std::string label = model.out_label.empty() ? m.file : model.out_label + "/" + m.file;
        if (m.rig) {
            const RigBuildResult* built = m.rig_built;
            if (!built->proxy || &*built->proxy != m.proxy) {  // the proxy simulated is the one given (read from its file)
                p.rebuilt = *built;
                p.rebuilt->proxy = *m.proxy;
                built = &*p.rebuilt;
            }
            p.rig.emplace(*model.scene, *m.rig, *built, options, mesh_limits, label);
        } else {
            p.sheet.emplace(*m.proxy, options, label);
        }
    }
    for (Pending& p : pending) p.rig ? p.rig->add_runs(list) : p.sheet->add_runs(list);
    list.run(options.spare);
    for (Pending& p : pending) add_result(model, p, out);
    if (out.rigs->proxies.empty()) out.rigs.reset();
    return out;
}

}  // namespace weft
