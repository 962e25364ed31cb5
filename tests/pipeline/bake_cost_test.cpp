// The order weft bake hands models out (batch/bake_cost.h): a .gltf counts the files it names, and
// the last bake into the same OUT times the models it built.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "batch/bake_cost.h"
#include "support/paths.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// A .gltf naming a buffer and an image beside it, an inline buffer and a missing file: the file and the
// two it names that exist, byte for byte; a .glb is its own size.
TEST(BakeCost, GltfCountsTheFilesItNames) {
    const fs::path dir = test::scratch_dir("bake-cost-bytes");
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string gltf = R"({"buffers": [{"uri" : "body.bin"}, {"uri": "data:application/octet-stream;base64,AAAA"},
        {"uri":"gone.bin"}], "images": [{"uri": "skin.png"}]})";
    write(dir / "model.gltf", gltf);
    write(dir / "body.bin", std::string(1000, 'b'));
    write(dir / "skin.png", std::string(300, 'p'));
    write(dir / "other.glb", std::string(700, 'g'));
    EXPECT_EQ(model_input_bytes(dir / "model.gltf"), gltf.size() + 1000 + 300);
    EXPECT_EQ(model_input_bytes(dir / "other.glb"), 700u);
    EXPECT_EQ(model_input_bytes(dir / "missing.glb"), 0u);
}

// The last bake's seconds where it built a model with the same --validate, else bytes at the seconds
// per byte of the timed ones; a skip's time and another --validate's report count nothing.
TEST(BakeCost, LastBakesTimesFirstThenBytesAtTheirRate) {
    const fs::path dir = test::scratch_dir("bake-cost-history");
    fs::remove_all(dir);
    fs::create_directories(dir);
    write(dir / "slow.glb", std::string(100, 's'));
    write(dir / "big.glb", std::string(400, 'b'));
    write(dir / "new.glb", std::string(50, 'n'));
    write(dir / "bake-report.json", R"({"validate": true,
        "models": [{"input": "slow.glb", "status": "built"}, {"input": "big.glb", "status": "refused", "unchanged": true}],
        "timings": {"models": [{"input": "slow.glb", "seconds": 8.0}, {"input": "big.glb", "seconds": 0.01}]}})");
    const std::vector<fs::path> models{dir / "slow.glb", dir / "big.glb", dir / "new.glb"};
    const std::vector<std::string> names{"slow.glb", "big.glb", "new.glb"};
    const std::vector<double> cost = model_costs(models, names, dir / "bake-report.json", true);
    ASSERT_EQ(cost.size(), 3u);
    EXPECT_DOUBLE_EQ(cost[0], 8.0);
    EXPECT_DOUBLE_EQ(cost[1], 400 * 0.08);  // skipped last time: its bytes at slow.glb's 0.08 s a byte
    EXPECT_DOUBLE_EQ(cost[2], 50 * 0.08);
    // A report of weft.bake-report/1 said "skipped" for the same.
    write(dir / "older.json", R"({"validate": true,
        "models": [{"input": "slow.glb", "status": "built"}, {"input": "big.glb", "status": "skipped"}],
        "timings": {"models": [{"input": "slow.glb", "seconds": 8.0}, {"input": "big.glb", "seconds": 0.01}]}})");
    EXPECT_DOUBLE_EQ(model_costs(models, names, dir / "older.json", true)[1], 400 * 0.08);
    const std::vector<double> other = model_costs(models, names, dir / "bake-report.json", false);
    EXPECT_DOUBLE_EQ(other[0], 100e-6);  // no history for a bake without --validate: bytes alone
    EXPECT_DOUBLE_EQ(other[1], 400e-6);
    const std::vector<double> none = model_costs(models, names, dir / "missing.json", true);
    EXPECT_DOUBLE_EQ(none[1], 400e-6);
    fs::create_directory(dir / "folder.json");  // not a regular file: no history, no error
    EXPECT_DOUBLE_EQ(model_costs(models, names, dir / "folder.json", true)[0], 100e-6);
    // A report of another shape is no history, never an error: a non-boolean validate, a negative time.
    write(dir / "odd.json", R"({"validate": "yes", "models": {}, "timings": []})");
    EXPECT_DOUBLE_EQ(model_costs(models, names, dir / "odd.json", true)[0], 100e-6);
    write(dir / "negative.json", R"({"validate": true, "models": [{"input": "slow.glb", "status": "built"}],
        "timings": {"models": [{"input": "slow.glb", "seconds": -8.0}]}})");
    EXPECT_DOUBLE_EQ(model_costs(models, names, dir / "negative.json", true)[0], 100e-6);
    // Every model built last time: its own time each, whatever its bytes.
    write(dir / "all.json", R"({"validate": true,
        "models": [{"input": "slow.glb", "status": "built"}, {"input": "big.glb", "status": "built"},
                   {"input": "new.glb", "status": "refused"}],
        "timings": {"models": [{"input": "slow.glb", "seconds": 8.0}, {"input": "big.glb", "seconds": 0.5},
                               {"input": "new.glb", "seconds": 2.0}]}})");
    const std::vector<double> all = model_costs(models, names, dir / "all.json", true);
    EXPECT_DOUBLE_EQ(all[0], 8.0);
    EXPECT_DOUBLE_EQ(all[1], 0.5);
    EXPECT_DOUBLE_EQ(all[2], 2.0);
    // Read as it streams by: a row's nested objects (its cloth, its issues, a timing's stages) before
    // and after its input change nothing; a report cut short is no history at all.
    const std::string nested = R"({"validate": true,
        "models": [{"cloth": {"input": "cloth.glb"}, "input": "slow.glb", "issues": [{"input": "x", "unchanged": true}], "status": "built"},
                   {"input": "big.glb", "status": "built"}, {"input": "new.glb", "status": "built"}],
        "timings": {"jobs": 2, "models": [{"input": "slow.glb", "seconds": 7.0, "stages": {"input": "y", "seconds": 1}},
                                          {"input": "big.glb", "seconds": 3, "stages": {}},
                                          {"input": "new.glb", "seconds": 1.5}], "total_seconds": 11.5}})";
    write(dir / "nested.json", nested);
    const std::vector<double> read = model_costs(models, names, dir / "nested.json", true);
    EXPECT_DOUBLE_EQ(read[0], 7.0);
    EXPECT_DOUBLE_EQ(read[1], 3.0);
    EXPECT_DOUBLE_EQ(read[2], 1.5);
    write(dir / "cut.json", nested.substr(0, nested.size() - 40));
    EXPECT_DOUBLE_EQ(model_costs(models, names, dir / "cut.json", true)[0], 100e-6);
}

}  // namespace
}  // namespace weft
