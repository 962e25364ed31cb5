// Spring chains and colliders a VRM declares. Assimp 5.2.5 reads VRM files as plain glTF and
// drops their extensions, so they are read here from the same JSON, with glTF node indices
// translated to Scene nodes through the map convert_scene built.
#include <algorithm>
#include <cmath>

#include "io/format_text.h"
#include "io/number_range.h"
#include "scene/import_detail.h"

namespace weft::import_detail {
namespace {

using nlohmann::json;

const json& array_or_empty(const json* object, const char* key) {
    static const json empty = json::array();
    const json* m = object ? member(*object, key) : nullptr;
    return m && m->is_array() ? *m : empty;
}

double number_or(const json* value, double fallback) {
    return value && value->is_number() && std::isfinite(value->get<double>()) ? value->get<double>() : fallback;
}

std::string string_or_empty(const json& object, const char* key) {
    const json* m = member(object, key);
    return m && m->is_string() ? m->get<std::string>() : std::string();
}

class SpringReader {
public:
    SpringReader(const std::vector<int>& scene_of_gltf, Scene& scene, Reporter& report)
        : scene_of_gltf_(scene_of_gltf), scene_(scene), report_(report), size_(scene.bounds().diagonal()) {}

    /// VRM 0.x: boneGroups list chain roots only; collider offsets are stored with Z negated
    /// (UniVRM 0.x convention; three-vrm negates it back, "z is opposite in VRM0.0").
    void read_vrm0(const json& secondary) {
        const std::string source = "VRM0.secondaryAnimation";
        const json& groups = array_or_empty(&secondary, "colliderGroups");
        std::vector<int> group_node(groups.size(), -1);
        for (size_t g = 0; g < groups.size(); ++g) {
            std::string where = "VRM colliderGroup " + std::to_string(g);
            int node = scene_node(member(groups[g], "node"), where, "/extensions/VRM/secondaryAnimation/colliderGroups/" +
                                                                        std::to_string(g) + "/node");
            if (node < 0) continue;
            group_node[g] = node;
            for (const json& c : array_or_empty(&groups[g], "colliders")) {
                const json* offset = member(c, "offset");
                Vec3 o{number_or(offset ? member(*offset, "x") : nullptr, 0),
                       number_or(offset ? member(*offset, "y") : nullptr, 0),
                       -number_or(offset ? member(*offset, "z") : nullptr, 0)};
                add_collider(node, o, number_or(member(c, "radius"), 0));
            }
        }
        const json& bone_groups = array_or_empty(&secondary, "boneGroups");
        for (size_t b = 0; b < bone_groups.size(); ++b) {
            const json& group = bone_groups[b];
            std::string ptr = "/extensions/VRM/secondaryAnimation/boneGroups/" + std::to_string(b);
            DeclaredSpring spring;
            spring.name = string_or_empty(group, "comment");
            spring.source = source;
            check_settings(group, "VRM boneGroup " + std::to_string(b) + " ('" + spring.name + "')", ptr);
            const json& bones = array_or_empty(&group, "bones");
            for (size_t i = 0; i < bones.size(); ++i) {
                int node = scene_node(&bones[i], "VRM boneGroup " + std::to_string(b) + " bone " + std::to_string(i),
                                      ptr + "/bones/" + std::to_string(i));
                if (node >= 0) spring.roots.push_back(node);
            }
            for (const json& cg : array_or_empty(&group, "colliderGroups"))
                if (cg.is_number_unsigned() && cg.get<uint64_t>() < group_node.size())
                    add_unique(spring.collider_nodes, group_node[cg.get<size_t>()]);
            scene_.springs.push_back(std::move(spring));
        }
    }

    /// VRM 1.0: springs list every joint root to tip; colliders are spheres or capsules (offset to
    /// tail, both in the node's space), kept as capsules.
    void read_vrmc(const json& ext) {
        const json& colliders = array_or_empty(&ext, "colliders");
        std::vector<int> collider_node(colliders.size(), -1);
        for (size_t c = 0; c < colliders.size(); ++c) {
            std::string ptr = "/extensions/VRMC_springBone/colliders/" + std::to_string(c);
            int node = scene_node(member(colliders[c], "node"), "VRMC_springBone collider " + std::to_string(c), ptr + "/node");
            if (node < 0) continue;
            collider_node[c] = node;
            const json* shape = member(colliders[c], "shape");
            const json* sphere = shape ? member(*shape, "sphere") : nullptr;
            const json* capsule = shape ? member(*shape, "capsule") : nullptr;
            if (sphere) {
                add_collider(node, vec3(member(*sphere, "offset")), number_or(member(*sphere, "radius"), 0));
            } else if (capsule) {
                add_collider(node, vec3(member(*capsule, "offset")), number_or(member(*capsule, "radius"), 0),
                             vec3(member(*capsule, "tail")));
            } else {
                report_.add(kSpringInvalid,
                            "VRMC_springBone collider " + std::to_string(c) + " has neither a sphere nor a capsule shape; skipped",
                            ptr + "/shape");
            }
        }
        const json& groups = array_or_empty(&ext, "colliderGroups");
        std::vector<std::vector<int>> group_nodes(groups.size());
        for (size_t g = 0; g < groups.size(); ++g)
            for (const json& c : array_or_empty(&groups[g], "colliders"))
                if (c.is_number_unsigned() && c.get<uint64_t>() < collider_node.size() &&
                    collider_node[c.get<size_t>()] >= 0)
                    add_unique(group_nodes[g], collider_node[c.get<size_t>()]);
        const json& springs = array_or_empty(&ext, "springs");
        for (size_t s = 0; s < springs.size(); ++s) {
            std::string ptr = "/extensions/VRMC_springBone/springs/" + std::to_string(s);
            DeclaredSpring spring;
            spring.name = string_or_empty(springs[s], "name");
            spring.source = "VRMC_springBone";
            const json& joints = array_or_empty(&springs[s], "joints");
            for (size_t j = 0; j < joints.size(); ++j) {
                check_settings(joints[j], "VRMC_springBone spring " + std::to_string(s) + " ('" + spring.name + "') joint " +
                                              std::to_string(j),
                               ptr + "/joints/" + std::to_string(j));
                int node = scene_node(member(joints[j], "node"),
                                      "VRMC_springBone spring " + std::to_string(s) + " joint " + std::to_string(j),
                                      ptr + "/joints/" + std::to_string(j) + "/node");
                if (node >= 0) spring.joints.push_back(node);
            }
            if (!spring.joints.empty()) spring.roots.push_back(spring.joints.front());
            for (const json& g : array_or_empty(&springs[s], "colliderGroups"))
                if (g.is_number_unsigned() && g.get<uint64_t>() < group_nodes.size())
                    for (int node : group_nodes[g.get<size_t>()]) add_unique(spring.collider_nodes, node);
            scene_.springs.push_back(std::move(spring));
        }
    }

private:
    const std::vector<int>& scene_of_gltf_;
    Scene& scene_;
    Reporter& report_;
    const double size_;  ///< the model's meshes' diagonal, metres (0: no mesh)

    /// A spring's settings (VRM 0.x spells stiffness "stiffiness"), each against what it can mean
    /// for a model of size_: SPRING_OUT_OF_RANGE names one that cannot. They stay as the file has
    /// them (weft writes the file's springs back unchanged and simulates its own proxies).
    void check_settings(const json& spring, const std::string& where, const std::string& pointer) {
        const std::string model = "is larger than the whole model (" + format_text("%g", size_) + " m across)";
        for (const char* key : {"stiffness", "stiffiness", "gravityPower", "dragForce", "hitRadius"}) {
            const json* value = member(spring, key);
            if (!value) continue;
            const std::string key_name = key;
            NumberRange range{0, HUGE_VAL, false, "is negative"};
            if (key_name == "dragForce") range.high = 1, range.above = "is past 1 (the share of the velocity lost each update)";
            if (key_name == "hitRadius" && size_ > 0) range.high = size_, range.above = model;
            const std::string why = value->is_number() ? number_out_of_range(key_name, value->get<double>(), range)
                                                       : key_name + " " + value->dump() + " is not a number";
            if (!why.empty())
                report_.add(kSpringOutOfRange, where + ": " + why + "; kept as the file has it", pointer + "/" + key_name);
        }
    }

    static void add_unique(std::vector<int>& list, int value) {
        if (value >= 0 && std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
    }

    static Vec3 vec3(const json* array) {
        if (!array || !array->is_array() || array->size() != 3) return {};
        return {number_or(&(*array)[0], 0), number_or(&(*array)[1], 0), number_or(&(*array)[2], 0)};
    }

    void add_collider(int node, const Vec3& offset, double radius, std::optional<Vec3> tail = {}) {
        SpringCollider c;
        c.node = node;
        c.offset = offset;
        c.tail = tail;
        // Radii are world metres, not scaled by the node: three-vrm uses them as they are, and
        // its sphere-collider sample sizes a 0.5 radius to match a mesh drawn under scale 0.5.
        c.radius = std::max(0.0, radius);
        scene_.colliders.push_back(c);
    }

    /// The Scene node for a glTF node index, or -1 with a SPRING_INVALID warning.
    int scene_node(const json* value, const std::string& where, const std::string& pointer) {
        if (value && value->is_number_unsigned() && value->get<uint64_t>() < scene_of_gltf_.size()) {
            int node = scene_of_gltf_[value->get<size_t>()];
            if (node >= 0) return node;
            report_.add(kSpringInvalid, where + " names glTF node " + std::to_string(value->get<uint64_t>()) +
                                              ", which is not in the imported scene; skipped",
                        pointer);
            return -1;
        }
        report_.add(kSpringInvalid, where + " does not name a glTF node; skipped", pointer);
        return -1;
    }
};

}  // namespace

void read_declared_springs(const json& gltf, const std::vector<int>& scene_of_gltf, Scene& scene, Reporter& report) {
    const json* extensions = member(gltf, "extensions");
    if (!extensions) return;
    SpringReader reader(scene_of_gltf, scene, report);
    if (const json* vrm = member(*extensions, "VRM"))
        if (const json* secondary = member(*vrm, "secondaryAnimation")) reader.read_vrm0(*secondary);
    if (const json* spring = member(*extensions, "VRMC_springBone")) reader.read_vrmc(*spring);
}

}  // namespace weft::import_detail
