// Tails on authored chains through the pipeline, on the generated quadruped (tools/testdata
// make_quadruped): a tail that is the body is reported and not built; a root that carries the
// haunch is left to the animation, so the haunch stays where the body puts it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "batch/bake_model.h"
#include "garment/chains.h"
#include "pipeline/pipeline_codes.h"
#include "support/paths.h"
#include "testdata/fixtures.h"
#include "validate/model/rig_validate.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

ModelRecord bake_quadruped(const testdata::QuadrupedOptions& q, const std::string& name, bool validate) {
    const fs::path dir = test::scratch_dir("tails-" + name);
    const fs::path model = dir / (name + ".glb");
    const std::vector<uint8_t> bytes = encode_glb(testdata::make_quadruped(q));
    std::ofstream(model, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    ModelOptions options;
    options.write_files = false;
    if (validate) options.validate = ValidationOptions{};
    options.out_dir = dir / "out";
    return bake_model(model, options);
}

TEST(TailsInTheBake, ATailThatIsTheBodyIsReportedAndNotBuilt) {
    testdata::QuadrupedOptions thick;
    thick.tail_root_radius = 0.28;
    const ModelRecord r = bake_quadruped(thick, "thick", false);
    ASSERT_TRUE(r.imported);
    EXPECT_TRUE(r.rigs.empty());
    const Issue* said = nullptr;
    for (const Issue& issue : r.issues)
        if (issue.code == kTailIsBody.code) said = &issue;
    ASSERT_NE(said, nullptr);
    EXPECT_EQ(said->severity, Severity::info);
    EXPECT_NE(said->message.find("thick.glb: 'Tail1' (tail, by chain) is not built: the body"), std::string::npos) << said->message;
    EXPECT_NE(said->message.find("a quarter of the way down its 1400 mm chain it is"), std::string::npos) << said->message;
    EXPECT_NE(said->message.find("it is 431 mm wide, 0.80 of the hips' 542 mm, and only narrower beyond"), std::string::npos) << said->message;
    EXPECT_EQ(r.exit_code(), 0);
}

// Weighted as the Quaternius Wolf's haunch is, 45% on Tail1 from 0.57 m away: simulated from Tail1,
// the tail's turn carried that skin 68 mm in `sprint` (25 mm in `swing`); left to the animation, the
// root holds it where the body puts it, and the tail still swings from Tail2.
TEST(TailsInTheBake, AHaunchOnTheTailsRootStaysWithTheBody) {
    testdata::QuadrupedOptions haunch;
    haunch.haunch_on_tail = true;
    const ModelRecord r = bake_quadruped(haunch, "haunch", true);
    ASSERT_TRUE(r.validation);
    ASSERT_EQ(r.validation->proxies.size(), 1u);
    const RigProxyValidation& tail = r.validation->proxies[0];
    EXPECT_EQ(tail.garment, "Tail1");
    EXPECT_TRUE(tail.passed());
    int judged = 0;
    for (const MeshGateResult& g : tail.mesh_gates) {
        if (g.gate != "SCALP_DISPLACEMENT") continue;
        ++judged;
        EXPECT_LT(g.value, 1e-3) << g.message;
    }
    EXPECT_GE(judged, 3);
    ASSERT_EQ(r.rigs.size(), 1u);
    ASSERT_TRUE(r.rigs[0].built.proxy);
    // Tail2..Tail5 swing; Tail1 holds them, Back no longer does.
    const std::vector<std::string>& names = r.rigs[0].built.proxy->joint_name;
    EXPECT_NE(std::find(names.begin(), names.end(), "Tail5"), names.end());
    EXPECT_EQ(std::find(names.begin(), names.end(), "Back"), names.end());
}

}  // namespace
}  // namespace weft
