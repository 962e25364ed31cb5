// clip_skeleton.glb: a skeleton whose animation has a closed form (fixtures.h), so a test can say
// where the clip puts the hand at any time. The Scene writer leaves animations out (gltf_write.h);
// the clips are added to its GLB here, as a glTF 2.0 exporter writes them (linear samplers, float
// key times with min/max).
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "scene/gltf_write.h"
#include "testdata/fixtures.h"
#include "testdata/mesh_build.h"

namespace weft::testdata {

namespace {

using nlohmann::json;

struct Channel {
    std::string node;
    std::string path;  ///< "translation", "rotation"
    std::vector<float> times;
    std::vector<float> values;  ///< 3 or 4 per key
};

/// `glb` with `clips` (name, channels) appended to its JSON and BIN chunks.
std::vector<uint8_t> with_clips(const std::vector<uint8_t>& glb, const std::vector<std::pair<std::string, std::vector<Channel>>>& clips) {
    auto u32 = [&](size_t at) { uint32_t v; std::memcpy(&v, glb.data() + at, 4); return v; };
    const uint32_t json_length = u32(12);
    json doc = json::parse(glb.begin() + 20, glb.begin() + 20 + json_length);
    std::vector<uint8_t> bin;
    const size_t bin_at = 20 + json_length;
    if (bin_at + 8 <= glb.size()) bin.assign(glb.begin() + long(bin_at) + 8, glb.begin() + long(bin_at) + 8 + u32(bin_at));
    auto node_index = [&](const std::string& name) {
        for (size_t i = 0; i < doc["nodes"].size(); ++i)
            if (doc["nodes"][i].value("name", "") == name) return int(i);
        return -1;
    };
    auto add_accessor = [&](const std::vector<float>& data, const char* type, size_t count) {
        while (bin.size() % 4) bin.push_back(0);
        const size_t offset = bin.size();
        bin.resize(offset + data.size() * 4);
        std::memcpy(bin.data() + offset, data.data(), data.size() * 4);
        doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", data.size() * 4}});
        json accessor = {{"bufferView", doc["bufferViews"].size() - 1}, {"componentType", 5126}, {"count", count}, {"type", type}};
        if (std::string(type) == "SCALAR") {
            accessor["min"] = {data.front()};
            accessor["max"] = {data.back()};
        }
        doc["accessors"].push_back(accessor);
        return doc["accessors"].size() - 1;
    };
    for (const auto& [name, channels] : clips) {
        json animation = {{"name", name}, {"channels", json::array()}, {"samplers", json::array()}};
        for (const Channel& c : channels) {
            const size_t width = c.path == "rotation" ? 4 : 3;
            const size_t input = add_accessor(c.times, "SCALAR", c.times.size());
            const size_t output = add_accessor(c.values, width == 4 ? "VEC4" : "VEC3", c.values.size() / width);
            animation["samplers"].push_back({{"input", input}, {"output", output}, {"interpolation", "LINEAR"}});
            animation["channels"].push_back(
                {{"sampler", animation["samplers"].size() - 1}, {"target", {{"node", node_index(c.node)}, {"path", c.path}}}});
        }
        doc["animations"].push_back(animation);
    }
    doc["buffers"][0]["byteLength"] = bin.size();
    return pack_glb(doc.dump(), bin);
}

}  // namespace

Vec3 clip_skeleton_hand(double t) {
    const double turn = kClipArmTurnRate * t;
    return {kClipHandReach * std::cos(turn), kClipHipsHeight + kClipArmRise, kClipWalkSpeed * t - kClipHandReach * std::sin(turn)};
}

std::vector<uint8_t> clip_skeleton_glb(const GlbOptions& options) {
    Scene scene;
    scene.source_path = "clip_skeleton";
    scene.format = "glb";
    const int hips = add_node(scene, "Hips", -1, Mat4::translation({0, kClipHipsHeight, 0}));
    const int arm = add_node(scene, "Arm", hips, Mat4::translation({0, kClipArmRise, 0}));
    add_node(scene, "Hand", arm, Mat4::translation({kClipHandReach, 0, 0}));
    scene.materials = {"Plate"};
    MeshBuilder plate;  // a 20 cm plate on the hips: a model needs a mesh
    plate.add_vertex(scene.nodes[hips].world.transform_point({-0.1, 0, -0.1}), {0, 0});
    plate.add_vertex(scene.nodes[hips].world.transform_point({0.1, 0, -0.1}), {1, 0});
    plate.add_vertex(scene.nodes[hips].world.transform_point({0, 0, 0.1}), {0.5, 1});
    plate.add_triangle(0, 2, 1);
    scene.meshes.push_back(plate.finish("Plate", hips, 0, -1));
    scene.meshes.back().node_name = "Hips";

    // Walk: the hips carried along +z at kClipWalkSpeed, the arm turning about +y at kClipArmTurnRate,
    // keyed every kClipKeyStep (a linear key and a slerp between turns under 180° are both exact).
    Channel hips_walk{"Hips", "translation", {}, {}}, arm_turn{"Arm", "rotation", {}, {}};
    const int keys = int(std::lround(kClipWalkSeconds / kClipKeyStep)) + 1;
    for (int k = 0; k < keys; ++k) {
        const double t = k * kClipKeyStep;
        hips_walk.times.push_back(float(t));
        hips_walk.values.insert(hips_walk.values.end(), {0.0f, float(kClipHipsHeight), float(kClipWalkSpeed * t)});
        arm_turn.times.push_back(float(t));
        const double half = kClipArmTurnRate * t / 2;
        arm_turn.values.insert(arm_turn.values.end(), {0.0f, float(std::sin(half)), 0.0f, float(std::cos(half))});
    }
    // Wave: the arm alone, a quarter turn and back in a second.
    Channel wave{"Arm", "rotation", {0.0f, 0.5f, 1.0f}, {}};
    for (double angle : {0.0, M_PI / 2, 0.0})
        wave.values.insert(wave.values.end(), {0.0f, float(std::sin(angle / 2)), 0.0f, float(std::cos(angle / 2))});
    return with_clips(encode_glb(scene, options), {{"Walk", {hips_walk, arm_turn}}, {"Wave", {wave}}});
}

}  // namespace weft::testdata
