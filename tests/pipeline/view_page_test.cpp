// The pages as data (lib/outputs/view_page.h, docs/view.md): names escaped for where they land, the
// data script holding any name as data, the recorded motion within the size budget, the thumbnail a
// PNG of the model, and the cloth summary's worst gate.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "outputs/html_text.h"
#include "outputs/json_text.h"
#include "outputs/view_page.h"
#include "pipeline/cloth_summary.h"
#include "pipeline/model_record.h"
#include "solver/test_proxies.h"

namespace weft {
namespace {

using nlohmann::json;

TEST(ViewPage, NamesAreEscapedForWhereTheyLand) {
    EXPECT_EQ(html_text("<a href=\"x\" title='y'>&</a>"), "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    // A link is a relative path whatever the name: no scheme, query or fragment, never out of the folder.
    EXPECT_EQ(relative_href("javascript:alert(1).glb/view.html"), "./javascript%3Aalert%281%29.glb/view.html");
    EXPECT_EQ(relative_href("a b/#c?d=e&f.glb/report.json"), "./a%20b/%23c%3Fd%3De%26f.glb/report.json");
    EXPECT_EQ(relative_href("dir/\xC3\xA9t\xC3\xA9.glb/view.html"), "./dir/%C3%A9t%C3%A9.glb/view.html");
    EXPECT_EQ(relative_href("/etc/passwd"), "");
    EXPECT_EQ(relative_href("a/../../b"), "");
    EXPECT_EQ(relative_href(".."), "");
    EXPECT_EQ(relative_href("...glb/view.html"), "./...glb/view.html");
    // JSON in a script element: no <, > or & and no raw line separator, and the same JSON.
    const json j = {{"name", "</script><script>alert(1)</script><!--\xE2\x80\xA8\xE2\x80\xA9&"}};
    const std::string safe = script_json(j.dump());
    for (const char* bad : {"<", ">", "&", "\xE2\x80\xA8", "\xE2\x80\xA9"}) EXPECT_EQ(safe.find(bad), std::string::npos) << bad;
    EXPECT_EQ(json::parse(safe), j);
}

/// The JSON of the page's data block.
json page_data(const std::string& page) {
    const std::string open = "<script id=\"weft-data\" type=\"application/json\">";
    const size_t from = page.find(open);
    EXPECT_NE(from, std::string::npos);
    const size_t start = from + open.size();
    return json::parse(page.substr(start, page.find("</script>", start) - start));
}

TEST(ViewPage, AnyNameStaysDataInsideThePage) {
    ViewModel m;
    m.name = "</script><script>alert(1)</script><!--<script>.glb";
    m.status = "built";
    m.issues.push_back({"CODE", Severity::warning, "material '<!--<script>\xE2\x80\xA8' in the way", ""});
    m.proxies.push_back({"</script>.clothproxy", test::chain_proxy(4, 0.1, 0.05), nullptr, nullptr});
    m.proxies.back().proxy.garment = "<img src=x onerror=alert(2)>";
    const std::string page = view_model_html(m);
    // The data and the viewer are the page's only script elements, and the policy runs only the viewer.
    size_t scripts = 0;
    for (size_t at = page.find("<script"); at != std::string::npos; at = page.find("<script", at + 1)) ++scripts;
    EXPECT_EQ(scripts, 2u);
    EXPECT_NE(page.find("script-src 'sha256-"), std::string::npos);
    EXPECT_EQ(page.find("script-src 'unsafe-inline'"), std::string::npos);
    const json data = page_data(page);
    EXPECT_EQ(data, view_model_json(m));
    EXPECT_EQ(data["model"], m.name);
    EXPECT_EQ(data["proxies"][0]["garment"], "<img src=x onerror=alert(2)>");
    EXPECT_NE(page.find("<title>weft: &lt;/script&gt;&lt;script&gt;"), std::string::npos);
}

/// A validation whose traces hold `frames` frames of every run, far past the budget.
ProxyValidation heavy_validation(const ClothProxy& p, size_t runs, uint32_t frames) {
    ProxyValidation v;
    v.file = "heavy.clothproxy";
    for (size_t r = 0; r < runs; ++r) {
        ScenarioStats s;
        s.scenario = Scenario::idle;
        s.steps = 4 * (frames - 1);
        s.max_strain = 1.0 + 0.001 * static_cast<double>(r);
        s.max_strain_step = 8 * static_cast<uint32_t>(r) + 5;  // the worst gate's step, a frame off the even spread
        v.scenarios.push_back(s);
        ScenarioTrace t;
        t.scenario = Scenario::idle;
        t.frame_every = 4;
        for (uint32_t k = 0; k < frames; ++k) {
            t.frame_steps.push_back(4 * k);
            t.frames.push_back(std::vector<float>(3 * p.particle_count(), static_cast<float>(k)));
        }
        for (uint32_t step = 1; step <= s.steps; ++step) t.steps.push_back({step, 0.1, 1.0, 0.0, 0.0, false, false});
        v.traces.push_back(std::move(t));
    }
    v.gates = evaluate_gates(v.scenarios, 1.0, GateLimits{});
    return v;
}

TEST(ViewPage, RecordedFramesFitTheSizeBudget) {
    ViewModel m;
    m.name = "heavy.glb";
    ClothProxy p = test::chain_proxy(399, 0.01, 0.01);  // 400 particles: 1,200 values a frame
    const ProxyValidation v = heavy_validation(p, 30, 180);  // 30 runs of 180 frames: 6.5 M values
    m.proxies.push_back({"heavy.clothproxy", p, &v, nullptr});
    const json data = view_model_json(m);
    size_t values = 0;
    const json& scenarios = data["proxies"][0]["scenarios"];
    ASSERT_EQ(scenarios.size(), 30u);
    for (const json& s : scenarios) {
        const json& steps = s["frames"]["steps"];
        values += steps.size() * 3 * p.particle_count();
        EXPECT_EQ(steps.front(), 0) << "the first frame is kept";
        EXPECT_EQ(steps.back(), s["steps"]) << "the last frame is kept";
        // The worst gate's step (STRAIN at max_strain_step) shows the frame recorded at or before it.
        const uint32_t worst = s["worst"]["step"];
        EXPECT_NE(std::find(steps.begin(), steps.end(), worst / 4 * 4), steps.end()) << worst;
        EXPECT_EQ(s["frames"]["recorded"], 180);
    }
    EXPECT_LE(values, view_motion_values);
    EXPECT_GT(values, view_motion_values * 9 / 10) << "the budget is used, not wasted";
    EXPECT_GE(data["budget"]["frames_per_run"].get<int>(), 30);
    // Under the budget every frame is kept.
    const ProxyValidation light = heavy_validation(p, 2, 20);
    m.proxies[0].validation = &light;
    EXPECT_EQ(view_model_json(m)["proxies"][0]["scenarios"][1]["frames"]["steps"].size(), 20u);
}

/// The RGBA pixels of a PNG whose image data is in stored deflate blocks, as view_thumbnail_png writes.
std::vector<uint8_t> stored_png_pixels(const std::string& png, uint32_t& width, uint32_t& height) {
    auto be32 = [&](size_t at) {
        return uint32_t(uint8_t(png[at])) << 24 | uint32_t(uint8_t(png[at + 1])) << 16 | uint32_t(uint8_t(png[at + 2])) << 8 |
               uint8_t(png[at + 3]);
    };
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    std::string z;
    for (size_t at = 8; at + 12 <= png.size();) {
        const uint32_t n = be32(at);
        const std::string type = png.substr(at + 4, 4);
        if (type == "IHDR") width = be32(at + 8), height = be32(at + 12);
        if (type == "IDAT") z += png.substr(at + 8, n);
        at += 12 + n;
    }
    std::string rows;
    for (size_t at = 2; at + 5 <= z.size();) {
        const size_t n = uint8_t(z[at + 1]) | size_t(uint8_t(z[at + 2])) << 8;
        rows += z.substr(at + 5, n);
        if (z[at] & 1) break;
        at += 5 + n;
    }
    std::vector<uint8_t> rgba;
    for (size_t y = 0; y < height; ++y)
        for (size_t x = 0; x < width * 4; ++x) rgba.push_back(uint8_t(rows[y * (width * 4 + 1) + 1 + x]));
    return rgba;
}

TEST(ViewPage, TheThumbnailShowsTheModelShadedWithItsGarmentsHighlighted) {
    // A fold of two panels, 1 m wide and 1.8 m tall, each turned from the front, so each takes its
    // own shade; the fold 0.1 m right of the middle (off a pixel's edge); the right panel a garment.
    Scene scene;
    scene.nodes.push_back({});
    Mesh fold;
    fold.node = 0;
    fold.positions = {{-0.5, 0, 0}, {0.1, 0, 0.3}, {0.1, 1.8, 0.3}, {-0.5, 1.8, 0}, {0.1, 0, 0.3}, {0.5, 0, 0}, {0.5, 1.8, 0}, {0.1, 1.8, 0.3}};
    fold.indices = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7};
    scene.meshes.push_back(fold);
    ModelGarments garments;
    Garment right;
    right.parts.push_back({0, {4, 5, 6, 7}, 2});
    garments.garments.push_back(right);
    ViewModel m;
    m.scene = &scene;
    m.garments = &garments;
    uint32_t w = 0, h = 0;
    const std::vector<uint8_t> rgba = stored_png_pixels(view_thumbnail_png(m), w, h);
    ASSERT_EQ(w, 96u);
    ASSERT_EQ(h, 96u);
    ASSERT_EQ(rgba.size(), 96u * 96u * 4u);
    size_t drawn = 0, orange = 0, grey = 0;
    std::set<uint32_t> colours;
    for (size_t i = 0; i < rgba.size(); i += 4) {
        if (rgba[i + 3] == 0) continue;
        ++drawn;
        colours.insert(uint32_t(rgba[i]) << 16 | uint32_t(rgba[i + 1]) << 8 | rgba[i + 2]);
        if (rgba[i] > rgba[i + 2] + 60) ++orange;
        else if (std::abs(int(rgba[i]) - int(rgba[i + 2])) < 30) ++grey;
    }
    // Fitted into 90% of the square: 1.8 m is 86.4 pixels, 1 m 48; the garment 0.4 m of it.
    EXPECT_NEAR(static_cast<double>(drawn), 48 * 86.4, 250.0);
    EXPECT_NEAR(static_cast<double>(orange), 19.2 * 86.4, 200.0);
    EXPECT_NEAR(static_cast<double>(grey), 28.8 * 86.4, 200.0);
    EXPECT_GE(colours.size(), 3u) << "two shades and the blend along the fold";
    EXPECT_EQ(view_thumbnail_png(ViewModel{}), "") << "nothing to draw, no picture";
}

TEST(ClothSummary, TheWorstGateIsAFailedOneFirstThenTheNearestItsLimit) {
    ModelRecord r;
    r.garments.garments.resize(3);
    r.plans = {{"grown", "", -1}, {"sheet", "", -1}, {"stays", "", -1}};
    r.rigs.resize(1);
    r.rigs[0].proxy_file = "Hair.clothproxy";
    r.sheets.resize(1);
    r.sheets[0].proxy_file = "Cape.clothproxy";
    r.proxy_validation = ValidationReport{};
    ProxyValidation hair, cape;
    hair.file = "Hair.clothproxy";
    cape.file = "Cape.clothproxy";
    hair.gates.push_back({Gate::strain, Scenario::sprint, "", true, 1.09, 1.10, "near"});
    cape.gates.push_back({Gate::strain, Scenario::idle, "", true, 1.02, 1.10, "far"});
    r.proxy_validation->proxies = {hair, cape};
    ClothSummary s = summarise_cloth(r);
    EXPECT_EQ(s.garments, 3u);
    EXPECT_EQ(s.moving, 2u);
    EXPECT_EQ(s.proxies, 2u);
    EXPECT_EQ(s.passing, 2u);
    ASSERT_TRUE(s.worst_gate);
    EXPECT_EQ(s.worst_gate->proxy, "Hair.clothproxy");
    EXPECT_EQ(s.worst_gate->scenario, "sprint");
    // Nearness from the gate's baseline: a length ratio of 1 stretched nothing.
    EXPECT_DOUBLE_EQ(gate_nearness("STRAIN", 1.0, 1.1), 0.0);
    EXPECT_NEAR(gate_nearness("MESH_STRETCH", 1.09, 1.1), 0.9, 1e-12);
    EXPECT_DOUBLE_EQ(gate_nearness("SCALP_DISPLACEMENT", 0.075, 0.15), 0.5);
    EXPECT_EQ(gate_nearness("FACE_INSIDE_OUT", 1, 0), std::numeric_limits<double>::infinity());
    EXPECT_EQ(gate_nearness("FACE_INSIDE_OUT", 0, 0), 0.0);
    // A failed gate, however far under another's nearness, is the worst.
    r.proxy_validation->proxies[1].gates.push_back({Gate::penetration, Scenario::clip, "Walk", false, 0.004, 0.003, "sank"});
    s = summarise_cloth(r);
    EXPECT_EQ(s.passing, 1u);
    EXPECT_EQ(s.worst_gate->gate, "PENETRATION");
    EXPECT_EQ(s.worst_gate->scenario, "clip:Walk");
    EXPECT_FALSE(s.worst_gate->passed);
}

}  // namespace
}  // namespace weft
