// testdata/layouts/accessor_layouts.glb: one quad per way glTF lets an attribute be stored
// (fixtures.h, layout_fixtures). Every value is written from the raw tables in fixtures.h, which
// the tests decode by the specification's formulas on their own, so a reader that ignores a view's
// byteStride, a component type, normalisation or a sparse block reads other numbers.
#include <algorithm>
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "scene/gltf_write.h"
#include "testdata/fixtures.h"

namespace weft::testdata {

namespace {

using Json = nlohmann::json;

/// A GLB assembled by hand: bytes appended to one buffer at 4-byte boundaries, views and
/// accessors over them.
struct LayoutFile {
    Json doc;
    std::vector<uint8_t> bin;

    /// A view of `bytes`; byteStride when `stride` is not 0.
    int view(const std::vector<uint8_t>& bytes, size_t stride, int target) {
        while (bin.size() % 4) bin.push_back(0);
        Json v = {{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes.size()}};
        if (stride) v["byteStride"] = stride;
        if (target) v["target"] = target;
        bin.insert(bin.end(), bytes.begin(), bytes.end());
        doc["bufferViews"].push_back(v);
        return int(doc["bufferViews"].size() - 1);
    }
    int accessor(Json a) {
        doc["accessors"].push_back(std::move(a));
        return int(doc["accessors"].size() - 1);
    }
};

/// `count` elements of `components` values of `size` bytes each, every element starting
/// `stride` bytes after the last; the gap is filled with 0x7F bytes, which a reader that steps
/// by the element size reads as values far from any written here.
template <class T>
std::vector<uint8_t> strided(const std::vector<T>& values, size_t components, size_t stride) {
    const size_t count = values.size() / components;
    std::vector<uint8_t> out(count * stride, 0x7F);
    for (size_t e = 0; e < count; ++e) std::memcpy(&out[e * stride], &values[e * components], components * sizeof(T));
    return out;
}

template <class T>
std::vector<uint8_t> packed(const std::vector<T>& values) {
    std::vector<uint8_t> out(values.size() * sizeof(T));
    std::memcpy(out.data(), values.data(), out.size());
    return out;
}

template <class T>
Json bounds(const std::vector<T>& values, size_t components, bool max) {
    Json out = Json::array();
    for (size_t c = 0; c < components; ++c) {
        double v = double(values[c]);
        for (size_t i = c; i < values.size(); i += components) v = max ? std::max(v, double(values[i])) : std::min(v, double(values[i]));
        out.push_back(v);
    }
    return out;
}

/// The raw quad of kLayoutQuad in component type `T` (fixtures.h: layout_raw).
template <class T>
std::vector<T> raw_as(LayoutType type, size_t components) {
    std::vector<T> out;
    for (size_t v = 0; v < 4; ++v)
        for (size_t c = 0; c < components; ++c) out.push_back(T(layout_raw(type, kLayoutQuad[v][c])));
    return out;
}

int add_mesh(LayoutFile& f, const std::string& name, Json attributes, int indices, double scale = 1) {
    f.doc["materials"].push_back({{"name", name}});
    const size_t material = f.doc["materials"].size() - 1;
    f.doc["meshes"].push_back({{"name", name},
                               {"primitives", {{{"attributes", std::move(attributes)}, {"indices", indices}, {"material", material}}}}});
    Json node = {{"name", name}, {"mesh", f.doc["meshes"].size() - 1}};
    if (scale != 1) node["scale"] = {scale, scale, scale};
    f.doc["nodes"].push_back(std::move(node));
    f.doc["scenes"][0]["nodes"].push_back(f.doc["nodes"].size() - 1);
    return int(f.doc["nodes"].size() - 1);
}

/// The quad's two triangles in index type `T` (5121, 5123 or 5125).
template <class T>
int quad_indices(LayoutFile& f, int component_type) {
    const std::vector<T> idx{0, 1, 2, 0, 2, 3};
    const int v = f.view(packed(idx), 0, 34963);
    return f.accessor({{"bufferView", v}, {"componentType", component_type}, {"count", 6}, {"type", "SCALAR"}});
}

/// POSITION, NORMAL and TEXCOORD_0 as floats interleaved in one view of byteStride 36 (32 bytes
/// of values and 4 of padding).
void float_interleaved(LayoutFile& f) {
    std::vector<uint8_t> bytes(4 * kLayoutInterleavedStride, 0x7F);
    for (size_t v = 0; v < 4; ++v) {
        float row[8] = {kLayoutFloatQuad[v][0], kLayoutFloatQuad[v][1], kLayoutFloatQuad[v][2], 0, 0, 1,
                        kLayoutFloatQuad[v][0], kLayoutFloatQuad[v][1]};
        std::memcpy(&bytes[v * kLayoutInterleavedStride], row, sizeof row);
    }
    const int view = f.view(bytes, kLayoutInterleavedStride, 34962);
    std::vector<float> pos;
    for (const auto& p : kLayoutFloatQuad) pos.insert(pos.end(), p, p + 3);
    const int position = f.accessor({{"bufferView", view}, {"componentType", 5126}, {"count", 4}, {"type", "VEC3"},
                                     {"min", bounds(pos, 3, false)}, {"max", bounds(pos, 3, true)}});
    const int normal = f.accessor({{"bufferView", view}, {"byteOffset", 12}, {"componentType", 5126}, {"count", 4}, {"type", "VEC3"}});
    const int uv = f.accessor({{"bufferView", view}, {"byteOffset", 24}, {"componentType", 5126}, {"count", 4}, {"type", "VEC2"}});
    add_mesh(f, "float_interleaved", {{"POSITION", position}, {"NORMAL", normal}, {"TEXCOORD_0", uv}},
             quad_indices<uint16_t>(f, 5123));
}

/// POSITION and TEXCOORD_0 of one integer type (KHR_mesh_quantization), each element at a
/// 4-byte boundary (byteStride 4 or 8), and NORMAL for the signed normalised types.
template <class T>
void quantized(LayoutFile& f, LayoutType type) {
    const LayoutTypeInfo& info = layout_type_info(type);
    const size_t pos_stride = sizeof(T) == 1 ? 4 : 8;
    const std::vector<T> pos = raw_as<T>(type, 3), uv = raw_as<T>(type, 2);
    const int pv = f.view(strided(pos, 3, pos_stride), pos_stride, 34962);
    Json attributes;
    attributes["POSITION"] = f.accessor({{"bufferView", pv}, {"componentType", info.component_type}, {"normalized", info.normalized},
                                         {"count", 4}, {"type", "VEC3"},
                                         {"min", bounds(pos, 3, false)}, {"max", bounds(pos, 3, true)}});
    const size_t uv_stride = sizeof(T) == 1 ? 4 : 0;  // a 2-byte element needs padding to 4
    const int tv = f.view(uv_stride ? strided(uv, 2, uv_stride) : packed(uv), uv_stride, 34962);
    attributes["TEXCOORD_0"] = f.accessor({{"bufferView", tv}, {"componentType", info.component_type},
                                           {"normalized", info.normalized}, {"count", 4}, {"type", "VEC2"}});
    if (info.normalized && info.is_signed) {
        std::vector<T> nrm;
        for (size_t v = 0; v < 4; ++v)
            for (double c : kLayoutNormal) nrm.push_back(T(std::round(c * info.scale)));
        const int nv = f.view(strided(nrm, 3, pos_stride), pos_stride, 34962);
        attributes["NORMAL"] = f.accessor({{"bufferView", nv}, {"componentType", info.component_type}, {"normalized", true},
                                           {"count", 4}, {"type", "VEC3"}});
    }
    const int indices = type == LayoutType::byte_norm ? quad_indices<uint8_t>(f, 5121)
                        : type == LayoutType::short_plain ? quad_indices<uint32_t>(f, 5125)
                                                          : quad_indices<uint16_t>(f, 5123);
    // Integers that are not normalised are dequantized by their node, as KHR_mesh_quantization's
    // exporters do: the quad stays about a metre across in scene space.
    add_mesh(f, std::string("position_") + info.name, attributes, indices, layout_node_scale(type));
}

/// Float positions whose vertices 1 and 3 come from a sparse block (ubyte indices), and short
/// normalised positions with no view at all, every vertex from a sparse block (uint indices).
void sparse(LayoutFile& f) {
    std::vector<float> base;
    for (const auto& p : kLayoutFloatQuad) base.insert(base.end(), p, p + 3);
    std::vector<float> meant = base;
    const std::vector<uint8_t> targets{1, 3};
    std::vector<float> values;
    for (uint8_t t : targets)
        for (int c = 0; c < 3; ++c) {
            values.push_back(kLayoutSparseFloat[t][c]);
            meant[t * 3 + c] = kLayoutSparseFloat[t][c];
        }
    const int bv = f.view(packed(base), 0, 34962);
    const int iv = f.view(packed(targets), 0, 0);
    const int vv = f.view(packed(values), 0, 0);
    const int pos = f.accessor({{"bufferView", bv}, {"componentType", 5126}, {"count", 4}, {"type", "VEC3"},
                                {"min", bounds(meant, 3, false)}, {"max", bounds(meant, 3, true)},
                                {"sparse", {{"count", 2}, {"indices", {{"bufferView", iv}, {"componentType", 5121}}},
                                            {"values", {{"bufferView", vv}}}}}});
    add_mesh(f, "sparse_float", {{"POSITION", pos}}, quad_indices<uint16_t>(f, 5123));

    const std::vector<int16_t> shorts = raw_as<int16_t>(LayoutType::short_norm, 3);
    const std::vector<uint32_t> all{0, 1, 2, 3};
    const int iv2 = f.view(packed(all), 0, 0);
    const int vv2 = f.view(packed(shorts), 0, 0);
    const int zeros = f.accessor({{"componentType", 5122}, {"normalized", true}, {"count", 4}, {"type", "VEC3"},
                                  {"min", bounds(shorts, 3, false)}, {"max", bounds(shorts, 3, true)},
                                  {"sparse", {{"count", 4}, {"indices", {{"bufferView", iv2}, {"componentType", 5125}}},
                                              {"values", {{"bufferView", vv2}}}}}});
    add_mesh(f, "sparse_short_norm_no_view", {{"POSITION", zeros}}, quad_indices<uint16_t>(f, 5123));
}

/// Two quads skinned to joints JointX and JointY (no inverseBindMatrices: identities), weights
/// kLayoutWeights: ubyte joints with ubyte normalised weights, and ushort joints with ushort
/// normalised weights whose joints come from a sparse block over a view of zeros.
void skinned(LayoutFile& f) {
    f.doc["nodes"].push_back({{"name", "JointX"}, {"translation", {kLayoutJointX[0], kLayoutJointX[1], kLayoutJointX[2]}}});
    f.doc["nodes"].push_back({{"name", "JointY"}, {"translation", {kLayoutJointY[0], kLayoutJointY[1], kLayoutJointY[2]}}});
    const size_t jx = f.doc["nodes"].size() - 2, jy = jx + 1;
    f.doc["nodes"].push_back({{"name", "Skeleton"}, {"children", {jx, jy}}});
    f.doc["scenes"][0]["nodes"].push_back(f.doc["nodes"].size() - 1);
    f.doc["skins"] = {{{"name", "Layout"}, {"joints", {jx, jy}}}};
    std::vector<float> pos;
    for (const auto& p : kLayoutFloatQuad) pos.insert(pos.end(), p, p + 3);
    auto positions = [&] {
        const int v = f.view(packed(pos), 0, 34962);
        return f.accessor({{"bufferView", v}, {"componentType", 5126}, {"count", 4}, {"type", "VEC3"},
                           {"min", bounds(pos, 3, false)}, {"max", bounds(pos, 3, true)}});
    };
    {
        std::vector<uint8_t> joints, weights;
        for (size_t v = 0; v < 4; ++v) {
            joints.insert(joints.end(), {0, 1, 0, 0});
            weights.insert(weights.end(), {uint8_t(kLayoutWeights[v][0]), uint8_t(kLayoutWeights[v][1]), 0, 0});
        }
        const int j = f.accessor({{"bufferView", f.view(joints, 0, 34962)}, {"componentType", 5121}, {"count", 4}, {"type", "VEC4"}});
        const int w = f.accessor({{"bufferView", f.view(weights, 0, 34962)}, {"componentType", 5121}, {"normalized", true},
                                  {"count", 4}, {"type", "VEC4"}});
        const int node = add_mesh(f, "skinned_ubyte", {{"POSITION", positions()}, {"JOINTS_0", j}, {"WEIGHTS_0", w}},
                                  quad_indices<uint16_t>(f, 5123));
        f.doc["nodes"][size_t(node)]["skin"] = 0;
    }
    {
        // Every joint column 0 in the view; the sparse block makes column 1 JointY's (1) for all
        // four vertices, column 0 JointX's (0) as it was.
        std::vector<uint16_t> joints(16, 0), weights, sparse_joints;
        for (size_t v = 0; v < 4; ++v) {
            weights.insert(weights.end(), {uint16_t(kLayoutWeights[v][0] * 257), uint16_t(kLayoutWeights[v][1] * 257), 0, 0});
            sparse_joints.insert(sparse_joints.end(), {0, 1, 0, 0});
        }
        const std::vector<uint16_t> targets{0, 1, 2, 3};
        const int j = f.accessor({{"bufferView", f.view(packed(joints), 0, 34962)}, {"componentType", 5123}, {"count", 4},
                                  {"type", "VEC4"},
                                  {"sparse", {{"count", 4}, {"indices", {{"bufferView", f.view(packed(targets), 0, 0)}, {"componentType", 5123}}},
                                              {"values", {{"bufferView", f.view(packed(sparse_joints), 0, 0)}}}}}});
        const int w = f.accessor({{"bufferView", f.view(packed(weights), 0, 34962)}, {"componentType", 5123}, {"normalized", true},
                                  {"count", 4}, {"type", "VEC4"}});
        const int node = add_mesh(f, "skinned_ushort_sparse_joints", {{"POSITION", positions()}, {"JOINTS_0", j}, {"WEIGHTS_0", w}},
                                  quad_indices<uint16_t>(f, 5123));
        f.doc["nodes"][size_t(node)]["skin"] = 0;
    }
}

}  // namespace

const LayoutTypeInfo& layout_type_info(LayoutType type) {
    static const LayoutTypeInfo table[] = {
        {"byte_norm", 5120, true, true, 127},     {"byte", 5120, false, true, 1},
        {"ubyte_norm", 5121, true, false, 255},   {"ubyte", 5121, false, false, 1},
        {"short_norm", 5122, true, true, 32767},  {"short", 5122, false, true, 1},
        {"ushort_norm", 5123, true, false, 65535}, {"ushort", 5123, false, false, 1},
    };
    return table[size_t(type)];
}

double layout_raw(LayoutType type, double unit) {
    // unit in [-1, 1]: signed types span their range, unsigned ones their upper half plus an offset.
    const LayoutTypeInfo& info = layout_type_info(type);
    const double full = info.component_type == 5120 || info.component_type == 5121 ? 127 : 32767;
    const double v = std::round(unit * full);
    return info.is_signed ? v : v + full;
}

float layout_node_scale(LayoutType type) {
    const LayoutTypeInfo& info = layout_type_info(type);
    if (info.normalized) return 1;
    return info.component_type == 5120 || info.component_type == 5121 ? 1.0f / 127 : 1.0f / 32767;
}

std::vector<FixtureFile> layout_fixtures() {
    LayoutFile f;
    f.doc = {{"asset", {{"version", "2.0"}, {"generator", "weft_gen_testdata"}}},
             {"extensionsUsed", {"KHR_mesh_quantization"}},
             {"extensionsRequired", {"KHR_mesh_quantization"}},
             {"scene", 0},
             {"scenes", {{{"nodes", Json::array()}}}},
             {"nodes", Json::array()},
             {"meshes", Json::array()},
             {"materials", Json::array()},
             {"accessors", Json::array()},
             {"bufferViews", Json::array()}};
    float_interleaved(f);
    quantized<int8_t>(f, LayoutType::byte_norm);
    quantized<int8_t>(f, LayoutType::byte_plain);
    quantized<uint8_t>(f, LayoutType::ubyte_norm);
    quantized<uint8_t>(f, LayoutType::ubyte_plain);
    quantized<int16_t>(f, LayoutType::short_norm);
    quantized<int16_t>(f, LayoutType::short_plain);
    quantized<uint16_t>(f, LayoutType::ushort_norm);
    quantized<uint16_t>(f, LayoutType::ushort_plain);
    sparse(f);
    skinned(f);
    while (f.bin.size() % 4) f.bin.push_back(0);
    f.doc["buffers"] = {{{"byteLength", f.bin.size()}}};
    return {{"layouts/accessor_layouts.glb", pack_glb(f.doc.dump(), f.bin),
             "one quad per attribute layout: interleaved floats (byteStride 36), positions and UVs in every integer "
             "type normalised or not (KHR_mesh_quantization), sparse positions over a view and over zeros, "
             "ubyte and ushort (sparse) joints with normalised weights"}};
}

}  // namespace weft::testdata
