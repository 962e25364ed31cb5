#include "outputs/view_page.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "outputs/issue_json.h"
#include "outputs/json_text.h"
#include "validate/gates.h"
#include "validate/scenario.h"

// The viewer script, generated at build time from web/ (web/CMakeLists.txt).
extern "C" const char weft_view_bundle[];
extern "C" const unsigned long weft_view_bundle_length;

namespace weft {

using json = nlohmann::json;

namespace {

std::string base64_of(const uint8_t* data, size_t size) {
    static constexpr char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((size + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < size; i += 3) {
        const uint32_t v = uint32_t(data[i]) << 16 | uint32_t(data[i + 1]) << 8 | data[i + 2];
        out += digits[v >> 18];
        out += digits[(v >> 12) & 63];
        out += digits[(v >> 6) & 63];
        out += digits[v & 63];
    }
    if (i < size) {
        const uint32_t v = uint32_t(data[i]) << 16 | (i + 1 < size ? uint32_t(data[i + 1]) << 8 : 0);
        out += digits[v >> 18];
        out += digits[(v >> 12) & 63];
        out += i + 1 < size ? digits[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

/// Little-endian bytes of unsigned 16- or 32-bit values, base64'd: the smallest width that fits.
json indices_json(const std::vector<uint32_t>& values) {
    uint32_t top = 0;
    for (uint32_t v : values) top = std::max(top, v);
    std::vector<uint8_t> bytes;
    const int width = top < 65536 ? 2 : 4;
    bytes.reserve(values.size() * width);
    for (uint32_t v : values)
        for (int b = 0; b < width; ++b) bytes.push_back(uint8_t(v >> (8 * b)));
    return {{"width", width}, {"count", values.size()}, {"data", base64_of(bytes.data(), bytes.size())}};
}

/// Points quantised to 16 bits over their bounds: value = min + q * (max - min) / 65535.
struct Quantised {
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
};

Quantised bounds_of(const std::vector<float>& xyz, Quantised q = {}, bool first = true) {
    for (size_t i = 0; i + 2 < xyz.size(); i += 3)
        for (int k = 0; k < 3; ++k) {
            const float v = xyz[i + k];
            if (!std::isfinite(v)) continue;
            if (first || v < q.lo[k]) q.lo[k] = v;
            if (first || v > q.hi[k]) q.hi[k] = v;
            if (k == 2) first = false;
        }
    return q;
}

std::string quantise(const std::vector<float>& xyz, const Quantised& q) {
    std::vector<uint8_t> bytes;
    bytes.reserve(xyz.size() * 2);
    for (size_t i = 0; i < xyz.size(); ++i) {
        const int k = i % 3;
        const float span = q.hi[k] - q.lo[k];
        float t = span > 0 ? (xyz[i] - q.lo[k]) / span : 0.0f;
        if (!std::isfinite(t)) t = 0;
        const auto v = uint16_t(std::lround(std::clamp(t, 0.0f, 1.0f) * 65535.0f));
        bytes.push_back(uint8_t(v));
        bytes.push_back(uint8_t(v >> 8));
    }
    return base64_of(bytes.data(), bytes.size());
}

json bounds_json(const Quantised& q) {
    return {{"min", {q.lo[0], q.lo[1], q.lo[2]}}, {"max", {q.hi[0], q.hi[1], q.hi[2]}}};
}

/// Rounded for the page: 5 significant figures are plenty to plot and keep the JSON short.
double short_number(double v) {
    if (!std::isfinite(v)) return 0;
    char text[32];
    std::snprintf(text, sizeof text, "%.5g", v);
    return std::strtod(text, nullptr);
}

json numbers_json(const std::vector<double>& values) {
    json out = json::array();
    for (double v : values) out.push_back(short_number(v));
    return out;
}

/// The proxy's frame at rest as the validation placed it (rotation and translation, no scale).
Pose frame_of(const ClothProxy& proxy) { return rest_frame_pose(proxy); }

std::vector<float> world_positions(const Pose& frame, const std::vector<Vec3>& x) {
    std::vector<float> out(3 * x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const Vec3 w = frame.apply(x[i]);
        out[3 * i] = float(w.x);
        out[3 * i + 1] = float(w.y);
        out[3 * i + 2] = float(w.z);
    }
    return out;
}

json mesh_json(const Scene& scene) {
    std::vector<float> xyz;
    std::vector<uint32_t> indices;
    for (const Mesh& m : scene.meshes) {
        const auto base = uint32_t(xyz.size() / 3);
        for (const Vec3& p : m.positions) {
            xyz.push_back(float(p.x));
            xyz.push_back(float(p.y));
            xyz.push_back(float(p.z));
        }
        for (uint32_t i : m.indices) indices.push_back(base + i);
    }
    const Quantised q = bounds_of(xyz);
    return {{"bounds", bounds_json(q)}, {"positions", quantise(xyz, q)}, {"vertices", xyz.size() / 3},
            {"indices", indices_json(indices)}};
}

json pairs_json(const auto& rows) {
    std::vector<uint32_t> flat;
    for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.end());
    return indices_json(flat);
}

/// A gate's failing step, when the scenario's measurements name one.
std::optional<uint32_t> failing_step(const GateResult& g, const ScenarioStats& s) {
    if (g.passed) return std::nullopt;
    switch (g.gate) {
        case Gate::non_finite: return s.non_finite_step;
        case Gate::never_slept: return s.steps;
        case Gate::strain: return s.max_strain_step;
        default: return s.steps;  // a trend over the last third: its end
    }
}

json scenario_json(const ClothProxy& proxy, const Pose& frame, const ProxyValidation& v, size_t k) {
    const ScenarioStats& s = v.scenarios[k];
    json out = {{"scenario", scenario_name(s.scenario)}, {"steps", s.steps}, {"settle_steps", s.settle_steps}};
    if (s.sleep_step) out["sleep_step"] = *s.sleep_step;
    json gates = json::array();
    for (const GateResult& g : v.gates) {
        if (g.scenario != s.scenario) continue;
        json gate = {{"gate", gate_code(g.gate)}, {"passed", g.passed}, {"message", g.message}};
        if (g.limit) gate["limit"] = short_number(*g.limit);
        if (g.value) gate["value"] = short_number(*g.value);
        if (auto step = failing_step(g, s)) gate["step"] = *step;
        gates.push_back(std::move(gate));
    }
    out["gates"] = std::move(gates);
    out["energy_scale"] = short_number(v.energy_scale);
    if (k >= v.traces.size()) return out;
    const ScenarioTrace& t = v.traces[k];
    std::vector<double> speed, strain, kinetic, total;
    for (const StepFigures& f : t.steps) {
        speed.push_back(f.max_speed);
        strain.push_back(f.max_strain);
        kinetic.push_back(f.kinetic_energy);
        total.push_back(f.total_energy);
    }
    out["figures"] = {{"max_speed", numbers_json(speed)},
                      {"max_strain", numbers_json(strain)},
                      {"kinetic_energy", numbers_json(kinetic)},
                      {"total_energy", numbers_json(total)}};
    if (!t.frames.empty()) {
        // Every frame in the model's space, quantised over the bounds of all of them.
        std::vector<float> all;
        all.reserve(t.frames.size() * t.frames.front().size());
        for (const std::vector<float>& f : t.frames) {
            std::vector<Vec3> x(f.size() / 3);
            for (size_t i = 0; i < x.size(); ++i) x[i] = {f[3 * i], f[3 * i + 1], f[3 * i + 2]};
            const std::vector<float> w = world_positions(frame, x);
            all.insert(all.end(), w.begin(), w.end());
        }
        const Quantised q = bounds_of(all);
        out["frames"] = {{"every", t.frame_every},
                         {"steps", t.frame_steps},
                         {"bounds", bounds_json(q)},
                         {"positions", quantise(all, q)}};
    }
    (void)proxy;
    return out;
}

json proxy_json(const ViewProxy& vp, const Scene* scene) {
    const ClothProxy& p = vp.proxy;
    const Pose frame = frame_of(p);
    const std::vector<float> rest = world_positions(frame, p.rest_position);
    const Quantised q = bounds_of(rest);
    std::vector<uint32_t> colour(p.particle_count(), 0);
    for (size_t c = 0; c + 1 < p.colour_ranges.size(); ++c)
        for (uint32_t i = p.colour_ranges[c]; i < p.colour_ranges[c + 1] && i < colour.size(); ++i) colour[i] = uint32_t(c);
    std::vector<double> mass(p.particle_count(), 0), d_geo(p.particle_count(), -1);
    for (size_t i = 0; i < p.particle_count(); ++i) {
        mass[i] = p.inverse_mass[i] > 0 ? 1 / p.inverse_mass[i] : 0;  // 0: held or read-only
        if (std::isfinite(p.d_geo[i])) d_geo[i] = p.d_geo[i];         // -1: nothing holds it
    }
    json pins = json::array();
    for (const Pin& pin : p.pins) {
        json j = {{"holder", pin.holder}, {"particles", pin.particles}};
        if (scene) {
            const int node = scene->find_node(pin.holder);
            if (node >= 0) {
                const auto& m = scene->nodes[node].world.m;
                j["holder_position"] = {short_number(m[12]), short_number(m[13]), short_number(m[14])};
            }
        }
        pins.push_back(std::move(j));
    }
    json out = {{"file", vp.file},
                {"garment", p.garment},
                {"garment_class", p.garment_class},
                {"kind", p.kind == ProxyKind::rig ? "rig" : "sheet"},
                {"particles", p.particle_count()},
                {"colours", p.colour_ranges.empty() ? 0 : p.colour_ranges.size() - 1},
                {"bounds", bounds_json(q)},
                {"rest", quantise(rest, q)},
                {"colour", indices_json(colour)},
                {"mass", numbers_json(mass)},
                {"d_geo", numbers_json(d_geo)},
                {"edges", pairs_json(p.edges)},
                {"skips", pairs_json(p.skips)},
                {"triangles", pairs_json(p.triangles)},
                {"pins", pins}};
    if (!p.joint_name.empty()) out["joints"] = p.joint_name;
    json scenarios = json::array();
    if (vp.validation) {
        out["fabric"] = vp.validation->fabric;
        out["passed"] = vp.validation->passed();
        if (vp.validation->refused) out["refused"] = vp.validation->refused->message;
        for (size_t k = 0; k < vp.validation->scenarios.size(); ++k)
            scenarios.push_back(scenario_json(p, frame, *vp.validation, k));
    }
    out["scenarios"] = std::move(scenarios);
    return out;
}

std::string html_escape(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

/// JSON inside <script>: "</" could end the element, so it is written "<\/" (still the same JSON).
std::string script_safe(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        out += text[i];
        if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += '\\';
    }
    return out;
}

const char* page_style = R"css(
:root { color-scheme: light dark; --fg: #1d1f24; --bg: #f6f6f4; --muted: #6b6f78; --bad: #c62828; --good: #2e7d32; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6e3; --bg: #17181b; --muted: #9aa0aa; } }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 10px 16px; border-bottom: 1px solid #8884; }
h1 { font-size: 18px; margin: 0; } .muted { color: var(--muted); }
.bad { color: var(--bad); } .good { color: var(--good); }
table { border-collapse: collapse; } td, th { padding: 4px 10px; text-align: left; border-bottom: 1px solid #8883; vertical-align: top; }
img.thumb { width: 96px; height: 96px; background: #8881; border-radius: 4px; }
)css";

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
    json proxies = json::array();
    for (const ViewProxy& p : model.proxies) proxies.push_back(proxy_json(p, model.scene));
    json out = {{"schema", view_json_schema},
                {"model", model.name},
                {"status", model.status},
                {"dt", validation_dt},
                {"limits",
                 {{"max_strain", model.limits.max_strain}, {"max_energy_rise", model.limits.max_energy_rise}}},
                {"issues", issues_json(model.issues)},
                {"proxies", proxies}};
    if (model.scene) {
        out["mesh"] = mesh_json(*model.scene);
        json colliders = json::array();
        for (const SpringCollider& c : model.scene->colliders) {
            const Mat4& world = model.scene->nodes[c.node].world;
            const Vec3 w = world.transform_point(c.offset);
            json one = {{"kind", c.tail ? "capsule" : "sphere"},
                        {"node", model.scene->nodes[c.node].name},
                        {"centre", {short_number(w.x), short_number(w.y), short_number(w.z)}},
                        {"radius", short_number(c.radius)}};
            if (c.tail) {  // the capsule's other end; "centre" is its head end
                const Vec3 t = world.transform_point(*c.tail);
                one["tail"] = {short_number(t.x), short_number(t.y), short_number(t.z)};
            }
            colliders.push_back(std::move(one));
        }
        out["colliders"] = std::move(colliders);
    }
    return out;
}

std::string view_model_html(const ViewModel& model) {
    const std::string title = "weft: " + model.name;
    std::string page = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                       html_escape(title) + "</title>\n<meta name=\"viewport\" content=\"width=device-width\">\n";
    // No request leaves the page: everything it shows is in this file.
    page += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
            "style-src 'unsafe-inline'; img-src data:\">\n";
    page += "<style>" + std::string(page_style) + "</style>\n</head>\n<body>\n";
    page += "<script id=\"weft-data\" type=\"application/json\">" + script_safe(json_text(view_model_json(model), -1)) +
            "</script>\n";
    page += "<script>";
    page.append(weft_view_bundle, weft_view_bundle_length);
    page += "</script>\n</body>\n</html>\n";
    return page;
}

std::string view_thumbnail_svg(const ViewModel& model) {
    // Front view: x right, y up, every proxy's edges (or skips) at rest, scaled into 96 x 96.
    std::vector<std::pair<Vec3, Vec3>> lines;
    for (const ViewProxy& vp : model.proxies) {
        const Pose frame = frame_of(vp.proxy);
        const auto& x = vp.proxy.rest_position;
        size_t stride = std::max<size_t>(1, vp.proxy.edges.size() / 1500);
        for (size_t e = 0; e < vp.proxy.edges.size(); e += stride) {
            const auto& [a, b] = vp.proxy.edges[e];
            if (a < x.size() && b < x.size()) lines.push_back({frame.apply(x[a]), frame.apply(x[b])});
        }
    }
    double lo[2] = {0, 0}, hi[2] = {0, 0};
    bool first = true;
    auto grow = [&](double px, double py) {
        if (!std::isfinite(px) || !std::isfinite(py)) return;
        if (first || px < lo[0]) lo[0] = px;
        if (first || py < lo[1]) lo[1] = py;
        if (first || px > hi[0]) hi[0] = px;
        if (first || py > hi[1]) hi[1] = py;
        first = false;
    };
    if (model.scene)
        for (const Mesh& m : model.scene->meshes)
            for (const Vec3& p : m.positions) grow(p.x, p.y);
    for (const auto& [a, b] : lines) {
        grow(a.x, a.y);
        grow(b.x, b.y);
    }
    const double span = std::max({hi[0] - lo[0], hi[1] - lo[1], 1e-9});
    // Centred in the square, one decimal: a thumbnail needs no more.
    const double cx = (88 - (hi[0] - lo[0]) / span * 88) / 2, cy = (88 - (hi[1] - lo[1]) / span * 88) / 2;
    auto px = [&](double v) { return std::round((4 + cx + (v - lo[0]) / span * 88) * 10) / 10; };
    auto py = [&](double v) { return std::round((92 - cy - (v - lo[1]) / span * 88) * 10) / 10; };
    std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 96 96\" width=\"96\" height=\"96\">";
    if (model.scene && !first) {  // the model's silhouette: up to 1,500 of its triangles, filled grey
        size_t triangles = 0;
        for (const Mesh& m : model.scene->meshes) triangles += m.triangle_count();
        const size_t stride = std::max<size_t>(1, (triangles + 1499) / 1500);
        svg += "<path fill=\"#9aa3ad\" fill-opacity=\"0.7\" d=\"";
        char tri[160];
        size_t k = 0;
        for (const Mesh& m : model.scene->meshes)
            for (size_t t = 0; t < m.triangle_count(); ++t, ++k) {
                if (k % stride) continue;
                const Vec3& a = m.positions[m.indices[3 * t]];
                const Vec3& b = m.positions[m.indices[3 * t + 1]];
                const Vec3& c = m.positions[m.indices[3 * t + 2]];
                std::snprintf(tri, sizeof tri, "M%g %gL%g %gL%g %gZ", px(a.x), py(a.y), px(b.x), py(b.y), px(c.x), py(c.y));
                svg += tri;
            }
        svg += "\"/>";
    }
    svg += "<path fill=\"none\" stroke=\"#1e88e5\" stroke-width=\"0.6\" d=\"";
    char seg[96];
    for (const auto& [a, b] : lines) {
        std::snprintf(seg, sizeof seg, "M%g %gL%g %g", px(a.x), py(a.y), px(b.x), py(b.y));
        svg += seg;
    }
    svg += "\"/></svg>\n";
    return svg;
}

std::string view_index_html(const json& report) {
    std::string page = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>weft bake</title>\n";
    page += "<style>" + std::string(page_style) + "</style>\n</head>\n<body>\n<header><h1>weft bake</h1>";
    const json models = report.value("models", json::array());
    page += "<div class=\"muted\">" + html_escape(report.value("summary", std::string())) + "</div></header>\n<main style=\"padding: 8px 16px\">\n";
    page += "<table id=\"models\">\n<tr><th></th><th>model</th><th>status</th><th>issues by code</th></tr>\n";
    for (const json& m : models) {
        const std::string name = m.value("input", std::string());
        const std::string folder = m.value("output_dir", name);
        const std::string status = m.value("status", std::string());
        bool has_page = false, has_thumb = false;
        for (const json& f : m.value("outputs", json::array())) {
            has_page = has_page || f == "view.html";
            has_thumb = has_thumb || f == "thumbnail.svg";
        }
        // Links are relative to OUT and each path segment percent-encoded where HTML needs it.
        std::string href;
        for (char c : folder + "/") {
            if (c == ' ') href += "%20";
            else if (c == '#') href += "%23";
            else if (c == '?') href += "%3F";
            else if (c == '%') href += "%25";
            else href += c;
        }
        page += "<tr data-status=\"" + html_escape(status) + "\"><td>";
        if (has_thumb) page += "<img class=\"thumb\" alt=\"\" src=\"" + html_escape(href) + "thumbnail.svg\">";
        page += "</td><td>";
        if (has_page) page += "<a href=\"" + html_escape(href) + "view.html\">" + html_escape(name) + "</a>";
        else page += html_escape(name);
        const bool good = status == "built";
        page += "</td><td class=\"" + std::string(good ? "good" : "bad") + "\">" + html_escape(status) + "</td><td>";
        std::map<std::string, std::pair<int, std::string>> by_code;  // code -> count, severity
        for (const json& i : m.value("issues", json::array())) {
            auto& [count, severity] = by_code[i.value("code", std::string())];
            ++count;
            severity = i.value("severity", std::string());
        }
        bool first = true;
        for (const auto& [code, entry] : by_code) {
            page += std::string(first ? "" : ", ") + "<span class=\"" + (entry.second == "error" ? "bad" : "muted") +
                    "\">" + html_escape(code) + (entry.first > 1 ? " x" + std::to_string(entry.first) : "") + "</span>";
            first = false;
        }
        page += "</td></tr>\n";
    }
    page += "</table>\n</main>\n</body>\n</html>\n";
    return page;
}

size_t view_bundle_size() { return weft_view_bundle_length; }

}  // namespace weft
