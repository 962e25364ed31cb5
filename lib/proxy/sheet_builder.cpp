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

namespace weft {

using namespace sheet_detail;

namespace {

constexpr uint32_t none = std::numeric_limits<uint32_t>::max();

// Triangle defects, as bits: one triangle can have several (a repeated index and a duplicate).
enum Defect : uint8_t {
    kNonFinite = 1,
    kRepeatedIndex = 2,
    kZeroArea = 4,
    kDuplicate = 8,
};

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
    if (total >= none) {
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
            s.indices.insert(s.indices.end(), {base + a, base + b, base + c});
            s.triangle_part.push_back(part);
            s.triangle_local.push_back(static_cast<uint32_t>(t));
        }
    }
    s.first_vertex.push_back(static_cast<uint32_t>(s.positions.size()));
    return !has_error(issues);
}

// ---- check -----------------------------------------------------------------------------------------

std::array<uint32_t, 3> sorted_corners(std::span<const uint32_t> w, uint32_t t) {
    std::array<uint32_t, 3> c{w[3 * t], w[3 * t + 1], w[3 * t + 2]};
    std::sort(c.begin(), c.end());
    return c;
}

// Same welded vertices, as sets: (a, a, b) and (a, b, b) are one line twice.
bool same_corner_set(std::span<const uint32_t> w, uint32_t t, uint32_t u) {
    const uint32_t* x = &w[3 * t];
    const uint32_t* y = &w[3 * u];
    const bool x_distinct = x[0] != x[1] && x[1] != x[2] && x[2] != x[0];
    const bool y_distinct = y[0] != y[1] && y[1] != y[2] && y[2] != y[0];
    if (x_distinct != y_distinct) return false;
    if (x_distinct) {  // the common case: three corners each, in some order
        auto in_y = [&](uint32_t v) { return v == y[0] || v == y[1] || v == y[2]; };
        return in_y(x[0]) && in_y(x[1]) && in_y(x[2]);
    }
    auto a = sorted_corners(w, t), b = sorted_corners(w, u);
    auto ea = std::unique(a.begin(), a.end()), eb = std::unique(b.begin(), b.end());
    return std::equal(a.begin(), ea, b.begin(), eb);
}

// Height of a triangle over its longest side: below the weld tolerance it has no area at the
// resolution the weld works at (its corners lie within the tolerance of one line).
double height(const Vec3& a, const Vec3& b, const Vec3& c) {
    const double longest = std::max({distance(a, b), distance(b, c), distance(c, a)});
    if (!(longest > 0)) return 0;
    return length(cross(b - a, c - a)) / longest;
}

std::string triangles_text(const Source& s, std::span<const uint32_t> triangles, std::span<const uint32_t> to_source) {
    std::string out;
    const size_t shown = std::min<size_t>(triangles.size(), 8);
    for (size_t i = 0; i < shown; ++i) {
        const uint32_t t = to_source.empty() ? triangles[i] : to_source[triangles[i]];
        out += (i ? ", " : "") + s.triangle_text(t) + " " + s.corners_text(t);
    }
    if (triangles.size() > shown) out += " and " + std::to_string(triangles.size() - shown) + " more";
    return out;
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

std::string fabric_for(const SheetGarment& g, const SheetOptions& o) {
    if (!o.fabric.empty()) return o.fabric;
    return std::string(fabric_for_garment_class(g.garment_class.empty() ? "sheet" : g.garment_class));
}

/// What build_sheet's stages hand one another, in the order they fill it.
struct SheetWork {
    SheetWork(const Scene& s, const SheetGarment& g, const SheetOptions& o, Issues& i, SheetStats& st)
        : scene(s), garment(g), options(o), issues(i), stats(st) {}
    const Scene& scene;
    const SheetGarment& garment;
    const SheetOptions& options;
    Issues& issues;
    SheetStats& stats;
    Source src;
    std::string where;
    uint32_t vertex_count = 0, triangle_count = 0;
    Severity drop_severity = Severity::error;
    std::string drop_hint;
    // check and weld
    std::vector<uint8_t> defect;          ///< per source triangle: kNonFinite, kRepeatedIndex, ...
    WeldResult weld;
    uint32_t welded_count = 0;
    std::vector<uint32_t> welded;         ///< source triangles by welded vertex
    EdgeTable full;                       ///< every triangle's edges, defects included
    std::vector<uint32_t> kept;           ///< clean triangle -> source triangle
    std::vector<uint32_t> clean;          ///< kept triangles by welded vertex, then by particle
    EdgeTable dropped_table;              ///< the kept triangles' edges when some were dropped
    bool all_kept = true;
    const EdgeTable& clean_table() const { return all_kept ? full : dropped_table; }
    // rows
    uint32_t n = 0;                       ///< particles
    std::vector<uint32_t> particle_source, vertex_particle, particle_island;
    std::vector<Vec3> scene_position;
    std::vector<uint8_t> island_closed;
    ClothProxy proxy;
    // pins, frame and masses
    PinAssignment pins;
    std::vector<uint32_t> held;
    std::string fabric;
    double density = 0;
};

/// Non-finite positions of used vertices: errors, and their triangles marked.
void sheet_check_vertices(SheetWork& work) {
    const Source& src = work.src;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const uint32_t vertex_count = work.vertex_count, triangle_count = work.triangle_count;
    std::vector<uint8_t>& defect = work.defect;
    defect.assign(triangle_count, 0);
    {
        std::vector<uint8_t> used(vertex_count, 0);
        for (uint32_t i : src.indices) used[i] = 1;
        std::vector<uint8_t> finite(vertex_count, 1);
        for (uint32_t v = 0; v < vertex_count; ++v) {
            if (!used[v] || is_finite(src.positions[v])) continue;
            finite[v] = 0;
            ++stats.non_finite_vertices;
            issues.push_back({"NON_FINITE_VERTEX", Severity::error,
                              src.file() + ": " + src.vertex_text(v) +
                                  " is not a finite position. Fix or delete the vertex in the modelling tool and "
                                  "re-export.",
                              src.vertex_pointer(v)});
        }
        for (uint32_t t = 0; t < triangle_count; ++t)
            for (int k = 0; k < 3; ++k)
                if (!finite[src.indices[3 * t + k]]) defect[t] |= kNonFinite;
    }
}

/// The weld, then each triangle: repeated indices and no area at the weld's resolution.
void sheet_weld_and_check_triangles(SheetWork& work) {
    const Source& src = work.src;
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const uint32_t triangle_count = work.triangle_count;
    std::vector<uint8_t>& defect = work.defect;
    const Severity drop_severity = work.drop_severity;
    const std::string& drop_hint = work.drop_hint;
    const double diagonal = weld_tolerance_for(src.positions, 1.0);  // the garment's bounding-box diagonal
    const double tolerance = options.weld_tolerance ? *options.weld_tolerance : options.weld_relative * diagonal;
    work.weld = weld_positions(src.positions, tolerance);
    const WeldResult& weld = work.weld;
    stats.weld_tolerance = weld.tolerance;
    work.welded_count = static_cast<uint32_t>(weld.unique_count());
    std::vector<uint32_t>& welded = work.welded;
    welded.resize(src.indices.size());
    for (size_t i = 0; i < welded.size(); ++i) welded[i] = weld.remap[src.indices[i]];
    auto welded_position = [&](uint32_t w) -> const Vec3& { return src.positions[weld.first[w]]; };
    // A triangle lower than the weld tolerance has no area at the weld's resolution. The floor,
    // 1e-12 of the garment's size, catches corners that were collinear in the file and came out of
    // the node transform a rounding error off the line, when welding is exact.
    const double flat = std::max(weld.tolerance, 1e-12 * diagonal);

    // ---- check: triangles --------------------------------------------------------------------------
    for (uint32_t t = 0; t < triangle_count; ++t) {
        const uint32_t a = src.indices[3 * t], b = src.indices[3 * t + 1], c = src.indices[3 * t + 2];
        if (a == b || b == c || c == a) {
            defect[t] |= kRepeatedIndex;
            ++stats.repeated_index_triangles;
            const uint32_t twice = (a == b || a == c) ? a : b;
            issues.push_back({"REPEATED_INDEX_TRIANGLE", drop_severity,
                              src.file() + ": " + src.triangle_text(t) + " " + src.corners_text(t) + " names vertex " +
                                  std::to_string(src.local_vertex(twice)) + " twice, at " +
                                  position_text(src.positions[twice]) + ": a triangle with no area." + drop_hint,
                              src.triangle_pointer(t)});
            continue;
        }
        if (defect[t] & kNonFinite) continue;
        const uint32_t wa = welded[3 * t], wb = welded[3 * t + 1], wc = welded[3 * t + 2];
        const bool collapsed = wa == wb || wb == wc || wc == wa;
        if (collapsed || height(welded_position(wa), welded_position(wb), welded_position(wc)) <= flat) {
            defect[t] |= kZeroArea;
            ++stats.zero_area_triangles;
            issues.push_back({"ZERO_AREA_TRIANGLE", drop_severity,
                              src.file() + ": " + src.triangle_text(t) + " " + src.corners_text(t) + " at " +
                                  position_text(src.positions[a]) + ", " + position_text(src.positions[b]) + ", " +
                                  position_text(src.positions[c]) + " has no area: " +
                                  (collapsed ? "two of its corners weld into one"
                                             : "its corners lie on one line") +
                                  " (weld tolerance " + metres_text(weld.tolerance) + ")." + drop_hint,
                              src.triangle_pointer(t)});
        }
    }
}

/// Triangles covering the same welded vertices as an earlier one.
void sheet_find_duplicates(SheetWork& work) {
    const Source& src = work.src;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const uint32_t triangle_count = work.triangle_count, welded_count = work.welded_count;
    const std::vector<uint32_t>& welded = work.welded;
    std::vector<uint8_t>& defect = work.defect;
    const Severity drop_severity = work.drop_severity;
    const std::string& drop_hint = work.drop_hint;
    // Every triangle's edges, defects included: what the file has (NON_MANIFOLD_EDGE counts them all
    // when refusing, and duplicates are found through the edges they share).
    work.full = build_edge_table(welded, welded_count);
    const EdgeTable& full = work.full;
    {
        std::vector<uint32_t> point_triangle(welded_count, none);  // a triangle whose corners all weld into one
        for (uint32_t t = 0; t < triangle_count; ++t) {
            uint32_t original = none;
            uint32_t e = none;
            for (uint32_t side : full.triangle_edges[t])
                if (side != no_edge) {
                    e = side;
                    break;
                }
            if (e == none) {
                uint32_t& first = point_triangle[welded[3 * t]];
                if (first == none) first = t;
                else original = first;
            } else {
                for (uint32_t u : full.faces(e)) {
                    if (u >= t) break;
                    if (same_corner_set(welded, t, u)) {
                        original = u;
                        break;
                    }
                }
            }
            if (original == none) continue;
            defect[t] |= kDuplicate;
            ++stats.duplicate_triangles;
            issues.push_back({"DUPLICATE_TRIANGLE", drop_severity,
                              src.file() + ": " + src.triangle_text(t) + " " + src.corners_text(t) + " at " +
                                  position_text(src.positions[src.indices[3 * t]]) +
                                  " covers the same welded vertices as " + src.triangle_text(original) + " " +
                                  src.corners_text(original) + ": a doubled face." + drop_hint,
                              src.triangle_pointer(t)});
        }
    }
}

/// The triangles a sheet would be built from, and their edges.
void sheet_keep_clean(SheetWork& work) {
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    const uint32_t triangle_count = work.triangle_count;
    const std::vector<uint8_t>& defect = work.defect;
    std::vector<uint32_t>& welded = work.welded;
    // The triangles a sheet would be built from.
    std::vector<uint32_t>& kept = work.kept;  // clean triangle -> source triangle
    kept.reserve(triangle_count);
    for (uint32_t t = 0; t < triangle_count; ++t)
        if (defect[t] == 0) kept.push_back(t);
    if (options.repair)
        for (uint32_t t = 0; t < triangle_count; ++t) stats.dropped_triangles += (defect[t] & ~kNonFinite) != 0;
    work.all_kept = kept.size() == triangle_count;
    const bool all_kept = work.all_kept;
    std::vector<uint32_t>& clean = work.clean;  // kept triangles by welded vertex (the welded copy itself when all are kept)
    if (all_kept) {
        clean = std::move(welded);
    } else {
        clean.reserve(kept.size() * 3);
        for (uint32_t t : kept) clean.insert(clean.end(), {welded[3 * t], welded[3 * t + 1], welded[3 * t + 2]});
    }
    if (!all_kept) work.dropped_table = build_edge_table(clean, work.welded_count);
}

/// Non-manifold edges and inconsistent winding.
void sheet_check_edges(SheetWork& work) {
    const Source& src = work.src;
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    Issues& issues = work.issues;
    const WeldResult& weld = work.weld;
    const EdgeTable& full = work.full;
    const EdgeTable& clean_table = work.clean_table();
    const std::vector<uint32_t>& kept = work.kept;
    const std::vector<uint32_t>& clean = work.clean;
    // ---- check: edges ------------------------------------------------------------------------------
    // Refusing, the file's own edges are judged; repairing, the edges left after the drops. A
    // non-manifold edge is never accepted either way.
    {
        const EdgeTable& judged = options.repair ? clean_table : full;
        const std::span<const uint32_t> to_source = options.repair ? std::span<const uint32_t>(kept) : std::span<const uint32_t>();
        for (uint32_t e = 0; e < judged.edge_count(); ++e) {
            if (judged.face_count(e) < 3) continue;
            ++stats.non_manifold_edges;
            const uint32_t a = weld.first[judged.edges[e][0]], b = weld.first[judged.edges[e][1]];
            issues.push_back({"NON_MANIFOLD_EDGE", Severity::error,
                              src.file() + ": the edge from " + src.vertex_text(a) + " to " + src.vertex_text(b) +
                                  " is shared by " + std::to_string(judged.face_count(e)) + " triangles (" +
                                  triangles_text(src, judged.faces(e), to_source) +
                                  "); cloth allows two. Split the edge so each surface has its own vertices, or "
                                  "delete the extra faces.",
                              src.edge_pointer(a, b)});
        }
    }
    const Orientation orientation = orient_triangles(clean, clean_table);
    for (uint32_t e : orientation.inconsistent) {
        ++stats.inconsistent_edges;
        auto f = clean_table.faces(e);
        const uint32_t t0 = kept[f[0]], t1 = kept[f[1]];
        const uint32_t a = weld.first[clean_table.edges[e][0]], b = weld.first[clean_table.edges[e][1]];
        const bool orientable = orientation.island_orientable[orientation.island[f[0]]];
        const uint32_t flip = orientation.flip[f[1]] ? t1 : t0;
        issues.push_back({"INCONSISTENT_WINDING", Severity::error,
                          src.file() + ": " + src.triangle_text(t0) + " " + src.corners_text(t0) + " and " +
                              src.triangle_text(t1) + " " + src.corners_text(t1) +
                              " run the same way along their shared edge, " + src.vertex_text(a) + " to " +
                              src.vertex_text(b) + ". " +
                              (orientable ? "Flip " + src.triangle_text(flip) +
                                                " (reverse its corners; 'recalculate normals' in the modelling tool)."
                                          : "The piece is one-sided (a Möbius strip): no winding is consistent. Cut it "
                                            "along an edge so it has two sides."),
                          src.triangle_pointer(t1)});
    }
}

/// Particles (the welded vertices kept triangles use), edges, hinges, triangles and pieces.
void sheet_build_rows(SheetWork& work) {
    const Source& src = work.src;
    SheetStats& stats = work.stats;
    const WeldResult& weld = work.weld;
    const EdgeTable& clean_table = work.clean_table();
    const std::vector<uint32_t>& kept = work.kept;
    std::vector<uint32_t>& clean = work.clean;
    const uint32_t vertex_count = work.vertex_count;
    // ---- rows --------------------------------------------------------------------------------------
    // Particles: the welded vertices kept triangles use, in welded order (first source vertex).
    std::vector<uint32_t> particle_of(work.welded_count, none);
    for (uint32_t w : clean) particle_of[w] = 0;
    std::vector<uint32_t>& particle_source = work.particle_source;
    for (uint32_t w = 0; w < work.welded_count; ++w)
        if (particle_of[w] != none) {
            particle_of[w] = static_cast<uint32_t>(particle_source.size());
            particle_source.push_back(weld.first[w]);
        }
    work.n = static_cast<uint32_t>(particle_source.size());
    const uint32_t n = work.n;
    std::vector<Vec3>& scene_position = work.scene_position;
    scene_position.resize(n);
    for (uint32_t p = 0; p < n; ++p) scene_position[p] = src.positions[particle_source[p]];
    std::vector<uint32_t>& vertex_particle = work.vertex_particle;
    vertex_particle.resize(vertex_count);
    for (uint32_t v = 0; v < vertex_count; ++v) vertex_particle[v] = particle_of[weld.remap[v]];
    for (uint32_t& w : clean) w = particle_of[w];  // clean triangles now name particles

    ClothProxy& proxy = work.proxy;
    proxy.kind = ProxyKind::sheet;
    proxy.edges.reserve(clean_table.edge_count());
    for (const auto& [a, b] : clean_table.edges) proxy.edges.push_back({particle_of[a], particle_of[b]});
    for (uint32_t e = 0; e < clean_table.edge_count(); ++e) {
        const uint32_t faces = clean_table.face_count(e);
        if (faces == 1) ++stats.boundary_edges;
        if (faces != 2) continue;
        // The hinge stencil (docs/solver.md#hinge): the shared edge as the first triangle runs it, then each
        // triangle's opposite wing (triangles (x0, x1, x2) and (x1, x0, x3)).
        auto f = clean_table.faces(e);
        uint32_t k = 0;
        while (clean_table.triangle_edges[f[0]][k] != e) ++k;
        const uint32_t x0 = clean[3 * f[0] + k], x1 = clean[3 * f[0] + (k + 1) % 3], x2 = clean[3 * f[0] + (k + 2) % 3];
        uint32_t x3 = none;
        for (int j = 0; j < 3; ++j)
            if (clean[3 * f[1] + j] != x0 && clean[3 * f[1] + j] != x1) x3 = clean[3 * f[1] + j];
        proxy.hinges.push_back({x0, x1, x2, x3});
    }
    proxy.triangles.reserve(kept.size());
    for (size_t t = 0; t < kept.size(); ++t) proxy.triangles.push_back({clean[3 * t], clean[3 * t + 1], clean[3 * t + 2]});

    // Pieces, and which are closed (no boundary edge).
    const Islands islands = find_islands(clean_table);
    std::vector<uint8_t>& island_closed = work.island_closed;
    island_closed.assign(islands.count, 1);
    for (uint32_t e = 0; e < clean_table.edge_count(); ++e)
        if (clean_table.face_count(e) == 1) island_closed[islands.island[clean_table.faces(e)[0]]] = 0;
    // A particle on a closed piece counts as that piece's (a bowtie vertex between a solid and a
    // sheet rides the solid), else as its lowest piece's.
    std::vector<uint32_t>& particle_island = work.particle_island;
    particle_island.assign(n, none);
    for (uint32_t t = 0; t < kept.size(); ++t)
        for (int j = 0; j < 3; ++j) {
            uint32_t& is = particle_island[clean[3 * t + j]];
            const uint32_t mine = islands.island[t];
            if (is == none || (island_closed[mine] && !island_closed[is]) ||
                (island_closed[mine] == island_closed[is] && mine < is))
                is = mine;
        }
    stats.islands = islands.count;
    stats.closed_islands = static_cast<uint32_t>(std::count(island_closed.begin(), island_closed.end(), 1));
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
    const std::vector<Vec3>& scene_position = work.scene_position;
    const std::vector<uint32_t>& vertex_particle = work.vertex_particle;
    const std::vector<uint32_t>& particle_source = work.particle_source;
    const std::vector<uint32_t>& particle_island = work.particle_island;
    const std::vector<uint8_t>& island_closed = work.island_closed;
    // ---- pins and frame ----------------------------------------------------------------------------
    // Lengths in scene space for the pin band; measured again in the frame once it is known.
    proxy.rest_length.resize(proxy.edges.size());
    for (size_t e = 0; e < proxy.edges.size(); ++e)
        proxy.rest_length[e] = distance(scene_position[proxy.edges[e][0]], scene_position[proxy.edges[e][1]]);
    int frame = provisional_frame(src);
    // A scene with no nodes (built in memory) has no frame node: the root, by the name "".
    const PinContext context{src,           garment,        options,         scene_position, vertex_particle,
                             particle_source, proxy.edges,  proxy.rest_length, particle_island, island_closed,
                             std::max(frame, 0), proxy.triangles};
    work.pins = assign_pins(context, issues);
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

void adopt_mesh(SheetWork& work, sheet_detail::ResampleMesh out, const Mat4& to_frame, bool references);

/// A two-sided sheet is simulated on one face (docs/proxy.md#two-sided-sheets): the other face's
/// triangles and the particles only they use are left out, and its render vertices are bound to the
/// kept face with their offset. Only `automatic`: `source` keeps every welded vertex, and an edge
/// length or a particle budget resamples the sheet as welded.
void sheet_one_face(SheetWork& work, const Mat4& to_frame) {
    work.stats.welded_particles = work.n;
    if (work.options.resolution != SheetResolution::automatic) return;
    ClothProxy& proxy = work.proxy;
    Vec3 axis;
    const std::vector<uint8_t> keep = one_face_of_two(work.scene_position, proxy.triangles, work.pins.holder, &axis);
    if (keep.empty()) return;
    const std::vector<Vec3> modelled = work.scene_position;
    move_to_mid_surface(work.scene_position, proxy.triangles, keep, work.pins.holder, axis);
    // A particle moved to the mid-surface is no longer where its vertices are: they are bound to the
    // face with their offset, as a vertex resampling removed is (docs/proxy.md#binding).
    for (uint32_t& p : work.vertex_particle)
        if (p != none && !(work.scene_position[p] == modelled[p])) p = none;
    for (uint32_t p = 0; p < work.n; ++p)
        if (!(work.scene_position[p] == modelled[p])) work.particle_source[p] = no_source;
    ResampleMesh out;
    std::vector<uint32_t> new_of_old(work.n, none);
    for (size_t t = 0; t < proxy.triangles.size(); ++t)
        if (keep[t])
            for (uint32_t v : proxy.triangles[t]) new_of_old[v] = 0;
    for (uint32_t v = 0; v < work.n; ++v)
        if (new_of_old[v] != none) {
            new_of_old[v] = static_cast<uint32_t>(out.position.size());
            out.position.push_back(work.scene_position[v]);
            out.holder.push_back(work.pins.holder[v]);
            out.origin.push_back(v);
        }
    for (size_t t = 0; t < proxy.triangles.size(); ++t)
        if (keep[t]) {
            const auto& [a, b, c] = proxy.triangles[t];
            out.triangles.push_back({new_of_old[a], new_of_old[b], new_of_old[c]});
        }
    adopt_mesh(work, std::move(out), to_frame, false);
    work.stats.one_face = true;
    work.stats.resolution = resolution_text(work.options);  // not the welded sheet: not `source`
}

/// The simulation mesh of its own (docs/proxy.md#resampling): the welded sheet resampled to the
/// target edge length, every hold kept, its rows rebuilt. `source` leaves the sheet as welded.
void sheet_resample(SheetWork& work, const Mat4& to_frame) {
    const SheetOptions& options = work.options;
    SheetStats& stats = work.stats;
    ClothProxy& proxy = work.proxy;
    if (options.resolution == SheetResolution::source) return;
    double area = 0;
    for (const auto& [a, b, c] : proxy.triangles)
        area += 0.5 * length(cross(work.scene_position[b] - work.scene_position[a], work.scene_position[c] - work.scene_position[a]));
    // Never finer than the artist's mesh: the fabrics' budgets (substeps x iterations) were fitted on
    // proxies of the source's density, and a finer proxy of the same budget stretches more
    // (docs/proxy.md#resampling).
    double L = std::max(automatic_edge_length(area),
                        std::sqrt(2 / std::sqrt(3.0) * area / std::max<double>(work.n, 4)));
    if (options.resolution == SheetResolution::edge_length) L = options.resolution_value;
    // An equilateral mesh of edge L has about 1.155 area / L² particles (2 triangles of sqrt(3)/4 L² each).
    if (options.resolution == SheetResolution::particles) L = std::sqrt(2 / std::sqrt(3.0) * area / options.resolution_value);
    // `automatic` coarsens a dense sheet and keeps any other as the artist made it: a sheet whose median
    // edge is at least the collapse threshold would only be split and flipped, which on the shared
    // models' low-poly sheets stretches and tangles what their own vertices hold (docs/proxy.md#resampling).
    if (options.resolution == SheetResolution::automatic) {
        std::vector<double> lengths;
        lengths.reserve(proxy.edges.size());
        for (const auto& [a, b] : proxy.edges) lengths.push_back(distance(work.scene_position[a], work.scene_position[b]));
        if (lengths.empty()) return;
        std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
        if (lengths[lengths.size() / 2] >= kDenseBelow * L) return;
    }
    stats.edge_length = L;
    stats.resolution = resolution_text(options);

    ResampleMesh in;
    in.position = work.scene_position;
    in.triangles = proxy.triangles;
    in.holder = work.pins.holder;
    in.origin.resize(work.n);
    for (uint32_t p = 0; p < work.n; ++p) in.origin[p] = p;
    adopt_mesh(work, resample_sheet(in, L), to_frame, true);
}

/// The sheet's particles, rows and holds become `out`'s, whose `origin` names the particle each vertex
/// was. With `references`, each hinge records the area of the hinge of the mesh before it where it lies
/// (docs/solver.md#hinge); without, every hinge is one of that mesh's and its own reference.
void adopt_mesh(SheetWork& work, ResampleMesh out, const Mat4& to_frame, bool references) {
    ClothProxy& proxy = work.proxy;
    SheetStats& stats = work.stats;
    // The source's hinges, for the reference areas below: the midpoint of each shared edge, and A₁+A₂ in the frame.
    std::vector<Vec3> source_mid, frame_position(work.n);
    std::vector<double> source_area;
    for (uint32_t p = 0; p < work.n; ++p) frame_position[p] = to_frame.transform_point(work.scene_position[p]);
    for (const auto& q : proxy.hinges) {
        source_mid.push_back((work.scene_position[q[0]] + work.scene_position[q[1]]) * 0.5);
        source_area.push_back(hinge_area(q, frame_position));
    }

    const uint32_t n = static_cast<uint32_t>(out.position.size());
    std::vector<uint32_t> new_of_old(work.n, none), particle_source(n, no_source);
    for (uint32_t p = 0; p < n; ++p)
        if (out.origin[p] != none) {
            new_of_old[out.origin[p]] = p;
            particle_source[p] = work.particle_source[out.origin[p]];
        }
    for (uint32_t& p : work.vertex_particle)
        if (p != none) p = new_of_old[p];
    work.particle_source = std::move(particle_source);
    work.scene_position = std::move(out.position);
    work.pins.holder = std::move(out.holder);
    work.n = n;

    // Rows of the new mesh, as sheet_build_rows makes them (docs/proxy.md#rows).
    std::vector<uint32_t> flat;
    flat.reserve(out.triangles.size() * 3);
    for (const auto& t : out.triangles) flat.insert(flat.end(), t.begin(), t.end());
    const EdgeTable table = build_edge_table(flat, n);
    proxy.edges = table.edges;
    proxy.hinges.clear();
    stats.boundary_edges = 0;
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        const uint32_t faces = table.face_count(e);
        if (faces == 1) ++stats.boundary_edges;
        if (faces != 2) continue;
        auto f = table.faces(e);
        uint32_t k = 0;
        while (table.triangle_edges[f[0]][k] != e) ++k;
        const uint32_t x0 = flat[3 * f[0] + k], x1 = flat[3 * f[0] + (k + 1) % 3], x2 = flat[3 * f[0] + (k + 2) % 3];
        uint32_t x3 = none;
        for (int j = 0; j < 3; ++j)
            if (flat[3 * f[1] + j] != x0 && flat[3 * f[1] + j] != x1) x3 = flat[3 * f[1] + j];
        proxy.hinges.push_back({x0, x1, x2, x3});
    }
    proxy.triangles = std::move(out.triangles);
    // docs/solver.md#hinge: each hinge bends as the source mesh did where it lies: its reference area is
    // that of the source hinge whose shared edge's midpoint is nearest its own (the first of equals).
    proxy.hinge_reference_area.clear();
    if (references && !source_mid.empty())
        for (const auto& q : proxy.hinges) {
            const Vec3 mid = (work.scene_position[q[0]] + work.scene_position[q[1]]) * 0.5;
            size_t best = 0;
            double best_d = std::numeric_limits<double>::infinity();
            for (size_t s = 0; s < source_mid.size(); ++s)
                if (const double d = length_squared(source_mid[s] - mid); d < best_d) {
                    best_d = d;
                    best = s;
                }
            proxy.hinge_reference_area.push_back(source_area[best]);
        }
    proxy.rest_length.resize(proxy.edges.size());
    for (size_t e = 0; e < proxy.edges.size(); ++e)
        proxy.rest_length[e] = distance(work.scene_position[proxy.edges[e][0]], work.scene_position[proxy.edges[e][1]]);
}

/// The bounds resampling keeps (docs/proxy.md#resampling), measured on the built proxy: the worst
/// aspect of a triangle with a free corner and the worst mass ratio of two free neighbours.
void sheet_conditioning(SheetWork& work, std::span<const double> mass) {
    SheetStats& stats = work.stats;
    const ClothProxy& proxy = work.proxy;
    const std::vector<int>& holder = work.pins.holder;
    for (const auto& [a, b, c] : proxy.triangles)
        if (holder[a] < 0 || holder[b] < 0 || holder[c] < 0)
            stats.worst_aspect = std::max(stats.worst_aspect,
                                          triangle_aspect(proxy.rest_position[a], proxy.rest_position[b], proxy.rest_position[c]));
    for (const auto& [a, b] : proxy.edges)
        if (holder[a] < 0 && holder[b] < 0 && mass[a] > 0 && mass[b] > 0)
            stats.worst_mass_ratio = std::max(stats.worst_mass_ratio, std::max(mass[a], mass[b]) / std::min(mass[a], mass[b]));
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
    if (const std::optional<Fabric> fabric = find_fabric(work.fabric); fabric && fabric->bend > 0) {
        size_t capped = 0;
        double smallest = std::numeric_limits<double>::infinity();
        double smallest_reference = 0;
        for (size_t b = 0; b < proxy.hinge_reference_area.size(); ++b) {
            const double area = hinge_area(proxy.hinges[b], proxy.rest_position);
            if (!hinge_bend_capped(fabric->bend, area, proxy.hinge_reference_area[b])) continue;
            ++capped;
            if (area < smallest) {
                smallest = area;
                smallest_reference = proxy.hinge_reference_area[b];
            }
        }
        if (capped) {
            char text[192];
            std::snprintf(text, sizeof text, "%zu of %zu hinges (the smallest %.3g m^2, where the source's is %.3g m^2)", capped,
                          proxy.hinges.size(), smallest, smallest_reference);
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
    for (uint32_t t : work.kept) {
        proxy.render_triangles.push_back({src.indices[3 * t], src.indices[3 * t + 1], src.indices[3 * t + 2]});
        for (int k = 0; k < 3; ++k) bind[src.indices[3 * t + k]] = 1;
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

std::string_view pin_rule_name(PinRule rule) {
    switch (rule) {
        case PinRule::automatic: return "automatic";
        case PinRule::weights: return "weights";
        case PinRule::none: return "none";
        case PinRule::top: return "top";
        case PinRule::bottom: return "bottom";
        case PinRule::left: return "left";
        case PinRule::right: return "right";
        case PinRule::nearest: return "nearest";
        case PinRule::vertices: return "vertices";
        case PinRule::touching: return "touching";
    }
    return "none";
}

double automatic_edge_length(double area) {
    const double L = std::sqrt(2 / std::sqrt(3.0) * std::max(area, 0.0) / kAutomaticParticles);
    return std::clamp(L, kMinEdgeLength, kMaxEdgeLength);
}

std::string parse_resolution(std::string_view text, SheetOptions& options) {
    if (text == "automatic" || text == "source") {
        options.resolution = text == "source" ? SheetResolution::source : SheetResolution::automatic;
        options.resolution_value = 0;
        return "";
    }
    for (const auto& [prefix, kind] : {std::pair{std::string_view("edge:"), SheetResolution::edge_length},
                                       std::pair{std::string_view("particles:"), SheetResolution::particles}}) {
        if (!text.starts_with(prefix)) continue;
        const std::string_view number = text.substr(prefix.size());
        double v = 0;
        auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
        if (number.empty() || ec != std::errc() || end != number.data() + number.size() || !std::isfinite(v) ||
            !(kind == SheetResolution::edge_length ? v > 0 : v >= 4))
            return "resolution '" + std::string(text) + "': want " +
                   (kind == SheetResolution::edge_length ? "edge:METRES with a length > 0" : "particles:N with N >= 4");
        options.resolution = kind;
        options.resolution_value = v;
        return "";
    }
    return "unknown resolution '" + std::string(text) + "': want automatic, source, edge:METRES or particles:N";
}

std::string resolution_text(const SheetOptions& options) {
    char number[32];
    switch (options.resolution) {
        case SheetResolution::automatic: return "automatic";
        case SheetResolution::source: return "source";
        case SheetResolution::edge_length:
            std::snprintf(number, sizeof number, "%g", options.resolution_value);
            return std::string("edge:") + number;
        case SheetResolution::particles:
            std::snprintf(number, sizeof number, "%g", options.resolution_value);
            return std::string("particles:") + number;
    }
    return "automatic";
}

std::string parse_pin_rule(std::string_view text, SheetOptions& options) {
    for (PinRule r : {PinRule::automatic, PinRule::weights, PinRule::none, PinRule::top, PinRule::bottom, PinRule::left,
                      PinRule::right, PinRule::touching})
        if (text == pin_rule_name(r)) {
            options.pin = r;
            return "";
        }
    if (text.starts_with("nearest:")) {
        std::string_view target = text.substr(8);
        if (target.empty()) return "pin rule 'nearest:' needs a node, mesh or material name after the colon";
        options.pin = PinRule::nearest;
        options.pin_target = std::string(target);
        return "";
    }
    if (text.starts_with("vertices:")) {
        std::string_view list = text.substr(9);
        std::vector<uint32_t> vertices;
        while (!list.empty()) {
            size_t comma = list.find(',');
            std::string_view item = list.substr(0, comma);
            uint32_t v = 0;
            auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
            if (item.empty() || ec != std::errc() || end != item.data() + item.size())
                return "pin rule 'vertices:': '" + std::string(item) + "' is not a vertex index";
            vertices.push_back(v);
            list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        }
        if (vertices.empty()) return "pin rule 'vertices:' needs at least one vertex index";
        options.pin = PinRule::vertices;
        options.pin_vertices = std::move(vertices);
        return "";
    }
    return "unknown pin rule '" + std::string(text) +
           "': want automatic, weights, none, top, bottom, left, right, nearest:NAME or vertices:I,J,...";
}

std::string apply_pin_json(const nlohmann::json& pin, SheetOptions& options) {
    if (pin.is_null()) return "";
    if (pin.is_string()) return parse_pin_rule(pin.get<std::string>(), options);
    if (!pin.is_object()) return "\"pin\" must be a rule string or an object";
    SheetOptions o = options;
    if (auto it = pin.find("rule"); it != pin.end()) {
        if (!it->is_string()) return "\"pin.rule\" must be a string";
        if (std::string e = parse_pin_rule(it->get<std::string>(), o); !e.empty()) return e;
    }
    if (auto it = pin.find("target"); it != pin.end()) {
        if (!it->is_string() || it->get<std::string>().empty()) return "\"pin.target\" must be a non-empty name";
        o.pin_target = it->get<std::string>();
        if (!pin.contains("rule")) o.pin = PinRule::nearest;
    }
    if (auto it = pin.find("vertices"); it != pin.end()) {
        if (!it->is_array() || it->empty()) return "\"pin.vertices\" must be a non-empty array of vertex indices";
        o.pin_vertices.clear();
        for (const auto& v : *it) {
            if (!v.is_number_unsigned() || v.get<uint64_t>() >= none) return "\"pin.vertices\" holds a non-index value";
            o.pin_vertices.push_back(static_cast<uint32_t>(v.get<uint64_t>()));
        }
        if (!pin.contains("rule")) o.pin = PinRule::vertices;
    }
    if (auto it = pin.find("holder"); it != pin.end()) {
        if (!it->is_string()) return "\"pin.holder\" must be a node name";
        o.pin_holder = it->get<std::string>();
    }
    if (auto it = pin.find("tolerance"); it != pin.end()) {
        if (!it->is_number() || !(it->get<double>() >= 0)) return "\"pin.tolerance\" must be a length >= 0 in metres";
        o.pin_tolerance = it->get<double>();
    }
    if (auto it = pin.find("weight"); it != pin.end()) {
        if (!it->is_number() || !(it->get<double>() > 0 && it->get<double>() <= 1)) return "\"pin.weight\" must be in (0, 1]";
        o.pin_weight = it->get<double>();
    }
    for (auto it = pin.begin(); it != pin.end(); ++it)
        if (it.key() != "rule" && it.key() != "target" && it.key() != "vertices" && it.key() != "holder" &&
            it.key() != "tolerance" && it.key() != "weight")
            return "\"pin\" has an unknown key \"" + it.key() + "\"";
    options = std::move(o);
    return "";
}

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
