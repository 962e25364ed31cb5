// The good fixture models: the mannequin in its three variants and the flag.
#include <functional>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "testdata/fixtures.h"
#include "testdata/mesh_build.h"

namespace weft::testdata {

namespace {

struct JointDef {
    std::string name;
    std::string parent;  ///< "" for the skeleton root
    Vec3 head;           ///< rest position, scene space (metres, Y up, facing +Z, left on +X)
    Vec3 tail;           ///< end of the bone's segment (the child joint, or the tip for a leaf)
};

// A humanoid 1.73 m tall standing on y = 0 in T pose. Joints carry no rotation, so every bind
// transform is a translation (the simplest skin a reader can get right or visibly wrong).
const std::vector<JointDef>& skeleton() {
    static const std::vector<JointDef> joints = [] {
        std::vector<JointDef> j = {
            {"Hips", "", {0, 0.95, 0}, {0, 1.07, 0}},
            {"Spine", "Hips", {0, 1.07, 0}, {0, 1.22, 0}},
            {"Chest", "Spine", {0, 1.22, 0}, {0, 1.45, 0}},
            {"Neck", "Chest", {0, 1.45, 0}, {0, 1.53, 0}},
            {"Head", "Neck", {0, 1.53, 0}, {0, 1.73, 0}},
        };
        for (const double s : {1.0, -1.0}) {
            const std::string side = s > 0 ? "_L" : "_R";
            j.push_back({"Shoulder" + side, "Chest", {s * 0.05, 1.40, 0}, {s * 0.17, 1.40, 0}});
            j.push_back({"UpperArm" + side, "Shoulder" + side, {s * 0.17, 1.40, 0}, {s * 0.44, 1.40, 0}});
            j.push_back({"LowerArm" + side, "UpperArm" + side, {s * 0.44, 1.40, 0}, {s * 0.68, 1.40, 0}});
            j.push_back({"Hand" + side, "LowerArm" + side, {s * 0.68, 1.40, 0}, {s * 0.78, 1.40, 0}});
        }
        for (const double s : {1.0, -1.0}) {
            const std::string side = s > 0 ? "_L" : "_R";
            j.push_back({"UpperLeg" + side, "Hips", {s * 0.09, 0.91, 0}, {s * 0.09, 0.50, 0}});
            j.push_back({"LowerLeg" + side, "UpperLeg" + side, {s * 0.09, 0.50, 0}, {s * 0.09, 0.08, 0}});
            j.push_back({"Foot" + side, "LowerLeg" + side, {s * 0.09, 0.08, 0}, {s * 0.09, 0.03, 0.15}});
        }
        return j;
    }();
    return joints;
}

double segment_distance(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 ab = b - a;
    const double t = std::clamp(dot(p - a, ab) / dot(ab, ab), 0.0, 1.0);
    return distance(p, a + ab * t);
}

/// Smooth body weights: inverse fourth power of the distance to each candidate bone's segment,
/// small shares dropped, at most six kept (the torso's shoulder line gets five or six, so the
/// writer's JOINTS_1/WEIGHTS_1 path is exercised).
std::vector<Influence> body_weights(const Vec3& p, const std::vector<std::string>& candidates,
                                    const std::map<std::string, uint32_t>& joint_index) {
    std::vector<std::pair<double, uint32_t>> w;
    double total = 0;
    for (const std::string& name : candidates) {
        const uint32_t j = joint_index.at(name);
        const JointDef& def = skeleton()[j];
        const double d = segment_distance(p, def.head, def.tail);
        const double v = 1.0 / std::pow(d + 0.01, 4);
        w.push_back({v, j});
        total += v;
    }
    std::sort(w.begin(), w.end(), [](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return a.second < b.second;
    });
    std::vector<Influence> out;
    double kept = 0;
    for (const auto& [v, j] : w) {
        if (out.size() == 6 || v / total < 0.015) break;
        out.push_back({j, static_cast<float>(v)});
        kept += v;
    }
    for (Influence& inf : out) inf.weight = static_cast<float>(inf.weight / kept);
    return out;
}

struct Strand {
    double angle_deg;  ///< around Y from the back of the head (-Z), positive toward the left (+X)
    double length;     ///< metres, root to tip along the hanging direction
};

constexpr std::array<Strand, 6> kStrands{{{-95, 0.16}, {-55, 0.23}, {-18, 0.33}, {18, 0.31}, {55, 0.21}, {95, 0.17}}};
constexpr Vec3 kHeadCentre{0, 1.62, 0};
constexpr double kHeadRadius = 0.11;
constexpr int kStrandRows = 12;     // rows of vertices root to tip (welded)
constexpr int kStrandSeamRow = 6;   // the row split between the two UV islands

/// Where strand `s` is at parameter u in [0, 1] (root to tip): leaves the scalp outward, then hangs.
Vec3 strand_point(const Strand& s, double u) {
    const double a = s.angle_deg * M_PI / 180, elevation = 25 * M_PI / 180;
    const Vec3 out{std::sin(a), 0, -std::cos(a)};
    const Vec3 root = kHeadCentre + (out * std::cos(elevation) + Vec3{0, 1, 0} * std::sin(elevation)) *
                                        (kHeadRadius + 0.004);
    const double drop = s.length * u;
    return root + out * (0.045 * (1 - std::exp(-drop / 0.04))) + Vec3{0, -drop, 0};
}

Vec3 strand_across(const Strand& s) {
    const double a = s.angle_deg * M_PI / 180;
    return normalize(cross(Vec3{0, 1, 0}, Vec3{std::sin(a), 0, -std::cos(a)}));
}

/// The head's radius `height` above its base (the lathe in make_mannequin: a 0.22 m sine profile of
/// kHeadRadius on 1.51 m), 0 outside it.
double head_radius_at(double height) {
    const double t = (height - 1.51) / 0.22;
    return t > 0 && t < 1 ? kHeadRadius * std::sin(M_PI * t) : 0.0;
}

/// A hair shell round the head, open at its lower edge, twice as many sides as the head's lathe
/// (every other vertex 6 mm over one of the head's, the rest up to 11 mm over a facet): the cropped cap hugs the skull down to the ears; the bob keeps the head's
/// widest radius below it and flares out to its ends at the chin.
MeshBuilder hair_shell(MannequinHair style, uint32_t head) {
    const bool bob = style == MannequinHair::bob;
    const double top = 1.73, bottom = bob ? 1.50 : 1.60;
    constexpr int kRings = 16, kSides = 20;  // dense enough that growing keeps the bob's wedges (12 vertices each)
    std::vector<std::pair<double, double>> profile{{-0.006, 0}};  // the crown's pole, 6 mm above the head
    for (int i = 1; i <= kRings; ++i) {
        const double y = top - (top - bottom) * i / kRings;
        const double flare = bob && y < 1.62 ? 0.045 * (1.62 - y) / (1.62 - bottom) : 0.0;
        const double r = bob && y < 1.62 ? kHeadRadius + 0.006 + flare : head_radius_at(y) + 0.006;
        profile.push_back({top - y, r});
    }
    MeshBuilder shell;
    shell.add_lathe({0, top, 0}, {0, -1, 0}, {1, 0, 0}, profile, kSides, 1.1,
                    [head](const Vec3&) { return std::vector<Influence>{{head, 1.0f}}; });
    return shell;
}

/// A beard and moustache: a patch in front of the lower face, 8 mm off the head's lathe, 140 degrees
/// round it, from 1.60 m (under the nose) to 1.48 m (50 mm below the chin, 30 mm above the neck
/// joint), the part below the chin brought forward onto the jaw's line. Weighted wholly to Head.
MeshBuilder beard_patch(uint32_t head) {
    constexpr int kRows = 8, kColumns = 10;
    constexpr double top = 1.60, bottom = 1.48;
    MeshBuilder patch;
    for (int r = 0; r <= kRows; ++r) {
        const double y = top - (top - bottom) * r / kRows;
        const double radius = std::max(head_radius_at(y), 0.6 * kHeadRadius) + 0.008;
        for (int c = 0; c <= kColumns; ++c) {
            const double a = (-70.0 + 140.0 * c / kColumns) * M_PI / 180;
            patch.add_vertex({radius * std::sin(a), y, radius * std::cos(a)}, {double(c) / kColumns, double(r) / kRows},
                             {{head, 1.0f}});
        }
    }
    for (int r = 0; r < kRows; ++r)
        for (int c = 0; c < kColumns; ++c) {
            const uint32_t a = static_cast<uint32_t>(r * (kColumns + 1) + c), b = a + 1, d = a + kColumns + 1, e = d + 1;
            patch.add_triangle(a, d, b);  // outward: down x round
            patch.add_triangle(b, d, e);
        }
    return patch;
}

}  // namespace

Scene make_mannequin(const MannequinOptions& options) {
    Scene scene;
    scene.source_path = "mannequin";
    scene.format = "glb";
    const int root = add_node(scene, "Mannequin", -1, Mat4::identity());

    // Skeleton, in table order, each joint a translation from its parent.
    std::map<std::string, int> node_of;
    std::map<std::string, uint32_t> joint_index;
    Skin skin;
    skin.name = "MannequinSkin";
    for (const JointDef& j : skeleton()) {
        const int parent_node = j.parent.empty() ? root : node_of.at(j.parent);
        const Vec3 parent_head = j.parent.empty() ? Vec3{} : scene.nodes[parent_node].world.translation_part();
        const int node = add_node(scene, j.name, parent_node, Mat4::translation(j.head - parent_head));
        node_of[j.name] = node;
        joint_index[j.name] = static_cast<uint32_t>(skin.joints.size());
        skin.joints.push_back(node);
    }

    // Authored hair chains: Hair_<strand>_1 at the root .. Hair_<strand>_4 at the tip, under Head.
    constexpr int kChainJoints = 4;
    std::vector<std::array<uint32_t, kChainJoints>> chain_joints;
    if (options.authored_hair_chains) {
        for (size_t s = 0; s < kStrands.size(); ++s) {
            std::array<uint32_t, kChainJoints> chain{};
            int parent = node_of.at("Head");
            for (int k = 0; k < kChainJoints; ++k) {
                const Vec3 at = strand_point(kStrands[s], double(k) / (kChainJoints - 1));
                const Vec3 from = scene.nodes[parent].world.translation_part();
                const std::string name = "Hair_" + std::to_string(s) + "_" + std::to_string(k + 1);
                parent = add_node(scene, name, parent, Mat4::translation(at - from));
                chain[k] = static_cast<uint32_t>(skin.joints.size());
                skin.joints.push_back(parent);
            }
            chain_joints.push_back(chain);
        }
    }
    for (int node : skin.joints) skin.inverse_bind.push_back(scene.nodes[node].world.inverted());
    scene.skins.push_back(std::move(skin));

    const int mesh_node = add_node(scene, "MannequinMesh", root, Mat4::identity());
    scene.materials = {"Body", "Hair"};
    if (!options.skirt_on_body_material) scene.materials.push_back("Skirt");

    // Body: closed tubes along the bones, smooth-skinned to nearby bones.
    MeshBuilder body;
    auto weights_from = [&](std::vector<std::string> candidates) {
        return [&joint_index, candidates](const Vec3& p) { return body_weights(p, candidates, joint_index); };
    };
    auto tube = [](double length, double r0, double r1, int rings) {
        std::vector<std::pair<double, double>> profile{{0, 0}};
        for (int i = 0; i < rings; ++i) {
            const double t = double(i) / (rings - 1);
            profile.push_back({length * t, r0 + (r1 - r0) * t});
        }
        profile.push_back({length, 0});
        return profile;
    };
    const Vec3 X{1, 0, 0}, Y{0, 1, 0}, Z{0, 0, 1};
    body.add_lathe({0, 0.84, 0}, Y, X,
                   {{0, 0}, {0, 0.13}, {0.12, 0.145}, {0.24, 0.14}, {0.38, 0.15}, {0.50, 0.16}, {0.58, 0.15}, {0.63, 0.09}, {0.63, 0}},
                   12, 0.68,
                   weights_from({"Hips", "Spine", "Chest", "Neck", "Shoulder_L", "Shoulder_R", "UpperArm_L",
                                 "UpperArm_R", "UpperLeg_L", "UpperLeg_R"}));
    body.add_lathe({0, 1.44, 0}, Y, X, tube(0.12, 0.05, 0.045, 3), 8, 1.0, weights_from({"Chest", "Neck", "Head"}));
    {
        std::vector<std::pair<double, double>> head{{0, 0}};
        for (int i = 1; i < 8; ++i) head.push_back({0.22 * i / 8, kHeadRadius * std::sin(M_PI * i / 8)});
        head.push_back({0.22, 0});
        body.add_lathe({0, 1.51, 0}, Y, X, head, 10, 1.1, weights_from({"Neck", "Head"}));
    }
    for (const double s : {1.0, -1.0}) {
        const std::string side = s > 0 ? "_L" : "_R";
        const Vec3 along = X * s;
        body.add_lathe({s * 0.14, 1.40, 0}, along, Y, tube(0.30, 0.05, 0.042, 4), 8, 1.0,
                       weights_from({"Chest", "Shoulder" + side, "UpperArm" + side, "LowerArm" + side}));
        body.add_lathe({s * 0.43, 1.40, 0}, along, Y, tube(0.25, 0.042, 0.035, 4), 8, 1.0,
                       weights_from({"UpperArm" + side, "LowerArm" + side, "Hand" + side}));
        body.add_lathe({s * 0.67, 1.40, 0}, along, Z, {{0, 0}, {0, 0.03}, {0.05, 0.04}, {0.11, 0.03}, {0.12, 0}}, 8,
                       0.45, weights_from({"LowerArm" + side, "Hand" + side}));
        body.add_lathe({s * 0.09, 0.93, 0}, -Y, X, tube(0.43, 0.075, 0.055, 5), 8, 1.0,
                       weights_from({"Hips", "UpperLeg" + side, "LowerLeg" + side}));
        body.add_lathe({s * 0.09, 0.51, 0}, -Y, X, tube(0.43, 0.055, 0.04, 5), 8, 1.0,
                       weights_from({"UpperLeg" + side, "LowerLeg" + side, "Foot" + side}));
        body.add_lathe({s * 0.09, 0.045, -0.06}, Z, X, {{0, 0}, {0, 0.04}, {0.20, 0.045}, {0.23, 0.03}, {0.23, 0}}, 8,
                       1.0, weights_from({"LowerLeg" + side, "Foot" + side}));
    }

    // Skirt: ONE connected band around the hips (docs/growth.md#clumps: islands would return it whole), rings
    // shared all the way round (no UV seam, planar UVs), held by Hips at the waist and drawn toward
    // the nearer upper leg further down.
    MeshBuilder skirt_builder;
    MeshBuilder& skirt = options.skirt_on_body_material ? body : skirt_builder;
    {
        constexpr int kRings = 6, kSegments = 24;
        const uint32_t first = static_cast<uint32_t>(skirt.positions.size());
        const uint32_t hips = joint_index.at("Hips"), leg_l = joint_index.at("UpperLeg_L"),
                       leg_r = joint_index.at("UpperLeg_R");
        for (int r = 0; r < kRings; ++r) {
            const double t = double(r) / (kRings - 1);
            const double y = 0.97 - 0.36 * t, rx = 0.165 + 0.14 * t, rz = 0.125 + 0.13 * t;
            for (int k = 0; k < kSegments; ++k) {
                const double a = 2 * M_PI * k / kSegments;
                const Vec3 p{rx * std::cos(a), y, rz * std::sin(a)};
                const double leg = 0.7 * t, left = std::clamp(0.5 + std::cos(a), 0.0, 1.0);
                std::vector<Influence> w{{hips, static_cast<float>(1 - leg)}};
                if (leg * left > 0) w.push_back({leg_l, static_cast<float>(leg * left)});
                if (leg * (1 - left) > 0) w.push_back({leg_r, static_cast<float>(leg * (1 - left))});
                skirt.add_vertex(p, {0.5 + p.x / 0.7, 0.5 + p.z / 0.7}, std::move(w));
            }
        }
        for (int r = 0; r + 1 < kRings; ++r)
            for (int k = 0; k < kSegments; ++k) {
                const uint32_t a = first + r * kSegments + k, b = first + r * kSegments + (k + 1) % kSegments;
                const uint32_t c = a + kSegments, d = b + kSegments;
                skirt.add_triangle(a, b, c);  // outward: around (+angle) x down
                skirt.add_triangle(b, d, c);
            }
    }

    if (options.hair != MannequinHair::strands) {
        const uint32_t head = joint_index.at("Head");
        if (!options.hair_alone) scene.meshes.push_back(body.finish("MannequinMesh", mesh_node, 0, 0));
        const MeshBuilder hair = options.hair == MannequinHair::beard ? beard_patch(head) : hair_shell(options.hair, head);
        scene.meshes.push_back(hair.finish("MannequinMesh", mesh_node, 1, 0));
        if (!options.skirt_on_body_material && !options.hair_alone)
            scene.meshes.push_back(skirt_builder.finish("MannequinMesh", mesh_node, 2, 0));
        for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
        return scene;
    }

    // Hair: six open strips hanging from the scalp. Each is two UV islands (rows 0..6 and 6..11,
    // row 6 duplicated with different UVs), so only welding positions makes a strand one piece.
    MeshBuilder hair;
    const uint32_t head = joint_index.at("Head");
    for (size_t s = 0; s < kStrands.size(); ++s) {
        const Strand& strand = kStrands[s];
        const Vec3 across = strand_across(strand);
        auto weights_at = [&](double u) -> std::vector<Influence> {
            if (!options.authored_hair_chains) return {{head, 1.0f}};
            // Linear between the chain joints either side, the first 4 cm blended in from Head.
            const double f = u * (kChainJoints - 1);
            const int seg = std::min(static_cast<int>(f), kChainJoints - 2);
            const double frac = f - seg, root_blend = std::clamp(u * strand.length / 0.04, 0.0, 1.0);
            std::vector<Influence> w;
            if (root_blend < 1) w.push_back({head, static_cast<float>(1 - root_blend)});
            if (root_blend * (1 - frac) > 0)
                w.push_back({chain_joints[s][seg], static_cast<float>(root_blend * (1 - frac))});
            if (root_blend * frac > 0)
                w.push_back({chain_joints[s][seg + 1], static_cast<float>(root_blend * frac)});
            return w;
        };
        std::array<std::array<uint32_t, 3>, kStrandRows + 1> rows{};  // the seam row appears twice
        for (int row = 0, out_row = 0; row < kStrandRows; ++row, ++out_row) {
            const double u = double(row) / (kStrandRows - 1);
            const Vec3 centre = strand_point(strand, u);
            for (int island = 0; island < 2; ++island) {
                const bool in_top = row <= kStrandSeamRow, in_bottom = row >= kStrandSeamRow;
                if ((island == 0 && !in_top) || (island == 1 && !in_bottom)) continue;
                const double v = island == 0 ? double(row) / kStrandSeamRow
                                             : double(row - kStrandSeamRow) / (kStrandRows - 1 - kStrandSeamRow);
                for (int c = 0; c < 3; ++c) {
                    const Vec3 p = centre + across * (0.015 * (c - 1));
                    const Vec2 uv{island * 0.55 + 0.45 * c / 2, v};
                    rows[out_row][c] = hair.add_vertex(p, uv, weights_at(u));
                }
                if (island == 0 && row == kStrandSeamRow) ++out_row;
            }
        }
        for (int r = 0; r < kStrandRows; ++r) {
            if (r == kStrandSeamRow) continue;  // the seam: top island's last row, bottom island's first
            for (int c = 0; c < 2; ++c) {
                // Outward (away from the head): down x across.
                hair.add_triangle(rows[r][c], rows[r + 1][c], rows[r][c + 1]);
                hair.add_triangle(rows[r][c + 1], rows[r + 1][c], rows[r + 1][c + 1]);
            }
        }
    }

    scene.meshes.push_back(body.finish("MannequinMesh", mesh_node, 0, 0));
    scene.meshes.push_back(hair.finish("MannequinMesh", mesh_node, 1, 0));
    if (!options.skirt_on_body_material) scene.meshes.push_back(skirt_builder.finish("MannequinMesh", mesh_node, 2, 0));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_flag() {
    Scene scene;
    scene.source_path = "flag";
    scene.format = "glb";
    const int root = add_node(scene, "Flagpole", -1, Mat4::identity());
    const int pole = add_node(scene, "Pole", root,
                              Mat4::from_trs({1.5, 0, -0.5}, Quat::from_axis_angle({0, 1, 0}, M_PI / 6), {1, 1, 1}));
    const int flag = add_node(scene, "Flag", pole, Mat4::translation({0, 2.45, 0}));
    scene.materials = {"Pole", "Flag"};

    // Both meshes are built in their node's space, then stored in scene space (scene.h).
    MeshBuilder pole_mesh;
    pole_mesh.add_lathe({0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {{0, 0}, {0, 0.025}, {2.6, 0.025}, {2.6, 0}}, 12, 1.0,
                        [](const Vec3&) { return std::vector<Influence>{}; });
    for (Vec3& p : pole_mesh.positions) p = scene.nodes[pole].world.transform_point(p);

    // 12 x 8 quads, 1.2 x 0.8 m, hoist edge 3 cm from the pole's axis, wound to face +Z (local).
    constexpr int kColumns = 12, kRows = 8;
    MeshBuilder sheet;
    for (int j = 0; j <= kRows; ++j)
        for (int i = 0; i <= kColumns; ++i) {
            const Vec3 local{0.03 + 1.2 * i / kColumns, -0.8 * j / kRows, 0};
            sheet.add_vertex(scene.nodes[flag].world.transform_point(local),
                             {double(i) / kColumns, double(j) / kRows});
        }
    for (int j = 0; j < kRows; ++j)
        for (int i = 0; i < kColumns; ++i) {
            const uint32_t a = j * (kColumns + 1) + i, b = a + 1, c = a + kColumns + 1, d = c + 1;
            sheet.add_triangle(a, c, b);
            sheet.add_triangle(b, c, d);
        }
    scene.meshes.push_back(pole_mesh.finish("Pole", pole, 0, -1));
    scene.meshes.push_back(sheet.finish("Flag", flag, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_curtain() {
    Scene scene;
    scene.source_path = "curtain";
    scene.format = "glb";
    const int root = add_node(scene, "Room", -1, Mat4::identity());
    const int curtain = add_node(scene, "Curtain", root, Mat4::translation({0, 2.2, 0}));
    scene.materials = {"Wood", "Fabric"};

    // One mesh "Curtain" of two primitives, as an exporter writes a curtain with its rod: the rod a
    // closed 1.2 m cylinder of radius 15 mm along X (capped: a solid), the cloth 1.0 x 1.2 m of 10 x
    // 12 quads whose top row runs 5 mm under the rod.
    MeshBuilder rod;
    rod.add_lathe({-0.1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {{0, 0}, {0, 0.015}, {1.2, 0.015}, {1.2, 0}}, 12, 1.0,
                  [](const Vec3&) { return std::vector<Influence>{}; });
    for (Vec3& p : rod.positions) p = scene.nodes[curtain].world.transform_point(p);
    constexpr int kColumns = 10, kRows = 12;
    MeshBuilder cloth;
    for (int j = 0; j <= kRows; ++j)
        for (int i = 0; i <= kColumns; ++i) {
            const Vec3 local{1.0 * i / kColumns, -0.02 - 1.2 * j / kRows, 0};
            cloth.add_vertex(scene.nodes[curtain].world.transform_point(local), {double(i) / kColumns, double(j) / kRows});
        }
    for (int j = 0; j < kRows; ++j)
        for (int i = 0; i < kColumns; ++i) {
            const uint32_t a = j * (kColumns + 1) + i, b = a + 1, c = a + kColumns + 1, d = c + 1;
            cloth.add_triangle(a, c, b);
            cloth.add_triangle(b, c, d);
        }
    scene.meshes.push_back(rod.finish("Curtain", curtain, 0, -1));
    scene.meshes.push_back(cloth.finish("Curtain", curtain, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_pleated_curtain() {
    Scene scene;
    scene.source_path = "pleated_curtain";
    scene.format = "glb";
    const int root = add_node(scene, "Room", -1, Mat4::identity());
    const int curtain = add_node(scene, "Curtain", root, Mat4::translation({0, 2.5, 0}));
    scene.materials = {"Metal", "Fabric"};

    // One mesh "Curtain" of two primitives, as an exporter writes a curtain with its rod (the shape of
    // Quaternius' Curtains_Single): the rod a closed 1.2 m cylinder of radius 15 mm along X, its axis
    // 20 mm under the hold row; the cloth 12 pleats 8 cm wide (every other column 4 cm deep), each a
    // vertical strip of three quads: a 45 mm header standing above the hold row, a 2.4 m sliver (aspect
    // 30) and a 50 mm hem. 52 vertices, 72 triangles.
    MeshBuilder rod;
    rod.add_lathe({-0.1, -0.02, 0}, {1, 0, 0}, {0, 1, 0}, {{0, 0}, {0, 0.015}, {1.2, 0.015}, {1.2, 0}}, 12, 1.0,
                  [](const Vec3&) { return std::vector<Influence>{}; });
    for (Vec3& p : rod.positions) p = scene.nodes[curtain].world.transform_point(p);
    constexpr int kColumns = 12;
    constexpr double kRowY[] = {0.045, 0.0, -2.4, -2.45};
    MeshBuilder cloth;
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i <= kColumns; ++i) {
            const Vec3 local{0.08 * i, kRowY[j], i % 2 ? 0.04 : 0.0};
            cloth.add_vertex(scene.nodes[curtain].world.transform_point(local), {double(i) / kColumns, j / 3.0});
        }
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < kColumns; ++i) {
            const uint32_t a = j * (kColumns + 1) + i, b = a + 1, c = a + kColumns + 1, d = c + 1;
            cloth.add_triangle(a, c, b);
            cloth.add_triangle(b, c, d);
        }
    scene.meshes.push_back(rod.finish("Curtain", curtain, 0, -1));
    scene.meshes.push_back(cloth.finish("Curtain", curtain, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

namespace {

// A hanging sheet on material `Banner` at node `Banner`, its top edge 5 mm under a closed rod of
// radius 15 mm (node `Rod`, material `Wood`) that holds it where it touches (docs/proxy.md#pins).
// `cloth` fills the sheet's builder in the banner's own frame: x across, y down from 0.
Scene hanging_sheet(const std::string& name, double width, const std::function<void(MeshBuilder&)>& cloth) {
    Scene scene;
    scene.source_path = name;
    scene.format = "glb";
    const int root = add_node(scene, "Room", -1, Mat4::identity());
    const int rod_node = add_node(scene, "Rod", root, Mat4::translation({0, 2.5, 0}));
    const int banner = add_node(scene, "Banner", root, Mat4::translation({0, 2.5, 0}));
    scene.materials = {"Wood", "Banner"};
    MeshBuilder rod;
    rod.add_lathe({-0.1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {{0, 0}, {0, 0.015}, {width + 0.2, 0.015}, {width + 0.2, 0}}, 12, 1.0,
                  [](const Vec3&) { return std::vector<Influence>{}; });
    for (Vec3& p : rod.positions) p = scene.nodes[rod_node].world.transform_point(p);
    MeshBuilder sheet;
    cloth(sheet);
    for (Vec3& p : sheet.positions) p = scene.nodes[banner].world.transform_point(p + Vec3{0, -0.02, 0});
    scene.meshes.push_back(rod.finish("Rod", rod_node, 0, -1));
    scene.meshes.push_back(sheet.finish("Banner", banner, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

// A grid of `columns` x `rows` quads over width x height, `skip(i, j)` leaving quad (i, j) out.
void grid(MeshBuilder& b, int columns, int rows, double width, double height, const std::function<bool(int, int)>& skip,
          const std::function<double(double, double)>& depth) {
    for (int j = 0; j <= rows; ++j)
        for (int i = 0; i <= columns; ++i) {
            const double x = width * i / columns, y = -height * j / rows;
            b.add_vertex({x, y, depth(x, y)}, {double(i) / columns, double(j) / rows});
        }
    for (int j = 0; j < rows; ++j)
        for (int i = 0; i < columns; ++i) {
            if (skip(i, j)) continue;
            const uint32_t a = j * (columns + 1) + i, c = a + columns + 1;
            b.add_triangle(a, c, a + 1);
            b.add_triangle(a + 1, c, c + 1);
        }
}

}  // namespace

Scene make_strips_sheet() {
    // 25 strips 4 cm wide and 4 m long, one quad each: edges of 4 m beside edges of 4 cm.
    return hanging_sheet("strips", 1.0, [](MeshBuilder& b) {
        grid(b, 25, 1, 1.0, 4.0, [](int, int) { return false; }, [](double, double) { return 0.0; });
    });
}

Scene make_dense_sheet() {
    // 76 x 79 quads over 1.2 x 1.2 m, gently waved: 6,160 vertices, edges of 15-16 mm.
    return hanging_sheet("dense", 1.2, [](MeshBuilder& b) {
        grid(b, 76, 79, 1.2, 1.2, [](int, int) { return false; },
             [](double x, double y) { return 0.02 * std::sin(6 * x) * std::cos(4 * y); });
    });
}

Scene make_holes_sheet() {
    // 16 x 16 quads over 1 x 1 m with two holes: a 3 x 2-quad window and a 2 x 2-quad one.
    return hanging_sheet("holes", 1.0, [](MeshBuilder& b) {
        grid(b, 16, 16, 1.0, 1.0,
             [](int i, int j) { return (i >= 3 && i < 6 && j >= 4 && j < 6) || (i >= 10 && i < 12 && j >= 9 && j < 11); },
             [](double, double) { return 0.0; });
    });
}

Scene make_fanned_sheet() {
    // 1 m across, 0.6 m down and 0.2 m out (an awning's slope): 9 vertices along the top edge under the
    // rod, 3 along the bottom, each bottom vertex fanned to two to four top segments. An inner fan edge's two wings lie on the straight top
    // edge, so its bottom vertex's bending weight is 0 but for rounding (docs/solver.md#a-hinge-its-free-ends-cannot-bend).
    return hanging_sheet("fanned", 1.0, [](MeshBuilder& b) {
        // Unevenly spaced, as an artist's are: even spacing in powers of two would cancel exactly.
        constexpr double kTop[] = {0, 0.113, 0.251, 0.362, 0.497, 0.618, 0.749, 0.871, 1.0};
        for (double x : kTop) b.add_vertex({x, 0, 0}, {x, 0});
        for (int k = 0; k <= 2; ++k) b.add_vertex({0.5 * k + 0.03, -0.6, 0.2}, {0.5 * k, 1});
        auto fan = [&](uint32_t bottom, uint32_t from, uint32_t to) {
            for (uint32_t i = from; i < to; ++i) b.add_triangle(i, bottom, i + 1);
        };
        fan(9, 0, 2);
        b.add_triangle(2, 9, 10);
        fan(10, 2, 6);
        b.add_triangle(6, 10, 11);
        fan(11, 6, 8);
    });
}

namespace {

/// A closed box from `lo` to `hi`, wound outward.
void add_box(MeshBuilder& b, const Vec3& lo, const Vec3& hi) {
    const uint32_t first = static_cast<uint32_t>(b.positions.size());
    for (int k = 0; k < 8; ++k)
        b.add_vertex({(k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z}, {double(k & 1), double((k >> 1) & 1)});
    const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces) {
        b.add_triangle(first + f[0], first + f[1], first + f[2]);
        b.add_triangle(first + f[0], first + f[2], first + f[3]);
    }
}


/// A cloth of 8 vertices lying 1.1 x 1.1 m on a table's top at height `top` and dropping 0.3 m over
/// its front and back, wound so every face's normal points away from the table: the top up, the drops
/// outward.
MeshBuilder coarse_drop_cloth(double top) {
    MeshBuilder sheet;
    constexpr double kHalf = 0.55, kDrop = 0.3;
    for (double z : {-kHalf, kHalf}) {  // per side: the drop's hem, then the top's edge
        sheet.add_vertex({-kHalf, top - kDrop, z}, {0, z < 0 ? 0.0 : 1.0});
        sheet.add_vertex({kHalf, top - kDrop, z}, {1, z < 0 ? 0.0 : 1.0});
        sheet.add_vertex({-kHalf, top, z}, {0, z < 0 ? 0.2 : 0.8});
        sheet.add_vertex({kHalf, top, z}, {1, z < 0 ? 0.2 : 0.8});
    }
    for (const auto& [a, b, c] : {std::array<uint32_t, 3>{2, 7, 3}, {2, 6, 7}, {0, 3, 1}, {0, 2, 3}, {4, 5, 7}, {4, 7, 6}})
        sheet.add_triangle(a, b, c);
    return sheet;
}

}  // namespace

Scene make_coarse_tablecloth() {
    // A table: a closed 1 x 0.8 x 1 m box (node `Table`, material `Wood`, its top at 0.8 m). Over it a
    // cloth modelled as coarsely as a prop pack's (node `Cloth`, material `Cloth`): a 1.1 x 1.1 m top
    // 5 mm above the table's and a 0.3 m drop over the front and the back, 5 cm clear of the table's
    // sides: 8 vertices, 6 triangles, its median edge 1.1 m, so the touching band (a quarter of it)
    // reaches every vertex.
    Scene scene;
    scene.source_path = "coarse_tablecloth";
    scene.format = "glb";
    const int root = add_node(scene, "Room", -1, Mat4::identity());
    const int table = add_node(scene, "Table", root, Mat4::identity());
    const int cloth = add_node(scene, "Cloth", root, Mat4::identity());
    scene.materials = {"Wood", "Cloth"};
    MeshBuilder box;
    add_box(box, {-0.5, 0.0, -0.5}, {0.5, 0.8, 0.5});
    MeshBuilder sheet = coarse_drop_cloth(0.805);
    scene.meshes.push_back(box.finish("Table", table, 0, -1));
    scene.meshes.push_back(sheet.finish("Cloth", cloth, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_topless_tablecloth() {
    // A table as a prop pack models one under its cloth: the faces the cloth hides are left out, so
    // of its top only two strips stand either side of the cloth (x 0.55-0.7 m each way, 3 cm thick,
    // their tops at 0.8 m), on four legs (node `Table`, material `Wood`). The cloth (node `Cloth`,
    // material `Cloth`) lies 1 mm above the strips' height between them, 1.1 x 1.1 m, and drops
    // 0.3 m over the front and the back: 8 vertices, its median edge 1.1 m, as coarse_tablecloth.
    Scene scene;
    scene.source_path = "topless_tablecloth";
    scene.format = "glb";
    const int root = add_node(scene, "Room", -1, Mat4::identity());
    const int table = add_node(scene, "Table", root, Mat4::identity());
    const int cloth = add_node(scene, "Cloth", root, Mat4::identity());
    scene.materials = {"Wood", "Cloth"};
    MeshBuilder wood;
    for (double side : {-1.0, 1.0}) {
        add_box(wood, {side < 0 ? -0.7 : 0.55, 0.77, -0.5}, {side < 0 ? -0.55 : 0.7, 0.8, 0.5});
        for (double z : {-0.45, 0.4}) add_box(wood, {0.6 * side - 0.025, 0.0, z}, {0.6 * side + 0.025, 0.77, z + 0.05});
    }
    MeshBuilder sheet = coarse_drop_cloth(0.801);
    scene.meshes.push_back(wood.finish("Table", table, 0, -1));
    scene.meshes.push_back(sheet.finish("Cloth", cloth, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_banner_shield() {
    // A 1 x 1.2 m banner of 10 x 12 quads under the rod, and in the same mesh a shield hung on its
    // front: a closed solid of revolution 0.8 m across whose back is flat, 1 cm in front of the cloth,
    // and whose front domes from a 3 cm rim to a 10 cm boss. Thin for its width (its median
    // thickness a tenth of it), but not between parallel faces: its thickness runs from 3 to 10 cm.
    return hanging_sheet("banner_shield", 1.0, [](MeshBuilder& b) {
        grid(b, 10, 12, 1.0, 1.2, [](int, int) { return false; }, [](double, double) { return 0.0; });
        b.add_lathe({0.5, -0.6, 0.01}, {0, 0, 1}, {1, 0, 0},
                    {{0, 0}, {0, 0.2}, {0, 0.4}, {0.03, 0.4}, {0.05, 0.3}, {0.07, 0.2}, {0.09, 0.1}, {0.1, 0}}, 16, 1.0,
                    [](const Vec3&) { return std::vector<Influence>{}; });
    });
}

Scene make_slab_sheet(const std::string& name, double thickness, bool closed) {
    // Quaternius' Banner is such a slab (3.5 cm thick, walls round its outline); a market stand's
    // awning is one closed all round, 9 mm thick (docs/proxy.md#two-sided-sheets).
    return hanging_sheet(name, 0.6, [thickness, closed](MeshBuilder& b) {
        constexpr int kColumns = 4, kRows = 3;
        const double t = thickness / 2;
        auto at = [](int i, int j) { return Vec3{0.15 * i, -0.15 * j, 0}; };
        uint32_t front[kColumns + 1][kRows + 1], back[kColumns + 1][kRows + 1];
        for (int j = 0; j <= kRows; ++j)
            for (int i = 0; i <= kColumns; ++i) {
                const Vec2 uv{double(i) / kColumns, double(j) / kRows};
                front[i][j] = b.add_vertex(at(i, j) + Vec3{0, 0, t}, uv);
                back[i][j] = b.add_vertex(at(i, j) - Vec3{0, 0, t}, uv);
            }
        for (int j = 0; j < kRows; ++j)
            for (int i = 0; i < kColumns; ++i) {  // the front faces +z, the back -z: the same split
                b.add_triangle(front[i][j], front[i][j + 1], front[i + 1][j]);
                b.add_triangle(front[i + 1][j], front[i][j + 1], front[i + 1][j + 1]);
                b.add_triangle(back[i][j], back[i + 1][j], back[i][j + 1]);
                b.add_triangle(back[i + 1][j], back[i + 1][j + 1], back[i][j + 1]);
            }
        // A wall over the outline edge the front runs p -> q: wound so that it runs the edge q -> p and
        // the back's p' -> q', one consistently wound surface.
        auto wall = [&](int pi, int pj, int qi, int qj) {
            b.add_triangle(front[qi][qj], front[pi][pj], back[pi][pj]);
            b.add_triangle(front[qi][qj], back[pi][pj], back[qi][qj]);
        };
        for (int j = 0; j < kRows; ++j) {
            wall(0, j, 0, j + 1);
            wall(kColumns, j + 1, kColumns, j);
        }
        for (int i = 0; i < kColumns; ++i) {
            wall(i, kRows, i + 1, kRows);
            if (closed) wall(i + 1, 0, i, 0);
        }
    });
}

Scene make_finial() {
    // A 0.288 m square post 1 m tall (node `Post`, material `Wood`) and on its top a finial (node
    // `Finial`, material `Roof`) as Kenney's castle flags have: a square knob widening from the post's
    // top to 0.42 m at 0.216 m up and narrowing to a 0.15 m cap at 0.576 m, open only at its foot,
    // which the post's top holds. 12 vertices, 18 triangles; its sides 0.39 m apart across its 0.41 m
    // median edge: a solid, not a slab.
    Scene scene;
    scene.source_path = "finial";
    scene.format = "glb";
    const int root = add_node(scene, "Room", -1, Mat4::identity());
    const int post = add_node(scene, "Post", root, Mat4::identity());
    const int finial = add_node(scene, "Finial", root, Mat4::identity());
    scene.materials = {"Wood", "Roof"};
    MeshBuilder box;
    for (int k = 0; k < 8; ++k)
        box.add_vertex({(k & 1) ? 0.144 : -0.144, (k & 2) ? 1.0 : 0.0, (k & 4) ? 0.144 : -0.144},
                       {double(k & 1), double((k >> 1) & 1)});
    const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces) {
        box.add_triangle(f[0], f[1], f[2]);
        box.add_triangle(f[0], f[2], f[3]);
    }
    MeshBuilder knob;
    const double half[3] = {0.144, 0.2088, 0.075}, height[3] = {1.0, 1.216, 1.576};
    uint32_t ring[3][4];
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 4; ++k) {  // counter-clockwise seen from above
            const double x = k < 2 ? half[r] : -half[r], z = (k == 0 || k == 3) ? half[r] : -half[r];
            ring[r][k] = knob.add_vertex({x, height[r], z}, {double(k) / 4, double(r) / 2});
        }
    for (int r = 0; r < 2; ++r)  // the sides, facing out
        for (int k = 0; k < 4; ++k) {
            const int l = (k + 1) % 4;
            knob.add_triangle(ring[r][k], ring[r][l], ring[r + 1][l]);
            knob.add_triangle(ring[r][k], ring[r + 1][l], ring[r + 1][k]);
        }
    knob.add_triangle(ring[2][0], ring[2][1], ring[2][2]);  // the cap, facing up
    knob.add_triangle(ring[2][0], ring[2][2], ring[2][3]);
    scene.meshes.push_back(box.finish("Post", post, 0, -1));
    scene.meshes.push_back(knob.finish("Finial", finial, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_pole_flag() {
    // Kenney's castle flags in small: a node named for the flag (`FlagPole`) carrying a 3 m pole
    // (material `Wood`, a closed box 10 cm square) with a finial on the cloth's material, and in its child node `Group 1` the cloth on
    // `Roof`, a strip of 16 tall quads (each 0.1 m wide, 1 m tall, pleated 2 cm either way) from a
    // hoist 1 cm off the pole, modelled as doubled faces. Each quad's long edges run up the pole,
    // across the way the cloth must fall from it.
    Scene scene;
    scene.source_path = "pole_flag";
    scene.format = "glb";
    const int root = add_node(scene, "Yard", -1, Mat4::identity());
    const int pole = add_node(scene, "FlagPole", root, Mat4::identity());
    const int cloth = add_node(scene, "Group 1", pole, Mat4::identity());
    scene.materials = {"Wood", "Roof"};
    MeshBuilder box;
    for (int k = 0; k < 8; ++k)
        box.add_vertex({(k & 1) ? 0.05 : -0.05, (k & 2) ? 3.0 : 0.0, (k & 4) ? 0.05 : -0.05},
                       {double(k & 1), double((k >> 1) & 1)});
    const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& f : faces) {
        box.add_triangle(f[0], f[1], f[2]);
        box.add_triangle(f[0], f[2], f[3]);
    }
    MeshBuilder knob;  // the finial on the cloth's material, closed but at its foot on the pole's top
    const double half[3] = {0.05, 0.0725, 0.026}, height[3] = {3.0, 3.075, 3.2};
    uint32_t ring[3][4];
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 4; ++k) {
            const double x = k < 2 ? half[r] : -half[r], z = (k == 0 || k == 3) ? half[r] : -half[r];
            ring[r][k] = knob.add_vertex({x, height[r], z}, {double(k) / 4, double(r) / 2});
        }
    for (int r = 0; r < 2; ++r)
        for (int k = 0; k < 4; ++k) {
            const int l = (k + 1) % 4;
            knob.add_triangle(ring[r][k], ring[r][l], ring[r + 1][l]);
            knob.add_triangle(ring[r][k], ring[r + 1][l], ring[r + 1][k]);
        }
    knob.add_triangle(ring[2][0], ring[2][1], ring[2][2]);
    knob.add_triangle(ring[2][0], ring[2][2], ring[2][3]);
    MeshBuilder flag;
    constexpr int kColumns = 16;
    for (int side = 0; side < 2; ++side)  // the front's vertices, then the back's copies
        for (int i = 0; i <= kColumns; ++i) {
            const double x = 0.06 + 0.1 * i, z = (i % 2) ? 0.02 : -0.02;
            flag.add_vertex({x, 2.8, z}, {double(i) / kColumns, 0});
            flag.add_vertex({x, 1.8, z}, {double(i) / kColumns, 1});
        }
    const uint32_t back = 2 * (kColumns + 1);
    for (uint32_t i = 0; i < kColumns; ++i) {
        const uint32_t top = 2 * i, bottom = top + 1, next_top = top + 2, next_bottom = top + 3;
        flag.add_triangle(top, bottom, next_top);
        flag.add_triangle(next_top, bottom, next_bottom);
        flag.add_triangle(back + top, back + next_top, back + bottom);
        flag.add_triangle(back + next_top, back + next_bottom, back + bottom);
    }
    scene.meshes.push_back(box.finish("FlagPole", pole, 0, -1));
    scene.meshes.push_back(knob.finish("FlagPole", pole, 1, -1));
    scene.meshes.push_back(flag.finish("Group 1", cloth, 1, -1));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

Scene make_doubled_sheet() {
    return hanging_sheet("doubled", 0.6, [](MeshBuilder& b) {
        grid(b, 4, 3, 0.6, 0.45, [](int, int) { return false; }, [](double, double) { return 0.0; });
        const uint32_t nv = static_cast<uint32_t>(b.positions.size());
        const size_t nt = b.indices.size() / 3;
        for (uint32_t v = 0; v < nv; ++v) {
            const Vec3 p = b.positions[v];
            const Vec2 uv = b.uvs[v];
            b.add_vertex(p, uv);
        }
        for (size_t t = 0; t < nt; ++t) b.add_triangle(b.indices[3 * t] + nv, b.indices[3 * t + 2] + nv, b.indices[3 * t + 1] + nv);
    });
}

Scene make_split_dress() {
    Scene scene;
    scene.source_path = "split_dress";
    scene.format = "glb";
    const int root = add_node(scene, "Armature", -1, Mat4::identity());
    const int hips = add_node(scene, "Hips", root, Mat4::translation({0, 1.0, 0}));
    const int chest = add_node(scene, "Chest", hips, Mat4::translation({0, 0.3, 0}));
    Skin skin{"Body", {hips, chest}, {}};
    for (int node : skin.joints) skin.inverse_bind.push_back(scene.nodes[node].world.inverted());
    scene.skins.push_back(std::move(skin));
    const int mesh_node = add_node(scene, "DressMesh", root, Mat4::identity());
    scene.materials = {"Dress"};
    MeshBuilder b;
    // The bodice on Chest, fitted from 1.05 to 1.45 m; the skirt on Hips, its waist ring 1 cm outside
    // the bodice's lower edge and sharing no vertex with it, flaring to its hem at 0.55 m.
    const auto on = [](uint32_t joint) {
        return [joint](const Vec3&) { return std::vector<Influence>{{joint, 1.0f}}; };
    };
    b.add_lathe({0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {{1.05, 0.15}, {1.25, 0.15}, {1.45, 0.12}}, 12, 0.8, on(1));
    b.add_lathe({0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {{0.55, 0.32}, {0.7, 0.27}, {0.85, 0.22}, {1.0, 0.18}, {1.1, 0.16}}, 12, 0.8,
                on(0));
    scene.meshes.push_back(b.finish("DressMesh", mesh_node, 0, 0));
    for (Mesh& m : scene.meshes) m.node_name = scene.nodes[m.node].name;
    return scene;
}

}  // namespace weft::testdata
