// What every fuzzed import must keep, whatever the bytes (the harnesses fuzz_gltf_import and
// fuzz_gltf_structure): every finding has a code from scene/import_codes.h and a message that
// starts with the file; a file that imports without error has at least one triangle, every index
// below its mesh's vertex count, finite positions, every weight's joint inside its skin, every
// name valid UTF-8, and its garments are found without throwing (their parts name existing meshes
// and vertices). A breach is an abort, which libFuzzer reports as a crash.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "garment/garments.h"
#include "io/utf8_text.h"
#include "scene/import.h"
#include "scene/import_codes.h"

namespace weft::fuzz {

inline void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz: invariant broken: %s\n", what);
    std::abort();
}

inline void check_import(const std::string& file, const weft::ImportResult& result) {
    for (const weft::Issue& issue : result.issues) {
        require(weft::find_import_code(issue.code) != nullptr, "a finding's code is in the import table");
        require(issue.message.rfind(file, 0) == 0, "a finding's message starts with the file");
        require(weft::is_valid_utf8(issue.message), "a finding's message is valid UTF-8");
    }
    if (!result.ok()) return;
    const weft::Scene& scene = result.scene;
    bool any_triangle = false;
    for (const weft::Mesh& mesh : scene.meshes) {
        require(weft::is_valid_utf8(mesh.name), "mesh names are valid UTF-8");
        require(mesh.indices.size() % 3 == 0, "triangle lists hold whole triangles");
        any_triangle = any_triangle || !mesh.indices.empty();
        for (uint32_t i : mesh.indices) require(i < mesh.positions.size(), "indices are in range");
        for (const auto& p : mesh.positions)
            require(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z), "positions are finite");
        require(mesh.node >= -1 && mesh.node < int(scene.nodes.size()), "a mesh's node exists");
        require(mesh.skin >= -1 && mesh.skin < int(scene.skins.size()), "a mesh's skin exists");
        if (mesh.skin >= 0 && !mesh.influence_offsets.empty()) {
            const weft::Skin& skin = scene.skins[size_t(mesh.skin)];
            require(mesh.influence_offsets.size() == mesh.positions.size() + 1, "one influence run per vertex");
            for (const weft::Influence& in : mesh.influences) {
                require(in.joint < skin.joints.size(), "an influence's joint is in its skin");
                require(std::isfinite(in.weight) && in.weight >= 0, "weights are finite and not negative");
            }
        }
    }
    require(any_triangle, "an imported model has a triangle");
    for (const weft::Node& node : scene.nodes) {
        require(weft::is_valid_utf8(node.name), "node names are valid UTF-8");
        require(node.parent >= -1 && node.parent < int(scene.nodes.size()), "a node's parent exists");
    }
    for (const auto& m : scene.materials) require(weft::is_valid_utf8(m), "material names are valid UTF-8");
    weft::ModelGarments found = weft::find_garments(scene);
    for (const weft::Garment& g : found.garments)
        for (const weft::GarmentPart& part : g.parts) {
            require(part.mesh >= 0 && part.mesh < int(scene.meshes.size()), "a garment part names a mesh");
            for (uint32_t v : part.vertices)
                require(v < scene.meshes[size_t(part.mesh)].positions.size(), "a garment part's vertices exist");
        }
}

}  // namespace weft::fuzz
