// Bad and hand-built input: every refusal gets its code and a message naming the file and the
// element, never a crash or a hang. The files are written into a scratch folder by each test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <random>

#include <nlohmann/json.hpp>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scene/import.h"
#include "scene/import_codes.h"
#include "scene/import_helpers.h"
#include "support/file_bytes.h"
#include "support/paths.h"
#include "support/base64.h"

namespace weft::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

void write_bytes(const fs::path& path, const void* data, size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), std::streamsize(size));
}
void write_text(const fs::path& path, const std::string& text) { write_bytes(path, text.data(), text.size()); }
std::vector<uint8_t> read_bytes(const fs::path& path) { return file_bytes(path); }

/// A glTF document assembled in memory: data appended to one buffer, accessors over it.
struct GltfBuilder {
    json doc = {{"asset", {{"version", "2.0"}}},
                {"scene", 0},
                {"scenes", json::array({json{{"nodes", json::array()}}})},
                {"nodes", json::array()},
                {"meshes", json::array()},
                {"materials", json::array()},
                {"accessors", json::array()},
                {"bufferViews", json::array()}};
    std::vector<uint8_t> bin;

    template <class T>
    int accessor(const std::vector<T>& values, int component_type, const char* type, size_t count) {
        while (bin.size() % 4) bin.push_back(0);
        size_t offset = bin.size();
        const uint8_t* p = reinterpret_cast<const uint8_t*>(values.data());
        bin.insert(bin.end(), p, p + values.size() * sizeof(T));
        doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", values.size() * sizeof(T)}});
        doc["accessors"].push_back({{"bufferView", doc["bufferViews"].size() - 1},
                                    {"componentType", component_type},
                                    {"type", type},
                                    {"count", count}});
        return int(doc["accessors"].size() - 1);
    }
    int vec3(const std::vector<float>& v) { return accessor(v, 5126, "VEC3", v.size() / 3); }
    int indices(const std::vector<uint16_t>& v) { return accessor(v, 5123, "SCALAR", v.size()); }
    int material(const std::string& name) {
        doc["materials"].push_back({{"name", name}});
        return int(doc["materials"].size() - 1);
    }
    int mesh(const std::string& name, json primitives) {
        doc["meshes"].push_back({{"name", name}, {"primitives", std::move(primitives)}});
        return int(doc["meshes"].size() - 1);
    }
    int node(json node, bool root) {
        doc["nodes"].push_back(std::move(node));
        int index = int(doc["nodes"].size() - 1);
        if (root) doc["scenes"][0]["nodes"].push_back(index);
        return index;
    }
    /// One triangle mesh on one root node; returns the mesh index.
    int triangle(const std::string& name, const std::vector<float>& positions, const std::vector<uint16_t>& index) {
        int m = mesh(name, json::array({{{"attributes", {{"POSITION", vec3(positions)}}},
                                         {"indices", indices(index)},
                                         {"material", material(name + "_material")}}}));
        node({{"name", name + "_node"}, {"mesh", m}}, true);
        return m;
    }
    std::string gltf() {
        json d = doc;
        d["buffers"] = json::array({{{"byteLength", bin.size()},
                                     {"uri", "data:application/octet-stream;base64," + base64(bin)}}});
        return d.dump();
    }
    std::vector<uint8_t> glb() {
        json d = doc;
        d["buffers"] = json::array({{{"byteLength", bin.size()}}});
        std::string text = d.dump();
        while (text.size() % 4) text += ' ';
        std::vector<uint8_t> data = bin;
        while (data.size() % 4) data.push_back(0);
        std::vector<uint8_t> out;
        auto u32 = [&](uint32_t v) { for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i))); };
        u32(0x46546C67);
        u32(2);
        u32(uint32_t(12 + 8 + text.size() + 8 + data.size()));
        u32(uint32_t(text.size()));
        u32(0x4E4F534A);
        out.insert(out.end(), text.begin(), text.end());
        u32(uint32_t(data.size()));
        u32(0x004E4942);
        out.insert(out.end(), data.begin(), data.end());
        return out;
    }
};

const std::vector<float> kTriangle = {0, 0, 0, 1, 0, 0, 0, 1, 0};

/// Imports and expects refusal with `code`, the file named in the message.
ImportResult expect_refused(const fs::path& file, const std::string& code, const ImportOptions& options = {}) {
    ImportResult r = import_scene(file, options);
    EXPECT_FALSE(r.ok()) << "expected " << code << " for " << file;
    const Issue* issue = find_issue(r, code);
    EXPECT_NE(issue, nullptr) << "expected " << code << ", got:\n" << issues_text(r);
    if (issue) {
        EXPECT_EQ(issue->severity, Severity::error);
        EXPECT_NE(issue->message.find(file.string()), std::string::npos) << issue->message;
    }
    return r;
}

TEST(ImportCodes, TableIsUniqueAndComplete) {
    std::set<std::string_view> seen;
    for (const IssueCode& c : import_codes) {
        EXPECT_TRUE(seen.insert(c.code).second) << c.code;
        EXPECT_FALSE(c.description.empty()) << c.code;
        for (char ch : c.code) EXPECT_TRUE((ch >= 'A' && ch <= 'Z') || ch == '_') << c.code;
    }
    for (const char* code : {"FILE_NOT_FOUND", "NOT_A_FILE", "FILE_UNREADABLE", "FILE_EMPTY", "GLB_TRUNCATED",
                             "UNKNOWN_FORMAT", "NO_MESHES", "NON_FINITE_POSITION", "INDEX_OUT_OF_RANGE",
                             "JOINT_OUT_OF_RANGE", "IMPORT_FAILED"})
        EXPECT_NE(find_import_code(code), nullptr) << code;
}

// ---- the file itself ---------------------------------------------------------------------

TEST(ImportInput, MissingFile) {
    fs::path dir = scratch_dir("ImportInput.MissingFile");
    expect_refused(dir / "nothing-here.glb", "FILE_NOT_FOUND");
}

TEST(ImportInput, Directory) {
    fs::path dir = scratch_dir("ImportInput.Directory");
    fs::create_directory(dir / "model.glb");
    expect_refused(dir / "model.glb", "NOT_A_FILE");
}

TEST(ImportInput, FifoIsRefusedWithoutBlocking) {
    fs::path dir = scratch_dir("ImportInput.Fifo");
    fs::path fifo = dir / "model.glb";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
    expect_refused(fifo, "NOT_A_FILE");  // opening a FIFO for reading would wait for a writer
}

TEST(ImportInput, EmptyFile) {
    fs::path dir = scratch_dir("ImportInput.EmptyFile");
    write_text(dir / "empty.glb", "");
    expect_refused(dir / "empty.glb", "FILE_EMPTY");
}

TEST(ImportInput, LargerThanTheLimit) {
    fs::path dir = scratch_dir("ImportInput.TooLarge");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    write_text(dir / "tri.gltf", b.gltf());
    ImportOptions options;
    options.max_file_bytes = 64;
    expect_refused(dir / "tri.gltf", "FILE_TOO_LARGE", options);
    EXPECT_TRUE(import_scene(dir / "tri.gltf").ok());
}

// Tests run as root, and root's open() ignores permission bits (CAP_DAC_OVERRIDE): chmod 000
// alone proves nothing there. So the import runs with the effective uid of `nobody`, which
// the permission bits do bind, and root's view is checked separately for what it is.
TEST(ImportInput, UnreadableFile) {
    fs::path dir = scratch_dir("ImportInput.Unreadable");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    fs::path file = dir / "locked.gltf";
    write_text(file, b.gltf());
    ASSERT_EQ(::chmod(file.c_str(), 0), 0);
    const uid_t original = ::geteuid();
    if (original == 0) {
        EXPECT_TRUE(import_scene(file).ok()) << "root reads a mode-000 file";
    }
    ImportResult r;
    bool readable = false;
    {
        // Restores the effective uid however this block is left, so later tests run as before.
        struct Restore {
            uid_t uid;
            bool active;
            ~Restore() {
                if (active && ::seteuid(uid) != 0) std::abort();
            }
        } restore{original, false};
        if (original == 0) {
            if (::seteuid(65534) != 0) GTEST_SKIP() << "cannot drop to uid 65534 to test permissions";
            restore.active = true;
        }
        // access() answers for the real uid; AT_EACCESS asks for the effective one open() uses.
        readable = ::faccessat(AT_FDCWD, file.c_str(), R_OK, AT_EACCESS) == 0;
        if (!readable) r = import_scene(file);
    }
    ASSERT_FALSE(readable) << "the file is still readable; nothing to test";
    EXPECT_FALSE(r.ok());
    const Issue* issue = find_issue(r, "FILE_UNREADABLE");
    ASSERT_NE(issue, nullptr) << issues_text(r);
    EXPECT_NE(issue->message.find("Permission denied"), std::string::npos) << issue->message;
}

// ---- GLB container -----------------------------------------------------------------------

TEST(ImportInput, EveryTruncatedGlbIsRefused) {
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    std::vector<uint8_t> glb = b.glb();
    fs::path dir = scratch_dir("ImportInput.TruncatedGlb");
    ASSERT_TRUE(import_scene((write_bytes(dir / "whole.glb", glb.data(), glb.size()), dir / "whole.glb")).ok());
    for (size_t length = 1; length < glb.size(); ++length) {
        SCOPED_TRACE("length " + std::to_string(length));
        fs::path file = dir / ("cut" + std::to_string(length) + ".glb");
        write_bytes(file, glb.data(), length);
        ImportResult r = import_scene(file);
        ASSERT_FALSE(r.ok());
        // Under 4 bytes the magic itself is cut and no reader recognises the rest.
        if (length >= 4) {
            ASSERT_EQ(r.issues[0].code, "GLB_TRUNCATED") << issues_text(r);
        }
        fs::remove(file);
    }
}

TEST(ImportInput, TruncatedRealGlb) {
    WEFT_REQUIRE_SHARED_MODEL(model, "kaykit_Knight.glb");
    std::vector<uint8_t> glb = read_bytes(model);
    fs::path dir = scratch_dir("ImportInput.TruncatedRealGlb");
    for (size_t length : {size_t(11), size_t(20), glb.size() / 10, glb.size() / 2, glb.size() - 1}) {
        fs::path file = dir / ("knight" + std::to_string(length) + ".glb");
        write_bytes(file, glb.data(), length);
        expect_refused(file, "GLB_TRUNCATED");
    }
}

TEST(ImportInput, GlbWhoseHeaderMatchesTheCutButChunksDoNot) {
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    std::vector<uint8_t> glb = b.glb();
    glb.resize(glb.size() - 8);  // cut into the BIN chunk ...
    uint32_t total = uint32_t(glb.size());
    std::memcpy(glb.data() + 8, &total, 4);  // ... and make the header agree
    fs::path dir = scratch_dir("ImportInput.GlbChunkCut");
    write_bytes(dir / "cut.glb", glb.data(), glb.size());
    ImportResult r = expect_refused(dir / "cut.glb", "GLB_TRUNCATED");
    EXPECT_NE(r.issues[0].message.find("chunk"), std::string::npos) << r.issues[0].message;
}

TEST(ImportInput, GlbBinChunkShorterThanItsBuffer) {
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    b.bin.resize(b.bin.size() + 64);  // buffer declares 64 bytes more ...
    std::vector<uint8_t> glb = b.glb();
    glb.resize(glb.size() - 64);  // ... than the BIN chunk carries
    uint32_t total = uint32_t(glb.size());
    std::memcpy(glb.data() + 8, &total, 4);
    uint32_t json_length;
    std::memcpy(&json_length, glb.data() + 12, 4);
    uint32_t bin_length;
    std::memcpy(&bin_length, glb.data() + 20 + json_length, 4);
    bin_length -= 64;
    std::memcpy(glb.data() + 20 + json_length, &bin_length, 4);
    fs::path dir = scratch_dir("ImportInput.GlbBinShort");
    write_bytes(dir / "short.glb", glb.data(), glb.size());
    expect_refused(dir / "short.glb", "GLB_TRUNCATED");
}

TEST(ImportInput, GlbVersionOneAndNonJsonFirstChunk) {
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    std::vector<uint8_t> glb = b.glb();
    fs::path dir = scratch_dir("ImportInput.GlbMalformed");
    std::vector<uint8_t> v1 = glb;
    v1[4] = 1;
    write_bytes(dir / "v1.glb", v1.data(), v1.size());
    expect_refused(dir / "v1.glb", "GLB_MALFORMED");
    std::vector<uint8_t> bad_chunk = glb;
    bad_chunk[16] = 'X';
    write_bytes(dir / "chunk.glb", bad_chunk.data(), bad_chunk.size());
    expect_refused(dir / "chunk.glb", "GLB_MALFORMED");
}

TEST(ImportInput, GlbTrailingBytesAreAWarning) {
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    std::vector<uint8_t> glb = b.glb();
    glb.insert(glb.end(), 16, 0xAB);
    fs::path dir = scratch_dir("ImportInput.GlbTrailing");
    write_bytes(dir / "trailing.glb", glb.data(), glb.size());
    ImportResult r = import_scene(dir / "trailing.glb");
    EXPECT_TRUE(r.ok()) << issues_text(r);
    EXPECT_EQ(count_issues(r, "GLB_TRAILING_BYTES"), 1u);
    EXPECT_EQ(r.scene.meshes.size(), 1u);
}

// ---- not a model -------------------------------------------------------------------------

TEST(ImportInput, NotAModel) {
    fs::path dir = scratch_dir("ImportInput.NotAModel");
    write_text(dir / "notes.txt", "These are meeting notes, not a model.\n");
    expect_refused(dir / "notes.txt", "UNKNOWN_FORMAT");
    std::vector<uint8_t> noise(4096);
    for (size_t i = 0; i < noise.size(); ++i) noise[i] = uint8_t((i * 2654435761u) >> 13);
    write_bytes(dir / "noise.bin", noise.data(), noise.size());
    expect_refused(dir / "noise.bin", "UNKNOWN_FORMAT");
    write_text(dir / "config.json", R"({"name": "not glTF", "values": [1, 2, 3]})");
    expect_refused(dir / "config.json", "UNKNOWN_FORMAT");
}

TEST(ImportInput, GltfJsonThatDoesNotParse) {
    fs::path dir = scratch_dir("ImportInput.BadJson");
    write_text(dir / "broken.gltf", R"({"asset": {"version": "2.0"}, "nodes": [)");
    expect_refused(dir / "broken.gltf", "GLTF_JSON_INVALID");
}

TEST(ImportInput, GltfJsonNestedTooDeep) {
    fs::path dir = scratch_dir("ImportInput.DeepJson");
    std::string deep = R"({"asset": {"version": "2.0"}, "extras": )" + std::string(100000, '[') +
                       std::string(100000, ']') + "}";
    write_text(dir / "deep.gltf", deep);
    expect_refused(dir / "deep.gltf", "GLTF_JSON_INVALID");
}

TEST(ImportInput, ModelWithNoMeshes) {
    fs::path dir = scratch_dir("ImportInput.NoMeshes");
    GltfBuilder b;
    b.node({{"name", "Empty"}}, true);
    write_text(dir / "empty-scene.gltf", b.gltf());
    expect_refused(dir / "empty-scene.gltf", "NO_MESHES");
}

TEST(ImportInput, LinesOnlyIsNoMeshesAndLinesBesideTrianglesAreCounted) {
    fs::path dir = scratch_dir("ImportInput.Lines");
    GltfBuilder lines_only;
    int m = lines_only.mesh("Wire", json::array({{{"attributes", {{"POSITION", lines_only.vec3(kTriangle)}}},
                                                  {"indices", lines_only.indices({0, 1, 1, 2})},
                                                  {"mode", 1}}}));
    lines_only.node({{"mesh", m}}, true);
    write_text(dir / "wire.gltf", lines_only.gltf());
    expect_refused(dir / "wire.gltf", "NO_MESHES");

    GltfBuilder mixed;
    int positions = mixed.vec3(kTriangle);
    int mat = mixed.material("Cloth");
    int m2 = mixed.mesh("Mixed", json::array({{{"attributes", {{"POSITION", positions}}},
                                               {"indices", mixed.indices({0, 1, 2})},
                                               {"material", mat}},
                                              {{"attributes", {{"POSITION", positions}}},
                                               {"indices", mixed.indices({0, 1, 1, 2})},
                                               {"material", mat},
                                               {"mode", 1}}}));
    mixed.node({{"name", "N"}, {"mesh", m2}}, true);
    write_text(dir / "mixed.gltf", mixed.gltf());
    ImportResult r = import_scene(dir / "mixed.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    ASSERT_EQ(r.scene.meshes.size(), 2u);
    EXPECT_EQ(r.scene.meshes[0].triangle_count(), 1u);
    EXPECT_EQ(r.scene.meshes[1].triangle_count(), 0u);
    EXPECT_EQ(r.scene.meshes[1].line_count, 2u);
    EXPECT_EQ(count_issues(r, "LINES_DROPPED"), 1u);
}

// ---- content -----------------------------------------------------------------------------

TEST(ImportInput, NanPosition) {
    fs::path dir = scratch_dir("ImportInput.NanPosition");
    GltfBuilder b;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    b.triangle("Sail", {0, 0, 0, nan, 0, 0, 0, 1, 0}, {0, 1, 2});
    write_text(dir / "nan.gltf", b.gltf());
    ImportResult r = expect_refused(dir / "nan.gltf", "NON_FINITE_POSITION");
    const Issue* issue = find_issue(r, "NON_FINITE_POSITION");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("mesh 'Sail'"), std::string::npos) << issue->message;
    EXPECT_NE(issue->message.find("vertex 1"), std::string::npos) << issue->message;
}

TEST(ImportInput, InfinitePosition) {
    fs::path dir = scratch_dir("ImportInput.InfPosition");
    GltfBuilder b;
    b.triangle("Sail", {0, 0, 0, 1, 0, 0, 0, std::numeric_limits<float>::infinity(), 0}, {0, 1, 2});
    write_text(dir / "inf.gltf", b.gltf());
    expect_refused(dir / "inf.gltf", "NON_FINITE_POSITION");
}

TEST(ImportInput, IndexOutOfRange) {
    fs::path dir = scratch_dir("ImportInput.IndexOutOfRange");
    GltfBuilder b;
    b.triangle("Flag", kTriangle, {0, 1, 2, 0, 2, 7});
    write_text(dir / "oob.gltf", b.gltf());
    ImportResult r = expect_refused(dir / "oob.gltf", "INDEX_OUT_OF_RANGE");
    const Issue* issue = find_issue(r, "INDEX_OUT_OF_RANGE");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("mesh 'Flag' primitive 0: triangle 1 corner 2 names vertex 7"), std::string::npos)
        << issue->message;
    EXPECT_NE(issue->message.find("3 vertices"), std::string::npos);
    EXPECT_EQ(issue->pointer, "/meshes/0/primitives/0/indices");
}

/// A skinned strip: mesh node `Skinned` (scale 100, which glTF ignores for a skinned mesh),
/// joint `Bone` at (0, 1, 0) under the same scale 100, the inverse bind matrix putting the
/// mesh data at 100x its stored size, FBX2glTF's layout.
GltfBuilder skinned_strip(const std::vector<uint8_t>& joints, const std::vector<float>& weights,
                          const std::vector<float>& ibm_override = {}) {
    GltfBuilder b;
    const std::vector<float> positions = {0, 0, 0, 0.01f, 0, 0, 0, 0.01f, 0, 0.01f, 0.01f, 0};
    int pos = b.vec3(positions);
    int ind = b.indices({0, 1, 2, 1, 3, 2});
    int j = b.accessor(joints, 5121, "VEC4", joints.size() / 4);
    int w = b.accessor(weights, 5126, "VEC4", weights.size() / 4);
    // joint world = T(0,1,0)·S(100); IBM = joint⁻¹ · S(100), column-major.
    std::vector<float> ibm = ibm_override.empty()
                                 ? std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.01f * 100, 0, 1}
                                 : ibm_override;
    int inv = b.accessor(ibm, 5126, "MAT4", 1);
    int m = b.mesh("Strip", json::array({{{"attributes", {{"POSITION", pos}, {"JOINTS_0", j}, {"WEIGHTS_0", w}}},
                                          {"indices", ind},
                                          {"material", b.material("Cloth")}}}));
    int bone = b.node({{"name", "Bone"}, {"translation", {0, 1, 0}}}, false);
    int armature = b.node({{"name", "Armature"}, {"scale", {100, 100, 100}}, {"children", {bone}}}, true);
    (void)armature;
    b.doc["skins"] = json::array({{{"joints", {bone}}, {"inverseBindMatrices", inv}}});
    b.node({{"name", "Skinned"}, {"mesh", m}, {"skin", 0}, {"scale", {100, 100, 100}}}, true);
    return b;
}

TEST(ImportInput, SkinnedMeshSizeComesFromJointsNotItsNode) {
    fs::path dir = scratch_dir("ImportInput.SkinnedSize");
    GltfBuilder b = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    write_text(dir / "strip.gltf", b.gltf());
    ImportResult r = import_scene(dir / "strip.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    expect_scene_invariants(r.scene);
    ASSERT_EQ(r.scene.meshes.size(), 1u);
    const Mesh& m = r.scene.meshes[0];
    ASSERT_EQ(m.skin, 0);
    // joint world T(0,100,0)·S(100) (the armature scales the bone's translation too) times
    // IBM T(0,-1,0): vertex (0.01, 0.01, 0) lands at (1, 100 + 1 - 100, 0) = (1, 1, 0).
    Bounds bounds = Scene::mesh_bounds(m);
    EXPECT_NEAR(bounds.size().x, 1.0, 1e-5);
    EXPECT_NEAR(bounds.size().y, 1.0, 1e-5);
    EXPECT_NEAR(bounds.min.y, 0.0, 1e-5);
    // The bind matrices stored are the inverses of the joints' rest world transforms.
    const Skin& skin = r.scene.skins[0];
    ASSERT_EQ(skin.joints.size(), 1u);
    EXPECT_EQ(r.scene.nodes[size_t(skin.joints[0])].name, "Bone");
    Mat4 product = r.scene.nodes[size_t(skin.joints[0])].world * skin.inverse_bind[0];
    for (int k = 0; k < 16; ++k) EXPECT_NEAR(product.m[k], Mat4::identity().m[k], 1e-9);
}

TEST(ImportInput, WeightsAreNormalisedAndUnweightedVerticesReported) {
    fs::path dir = scratch_dir("ImportInput.Weights");
    GltfBuilder b = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  {0.5f, 0, 0, 0, 0.5f, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0});
    write_text(dir / "weights.gltf", b.gltf());
    ImportResult r = import_scene(dir / "weights.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    expect_scene_invariants(r.scene);
    EXPECT_EQ(count_issues(r, "WEIGHTS_NORMALISED"), 1u);
    const Issue* unweighted = find_issue(r, "UNWEIGHTED_VERTICES");
    ASSERT_NE(unweighted, nullptr) << issues_text(r);
    EXPECT_NE(unweighted->message.find("1 of 4 vertices"), std::string::npos) << unweighted->message;
    const Mesh& m = r.scene.meshes[0];
    EXPECT_EQ(m.influence_offsets[1] - m.influence_offsets[0], 1u);
    EXPECT_FLOAT_EQ(m.influences[m.influence_offsets[0]].weight, 1.0f);
    EXPECT_EQ(m.influence_offsets[4], m.influence_offsets[3]);  // vertex 3 has none
}

TEST(ImportInput, JointOutOfRange) {
    fs::path dir = scratch_dir("ImportInput.JointOutOfRange");
    // The skin has 1 joint; vertex 2 puts weight on joint 3.
    GltfBuilder b = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0},
                                  {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    write_text(dir / "joints.gltf", b.gltf());
    ImportResult r = expect_refused(dir / "joints.gltf", "JOINT_OUT_OF_RANGE");
    const Issue* issue = find_issue(r, "JOINT_OUT_OF_RANGE");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("mesh 'Strip' primitive 0: vertex 2 is weighted to joint 3"), std::string::npos)
        << issue->message;
}

TEST(ImportInput, ZeroWeightOnAMissingJointIsHarmless) {
    fs::path dir = scratch_dir("ImportInput.ZeroWeightJoint");
    GltfBuilder b = skinned_strip({0, 9, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0, 0, 9, 0, 0},
                                  {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    write_text(dir / "zero.gltf", b.gltf());
    ImportResult r = import_scene(dir / "zero.gltf");
    EXPECT_TRUE(r.ok()) << issues_text(r);
}

TEST(ImportInput, NanInverseBindMatrix) {
    fs::path dir = scratch_dir("ImportInput.NanIbm");
    const float nan = std::numeric_limits<float>::quiet_NaN();
    GltfBuilder b = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
                                  {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, nan, 0, 0, 1});
    write_text(dir / "nan-ibm.gltf", b.gltf());
    expect_refused(dir / "nan-ibm.gltf", "NON_FINITE_TRANSFORM");
}

TEST(ImportInput, NodeScalesThatOverflow) {
    fs::path dir = scratch_dir("ImportInput.Overflow");
    GltfBuilder b;
    int m = b.mesh("Tri", json::array({{{"attributes", {{"POSITION", b.vec3(kTriangle)}}},
                                        {"indices", b.indices({0, 1, 2})}}}));
    int inner = b.node({{"name", "Inner"}, {"mesh", m}, {"scale", {1e300, 1e300, 1e300}}}, false);
    b.node({{"name", "Outer"}, {"scale", {1e300, 1e300, 1e300}}, {"children", {inner}}}, true);
    write_text(dir / "overflow.gltf", b.gltf());
    ImportResult r = import_scene(dir / "overflow.gltf");
    EXPECT_FALSE(r.ok());
    // Assimp stores transforms as float: 1e300 is already infinite there.
    EXPECT_EQ(count_issues(r, "NON_FINITE_TRANSFORM"), 2u) << issues_text(r);
}

TEST(ImportInput, SkinWithoutInverseBindMatricesBindsWithIdentities) {
    fs::path dir = scratch_dir("ImportInput.NoIbm");
    GltfBuilder b = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    b.doc["skins"][0].erase("inverseBindMatrices");
    write_text(dir / "no-ibm.gltf", b.gltf());
    ImportResult r = import_scene(dir / "no-ibm.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    expect_scene_invariants(r.scene);
    // The specification's identity inverse bind: a vertex goes through the joint's world,
    // T(0,100,0)·S(100), alone: (0.01, 0.01, 0) lands at (1, 101, 0), the strip 1 x 1 from y = 100.
    const Bounds bounds = Scene::mesh_bounds(r.scene.meshes[0]);
    EXPECT_NEAR(bounds.min.y, 100.0, 1e-4);
    EXPECT_NEAR(bounds.size().x, 1.0, 1e-5);
    EXPECT_NEAR(bounds.size().y, 1.0, 1e-5);
}

TEST(ImportInput, ZeroNormalsAreDropped) {
    fs::path dir = scratch_dir("ImportInput.ZeroNormals");
    GltfBuilder b;
    int m = b.mesh("Tri", json::array({{{"attributes", {{"POSITION", b.vec3(kTriangle)},
                                                         {"NORMAL", b.vec3({0, 0, 1, 0, 0, 0, 0, 0, 1})}}},
                                        {"indices", b.indices({0, 1, 2})}}}));
    b.node({{"mesh", m}}, true);
    write_text(dir / "normals.gltf", b.gltf());
    ImportResult r = import_scene(dir / "normals.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    EXPECT_EQ(count_issues(r, "NON_FINITE_NORMAL"), 1u);
    EXPECT_TRUE(r.scene.meshes[0].normals.empty());
}

TEST(ImportInput, DegenerateTrianglesNamed) {
    fs::path dir = scratch_dir("ImportInput.Degenerate");
    GltfBuilder b;
    b.triangle("Sheet", {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0}, {0, 1, 2, 0, 0, 2, 1, 3, 2});
    write_text(dir / "degenerate.gltf", b.gltf());
    ImportResult r = import_scene(dir / "degenerate.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    // Triangle 1 repeats a corner, triangle 2 has two corners at one position (vertices 1 and 3).
    const Issue* issue = find_issue(r, "DEGENERATE_TRIANGLES");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("mesh 'Sheet'"), std::string::npos);
    EXPECT_NE(issue->message.find("material 'Sheet_material'"), std::string::npos);
    EXPECT_NE(issue->message.find(": 2 triangles"), std::string::npos) << issue->message;
    EXPECT_EQ(issue->pointer, "/meshes/Sheet/triangles/1");
    EXPECT_EQ(r.scene.meshes[0].triangle_count(), 3u);
}

TEST(ImportInput, GltfMeshNoNodeUsesIsNotRead) {
    // Assimp 5.2.5 reads glTF objects only when something references them, so a mesh no node
    // instances never reaches the converter (MESH_NOT_INSTANCED is tested on a built aiScene).
    fs::path dir = scratch_dir("ImportInput.NotInstanced");
    GltfBuilder b;
    b.triangle("Used", kTriangle, {0, 1, 2});
    b.mesh("Orphan", json::array({{{"attributes", {{"POSITION", b.vec3(kTriangle)}}}, {"indices", b.indices({0, 1, 2})}}}));
    write_text(dir / "orphan.gltf", b.gltf());
    ImportResult r = import_scene(dir / "orphan.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    ASSERT_EQ(r.scene.meshes.size(), 1u);
    EXPECT_EQ(r.scene.meshes[0].name, "Used");
}

TEST(ImportInput, MeshInstancedTwiceIsTwoMeshesInPlace) {
    fs::path dir = scratch_dir("ImportInput.Instanced");
    GltfBuilder b;
    int m = b.mesh("Leaf", json::array({{{"attributes", {{"POSITION", b.vec3(kTriangle)}}}, {"indices", b.indices({0, 1, 2})}}}));
    b.node({{"name", "A"}, {"mesh", m}, {"translation", {5, 0, 0}}}, true);
    b.node({{"name", "B"}, {"mesh", m}, {"translation", {0, 0, 5}}}, true);
    write_text(dir / "twice.gltf", b.gltf());
    ImportResult r = import_scene(dir / "twice.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    expect_scene_invariants(r.scene);
    ASSERT_EQ(r.scene.meshes.size(), 2u);
    EXPECT_EQ(r.scene.meshes[0].node_name, "A");
    EXPECT_DOUBLE_EQ(r.scene.meshes[0].positions[0].x, 5.0);
    EXPECT_EQ(r.scene.meshes[1].node_name, "B");
    EXPECT_DOUBLE_EQ(r.scene.meshes[1].positions[0].z, 5.0);
}

TEST(ImportInput, MirroredNodeKeepsFrontFacesFront) {
    fs::path dir = scratch_dir("ImportInput.Mirror");
    GltfBuilder b;
    int m = b.mesh("Tri", json::array({{{"attributes", {{"POSITION", b.vec3(kTriangle)}}}, {"indices", b.indices({0, 1, 2})}}}));
    b.node({{"name", "Mirror"}, {"mesh", m}, {"scale", {-1, 1, 1}}}, true);
    write_text(dir / "mirror.gltf", b.gltf());
    ImportResult r = import_scene(dir / "mirror.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Mesh& mesh = r.scene.meshes[0];
    // Counter-clockwise seen from +Z in the file; still counter-clockwise from +Z once mirrored.
    Vec3 a = mesh.positions[mesh.indices[0]], c1 = mesh.positions[mesh.indices[1]], c2 = mesh.positions[mesh.indices[2]];
    EXPECT_GT(cross(c1 - a, c2 - a).z, 0.0);
}

TEST(ImportInput, MutatedGlbsAreReadOrRefusedNeverCrash) {
    // Byte flips anywhere in a small skinned GLB (header, JSON, binary): each import must come
    // back, either ok or with an error. Under ASan this also proves the checks read in bounds.
    std::vector<uint8_t> glb = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                             {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
                                   .glb();
    fs::path dir = scratch_dir("ImportInput.Mutated");
    std::mt19937 rng(20240611);
    size_t ok = 0, refused = 0;
    for (int round = 0; round < 400; ++round) {
        std::vector<uint8_t> bytes = glb;
        for (int flips = 1 + int(rng() % 6); flips > 0; --flips) bytes[rng() % bytes.size()] = uint8_t(rng());
        fs::path file = dir / "mutated.glb";
        write_bytes(file, bytes.data(), bytes.size());
        ImportResult r = import_scene(file);
        if (r.ok()) {
            ++ok;
            expect_scene_invariants(r.scene);
        } else {
            ++refused;
            ASSERT_FALSE(r.issues.empty());
        }
    }
    // Both outcomes occur: flips in padding or float data still read, the rest are refused.
    EXPECT_GT(ok, 0u);
    EXPECT_GT(refused, 0u);
}

// ---- glTF structure --------------------------------------------------------------------

TEST(ImportInput, NodeCycleIsRefused) {
    fs::path dir = scratch_dir("ImportInput.Cycle");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});  // node 0, the scene root
    int child = b.node({{"name", "Child"}, {"children", {0}}}, false);
    b.doc["nodes"][0]["children"] = {child};  // root -> Child -> root
    write_text(dir / "cycle.gltf", b.gltf());
    ImportResult r = expect_refused(dir / "cycle.gltf", "GLTF_REFERENCE_INVALID");
    EXPECT_NE(r.issues[0].message.find("cycle"), std::string::npos) << issues_text(r);
}

TEST(ImportInput, NodeWithTwoParentsIsRefused) {
    fs::path dir = scratch_dir("ImportInput.TwoParents");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    b.node({{"name", "P"}, {"children", {0}}}, true);
    b.node({{"name", "Q"}, {"children", {0}}}, true);
    write_text(dir / "parents.gltf", b.gltf());
    ImportResult r = expect_refused(dir / "parents.gltf", "GLTF_REFERENCE_INVALID");
    EXPECT_EQ(r.issues[0].pointer, "/nodes/2/children/0") << issues_text(r);
}

// UniGLTF lists every node in its scene, children too: read under the parent, warned by name.
TEST(ImportInput, SceneRootWithAParentIsReadUnderItsParent) {
    fs::path dir = scratch_dir("ImportInput.RootWithParent");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});  // node 0, listed in the scene
    b.node({{"name", "P"}, {"translation", {0, 5, 0}}, {"children", {0}}}, true);
    write_text(dir / "root.gltf", b.gltf());
    ImportResult r = import_scene(dir / "root.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Issue* warning = find_issue(r, "GLTF_NONCONFORMING");
    ASSERT_NE(warning, nullptr) << issues_text(r);
    EXPECT_NE(warning->message.find("lists node 'Tri_node' as a root, but it is a child of node 'P'"), std::string::npos)
        << warning->message;
    ASSERT_EQ(r.scene.meshes.size(), 1u);
    EXPECT_EQ(r.scene.nodes[size_t(r.scene.meshes[0].node)].name, "Tri_node");
    EXPECT_NEAR(Scene::mesh_bounds(r.scene.meshes[0]).min.y, 5.0, 1e-6);  // under P, once
}

// scenes is optional: every node without a parent is shown, as three.js and Blender show it.
TEST(ImportInput, FileWithoutScenesShowsEveryRootNode) {
    fs::path dir = scratch_dir("ImportInput.NoScenes");
    GltfBuilder b;
    b.triangle("A", kTriangle, {0, 1, 2});
    b.triangle("B", {0, 0, 2, 1, 0, 2, 0, 1, 2}, {0, 1, 2});
    b.doc.erase("scenes");
    b.doc.erase("scene");
    write_text(dir / "no-scenes.gltf", b.gltf());
    ImportResult r = import_scene(dir / "no-scenes.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    EXPECT_EQ(r.scene.meshes.size(), 2u);
    EXPECT_NE(mesh_named(r.scene, "A"), nullptr);
    EXPECT_NE(mesh_named(r.scene, "B"), nullptr);
}

// An extension only used, not required, is ignored: the file must read without it.
TEST(ImportInput, AnUnknownUsedExtensionIsIgnored) {
    fs::path dir = scratch_dir("ImportInput.UsedExtension");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    b.doc["extensionsUsed"] = {"EXT_weft_unknown"};
    b.doc["meshes"][0]["extensions"] = {{"EXT_weft_unknown", {{"anything", 1}}}};
    write_text(dir / "used.gltf", b.gltf());
    ImportResult r = import_scene(dir / "used.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    EXPECT_TRUE(r.issues.empty()) << issues_text(r);
}

// Quantized positions without KHR_mesh_quantization declared: read as the extension means them,
// the deviation named once.
TEST(ImportInput, QuantizedPositionsWithoutTheExtensionAreReadAndWarned) {
    fs::path dir = scratch_dir("ImportInput.QuantizedUndeclared");
    GltfBuilder b;
    // Three normalised short VEC3s, each padded to 8 bytes as attributes must be.
    std::vector<int16_t> three = {0, 0, 0, 0, 32767, 0, 0, 0, 0, 32767, 0, 0};
    const int p3 = b.accessor(three, 5122, "VEC3", 3);
    b.doc["accessors"][size_t(p3)]["normalized"] = true;
    b.doc["bufferViews"][b.doc["accessors"][size_t(p3)]["bufferView"].get<size_t>()]["byteStride"] = 8;
    int m = b.mesh("Q", json::array({{{"attributes", {{"POSITION", p3}}}, {"indices", b.indices({0, 1, 2})}}}));
    b.node({{"name", "Q"}, {"mesh", m}}, true);
    write_text(dir / "q.gltf", b.gltf());
    ImportResult r = import_scene(dir / "q.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Issue* warning = find_issue(r, "GLTF_NONCONFORMING");
    ASSERT_NE(warning, nullptr) << issues_text(r);
    EXPECT_NE(warning->message.find("KHR_mesh_quantization"), std::string::npos) << warning->message;
    const Mesh& mesh = r.scene.meshes[0];
    ASSERT_EQ(mesh.vertex_count(), 3u);
    EXPECT_EQ(mesh.positions[1].x, 1.0);  // 32767 / 32767
    EXPECT_EQ(mesh.positions[2].y, 1.0);
}

TEST(ImportInput, AccessorPastItsBufferIsRefused) {
    fs::path dir = scratch_dir("ImportInput.AccessorBounds");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    b.doc["accessors"][0]["count"] = 1000000;  // 12 MB of positions in a 36-byte view
    write_text(dir / "bounds.gltf", b.gltf());
    ImportResult r = expect_refused(dir / "bounds.gltf", "GLTF_REFERENCE_INVALID");
    EXPECT_EQ(r.issues[0].pointer, "/accessors/0");
}

TEST(ImportInput, ViewPastItsBufferIsRefused) {
    fs::path dir = scratch_dir("ImportInput.ViewBounds");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    b.doc["bufferViews"][1]["byteOffset"] = 1u << 30;
    write_text(dir / "view.gltf", b.gltf());
    expect_refused(dir / "view.gltf", "GLTF_REFERENCE_INVALID");
}

TEST(ImportInput, HugeAccessorWithoutDataIsRefused) {
    fs::path dir = scratch_dir("ImportInput.HugeZeroAccessor");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    // Positions with no bytes behind them: four billion zero vectors for a reader to allocate.
    b.doc["accessors"].push_back({{"componentType", 5126}, {"type", "VEC3"}, {"count", 4000000000u}});
    b.doc["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = b.doc["accessors"].size() - 1;
    write_text(dir / "huge.gltf", b.gltf());
    expect_refused(dir / "huge.gltf", "GLTF_REFERENCE_INVALID");
}

TEST(ImportInput, MissingExternalBuffer) {
    fs::path dir = scratch_dir("ImportInput.MissingBuffer");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    json doc = b.doc;
    doc["buffers"] = json::array({{{"byteLength", b.bin.size()}, {"uri", "tri.bin"}}});
    write_text(dir / "tri.gltf", doc.dump());
    expect_refused(dir / "tri.gltf", "BUFFER_MISSING");
    // With the .bin beside it (and the model opened from another working folder) it loads.
    write_bytes(dir / "tri.bin", b.bin.data(), b.bin.size());
    ImportResult r = import_scene(dir / "tri.gltf");
    EXPECT_TRUE(r.ok()) << issues_text(r);
    // A .bin shorter than declared is refused before Assimp reads past it.
    write_bytes(dir / "tri.bin", b.bin.data(), b.bin.size() / 2);
    expect_refused(dir / "tri.gltf", "BUFFER_MISSING");
}

TEST(ImportInput, DataUriReadsTheSameWithOrWithoutEscapes) {
    // A plain data URI is read as a view into the file's text; one with a JSON escape goes through
    // the JSON parser. Both must give the same scene and the same checks.
    fs::path dir = scratch_dir("ImportInput.DataUriEscapes");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    const std::string plain = b.gltf();
    std::string escaped = plain;
    const size_t at = escaped.find("\"data:");
    ASSERT_NE(at, std::string::npos);
    escaped.replace(at + 1, 1, "\\u0064");  // "data:" spelled "\u0064ata:"
    write_text(dir / "plain.gltf", plain);
    write_text(dir / "escaped.gltf", escaped);
    const ImportResult p = import_scene(dir / "plain.gltf");
    const ImportResult e = import_scene(dir / "escaped.gltf");
    ASSERT_TRUE(p.ok()) << issues_text(p);
    ASSERT_TRUE(e.ok()) << issues_text(e);
    ASSERT_EQ(p.scene.meshes.size(), 1u);
    ASSERT_EQ(e.scene.meshes.size(), 1u);
    EXPECT_EQ(p.scene.meshes[0].positions, e.scene.meshes[0].positions);
    EXPECT_EQ(p.scene.meshes[0].indices, e.scene.meshes[0].indices);
    EXPECT_EQ(p.scene.meshes[0].positions.size(), 3u);
    EXPECT_TRUE(p.external_files.empty());

    // An out-of-range index is found through either path.
    GltfBuilder bad;
    bad.triangle("Tri", kTriangle, {0, 1, 9});
    std::string bad_escaped = bad.gltf();
    bad_escaped.replace(bad_escaped.find("\"data:") + 1, 1, "\\u0064");
    write_text(dir / "bad_plain.gltf", bad.gltf());
    write_text(dir / "bad_escaped.gltf", bad_escaped);
    expect_refused(dir / "bad_plain.gltf", "INDEX_OUT_OF_RANGE");
    expect_refused(dir / "bad_escaped.gltf", "INDEX_OUT_OF_RANGE");

    // Not base64 inside a plain data URI: the buffer is refused, not read as garbage.
    std::string not_base64 = plain;
    const size_t payload = not_base64.find(";base64,") + 8;
    not_base64[payload] = '*';
    write_text(dir / "not_base64.gltf", not_base64);
    expect_refused(dir / "not_base64.gltf", "BUFFER_MISSING");
}

TEST(ImportInput, ExternalFilesAreListedFromTheOneParseEvenWhenRefused) {
    fs::path dir = scratch_dir("ImportInput.ExternalFiles");
    GltfBuilder b;
    b.triangle("Tri", kTriangle, {0, 1, 2});
    json doc = b.doc;
    doc["buffers"] = json::array({{{"byteLength", b.bin.size()}, {"uri", "tri.bin"}}});
    doc["images"] = json::array({{{"uri", "tex.png"}},
                                 {{"uri", "data:image/png;base64,AAAA"}},
                                 {{"uri", "https://example.invalid/remote.png"}},
                                 {{"uri", "tex.png"}}});
    write_text(dir / "tri.gltf", doc.dump());
    const std::vector<fs::path> expected = {dir / "tex.png", dir / "tri.bin"};
    // The buffer is missing: refused, and still listed (a build system must watch for it).
    const ImportResult missing = expect_refused(dir / "tri.gltf", "BUFFER_MISSING");
    EXPECT_EQ(missing.external_files, expected);
    write_bytes(dir / "tri.bin", b.bin.data(), b.bin.size());
    // The image is missing: an error naming it (the grown model would lose it), still listed.
    const ImportResult no_image = expect_refused(dir / "tri.gltf", "REFERENCED_FILE_MISSING");
    EXPECT_NE(issues_text(no_image).find("image 0 file 'tex.png' does not exist"), std::string::npos) << issues_text(no_image);
    EXPECT_EQ(no_image.external_files, expected);
    write_text(dir / "tex.png", "not really a png: nothing decodes it on import");
    const std::vector<uint8_t> bytes = read_bytes(dir / "tri.gltf");
    const ImportResult r = import_scene(dir / "tri.gltf", bytes);
    EXPECT_TRUE(r.ok()) << issues_text(r);
    EXPECT_EQ(r.external_files, expected);
    // Bytes read elsewhere keep the file's limits.
    EXPECT_EQ(count_issues(import_scene(dir / "tri.gltf", std::span<const uint8_t>{}), "FILE_EMPTY"), 1u);
    ImportOptions small;
    small.max_file_bytes = 10;
    EXPECT_EQ(count_issues(import_scene(dir / "tri.gltf", bytes, small), "FILE_TOO_LARGE"), 1u);
}

// ---- node mapping and declared springs -----------------------------------------------------

TEST(ImportInput, UnnamedJointsAndSeveralRootsMapByStructure) {
    fs::path dir = scratch_dir("ImportInput.UnnamedJoints");
    GltfBuilder b = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    b.doc["nodes"][0].erase("name");  // the joint: Assimp calls its bone "bone_0"
    // A VRM 1.0 spring on that unnamed joint, one on a node that does not exist.
    b.doc["extensions"]["VRMC_springBone"] = {
        {"specVersion", "1.0"},
        {"springs", json::array({{{"name", "tail"}, {"joints", json::array({{{"node", 0}}, {{"node", 99}}})}}})}};
    write_text(dir / "unnamed.gltf", b.gltf());
    ImportResult r = import_scene(dir / "unnamed.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Scene& s = r.scene;
    EXPECT_EQ(s.nodes[0].name, "ROOT");  // Assimp's node above several roots
    ASSERT_EQ(s.skins.size(), 1u);
    const int joint = s.skins[0].joints[0];
    EXPECT_EQ(s.nodes[size_t(s.nodes[size_t(joint)].parent)].name, "Armature");
    EXPECT_NEAR(Scene::mesh_bounds(s.meshes[0]).size().x, 1.0, 1e-5);
    ASSERT_EQ(s.springs.size(), 1u);
    EXPECT_EQ(s.springs[0].name, "tail");
    EXPECT_EQ(s.springs[0].joints, std::vector<int>{joint});
    const Issue* issue = find_issue(r, "SPRING_INVALID");
    ASSERT_NE(issue, nullptr);
    EXPECT_EQ(issue->severity, Severity::warning);
    EXPECT_NE(issue->message.find("joint 1"), std::string::npos) << issue->message;
}

// A generated VRM 1.0 file: VRMC_springBone's sphere and capsule colliders keep their shapes, each on
// its node with its radius, the capsule from its offset to its tail.
TEST(ImportInput, VrmcSpringBoneCapsuleStaysACapsule) {
    fs::path dir = scratch_dir("ImportInput.VrmcCapsule");
    GltfBuilder b = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    b.doc["extensionsUsed"] = json::array({"VRMC_vrm", "VRMC_springBone"});
    b.doc["extensions"]["VRMC_vrm"] = {{"specVersion", "1.0"}};
    b.doc["extensions"]["VRMC_springBone"] = {
        {"specVersion", "1.0"},
        {"colliders", json::array({{{"node", 0}, {"shape", {{"sphere", {{"offset", {0, 0.1, 0}}, {"radius", 0.05}}}}}},
                                   {{"node", 0},
                                    {"shape", {{"capsule", {{"offset", {-0.1, 0.2, 0.01}}, {"radius", 0.03}, {"tail", {0.1, 0.25, 0.01}}}}}}}})},
        {"colliderGroups", json::array({{{"name", "body"}, {"colliders", {0, 1}}}})},
        {"springs", json::array({{{"name", "tail"}, {"joints", json::array({{{"node", 0}}})}, {"colliderGroups", {0}}}})}};
    write_text(dir / "capsule.gltf", b.gltf());
    ImportResult r = import_scene(dir / "capsule.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Scene& s = r.scene;
    EXPECT_EQ(s.format, "vrm");
    ASSERT_EQ(s.colliders.size(), 2u);
    const int joint = s.skins.at(0).joints.at(0);
    const SpringCollider& sphere = s.colliders[0];
    EXPECT_EQ(sphere.node, joint);
    EXPECT_FALSE(sphere.tail.has_value());
    EXPECT_DOUBLE_EQ(sphere.radius, 0.05);
    const SpringCollider& capsule = s.colliders[1];
    EXPECT_EQ(capsule.node, joint);
    EXPECT_DOUBLE_EQ(capsule.radius, 0.03);
    EXPECT_NEAR(distance(capsule.offset, {-0.1, 0.2, 0.01}), 0, 1e-12);
    ASSERT_TRUE(capsule.tail.has_value());
    EXPECT_NEAR(distance(*capsule.tail, {0.1, 0.25, 0.01}), 0, 1e-12);
    ASSERT_EQ(s.springs.size(), 1u);
    EXPECT_EQ(s.springs[0].collider_nodes, std::vector<int>{joint});
    for (const std::string& w : s.warnings) EXPECT_EQ(w.find("capsule"), std::string::npos) << w;
}

// ---- other formats ------------------------------------------------------------------------

TEST(ImportInput, ObjWithMaterialLibraryThroughAssimp) {
    fs::path dir = scratch_dir("ImportInput.Obj");
    write_text(dir / "cloth.mtl", "newmtl Flag_Silk\nKd 1 0 0\n");
    write_text(dir / "flag.obj", "mtllib cloth.mtl\no Flag\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nusemtl Flag_Silk\nf 1 2 3 4\n");
    ImportResult r = import_scene(dir / "flag.obj");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.format, "obj");
    EXPECT_EQ(s.materials, std::vector<std::string>{"Flag_Silk"});  // found beside the .obj
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].triangle_count(), 2u);  // the quad, triangulated
    EXPECT_EQ(s.meshes[0].vertex_count(), 4u);
}

// ---- units and axes ------------------------------------------------------------------------

/// A minimal ASCII FBX: a 40 x 175 cm quad standing on the ground, Z up, centimetres.
const char* kCentimetreFbx = R"(; FBX 7.4.0 project file
FBXHeaderExtension:  {
	FBXHeaderVersion: 1003
	FBXVersion: 7400
}
GlobalSettings:  {
	Version: 1000
	Properties70:  {
		P: "UpAxis", "int", "Integer", "",2
		P: "UpAxisSign", "int", "Integer", "",1
		P: "FrontAxis", "int", "Integer", "",1
		P: "FrontAxisSign", "int", "Integer", "",-1
		P: "CoordAxis", "int", "Integer", "",0
		P: "CoordAxisSign", "int", "Integer", "",1
		P: "UnitScaleFactor", "double", "Number", "",1
	}
}
Objects:  {
	Geometry: 1000, "Geometry::Body", "Mesh" {
		Vertices: *12 {
			a: -20,0,0,20,0,0,20,0,175,-20,0,175
		}
		PolygonVertexIndex: *4 {
			a: 0,1,2,-4
		}
		GeometryVersion: 124
	}
	Model: 2000, "Model::Body", "Mesh" {
		Version: 232
		Properties70:  {
		}
	}
}
Connections:  {
	C: "OO",2000,0
	C: "OO",1000,2000
}
)";

TEST(ImportInput, FbxInCentimetresZUpComesOutInMetresYUp) {
    fs::path dir = scratch_dir("ImportInput.FbxCentimetres");
    write_text(dir / "standing.fbx", kCentimetreFbx);
    ImportResult r = import_scene(dir / "standing.fbx");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const Scene& s = r.scene;
    expect_scene_invariants(s);
    EXPECT_EQ(s.format, "fbx");
    EXPECT_DOUBLE_EQ(s.unit_scale, 0.01);
    EXPECT_EQ(s.up_axis, "Z");
    EXPECT_EQ(count_issues(r, "UNITS_CONVERTED"), 1u);
    EXPECT_EQ(count_issues(r, "AXES_CONVERTED"), 1u);
    Bounds b = s.bounds();
    EXPECT_NEAR(b.size().y, 1.75, 1e-6);  // a person's height, not 175
    EXPECT_NEAR(b.size().x, 0.40, 1e-6);
    EXPECT_NEAR(b.size().z, 0.0, 1e-6);
    EXPECT_NEAR(b.min.y, 0.0, 1e-6);
    ASSERT_EQ(s.meshes.size(), 1u);
    EXPECT_EQ(s.meshes[0].triangle_count(), 2u);
}

// Budgets (docs/bad-inputs.md#budgets). 50,000 nodes instancing one 289-vertex mesh (a 2 MB file)
// took `weft inspect` past 3 GB: the copies are counted and the model refused before one is made,
// naming the mesh instanced most.
GltfBuilder instanced_grid(size_t nodes) {
    GltfBuilder b;
    std::vector<float> positions;
    std::vector<uint16_t> index;
    for (int y = 0; y < 17; ++y)
        for (int x = 0; x < 17; ++x) positions.insert(positions.end(), {0.01f * float(x), 0.01f * float(y), 0});
    for (uint16_t y = 0; y < 16; ++y)
        for (uint16_t x = 0; x < 16; ++x) {
            const uint16_t a = uint16_t(y * 17 + x);
            index.insert(index.end(), {a, uint16_t(a + 1), uint16_t(a + 17), uint16_t(a + 1), uint16_t(a + 18), uint16_t(a + 17)});
        }
    const int m = b.mesh("Tile", json::array({{{"attributes", {{"POSITION", b.vec3(positions)}}},
                                                {"indices", b.indices(index)},
                                                {"material", b.material("Cloth")}}}));
    for (size_t n = 0; n < nodes; ++n) b.node({{"mesh", m}, {"translation", {double(n % 100), double(n / 100), 0}}}, true);
    return b;
}

TEST(ImportBudgets, FiftyThousandInstancesOfOneMeshAreRefusedBeforeTheyAreCopied) {
    const fs::path dir = scratch_dir("ImportBudgets.Instances");
    write_text(dir / "instances.gltf", instanced_grid(50'000).gltf());
    const ImportResult r = expect_refused(dir / "instances.gltf", "INSTANCES_OVER_BUDGET");
    const Issue* issue = find_issue(r, "INSTANCES_OVER_BUDGET");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("50000 times"), std::string::npos) << issue->message;
    EXPECT_NE(issue->message.find("over the budget of 10000"), std::string::npos) << issue->message;
    EXPECT_NE(issue->message.find("mesh 'Tile' at 50000 nodes holds 14450000 vertices"), std::string::npos) << issue->message;
    EXPECT_TRUE(r.scene.meshes.empty());  // nothing copied
}

TEST(ImportBudgets, VerticesPastTheBudgetAreRefusedWithinTheInstanceBudget) {
    const fs::path dir = scratch_dir("ImportBudgets.Vertices");
    write_text(dir / "vertices.gltf", instanced_grid(7'000).gltf());  // 7,000 copies of 289: 2,023,000 vertices
    const ImportResult r = expect_refused(dir / "vertices.gltf", "VERTICES_OVER_BUDGET");
    EXPECT_EQ(find_issue(r, "INSTANCES_OVER_BUDGET"), nullptr);
    EXPECT_NE(find_issue(r, "VERTICES_OVER_BUDGET")->message.find("hold 2023000 vertices, over the budget of 2000000"), std::string::npos)
        << issues_text(r);
    // Within both budgets the same mesh is read, one scene mesh per node.
    write_text(dir / "fits.gltf", instanced_grid(6'000).gltf());
    const ImportResult fits = import_scene(dir / "fits.gltf");
    ASSERT_TRUE(fits.ok()) << issues_text(fits);
    EXPECT_EQ(fits.scene.meshes.size(), 6'000u);
}

/// A triangle on a node with `clips` clips of `keys` translation keys each, every clip a channel on
/// the node (the same sampler: keys are not bounded by the file's bytes).
GltfBuilder animated_triangle(const std::vector<size_t>& keys) {
    GltfBuilder b;
    b.triangle("Flag", kTriangle, {0, 1, 2});
    json animations = json::array();
    for (size_t c = 0; c < keys.size(); ++c) {
        std::vector<float> times, moves;
        for (size_t k = 0; k < keys[c]; ++k) {
            times.push_back(float(k) / 30.0f);
            moves.insert(moves.end(), {0, 0.01f * float(k), 0});
        }
        const int input = b.accessor(times, 5126, "SCALAR", times.size());
        b.doc["accessors"][size_t(input)]["min"] = {0.0};
        b.doc["accessors"][size_t(input)]["max"] = {times.back()};
        const int output = b.vec3(moves);
        animations.push_back({{"name", "Clip" + std::to_string(c)},
                              {"samplers", json::array({{{"input", input}, {"output", output}}})},
                              {"channels", json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}}})}});
    }
    b.doc["animations"] = animations;
    return b;
}

TEST(ImportBudgets, AClipPastTheKeyBudgetIsDroppedByNameAndTheOthersKept) {
    const fs::path dir = scratch_dir("ImportBudgets.ClipKeys");
    write_text(dir / "clips.gltf", animated_triangle({40, 700, 50}).gltf());
    ImportOptions options;
    options.max_clip_keys = 600;  // the default's 4,000,000 scaled down: the rule is the same
    const ImportResult r = import_scene(dir / "clips.gltf", options);
    ASSERT_TRUE(r.ok()) << issues_text(r);
    ASSERT_EQ(r.scene.clips.size(), 2u);
    EXPECT_EQ(r.scene.clips[0].name, "Clip0");
    EXPECT_EQ(r.scene.clips[1].name, "Clip2");  // after the dropped one: the rest of the budget is its
    EXPECT_EQ(r.scene.animations, (std::vector<std::string>{"Clip0", "Clip2"}));
    EXPECT_EQ(count_issues(r, "CLIP_KEYS_OVER_BUDGET"), 1u) << issues_text(r);
    const Issue* issue = find_issue(r, "CLIP_KEYS_OVER_BUDGET");
    ASSERT_NE(issue, nullptr);
    EXPECT_EQ(issue->severity, Severity::warning);
    // Clip0 took 42 (its 40 translations, a rest rotation and a rest scale): 558 were left.
    EXPECT_NE(issue->message.find("clip 'Clip1' has more than 558 keys (counted per channel), past what is left of the "
                                  "model's budget of 600 keys"),
              std::string::npos)
        << issue->message;
    EXPECT_EQ(issue->pointer, "/animations/1");
    // At the default budget the three are read.
    EXPECT_EQ(import_scene(dir / "clips.gltf").scene.clips.size(), 3u);
}

// A VRM collider of radius 1e300 was taken as it was; the body fit keeps the colliders, and every
// validation runs against them. One larger than the model or far outside it is skipped by name; a
// spring's out-of-range numbers are named and kept (weft writes the file's springs back unchanged).
TEST(ImportBudgets, SpringCollidersAndSettingsAreCheckedAgainstTheModelsSize) {
    fs::path dir = scratch_dir("ImportBudgets.Colliders");
    GltfBuilder b = skinned_strip({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
    b.doc["extensionsUsed"] = json::array({"VRMC_vrm", "VRMC_springBone"});
    b.doc["extensions"]["VRMC_vrm"] = {{"specVersion", "1.0"}};
    b.doc["extensions"]["VRMC_springBone"] = {
        {"specVersion", "1.0"},
        {"colliders", json::array({{{"node", 0}, {"shape", {{"sphere", {{"offset", {0, 0.1, 0}}, {"radius", 1e300}}}}}},
                                   {{"node", 0}, {"shape", {{"sphere", {{"offset", {0, 1e6, 0}}, {"radius", 0.05}}}}}},
                                   {{"node", 0}, {"shape", {{"sphere", {{"offset", {0, 0.1, 0}}, {"radius", 0.05}}}}}}})},
        {"colliderGroups", json::array({{{"name", "body"}, {"colliders", {0, 1, 2}}}})},
        {"springs", json::array({{{"name", "tail"},
                                  {"joints", json::array({{{"node", 0}, {"stiffness", -4}, {"dragForce", 7}, {"hitRadius", 1e300}}})},
                                  {"colliderGroups", {0}}}})}};
    write_text(dir / "colliders.gltf", b.gltf());
    const ImportResult r = import_scene(dir / "colliders.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    ASSERT_EQ(r.scene.colliders.size(), 1u) << issues_text(r);  // the third, 5 m on a bone 100 m up
    EXPECT_DOUBLE_EQ(r.scene.colliders[0].radius, 0.05);
    EXPECT_NEAR(r.scene.colliders[0].offset.y, 0.1, 1e-12);
    const std::string text = issues_text(r);
    EXPECT_EQ(count_issues(r, "SPRING_OUT_OF_RANGE"), 5u) << text;
    EXPECT_NE(text.find("spring collider on node 'Bone': radius 1e+300 (1e+302 m on its node) is larger than the whole model"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("spring collider on node 'Bone': end (0, 1e+06, 0) lies"), std::string::npos) << text;
    EXPECT_NE(text.find("joint 0: stiffness -4 is negative; kept as the file has it"), std::string::npos) << text;
    EXPECT_NE(text.find("joint 0: dragForce 7 is past 1"), std::string::npos) << text;
    EXPECT_NE(text.find("joint 0: hitRadius 1e+300 is larger than the whole model"), std::string::npos) << text;
    for (const Issue& i : r.issues)
        if (i.code == "SPRING_OUT_OF_RANGE") EXPECT_EQ(i.severity, Severity::warning);
}

}  // namespace
}  // namespace weft::test

namespace weft::test {
namespace {

/// A 1 m square of 10 x 10 vertices (81 quads) named "Grid" on a root node, its mesh index returned;
/// `stray` moves its last vertex there.
int grid(GltfBuilder& b, std::optional<Vec3> stray = {}) {
    std::vector<float> positions;
    std::vector<uint16_t> index;
    for (int y = 0; y < 10; ++y)
        for (int x = 0; x < 10; ++x) positions.insert(positions.end(), {float(x) / 9, float(y) / 9, 0});
    if (stray) {
        positions[positions.size() - 3] = float(stray->x);
        positions[positions.size() - 2] = float(stray->y);
        positions[positions.size() - 1] = float(stray->z);
    }
    for (uint16_t y = 0; y < 9; ++y)
        for (uint16_t x = 0; x < 9; ++x) {
            const uint16_t a = uint16_t(y * 10 + x);
            index.insert(index.end(), {a, uint16_t(a + 1), uint16_t(a + 10), uint16_t(a + 1), uint16_t(a + 11), uint16_t(a + 10)});
        }
    return b.triangle("Grid", positions, index);
}

// docs/bad-inputs.md#numbers-from-a-file: one vertex at 1e30 made the model 1e30 m across, and every
// check made against its size (colliders, hit radii, clip keys) meaningless. The size is measured
// without the few most extreme vertices, so the stray vertex is refused by name against the 1.41 m
// of the rest; a vertex 5 m off (a tail, a prop) is part of the model.
TEST(AuthoredNumbers, AStrayVertexFarOutsideTheModelIsRefusedByName) {
    const fs::path dir = scratch_dir("AuthoredNumbers.StrayVertex");
    GltfBuilder stray;
    grid(stray, Vec3{1e30, 0, 0});
    write_text(dir / "stray.gltf", stray.gltf());
    const ImportResult r = expect_refused(dir / "stray.gltf", "VERTEX_OUT_OF_RANGE");
    const Issue* issue = find_issue(r, "VERTEX_OUT_OF_RANGE");
    ASSERT_NE(issue, nullptr);
    EXPECT_NE(issue->message.find("mesh 'Grid' (node 'Grid_node'): vertex 99 at (1e+30, 0, 0): it lies 1e+30 m outside the rest "
                                  "of the model, which is 1.41421 m across: more than 1000 times its size"),
              std::string::npos)
        << issue->message;
    EXPECT_EQ(issue->pointer, "/meshes/Grid/vertices/99");
    GltfBuilder near;
    grid(near, Vec3{5, 0, 0});
    write_text(dir / "near.gltf", near.gltf());
    const ImportResult ok = import_scene(dir / "near.gltf");
    EXPECT_TRUE(ok.ok()) << issues_text(ok);
    EXPECT_EQ(find_issue(ok, "VERTEX_OUT_OF_RANGE"), nullptr);
}

// A rotation that is no unit quaternion sheared the node (x = w = 1 turned y into -y); a zero scale
// collapses what a node holds; a node 1e9 m off is no part of a character. Each named, the model kept;
// the rotation normalised, so the node turns 90 degrees about x.
TEST(AuthoredNumbers, NodeTransformsOutsideTheirRangeAreNamed) {
    const fs::path dir = scratch_dir("AuthoredNumbers.Nodes");
    GltfBuilder b;
    grid(b);
    b.node({{"name", "Sheared"}, {"rotation", {1, 0, 0, 1}}}, true);
    b.node({{"name", "Flat"}, {"scale", {0, 1, 1}}}, true);
    b.node({{"name", "Away"}, {"translation", {0, 1e9, 0}}}, true);
    write_text(dir / "nodes.gltf", b.gltf());
    const ImportResult r = import_scene(dir / "nodes.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const std::string text = issues_text(r);
    EXPECT_EQ(count_issues(r, "TRANSFORM_OUT_OF_RANGE"), 3u) << text;
    EXPECT_NE(text.find("node 'Sheared': rotation length 1.41421 is not 1 (within 0.001): normalised"), std::string::npos) << text;
    EXPECT_NE(text.find("node 'Flat': scale x 0 is zero (below 1e-6): what the node holds collapses onto a plane; kept"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("node 'Away': its origin lies 1e+09 m outside the model, which is 1.41421 m across"), std::string::npos)
        << text;
    for (const Issue& i : r.issues)
        if (i.code == "TRANSFORM_OUT_OF_RANGE") EXPECT_EQ(i.severity, Severity::warning);
    for (const Node& node : r.scene.nodes)
        if (node.name == "Sheared") {
            const Vec3 y = node.world.transform_vector({0, 1, 0});
            EXPECT_NEAR(y.x, 0, 1e-6);
            EXPECT_NEAR(y.y, 0, 1e-6);
            EXPECT_NEAR(y.z, 1, 1e-6);  // a 90 degree turn about x, no shear
        }
}

// A clip whose keys run backwards in time, whose rotations are not unit quaternions, or whose
// translation throws a node 1e9 m: named once per clip, the times sorted, the rotations normalised,
// the thrown keys skipped; the clip's other keys kept.
TEST(AuthoredNumbers, ClipKeysOutsideTheirRangeAreNamedPerClip) {
    const fs::path dir = scratch_dir("AuthoredNumbers.Clip");
    GltfBuilder b;
    grid(b);
    const std::vector<float> times = {0, 0.5f, 0.25f, 1};
    const int input = b.accessor(times, 5126, "SCALAR", times.size());
    const int moves = b.vec3({0, 0, 0, 0, 0.1f, 0, 0, 1e9f, 0, 0, 0.2f, 0});
    const int turns = b.accessor(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 3}, 5126, "VEC4", 4);
    b.doc["animations"] = json::array(
        {{{"name", "Throw"},
          {"samplers", json::array({{{"input", input}, {"output", moves}}, {{"input", input}, {"output", turns}}})},
          {"channels", json::array({{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}},
                                    {{"sampler", 1}, {"target", {{"node", 0}, {"path", "rotation"}}}}})}}});
    write_text(dir / "clip.gltf", b.gltf());
    const ImportResult r = import_scene(dir / "clip.gltf");
    ASSERT_TRUE(r.ok()) << issues_text(r);
    const std::string text = issues_text(r);
    ASSERT_EQ(count_issues(r, "CLIP_KEY_OUT_OF_RANGE"), 1u) << text;
    const Issue* issue = find_issue(r, "CLIP_KEY_OUT_OF_RANGE");
    EXPECT_EQ(issue->severity, Severity::warning);
    EXPECT_NE(issue->message.find("clip 'Throw': 2 keys out of time order (sorted); 2 rotation keys not of unit length (normalised); "
                                  "1 translation keys skipped: a translation key at 0.25 s moves node 'Grid_node' by 1e+09 m "
                                  "from its rest, more than 10000 times the model's size (1.41421 m)"),
              std::string::npos)
        << issue->message;
    ASSERT_EQ(r.scene.clips.size(), 1u);
    ASSERT_EQ(r.scene.clips[0].channels.size(), 1u);
    const ClipChannel& ch = r.scene.clips[0].channels[0];
    ASSERT_EQ(ch.translation.size(), 3u);
    EXPECT_DOUBLE_EQ(ch.translation[1].time, 0.5);  // 0, 0.5, 1: the thrown key at 0.25 gone, the rest in order
    EXPECT_NEAR(ch.translation[1].value.y, 0.1, 1e-6);
    for (const QuatKey& k : ch.rotation) EXPECT_NEAR(k.value.w, 1, 1e-12);
}

}  // namespace
}  // namespace weft::test
