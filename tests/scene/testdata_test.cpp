// testdata/: the committed fixtures are exactly what the generator writes, the good models pass
// the Khronos validator and have the shape their README promises, and every bad input is bad in
// the one way its name says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

#include "geom/topology.h"
#include "geom/weld.h"
#include "glb_reader.h"
#include "gltf_validator.h"
#include "support/file_bytes.h"
#include "support/paths.h"
#include "testdata/fixtures.h"

namespace weft {
namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> read_fixture_bytes(const fs::path& p) { return test::file_bytes(p); }

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// True when `purpose` ends with ": " and an issue code (SCREAMING_SNAKE).
bool ends_with_code(const std::string& purpose) {
    const size_t at = purpose.rfind(": ");
    if (at == std::string::npos || at + 2 >= purpose.size()) return false;
    for (size_t i = at + 2; i < purpose.size(); ++i)
        if (!(std::isupper(static_cast<unsigned char>(purpose[i])) || purpose[i] == '_')) return false;
    return true;
}

bool model_like(const fs::path& p) {
    static const std::set<std::string> ext{".glb", ".gltf", ".fbx", ".bin", ".vrm", ".obj"};
    return ext.count(p.extension().string()) > 0;
}

TEST(Testdata, GeneratorReproducesTheCommittedFilesByteForByte) {
    const fs::path out = test::scratch_dir("testdata_regenerate");
    const test::CommandResult r = test::run_command({WEFT_GEN_TESTDATA, out.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::set<std::string> generated;
    for (const testdata::FixtureFile& f : testdata::all_fixtures()) {
        generated.insert(f.path);
        const std::vector<uint8_t> fresh = read_fixture_bytes(out / f.path);
        EXPECT_EQ(fresh, f.bytes) << f.path << ": the program and the library disagree";
        const fs::path committed = test::testdata_dir() / f.path;
        ASSERT_TRUE(fs::is_regular_file(committed))
            << committed << " is missing: run build/tools/testdata/weft_gen_testdata testdata and commit";
        const std::vector<uint8_t> old = read_fixture_bytes(committed);
        const auto diff = std::mismatch(old.begin(), old.end(), fresh.begin(), fresh.end());
        EXPECT_TRUE(old == fresh) << f.path << " differs from the generator's output at byte "
                                  << (diff.first - old.begin()) << " (committed " << old.size() << " bytes, generated "
                                  << fresh.size() << "): regenerate with build/tools/testdata/weft_gen_testdata testdata";
    }
    // A model file under testdata/ or testdata/bad/ that the generator no longer writes is stale.
    for (const fs::path& dir : {test::testdata_dir(), test::testdata_dir() / "bad"})
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (!entry.is_regular_file() || !model_like(entry.path())) continue;
            const std::string rel = fs::relative(entry.path(), test::testdata_dir()).generic_string();
            EXPECT_TRUE(generated.count(rel)) << rel << " is committed but not generated: add it to tools/testdata or delete it";
        }
}

// A budget for every clone, not a rule of the format: 1 MiB held the fixtures until the prop and
// two-sided sheets' (finials, runners, split dresses) took it to 1.05 MB; 1.25 MiB leaves room for a
// few more before a large one (dense.glb, the mannequins) must be generated in memory by its test.
TEST(Testdata, TestdataStaysSmall) {
    uintmax_t total = 0;
    for (const auto& entry : fs::recursive_directory_iterator(test::testdata_dir()))
        if (entry.is_regular_file()) total += entry.file_size();
    EXPECT_LT(total, uintmax_t(5) << 18) << "testdata/ holds " << total << " bytes";
}

// Valid glTF that weft itself refuses (no triangles, or a sheet the builder rejects) or builds with
// a warning (a sheet as artists make them: docs/proxy.md#fans, docs/proxy.md#winding).
const std::set<std::string> kValidGltfRefusedByWeft{"bad/no_meshes.gltf", "bad/points_only.glb",
                                                    "bad/non_manifold_sheet.glb", "bad/zero_area_triangle.glb",
                                                    "bad/flipped_winding.glb", "bad/fin_sheet.glb",
                                                    "bad/partition_sheet.glb", "bad/cloth_on_rod.glb"};

TEST(Testdata, KhronosValidatorPassesTheGoodModelsAndCatchesTheBrokenFiles) {
    std::vector<fs::path> files;
    std::vector<std::string> names;
    for (const testdata::FixtureFile& f : testdata::all_fixtures()) {
        const std::string ext = fs::path(f.path).extension().string();
        if (ext != ".glb" && ext != ".gltf") continue;
        if (f.path.find("dir.glb/") != std::string::npos) continue;
        // testdata/hostile/ is about weft's own refusals (some are valid glTF, some point outside
        // the folder); hostile_input_test.cpp checks each.
        if (f.path.rfind("hostile/", 0) == 0) continue;
        files.push_back(test::testdata_dir() / f.path);
        names.push_back(f.path);
    }
    ASSERT_GE(files.size(), 25u);
    const test::ValidatorRun run = test::run_gltf_validator(files);
    ASSERT_EQ(run.error, "");
    ASSERT_EQ(run.reports.size(), files.size());
    for (size_t i = 0; i < files.size(); ++i) {
        const int errors = run.reports[i]["issues"]["numErrors"].get<int>();
        const bool broken = names[i].rfind("bad/", 0) == 0 && !kValidGltfRefusedByWeft.count(names[i]);
        if (broken)
            EXPECT_GT(errors, 0) << names[i] << " is meant to be broken glTF, yet the validator accepts it";
        else
            EXPECT_EQ(errors, 0) << names[i] << "\n" << test::validator_errors(run.reports[i]);
    }
}

TEST(Testdata, BadCorpusHasOneNamedFilePerKindOfDefect) {
    std::set<std::string> kinds;
    for (const testdata::FixtureFile& f : testdata::bad_fixtures()) {
        ASSERT_EQ(f.path.rfind("bad/", 0), 0u) << f.path;
        EXPECT_FALSE(f.purpose.empty()) << f.path;
        if (f.path.find("external_buffer_too_short.bin") != std::string::npos) continue;  // a companion file
        EXPECT_TRUE(ends_with_code(f.purpose)) << f.path << ": the purpose should end with its issue code";
        EXPECT_TRUE(kinds.insert(f.path).second) << f.path << " listed twice";
    }
    // + the unreadable file the import tests make at run time (git cannot store permissions).
    EXPECT_GE(kinds.size() + 1, 20u);
    EXPECT_TRUE(fs::is_directory(test::testdata_dir() / "bad" / "dir.glb"));
    EXPECT_EQ(fs::file_size(test::testdata_dir() / "bad" / "empty.glb"), 0u);
}

/// Islands of a mesh's triangles, optionally after welding positions.
uint32_t island_count(const Mesh& m, bool weld) {
    std::vector<uint32_t> idx = m.indices;
    uint32_t vertex_count = static_cast<uint32_t>(m.vertex_count());
    if (weld) {
        const WeldResult w = weld_positions(m.positions, 0);
        for (uint32_t& i : idx) i = w.remap[i];
        vertex_count = static_cast<uint32_t>(w.unique_count());
    }
    return find_islands(build_edge_table(idx, vertex_count)).count;
}

const Mesh& mesh_with_material(const Scene& s, const std::string& material) {
    for (const Mesh& m : s.meshes)
        if (s.materials.at(m.material) == material) return m;
    throw std::runtime_error("no mesh on " + material);
}

TEST(Testdata, MannequinIsAHumanWithHairStrandsAndOneSkirtBand) {
    const Scene s = testdata::make_mannequin();
    const Bounds b = s.bounds();
    EXPECT_NEAR(b.min.y, 0.0, 1e-9);
    EXPECT_GE(b.size().y, 1.6);
    EXPECT_LE(b.size().y, 1.8);
    EXPECT_EQ(s.materials, (std::vector<std::string>{"Body", "Hair", "Skirt"}));
    // No cloth bones: nothing a chain finder could take (docs/growth.md#when-a-garment-is-grown).
    for (const Node& n : s.nodes)
        for (const char* word : {"hair", "skirt", "tail", "ribbon", "cape", "cloth"})
            EXPECT_EQ(lower(n.name).find(word), std::string::npos) << n.name;

    // Hair: six strands, each two UV islands until positions are welded (so welding is exercised).
    const Mesh& hair = mesh_with_material(s, "Hair");
    EXPECT_EQ(island_count(hair, false), 12u);
    EXPECT_EQ(island_count(hair, true), 6u);
    const WeldResult welded = weld_positions(hair.positions, 0);
    EXPECT_EQ(welded.unique_count(), 6u * 36u);  // 12 rows x 3 columns per strand, the seam row merged
    EXPECT_EQ(hair.vertex_count(), 6u * 39u);
    const uint32_t head = static_cast<uint32_t>(
        std::find(s.skins[0].joints.begin(), s.skins[0].joints.end(), s.find_node("Head")) - s.skins[0].joints.begin());
    for (const Influence& inf : hair.influences) EXPECT_EQ(inf.joint, head);
    // Strand lengths along the strip's centre line: 15 to 35 cm.
    for (size_t strand = 0; strand < 6; ++strand) {
        const size_t first = strand * 39;
        double length = 0;
        for (int row = 0; row + 1 < 13; ++row) {
            if (row == 6) continue;  // the seam's duplicate row
            length += distance(hair.positions[first + 3 * row + 1], hair.positions[first + 3 * row + 4]);
        }
        EXPECT_GE(length, 0.15) << "strand " << strand;
        EXPECT_LE(length, 0.35) << "strand " << strand;
    }

    // Skirt: one connected surface without welding, wound outward, held by Hips at the waist.
    const Mesh& skirt = mesh_with_material(s, "Skirt");
    EXPECT_EQ(island_count(skirt, false), 1u);
    const EdgeTable edges = build_edge_table(skirt.indices, static_cast<uint32_t>(skirt.vertex_count()));
    EXPECT_EQ(count_edges(edges).boundary, 48u);  // the waist and hem rings, 24 segments each
    EXPECT_EQ(count_edges(edges).non_manifold, 0u);
    EXPECT_TRUE(orient_triangles(skirt.indices, edges).inconsistent.empty());
    for (size_t v = 0; v < skirt.vertex_count(); ++v) {
        const Vec3 radial{skirt.positions[v].x, 0, skirt.positions[v].z};
        EXPECT_GT(dot(skirt.normals[v], radial), 0) << "skirt vertex " << v << " faces inward";
    }

    // The body has vertices with more than four influences (the writer's JOINTS_1 path).
    const Mesh& body = mesh_with_material(s, "Body");
    size_t crowded = 0;
    for (size_t v = 0; v < body.vertex_count(); ++v) crowded += body.influence_offsets[v + 1] - body.influence_offsets[v] > 4;
    EXPECT_GT(crowded, 0u);
    for (const Mesh& m : s.meshes)
        for (size_t v = 0; v < m.vertex_count(); ++v) {
            double sum = 0;
            for (uint32_t k = m.influence_offsets[v]; k < m.influence_offsets[v + 1]; ++k) sum += m.influences[k].weight;
            ASSERT_NEAR(sum, 1.0, 1e-6) << m.name << " vertex " << v;
        }
}

TEST(Testdata, MannequinVariantsDifferOnlyWhereTheyShould) {
    testdata::MannequinOptions chains_option, shared_option;
    chains_option.authored_hair_chains = true;
    shared_option.skirt_on_body_material = true;
    const Scene plain = testdata::make_mannequin(), chains = testdata::make_mannequin(chains_option),
                shared = testdata::make_mannequin(shared_option);

    // Chains: Hair_<strand>_1..4 under Head, the strands weighted onto them beyond the root blend.
    for (int strand = 0; strand < 6; ++strand) {
        int parent = chains.find_node("Head");
        for (int k = 1; k <= 4; ++k) {
            const int node = chains.find_node("Hair_" + std::to_string(strand) + "_" + std::to_string(k));
            ASSERT_GE(node, 0);
            EXPECT_EQ(chains.nodes[node].parent, parent);
            parent = node;
        }
    }
    EXPECT_EQ(chains.nodes.size(), plain.nodes.size() + 24);
    const Mesh& hair = mesh_with_material(chains, "Hair");
    size_t on_chain = 0;
    for (const Influence& inf : hair.influences) {
        const std::string& joint = chains.nodes[chains.skins[0].joints[inf.joint]].name;
        on_chain += joint.size() == 8 && joint.rfind("Hair_", 0) == 0 && joint[5] >= '0' && joint[5] <= '5' &&
                    joint[6] == '_' && joint[7] >= '1' && joint[7] <= '4';
    }
    EXPECT_GT(on_chain, hair.vertex_count());  // most vertices blend two chain joints
    EXPECT_EQ(hair.positions.size(), mesh_with_material(plain, "Hair").positions.size());

    // Shared skirt: two slots, the skirt's band inside the Body mesh.
    EXPECT_EQ(shared.materials, (std::vector<std::string>{"Body", "Hair"}));
    EXPECT_EQ(mesh_with_material(shared, "Body").vertex_count(), mesh_with_material(plain, "Body").vertex_count() + mesh_with_material(plain, "Skirt").vertex_count());
    EXPECT_EQ(island_count(mesh_with_material(shared, "Body"), false), island_count(mesh_with_material(plain, "Body"), false) + 1);
}

TEST(Testdata, FlagIsOneOpenConsistentlyWoundSheet) {
    const Scene s = testdata::make_flag();
    const Mesh& flag = mesh_with_material(s, "Flag");
    EXPECT_EQ(flag.node_name, "Flag");
    EXPECT_EQ(mesh_with_material(s, "Pole").node_name, "Pole");
    EXPECT_EQ(flag.vertex_count(), 13u * 9u);
    EXPECT_EQ(flag.triangle_count(), 12u * 8u * 2u);
    EXPECT_EQ(weld_positions(flag.positions, 0).unique_count(), flag.vertex_count()) << "already welded";
    const EdgeTable edges = build_edge_table(flag.indices, static_cast<uint32_t>(flag.vertex_count()));
    EXPECT_EQ(count_edges(edges).boundary, 2u * (12u + 8u));
    EXPECT_EQ(count_edges(edges).non_manifold, 0u);
    EXPECT_TRUE(orient_triangles(flag.indices, edges).inconsistent.empty());
    EXPECT_EQ(find_islands(edges).count, 1u);
    // Hoisted along the pole: the sheet's nearest edge is 3 cm from the pole's axis, vertical.
    const Vec3 axis_base = s.nodes[s.find_node("Pole")].world.translation_part();
    double nearest = INFINITY;
    for (const Vec3& p : flag.positions) nearest = std::min(nearest, std::hypot(p.x - axis_base.x, p.z - axis_base.z));
    EXPECT_NEAR(nearest, 0.03, 1e-9);
}

struct SheetTopology {
    size_t triangles = 0;
    size_t zero_area = 0;       ///< triangles with distinct corners and no area
    EdgeCounts edges;
    size_t inconsistent = 0;    ///< interior edges both neighbours run the same way
    size_t flips = 0;           ///< triangles to reverse for a consistent winding
};

/// Topology of the one primitive of a committed sheet fixture, read straight from its bytes.
SheetTopology sheet_topology(const std::string& name) {
    const test::Glb g = test::Glb::parse(read_fixture_bytes(test::testdata_dir() / "bad" / name));
    const auto& prim = g.doc["meshes"][0]["primitives"][0];
    const std::vector<double> p = g.accessor(prim["attributes"]["POSITION"].get<int>());
    std::vector<uint32_t> idx;
    for (double i : g.accessor(prim["indices"].get<int>())) idx.push_back(static_cast<uint32_t>(i));
    SheetTopology t;
    t.triangles = idx.size() / 3;
    for (size_t k = 0; k < idx.size(); k += 3) {
        auto at = [&](uint32_t v) { return Vec3{p[3 * v], p[3 * v + 1], p[3 * v + 2]}; };
        const bool distinct = idx[k] != idx[k + 1] && idx[k + 1] != idx[k + 2] && idx[k] != idx[k + 2];
        const double area = length(cross(at(idx[k + 1]) - at(idx[k]), at(idx[k + 2]) - at(idx[k])));
        t.zero_area += distinct && area < 1e-12;
    }
    const EdgeTable table = build_edge_table(idx, static_cast<uint32_t>(p.size() / 3));
    t.edges = count_edges(table);
    const Orientation o = orient_triangles(idx, table);
    t.inconsistent = o.inconsistent.size();
    for (uint8_t f : o.flip) t.flips += f;
    return t;
}

TEST(Testdata, SheetBuilderInputsCarryExactlyTheirDefect) {
    const SheetTopology fin = sheet_topology("non_manifold_sheet.glb");
    EXPECT_EQ(fin.edges.non_manifold, 1u);
    EXPECT_EQ(fin.zero_area, 0u);

    const SheetTopology flat = sheet_topology("zero_area_triangle.glb");
    EXPECT_EQ(flat.zero_area, 1u);
    EXPECT_EQ(flat.edges.non_manifold, 0u);
    EXPECT_EQ(flat.inconsistent, 0u);

    const SheetTopology flipped = sheet_topology("flipped_winding.glb");
    EXPECT_EQ(flipped.inconsistent, 3u) << "the reversed triangle disagrees with all three neighbours";
    EXPECT_EQ(flipped.flips, 1u);
    EXPECT_EQ(flipped.edges.non_manifold, 0u);
    EXPECT_EQ(flipped.zero_area, 0u);
}

}  // namespace
}  // namespace weft
