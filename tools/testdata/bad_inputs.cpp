// testdata/bad/: one file per kind of input the importer (or, for the last three, the sheet
// builder) must refuse with a named issue and never a crash (issue 2 "Import", issue 6
// "Reliability"). Most start from one small valid triangle glTF and break exactly one thing.
#include <cmath>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "scene/gltf_write.h"
#include "testdata/fixtures.h"
#include "testdata/mesh_build.h"

namespace weft::testdata {

namespace {

using Json = nlohmann::json;

std::vector<uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

template <class T>
void append(std::vector<uint8_t>& bin, const std::vector<T>& values) {
    while (bin.size() % 4) bin.push_back(0);
    const auto* p = reinterpret_cast<const uint8_t*>(values.data());
    bin.insert(bin.end(), p, p + values.size() * sizeof(T));
}

/// A one-triangle glTF (positions, 16-bit indices, material `Cloth`), as JSON and its buffer,
/// for the defects to be made in.
struct Tiny {
    Json doc;
    std::vector<uint8_t> bin;
};

Json view(size_t offset, size_t length, int target) {
    Json v = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}};
    if (target) v["target"] = target;
    return v;
}

Tiny tiny_triangle(std::vector<float> positions = {0, 0, 0, 1, 0, 0, 0, 1, 0},
                   std::vector<uint16_t> indices = {0, 1, 2}) {
    Tiny t;
    append(t.bin, positions);
    const size_t index_offset = (t.bin.size() + 3) / 4 * 4;
    append(t.bin, indices);
    while (t.bin.size() % 4) t.bin.push_back(0);
    Json lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < positions.size(); ++i) {
        if (!std::isfinite(positions[i])) continue;  // a broken value stays out of min/max
        lo[i % 3] = std::min(lo[i % 3].get<double>(), double(positions[i]));
        hi[i % 3] = std::max(hi[i % 3].get<double>(), double(positions[i]));
    }
    t.doc = {
        {"asset", {{"version", "2.0"}, {"generator", "weft_gen_testdata"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {0}}}}},
        {"nodes", {{{"name", "Triangle"}, {"mesh", 0}}}},
        {"meshes", {{{"name", "Triangle"}, {"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}, {"material", 0}}}}}}},
        {"materials", {{{"name", "Cloth"}}}},
        {"accessors",
         {{{"bufferView", 0}, {"componentType", 5126}, {"count", positions.size() / 3}, {"type", "VEC3"}, {"min", lo}, {"max", hi}},
          {{"bufferView", 1}, {"componentType", 5123}, {"count", indices.size()}, {"type", "SCALAR"}}}},
        {"bufferViews", {view(0, positions.size() * 4, 34962), view(index_offset, indices.size() * 2, 34963)}},
        {"buffers", {{{"byteLength", t.bin.size()}}}},
    };
    return t;
}

std::vector<uint8_t> glb(const Tiny& t) { return pack_glb(t.doc.dump(), t.bin); }

std::string base64(const std::vector<uint8_t>& in) {
    static constexpr char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < in.size(); i += 3) {
        const uint32_t n = (uint32_t(in[i]) << 16) | (i + 1 < in.size() ? uint32_t(in[i + 1]) << 8 : 0) |
                           (i + 2 < in.size() ? uint32_t(in[i + 2]) : 0);
        out += table[(n >> 18) & 63];
        out += table[(n >> 12) & 63];
        out += i + 1 < in.size() ? table[(n >> 6) & 63] : '=';
        out += i + 2 < in.size() ? table[n & 63] : '=';
    }
    return out;
}

/// The tiny triangle as a .gltf text with its buffer inline (a data URI).
std::vector<uint8_t> gltf_embedded(Tiny t) {
    t.doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(t.bin);
    return bytes_of(t.doc.dump(1, '\t') + "\n");
}

void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t get_u32(const std::vector<uint8_t>& bytes, size_t at) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(bytes[at + i]) << (8 * i);
    return v;
}

/// The tiny triangle skinned to two joints ("Root" -> "Bone"), with the given JOINTS_0 rows.
Tiny tiny_skinned(const std::vector<uint8_t>& joints, const std::vector<float>& inverse_binds, Json skin_joints) {
    Tiny t = tiny_triangle();
    const std::vector<float> weights{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    const size_t joints_offset = t.bin.size();
    append(t.bin, joints);
    const size_t weights_offset = t.bin.size();
    append(t.bin, weights);
    const size_t ibm_offset = t.bin.size();
    append(t.bin, inverse_binds);
    t.doc["buffers"][0]["byteLength"] = t.bin.size();
    t.doc["bufferViews"].push_back(view(joints_offset, joints.size(), 34962));
    t.doc["bufferViews"].push_back(view(weights_offset, weights.size() * 4, 34962));
    t.doc["bufferViews"].push_back(view(ibm_offset, inverse_binds.size() * 4, 0));
    t.doc["accessors"].push_back({{"bufferView", 2}, {"componentType", 5121}, {"count", 3}, {"type", "VEC4"}});
    t.doc["accessors"].push_back({{"bufferView", 3}, {"componentType", 5126}, {"count", 3}, {"type", "VEC4"}});
    t.doc["accessors"].push_back({{"bufferView", 4}, {"componentType", 5126}, {"count", inverse_binds.size() / 16}, {"type", "MAT4"}});
    auto& prim = t.doc["meshes"][0]["primitives"][0];
    prim["attributes"]["JOINTS_0"] = 2;
    prim["attributes"]["WEIGHTS_0"] = 3;
    t.doc["scenes"][0]["nodes"] = {0, 1};
    t.doc["nodes"][0]["skin"] = 0;
    t.doc["nodes"].push_back({{"name", "Root"}, {"children", {2}}});
    t.doc["nodes"].push_back({{"name", "Bone"}, {"translation", {0, 0.5, 0}}});
    t.doc["skins"] = {{{"joints", skin_joints}, {"inverseBindMatrices", 4}}};
    return t;
}

std::vector<float> identity_and_bone_ibm() {
    return {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,  //
            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5f, 0, 1};
}

/// A flat sheet scene on material `Cape` (a garment slot) at node `Sheet`, for the sheet builder.
Scene sheet_scene(const MeshBuilder& sheet) {
    Scene scene;
    add_node(scene, "Sheet", -1, Mat4::identity());
    scene.materials = {"Cape"};
    Mesh mesh = sheet.finish("Sheet", 0, 0, -1);
    mesh.node_name = "Sheet";
    scene.meshes.push_back(std::move(mesh));
    return scene;
}

/// A (columns x rows)-quad sheet in the XY plane, 10 cm quads, wound to face +Z.
MeshBuilder grid(int columns, int rows) {
    MeshBuilder b;
    for (int j = 0; j <= rows; ++j)
        for (int i = 0; i <= columns; ++i)
            b.add_vertex({0.1 * i, 1.0 - 0.1 * j, 0}, {double(i) / columns, double(j) / rows});
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < columns; ++i) {
            const uint32_t a = j * (columns + 1) + i, c = a + columns + 1;
            b.add_triangle(a, c, a + 1);
            b.add_triangle(a + 1, c, c + 1);
        }
    return b;
}

}  // namespace

std::vector<FixtureFile> bad_fixtures() {
    std::vector<FixtureFile> out;
    auto add = [&](std::string name, std::vector<uint8_t> bytes, std::string purpose) {
        out.push_back({"bad/" + std::move(name), std::move(bytes), std::move(purpose)});
    };
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();

    // The file and its container.
    add("empty.glb", {}, "zero bytes: FILE_EMPTY");
    add("not_a_model.glb", bytes_of("This is a text file with a model's extension, not a model.\n"),
        "plain text named .glb: UNKNOWN_FORMAT");
    {
        std::vector<uint8_t> b = glb(tiny_triangle());
        b.resize(b.size() * 3 / 5);
        add("truncated.glb", std::move(b), "a GLB cut at 60%: the header's length runs past the end: GLB_TRUNCATED");
    }
    {
        std::vector<uint8_t> b = glb(tiny_triangle());
        std::memcpy(b.data(), "glTX", 4);
        add("wrong_magic.glb", std::move(b), "first four bytes 'glTX', not 'glTF': UNKNOWN_FORMAT");
    }
    {
        std::vector<uint8_t> b = glb(tiny_triangle());
        put_u32(b, 4, 1);
        add("wrong_version.glb", std::move(b), "GLB container version 1 (glTF 2.0 needs 2): GLB_MALFORMED");
    }
    {
        std::vector<uint8_t> b = glb(tiny_triangle());
        const size_t bin_chunk = 20 + get_u32(b, 12);
        put_u32(b, bin_chunk, get_u32(b, bin_chunk) + 4096);
        add("chunk_length_past_end.glb", std::move(b),
            "the BIN chunk claims 4 KiB more than the file holds (the header's total is right): GLB_TRUNCATED");
    }
    {
        std::vector<uint8_t> b = {'K', 'a', 'y', 'd', 'a', 'r', 'a', ' ', 'F', 'B', 'X', ' ', 'B', 'i', 'n', 'a', 'r', 'y', ' ', ' ', 0, 0x1A, 0};
        const std::vector<uint8_t> record = {0x40, 0x1C, 0, 0, 0x10, 0, 0, 0, 0x64, 0, 0, 0, 0x12, 'F', 'B', 'X'};
        b.insert(b.end(), {0xE8, 0x1C, 0, 0});  // version 7400
        b.insert(b.end(), record.begin(), record.end());
        add("truncated_binary.fbx", std::move(b),
            "a binary FBX header and the start of a node record whose end offset lies past the file: IMPORT_FAILED");
    }
    add("bad_json.gltf", [] {
        std::vector<uint8_t> b = gltf_embedded(tiny_triangle());
        b.resize(b.size() / 2);
        return b;
    }(), "a .gltf whose JSON stops half way: GLTF_JSON_INVALID");

    // References inside the document.
    {
        Tiny t = tiny_triangle();
        t.doc["buffers"][0]["uri"] = "missing_external_buffer.bin";
        add("missing_external_buffer.gltf", bytes_of(t.doc.dump(1, '\t') + "\n"),
            "names missing_external_buffer.bin, which does not exist: BUFFER_MISSING");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["buffers"][0]["uri"] = "external_buffer_too_short.bin";
        std::vector<uint8_t> half(t.bin.begin(), t.bin.begin() + static_cast<long>(t.bin.size() / 2));
        add("external_buffer_too_short.gltf", bytes_of(t.doc.dump(1, '\t') + "\n"),
            "its .bin holds half the bytes the buffer declares: BUFFER_MISSING");
        add("external_buffer_too_short.bin", std::move(half), "the short buffer of external_buffer_too_short.gltf");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["buffers"][0]["uri"] = "data:application/octet-stream;base64,@@not*base64@@";
        add("bad_base64_buffer.gltf", bytes_of(t.doc.dump(1, '\t') + "\n"),
            "an inline buffer whose data URI is not base64: GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["bufferViews"][0]["byteOffset"] = t.bin.size() + 64;
        add("buffer_view_out_of_range.glb", glb(t), "the positions' buffer view starts past the buffer: GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["accessors"][0]["count"] = 0x7FFFFFFF;
        add("huge_accessor_count.glb", glb(t),
            "POSITION count 2^31-1 over a 36-byte view (24 GiB if believed): GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["nodes"][0]["mesh"] = 3;
        add("mesh_index_out_of_range.glb", glb(t), "a node instances mesh 3 of 1: GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["nodes"][0]["children"] = {0};
        add("node_is_its_own_child.gltf", gltf_embedded(t), "node 0 lists itself as its child: GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["nodes"][0]["children"] = {1};
        t.doc["nodes"].push_back({{"name", "Child"}, {"children", {0}}});
        add("node_cycle.gltf", gltf_embedded(t),
            "node 1 (child of node 0) lists its ancestor node 0 as a child: GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_skinned({0, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0}, identity_and_bone_ibm(), {1, 2});
        add("joint_index_out_of_range.glb", glb(t), "JOINTS_0 names joint 5 of a 2-joint skin: JOINT_OUT_OF_RANGE");
    }
    {
        Tiny t = tiny_skinned({0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, identity_and_bone_ibm(), {1, 42});
        add("skin_joint_not_a_node.glb", glb(t), "the skin's second joint is node 42 of 3: GLTF_REFERENCE_INVALID");
    }
    {
        std::vector<float> ibm = identity_and_bone_ibm();
        ibm[16 + 12] = nan;
        Tiny t = tiny_skinned({0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, ibm, {1, 2});
        add("nan_inverse_bind.glb", glb(t), "an inverse bind matrix with a NaN translation: NON_FINITE_TRANSFORM");
    }

    // Content.
    add("no_meshes.gltf",
        bytes_of(Json{{"asset", {{"version", "2.0"}, {"generator", "weft_gen_testdata"}}},
                      {"scene", 0},
                      {"scenes", {{{"nodes", {0}}}}},
                      {"nodes", {{{"name", "Empty"}}}}}
                     .dump(1, '\t') + "\n"),
        "a valid glTF with one empty node and no mesh: NO_MESHES");
    {
        Tiny t = tiny_triangle();
        t.doc["meshes"][0]["primitives"][0].erase("indices");
        t.doc["meshes"][0]["primitives"][0]["mode"] = 0;
        add("points_only.glb", glb(t), "one primitive of three points (mode 0), no triangles: NO_MESHES");
    }
    add("nan_position.glb", glb(tiny_triangle({0, 0, 0, 1, nan, 0, 0, 1, 0})), "vertex 1 has y = NaN: NON_FINITE_POSITION");
    add("inf_position.glb", glb(tiny_triangle({0, 0, 0, 1, 0, 0, 0, inf, 0})), "vertex 2 has y = +Inf: NON_FINITE_POSITION");
    add("index_out_of_range.glb", glb(tiny_triangle({0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 1, 7})),
        "the triangle names vertex 7 of 3: INDEX_OUT_OF_RANGE");

    // A directory with a model's name (git keeps no empty folder, hence the README inside).
    add("dir.glb/README.md",
        bytes_of("`dir.glb` is a directory named like a model: importing it must fail with NOT_A_FILE.\n"),
        "makes bad/dir.glb a directory: NOT_A_FILE");

    // Valid glTF the sheet builder must refuse (seed 000 §19.5): material `Cape` at node `Sheet`.
    GlbOptions options;
    options.generator = "weft_gen_testdata";
    {
        MeshBuilder b = grid(2, 2);
        // A fin on the middle vertical edge (vertices 1-4): a third triangle on that edge.
        const uint32_t fin = b.add_vertex({0.1, 0.95, 0.1}, {0.5, 0.5});
        b.add_triangle(1, 4, fin);
        add("non_manifold_sheet.glb", encode_glb(sheet_scene(b), options),
            "a 2x2-quad sheet with a fin: edge 1-4 has three triangles: NON_MANIFOLD_EDGE");
    }
    {
        MeshBuilder b = grid(2, 1);
        // Three distinct corners on the bottom edge's line: no area, no repeated index.
        b.add_triangle(3, 5, 4);
        add("zero_area_triangle.glb", encode_glb(sheet_scene(b), options),
            "a 2x1-quad sheet plus triangle 3-5-4 on one line (zero area, distinct corners): ZERO_AREA_TRIANGLE");
    }
    {
        MeshBuilder b = grid(3, 3);
        // Reverse the first triangle of the middle quad; its three neighbours keep their winding.
        const size_t t = 2 * (1 * 3 + 1);
        std::swap(b.indices[3 * t + 1], b.indices[3 * t + 2]);
        add("flipped_winding.glb", encode_glb(sheet_scene(b), options),
            "a 3x3-quad sheet whose middle quad has one triangle wound against its neighbours: INCONSISTENT_WINDING");
    }
    return out;
}

}  // namespace weft::testdata
