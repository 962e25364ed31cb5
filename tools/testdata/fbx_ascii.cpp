// mannequin_cm.fbx: the mannequin as an ASCII FBX 7.4 file in centimetres, Z up.
//
// Assimp 5.2.5's FBX exporter cannot make this file: FBXExporter::WriteGlobalSettings writes
// UpAxis 1 and UnitScaleFactor 1.0 as constants whatever the scene's metadata says, so an exported
// file always claims Y up and, with UnitScaleFactor 1 meaning centimetres, turns metres into a
// 1.7 cm figure. So the text is written here: a Null root, LimbNode joints, one mesh Model whose
// Geometry carries the three material slots per polygon, a Skin with one Cluster per weighted
// joint, and a BindPose. Coordinates are the Y-up metre scene mapped (x, y, z) -> 100 (x, -z, y):
// Z up, right-handed, the figure facing -Y (3ds Max's convention, FrontAxisSign -1).
#include <cinttypes>
#include <cstdio>
#include <map>
#include <string>

#include "testdata/fixtures.h"

namespace weft::testdata {

namespace {

constexpr double kCentimetres = 100;

Vec3 to_file(const Vec3& p) { return {p.x * kCentimetres, -p.z * kCentimetres, p.y * kCentimetres}; }
Vec3 direction_to_file(const Vec3& d) { return {d.x, -d.z, d.y}; }

std::string num(double v) {
    if (v == 0) v = 0;  // no "-0" in the text
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string num(int64_t v) { return std::to_string(v); }

class Writer {
public:
    std::string text;

    void line(int depth, const std::string& s) {
        text.append(static_cast<size_t>(depth), '\t');
        text += s;
        text += '\n';
    }
    template <class T>
    void array(int depth, const std::string& key, const std::vector<T>& values) {
        line(depth, key + ": *" + std::to_string(values.size()) + " {");
        std::string a = "a: ";
        for (size_t i = 0; i < values.size(); ++i) {
            if (i) a += ',';
            a += num(values[i]);
        }
        line(depth + 1, a);
        line(depth, "} ");
    }
    void matrix(int depth, const std::string& key, const Vec3& translation) {
        std::vector<double> m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, translation.x, translation.y, translation.z, 1};
        array(depth, key, m);
    }
};

}  // namespace

std::string mannequin_cm_fbx() {
    const Scene scene = make_mannequin();
    const Skin& skin = scene.skins.at(0);

    // One Geometry: every mesh's vertices in turn, each polygon tagged with its material slot.
    std::vector<double> vertices, normals;
    std::vector<int64_t> polygon_index, polygon_material;
    std::map<uint32_t, std::vector<std::pair<int64_t, double>>> cluster;  // skin joint -> (control point, weight)
    int64_t base = 0;
    for (const Mesh& mesh : scene.meshes) {
        for (size_t v = 0; v < mesh.vertex_count(); ++v) {
            const Vec3 p = to_file(mesh.positions[v]), n = direction_to_file(mesh.normals[v]);
            vertices.insert(vertices.end(), {p.x, p.y, p.z});
            normals.insert(normals.end(), {n.x, n.y, n.z});
            for (uint32_t k = mesh.influence_offsets[v]; k < mesh.influence_offsets[v + 1]; ++k)
                cluster[mesh.influences[k].joint].push_back({base + int64_t(v), mesh.influences[k].weight});
        }
        for (size_t t = 0; t < mesh.triangle_count(); ++t) {
            polygon_index.push_back(base + mesh.indices[3 * t]);
            polygon_index.push_back(base + mesh.indices[3 * t + 1]);
            polygon_index.push_back(-(base + mesh.indices[3 * t + 2]) - 1);  // FBX: last corner is ~index
            polygon_material.push_back(mesh.material);
        }
        base += static_cast<int64_t>(mesh.vertex_count());
    }

    // Object ids: fixed ranges, so the text is the same on every run.
    const int64_t geometry_id = 100000, skin_id = 500000, pose_id = 600000;
    auto model_id = [](size_t node) { return int64_t(200000 + node); };
    auto attribute_id = [](size_t node) { return int64_t(300000 + node); };
    auto material_id = [](size_t m) { return int64_t(400000 + m); };
    auto cluster_id = [](uint32_t j) { return int64_t(500001 + j); };
    std::map<int, uint32_t> joint_of_node;
    for (uint32_t j = 0; j < skin.joints.size(); ++j) joint_of_node[skin.joints[j]] = j;
    const int mesh_node = scene.meshes.front().node;

    Writer w;
    w.line(0, "; FBX 7.4.0 project file");
    w.line(0, "; weft testdata: a mannequin authored in centimetres, Z up (regenerate with weft_gen_testdata)");
    w.line(0, "; ----------------------------------------------------");
    w.line(0, "");
    w.line(0, "FBXHeaderExtension:  {");
    w.line(1, "FBXHeaderVersion: 1003");
    w.line(1, "FBXVersion: 7400");
    w.line(1, "Creator: \"weft_gen_testdata\"");
    w.line(0, "}");
    w.line(0, "GlobalSettings:  {");
    w.line(1, "Version: 1000");
    w.line(1, "Properties70:  {");
    for (const auto& [name, value] : std::vector<std::pair<std::string, int>>{{"UpAxis", 2},
                                                                              {"UpAxisSign", 1},
                                                                              {"FrontAxis", 1},
                                                                              {"FrontAxisSign", -1},
                                                                              {"CoordAxis", 0},
                                                                              {"CoordAxisSign", 1},
                                                                              {"OriginalUpAxis", 2},
                                                                              {"OriginalUpAxisSign", 1}})
        w.line(2, "P: \"" + name + "\", \"int\", \"Integer\", \"\"," + std::to_string(value));
    // FBX's unit is the centimetre: UnitScaleFactor is centimetres per file unit.
    w.line(2, "P: \"UnitScaleFactor\", \"double\", \"Number\", \"\",1");
    w.line(2, "P: \"OriginalUnitScaleFactor\", \"double\", \"Number\", \"\",1");
    w.line(1, "}");
    w.line(0, "}");

    const size_t clusters = cluster.size();
    w.line(0, "Definitions:  {");
    w.line(1, "Version: 100");
    w.line(1, "Count: " + std::to_string(1 + scene.nodes.size() + skin.joints.size() + 1 + scene.materials.size() +
                                         1 + clusters + 1));
    auto definition = [&](const std::string& type, size_t count) {
        w.line(1, "ObjectType: \"" + type + "\" {");
        w.line(2, "Count: " + std::to_string(count));
        w.line(1, "}");
    };
    definition("GlobalSettings", 1);
    definition("Model", scene.nodes.size());
    definition("NodeAttribute", skin.joints.size());
    definition("Geometry", 1);
    definition("Material", scene.materials.size());
    definition("Deformer", 1 + clusters);
    definition("Pose", 1);
    w.line(0, "}");

    w.line(0, "Objects:  {");
    w.line(1, "Geometry: " + num(geometry_id) + ", \"Geometry::" + scene.meshes.front().name + "\", \"Mesh\" {");
    w.array(2, "Vertices", vertices);
    w.array(2, "PolygonVertexIndex", polygon_index);
    w.line(2, "GeometryVersion: 124");
    w.line(2, "LayerElementNormal: 0 {");
    w.line(3, "Version: 101");
    w.line(3, "Name: \"\"");
    w.line(3, "MappingInformationType: \"ByVertice\"");
    w.line(3, "ReferenceInformationType: \"Direct\"");
    w.array(3, "Normals", normals);
    w.line(2, "}");
    w.line(2, "LayerElementMaterial: 0 {");
    w.line(3, "Version: 101");
    w.line(3, "Name: \"\"");
    w.line(3, "MappingInformationType: \"ByPolygon\"");
    w.line(3, "ReferenceInformationType: \"IndexToDirect\"");
    w.array(3, "Materials", polygon_material);
    w.line(2, "}");
    w.line(2, "Layer: 0 {");
    w.line(3, "Version: 100");
    for (const char* element : {"LayerElementNormal", "LayerElementMaterial"}) {
        w.line(3, "LayerElement:  {");
        w.line(4, std::string("Type: \"") + element + "\"");
        w.line(4, "TypedIndex: 0");
        w.line(3, "}");
    }
    w.line(2, "}");
    w.line(1, "}");

    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& node = scene.nodes[i];
        const bool joint = joint_of_node.count(static_cast<int>(i)) > 0;
        const char* type = joint ? "LimbNode" : (static_cast<int>(i) == mesh_node ? "Mesh" : "Null");
        if (joint) {
            w.line(1, "NodeAttribute: " + num(attribute_id(i)) + ", \"NodeAttribute::" + node.name + "\", \"LimbNode\" {");
            w.line(2, "TypeFlags: \"Skeleton\"");
            w.line(1, "}");
        }
        // The mannequin's nodes carry translations only (models.cpp), so Lcl Translation is all.
        const Vec3 t = to_file(node.local.translation_part());
        w.line(1, "Model: " + num(model_id(i)) + ", \"Model::" + node.name + "\", \"" + type + "\" {");
        w.line(2, "Version: 232");
        w.line(2, "Properties70:  {");
        w.line(3, "P: \"Lcl Translation\", \"Lcl Translation\", \"\", \"A\"," + num(t.x) + "," + num(t.y) + "," + num(t.z));
        w.line(2, "}");
        w.line(2, "Shading: T");
        w.line(2, "Culling: \"CullingOff\"");
        w.line(1, "}");
    }

    static constexpr double palette[3][3] = {{0.8, 0.62, 0.5}, {0.3, 0.22, 0.15}, {0.55, 0.2, 0.35}};
    for (size_t m = 0; m < scene.materials.size(); ++m) {
        const double* c = palette[m % 3];
        w.line(1, "Material: " + num(material_id(m)) + ", \"Material::" + scene.materials[m] + "\", \"\" {");
        w.line(2, "Version: 102");
        w.line(2, "ShadingModel: \"lambert\"");
        w.line(2, "MultiLayer: 0");
        w.line(2, "Properties70:  {");
        w.line(3, "P: \"DiffuseColor\", \"Color\", \"\", \"A\"," + num(c[0]) + "," + num(c[1]) + "," + num(c[2]));
        w.line(2, "}");
        w.line(1, "}");
    }

    w.line(1, "Deformer: " + num(skin_id) + ", \"Deformer::Skin\", \"Skin\" {");
    w.line(2, "Version: 101");
    w.line(2, "Link_DeformAcuracy: 50");
    w.line(1, "}");
    for (const auto& [joint, entries] : cluster) {
        const Node& bone = scene.nodes[skin.joints[joint]];
        std::vector<int64_t> indexes;
        std::vector<double> weights;
        for (const auto& [v, weight] : entries) {
            indexes.push_back(v);
            weights.push_back(weight);
        }
        w.line(1, "Deformer: " + num(cluster_id(joint)) + ", \"SubDeformer::Cluster_" + bone.name + "\", \"Cluster\" {");
        w.line(2, "Version: 100");
        w.line(2, "UserData: \"\", \"\"");
        w.array(2, "Indexes", indexes);
        w.array(2, "Weights", weights);
        // As FBX exporters write them (Blender's export_fbx_bin.py does the same): Transform is the
        // bone's bind-time world inverse times the mesh's (identity here), TransformLink the bone's
        // world. Assimp 5.2.5 takes Transform itself as the bone offset (inverse bind) matrix.
        const Vec3 bone_at = to_file(bone.world.translation_part());
        w.matrix(2, "Transform", -bone_at);
        w.matrix(2, "TransformLink", bone_at);
        w.line(1, "}");
    }

    w.line(1, "Pose: " + num(pose_id) + ", \"Pose::BIND_POSES\", \"BindPose\" {");
    w.line(2, "Type: \"BindPose\"");
    w.line(2, "Version: 100");
    w.line(2, "NbPoseNodes: " + std::to_string(skin.joints.size() + 1));
    std::vector<int> posed{mesh_node};
    posed.insert(posed.end(), skin.joints.begin(), skin.joints.end());
    for (int node : posed) {
        w.line(2, "PoseNode:  {");
        w.line(3, "Node: " + num(model_id(static_cast<size_t>(node))));
        w.matrix(3, "Matrix", to_file(scene.nodes[node].world.translation_part()));
        w.line(2, "}");
    }
    w.line(1, "}");
    w.line(0, "}");

    w.line(0, "Connections:  {");
    auto connect = [&](int64_t child, int64_t parent) { w.line(1, "C: \"OO\"," + num(child) + "," + num(parent)); };
    for (size_t i = 0; i < scene.nodes.size(); ++i) {
        const int parent = scene.nodes[i].parent;
        connect(model_id(i), parent < 0 ? 0 : model_id(static_cast<size_t>(parent)));
        if (joint_of_node.count(static_cast<int>(i))) connect(attribute_id(i), model_id(i));
    }
    connect(geometry_id, model_id(static_cast<size_t>(mesh_node)));
    for (size_t m = 0; m < scene.materials.size(); ++m) connect(material_id(m), model_id(static_cast<size_t>(mesh_node)));
    connect(skin_id, geometry_id);
    for (const auto& [joint, entries] : cluster) {
        connect(cluster_id(joint), skin_id);
        connect(model_id(static_cast<size_t>(skin.joints[joint])), cluster_id(joint));
    }
    w.line(0, "}");
    return w.text;
}

}  // namespace weft::testdata
