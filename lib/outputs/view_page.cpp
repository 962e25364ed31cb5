// The model's page (view_page.h): its data (docs/view.md) assembled from its parts (view_parts.h)
// within the size budget, and the HTML around it and the viewer.
#include "outputs/view_page.h"

#include <nlohmann/json.hpp>

#include "outputs/html_text.h"
#include "outputs/issue_json.h"
#include "outputs/json_text.h"
#include "outputs/view_packing.h"
#include "outputs/view_parts.h"
#include "outputs/view_style.h"
#include "validate/model/clip_motions.h"
#include "validate/scenario.h"

// The viewer script, generated at build time from web/ (web/CMakeLists.txt), and its CSP hash.
extern "C" const char weft_view_bundle[];
extern "C" const unsigned long weft_view_bundle_length;
extern "C" const char weft_view_bundle_csp_hash[];

namespace weft {

using json = nlohmann::json;

namespace {

/// Every clip a proxy ran, in order of first run, sampled from the scene as validation sampled it;
/// its keys thinned to fit half the budget at most (the cloth's frames take the rest).
std::vector<ViewClip> clips_run(const ViewModel& model, const ViewNodes& nodes, std::map<std::string, int>& index) {
    std::vector<ViewClip> clips;
    if (!model.scene) return clips;
    for (const ViewProxy& vp : model.proxies) {
        if (!vp.validation) continue;
        for (const ScenarioStats& s : vp.validation->scenarios) {
            if (s.scenario != Scenario::clip || index.count(s.clip)) continue;
            for (const Clip& c : model.scene->clips)
                if (c.name == s.clip) {
                    index[s.clip] = static_cast<int>(clips.size());
                    clips.push_back({sample_clip(*model.scene, c), 4});
                    break;
                }
        }
    }
    for (uint32_t every = 4;; every *= 2) {
        size_t values = 0;
        for (ViewClip& c : clips) {
            c.every = every;
            values += clip_values(c, nodes);
        }
        if (values <= view_motion_values / 2 || every >= 1024) break;
    }
    return clips;
}

json colliders_json(const Scene& scene) {
    json colliders = json::array();
    for (const SpringCollider& c : scene.colliders) {
        const Mat4& world = scene.nodes[static_cast<size_t>(c.node)].world;
        const Vec3 w = world.transform_point(c.offset);
        json one = {{"kind", c.tail ? "capsule" : "sphere"},
                    {"node", scene.nodes[static_cast<size_t>(c.node)].name},
                    {"centre", {short_number(w.x), short_number(w.y), short_number(w.z)}},
                    {"radius", short_number(c.radius)}};
        if (c.tail) {  // the capsule's other end; "centre" is its head end
            const Vec3 t = world.transform_point(*c.tail);
            one["tail"] = {short_number(t.x), short_number(t.y), short_number(t.z)};
        }
        colliders.push_back(std::move(one));
    }
    return colliders;
}

}  // namespace

TraceOptions view_trace_options() {
    TraceOptions t;
    t.figures = true;
    t.frame_every = 4;
    t.max_frames = 180;
    t.max_frame_values = 150'000;
    return t;
}

json view_model_json(const ViewModel& model) {
    ViewNodes nodes;
    nodes.scene = model.scene;
    json out = {{"schema", view_json_schema},
                {"model", model.name},
                {"status", model.status},
                {"dt", validation_dt},
                {"limits",
                 {{"max_strain", model.limits.max_strain}, {"max_energy_rise", model.limits.max_energy_rise}}},
                {"issues", issues_json(model.issues)}};
    if (model.scene) {
        out["mesh"] = view_mesh_json(*model.scene, model.garments, nodes);
        out["colliders"] = colliders_json(*model.scene);
    }
    json proxies = json::array();
    for (const ViewProxy& p : model.proxies) proxies.push_back(proxy_rest_json(p, model.scene, nodes));
    // Every node is known now: the clips' keys over them, then the cloth's frames in what is left.
    out["follows"] = nodes.scene ? nodes.follows_json() : json::array();
    std::map<std::string, int> clip_index;
    const std::vector<ViewClip> clips = clips_run(model, nodes, clip_index);
    size_t clip_cost = 0;
    json clips_json = json::array();
    for (const ViewClip& c : clips) {
        clip_cost += clip_values(c, nodes);
        clips_json.push_back(clip_json(c, nodes));
    }
    const size_t cloth_budget = view_motion_values > clip_cost ? view_motion_values - clip_cost : 0;
    const FramePlan plan = plan_frames(model.proxies, cloth_budget);
    for (size_t k = 0; k < model.proxies.size(); ++k) proxies[k]["scenarios"] = scenarios_json(model.proxies[k], plan, clip_index);
    out["nodes"] = nodes.scene ? nodes.names_json() : json::array();
    out["clips"] = std::move(clips_json);
    out["budget"] = {{"motion_values", view_motion_values}, {"clip_values", clip_cost}, {"frames_per_run", plan.cap}};
    out["proxies"] = std::move(proxies);
    return out;
}

std::string view_model_html(const ViewModel& model) {
    std::string page = page_head("weft: " + model.name, weft_view_bundle_csp_hash);
    page += "<script id=\"weft-data\" type=\"application/json\">" + script_json(json_text(view_model_json(model), -1)) +
            "</script>\n";
    page += "<script>";
    page.append(weft_view_bundle, weft_view_bundle_length);
    page += "</script>\n</body>\n</html>\n";
    return page;
}

size_t view_bundle_size() { return weft_view_bundle_length; }

}  // namespace weft
