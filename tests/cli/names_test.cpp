// Names in another script reach the files weft writes as they are: a garment called "髪" is
// 髪.clothproxy, a model "人形 Ä.glb" gets 人形_Ä.cloth.json (ASCII specials, spaces and Unicode
// controls still become '_'), and every JSON output and message carries the names' bytes unchanged.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "pipeline/garment_names.h"
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

// A name past what a file name holds (255 bytes with its suffix and its temporary's) left the
// garment's proxy unwritten (ENAMETOOLONG: `weft sheet` an error, the bake's model failed). Now a long
// stem keeps its head and ends in a hash of the whole: every file fits, two names that differ only
// at the end name two files, and the JSON keeps the names whole.
TEST(Names, NamesTooLongForAFileNameStillNameFilesThatFit) {
    const fs::path dir = test::scratch_dir("names_long");
    const fs::path in = dir / "in";
    fs::create_directories(in);
    // Names that still say what they are (the class is read from the name's words).
    const std::string hair = "Hair_" + std::string(250, 'X'), skirt = "Skirt_" + std::string(250, 'X');
    std::string kami;
    for (int i = 0; i < 100; ++i) kami += "髪";  // 300 bytes, cut only between sequences
    std::string glb = glb_with(bytes_of(test::testdata_dir() / "mannequin.glb"), "\"Hair\"", "\"" + hair + "\"");
    glb = glb_with(glb, "\"Skirt\"", "\"" + skirt + "\"");
    const std::string model = kami.substr(0, 246) + ".glb";  // 250 bytes: its sidecar's name would be 257
    std::ofstream(in / model, std::ios::binary) << glb;
    const auto r = test::run_weft({"bake", in.string(), "-o", (dir / "out").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.err.find("1 built"), std::string::npos) << r.err;
    const fs::path out = dir / "out" / model;
    std::set<std::string> files;
    for (const auto& e : fs::directory_iterator(out)) {
        const std::string name = e.path().filename().string();
        files.insert(name);
        EXPECT_LE(name.size(), 255u) << name;
        EXPECT_EQ(name.find(".tmp."), std::string::npos) << "a temporary left behind: " << name;
    }
    std::string sidecar_file;
    for (const std::string& f : files)
        if (f.ends_with(".cloth.json")) sidecar_file = f;
    ASSERT_FALSE(sidecar_file.empty()) << "no sidecar";
    EXPECT_TRUE(sidecar_file.starts_with("髪髪")) << sidecar_file;
    EXPECT_LE(sidecar_file.size() - std::strlen(".cloth.json"), 180u) << sidecar_file;
    const json sidecar = test::read_json_file(out / sidecar_file);
    ASSERT_TRUE(sidecar.is_object());
    std::set<std::string> names, proxies;
    for (const json& g : sidecar["garments"]) {
        names.insert(g["name"].get<std::string>());
        ASSERT_TRUE(g["proxy"].is_string()) << g["name"];
        proxies.insert(g["proxy"].get<std::string>());
        EXPECT_TRUE(files.count(g["proxy"].get<std::string>())) << g["proxy"];
    }
    EXPECT_EQ(names, (std::set<std::string>{hair, skirt})) << "the JSON keeps the names whole";
    EXPECT_EQ(proxies.size(), 2u);
    // Two names that differ only past the cut name two files; a cut never splits a character.
    const std::string a = garment_file_stem(std::string(250, 'X') + "1"), b = garment_file_stem(std::string(250, 'X') + "2");
    EXPECT_NE(a, b);
    EXPECT_EQ(a.size(), max_file_stem_bytes);
    EXPECT_EQ(a.substr(0, 100), std::string(100, 'X'));
    const std::string k = garment_file_stem(kami);
    EXPECT_LE(k.size(), max_file_stem_bytes);
    EXPECT_EQ(k.find('-') % 3, 0u) << "cut inside a character: " << k;
    EXPECT_EQ(garment_file_stem(k), k) << "a stem is its own stem";
    ASSERT_TRUE(sidecar["grown_model"].is_string());
    EXPECT_TRUE(files.count(sidecar["grown_model"].get<std::string>()));
    EXPECT_EQ(sidecar["input"]["file"], model);
}

}  // namespace
}  // namespace weft
