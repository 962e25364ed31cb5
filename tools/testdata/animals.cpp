// A four-legged animal with an authored tail chain (fixtures.h make_quadruped): the fixture of
// docs/garments-by-geometry.md#tails-that-are-the-body and #a-root-that-carries-the-body.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "testdata/fixtures.h"
#include "testdata/mesh_build.h"

namespace weft::testdata {

namespace {

struct Bone {
    const char* name;
    const char* parent;  ///< "" for the skeleton's root
    Vec3 head;           ///< rest position, scene space
};

// 3 m from nose to tail tip, facing +Z, the back 1.3 m up; the tail leaves the rump at z = -0.6 and
// droops a little. Joints carry no rotation: every bind transform is a translation.
const Vec3 kTailRoot{0, 1.1, -0.6};
const Vec3 kTailAxis = normalize(Vec3{0, -0.3, -1});
constexpr int kTailJoints = 5;  // Tail1 at the root .. Tail5 at the tip

std::vector<Bone> bones() {
    std::vector<Bone> b = {
        {"Body", "", {0, 1.0, 0}},        {"Back", "Body", {0, 1.05, -0.5}}, {"Chest", "Body", {0, 1.05, 0.5}},
        {"Head", "Chest", {0, 1.3, 0.75}}, {"UpperLeg.FL", "Chest", {0.18, 0.9, 0.5}}, {"UpperLeg.FR", "Chest", {-0.18, 0.9, 0.5}},
        {"UpperLeg.BL", "Back", {0.18, 0.9, -0.5}}, {"UpperLeg.BR", "Back", {-0.18, 0.9, -0.5}},
    };
    return b;
}

}  // namespace

Scene make_quadruped(const QuadrupedOptions& options) {
    Scene scene;
    scene.source_path = "quadruped";
    scene.format = "glb";
    const int root = add_node(scene, "Quadruped", -1, Mat4::identity());
    std::map<std::string, int> node_of;
    std::map<std::string, uint32_t> joint;
    Skin skin;
    skin.name = "QuadrupedSkin";
    auto add_joint = [&](const std::string& name, const std::string& parent, const Vec3& head) {
        const int parent_node = parent.empty() ? root : node_of.at(parent);
        const Vec3 from = parent.empty() ? Vec3{} : scene.nodes[parent_node].world.translation_part();
        node_of[name] = add_node(scene, name, parent_node, Mat4::translation(head - from));
        joint[name] = static_cast<uint32_t>(skin.joints.size());
        skin.joints.push_back(node_of[name]);
    };
    for (const Bone& b : bones()) add_joint(b.name, b.parent, b.head);
    for (int k = 0; k < kTailJoints; ++k)
        add_joint("Tail" + std::to_string(k + 1), k == 0 ? "Back" : "Tail" + std::to_string(k),
                  kTailRoot + kTailAxis * (options.tail_length * k / (kTailJoints - 1)));
    for (int node : skin.joints) skin.inverse_bind.push_back(scene.nodes[node].world.inverted());
    scene.skins.push_back(std::move(skin));
    const int mesh_node = add_node(scene, "QuadrupedMesh", root, Mat4::identity());
    scene.materials = {"Main"};

    MeshBuilder b;
    auto on = [&](const char* name) { return std::vector<Influence>{{joint.at(name), 1.0f}}; };
    const Vec3 X{1, 0, 0}, Y{0, 1, 0}, Z{0, 0, 1};
    b.add_lathe({0, 1.0, -0.7}, Z, X, {{0, 0}, {0, 0.25}, {0.2, 0.3}, {1.2, 0.3}, {1.4, 0.25}, {1.4, 0}}, 12, 1.0,
                [&](const Vec3& p) { return on(p.z > 0.2 ? "Chest" : p.z < -0.2 ? "Back" : "Body"); });
    const std::vector<std::pair<double, double>> head =
        options.unnamed_bones ? std::vector<std::pair<double, double>>{{0, 0}, {0, 0.15}, {0.1, 0.15}, {0.2, 0.12}, {0.3, 0.1}, {0.3, 0}}
                              : std::vector<std::pair<double, double>>{{0, 0}, {0, 0.15}, {0.3, 0.1}, {0.3, 0}};
    b.add_lathe({0, 1.3, 0.65}, Z, X, head, options.unnamed_bones ? 16 : 10, 1.0, [&](const Vec3&) { return on("Head"); });
    for (const char* leg : {"UpperLeg.FL", "UpperLeg.FR", "UpperLeg.BL", "UpperLeg.BR"}) {
        const Vec3 top = bones()[joint.at(leg)].head;
        const bool back = top.z < 0;
        b.add_lathe(top, -Y, X, {{0, 0}, {0, 0.08}, {0.3, 0.075}, {0.85, 0.06}, {0.85, 0}}, 8, 1.0, [&, leg, back](const Vec3& p) {
            // The haunch: the back legs' upper skin the file weights to the tail's root, as the
            // Quaternius Wolf's and Rat's are.
            if (options.haunch_on_tail && back && p.y > 0.45)
                return std::vector<Influence>{{joint.at(leg), 0.55f}, {joint.at("Tail1"), 0.45f}};
            return on(leg);
        });
    }
    const double r = options.tail_root_radius, length = options.tail_length;
    const std::array<double, 3>& taper = options.tail_taper;
    b.add_lathe(kTailRoot, kTailAxis, X,
                {{0, 0}, {0, r}, {0.25 * length, taper[0] * r}, {0.5 * length, taper[1] * r}, {0.75 * length, taper[2] * r},
                 {length, 0}},
                10, 1.0,
                [&](const Vec3& p) {
                    // Linear between the joints either side.
                    const double f = std::clamp(dot(p - kTailRoot, kTailAxis) / length, 0.0, 1.0) * (kTailJoints - 1);
                    const int seg = std::min(static_cast<int>(f), kTailJoints - 2);
                    const float frac = static_cast<float>(f - seg);
                    std::vector<Influence> w{{joint.at("Tail" + std::to_string(seg + 1)), 1 - frac}};
                    if (frac > 0) w.push_back({joint.at("Tail" + std::to_string(seg + 2)), frac});
                    return w;
                });
    scene.meshes.push_back(b.finish("QuadrupedMesh", mesh_node, 0, 0));
    if (options.unnamed_bones) {
        const std::vector<int>& joints = scene.skins[0].joints;
        for (size_t k = 0; k < joints.size(); ++k) {
            char name[16];
            std::snprintf(name, sizeof name, k == 0 ? "Bone" : "Bone.%03zu", k);
            scene.nodes[static_cast<size_t>(joints[k])].name = name;
        }
    }
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

}  // namespace weft::testdata
