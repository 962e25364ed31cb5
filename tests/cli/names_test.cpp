// Names in another script reach the files weft writes as they are: a garment called "髪" is
// 髪.clothproxy, a model "人形 Ä.glb" gets 人形_Ä.cloth.json (ASCII specials, spaces and Unicode
// controls still become '_'), and every JSON output and message carries the names' bytes unchanged.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "support/json_files.h"
#include "support/paths.h"

namespace weft {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string bytes_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// `glb` with every occurrence of `from` in its JSON chunk replaced by `to` (the chunk re-padded).
std::string glb_with(const std::string& glb, const std::string& from, const std::string& to) {
    uint32_t json_length = 0;
    std::memcpy(&json_length, glb.data() + 12, 4);
    std::string text = glb.substr(20, json_length);
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
    while (text.size() % 4) text += ' ';
    const std::string rest = glb.substr(20 + json_length);
    std::string out = glb.substr(0, 12);
    const auto put = [&](uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
    put(static_cast<uint32_t>(text.size()));
    out += "JSON";
    out += text + rest;
    const auto total = static_cast<uint32_t>(out.size());
    std::memcpy(out.data() + 8, &total, 4);
    return out;
}

TEST(Names, AnotherScriptKeepsItsLettersInFileNamesAndItsBytesEverywhere) {
    const fs::path dir = test::scratch_dir("names_script");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    std::string glb = glb_with(bytes_of(test::testdata_dir() / "mannequin.glb"), "\"Hair\"", "\"髪\"");
    glb = glb_with(glb, "\"Skirt\"", "\"Skirt\xE2\x80\xAE\"");  // U+202E, a right-to-left override
    const std::string model = "人形 Ä.glb";
    std::ofstream(in / model, std::ios::binary) << glb;
    const auto r = test::run_weft({"bake", in.string(), "-o", (dir / "out").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const fs::path out = dir / "out" / model;
    EXPECT_TRUE(fs::exists(out / "髪.clothproxy")) << "the hair's proxy";
    EXPECT_TRUE(fs::exists(out / "Skirt___.clothproxy")) << "a bidirectional control is no letter";
    EXPECT_TRUE(fs::exists(out / "人形_Ä.cloth.json"));
    EXPECT_TRUE(fs::exists(out / "人形_Ä.glb"));
    const json sidecar = test::read_json_file(out / "人形_Ä.cloth.json");
    ASSERT_TRUE(sidecar.is_object());
    std::set<std::string> proxies, names;
    for (const json& g : sidecar["garments"]) {
        names.insert(g["name"].get<std::string>());
        proxies.insert(g["proxy"].get<std::string>());
    }
    EXPECT_EQ(names, (std::set<std::string>{"髪", "Skirt\xE2\x80\xAE"}));
    EXPECT_EQ(proxies, (std::set<std::string>{"髪.clothproxy", "Skirt___.clothproxy"}));
    EXPECT_EQ(sidecar["grown_model"], "人形_Ä.glb");
    EXPECT_EQ(sidecar["input"]["file"], model);
    const std::string grown = bytes_of(out / "人形_Ä.glb");
    EXPECT_NE(grown.find("\"髪_0_0\""), std::string::npos) << "the grown joints keep the garment's name";
}

}  // namespace
}  // namespace weft
