// `weft dump` end to end: JSON on stdout that validates against schemas/clothproxy.schema.json,
// --report writes the same, a refused file is one line naming it and exit 1, a bad command line 2.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "proxy/codec_fixtures.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;

std::filesystem::path saved(const std::string& test, const std::string& name, const ClothProxy& proxy) {
    auto path = test::scratch_dir(test) / name;
    EXPECT_EQ(save_proxy(proxy, path), "");
    return path;
}

TEST(Dump, PrintsTheProxyAsSchemaValidJson) {
    auto path = saved("dump_small", "Flag.clothproxy", test::small_proxy());
    test::CommandResult r = test::run_weft({"dump", path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(test::schema_errors(r.out, "clothproxy.schema.json"), "");
    json j = json::parse(r.out);
    EXPECT_EQ(j["schema"], "weft.clothproxy/5");
    EXPECT_EQ(j["kind"], "sheet");
    EXPECT_EQ(j["garment"], "Flag");
    EXPECT_EQ(j["class"], "flag");
    EXPECT_EQ(j["suggested_fabric"], "cotton");
    EXPECT_EQ(j["source_file"], "models/Goal_Flag.glb");
    EXPECT_EQ(j["source_meshes"][0]["material"], "Fahne_\xC3\xA4");
    EXPECT_EQ(j["source_meshes"][1]["vertex_offset"], 5);
    EXPECT_EQ(j["builder_options"], R"({"pin":"top","weld":0.0001})");
    EXPECT_EQ(j["frame"]["node"], "Pole");
    EXPECT_EQ(j["frame"]["rest_world"][13], 2.0);
    EXPECT_EQ(j["particles"], 7);
    EXPECT_EQ(j["rest_position"][6], json({2.5, 0.5, 0.0}));
    EXPECT_TRUE(std::signbit(j["rest_position"][4][2].get<double>()));  // -0.0 survives the text
    EXPECT_EQ(j["inverse_mass"], json({0.0, 0.0, 4.0, 10.0, 4.0, 10.0, 10.0}));
    EXPECT_EQ(j["source"], json({0, 1, 2, 5, 3, 6, 7}));
    EXPECT_EQ(j["d_geo"], json({0.0, 0.0, 1.0, nullptr, 1.0, nullptr, nullptr}));
    EXPECT_EQ(j["nearest_held"], json({0, 1, 0, nullptr, 1, nullptr, nullptr}));
    EXPECT_EQ(j["colour_ranges"], json({0, 4, 6, 7}));
    EXPECT_EQ(j["edges"][4], json({1, 2}));
    EXPECT_DOUBLE_EQ(j["rest_length"][4].get<double>(), std::sqrt(2.0));
    EXPECT_EQ(j["hinges"], json({{1, 2, 0, 4}}));
    EXPECT_EQ(j["triangles"].size(), 3u);
    EXPECT_EQ(j["pins"], json::parse(R"([{"holder":"Pole","particles":[0,1]}])"));
    EXPECT_EQ(j["vertex_particle"], json({0, 1, 2, 4, 1, 3, 5, 6}));
    EXPECT_DOUBLE_EQ(j["total_mass"].get<double>(), 1.3);
    EXPECT_EQ(j["joint_name"], json::array());
    EXPECT_EQ(j["skips"], json::array());
}

TEST(Dump, KeysAreTheStableSet) {
    auto path = saved("dump_keys", "Hair_0.clothproxy", test::rig_proxy());
    test::CommandResult r = test::run_weft({"dump", path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    std::set<std::string> keys;
    for (const auto& [k, v] : j.items()) keys.insert(k);
    const std::set<std::string> expected{
        "schema", "kind", "garment", "class", "suggested_fabric", "source_file", "source_meshes",
        "builder_options", "frame", "total_mass", "particles", "rest_position", "inverse_mass", "source",
        "joint_name", "d_geo", "nearest_held", "collision_radius", "colour_ranges", "edges", "rest_length", "skips",
        "skip_rest_length", "hinges", "triangles", "hinge_reference_area", "pins", "vertex_particle", "render_triangles", "binding_triangle",
        "binding_coordinates", "virtual_link", "virtual_rest_position"};
    EXPECT_EQ(keys, expected);
    EXPECT_EQ(j["virtual_link"], json({{0, 0, 1}, {3, 2, 3}}));
    EXPECT_EQ(j["virtual_rest_position"][1], json({0.05, 1.2, 0.04}));
    EXPECT_EQ(j["collision_radius"], json({0, 0.012, 0.015, 0.015}));
    EXPECT_EQ(j["kind"], "rig");
    EXPECT_EQ(j["joint_name"], json({"chest", "Hair1", "Hair2", "Hair3"}));
    EXPECT_EQ(j["skips"], json({{0, 2}, {1, 3}}));
    EXPECT_EQ(test::schema_errors(r.out, "clothproxy.schema.json"), "");
}

TEST(Dump, GridAndEmptyProxiesValidate) {
    for (const auto& [name, proxy] : {std::pair{"grid.clothproxy", test::grid_proxy(9, 7)},
                                      std::pair{"empty.clothproxy", ClothProxy{}}}) {
        auto path = saved(std::string("dump_") + name, name, proxy);
        test::CommandResult r = test::run_weft({"dump", path.string()});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(test::schema_errors(r.out, "clothproxy.schema.json"), "") << name;
        EXPECT_EQ(json::parse(r.out)["particles"], proxy.particle_count());
    }
}

TEST(Dump, SchemaRejectsWhatTheCodeNeverWrites) {
    // The schema is a real check, not a rubber stamp: each of these edits of a good dump fails it.
    auto path = saved("dump_schema_negative", "Flag.clothproxy", test::small_proxy());
    test::CommandResult r = test::run_weft({"dump", path.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json good = json::parse(r.out);
    const std::vector<std::pair<const char*, std::function<void(json&)>>> edits = {
        {"wrong schema", [](json& j) { j["schema"] = "weft.clothproxy/1"; }},
        {"unknown key", [](json& j) { j["colours"] = 3; }},
        {"missing key", [](json& j) { j.erase("d_geo"); }},
        {"inf as a string", [](json& j) { j["d_geo"][3] = "inf"; }},
        {"negative mass", [](json& j) { j["inverse_mass"][2] = -1; }},
        {"edge of three", [](json& j) { j["edges"][0] = json({0, 1, 2}); }},
        {"negative index", [](json& j) { j["triangles"][0][0] = -1; }},
        {"short frame", [](json& j) { j["frame"]["rest_world"].erase(0); }},
        {"unknown kind", [](json& j) { j["kind"] = "mesh"; }},
    };
    for (const auto& [name, edit] : edits) {
        json bad = good;
        edit(bad);
        EXPECT_NE(test::schema_errors(bad.dump(), "clothproxy.schema.json"), "") << name;
    }
}

TEST(Dump, ReportWritesTheSameJson) {
    auto path = saved("dump_report", "Flag.clothproxy", test::small_proxy());
    auto report = path.parent_path() / "out" / "Flag.clothproxy.json";
    test::CommandResult r = test::run_weft({"dump", path.string(), "--report", report.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(report, bytes), "");
    EXPECT_EQ(std::string(bytes.begin(), bytes.end()), r.out);
}

TEST(Dump, RefusedFileIsOneLineNamingItAndExitOne) {
    auto dir = test::scratch_dir("dump_refused");
    std::vector<uint8_t> bytes = encode_proxy(test::small_proxy());
    bytes.resize(100);
    ASSERT_EQ(write_file_atomic(dir / "short.clothproxy", std::span<const uint8_t>(bytes)), "");
    test::CommandResult r = test::run_weft({"dump", (dir / "short.clothproxy").string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "weft dump: " + (dir / "short.clothproxy").string() + ": TRUNCATED at byte 100 (header): the header declares " +
                         std::to_string(encode_proxy(test::small_proxy()).size()) + " bytes, the file has 100\n");

    r = test::run_weft({"dump", (dir / "absent.clothproxy").string()});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("absent.clothproxy"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Dump, BadCommandLineExitsTwo) {
    EXPECT_EQ(test::run_weft({"dump"}).exit_code, 2);
    EXPECT_EQ(test::run_weft({"dump", "a.clothproxy", "--no-such-flag"}).exit_code, 2);
    EXPECT_EQ(test::run_weft({"dump", "a.clothproxy", "b.clothproxy"}).exit_code, 2);
}

}  // namespace
}  // namespace weft
