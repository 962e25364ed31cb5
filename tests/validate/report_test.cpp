// The validation report (lib/validate/validate.h): JSON that validates against
// schemas/validation.schema.json, files the loader refuses, and the text people read.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "proxy/core/codec.h"
#include "proxy/file/proxy_file.h"
#include "solver/test_proxies.h"
#include "support/paths.h"
#include "validate/validate.h"

namespace weft {
namespace {

using nlohmann::json;

ValidationOptions short_runs() {
    ValidationOptions o;
    for (ScenarioRun& r : o.scenarios) r.steps = 90;
    return o;
}

TEST(Report, JsonValidatesAgainstTheSchema) {
    const auto dir = test::scratch_dir("validate_report_schema");
    const auto good = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(test::chain_proxy(8, 0.1, 0.05), good), "");
    ValidationOptions o = short_runs();
    ValidationReport report{o.limits, {}};
    report.proxies.push_back(validate_file(good, o));
    report.proxies.push_back(validate_file(dir / "missing.clothproxy", o));
    ClothProxy bad = test::chain_proxy(4, 0.1, 0.05);
    bad.rest_length[0] = 0;
    report.proxies.push_back(validate_proxy(bad, o, "in-memory"));

    json j = report_json(report);
    EXPECT_EQ(test::schema_errors(j.dump(2), "validation.schema.json"), "");
    EXPECT_EQ(j["schema"], "weft.validation/1");
    EXPECT_EQ(j["passed"], false);
    EXPECT_EQ(j["limits"]["max_strain"], 1.10);
    EXPECT_EQ(j["limits"]["max_sleep_step"], nullptr);
    ASSERT_EQ(j["proxies"].size(), 3u);

    const json& rope = j["proxies"][0];
    EXPECT_EQ(rope["file"], good.string());
    EXPECT_EQ(rope["kind"], "rig");
    EXPECT_EQ(rope["particles"], 9);
    EXPECT_EQ(rope["refused"], nullptr);
    EXPECT_EQ(rope["fabric"], "cotton");
    EXPECT_EQ(rope["rows"]["stretch"], 8);
    EXPECT_EQ(rope["rows"]["tether"], 8);
    EXPECT_EQ(rope["scenarios"].size(), 6u);
    std::set<std::string> names;
    for (const json& s : rope["scenarios"]) names.insert(s["name"].get<std::string>());
    EXPECT_EQ(names, (std::set<std::string>{"hang", "swing", "sprint", "teleport-reset", "teleport-keep", "idle"}));
    EXPECT_EQ(rope["scenarios"][3]["teleport_step"], 19);  // a fifth of 90 steps, 1-based
    EXPECT_NE(rope["scenarios"][5]["idle_jitter_mean"], nullptr);
    EXPECT_EQ(rope["scenarios"][5]["total_energy_trend"], nullptr);
    EXPECT_TRUE(rope["scenarios"][0]["timing"]["ms_per_step"].is_number());

    const json& missing = j["proxies"][1];
    EXPECT_EQ(missing["passed"], false);
    EXPECT_EQ(missing["refused"]["code"], "UNREADABLE");
    EXPECT_NE(missing["refused"]["message"].get<std::string>().find("missing.clothproxy"), std::string::npos);
    EXPECT_EQ(missing["kind"], nullptr);
    EXPECT_EQ(missing["scenarios"], json::array());

    EXPECT_EQ(j["proxies"][2]["refused"]["code"], "UNSIMULATABLE");
    EXPECT_EQ(j["proxies"][2]["kind"], "rig");
}

TEST(Report, ACorruptFileIsRefusedWithTheLoadersNamedError) {
    const auto dir = test::scratch_dir("validate_report_corrupt");
    const auto path = dir / "rope.clothproxy";
    ASSERT_EQ(save_proxy(test::chain_proxy(4, 0.1, 0.05), path), "");
    std::vector<uint8_t> bytes;
    ASSERT_EQ(read_file(path, bytes), "");
    bytes[bytes.size() / 2] ^= 0x40;  // inside the payload: the checksum no longer agrees
    ASSERT_EQ(write_file_atomic(path, bytes), "");
    ProxyValidation v = validate_file(path, short_runs());
    ASSERT_TRUE(v.refused);
    EXPECT_EQ(v.refused->code, "CHECKSUM_MISMATCH");
    EXPECT_NE(v.refused->message.find(path.string()), std::string::npos) << v.refused->message;
    EXPECT_TRUE(v.scenarios.empty());
    EXPECT_FALSE(v.passed());
}

TEST(Report, TextNamesEveryFailedGateWithItsNumbers) {
    ClothProxy stretched = test::chain_proxy(8, 0.1, 0.05);
    for (double& r : stretched.rest_length) r *= 0.5;
    for (double& r : stretched.skip_rest_length) r *= 0.5;
    ValidationOptions o;
    o.scenarios = {{Scenario::hang, 200}};
    ValidationReport report{o.limits, {}};
    report.proxies.push_back(validate_proxy(test::chain_proxy(8, 0.1, 0.05), o, "good.clothproxy"));
    report.proxies.push_back(validate_proxy(stretched, o, "stretched.clothproxy"));
    report.proxies.push_back(validate_file("nowhere/none.clothproxy", o));
    const std::string text = report_text(report);
    EXPECT_NE(text.find("good.clothproxy: rig \"chain\", 9 particles, fabric cotton (the proxy's suggestion)"),
              std::string::npos) << text;
    EXPECT_NE(text.find("stretched.clothproxy: rig"), std::string::npos);
    EXPECT_NE(text.find("  FAIL STRAIN hang: worst strain 2.0"), std::string::npos) << text;
    EXPECT_NE(text.find("nowhere/none.clothproxy: REFUSED UNREADABLE: "), std::string::npos) << text;
    EXPECT_NE(text.find("3 proxies: 1 passed, 1 failed, 1 refused\n"), std::string::npos) << text;
    EXPECT_FALSE(report.passed());
}

}  // namespace
}  // namespace weft
