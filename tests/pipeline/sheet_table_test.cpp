// The sheets table of docs/measurements.md#sheets-on-real-meshes: every sheet garment of the shared
// models and of the generated fixtures, baked with bake's defaults (the resolution `automatic`: a dense
// sheet coarsened, any other kept as modelled) and validated in every scenario in its suggested fabric,
// then hang and sprint in cotton, denim and rope. It prints the table's rows and asserts their bounds:
// particles, the binding's rest error, hang's sleep, the worst strain of the proxy and of the bound
// render mesh per scenario.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fabric/fabric.h"
#include "io/format_text.h"
#include "batch/bake_model.h"
#include "proxy/file/proxy_file.h"
#include "support/paths.h"
#include "validate/validate.h"

namespace weft {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct TableSheet {
    const char* model;      ///< under testdata/ or, with shared, under the shared models
    bool shared;
    const char* proxy;      ///< the .clothproxy bake writes
    uint32_t min_particles, max_particles;
    double strain;          ///< the worst strain allowed, proxy and render mesh, outside teleport (1.10 = the gate)
    double teleport_strain; ///< in teleport-reset and teleport-keep
    bool sleeps_in_every_fabric;  ///< hang sleeps in cotton, denim and rope
    bool other_fabrics = true;    ///< also hang and sprint in cotton, denim and rope
    double thickness = 0;         ///< a two-sided sheet: the worst stretch of its render mesh as drawn, thickness and
                                  ///< all, allowed in every scenario and fabric (reported, not gated); it then runs
                                  ///< every scenario in cotton, denim and rope and passes every gate; 0 = one-sided
    double least_face = 0;        ///< a two-sided sheet: the least render-face area ratio as drawn allowed over a run (below
                                  ///< 0: a face inside out for a moment; none may be at a scenario's end)
    uint32_t inside_out_steps = 0;  ///< a two-sided sheet: the most steps of a run a face may spend inside out
    double idle_jitter_mean = 0;    ///< deg/frame in idle, weft's measured mean over the links; asserted within 2x
    double idle_jitter_worst = 0;   ///< and the worst link's (docs/measurements.md#idle-stability-on-the-shared-models)
};

// Every shared sheet passes every gate. The fixtures that do not are held to their measured figures,
// so a change for the worse is seen (docs/measurements.md#sheets-on-real-meshes says why they fail):
// holes and dense strain past the gate in teleport's sway; dense's resampled proxy stretches past it
// in cotton's and rope's sprint (1.128, 1.114) and never sleeps in rope; testdata/flag.glb never sleeps in denim.
constexpr TableSheet kTableSheets[] = {
    // The Goal_Flag is two-sided: simulated on one face (docs/proxy.md#two-sided-sheets). Its proxy
    // stays under the gate and crosses nothing, and so does its render mesh on the cloth; drawn with
    // the slab's thickness it stretches past the gate where the cloth curls, up to 1.344 (cotton's
    // sprint), and its fly-end corner creases through its thickness for 2 steps of cotton's sprint
    // (least face area -0.400), none left inside out (docs/validation.md#two-sided-sheets).
    {"quaternius_Goal_Flag.glb", true, "Flag.clothproxy", 46, 46, 1.10, 1.10, true, true, 1.35, -0.45, 2, 1.711e-3, 7.716e-3},
    // banner_blue's brackets are rigid holders, not particles (docs/garments-by-geometry.md#a-name-match-on-a-static-mesh).
    {"kaykit_banner_blue/banner_blue.gltf", true, "banner_blue.clothproxy", 51, 51, 1.10, 1.10, true, true, 0, 0, 0, 1.499e-4, 5.152e-4},
    {"kaykit_Knight.glb", true, "Knight_Cape.clothproxy", 56, 56, 1.10, 1.10, true, true, 0, 0, 0, 2.481e-3, 6.202e-3},
    {"flag.glb", false, "Flag.clothproxy", 117, 117, 1.10, 1.10, false, true, 0, 0, 0, 1.011e-2, 1.365e-1},
    {"sheets/strips.glb", false, "Banner.clothproxy", 52, 52, 1.10, 1.10, true, true, 0, 0, 0, 1.548e-4, 6.876e-4},
    {"sheets/holes.glb", false, "Banner.clothproxy", 286, 286, 1.10, 1.41, true, true, 0, 0, 0, 4.088e-4, 1.126e-3},
    // Dense is past the gate in its own fabric's sprint (docs/measurements.md#sheets-on-real-meshes);
    // its other fabrics' cells there were measured with other_fabrics on, and are left out here: they
    // more than double the sanitizer suite's costliest test.
    // Resampled to 456 particles: the 256 its area asks for plus the held row and the borders, which
    // only slide along themselves.
    {"sheets/dense.glb", false, "Banner.clothproxy", 400, 520, 1.15, 1.21, false, false, 0, 0, 0, 1.992e-3, 2.923e-2},
};

json table_sidecar_garment(const fs::path& dir, const std::string& name) {
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string file = entry.path().filename().string();
        if (file.size() < 11 || file.substr(file.size() - 11) != ".cloth.json") continue;
        std::ifstream in(entry.path());
        const json sidecar = json::parse(in);
        for (const json& g : sidecar["garments"])
            if (g.value("proxy", json()).is_string() && g["proxy"].get<std::string>() == name) return g;
    }
    return {};
}

const ScenarioStats* table_scenario(const ProxyValidation& v, Scenario s) {
    for (const ScenarioStats& st : v.scenarios)
        if (st.scenario == s) return &st;
    return nullptr;
}

// A two-sided sheet's render mesh as drawn in one scenario, its bounds asserted: its stretch within the
// sheet's, and no face turned inside out.
std::string thickness_cell(const TableSheet& g, const ScenarioStats& st) {
    if (!st.max_thickness_stretch || !st.min_face_area_ratio) {
        ADD_FAILURE() << scenario_name(st.scenario) << ": a two-sided sheet reports its thickness stretch";
        return " |";
    }
    EXPECT_LE(*st.max_thickness_stretch, g.thickness) << scenario_name(st.scenario) << " (as drawn)";
    EXPECT_GE(*st.min_face_area_ratio, g.least_face) << scenario_name(st.scenario) << " (least face area as drawn)";
    EXPECT_LE(st.inside_out_steps, g.inside_out_steps) << scenario_name(st.scenario) << " (steps with a face inside out)";
    EXPECT_EQ(st.inside_out_faces.value_or(1), 0u) << scenario_name(st.scenario) << " (faces inside out at the end)";
    return format_text(" %.3f / %.3f%s |", *st.max_thickness_stretch, *st.min_face_area_ratio,
                       st.inside_out_steps ? format_text(" (%u steps inside out)", st.inside_out_steps).c_str() : "");
}

// One sheet: baked, validated, its row printed, its bounds asserted. One test per sheet, so ctest runs
// them side by side (the dense sheet is most of the cost).
void check_sheet(const TableSheet& g) {
    std::string table;
    {
        SCOPED_TRACE(g.model);
        const fs::path file = g.shared ? test::shared_models_dir() / g.model : test::testdata_dir() / g.model;
        if (!fs::exists(file)) GTEST_SKIP() << file << " not found";
        const std::string label = fs::path(g.model).filename().string();
        const fs::path out = test::scratch_dir("sheet-table-" + label) / label;  // one folder per test: run at once
        fs::remove_all(out);
        ModelOptions o = bake_preset();
        o.out_dir = out;
        o.out_root = out.parent_path();
        o.model_label = o.out_label = label;
        o.options_text = "test";
        bake_model(file, o);
        const fs::path proxy_file = out / g.proxy;
        ASSERT_TRUE(fs::exists(proxy_file)) << proxy_file;
        const json side = table_sidecar_garment(out, g.proxy);
        ASSERT_TRUE(side.contains("binding")) << side.dump();
        const json& binding = side["binding"];
        const DecodeResult loaded = load_proxy(proxy_file);
        ASSERT_TRUE(loaded.proxy) << loaded.error;
        const size_t particles = loaded.proxy->particle_count();
        EXPECT_GE(particles, g.min_particles);
        EXPECT_LE(particles, g.max_particles);
        // Every render vertex bound; the rest pose gives it back within a millimetre (exactly where kept).
        EXPECT_EQ(binding["bound_vertices"], binding["render_vertices"]);
        const double error_max = binding["rest_error_max"].get<double>(), error_mean = binding["rest_error_mean"].get<double>();
        EXPECT_LT(error_max, 1e-3);
        // Exactly, where every bound vertex is a particle: not the banner's brackets, the rest of its
        // mesh, bound off the cloth where they hold it.
        size_t off_cloth = 0;
        for (size_t v = 0; v < loaded.proxy->binding_triangle.size(); ++v)
            off_cloth += loaded.proxy->binding_triangle[v] != no_triangle && loaded.proxy->vertex_particle[v] == no_particle;
        if (binding["resolution"] == "source" && off_cloth == 0) { EXPECT_EQ(error_max, 0.0); }

        ValidationOptions v;  // every scenario, suggested fabric, self-contact on: as bake validates
        v.stop_early = false;  // the table's figures are whole runs', a failing sheet's too
        const ProxyValidation r = validate_file(proxy_file, v);
        ASSERT_FALSE(r.refused);
        const ScenarioStats* hang = table_scenario(r, Scenario::hang);
        ASSERT_TRUE(hang);
        EXPECT_TRUE(hang->sleep_step) << "hang never slept";
        char row[512];
        std::snprintf(row, sizeof row, "| %s %s | %s | %s | %u | %zu (%s) | %.3f / %.3f | %s |", label.c_str(),
                      side["name"].get<std::string>().c_str(), r.fabric.c_str(), g.shared ? "shared" : "fixture",
                      binding["render_vertices"].get<uint32_t>(), particles, binding["resolution"].get<std::string>().c_str(),
                      error_max * 1e3, error_mean * 1e3, hang->sleep_step ? std::to_string(*hang->sleep_step).c_str() : "never");
        table += row;
        for (const Scenario s : {Scenario::hang, Scenario::swing, Scenario::sprint, Scenario::teleport_reset,
                                 Scenario::teleport_keep, Scenario::idle}) {
            const ScenarioStats* st = table_scenario(r, s);
            ASSERT_TRUE(st) << scenario_name(s);
            const double mesh = st->max_mesh_stretch.value_or(st->max_strain);
            std::snprintf(row, sizeof row, " %.3f / %.3f |", st->max_strain, mesh);
            table += row;
            const bool teleport = s == Scenario::teleport_reset || s == Scenario::teleport_keep;
            const double limit = teleport ? g.teleport_strain : g.strain;
            EXPECT_LE(st->max_strain, limit) << scenario_name(s);
            EXPECT_LE(mesh, limit) << scenario_name(s) << " (render mesh)";
            // SELF_INTERSECTION: no scenario ends with more crossing pairs than the rest pose.
            EXPECT_LE(st->crossings.value_or(0), r.rest_crossings.value_or(0)) << scenario_name(s) << ": crossing pairs";
        }
        table += "\n";
        // Idle stability (docs/measurements.md#idle-stability-on-the-shared-models): at most twice the
        // jitter measured, and not still (a sheet that does not move in idle measures nothing).
        const ScenarioStats* idle = table_scenario(r, Scenario::idle);
        ASSERT_TRUE(idle->idle_jitter_mean && idle->idle_jitter_worst);
        std::printf("%s idle jitter %.4g / %.4g deg/frame (mean / worst link)\n", label.c_str(), *idle->idle_jitter_mean,
                    *idle->idle_jitter_worst);
        EXPECT_GT(g.idle_jitter_mean, 0) << "no idle jitter measured for " << label;
        EXPECT_LE(*idle->idle_jitter_mean, 2 * g.idle_jitter_mean);
        EXPECT_LE(*idle->idle_jitter_worst, 2 * g.idle_jitter_worst);
        EXPECT_GT(*idle->idle_jitter_mean, 0);
        if (g.thickness > 0) {
            EXPECT_TRUE(r.passed()) << "every gate in " << r.fabric;
            table += "| as drawn (thickness stretch / least face area) | | | | | | |";
            for (const ScenarioStats& st : r.scenarios) table += thickness_cell(g, st);
            table += "\n";
        }

        // The criterion in the other fabrics: hang sleeps, sprint strains at most 10%.
        for (const char* fabric : {"cotton", "denim", "rope"}) {
            if (!g.other_fabrics) break;
            ValidationOptions f;
            f.fabric = find_fabric(fabric);
            f.scenarios.clear();
            for (const ScenarioRun& run : default_scenario_runs())
                if (g.thickness > 0 || run.scenario == Scenario::hang || run.scenario == Scenario::sprint) f.scenarios.push_back(run);
            const ProxyValidation fr = validate_file(proxy_file, f);
            ASSERT_FALSE(fr.refused) << fabric;
            if (g.thickness > 0) {
                EXPECT_TRUE(fr.passed()) << "every gate in " << fabric;
                std::string cells;
                for (const ScenarioStats& st : fr.scenarios) {
                    EXPECT_LE(st.max_strain, g.strain) << fabric << " " << scenario_name(st.scenario);
                    cells += format_text(" %.3f / %.3f", st.max_strain, st.max_mesh_stretch.value_or(0.0)) + thickness_cell(g, st);
                }
                std::printf("%s %s, every scenario (proxy / on the cloth | as drawn / least face area):%s\n", label.c_str(), fabric,
                            cells.c_str());
            }
            const ScenarioStats *fh = table_scenario(fr, Scenario::hang), *fsprint = table_scenario(fr, Scenario::sprint);
            ASSERT_TRUE(fh && fsprint) << fabric;
            if (g.sleeps_in_every_fabric) {
                EXPECT_TRUE(fh->sleep_step) << fabric << ": hang never slept";
            }
            EXPECT_LE(fsprint->max_strain, g.strain) << fabric;
            EXPECT_LE(fsprint->max_mesh_stretch.value_or(fsprint->max_strain), g.strain) << fabric << " (render mesh)";
            std::printf("%s %s: hang sleeps at %s, sprint %.3f / %.3f\n", label.c_str(), fabric,
                        fh->sleep_step ? std::to_string(*fh->sleep_step).c_str() : "never", fsprint->max_strain,
                        fsprint->max_mesh_stretch.value_or(fsprint->max_strain));
        }
    }
    std::printf("| garment | fabric | model | source vertices | particles (resolution) | binding error worst / mean, mm | "
                "hang sleep | hang | swing | sprint | teleport-reset | teleport-keep | idle |\n%s",
                table.c_str());
}

TEST(SheetTable, GoalFlag) { check_sheet(kTableSheets[0]); }
TEST(SheetTable, BannerBlue) { check_sheet(kTableSheets[1]); }
TEST(SheetTable, KnightCape) { check_sheet(kTableSheets[2]); }
TEST(SheetTable, FlagFixture) { check_sheet(kTableSheets[3]); }
TEST(SheetTable, Strips) { check_sheet(kTableSheets[4]); }
TEST(SheetTable, Holes) { check_sheet(kTableSheets[5]); }
TEST(SheetTable, Dense) { check_sheet(kTableSheets[6]); }

}  // namespace
}  // namespace weft
