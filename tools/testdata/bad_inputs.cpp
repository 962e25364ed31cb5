// testdata/bad/: one file per kind of input the importer (or, for the last three, the sheet
// builder) must refuse with a named issue and never a crash (docs/bad-inputs.md). Most start from one
// small valid triangle glTF and break exactly one thing.
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

/// A fin standing square (+Z) on the sheet edge from vertex `a` to `b`, `height` high, with copies of
/// `a` and `b` of its own.
void fin(MeshBuilder& b, uint32_t a, uint32_t c, double height) {
    const Vec3 pa = b.positions[a], pc = b.positions[c];
    const uint32_t sa = b.add_vertex(pa, {0, 0}), sc = b.add_vertex(pc, {0, 1});
    const uint32_t ta = b.add_vertex(pa + Vec3{0, 0, height}, {1, 0}), tc = b.add_vertex(pc + Vec3{0, 0, height}, {1, 1});
    b.add_triangle(sa, sc, tc);
    b.add_triangle(sa, tc, ta);
}

/// A closed 12-sided rod along X (radius 2 cm, 20 cm long, at y = 1.02) and a 2x2-quad cloth
/// hanging from the rod's bottom edge, its top row copies of the rod's bottom vertices.
MeshBuilder cloth_on_rod() {
    MeshBuilder b;
    constexpr int sides = 12;
    constexpr double radius = 0.02, axis_y = 1.02;
    const double pi = std::acos(-1.0);
    auto ring_vertex = [&](int ring, int j) { return static_cast<uint32_t>(ring * sides + (j % sides)); };
    for (int ring = 0; ring < 3; ++ring)
        for (int j = 0; j < sides; ++j) {
            const double th = 2 * pi * j / sides;  // j = 0 at the bottom
            b.add_vertex({0.1 * ring, axis_y - radius * std::cos(th), radius * std::sin(th)}, {0.5 * ring, double(j) / sides});
        }
    auto outward = [&](uint32_t x, uint32_t y, uint32_t z, const Vec3& from) {
        const Vec3 n = cross(b.positions[y] - b.positions[x], b.positions[z] - b.positions[x]);
        if (dot(n, b.positions[x] - from) < 0) std::swap(y, z);
        b.add_triangle(x, y, z);
    };
    for (int ring = 0; ring < 2; ++ring)
        for (int j = 0; j < sides; ++j) {
            const Vec3 centre{0.1 * ring + 0.05, axis_y, 0};
            outward(ring_vertex(ring, j), ring_vertex(ring + 1, j), ring_vertex(ring + 1, j + 1), centre);
            outward(ring_vertex(ring, j), ring_vertex(ring + 1, j + 1), ring_vertex(ring, j + 1), centre);
        }
    for (int end = 0; end < 2; ++end) {
        const Vec3 centre{0.2 * end, axis_y, 0};
        const uint32_t c = b.add_vertex(centre, {0, 0});
        for (int j = 0; j < sides; ++j)
            outward(c, ring_vertex(2 * end, j), ring_vertex(2 * end, j + 1), centre + Vec3{end ? -1.0 : 1.0, 0, 0});
    }
    // The cloth: rows at y = 1.0 (the rod's bottom edge), 0.9, 0.8; x = 0, 0.1, 0.2; facing +Z.
    const uint32_t first = static_cast<uint32_t>(b.positions.size());
    for (int row = 0; row < 3; ++row)
        for (int i = 0; i < 3; ++i) b.add_vertex({0.1 * i, 1.0 - 0.1 * row, 0}, {0.5 * i, 0.5 * row});
    for (int row = 0; row < 2; ++row)
        for (int i = 0; i < 2; ++i) {
            const uint32_t a = first + row * 3 + i, c = a + 3;
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

    // Valid glTF the sheet builder must refuse (docs/proxy.md#authoring-checks): material `Cape` at node `Sheet`.
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
            "a 3x3-quad sheet whose middle quad has one triangle wound against its neighbours, re-wound: WINDING_REORIENTED");
    }
    // Cloth meshes as artists make them (docs/proxy.md#fans): a third piece on an edge of a sheet
    // that runs straight on across it, with vertices of its own along the edge (as exporters
    // write a seam).
    {
        MeshBuilder b = grid(2, 2);
        // A fin standing square on the middle vertical edge (vertices 1-4), 10 cm high.
        fin(b, 1, 4, 0.1);
        add("fin_sheet.glb", encode_glb(sheet_scene(b), options),
            "a 2x2-quad sheet with a 10 cm fin standing square on edge 1-4, split off: FAN_SPLIT");
    }
    {
        MeshBuilder b = grid(2, 2);
        // The same fin 2 cm high: within a quarter of the sheet's 10 cm median edge.
        fin(b, 1, 4, 0.02);
        add("partition_sheet.glb", encode_glb(sheet_scene(b), options),
            "a 2x2-quad sheet with a 2 cm fin on edge 1-4, a partition dropped and drawn: FAN_SPLIT");
    }
    add("cloth_on_rod.glb", encode_glb(sheet_scene(cloth_on_rod()), options),
        "a 2x2-quad cloth hanging from the bottom edge of a closed 12-sided rod in the same mesh, split off and held by the rod: FAN_SPLIT");
    return out;
}


namespace {

/// The tiny triangle's glTF text with `member` (raw JSON text, `"key": value`) written right after
/// the opening brace, before the document's own members: a key written twice when the document
/// has it too, Assimp reading the first copy and every other reader the last.
std::vector<uint8_t> with_member_first(const Json& doc, const std::string& member) {
    std::string text = doc.dump(1, '\t');
    text.insert(1, "\n\t" + member + ",");
    return bytes_of(text + "\n");
}

/// The tiny triangle with an extra buffer view over `bytes` appended to its buffer; its index.
size_t add_view(Tiny& t, const std::vector<uint8_t>& bytes) {
    while (t.bin.size() % 4) t.bin.push_back(0);
    const size_t offset = t.bin.size();
    t.bin.insert(t.bin.end(), bytes.begin(), bytes.end());
    while (t.bin.size() % 4) t.bin.push_back(0);
    t.doc["buffers"][0]["byteLength"] = t.bin.size();
    t.doc["bufferViews"].push_back(view(offset, bytes.size(), 0));
    return t.doc["bufferViews"].size() - 1;
}

template <class T>
std::vector<uint8_t> raw_bytes(std::initializer_list<T> values) {
    std::vector<uint8_t> out(values.size() * sizeof(T));
    std::memcpy(out.data(), std::data(values), out.size());
    return out;
}

const char* const kMd5Head = "MD5Version 10\ncommandline \"\"\nnumJoints 1\nnumMeshes 1\njoints {\n\t\"root\"\t-1 ( 0 0 0 ) ( 0 0 0 )\n}\n";

std::string md5_mesh(const std::string& verts, const std::string& weights) {
    return std::string(kMd5Head) + "mesh {\n\tshader \"cloth\"\n\tnumverts 3\n" + verts +
           "\tnumtris 1\n\ttri 0 0 1 2\n\tnumweights 2\n" + weights + "}\n";
}

const char* const kMd5Verts = "\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 0 0 ) 1 1\n\tvert 2 ( 0 0 ) 0 2\n";
const char* const kMd5Weights = "\tweight 0 0 1.0 ( 0 0 0 )\n\tweight 1 0 1.0 ( 1 0 0 )\n";

std::string collada_triangle(const std::string& accessor, const std::string& indices) {
    return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <library_geometries>
    <geometry id="g" name="Tri">
      <mesh>
        <source id="p">
          <float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
          <technique_common>
            )" + accessor + R"(
              <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
        <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>)" + indices + R"(</p></triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="s"><node id="n" name="Tri"><instance_geometry url="#g"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";
}

const char* const kPlyHeadBinary =
    "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
    "element face 1\nproperty list uint int vertex_indices\nend_header\n";

}  // namespace

/// The glTF corners: sparse blocks whose bytes are broken or whose values break a rule the dense
/// data is checked for, a URI holding a NUL byte, extensions weft does not read.
template <class Add>
void add_gltf_corners(Add& add) {
    {
        Tiny t = tiny_skinned({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, identity_and_bone_ibm(), {1, 2});
        const size_t iv = add_view(t, raw_bytes<uint16_t>({1, 0})), vv = add_view(t, raw_bytes<uint8_t>({200, 0, 0, 0}));
        t.doc["accessors"][2]["sparse"] = {{"count", 1}, {"indices", {{"bufferView", iv}, {"componentType", 5123}}},
                                           {"values", {{"bufferView", vv}}}};
        add("sparse_joint_out_of_range.glb", glb(t),
            "a sparse substitution weights vertex 1 to joint 200 of a 2-joint skin (read as valid): JOINT_OUT_OF_RANGE");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["bufferViews"].push_back({{"buffer", 1}, {"byteOffset", 0}, {"byteLength", 2}});
        t.doc["bufferViews"].push_back({{"buffer", 1}, {"byteOffset", 4}, {"byteLength", 12}});
        t.doc["accessors"][0]["sparse"] = {{"count", 1}, {"indices", {{"bufferView", 2}, {"componentType", 5123}}},
                                           {"values", {{"bufferView", 3}}}};
        t.doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(t.bin);
        t.doc["buffers"].push_back({{"byteLength", 16}, {"uri", "data:application/octet-stream;base64," + std::string(24, '*')}});
        add("sparse_values_bad_base64.gltf", bytes_of(t.doc.dump(1, '\t') + "\n"),
            "a sparse block whose buffer is a data URI of broken base64 (the reader crashed): BUFFER_MISSING");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["buffers"][0]["uri"] = "triangle%00.bin";
        add("buffer_uri_nul.gltf", bytes_of(t.doc.dump(1, '\t') + "\n"),
            "a buffer URI with %00 (a NUL byte in the depfile, Ninja rebuilt forever): GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["extensionsUsed"] = {"EXT_weft_unknown"};
        t.doc["extensionsRequired"] = {"EXT_weft_unknown"};
        add("extension_required_unknown.glb", glb(t), "an unknown required extension (built, exit 0): EXTENSION_REQUIRED");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["extensionsUsed"] = {"KHR_draco_mesh_compression"};
        t.doc["extensionsRequired"] = {"KHR_draco_mesh_compression"};
        t.doc["accessors"][0].erase("bufferView");
        t.doc["meshes"][0]["primitives"][0]["extensions"] = {
            {"KHR_draco_mesh_compression", {{"bufferView", 0}, {"attributes", {{"POSITION", 0}}}}}};
        add("draco_not_draco_data.glb", glb(t),
            "a Draco primitive whose view holds no Draco data (the triangle's plain floats): GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["extensionsUsed"] = {"KHR_draco_mesh_compression"};
        t.doc["accessors"][0].erase("bufferView");
        t.doc["meshes"][0]["primitives"][0]["extensions"] = {
            {"KHR_draco_mesh_compression", {{"bufferView", 7}, {"attributes", {{"POSITION", 0}}}}}};
        add("draco_view_missing.glb", glb(t),
            "a Draco primitive naming a bufferView the file does not have: GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["extensionsUsed"] = {"EXT_meshopt_compression"};
        t.doc["bufferViews"][0]["extensions"] = {{"EXT_meshopt_compression",
                                                  {{"buffer", 0}, {"byteLength", 8}, {"byteStride", 12}, {"count", 3},
                                                   {"mode", "ATTRIBUTES"}}}};
        add("meshopt_not_meshopt_data.glb", glb(t),
            "a view compressed with EXT_meshopt_compression whose bytes are not meshopt data: GLTF_REFERENCE_INVALID");
    }
}

std::vector<FixtureFile> hostile_fixtures() {
    std::vector<FixtureFile> out;
    auto add = [&](std::string name, std::vector<uint8_t> bytes, std::string purpose) {
        out.push_back({"hostile/" + std::move(name), std::move(bytes), std::move(purpose)});
    };
    const float nan = std::numeric_limits<float>::quiet_NaN();

    // Crashes in Assimp's recursive or unchecked readers.
    add("gltf1_self_child.gltf",
        bytes_of(R"({"asset":{"version":"1.0"},"scene":"s","scenes":{"s":{"nodes":["a"]}},"nodes":{"a":{"children":["a"]}}})"),
        "a glTF 1.0 node that is its own child (Assimp recursed until the stack ran out): GLTF_REFERENCE_INVALID");
    {
        Tiny t = tiny_skinned({0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, identity_and_bone_ibm(), {1, 2});
        t.doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(t.bin);
        add("duplicate_skins_key.gltf", with_member_first(t.doc, R"("skins": [{"joints": [1, 2]}])"),
            "\"skins\" written twice, the first copy without inverse binds (Assimp read it and crashed; weft's checks "
            "read the second): GLTF_DUPLICATE_KEY");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(t.bin);
        add("duplicate_materials_key.gltf", with_member_first(t.doc, R"("materials": [{"name": "Cape"}])"),
            "\"materials\" written twice with different names (which one names the garment?): GLTF_DUPLICATE_KEY");
        add("duplicate_key_escaped.gltf", with_member_first(t.doc, R"("m\u0065shes": [])"),
            "\"meshes\" and \"m\\u0065shes\", the same key once escaped: GLTF_DUPLICATE_KEY");
        Json nested = t.doc;
        std::string text = nested.dump(1, '\t');
        const size_t at = text.find("\"mesh\": 0");
        text.insert(at, "\"mesh\": 0,\n\t\t\t");
        add("duplicate_node_key.gltf", bytes_of(text + "\n"), "a node writes \"mesh\" twice: GLTF_DUPLICATE_KEY");
    }

    // Reads outside the model's folder, every way of naming one.
    for (const auto& [name, uri] : std::vector<std::pair<std::string, std::string>>{
             {"buffer_parent_dir.gltf", "../../../../../../../../../../etc/passwd"},
             {"buffer_absolute.gltf", "/etc/passwd"},
             {"buffer_percent_dots.gltf", "%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd"},
             {"buffer_percent_slashes.gltf", "..%2F..%2F..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd"},
             {"buffer_dot_segments.gltf", "./sub/../../hostile/../../../../../../../etc/passwd"}}) {
        Tiny t = tiny_triangle();
        t.doc["buffers"][0]["uri"] = uri;
        add(name, bytes_of(t.doc.dump(1, '\t') + "\n"),
            "a buffer URI '" + uri + "' (its bytes became particle positions): FILE_OUTSIDE_FOLDER");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64(t.bin);
        t.doc["images"] = {{{"uri", "../../../../../../../../etc/hostname"}}};
        add("image_parent_dir.gltf", bytes_of(t.doc.dump(1, '\t') + "\n"), "an image URI out of the folder: FILE_OUTSIDE_FOLDER");
        t.doc["images"] = {{{"uri", "no_such_texture.png"}}};
        add("image_missing.gltf", bytes_of(t.doc.dump(1, '\t') + "\n"),
            "an image that does not exist (was dropped without a word): REFERENCED_FILE_MISSING");
    }
    {
        Tiny t = tiny_triangle();
        t.doc["buffers"][0]["uri"] = "buffer_huge_byte_length.bin";
        t.doc["buffers"][0]["byteLength"] = 3000000000u;
        add("buffer_huge_byte_length.gltf", bytes_of(t.doc.dump(1, '\t') + "\n"),
            "a buffer declaring 3 GB over a 40-byte file: BUFFER_MISSING");
        add("buffer_huge_byte_length.bin", t.bin, "the small buffer of buffer_huge_byte_length.gltf");
    }
    const std::string obj_body = "v 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl Cloth\nf 1 2 3\n";
    add("obj_mtllib_outside.obj", bytes_of("mtllib ../../../../../../../../etc/passwd\n" + obj_body),
        "an OBJ material library out of the folder: FILE_OUTSIDE_FOLDER");
    add("obj_mtllib_absolute.obj", bytes_of("mtllib /etc/passwd\n" + obj_body),
        "an OBJ material library by absolute path (Assimp joins it to the folder, where it is not): "
        "REFERENCED_FILE_MISSING");
    add("obj_mtllib_directory.obj", bytes_of("mtllib ..\n" + obj_body),
        "an OBJ material library that is the parent folder: FILE_OUTSIDE_FOLDER");

    // Counts that size allocations, checked against the bytes behind them.
    {
        std::vector<uint8_t> b = bytes_of(kPlyHeadBinary);
        for (uint8_t x : raw_bytes<float>({0, 0, 0, 1, 0, 0, 0, 1, 0})) b.push_back(x);
        for (uint8_t x : raw_bytes<uint32_t>({2000000000u, 0, 1, 2})) b.push_back(x);
        add("ply_list_count.ply", std::move(b), "a 220-byte binary PLY whose face list claims 2e9 indices (12 GB): COUNT_TOO_LARGE");
    }
    add("ply_element_count.ply",
        bytes_of("ply\nformat ascii 1.0\nelement vertex 2000000000\nproperty float x\nproperty float y\nproperty float z\n"
                 "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
        "an ASCII PLY declaring 2e9 vertices in 170 bytes: COUNT_TOO_LARGE");
    {
        std::vector<uint8_t> b = bytes_of(
            "ply\nformat binary_big_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            "element face 1\nproperty list ushort int vertex_indices\nend_header\n");
        b.resize(b.size() + 36, 0);
        b.push_back(0xFF);
        b.push_back(0xFF);
        add("ply_big_endian_list.ply", std::move(b), "a big-endian PLY list of 65535 indices with none present: COUNT_TOO_LARGE");
    }
    add("md5_weight_range.md5mesh", bytes_of(md5_mesh("\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 0 0 ) 1 1\n\tvert 2 ( 0 0 ) 900000 1\n", kMd5Weights)),
        "an MD5 vertex whose weights start at 900000 of 2 (Assimp read past them): MODEL_INDEX_OUT_OF_RANGE");
    add("md5_weight_joint.md5mesh", bytes_of(md5_mesh(kMd5Verts, "\tweight 0 0 1.0 ( 0 0 0 )\n\tweight 1 77 1.0 ( 1 0 0 )\n")),
        "an MD5 weight on joint 77 of 1: MODEL_INDEX_OUT_OF_RANGE");
    add("md5_vert_index.md5mesh", bytes_of(md5_mesh("\tvert 0 ( 0 0 ) 0 1\n\tvert 1 ( 0 0 ) 1 1\n\tvert 2000000000 ( 0 0 ) 0 2\n", kMd5Weights)),
        "an MD5 vertex numbered 2e9 of 3 (Assimp resized its array to fit): MODEL_INDEX_OUT_OF_RANGE");
    add("dae_accessor_past_array.dae",
        bytes_of(collada_triangle(R"(<accessor source="#pa" count="3000000" stride="3">)", "0 1 900000")),
        "a Collada accessor of 3e6 elements over a 9-value array, indexed at 900000 (Assimp read past it): "
        "MODEL_INDEX_OUT_OF_RANGE");
    add("dae_accessor_offset.dae",
        bytes_of(collada_triangle(R"(<accessor source="#pa" count="3" stride="3" offset="18446744073709551615">)", "0 1 2")),
        "a Collada accessor whose offset is 2^64-1: MODEL_INDEX_OUT_OF_RANGE");

    // Wrong or silent results.
    {
        Tiny t = tiny_triangle();
        const size_t iv = add_view(t, raw_bytes<uint16_t>({7, 0})), vv = add_view(t, raw_bytes<float>({0, 0, 1}));
        t.doc["accessors"][0]["sparse"] = {{"count", 1}, {"indices", {{"bufferView", iv}, {"componentType", 5123}}},
                                           {"values", {{"bufferView", vv}}}};
        add("sparse_target_out_of_range.glb", glb(t),
            "a sparse substitution into POSITION element 7 of 3 (the reader names the accessor, the substitution and the "
            "element): GLTF_REFERENCE_INVALID");
    }
    {
        Tiny t = tiny_triangle();
        const size_t iv = add_view(t, raw_bytes<uint16_t>({2, 0})), vv = add_view(t, raw_bytes<uint16_t>({9, 0}));
        t.doc["accessors"][1]["sparse"] = {{"count", 1}, {"indices", {{"bufferView", iv}, {"componentType", 5123}}},
                                           {"values", {{"bufferView", vv}}}};
        add("sparse_index_value_out_of_range.glb", glb(t),
            "a sparse substitution that makes a triangle index 9 of 3 vertices: INDEX_OUT_OF_RANGE");
    }
    {
        Tiny t = tiny_triangle();
        const size_t iv = add_view(t, raw_bytes<uint16_t>({2, 1})), vv = add_view(t, raw_bytes<uint16_t>({0, 0}));
        t.doc["accessors"][1]["sparse"] = {{"count", 2}, {"indices", {{"bufferView", iv}, {"componentType", 5123}}},
                                           {"values", {{"bufferView", vv}}}};
        add("sparse_indices_not_increasing.glb", glb(t), "sparse substitution indices 2 then 1: GLTF_REFERENCE_INVALID");
    }
    add("fourth_index.glb", glb(tiny_triangle({0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 1, 2, 1})),
        "a triangle list of 4 indices (the 4th was dropped without a word): INDEX_COUNT_INVALID");
    {
        Tiny t = tiny_skinned({0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, identity_and_bone_ibm(), {1, 2});
        // The weights view starts right after the 12 joint bytes: vertex 1's first weight is NaN.
        const size_t weights_at = t.doc["bufferViews"][3]["byteOffset"].get<size_t>();
        std::memcpy(t.bin.data() + weights_at + 16, &nan, 4);
        add("nan_weight.glb", glb(t), "vertex 1 has a NaN weight (Assimp dropped it and skinned what was left): WEIGHT_INVALID");
    }
    {
        std::vector<float> zeros(32, 0.0f);
        Tiny t = tiny_skinned({0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, zeros, {1, 2});
        add("zero_inverse_binds.glb", glb(t),
            "both inverse bind matrices all zero (every vertex collapsed to a point, validation passed): INVERSE_BIND_SINGULAR");
    }
    add_gltf_corners(add);
    return out;
}

std::string gltf1_node_chain(size_t nodes) {
    std::string text = R"({"asset":{"version":"1.0"},"scene":"s","scenes":{"s":{"nodes":["n0"]}},"nodes":{)";
    for (size_t i = 0; i < nodes; ++i) {
        text += "\"n" + std::to_string(i) + "\":{";
        if (i + 1 < nodes) text += "\"children\":[\"n" + std::to_string(i + 1) + "\"]";
        text += i + 1 < nodes ? "}," : "}";
    }
    return text + "}}";
}

std::string config_nested_pin(size_t depth) {
    return R"({"schema":"weft.config/1","garments":[{"material":"Cloth","class":"cape","pin":{"x":)" +
           std::string(depth, '[') + std::string(depth, ']') + "}}]}";
}

std::string config_pin_list(size_t vertices, uint32_t first) {
    std::string text = R"({"schema":"weft.config/1","garments":[{"material":"Cloth","class":"cape","pin":{"vertices":[)";
    for (size_t i = 0; i < vertices; ++i) text += (i ? "," : "") + std::to_string(first + i);
    return text + "]}}]}";
}

}  // namespace weft::testdata
