#include "proxy/sheet_pins.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <queue>

#include <nlohmann/json.hpp>

#include "geom/nearest_on_triangle.h"
#include "io/format_text.h"
#include "geom/surface_shape.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"

namespace weft::sheet_detail {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// What nearest:NAME measures to: meshes outside the garment, or a node's origin.
struct Target {
    std::vector<int> meshes;
    Vec3 point;
    int holder = -1;
    std::string what;  ///< "node 'X'", "mesh 'X'", "material 'X'"
};

bool in_garment(const SheetGarment& g, int mesh) { return std::find(g.meshes.begin(), g.meshes.end(), mesh) != g.meshes.end(); }

bool resolve_target(const Scene& scene, const SheetGarment& garment, const std::string& name, Target& t) {
    if (int node = scene.find_node(name); node >= 0) {
        t.holder = node;
        t.what = "node '" + name + "'";
        for (int m : scene.nodes[node].meshes)
            if (m >= 0 && static_cast<size_t>(m) < scene.meshes.size() && !in_garment(garment, m)) t.meshes.push_back(m);
        t.point = scene.nodes[node].world.translation_part();
        return true;
    }
    for (size_t m = 0; m < scene.meshes.size(); ++m)
        if (scene.meshes[m].name == name && !in_garment(garment, static_cast<int>(m))) {
            t.meshes.push_back(static_cast<int>(m));
            t.holder = scene.meshes[m].node;
            t.what = "mesh '" + name + "'";
            return true;
        }
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        int mat = scene.meshes[m].material;
        if (mat >= 0 && static_cast<size_t>(mat) < scene.materials.size() && scene.materials[mat] == name &&
            !in_garment(garment, static_cast<int>(m))) {
            if (t.meshes.empty()) t.holder = scene.meshes[m].node;
            t.meshes.push_back(static_cast<int>(m));
        }
    }
    t.what = "material '" + name + "'";
    return !t.meshes.empty();
}

double distance_to(const Scene& scene, const Target& t, const Vec3& p) {
    if (t.meshes.empty()) return distance(p, t.point);
    double best = inf;
    for (int m : t.meshes) {
        const Mesh& mesh = scene.meshes[m];
        const size_t nv = mesh.positions.size();
        for (size_t k = 0; k + 2 < mesh.indices.size(); k += 3) {
            uint32_t a = mesh.indices[k], b = mesh.indices[k + 1], c = mesh.indices[k + 2];
            if (a >= nv || b >= nv || c >= nv) continue;
            double d = distance(p, nearest_on_triangle(p, mesh.positions[a], mesh.positions[b], mesh.positions[c]).point);
            if (d < best) best = d;
        }
    }
    return best;
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    auto mid = values.begin() + values.size() / 2;
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

// docs/proxy.md#pins: a particle two pins name goes to the lower holder.
void hold(PinAssignment& a, uint32_t p, int node) {
    if (a.holder[p] < 0 || node < a.holder[p]) a.holder[p] = node;
}

std::string node_name(const Scene& scene, int node) {
    return has_node(scene, node) ? scene.nodes[static_cast<size_t>(node)].name : std::string();
}

/// The weft.json rule that hangs this garment from its top edge: it names the model's file and the
/// garment's material (its mesh when it has none), the names a config rule matches.
std::string config_entry(const PinContext& ctx) {
    const Scene& scene = *ctx.source.scene;
    std::string key = "mesh", name = ctx.garment.name;
    if (!ctx.source.meshes.empty()) {
        const Mesh& mesh = ctx.source.mesh(0);
        if (mesh.material >= 0 && static_cast<size_t>(mesh.material) < scene.materials.size() &&
            !scene.materials[static_cast<size_t>(mesh.material)].empty())
            key = "material", name = scene.materials[static_cast<size_t>(mesh.material)];
        else
            name = mesh.name;
    }
    const std::string model = std::filesystem::path(scene.source_path).filename().string();
    nlohmann::json rule = nlohmann::json::object();
    if (!model.empty()) rule["file"] = model;
    rule[key] = name;
    rule["pin"] = "top";
    return "{\"garments\": [" + rule.dump() + "]}";
}

/// Per piece, whether it is a solid: closed, and not a thin, even slab (geom/surface_shape.h). A sail
/// or a flag modelled as a closed slab, a front and a back face joined all round, is fabric drawn
/// with a thickness; a bracket or a pole is not, nor a shield with swords through it, thin for its
/// width but not between two parallel faces.
std::vector<uint8_t> solid_pieces(const PinContext& ctx) {
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    std::vector<std::vector<uint32_t>> triangles(ctx.island_closed.size());
    std::vector<uint32_t> corners;
    for (const auto& t : ctx.triangles) {
        if (t[0] >= n || t[1] >= n || t[2] >= n) continue;
        triangles[ctx.island[t[0]]].push_back(static_cast<uint32_t>(corners.size() / 3));
        corners.insert(corners.end(), t.begin(), t.end());
    }
    std::vector<uint8_t> solid(ctx.island_closed.size(), 0);
    for (size_t i = 0; i < solid.size(); ++i) {
        if (!ctx.island_closed[i]) continue;
        const SurfaceShape shape = measure_surface(ctx.particle_position, corners, triangles[i]);
        solid[i] = !(shape.is_thin_sheet() && shape.is_even_slab());
    }
    return solid;
}

/// Closed pieces of an unskinned sheet ride the frame (sheet_pins.h): their particles are held by
/// the frame node and are not fabric (`fabric` 0), each piece reported.
void hold_closed_pieces(const PinContext& ctx, PinAssignment& a, std::vector<uint8_t>& fabric, Issues& issues) {
    const Scene& scene = *ctx.source.scene;
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    const std::string file = ctx.source.file();
    const std::vector<uint8_t> solid = solid_pieces(ctx);
    std::vector<uint32_t> count(ctx.island_closed.size(), 0);
    std::vector<Vec3> centre(ctx.island_closed.size());
    for (uint32_t p = 0; p < n; ++p) {
        if (!solid[ctx.island[p]]) continue;
        fabric[p] = 0;
        hold(a, p, ctx.frame_node);
        ++count[ctx.island[p]];
        centre[ctx.island[p]] += ctx.particle_position[p];
    }
    for (size_t i = 0; i < count.size(); ++i)
        if (count[i] > 0)
            issues.push_back({"CLOSED_ISLAND_HELD", Severity::info,
                              file + ": garment '" + ctx.garment.name + "': piece " + std::to_string(i) + " (" +
                                  std::to_string(count[i]) + " particles, centred at " +
                                  position_text(centre[i] / count[i]) +
                                  ") is closed, a solid rather than fabric: held rigid by '" +
                                  node_name(scene, ctx.frame_node) +
                                  "'. Give it its own mesh if it should be simulated.",
                              "/garments/" + ctx.garment.name + "/islands/" + std::to_string(i)});
}

/// The weights rule: a particle is held by the bone weighing most on it, when the body (every bone
/// not the garment's own) weighs at least pin_weight; the lowest held source vertex decides a welded
/// particle's holder.
void hold_by_weights(const PinContext& ctx, PinAssignment& a) {
    const Scene& scene = *ctx.source.scene;
    const SheetOptions& opt = ctx.options;
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    for (uint32_t v = 0; v < ctx.source.vertex_count(); ++v) {
        const uint32_t p = ctx.vertex_particle[v];
        if (p >= n) continue;
        const Mesh& mesh = ctx.source.mesh(ctx.source.part_of(v));
        if (!is_skinned(mesh)) continue;
        double body = 0, best_weight = -1;
        int best = -1;
        for (const BoneWeight& bw : influences(scene, mesh, ctx.source.local_vertex(v))) {
            const auto& own = ctx.garment.garment_bones;
            if (std::find(own.begin(), own.end(), bw.bone) != own.end()) continue;
            body += bw.weight;
            if (bw.weight > best_weight || (bw.weight == best_weight && bw.bone < best)) {
                best_weight = bw.weight;
                best = bw.bone;
            }
        }
        // The lowest held source vertex decides a welded particle's holder.
        if (best >= 0 && body >= opt.pin_weight && a.holder[p] < 0) a.holder[p] = best;
    }
}

/// The automatic rule on a sheet its weights hold whole (a cape skinned rigid to the spine): the
/// artist's skin says where it meets the body, not that none of it hangs, so only the top band (a
/// quarter of the median edge, as the positional rules) stays held, each particle by the bone its
/// weights chose (docs/proxy.md#pins). The band is taken per piece: a piece the sheet's own top band
/// misses (a second skirt layer split off a dress along a non-manifold waist) would hold nothing
/// and fall onto the body, where it slides for ever instead of hanging from its waist.
void hold_top_of_rigid_skin(const PinContext& ctx, PinAssignment& a, double median_edge, Issues& issues) {
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    if (n < 2 || !std::all_of(a.holder.begin(), a.holder.end(), [](int h) { return h >= 0; })) return;
    a.tolerance = 0.25 * median_edge;
    std::vector<double> top(ctx.island_closed.size(), -inf);
    for (uint32_t p = 0; p < n; ++p) top[ctx.island[p]] = std::max(top[ctx.island[p]], ctx.particle_position[p][1]);
    uint32_t kept = 0;
    for (uint32_t p = 0; p < n; ++p)
        if (ctx.particle_position[p][1] < top[ctx.island[p]] - a.tolerance) a.holder[p] = -1;
        else ++kept;
    if (kept == n) return;  // flat along the vertical: no band to keep apart from the rest
    a.description = "weights, held at its top";
    const size_t pieces = ctx.island_closed.size();
    issues.push_back({"RIGID_SKIN_HELD_AT_TOP", Severity::info,
                      ctx.source.file() + ": garment '" + ctx.garment.name + "': every one of its " + std::to_string(n) +
                          " particles is weighted at least " + format_text("%.2f", ctx.options.pin_weight) +
                          " to the body, a rigid skin; held along " +
                          (pieces > 1 ? "the top " + metres_text(a.tolerance) + " of each of its " + std::to_string(pieces) + " pieces"
                                      : "its top " + metres_text(a.tolerance)) +
                          " instead (" + std::to_string(kept) + " particles), so it hangs. A weft.json \"pin\": \"weights\" keeps it rigid.",
                      ""});
}

/// An axis-aligned box of scene-space points.
struct Box {
    Vec3 lo{inf, inf, inf}, hi{-inf, -inf, -inf};
    void add(const Vec3& p) {
        for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
    }
    bool overlaps(const Box& o, double margin) const {
        for (int k = 0; k < 3; ++k)
            if (lo[k] > o.hi[k] + margin || o.lo[k] > hi[k] + margin) return false;
        return true;
    }
};

/// The direction a positional rule holds the far end of (sheet_pins.h): the scene's +Y or -Y for
/// top and bottom; for left and right the scene's X, or, for fabric spreading further along Z than
/// along X (seen edge-on from the front), Z with right at -Z.
Vec3 extreme_direction(const PinContext& ctx, PinRule rule, const std::vector<uint8_t>& fabric) {
    if (rule == PinRule::top) return {0, 1, 0};
    if (rule == PinRule::bottom) return {0, -1, 0};
    Box box;
    for (size_t p = 0; p < fabric.size(); ++p)
        if (fabric[p]) box.add(ctx.particle_position[p]);
    const bool across_z = box.hi[2] - box.lo[2] > box.hi[0] - box.lo[0];
    const double sign = rule == PinRule::right ? 1.0 : -1.0;
    return across_z ? Vec3{0, 0, -sign} : Vec3{sign, 0, 0};
}

/// The median step of the sheet's edges along `direction`: over the edges running within 60 degrees
/// of it (their step along it at least half their length), the median step; infinite when none does.
/// The next row along a positional rule is about one step away, however long the edges across it are.
double median_step(const PinContext& ctx, const Vec3& direction) {
    std::vector<double> steps;
    for (const auto& [p, q] : ctx.edges) {
        const Vec3 e = ctx.particle_position[q] - ctx.particle_position[p];
        const double step = std::fabs(dot(e, direction));
        if (step > 0 && step >= 0.5 * length(e)) steps.push_back(step);
    }
    return steps.empty() ? inf : median(std::move(steps));
}

/// top, bottom, left, right: every fabric particle within the band of the extreme one along the
/// rule's direction, held by `holder`.
void hold_extreme(const PinContext& ctx, PinAssignment& a, const std::vector<uint8_t>& fabric, int rule_holder) {
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    const Vec3 direction = extreme_direction(ctx, a.applied, fabric);
    double extreme = -inf;
    for (uint32_t p = 0; p < n; ++p)
        if (fabric[p]) extreme = std::max(extreme, dot(direction, ctx.particle_position[p]));
    for (uint32_t p = 0; p < n; ++p)
        if (fabric[p] && dot(direction, ctx.particle_position[p]) >= extreme - a.tolerance) hold(a, p, rule_holder);
}

/// Rigid geometry a sheet may hang from (sheet_pins.h, touching): triangles in scene space and the
/// node that holds them.
struct RigidHolder {
    int holder = -1;
    std::string what;                          ///< "its closed piece 1", "node 'Pole' (mesh 'Pole')"
    std::vector<std::array<Vec3, 3>> triangles;
};

/// The holders the touching rule tries, in order: the sheet's closed pieces (by island), then one
/// per node of the unskinned meshes outside the garment (by node index). Only triangles within
/// `margin` of the sheet's box are kept: nothing farther can touch it.
std::vector<RigidHolder> rigid_holders(const PinContext& ctx, const Box& sheet, double margin) {
    const Scene& scene = *ctx.source.scene;
    std::vector<RigidHolder> out;
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    if (ctx.options.closed_islands_rigid) {
        const std::vector<uint8_t> solid = solid_pieces(ctx);
        std::vector<int> slot(ctx.island_closed.size(), -1);
        for (const auto& t : ctx.triangles) {
            if (t[0] >= n || t[1] >= n || t[2] >= n) continue;
            const uint32_t island = ctx.island[t[0]];
            if (!solid[island]) continue;
            if (slot[island] < 0) {
                slot[island] = static_cast<int>(out.size());
                out.push_back({ctx.frame_node, "its closed piece " + std::to_string(island), {}});
            }
            out[static_cast<size_t>(slot[island])].triangles.push_back(
                {ctx.particle_position[t[0]], ctx.particle_position[t[1]], ctx.particle_position[t[2]]});
        }
    }
    std::vector<int> by_node(scene.nodes.size(), -1);
    std::vector<std::pair<int, std::vector<int>>> nodes;  // node -> meshes, in node order below
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        if (is_skinned(mesh) || mesh.triangle_count() == 0 || !has_node(scene, mesh.node)) continue;
        // A garment mesh holds with the triangles that are not the garment's (a pole in the banner's mesh).
        if (in_garment(ctx.garment, static_cast<int>(m)) &&
            std::ranges::all_of(garment_member(ctx.garment, static_cast<int>(m), mesh.positions.size()), [](char c) { return c != 0; }))
            continue;
        int& k = by_node[static_cast<size_t>(mesh.node)];
        if (k < 0) {
            k = static_cast<int>(nodes.size());
            nodes.push_back({mesh.node, {}});
        }
        nodes[static_cast<size_t>(k)].second.push_back(static_cast<int>(m));
    }
    std::sort(nodes.begin(), nodes.end());
    for (const auto& [node, meshes] : nodes) {
        RigidHolder h{node, "node '" + scene.nodes[static_cast<size_t>(node)].name + "' (mesh", {}};
        for (size_t i = 0; i < meshes.size(); ++i) {
            const Mesh& mesh = scene.meshes[static_cast<size_t>(meshes[i])];
            h.what += (i ? ", '" : " '") + mesh.name + "'";
            const size_t nv = mesh.positions.size();
            const std::vector<char> member = in_garment(ctx.garment, meshes[i])
                                                 ? garment_member(ctx.garment, meshes[i], nv)
                                                 : std::vector<char>(nv, 0);
            for (size_t k = 0; k + 2 < mesh.indices.size(); k += 3) {
                const uint32_t a = mesh.indices[k], b = mesh.indices[k + 1], c = mesh.indices[k + 2];
                if (a >= nv || b >= nv || c >= nv) continue;
                if (member[a] && member[b] && member[c]) continue;  // the garment's own triangle
                Box box;
                for (uint32_t v : {a, b, c}) box.add(mesh.positions[v]);
                if (!box.overlaps(sheet, margin)) continue;
                h.triangles.push_back({mesh.positions[a], mesh.positions[b], mesh.positions[c]});
            }
        }
        h.what += ")";
        if (!h.triangles.empty()) out.push_back(std::move(h));
    }
    return out;
}

/// A rigid holder the touching rule found, and the particles it held.
struct Touch {
    RigidHolder holder;
    std::vector<uint32_t> held;
};

/// The touching rule (sheet_pins.h): each rigid holder within one median edge of the sheet holds
/// the fabric particles within the band of its nearest one. Returns the holders that touched.
std::vector<Touch> hold_touching(const PinContext& ctx, PinAssignment& a, const std::vector<uint8_t>& fabric, double touch) {
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    Box sheet;
    for (uint32_t p = 0; p < n; ++p)
        if (fabric[p]) sheet.add(ctx.particle_position[p]);
    if (!(sheet.lo[0] <= sheet.hi[0])) return {};
    std::vector<double> d(n, inf);
    std::vector<Touch> touches;
    for (RigidHolder& h : rigid_holders(ctx, sheet, touch)) {
        double nearest = inf;
        for (uint32_t p = 0; p < n; ++p) {
            d[p] = inf;
            if (!fabric[p]) continue;
            const Vec3& x = ctx.particle_position[p];
            for (const auto& t : h.triangles) d[p] = std::min(d[p], distance(x, nearest_on_triangle(x, t[0], t[1], t[2]).point));
            nearest = std::min(nearest, d[p]);
        }
        if (!(nearest <= touch)) continue;
        Touch t{std::move(h), {}};
        for (uint32_t p = 0; p < n; ++p)
            if (d[p] <= nearest + a.tolerance) hold(a, p, t.holder.holder), t.held.push_back(p);
        const size_t held = t.held.size();
        a.touched.push_back(t.holder.what + ": " + std::to_string(held) + " particle" + (held == 1 ? "" : "s") +
                            " within " + metres_text(nearest + a.tolerance));
        touches.push_back(std::move(t));
    }
    return touches;
}

/// The classes of cloth that lie on what holds them rather than hang from it (lib/garment's prop
/// classes): a tablecloth on its table, a blanket on its bed.
bool lies_on_its_holder(const std::string& garment_class) { return garment_class == "tablecloth" || garment_class == "blanket"; }

/// Per particle: whether a kept triangle at it is level (its normal within 26° of vertical, as the
/// prop finder's level share, lib/garment): some of the cloth around it lies flat.
std::vector<uint8_t> level_particles(const PinContext& ctx) {
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    std::vector<uint8_t> level(n, 0);
    for (const auto& t : ctx.triangles) {
        if (t[0] >= n || t[1] >= n || t[2] >= n) continue;
        const Vec3& x = ctx.particle_position[t[0]];
        const Vec3 normal = cross(ctx.particle_position[t[1]] - x, ctx.particle_position[t[2]] - x);
        const double area2 = length(normal);
        if (!(area2 > 0) || std::fabs(normal[1]) < 0.9 * area2) continue;
        for (uint32_t p : t) level[p] = 1;
    }
    return level;
}

/// The lying rule (docs/proxy.md#pins, held where it lies): a tablecloth or a blanket that touches
/// its holder where it lies flat lies on it there, and so does the flat fabric joined to that
/// through flat fabric at the same height (within the band) over the holder's horizontal extent
/// (its box widened by the band), though the holder's own top under it is not modelled (a prop pack
/// leaves out the faces the cloth hides). Each is held by that holder. Returns how many it held.
size_t hold_lying(const PinContext& ctx, PinAssignment& a, const std::vector<uint8_t>& fabric,
                  const std::vector<Touch>& touches) {
    if (!lies_on_its_holder(ctx.garment.garment_class) || touches.empty()) return 0;
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    const std::vector<uint8_t> level = level_particles(ctx);
    std::vector<std::vector<uint32_t>> next(n);
    for (const auto& [u, v] : ctx.edges) next[u].push_back(v), next[v].push_back(u);
    const double band = a.tolerance;
    size_t held = 0;
    std::vector<double> plane(n, inf);  // the height of the flat fabric a held particle was reached from
    for (const Touch& t : touches) {
        Box part;
        for (const auto& triangle : t.holder.triangles)
            for (const Vec3& x : triangle) part.add(x);
        auto over_part = [&](const Vec3& x) {
            return x[0] >= part.lo[0] - band && x[0] <= part.hi[0] + band && x[2] >= part.lo[2] - band &&
                   x[2] <= part.hi[2] + band;
        };
        std::vector<uint32_t> stack;
        for (uint32_t p : t.held)
            if (level[p] && a.holder[p] == t.holder.holder) plane[p] = ctx.particle_position[p][1], stack.push_back(p);
        size_t lying = 0;
        while (!stack.empty()) {
            const uint32_t p = stack.back();
            stack.pop_back();
            for (uint32_t q : next[p]) {
                const Vec3& x = ctx.particle_position[q];
                if (a.holder[q] >= 0 || !fabric[q] || !level[q] || std::fabs(x[1] - plane[p]) > band || !over_part(x)) continue;
                hold(a, q, t.holder.holder);
                plane[q] = plane[p], stack.push_back(q), ++lying;
            }
        }
        if (lying > 0)
            a.touched.push_back(t.holder.what + " where the cloth lies flat on it: " + std::to_string(lying) +
                                " more particle" + (lying == 1 ? "" : "s") + " at the height of those it touches");
        held += lying;
    }
    return held;
}

/// The header rule (docs/proxy.md#pins, held where it touches): the free fabric standing higher than
/// every held particle by more than the band and by at most `height`, joined to a held particle
/// through such fabric, is held by the holder of the held particle nearest along the sheet's edges.
/// Returns how many it held.
size_t hold_header(const PinContext& ctx, PinAssignment& a, const std::vector<uint8_t>& fabric, double height) {
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    double top = -inf;
    for (uint32_t p = 0; p < n; ++p)
        if (a.holder[p] >= 0) top = std::max(top, ctx.particle_position[p][1]);
    if (!std::isfinite(top)) return 0;
    const double above = top + a.tolerance, below = top + height;
    std::vector<std::vector<std::pair<uint32_t, double>>> next(n);
    for (size_t e = 0; e < ctx.edges.size(); ++e) {
        const auto [u, v] = ctx.edges[e];
        next[u].push_back({v, ctx.rest_length[e]});
        next[v].push_back({u, ctx.rest_length[e]});
    }
    // Dijkstra from every held particle, carrying its holder; ties go to the lower particle.
    std::vector<double> d(n, inf);
    std::vector<int> by(n, -1);
    using Item = std::pair<double, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (uint32_t p = 0; p < n; ++p)
        if (a.holder[p] >= 0) d[p] = 0, by[p] = a.holder[p], queue.push({0.0, p});
    while (!queue.empty()) {
        const auto [dp, p] = queue.top();
        queue.pop();
        if (dp > d[p]) continue;
        for (const auto& [q, length] : next[p]) {
            const double y = ctx.particle_position[q][1];
            if (a.holder[q] >= 0 || !fabric[q] || !(y > above && y <= below)) continue;
            if (const double dq = dp + length; dq < d[q]) d[q] = dq, by[q] = by[p], queue.push({dq, q});
        }
    }
    size_t held = 0;
    for (uint32_t p = 0; p < n; ++p)
        if (a.holder[p] < 0 && by[p] >= 0) hold(a, p, by[p]), ++held;
    return held;
}

/// The vertices rule: each listed source vertex's particle held by `rule_holder`. False, with errors
/// filed (the first few, then a count), when a vertex is out of range or in no triangle.
bool hold_vertices(const PinContext& ctx, PinAssignment& a, int rule_holder, Issues& issues) {
    const SheetOptions& opt = ctx.options;
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    const std::string file = ctx.source.file();
    // A config can list any number of vertices: the description and the messages stay
    // short (the first few, then a count), so 400k bad indices are not 78 MB of stderr.
    constexpr size_t kListed = 8, kReported = 3;
    a.description = "vertices:";
    for (size_t i = 0; i < std::min(opt.pin_vertices.size(), kListed); ++i) {
        if (i) a.description += ',';
        a.description += std::to_string(opt.pin_vertices[i]);
    }
    if (opt.pin_vertices.size() > kListed)
        a.description += ",... (" + std::to_string(opt.pin_vertices.size()) + " vertices)";
    bool ok = true;
    size_t bad = 0;
    for (size_t i = 0; i < opt.pin_vertices.size(); ++i) {
        const uint32_t v = opt.pin_vertices[i];
        if (v >= ctx.source.vertex_count() || ctx.vertex_particle[v] >= n) {
            ok = false;
            if (bad++ >= kReported) continue;
            issues.push_back({"PIN_VERTEX_OUT_OF_RANGE", Severity::error,
                              file + ": garment '" + ctx.garment.name + "': pinned vertex " + std::to_string(v) +
                                  (v >= ctx.source.vertex_count()
                                       ? " is past the garment's " + std::to_string(ctx.source.vertex_count()) +
                                             " source vertices"
                                       : " (" + ctx.source.vertex_text(v) + ") is in no triangle") +
                                  ". Pin vertices are numbered across the garment's meshes in order.",
                              ""});
            continue;
        }
        hold(a, ctx.vertex_particle[v], rule_holder);
    }
    if (bad > kReported)
        issues.push_back({"PIN_VERTEX_OUT_OF_RANGE", Severity::error,
                          file + ": garment '" + ctx.garment.name + "': and " + std::to_string(bad - kReported) +
                              " more pinned vertices like it (" + std::to_string(bad) + " of " +
                              std::to_string(opt.pin_vertices.size()) + " are past its " +
                              std::to_string(ctx.source.vertex_count()) + " source vertices or in no triangle)",
                          ""});
    return ok;
}

}  // namespace

bool garment_is_skinned(const Source& source) {
    for (uint32_t k = 0; k < source.meshes.size(); ++k)
        if (is_skinned(source.mesh(k))) return true;
    return false;
}

namespace {

/// --pin nearest:TARGET: the free particles within the band of the one nearest the target, held
/// by the target's holder. False (with PIN_TARGET_NOT_FOUND) when the target names nothing.
bool hold_nearest(const PinContext& ctx, PinAssignment& a, const std::vector<uint8_t>& fabric, Issues& issues) {
    const Scene& scene = *ctx.source.scene;
    const SheetOptions& opt = ctx.options;
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    const std::string file = ctx.source.file();
    a.description = "nearest:" + opt.pin_target;
    Target t;
    if (!resolve_target(scene, ctx.garment, opt.pin_target, t)) {
        issues.push_back({"PIN_TARGET_NOT_FOUND", Severity::error,
                          file + ": garment '" + ctx.garment.name + "': --pin nearest:" + opt.pin_target +
                              " names no node, mesh or material of the model outside the garment. Name the "
                              "pole's node, mesh or material (`weft inspect` lists them).",
                          ""});
        return false;
    }
    std::vector<double> d(n, inf);
    double nearest = inf;
    for (uint32_t p = 0; p < n; ++p)
        if (fabric[p]) nearest = std::min(nearest, d[p] = distance_to(scene, t, ctx.particle_position[p]));
    for (uint32_t p = 0; p < n; ++p)
        if (fabric[p] && d[p] <= nearest + a.tolerance) hold(a, p, t.holder);
    return true;
}

/// A sheet nothing holds (it falls: an error unless skinned or asked for) or everything holds
/// (nothing simulated: a warning), each with the rule that would hang it.
void say_what_is_held(const PinContext& ctx, const PinAssignment& a, bool skinned, double median_edge, Issues& issues) {
    const SheetOptions& opt = ctx.options;
    const std::string file = ctx.source.file();
    if (std::none_of(a.holder.begin(), a.holder.end(), [](int h) { return h >= 0; })) {
        // A sheet nothing holds and nothing skins falls for ever: refused, with the config entry
        // that hangs it, unless the rule asked for nothing on purpose (--pin none).
        const bool asked = opt.pin == PinRule::none;
        const bool falls = !skinned && !asked;
        issues.push_back({"NOTHING_HELD", falls ? Severity::error : Severity::warning,
                          file + ": garment '" + ctx.garment.name + "': no particle is held (pin rule '" + a.description +
                              "')" +
                              (a.applied == PinRule::touching
                                   ? ", and it touches no rigid geometry of its model (within one median edge, " +
                                         metres_text(median_edge) + ")"
                                   : std::string()) +
                              ", so the sheet falls. " +
                              (falls ? "Hang it with a rule in weft.json (--config): " + config_entry(ctx) +
                                           " (or \"bottom\", \"left\", \"right\", \"nearest:NODE\")."
                                     : "Pass --pin top|bottom|left|right|nearest:NODE to hang it."),
                          ""});
    }
    else if (std::all_of(a.holder.begin(), a.holder.end(), [](int h) { return h >= 0; }))
        issues.push_back({"EVERYTHING_HELD", Severity::warning,
                          file + ": garment '" + ctx.garment.name + "': every one of its " + std::to_string(a.holder.size()) +
                              " particles is held (pin rule '" + a.description +
                              "'), so nothing is simulated: it moves rigidly with its holders. Pin fewer (--pin "
                              "top|bottom|left|right|nearest:NODE) or let a vertex move at a lower body weight.",
                          ""});
}

}  // namespace

PinAssignment assign_pins(const PinContext& ctx, Issues& issues) {
    const Scene& scene = *ctx.source.scene;
    const SheetOptions& opt = ctx.options;
    const uint32_t n = static_cast<uint32_t>(ctx.particle_position.size());
    const bool skinned = garment_is_skinned(ctx.source);
    const std::string file = ctx.source.file();
    PinAssignment a;
    a.holder.assign(n, -1);

    a.applied = opt.pin;
    if (a.applied == PinRule::automatic)
        a.applied = skinned ? PinRule::weights : is_skin_joint(scene, ctx.frame_node) ? PinRule::top : PinRule::touching;

    // Closed pieces of an unskinned sheet ride the frame (sheet_pins.h).
    std::vector<uint8_t> fabric(n, 1);
    if (!skinned && opt.closed_islands_rigid) hold_closed_pieces(ctx, a, fabric, issues);
    a.fabric = static_cast<uint32_t>(std::count(fabric.begin(), fabric.end(), 1));

    // The band of the rules: a quarter of the median edge, or of the median step along a positional
    // rule's direction where that is under half of it (sheet_pins.h).
    const bool positional = a.applied == PinRule::top || a.applied == PinRule::bottom || a.applied == PinRule::left ||
                            a.applied == PinRule::right;
    const bool banded = positional || a.applied == PinRule::nearest || a.applied == PinRule::touching;
    const double median_edge = median(std::vector<double>(ctx.rest_length.begin(), ctx.rest_length.end()));
    if (banded) {
        double row_spacing = median_edge;
        if (positional) {
            const double step = median_step(ctx, extreme_direction(ctx, a.applied, fabric));
            if (step < 0.5 * median_edge) row_spacing = step;
        }
        a.tolerance = opt.pin_tolerance ? *opt.pin_tolerance : 0.25 * row_spacing;
        if (!std::isfinite(a.tolerance) || a.tolerance < 0) a.tolerance = 0;
    }

    int rule_holder = ctx.frame_node;
    if (!opt.pin_holder.empty() && a.applied != PinRule::weights && a.applied != PinRule::nearest &&
        a.applied != PinRule::none) {
        rule_holder = scene.find_node(opt.pin_holder);
        if (rule_holder < 0) {
            issues.push_back({"PIN_HOLDER_NOT_FOUND", Severity::error,
                              file + ": garment '" + ctx.garment.name + "': the pin holder '" + opt.pin_holder +
                                  "' is not a node of the model. Name an existing node (a bone or the pole's node).",
                              ""});
            return a;
        }
    }

    switch (a.applied) {
        case PinRule::automatic:
        case PinRule::none:
            a.description = "none";
            break;

        case PinRule::weights:
            a.description = "weights";
            hold_by_weights(ctx, a);
            if (opt.pin == PinRule::automatic && std::isfinite(median_edge)) hold_top_of_rigid_skin(ctx, a, median_edge, issues);
            break;

        case PinRule::top:
        case PinRule::bottom:
        case PinRule::left:
        case PinRule::right: {
            a.description = std::string(pin_rule_name(a.applied));
            hold_extreme(ctx, a, fabric, rule_holder);
            break;
        }

        case PinRule::nearest:
            if (!hold_nearest(ctx, a, fabric, issues)) return a;
            break;

        case PinRule::vertices:
            if (!hold_vertices(ctx, a, rule_holder, issues)) return a;
            break;

        case PinRule::touching:
            a.description = "touching";
            hold_lying(ctx, a, fabric, hold_touching(ctx, a, fabric, std::isfinite(median_edge) ? median_edge : 0));
            if (const size_t header = hold_header(ctx, a, fabric, std::isfinite(median_edge) ? median_edge : 0))
                a.touched.push_back("the header standing above it: " + std::to_string(header) + " particle" +
                                    (header == 1 ? "" : "s") + " up to " + metres_text(median_edge) +
                                    " higher than every held one");
            for (const std::string& t : a.touched)
                issues.push_back({"HELD_WHERE_IT_TOUCHES", Severity::info,
                                  file + ": garment '" + ctx.garment.name + "': held where it touches " + t + ".", ""});
            break;
    }

    say_what_is_held(ctx, a, skinned, median_edge, issues);
    return a;
}

}  // namespace weft::sheet_detail
