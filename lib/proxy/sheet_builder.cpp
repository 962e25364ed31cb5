#include "proxy/sheet_builder.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <limits>
#include <map>

#include "geom/topology.h"
#include "geom/weld.h"
#include "graph/geodesic.h"
#include "proxy/colour_permute.h"
#include "proxy/proxy_frame.h"
#include "proxy/sheet_detail.h"
#include "fabric/fabric.h"
#include "proxy/sheet_pins.h"
#include "proxy/sheet_binding.h"
#include "proxy/core/hinge_area.h"
#include "proxy/sheet_layers.h"
#include "proxy/sheet_resample.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"

#include "proxy/sheet_work.h"

namespace weft {

using namespace sheet_detail;

namespace {

std::string garment_label(const Source& s, const SheetGarment& g) { return s.file() + ": garment '" + g.name + "'"; }

// ---- options ---------------------------------------------------------------------------------------

bool check_options(const SheetOptions& o, const std::string& where, Issues& issues) {
    auto bad = [&](const std::string& what) {
        issues.push_back({"BAD_OPTION", Severity::error, where + ": " + what, ""});
        return false;
    };
    if (o.weld_tolerance && !(std::isfinite(*o.weld_tolerance) && *o.weld_tolerance >= 0))
        return bad("weld tolerance " + std::to_string(*o.weld_tolerance) + " m: want a finite length >= 0");
    if (!(std::isfinite(o.weld_relative) && o.weld_relative >= 0))
        return bad("relative weld tolerance " + std::to_string(o.weld_relative) + ": want a finite number >= 0");
    if (o.pin_tolerance && !(std::isfinite(*o.pin_tolerance) && *o.pin_tolerance >= 0))
        return bad("pin tolerance " + std::to_string(*o.pin_tolerance) + " m: want a finite length >= 0");
    if (!(o.pin_weight > 0 && o.pin_weight <= 1))
        return bad("pin weight " + std::to_string(o.pin_weight) + ": want a share of weight in (0, 1]");
    if (o.areal_density && !(std::isfinite(*o.areal_density) && *o.areal_density > 0))
        return bad("areal density " + std::to_string(*o.areal_density) + " kg/m²: want a finite number > 0");
    if (!o.fabric.empty() && !o.areal_density && !fabric_areal_density(o.fabric))
        return bad("fabric '" + o.fabric +
                   "' is not in the library (" + fabric_library_names() + "); name one or give an areal density");
    if (o.pin == PinRule::nearest && o.pin_target.empty()) return bad("--pin nearest: needs a node, mesh or material name");
    if (o.resolution == SheetResolution::edge_length && !(std::isfinite(o.resolution_value) && o.resolution_value > 0))
        return bad("resolution edge length " + std::to_string(o.resolution_value) + " m: want a finite length > 0");
    if (o.resolution == SheetResolution::particles && !(std::isfinite(o.resolution_value) && o.resolution_value >= 4))
        return bad("resolution particle budget " + std::to_string(o.resolution_value) + ": want at least 4 particles");
    return true;
}

// ---- gather ----------------------------------------------------------------------------------------

bool gather(const Scene& scene, const SheetGarment& garment, Source& s, Issues& issues) {
    s.scene = &scene;
    const std::string where = garment_label(s, garment);
    for (int m : garment.meshes) {
        if (m < 0 || static_cast<size_t>(m) >= scene.meshes.size()) {
            issues.push_back({"EMPTY_GARMENT", Severity::error,
                              where + " names mesh " + std::to_string(m) + ", but the model has " +
                                  std::to_string(scene.meshes.size()) + " meshes",
                              ""});
            continue;
        }
        if (std::find(s.meshes.begin(), s.meshes.end(), m) == s.meshes.end()) s.meshes.push_back(m);
    }
    if (garment.meshes.empty())
        issues.push_back({"EMPTY_GARMENT", Severity::error, where + " names no mesh: nothing to build", ""});
    if (has_error(issues)) return false;

    uint64_t total = 0;
    for (int m : s.meshes) total += scene.meshes[m].positions.size();
    if (total >= unset_index) {
        issues.push_back({"EMPTY_GARMENT", Severity::error, where + " has " + std::to_string(total) +
                                                                " vertices, past the 2^32 - 1 a proxy can index", ""});
        return false;
    }
    for (uint32_t part = 0; part < s.meshes.size(); ++part) {
        const Mesh& mesh = scene.meshes[s.meshes[part]];
        const uint32_t base = static_cast<uint32_t>(s.positions.size());
        s.first_vertex.push_back(base);
        s.positions.insert(s.positions.end(), mesh.positions.begin(), mesh.positions.end());
        const size_t nv = mesh.positions.size();
        const std::vector<char> member = garment_member(garment, s.meshes[part], nv);
        if (mesh.indices.size() % 3 != 0)
            issues.push_back({"INDEX_OUT_OF_RANGE", Severity::error,
                              s.file() + ": mesh '" + mesh.name + "' has " + std::to_string(mesh.indices.size()) +
                                  " indices, not a whole number of triangles. Re-export it triangulated.",
                              "/meshes/" + mesh.name});
        for (size_t t = 0; t < mesh.indices.size() / 3; ++t) {
            const uint32_t a = mesh.indices[3 * t], b = mesh.indices[3 * t + 1], c = mesh.indices[3 * t + 2];
            if (a >= nv || b >= nv || c >= nv) {
                issues.push_back({"INDEX_OUT_OF_RANGE", Severity::error,
                                  s.file() + ": mesh '" + mesh.name + "' triangle " + std::to_string(t) + " names vertex " +
                                      std::to_string(std::max({a, b, c})) + ", but the mesh has " + std::to_string(nv) +
                                      " vertices. Re-export the mesh.",
                                  "/meshes/" + mesh.name + "/triangles/" + std::to_string(t)});
                continue;
            }
            if (!member[a] || !member[b] || !member[c]) continue;  // the mesh's rigid part, not the garment's
            s.indices.insert(s.indices.end(), {base + a, base + b, base + c});
            s.triangle_part.push_back(part);
            s.triangle_local.push_back(static_cast<uint32_t>(t));
        }
    }
    s.first_vertex.push_back(static_cast<uint32_t>(s.positions.size()));
    return !has_error(issues);
}

// ---- frame -----------------------------------------------------------------------------------------

int skin_root_joint(const Scene& scene, const Skin& skin) {
    for (int j : skin.joints) {
        const int parent = scene.nodes[static_cast<size_t>(j)].parent;
        if (std::find(skin.joints.begin(), skin.joints.end(), parent) == skin.joints.end()) return j;
    }
    return skin.joints.empty() ? -1 : skin.joints.front();
}

// The frame an unskinned sheet rides: its node's parent when that is a bone, else its node.
// Skinned: the skin's root joint (until the holders say better).
int provisional_frame(const Source& s) {
    const Scene& scene = *s.scene;
    for (uint32_t k = 0; k < s.meshes.size(); ++k) {
        const Mesh& m = s.mesh(k);
        if (is_skinned(m)) {
            int root = skin_root_joint(scene, scene.skins[static_cast<size_t>(m.skin)]);
            if (root >= 0) return root;
        }
    }
    const int node = s.mesh(0).node;
    const int parent = parent_of(scene, node);
    return parent >= 0 && is_skin_joint(scene, parent) ? parent : node;
}

/// Pins (their band measured in scene space) and the frame: the provisional one, or the holders'
/// lowest common ancestor when skin weights pin. False, with an error filed, when nothing can be placed.
bool sheet_place_frame(SheetWork& work, Mat4& frame_world) {
    const Scene& scene = work.scene;
    const Source& src = work.src;
    const SheetGarment& garment = work.garment;
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const std::string& where = work.where;
    ClothProxy& proxy = work.proxy;
    // ---- pins and frame ----------------------------------------------------------------------------
    // Lengths in scene space for the pin band; measured again in the frame once it is known.
    const auto measure_lengths = [&proxy, &work] {
        proxy.rest_length.resize(proxy.edges.size());
        for (size_t e = 0; e < proxy.edges.size(); ++e)
            proxy.rest_length[e] = distance(work.scene_position[proxy.edges[e][0]], work.scene_position[proxy.edges[e][1]]);
    };
    int frame = provisional_frame(src);
    // A scene with no nodes (built in memory) has no frame node: the root, by the name "".
    const auto choose_pins = [&](Issues& into) {
        measure_lengths();
        const PinContext context{src,           garment,        options,         work.scene_position, work.vertex_particle,
                                 work.particle_source, proxy.edges,  proxy.rest_length, work.particle_island, work.island_closed,
                                 std::max(frame, 0), proxy.triangles};
        work.pins = assign_pins(context, into);
    };
    // A sheet too coarse to hang is refined and its pins chosen again; what the first choice said is
    // then moot (docs/proxy.md#too-coarse-to-hang).
    Issues first;
    choose_pins(first);
    if (!has_error(first) && sheet_refine_too_coarse(work)) choose_pins(issues);
    else issues.insert(issues.end(), first.begin(), first.end());
    const PinAssignment& pins = work.pins;
    if (has_error(issues)) return false;
    stats.pin_tolerance = pins.tolerance;
    if (pins.applied == PinRule::weights) {
        std::vector<int> holders;
        for (int h : pins.holder)
            if (h >= 0 && std::find(holders.begin(), holders.end(), h) == holders.end()) holders.push_back(h);
        if (!holders.empty()) frame = lowest_common_ancestor(scene, holders);
    }
    frame_world = Mat4::identity();
    if (has_node(scene, frame)) {
        proxy.frame.node = scene.nodes[frame].name;
        if (!scene.nodes[frame].world.is_finite()) {
            issues.push_back({"NON_FINITE_FRAME", Severity::error,
                              where + ": the frame node '" + proxy.frame.node +
                                  "' has a NaN or infinite rest transform. Fix the node's transform.",
                              "/nodes/" + proxy.frame.node});
            return false;
        }
        frame_world = rigid_part(scene.nodes[frame].world);
        if (!frame_world.is_finite()) {
            issues.push_back({"NON_FINITE_FRAME", Severity::error,
                              where + ": the frame node '" + proxy.frame.node +
                                  "' has a degenerate rest transform (no rotation can be read from it). Fix the "
                                  "node's transform.",
                              "/nodes/" + proxy.frame.node});
            return false;
        }
    }
    proxy.frame.rest_world = frame_world;
    return true;
}

/// Particles into the frame, masses from the fabric's areal density, one pin per holder, d_geo.
void sheet_weigh(SheetWork& work, const Mat4& to_frame) {
    const Scene& scene = work.scene;
    const SheetGarment& garment = work.garment;
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    ClothProxy& proxy = work.proxy;
    const PinAssignment& pins = work.pins;
    const uint32_t n = work.n;
    std::vector<Vec3>& scene_position = work.scene_position;
    std::vector<uint32_t>& vertex_particle = work.vertex_particle;
    std::vector<uint32_t>& particle_source = work.particle_source;
    // ---- particles in the frame, masses ------------------------------------------------------------
    proxy.rest_position = std::move(scene_position);
    for (Vec3& p : proxy.rest_position) p = to_frame.transform_point(p);
    for (size_t e = 0; e < proxy.edges.size(); ++e)
        proxy.rest_length[e] = distance(proxy.rest_position[proxy.edges[e][0]], proxy.rest_position[proxy.edges[e][1]]);

    work.fabric = fabric_for(garment, options);
    work.density = options.areal_density ? *options.areal_density : fabric_areal_density(work.fabric).value_or(0.15);
    const double density = work.density;
    // docs/solver.md#hinge: a hinge much smaller than the source's reference would be scaled past the
    // dissipative band in the garment's fabric; the solver caps it there, softer than the mesh modelled.
    // `automatic` never keeps such a mesh (sheet_resample); a named resolution can ask for one.
    if (const double bend = garment_bend(work); bend > 0) {
        if (const CappedHinges capped = capped_hinges(proxy, proxy.rest_position, bend); capped.count) {
            char text[192];
            std::snprintf(text, sizeof text, "%zu of %zu hinges (the smallest %.3g m^2, where the source's is %.3g m^2)",
                          capped.count, proxy.hinges.size(), capped.smallest, capped.smallest_reference);
            work.issues.push_back({"HINGE_RATIO_CAPPED", Severity::warning,
                                   work.where + ": " + text + " would bend stiffer than the dissipative band allows in " +
                                       work.fabric + "; their stiffness is capped at " + std::to_string(int(kHingeRatioCeiling)) +
                                       " times m/h^2, softer there than the mesh modelled. A coarser resolution "
                                       "(--resolution edge:METRES) keeps every hinge inside the band.",
                                   ""});
        }
    }
    std::vector<double> mass(n, 0);
    for (const auto& [a, b, c] : proxy.triangles) {
        const Vec3 &pa = proxy.rest_position[a], &pb = proxy.rest_position[b], &pc = proxy.rest_position[c];
        const double area = 0.5 * length(cross(pb - pa, pc - pa));
        stats.area += area;
        for (uint32_t p : {a, b, c}) mass[p] += density * area / 3;
    }
    proxy.inverse_mass.resize(n);
    for (uint32_t p = 0; p < n; ++p) {
        proxy.total_mass += mass[p];
        proxy.inverse_mass[p] = pins.holder[p] >= 0 ? 0.0 : 1.0 / mass[p];
    }
    sheet_conditioning(work, mass);

    // Pins: one per holder, in node order.
    std::map<int, std::vector<uint32_t>> by_holder;
    std::vector<uint32_t>& held = work.held;
    for (uint32_t p = 0; p < n; ++p)
        if (pins.holder[p] >= 0) {
            by_holder[pins.holder[p]].push_back(p);
            held.push_back(p);
        }
    for (auto& [node, particles] : by_holder)
        proxy.pins.push_back({static_cast<size_t>(node) < scene.nodes.size() ? scene.nodes[node].name : std::string(),
                              std::move(particles)});

    // ---- d_geo (docs/proxy.md#geodesic-distance) ------------------------------------------------------
    GeodesicResult geo = geodesic_distance(n, proxy.edges, proxy.rest_length, held);
    proxy.d_geo = std::move(geo.distance);
    proxy.nearest_held = std::move(geo.nearest);

    proxy.source = std::move(particle_source);
    proxy.vertex_particle = std::move(vertex_particle);
}

/// The render mesh: its kept triangles by source vertex, and every vertex they use bound to the
/// proxy (docs/proxy.md#binding).
void sheet_bind(SheetWork& work, const Mat4& to_frame) {
    const Source& src = work.src;
    ClothProxy& proxy = work.proxy;
    std::vector<uint8_t> bind(work.vertex_count, 0);
    proxy.render_triangles.reserve(work.kept.size());
    // The kept triangles, the backs of doubled faces, partitions across the sheet and a face's second
    // copy: dropped from the simulation, still drawn (docs/proxy.md#doubled-faces, docs/proxy.md#fans).
    std::vector<uint32_t> drawn = work.kept;
    for (uint32_t t = 0; t < work.triangle_count; ++t)
        if (work.defect[t] == (kDuplicate | kDoubled) || work.defect[t] == kPartition || work.defect[t] == (kDuplicate | kDropped))
            drawn.push_back(t);
    for (uint32_t t : drawn) {
        proxy.render_triangles.push_back({src.indices[3 * t], src.indices[3 * t + 1], src.indices[3 * t + 2]});
        for (int k = 0; k < 3; ++k) bind[src.indices[3 * t + k]] = 1;
    }
    // The rest of a garment's mesh (a pole or a bracket modelled with the cloth, SheetGarment::vertices)
    // is drawn with it: bound to the proxy where it holds the cloth, rather than left unplaced.
    for (uint32_t k = 0; k < src.meshes.size(); ++k) {
        const uint32_t first = src.first_vertex[k], count = src.first_vertex[k + 1] - first;
        const std::vector<char> member = garment_member(work.garment, src.meshes[k], count);
        for (uint32_t v = 0; v < count; ++v)
            if (!member[v] && is_finite(src.positions[first + v])) bind[first + v] = 1;
    }
    std::vector<Vec3> position(work.vertex_count);
    for (uint32_t v = 0; v < work.vertex_count; ++v)
        if (bind[v]) position[v] = to_frame.transform_point(src.positions[v]);
    const BindingStats b = bind_render_mesh(proxy, position, bind);
    work.stats.bound_vertices = b.bound;
    work.stats.binding_error_max = b.rest_error_max;
    work.stats.binding_error_mean = b.rest_error_mean;
}

/// What the proxy is (garment, class, fabric, sources, the options used) and the build's figures.
void sheet_describe(SheetWork& work, const ColourResult& colours) {
    const Scene& scene = work.scene;
    const Source& src = work.src;
    const SheetGarment& garment = work.garment;
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    ClothProxy& proxy = work.proxy;
    const PinAssignment& pins = work.pins;
    const WeldResult& weld = work.weld;
    const std::string& fabric = work.fabric;
    const double density = work.density;
    const uint32_t n = work.n;
    const std::vector<uint32_t>& held = work.held;
    // ---- what it is --------------------------------------------------------------------------------
    proxy.garment = garment.name;
    proxy.garment_class = garment.garment_class.empty() ? "sheet" : garment.garment_class;
    proxy.suggested_fabric = fabric;
    proxy.source_file = scene.source_path;
    for (uint32_t k = 0; k < src.meshes.size(); ++k) {
        const Mesh& m = src.mesh(k);
        const std::string* slot = material_of(scene, m);
        const std::string material = slot ? *slot : std::string();
        proxy.source_meshes.push_back({m.name, material, src.first_vertex[k], src.first_vertex[k + 1] - src.first_vertex[k]});
    }
    nlohmann::json used = {
        {"weld_tolerance", weld.tolerance},
        {"repair", options.repair},
        {"pin", pins.description},
        {"fabric", fabric},
        {"areal_density", density},
        {"closed_islands", options.closed_islands_rigid ? "rigid" : "fabric"},
    };
    if (pins.tolerance > 0) used["pin_tolerance"] = pins.tolerance;
    if (pins.applied == PinRule::weights) used["pin_weight"] = options.pin_weight;
    if (!options.pin_holder.empty()) used["pin_holder"] = options.pin_holder;
    // Absent where the sheet was not resampled (`source`, or `automatic` keeping a sheet that is not
    // dense): a proxy of one particle per vertex is what it was before resampling existed.
    if (stats.resolution != "source") {
        used["resolution"] = stats.resolution;
        used["edge_length"] = stats.edge_length;
    }
    if (stats.one_face) used["one_face"] = true;
    proxy.builder_options = used.dump();

    stats.particles = n;
    stats.edges = static_cast<uint32_t>(proxy.edges.size());
    stats.hinges = static_cast<uint32_t>(proxy.hinges.size());
    stats.triangles = static_cast<uint32_t>(proxy.triangles.size());
    stats.held = static_cast<uint32_t>(held.size());
    stats.pins = static_cast<uint32_t>(proxy.pins.size());
    stats.colours = colours.colours;
    stats.largest_colour = colours.largest;
    stats.smallest_colour = colours.smallest;
    stats.total_mass = proxy.total_mass;
    for (double d : proxy.d_geo)
        if (std::isfinite(d)) stats.max_d_geo = std::max(stats.max_d_geo, d);
}

}  // namespace

SheetBuildResult build_sheet(const Scene& scene, const SheetGarment& garment, const SheetOptions& options) {
    SheetBuildResult result;
    Issues& issues = result.issues;
    SheetWork work(scene, garment, options, issues, result.stats);

    // ---- gather ------------------------------------------------------------------------------------
    Source& src = work.src;
    src.scene = &scene;
    work.where = garment_label(src, garment);
    const std::string& where = work.where;
    if (!check_options(options, where, issues)) return result;
    if (!gather(scene, garment, src, issues)) return result;
    work.vertex_count = src.vertex_count();
    work.triangle_count = src.triangle_count();
    result.stats.source_vertices = work.vertex_count;
    result.stats.source_triangles = work.triangle_count;
    work.drop_severity = options.repair ? Severity::warning : Severity::error;
    work.drop_hint = options.repair ? " Dropped (--repair)." : " Delete it, or pass --repair to drop it.";

    // ---- check: vertices, weld, triangles, duplicates, edges ---------------------------------------
    sheet_check_vertices(work);
    sheet_weld_and_check_triangles(work);
    sheet_find_duplicates(work);
    sheet_keep_clean(work);
    sheet_split_fans(work);
    sheet_check_edges(work);
    if (has_error(issues)) return result;
    if (work.kept.empty()) {
        issues.push_back({"EMPTY_GARMENT", Severity::error,
                          where + " has no triangle with area" +
                              (work.triangle_count ? " left after dropping " + std::to_string(work.triangle_count) : std::string()) +
                              ": nothing to simulate.",
                          ""});
        return result;
    }

    sheet_build_rows(work);
    Mat4 frame_world;
    if (!sheet_place_frame(work, frame_world)) return result;
    const Mat4 to_frame = frame_world.inverted();
    sheet_one_face(work, to_frame);
    sheet_resample(work, to_frame);
    sheet_weigh(work, to_frame);
    sheet_bind(work, to_frame);

    // ---- colour and permute (docs/proxy.md#colouring) ----------------------------------------------
    const ColourResult colours = colour_and_permute(work.proxy);
    if (!colours.error.empty()) {
        issues.push_back({"COLOURING_INVALID", Severity::error,
                          where + ": the colouring failed its check (" + colours.error + "). This is a weft bug; please report it.",
                          ""});
        return result;
    }

    sheet_describe(work, colours);
    result.proxy = std::move(work.proxy);
    return result;
}

}  // namespace weft
