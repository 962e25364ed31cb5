// `weft validate` end to end: exit 0 when every proxy passes, 1 when a gate fails or a file is
// refused (one line naming it, the others still validated), 2 for a bad command line; --json is the
// report alone and validates against schemas/validation.schema.json; --report writes the same.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "solver/test_proxies.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;

/// A rope held at its top, 8 links at 10 cm, authored hanging: it passes every scenario.
ClothProxy good_rope() { return test::chain_proxy(8, 0.1, 0.05); }

/// The same rope with every rest length halved: stretched to 2 in its rest pose.
ClothProxy stretched_rope() {
    ClothProxy p = good_rope();
    for (double& r : p.rest_length) r *= 0.5;
    for (double& r : p.skip_rest_length) r *= 0.5;
    return p;
}

std::filesystem::path saved(const std::filesystem::path& dir, const std::string& name, const ClothProxy& p) {
    auto path = dir / name;
    EXPECT_EQ(save_proxy(p, path), "");
    return path;
}

json without_timing(json j) {
    for (auto& p : j["proxies"])
        for (auto& s : p["scenarios"]) s.erase("timing");
    return j;
}

TEST(ValidateCli, AGoodRopePassesEveryScenarioAndExitsZero) {
    auto dir = test::scratch_dir("validate_cli_good");
    auto rope = saved(dir, "rope.clothproxy", good_rope());
    test::CommandResult r = test::run_weft({"validate", rope.string()});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find(rope.string() + ": rig \"chain\", 9 particles, fabric cotton (the proxy's suggestion)"),
              std::string::npos) << r.out;
    for (const char* name : {"hang", "swing", "sprint", "teleport-reset", "teleport-keep", "idle"})
        EXPECT_NE(r.out.find(std::string("\n  ") + name + " "), std::string::npos) << name;
    EXPECT_NE(r.out.find("1 proxies: 1 passed, 0 failed, 0 refused\n"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
}

TEST(ValidateCli, JsonIsTheReportAloneAndValidates) {
    auto dir = test::scratch_dir("validate_cli_json");
    auto rope = saved(dir, "rope.clothproxy", good_rope());
    auto report = dir / "out" / "validation.json";
    test::CommandResult r = test::run_weft(
        {"validate", rope.string(), "--json", "--scenario", "hang,teleport", "--steps", "240", "--report", report.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(test::schema_errors(r.out, "validation.schema.json"), "");
    json j = json::parse(r.out);  // nothing but the report on standard output
    EXPECT_EQ(j["schema"], "weft.validation/1");
    EXPECT_EQ(j["passed"], true);
    ASSERT_EQ(j["proxies"].size(), 1u);
    const json& p = j["proxies"][0];
    ASSERT_EQ(p["scenarios"].size(), 3u);
    EXPECT_EQ(p["scenarios"][0]["name"], "hang");
    EXPECT_EQ(p["scenarios"][1]["name"], "teleport-reset");
    EXPECT_EQ(p["scenarios"][2]["name"], "teleport-keep");
    for (const json& s : p["scenarios"]) EXPECT_EQ(s["steps"], 240);
    EXPECT_EQ(p["scenarios"][1]["teleport_step"], 49);  // a fifth of 240 steps, 1-based

    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(report, bytes), "");
    json written = json::parse(bytes.begin(), bytes.end());
    EXPECT_EQ(test::schema_errors(written.dump(), "validation.schema.json"), "");
    EXPECT_EQ(without_timing(written), without_timing(j));
}

TEST(ValidateCli, AFailedGateExitsOneAndSaysWhichWithTheNumbers) {
    auto dir = test::scratch_dir("validate_cli_stretched");
    auto good = saved(dir, "good.clothproxy", good_rope());
    auto bad = saved(dir, "stretched.clothproxy", stretched_rope());
    test::CommandResult r = test::run_weft({"validate", good.string(), bad.string(), "--scenario", "hang"});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find(bad.string() + ": rig \"chain\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  FAIL STRAIN hang: worst strain 2.0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(limit 1.1)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("2 proxies: 1 passed, 1 failed, 0 refused"), std::string::npos) << r.out;

    test::CommandResult j = test::run_weft({"validate", good.string(), bad.string(), "--scenario", "hang", "--json"});
    EXPECT_EQ(j.exit_code, 1);
    EXPECT_EQ(test::schema_errors(j.out, "validation.schema.json"), "");
    json report = json::parse(j.out);
    EXPECT_EQ(report["passed"], false);
    EXPECT_EQ(report["proxies"][0]["passed"], true);
    EXPECT_EQ(report["proxies"][1]["passed"], false);
    bool found = false;
    for (const json& g : report["proxies"][1]["gates"]) {
        if (g["gate"] != "STRAIN") continue;
        found = true;
        EXPECT_EQ(g["passed"], false);
        EXPECT_GE(g["value"].get<double>(), 2.0 - 1e-12);
        EXPECT_EQ(g["limit"], 1.1);
    }
    EXPECT_TRUE(found);

    // The author's limit: at --max-strain 2.5 the same rope passes.
    test::CommandResult loose = test::run_weft({"validate", bad.string(), "--scenario", "hang", "--max-strain", "2.5"});
    EXPECT_EQ(loose.exit_code, 0) << loose.out;
}

TEST(ValidateCli, ACorruptFileIsOneLineNamingItAndTheOthersAreStillValidated) {
    auto dir = test::scratch_dir("validate_cli_corrupt");
    auto good = saved(dir, "good.clothproxy", good_rope());
    auto corrupt = saved(dir, "corrupt.clothproxy", good_rope());
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(corrupt, bytes), "");
    bytes.resize(bytes.size() - 5);
    ASSERT_EQ(write_file_atomic(corrupt, bytes), "");

    test::CommandResult r = test::run_weft({"validate", corrupt.string(), good.string(), "--scenario", "hang", "--json"});
    EXPECT_EQ(r.exit_code, 1);
    // One line on standard error, naming the file and the loader's named error.
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_EQ(r.err.rfind("weft validate: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(corrupt.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("TRUNCATED"), std::string::npos) << r.err;
    json report = json::parse(r.out);
    EXPECT_EQ(test::schema_errors(r.out, "validation.schema.json"), "");
    ASSERT_EQ(report["proxies"].size(), 2u);
    EXPECT_EQ(report["proxies"][0]["refused"]["code"], "TRUNCATED");
    EXPECT_EQ(report["proxies"][1]["passed"], true);  // the good one was still validated

    test::CommandResult missing = test::run_weft({"validate", (dir / "absent.clothproxy").string()});
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_NE(missing.err.find("absent.clothproxy"), std::string::npos) << missing.err;
    EXPECT_NE(missing.out.find("REFUSED UNREADABLE"), std::string::npos) << missing.out;
}

TEST(ValidateCli, ABadCommandLineExitsTwo) {
    auto dir = test::scratch_dir("validate_cli_usage");
    auto rope = saved(dir, "rope.clothproxy", good_rope());
    const std::vector<std::vector<std::string>> bad = {
        {"validate"},                                              // no proxy
        {"validate", rope.string(), "--scenario", "walk"},         // unknown scenario
        {"validate", rope.string(), "--scenario", "hang,walk"},    // one unknown name in a list
        {"validate", rope.string(), "--fabric", "velvet"},         // unknown fabric
        {"validate", rope.string(), "--steps", "0"},
        {"validate", rope.string(), "--steps", "many"},
        {"validate", rope.string(), "--max-strain", "0.9"},        // a limit below rest length
        {"validate", rope.string(), "--max-energy-rise", "-1"},
        {"validate", rope.string(), "--frobnicate"},
    };
    for (const auto& args : bad) {
        test::CommandResult r = test::run_weft(args);
        std::string line;
        for (const auto& a : args) line += a + " ";
        EXPECT_EQ(r.exit_code, 2) << line << "\n" << r.out << r.err;
        EXPECT_EQ(r.out.find("proxies:"), std::string::npos) << line;  // nothing was simulated
    }
    test::CommandResult fabric = test::run_weft({"validate", rope.string(), "--fabric", "velvet"});
    EXPECT_NE(fabric.err.find("silk, cotton, denim, leather, rope, chain, hair"), std::string::npos) << fabric.err;
}

TEST(ValidateCli, FabricOptionOverridesTheProxysSuggestion) {
    auto dir = test::scratch_dir("validate_cli_fabric");
    auto rope = saved(dir, "rope.clothproxy", good_rope());
    test::CommandResult r = test::run_weft({"validate", rope.string(), "--fabric", "Chain", "--scenario", "hang", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json j = json::parse(r.out);
    EXPECT_EQ(j["proxies"][0]["fabric"], "chain");
    EXPECT_EQ(j["proxies"][0]["fabric_source"], "option");
    EXPECT_EQ(j["proxies"][0]["rows"]["strain_limit"], 8);  // chain keeps the strain-limit row (docs/solver.md#strain-limit)
}

}  // namespace
}  // namespace weft
