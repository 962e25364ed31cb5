// The pages a person opens to see a bake (weft bake's OUT/index.html and OUT/<model>/view.html,
// `weft view`): the model at rest, every proxy drawn over it, every scenario and clip each proxy
// was validated under with its verdict, played back from recorded frames (a clip drives the
// model's skeleton, the cloth moves as the solver moved it), the per-step figures plotted against
// the gates' limits; and over them the index, a dashboard of every model. A page is one
// self-contained HTML file (no server, no network) and inert data (docs/view.md#what-a-page-trusts):
// the viewer script (three.js, bundled by esbuild from web/ at build time, web/package-lock.json)
// is embedded in the weft binary and written inline under a Content-Security-Policy that runs
// only it, by its hash; the model's data sits beside it as JSON (docs/view.md).
//
//   ValidationOptions options;  options.trace = view_trace_options();
//   ViewModel m{"hero.glb", "built", issues, &scene};
//   m.proxies.push_back({"Cape.clothproxy", proxy, &validation});
//   write_file_atomic(dir / "view.html", view_model_html(m));
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "garment/garments.h"
#include "io/issue.h"
#include "proxy/core/cloth_proxy.h"
#include "scene/scene.h"
#include "validate/model/rig_validate.h"
#include "validate/validate.h"

namespace weft {

inline constexpr const char* view_json_schema = "weft.view/2";

/// What a page may hold of recorded motion, in 16-bit values (docs/view.md#the-size-budget): the
/// cloth's frames of every scenario and the keys of every clip, 1.2 M values, 3.2 MB of base64.
/// Beyond it frames are dropped evenly (the first, the last and the worst gate's kept): the Witch
/// with every clip (24 clips, 2 proxies, 60 recorded runs) writes a page under 5 MB.
inline constexpr size_t view_motion_values = 1'200'000;

/// What the page records of each scenario: every step's figures and a frame every 4th step (15 per
/// simulated second) while the cloth is awake, at most 180 frames and 150k coordinates a scenario;
/// the page then keeps what its budget allows (view_motion_values).
TraceOptions view_trace_options();

struct ViewProxy {
    std::string file;                             ///< the proxy's file name, as the model's folder has it
    ClothProxy proxy;
    const ProxyValidation* validation = nullptr;  ///< with traces, or none (drawn at rest only)
    const RigProxyValidation* mesh = nullptr;     ///< a rig's skinned mesh gates, or none
};

struct ViewModel {
    std::string name;                 ///< the model as the bake names it (relative path)
    std::string status;               ///< "built", "refused", ... ("" outside a bake)
    Issues issues;
    const Scene* scene = nullptr;     ///< the model at rest; none draws the proxies alone
    const ModelGarments* garments = nullptr;  ///< drawn highlighted over the model; none: no highlight
    std::vector<ViewProxy> proxies;
    GateLimits limits;
};

/// The page's data (schema weft.view/2, docs/view.md): positions in metres in the model's space,
/// quantised to 16 bits over their bounds and base64'd; deterministic.
nlohmann::json view_model_json(const ViewModel& model);

/// The whole page: HTML, the viewer script and view_model_json inline, under a CSP that runs only
/// the viewer (by its SHA-256).
std::string view_model_html(const ViewModel& model);

/// A small picture of the model, front view, shaded, its garments highlighted and its proxies'
/// links drawn over them: a 96 x 96 PNG (the index's thumbnail). Empty when there is nothing to
/// draw (no scene, no triangle, no proxy).
std::string view_thumbnail_png(const ViewModel& model);

/// OUT/index.html from bake-report.json (schemas/bake-report.schema.json): a dashboard of every
/// model (its outcome in words, garments found / moving / passing, proxies, worst gate, time,
/// links to its files and page, its thumbnail), sortable and filtered by its one script, totals
/// in the summary line's words.
std::string view_index_html(const nlohmann::json& bake_report);

/// The same page in pieces, for a report too large to hold whole: the head from the report without
/// its rows (bake_report_head) and how many models are of each kind (view_index_kind), one row a
/// model (its seconds from the report's timings), then the tail. Head, rows and tail joined are
/// view_index_html of the whole report.
std::string view_index_head(const nlohmann::json& report_head, const std::map<std::string, int>& kinds);
std::string view_index_kind(const nlohmann::json& model);
std::string view_index_row(const nlohmann::json& model, std::optional<double> seconds);
std::string view_index_tail();

/// The embedded viewer script's size in bytes (0 when weft was built without it).
size_t view_bundle_size();

}  // namespace weft
