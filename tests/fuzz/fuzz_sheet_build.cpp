// libFuzzer harness for the sheet builder (bytes turned into a small
// mesh, as meshoptimizer's simplifyfuzz does). The bytes become one or two meshes on a
// small integer lattice, so coincident vertices, collinear corners, repeated indices, duplicate
// faces, fans and flipped neighbours all turn up often; a few header bytes pick the options.
// Invariants, any breach an abort:
//   - every finding has a code from sheet_codes.h, a message naming the file, and a proxy exists
//     exactly when no finding is an error;
//   - a built proxy passes check_proxy (indices, colouring over every row, pins, d_geo, write-back
//     maps), every source vertex maps to a particle within the weld tolerance, and it encodes and
//     decodes back to the same bytes.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "proxy/core/codec.h"
#include "proxy/core/proxy_check.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_codes.h"
#include "scene/scene.h"

namespace {

void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz_sheet_build: invariant broken: %s\n", what);
    std::abort();
}

struct Reader {
    std::span<const uint8_t> bytes;
    size_t at = 0;
    bool empty() const { return at >= bytes.size(); }
    uint8_t next() { return at < bytes.size() ? bytes[at++] : 0; }
};

weft::Mesh read_mesh(Reader& in, const std::string& name, int node) {
    weft::Mesh m;
    m.name = name;
    m.node = node;
    m.node_name = "Sheet";
    m.material = 0;
    const uint32_t vertex_count = 1 + in.next() % 48;
    const uint32_t triangle_count = in.next() % 96;
    for (uint32_t v = 0; v < vertex_count; ++v) {
        // A 16 x 16 x 4 lattice, 5 cm apart; a coordinate byte of 255 is a NaN now and then.
        const uint8_t a = in.next(), b = in.next();
        double x = (a & 15) * 0.05, y = (a >> 4) * 0.05, z = (b & 3) * 0.05;
        if (b == 255) x = NAN;
        if (b == 254) y = x + 1e-9;  // a rounding error off another vertex's coordinate
        m.positions.push_back({x, y, z});
    }
    for (uint32_t t = 0; t < triangle_count && !in.empty(); ++t)
        for (int k = 0; k < 3; ++k) {
            const uint8_t i = in.next();
            // Mostly in range; 0xFF names a vertex past the end.
            m.indices.push_back(i == 0xFF ? vertex_count + 3 : i % vertex_count);
        }
    return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Reader in{{data, size}};
    const uint8_t flags = in.next(), rule = in.next();

    weft::Scene scene;
    scene.source_path = "fuzz.glb";
    scene.materials = {"Cloth", "Metal"};
    weft::Node root;
    root.name = "Root";
    root.children = {1, 2};
    weft::Node sheet;
    sheet.name = "Sheet";
    sheet.parent = 0;
    weft::Node pole;
    pole.name = "Pole";
    pole.parent = 0;
    pole.world = weft::Mat4::translation({-0.1, 0, 0});
    scene.nodes = {root, sheet, pole};
    scene.meshes.push_back(read_mesh(in, "A", 1));
    scene.nodes[1].meshes.push_back(0);
    weft::SheetGarment garment{"Fuzz", "flag", {0}, {}};
    if (flags & 1) {
        scene.meshes.push_back(read_mesh(in, "B", 1));
        scene.nodes[1].meshes.push_back(1);
        garment.meshes.push_back(1);
    }
    weft::Mesh pole_mesh;
    pole_mesh.name = "PoleMesh";
    pole_mesh.node = 2;
    pole_mesh.material = 1;
    pole_mesh.positions = {{-0.1, 0, 0}, {-0.1, 1, 0}, {-0.1, 0, 0.1}};
    pole_mesh.indices = {0, 1, 2};
    scene.meshes.push_back(pole_mesh);
    scene.nodes[2].meshes.push_back(static_cast<int>(scene.meshes.size()) - 1);

    weft::SheetOptions options = weft::source_resolution_options();
    options.repair = (flags & 2) != 0;
    if (flags & 4) options.weld_tolerance = (flags >> 4) * 0.01;
    static const char* const rules[] = {"automatic", "none", "top", "bottom", "left", "right", "nearest:Pole",
                                        "nearest:Metal", "vertices:0,1,2", "weights"};
    require(weft::parse_pin_rule(rules[rule % 10], options).empty(), "a listed pin rule does not parse");

    const weft::SheetBuildResult r = weft::build_sheet(scene, garment, options);
    bool any_error = false;
    for (const weft::Issue& i : r.issues) {
        require(weft::find_sheet_code(i.code) != nullptr, "a finding with a code not in sheet_codes.h");
        require(i.message.find("fuzz.glb") != std::string::npos, "a finding that does not name the file");
        any_error |= i.severity == weft::Severity::error;
    }
    require(r.proxy.has_value() == !any_error, "a proxy together with an error, or neither");
    if (!r.proxy) return 0;

    const weft::ClothProxy& p = *r.proxy;
    const std::string fault = weft::check_proxy(p);
    if (!fault.empty()) std::fprintf(stderr, "%s\n", fault.c_str());
    require(fault.empty(), "a built proxy fails check_proxy");
    size_t offset = 0;
    for (int m : garment.meshes) {
        const auto& positions = scene.meshes[m].positions;
        for (size_t v = 0; v < positions.size(); ++v) {
            const uint32_t q = p.vertex_particle[offset + v];
            if (q == weft::no_particle) continue;
            const weft::Vec3 at = p.frame.rest_world.transform_point(p.rest_position[q]);
            require(weft::distance(at, positions[v]) <= r.stats.weld_tolerance * (1 + 1e-9) + 1e-12,
                    "a source vertex maps to a particle beyond the weld tolerance");
        }
        offset += positions.size();
    }
    const std::vector<uint8_t> bytes = weft::encode_proxy(p);
    const weft::DecodeResult back = weft::decode_proxy(bytes);
    require(back.ok(), "a built proxy does not decode");
    require(weft::encode_proxy(*back.proxy) == bytes, "a built proxy does not round-trip");
    return 0;
}
