#include "garment/prop_sheets.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <span>

#include "garment/classes.h"
#include "garment/prop_sheet_rules.h"
#include "geom/automatic_edge.h"
#include "geom/nearest_on_triangle.h"
#include "geom/surface_shape.h"
#include "geom/topology.h"
#include "geom/weld.h"

namespace weft {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- the welded static surface ------------------------------------------------------------------

/// The searched meshes' free vertices as one welded surface: triangles whose three corners are free
/// and weld to three distinct points.
struct Surface {
    std::vector<int> vertex_mesh;         ///< per source vertex, its scene mesh
    std::vector<uint32_t> vertex_local;   ///< per source vertex, its index in that mesh
    std::vector<uint32_t> welded;         ///< per source vertex, its welded vertex
    std::vector<Vec3> position;           ///< per welded vertex, scene space
    std::vector<uint32_t> corners;        ///< welded vertices, three per triangle
    std::vector<int> triangle_mesh;       ///< per triangle, its scene mesh
    EdgeTable edges;
    Bounds bounds;                        ///< every searched triangle

    uint32_t triangle_count() const { return static_cast<uint32_t>(triangle_mesh.size()); }
};

Surface gather_surface(const Scene& scene, const std::map<int, std::vector<uint32_t>>& parts) {
    Surface s;
    std::vector<Vec3> source_position;
    std::vector<uint32_t> source_corners;
    for (const auto& [m, vertices] : parts) {
        const Mesh& mesh = scene.meshes[static_cast<size_t>(m)];
        std::vector<uint32_t> source_of(mesh.positions.size(), UINT32_MAX);
        for (uint32_t v : vertices) {
            if (v >= mesh.positions.size() || source_of[v] != UINT32_MAX) continue;
            source_of[v] = static_cast<uint32_t>(source_position.size());
            source_position.push_back(mesh.positions[v]);
            s.vertex_mesh.push_back(m);
            s.vertex_local.push_back(v);
        }
        for (size_t t = 0; t < mesh.triangle_count(); ++t) {
            const uint32_t a = mesh.indices[3 * t], b = mesh.indices[3 * t + 1], c = mesh.indices[3 * t + 2];
            if (a >= source_of.size() || b >= source_of.size() || c >= source_of.size()) continue;
            if (source_of[a] == UINT32_MAX || source_of[b] == UINT32_MAX || source_of[c] == UINT32_MAX) continue;
            source_corners.insert(source_corners.end(), {source_of[a], source_of[b], source_of[c]});
            s.triangle_mesh.push_back(m);
        }
    }
    const WeldResult weld = weld_positions(source_position, weld_tolerance_for(source_position));
    s.welded = weld.remap;
    for (uint32_t w = 0; w < weld.unique_count(); ++w) s.position.push_back(source_position[weld.first[w]]);
    std::vector<int> kept_mesh;
    // A triangle over the same three welded vertices as one kept before on its node is the back of a
    // sheet modelled as doubled faces (docs/proxy.md#doubled-faces), or a copy: one layer of the same
    // surface. Kept, every edge of a doubled flag is shared by four triangles, so no two of its
    // triangles joined into a region and the flag was never a piece. On another node it is that
    // part's own surface lying on the first (a cover modelled on its mattress, the same top twice),
    // kept: the pieces keep the two apart (docs/garments-by-geometry.md#pieces-and-their-hold).
    std::set<std::array<uint32_t, 4>> seen;
    for (size_t t = 0; t < s.triangle_mesh.size(); ++t) {
        const uint32_t a = weld.remap[source_corners[3 * t]], b = weld.remap[source_corners[3 * t + 1]],
                       c = weld.remap[source_corners[3 * t + 2]];
        if (a == b || b == c || c == a) continue;
        std::array<uint32_t, 3> corners{a, b, c};
        std::sort(corners.begin(), corners.end());
        const int node = scene.meshes[static_cast<size_t>(s.triangle_mesh[t])].node;
        if (!seen.insert({static_cast<uint32_t>(node), corners[0], corners[1], corners[2]}).second) continue;
        s.corners.insert(s.corners.end(), {a, b, c});
        kept_mesh.push_back(s.triangle_mesh[t]);
        for (uint32_t w : {a, b, c}) s.bounds.add(s.position[w]);
    }
    s.triangle_mesh = std::move(kept_mesh);
    s.edges = build_edge_table(s.corners, static_cast<uint32_t>(s.position.size()));
    return s;
}

/// Disjoint sets, the lower index the root (deterministic whatever the union order).
struct Sets {
    std::vector<uint32_t> parent;
    explicit Sets(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
    uint32_t find(uint32_t x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    }
    void join(uint32_t a, uint32_t b) {
        a = find(a), b = find(b);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
};

/// Groups of items by their set, each group ascending, groups by their lowest item.
std::vector<std::vector<uint32_t>> groups_of(Sets& sets, size_t n) {
    std::vector<std::vector<uint32_t>> out;
    std::vector<uint32_t> slot(n, UINT32_MAX);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t r = sets.find(i);
        if (slot[r] == UINT32_MAX) slot[r] = static_cast<uint32_t>(out.size()), out.emplace_back();
        out[slot[r]].push_back(i);
    }
    return out;
}

// ---- regions: sheet or rigid --------------------------------------------------------------------

struct Region {
    std::vector<uint32_t> triangles;
    int material = -1;
    SurfaceShape shape;
    bool sheet = false;
};

/// Triangles joined by edges two triangles share on one material; each region measured and judged
/// thin (sheet) or not (rigid).
std::vector<Region> cut_regions(const Scene& scene, const Surface& s) {
    Sets sets(s.triangle_count());
    auto material = [&](uint32_t t) { return scene.meshes[static_cast<size_t>(s.triangle_mesh[t])].material; };
    for (uint32_t e = 0; e < s.edges.edge_count(); ++e) {
        if (s.edges.face_count(e) != 2) continue;
        const auto f = s.edges.faces(e);
        if (material(f[0]) == material(f[1])) sets.join(f[0], f[1]);
    }
    std::vector<Region> regions;
    for (std::vector<uint32_t>& triangles : groups_of(sets, s.triangle_count())) {
        Region r;
        r.material = material(triangles.front());
        r.shape = measure_surface(s.position, s.corners, triangles);
        r.triangles = std::move(triangles);
        const std::string name = r.material >= 0 ? scene.materials[static_cast<size_t>(r.material)] : std::string();
        r.sheet = r.shape.is_thin_sheet() && !not_cloth_material_name(name);
        regions.push_back(std::move(r));
    }
    return regions;
}

/// Whether sheet triangles `a` and `b` on an edge whose triangles are `f` are one cloth there. Of one
/// node, always. Of two nodes, only where one node's surface ends on the edge (one of its triangles
/// there): where both run on across it, two surfaces were modelled lying on each other (a cover whose
/// inside is its mattress's top and sides, welded into shared edges, four triangles on an edge), and
/// they are two parts that touch, not one cloth (docs/garments-by-geometry.md#pieces-and-their-hold).
template <class NodeOf>
bool joins_across(std::span<const uint32_t> f, uint32_t a, uint32_t b, const NodeOf& node_of) {
    const int na = node_of(a), nb = node_of(b);
    if (na == nb) return true;
    size_t on_a = 0, on_b = 0;
    for (uint32_t t : f) on_a += node_of(t) == na, on_b += node_of(t) == nb;
    return on_a == 1 || on_b == 1;
}

/// Sheet regions that share an edge, as pieces (lists of triangles, ascending).
std::vector<std::vector<uint32_t>> join_sheet_regions(const Scene& scene, const Surface& s, const std::vector<Region>& regions) {
    std::vector<uint32_t> region_of(s.triangle_count(), UINT32_MAX);
    for (uint32_t r = 0; r < regions.size(); ++r)
        for (uint32_t t : regions[r].triangles) region_of[t] = r;
    const auto node_of = [&](uint32_t t) { return scene.meshes[static_cast<size_t>(s.triangle_mesh[t])].node; };
    Sets sets(regions.size());
    for (uint32_t e = 0; e < s.edges.edge_count(); ++e) {
        const auto f = s.edges.faces(e);
        // The sheet triangles on the edge join, whatever rigid triangle shares the edge too: a runner's
        // end meets its hanging part at the table top's edge.
        for (size_t a = 0; a < f.size(); ++a)
            for (size_t b = a + 1; b < f.size(); ++b)
                if (regions[region_of[f[a]]].sheet && regions[region_of[f[b]]].sheet && joins_across(f, f[a], f[b], node_of))
                    sets.join(region_of[f[a]], region_of[f[b]]);
    }
    std::vector<std::vector<uint32_t>> pieces;
    for (const std::vector<uint32_t>& group : groups_of(sets, regions.size())) {
        if (!regions[group.front()].sheet) continue;
        std::vector<uint32_t> triangles;
        for (uint32_t r : group) triangles.insert(triangles.end(), regions[r].triangles.begin(), regions[r].triangles.end());
        std::sort(triangles.begin(), triangles.end());
        pieces.push_back(std::move(triangles));
    }
    return pieces;
}

// ---- the hold: where a piece touches rigid geometry ---------------------------------------------

/// Rigid triangles grouped by the node of their mesh, as the sheet builder's `touching` groups its holders.
std::vector<std::vector<uint32_t>> rigid_by_node(const Scene& scene, const Surface& s, const std::vector<uint32_t>& triangles) {
    std::map<int, std::vector<uint32_t>> by_node;
    for (uint32_t t : triangles) by_node[scene.meshes[static_cast<size_t>(s.triangle_mesh[t])].node].push_back(t);
    std::vector<std::vector<uint32_t>> out;
    for (auto& [node, list] : by_node) {
        std::sort(list.begin(), list.end());
        out.push_back(std::move(list));
    }
    return out;
}

/// A piece of sheet: its welded vertices and how it is held.
struct Piece {
    std::vector<uint32_t> triangles;
    std::vector<uint32_t> vertices;   ///< welded, ascending
    std::vector<char> held;           ///< per vertices[i]
    std::vector<char> held_refined;   ///< the same as the builder holds it once refined, when `held` is all of it
    SurfaceShape shape;
    Bounds box;
    double median_edge = 0;
};

double median_edge_of(const Surface& s, const std::vector<uint32_t>& triangles) {
    std::vector<double> lengths;
    for (uint32_t t : triangles)
        for (int k = 0; k < 3; ++k)
            lengths.push_back(distance(s.position[s.corners[3 * t + k]], s.position[s.corners[3 * t + (k + 1) % 3]]));
    if (lengths.empty()) return 0;
    std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
    return lengths[lengths.size() / 2];
}

double distance_to_triangle(const Surface& s, uint32_t t, const Vec3& p) {
    const Vec3 &a = s.position[s.corners[3 * t]], &b = s.position[s.corners[3 * t + 1]], &c = s.position[s.corners[3 * t + 2]];
    return distance(p, nearest_on_triangle(p, a, b, c).point);
}

bool near_box(const Surface& s, uint32_t t, const Bounds& box, double margin) {
    for (int k = 0; k < 3; ++k) {
        double lo = kInf, hi = -kInf;
        for (int c = 0; c < 3; ++c) {
            const double x = s.position[s.corners[3 * t + c]][k];
            lo = std::min(lo, x), hi = std::max(hi, x);
        }
        if (lo > box.max[k] + margin || hi < box.min[k] - margin) return false;
    }
    return true;
}

/// The edge the sheet builder refines a sheet held whole to before it holds it again
/// (docs/proxy.md#too-coarse-to-hang): the automatic edge over one face's area.
double refined_edge(const SurfaceShape& shape) {
    const double face = shape.faced_share >= 0.5 ? 0.5 * shape.area : shape.area;
    return automatic_edge_length(face);
}

/// Each rigid node within one edge of the piece holds the vertices within a quarter edge of its
/// nearest one (docs/proxy.md#pins, `touching`), the edge the median edge. A piece that band holds
/// whole may be coarse rather than held all over: the builder refines it and holds it again with its
/// refined edge (`held_refined`; a runner modelled with 12 vertices, its ends hanging 0.36 m below a
/// table's edge, its median edge 2.4 m).
std::vector<char> hold_vertices(const Surface& s, const Piece& p, const std::vector<std::vector<uint32_t>>& rigid, double edge);

Piece hold_piece(const Surface& s, std::vector<uint32_t> triangles, const std::vector<std::vector<uint32_t>>& rigid) {
    Piece p;
    p.triangles = std::move(triangles);
    for (uint32_t t : p.triangles)
        for (int k = 0; k < 3; ++k) p.vertices.push_back(s.corners[3 * t + k]);
    std::sort(p.vertices.begin(), p.vertices.end());
    p.vertices.erase(std::unique(p.vertices.begin(), p.vertices.end()), p.vertices.end());
    for (uint32_t v : p.vertices) p.box.add(s.position[v]);
    p.shape = measure_surface(s.position, s.corners, p.triangles);
    p.median_edge = median_edge_of(s, p.triangles);
    p.held = hold_vertices(s, p, rigid, p.median_edge);
    const double refined = refined_edge(p.shape);
    const bool whole = std::all_of(p.held.begin(), p.held.end(), [](char h) { return h != 0; });
    p.held_refined = whole && refined < p.median_edge ? hold_vertices(s, p, rigid, refined) : p.held;
    return p;
}

std::vector<char> hold_vertices(const Surface& s, const Piece& p, const std::vector<std::vector<uint32_t>>& rigid, double edge) {
    std::vector<char> held(p.vertices.size(), 0);
    const double touch = edge, band = 0.25 * edge;
    std::vector<double> d(p.vertices.size());
    for (const std::vector<uint32_t>& node : rigid) {
        std::vector<uint32_t> near;
        for (uint32_t t : node)
            if (near_box(s, t, p.box, touch)) near.push_back(t);
        if (near.empty()) continue;
        double nearest = kInf;
        for (size_t i = 0; i < p.vertices.size(); ++i) {
            d[i] = kInf;
            for (uint32_t t : near) d[i] = std::min(d[i], distance_to_triangle(s, t, s.position[p.vertices[i]]));
            nearest = std::min(nearest, d[i]);
        }
        if (!(nearest <= touch)) continue;
        for (size_t i = 0; i < p.vertices.size(); ++i)
            if (d[i] <= nearest + band) held[i] = 1;
    }
    return held;
}

/// The rules' view of a piece: its points and triangles, the rigid triangles around it (within half
/// its length of its box) and the model's floor, height and footprint.
prop_detail::PieceFacts facts_of(const Surface& s, const Piece& p, const std::vector<std::vector<uint32_t>>& rigid) {
    prop_detail::PieceFacts f;
    for (uint32_t v : p.vertices) f.points.push_back(s.position[v]);
    f.held = p.held;
    f.held_refined = p.held_refined;
    auto corners = [&](uint32_t t) {
        return std::array<Vec3, 3>{s.position[s.corners[3 * t]], s.position[s.corners[3 * t + 1]], s.position[s.corners[3 * t + 2]]};
    };
    for (uint32_t t : p.triangles) f.triangles.push_back(corners(t));
    const double margin = 0.5 * p.shape.extent[0];
    for (const std::vector<uint32_t>& node : rigid)
        for (uint32_t t : node)
            if (near_box(s, t, p.box, margin)) f.rigid.push_back(corners(t));
    f.shape = p.shape;
    f.floor = s.bounds.min.y;
    f.height = s.bounds.size().y;
    f.footprint_short = std::min(s.bounds.size().x, s.bounds.size().z);
    return f;
}

/// Whether piece `i` lies on a larger piece of cloth (a patch or a pocket modelled apart on a tent's
/// canvas): half its points within a twentieth of its length of that piece. It is that cloth's
/// decoration, not cloth of its own.
bool lies_on_other(const Surface& s, const std::vector<Piece>& pieces, const std::vector<prop_detail::PropClass>& found,
                   size_t i) {
    const Piece& p = pieces[i];
    const double gap = 0.05 * p.shape.extent[0];
    for (size_t j = 0; j < pieces.size(); ++j) {
        if (j == i || found[j].class_name.empty() || !(pieces[j].shape.area > p.shape.area)) continue;
        std::vector<uint32_t> near;
        for (uint32_t t : pieces[j].triangles)
            if (near_box(s, t, p.box, gap)) near.push_back(t);
        size_t on = 0;
        for (uint32_t v : p.vertices) {
            double d = kInf;
            for (uint32_t t : near) d = std::min(d, distance_to_triangle(s, t, s.position[v]));
            on += d <= gap;
        }
        if (2 * on >= p.vertices.size()) return true;
    }
    return false;
}

/// A piece a rule took, as the scene's meshes and vertices.
PropSheet sheet_of(const Scene& scene, const Surface& s, const Piece& p, prop_detail::PropClass cls) {
    PropSheet out;
    out.class_name = std::move(cls.class_name);
    out.rule = std::move(cls.rule);
    out.measurements = std::move(cls.measurements);
    std::vector<char> in(s.position.size(), 0);
    for (uint32_t v : p.vertices) in[v] = 1;
    std::map<int, size_t> triangles_per_mesh;
    for (uint32_t t : p.triangles) ++triangles_per_mesh[s.triangle_mesh[t]];
    for (uint32_t v = 0; v < s.welded.size(); ++v)
        if (in[s.welded[v]] && triangles_per_mesh.count(s.vertex_mesh[v])) out.vertices[s.vertex_mesh[v]].push_back(s.vertex_local[v]);
    size_t most = 0;
    for (const auto& [m, count] : triangles_per_mesh) {
        if (count > most) most = count, out.node = scene.meshes[static_cast<size_t>(m)].node;
        const std::string* material = material_of(scene, scene.meshes[static_cast<size_t>(m)]);
        const std::string name = material ? *material : std::string("(no material)");
        if (std::find(out.materials.begin(), out.materials.end(), name) == out.materials.end()) out.materials.push_back(name);
    }
    for (auto& [m, vertices] : out.vertices) std::sort(vertices.begin(), vertices.end());
    return out;
}

}  // namespace

const std::vector<std::string>& prop_sheet_classes() {
    static const std::vector<std::string> classes{"tent", "blanket", "tablecloth", "awning", "sail", "flag", "banner", "curtain"};
    return classes;
}

bool not_cloth_material_name(const std::string& name) {
    static const std::vector<std::string> words{"wood", "wooden", "timber", "plank", "log", "metal", "steel", "iron",
                                                "bronze", "copper", "gold", "silver", "stone", "rock", "brick",
                                                "marble", "concrete", "glass", "bone", "grass", "leaf", "leaves",
                                                "foliage", "bush", "moss", "dirt", "soil"};
    for (const std::string& w : split_words(name))
        if (std::find(words.begin(), words.end(), w) != words.end()) return true;
    return false;
}

std::vector<PropSheet> find_prop_sheets(const Scene& scene, const StaticSurfaceInput& input,
                                        const std::vector<std::string>& wanted) {
    std::map<int, std::vector<uint32_t>> parts;
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        if (m >= input.mesh_static.size() || !input.mesh_static[m]) continue;
        std::vector<uint32_t> free;
        for (uint32_t v = 0; v < scene.meshes[m].positions.size(); ++v)
            if (m >= input.vertex_taken.size() || v >= input.vertex_taken[m].size() || !input.vertex_taken[m][v]) free.push_back(v);
        if (!free.empty()) parts[static_cast<int>(m)] = std::move(free);
    }
    std::vector<PropSheet> out;
    if (parts.empty()) return out;
    const Surface s = gather_surface(scene, parts);
    if (s.triangle_count() == 0) return out;
    const std::vector<Region> regions = cut_regions(scene, s);
    std::vector<uint32_t> thick;
    for (const Region& r : regions)
        if (!r.sheet) thick.insert(thick.end(), r.triangles.begin(), r.triangles.end());
    const std::vector<std::vector<uint32_t>> pieces = join_sheet_regions(scene, s, regions);
    // Twice: a thin piece no rule takes is rigid too (a mattress the throw lies on, a roof slab), so
    // the second round measures every piece against the thick regions and the pieces the first left.
    std::vector<prop_detail::PropClass> found(pieces.size());
    std::vector<Piece> held(pieces.size());
    for (int round = 0; round < 2; ++round) {
        std::vector<prop_detail::PropClass> next(pieces.size());
        for (size_t i = 0; i < pieces.size(); ++i) {
            std::vector<uint32_t> rigid_triangles = thick;
            for (size_t j = 0; j < pieces.size() && round > 0; ++j)
                if (j != i && found[j].class_name.empty())
                    rigid_triangles.insert(rigid_triangles.end(), pieces[j].begin(), pieces[j].end());
            const std::vector<std::vector<uint32_t>> rigid = rigid_by_node(scene, s, rigid_triangles);
            held[i] = hold_piece(s, pieces[i], rigid);
            next[i] = prop_detail::classify_prop_piece(facts_of(s, held[i], rigid), wanted);
        }
        found = std::move(next);
    }
    std::vector<char> decoration(pieces.size(), 0);
    for (size_t i = 0; i < pieces.size(); ++i) decoration[i] = !found[i].class_name.empty() && lies_on_other(s, held, found, i);
    for (size_t i = 0; i < pieces.size(); ++i)
        if (!found[i].class_name.empty() && !decoration[i]) out.push_back(sheet_of(scene, s, held[i], std::move(found[i])));
    return out;
}

NameMatchCut cut_name_match(const Scene& scene, const std::map<int, std::vector<uint32_t>>& parts) {
    NameMatchCut cut;
    const Surface s = gather_surface(scene, parts);
    const std::vector<Region> regions = cut_regions(scene, s);
    std::vector<char> sheet_vertex(s.position.size(), 0), rigid_vertex(s.position.size(), 0);
    for (const Region& r : regions) {
        cut.sheet = cut.sheet || r.sheet;
        for (uint32_t t : r.triangles)
            for (int k = 0; k < 3; ++k) (r.sheet ? sheet_vertex : rigid_vertex)[s.corners[3 * t + k]] = 1;
    }
    cut.all_closed = s.triangle_count() > 0;
    for (uint32_t e = 0; e < s.edges.edge_count(); ++e) cut.all_closed = cut.all_closed && s.edges.face_count(e) != 1;
    // A vertex on both (where a pole meets the cloth) stays with the cloth: the pole holds it there.
    for (uint32_t v = 0; v < s.welded.size(); ++v)
        if (rigid_vertex[s.welded[v]] && !sheet_vertex[s.welded[v]]) cut.rigid[s.vertex_mesh[v]].push_back(s.vertex_local[v]);
    for (auto& [m, vertices] : cut.rigid) std::sort(vertices.begin(), vertices.end());
    return cut;
}

}  // namespace weft
