// The page a person opens to see a bake (weft bake's OUT/index.html and OUT/<model>/view.html,
// `weft view`): the model at rest, every proxy drawn over it, every validation scenario played back
// from recorded frames, and each scenario's per-step figures plotted against the gates' limits.
// A page is one self-contained HTML file (no server, no network): the viewer script (three.js,
// bundled by esbuild from web/ at build time, web/package-lock.json) is embedded in the weft
// binary and written inline, the model's data beside it as JSON (docs/view.md).
//
//   ValidationOptions options;  options.trace = view_trace_options();
//   ViewModel m{"hero.glb", "built", issues, &scene};
//   m.proxies.push_back({"Cape.clothproxy", proxy, &validation});
//   write_file_atomic(dir / "view.html", view_model_html(m));
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "io/issue.h"
#include "proxy/core/cloth_proxy.h"
#include "scene/scene.h"
#include "validate/validate.h"

namespace weft {

inline constexpr const char* view_json_schema = "weft.view/1";

/// What the page records of each scenario: every step's figures and a frame every 4th step (15 per
/// simulated second) while the cloth is awake, at most 180 frames and 150k coordinates a scenario
/// (a 750-particle sheet gets 66: about 400 kB of page per scenario).
TraceOptions view_trace_options();

struct ViewProxy {
    std::string file;                             ///< the proxy's file name, as the model's folder has it
    ClothProxy proxy;
    const ProxyValidation* validation = nullptr;  ///< with traces, or none (drawn at rest only)
};

struct ViewModel {
    std::string name;                 ///< the model as the bake names it (relative path)
    std::string status;               ///< "built", "refused", ... ("" outside a bake)
    Issues issues;
    const Scene* scene = nullptr;     ///< the model at rest; none draws the proxies alone
    std::vector<ViewProxy> proxies;
    GateLimits limits;
};

/// The page's data (schema weft.view/1): positions in metres in the model's space, quantised to 16
/// bits over their bounds and base64'd; deterministic.
nlohmann::json view_model_json(const ViewModel& model);

/// The whole page: HTML, the viewer script and view_model_json inline.
std::string view_model_html(const ViewModel& model);

/// A small front view (x right, y up) of the model's proxies, as SVG: the index's thumbnail.
std::string view_thumbnail_svg(const ViewModel& model);

/// OUT/index.html from bake-report.json (schemas/bake-report.schema.json): every model with its
/// status, its issues counted by code, its thumbnail and a link to its page (when it has them).
std::string view_index_html(const nlohmann::json& bake_report);

/// The embedded viewer script's size in bytes (0 when weft was built without it).
size_t view_bundle_size();

}  // namespace weft
