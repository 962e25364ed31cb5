// libFuzzer harness for the string handling of what weft writes: names with any bytes (invalid
// UTF-8, control characters, quotes, backslashes, NULs) taken from a model file the way the importer
// takes them (io/utf8_text.h), then through the inspect report (garments_to_json), the JSON dump every
// report and sidecar uses, and the GLB writer, and read back. The input is split at 0xFF into a
// node, a material and a mesh name. Invariants, any breach an abort:
//   - repaired names are valid UTF-8, and valid names come through unchanged;
//   - the report dumps strictly (no type_error.316) and parses back with the same names;
//   - the GLB written from the scene imports back with the same node and material names.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "garment/garment_json.h"
#include "garment/garments.h"
#include "scene/gltf_write.h"
#include "scene/import.h"
#include "io/utf8_text.h"

namespace {

void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz_report_strings: invariant broken: %s\n", what);
    std::abort();
}

bool json_holds(const nlohmann::json& j, const std::string& text) {
    if (j.is_string()) return j.get_ref<const std::string&>() == text;
    if (j.is_structured())
        for (const auto& child : j)
            if (json_holds(child, text)) return true;
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4096) return 0;
    std::vector<std::string> raw(3);
    size_t part = 0;
    for (size_t i = 0; i < size; ++i) {
        if (data[i] == 0xFF && part < 2) {
            ++part;
            continue;
        }
        raw[part] += char(data[i]);
    }
    std::vector<std::string> names;
    for (const std::string& r : raw) {
        std::string name = weft::valid_utf8(r);
        require(weft::is_valid_utf8(name), "a repaired name is valid UTF-8");
        if (weft::is_valid_utf8(r)) require(name == r, "a valid name is unchanged");
        names.push_back(name.empty() ? "unnamed" : name);
    }
    weft::Scene scene;
    scene.source_path = "fuzz/" + names[0] + ".glb";
    scene.format = "glb";
    weft::Node node;
    node.name = names[0];
    node.meshes = {0};
    scene.nodes.push_back(node);
    scene.materials.push_back(names[1]);
    weft::Mesh mesh;
    mesh.name = names[2];
    mesh.node_name = names[0];
    mesh.node = 0;
    mesh.material = 0;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    mesh.indices = {0, 1, 2, 0, 2, 3};
    scene.meshes.push_back(mesh);
    weft::GarmentOptions options;
    weft::GarmentRule rule;
    rule.material = names[1];
    rule.class_name = "cape";
    rule.pointer = "/garments/0";
    options.config.rules.push_back(rule);
    const weft::ModelGarments found = weft::find_garments(scene, options);
    require(found.garments.size() == 1, "the config rule finds the garment");
    const nlohmann::json report = weft::garments_to_json(scene, found);
    std::string text;
    try {
        text = report.dump(2);
    } catch (const nlohmann::json::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        require(false, "the report dumps");
    }
    const nlohmann::json back = nlohmann::json::parse(text);
    require(back == report, "the report parses back equal");
    require(json_holds(back, names[1]), "the report names the material");

    const std::vector<uint8_t> glb = weft::encode_glb(scene);
    require(!glb.empty(), "the scene writes as GLB");
    weft::ImportResult again = weft::import_scene("fuzz/written.glb", glb);
    require(again.ok(), "the written GLB imports");
    require(again.scene.materials.size() == 1 && again.scene.materials[0] == names[1], "the material name round-trips");
    require(again.scene.find_node(names[0]) >= 0, "the node name round-trips");
    return 0;
}
