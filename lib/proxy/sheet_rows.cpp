// The sheet builder's simulation mesh: the rows of the welded sheet (docs/proxy.md#rows), one face
// of a two-sided sheet (docs/proxy.md#two-sided-sheets) and resampling (docs/proxy.md#resampling).
#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "fabric/fabric.h"
#include "proxy/core/hinge_area.h"
#include "proxy/sheet_layers.h"
#include "proxy/sheet_work.h"

namespace weft::sheet_detail {

void adopt_mesh(SheetWork& work, ResampleMesh out, const Mat4& to_frame, bool references);
bool automatic_coarsens(const SheetWork& work, double L, double welded_edge);

/// Particles (the welded vertices kept triangles use), edges, hinges, triangles and pieces.
namespace {

/// One hinge per edge two triangles share (docs/solver.md#hinge): the shared edge as the first triangle
/// runs it, then each triangle's opposite wing (triangles (x0, x1, x2) and (x1, x0, x3)). Two
/// triangles over the same three particles (a face and its copy, which welding can make of two
/// distinct faces) meet at no angle and bend nothing: no hinge. Returns the boundary edges.
uint32_t add_hinges(const EdgeTable& table, std::span<const uint32_t> corners, std::vector<std::array<uint32_t, 4>>& hinges) {
    uint32_t boundary = 0;
    for (uint32_t e = 0; e < table.edge_count(); ++e) {
        const uint32_t faces = table.face_count(e);
        if (faces == 1) ++boundary;
        if (faces != 2) continue;
        auto f = table.faces(e);
        uint32_t k = 0;
        while (table.triangle_edges[f[0]][k] != e) ++k;
        const uint32_t x0 = corners[3 * f[0] + k], x1 = corners[3 * f[0] + (k + 1) % 3], x2 = corners[3 * f[0] + (k + 2) % 3];
        uint32_t x3 = unset_index;
        for (int j = 0; j < 3; ++j)
            if (corners[3 * f[1] + j] != x0 && corners[3 * f[1] + j] != x1) x3 = corners[3 * f[1] + j];
        if (x3 == x2 || x3 == unset_index) continue;
        hinges.push_back({x0, x1, x2, x3});
    }
    return boundary;
}

}  // namespace

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
    std::vector<uint32_t> particle_of(work.welded_count, unset_index);
    for (uint32_t w : clean) particle_of[w] = 0;
    std::vector<uint32_t>& particle_source = work.particle_source;
    for (uint32_t w = 0; w < work.welded_count; ++w)
        if (particle_of[w] != unset_index) {
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
    stats.boundary_edges = add_hinges(clean_table, clean, proxy.hinges);
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
    particle_island.assign(n, unset_index);
    for (uint32_t t = 0; t < kept.size(); ++t)
        for (int j = 0; j < 3; ++j) {
            uint32_t& is = particle_island[clean[3 * t + j]];
            const uint32_t mine = islands.island[t];
            if (is == unset_index || (island_closed[mine] && !island_closed[is]) ||
                (island_closed[mine] == island_closed[is] && mine < is))
                is = mine;
        }
    stats.islands = islands.count;
    stats.closed_islands = static_cast<uint32_t>(std::count(island_closed.begin(), island_closed.end(), 1));
}

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
        if (p != unset_index && !(work.scene_position[p] == modelled[p])) p = unset_index;
    for (uint32_t p = 0; p < work.n; ++p)
        if (!(work.scene_position[p] == modelled[p])) work.particle_source[p] = no_source;
    ResampleMesh out;
    std::vector<uint32_t> new_of_old(work.n, unset_index);
    for (size_t t = 0; t < proxy.triangles.size(); ++t)
        if (keep[t])
            for (uint32_t v : proxy.triangles[t]) new_of_old[v] = 0;
    for (uint32_t v = 0; v < work.n; ++v)
        if (new_of_old[v] != unset_index) {
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

namespace {

/// `particles:N` never ends past SheetOptions::max_particles, the ceiling here: the resampler leaves
/// edges between kCollapseBelow and kSplitAbove x L, so the equilateral estimate L gives more particles
/// than N (testdata/sheets/dense.glb: 17% more at N = 2,000, 48% at 65,536, which broke the particle
/// budget and was refused after the build; holes.glb 91% at 150), and its count moves in steps as L
/// grows (dense.glb: 2,340 at 1.1 L, 2,036 at 1.34 L, 1,552 at 1.47 L). So L is lengthened by the
/// overshoot (at least 15%) until the sheet is within the ceiling, then bisected between the last L
/// over it and the first within it; the most particles within it are kept, after at most kTargetTries
/// resamples in all. A sheet whose held vertices and border corners alone are more keeps what the last
/// try gave (the budget after the build still refuses it: PARTICLES_OVER_BUDGET).
ResampleMesh within_particle_target(const ResampleMesh& in, ResampleMesh out, double& L, double target) {
    constexpr int kTargetTries = 6;
    const auto within = [&](const ResampleMesh& m) { return static_cast<double>(m.position.size()) <= target; };
    if (within(out)) return out;
    double over = L, under = 0;  // the longest L known over N, the shortest known within it (0: none yet)
    size_t over_count = out.position.size();
    std::optional<ResampleMesh> best;
    for (int tries = 1; tries < kTargetTries; ++tries) {
        const double next = under > 0 ? (over + under) / 2
                                      : over * std::max(1.15, std::sqrt(static_cast<double>(over_count) / target) * 1.02);
        ResampleMesh m = resample_sheet(in, next);
        if (!within(m)) {
            over = next, over_count = m.position.size();
            if (under == 0) out = std::move(m), L = next;  // the fewest so far, should none come within N
            continue;
        }
        under = next;
        if (!best || m.position.size() > best->position.size()) best = std::move(m), L = next;
    }
    return best ? std::move(*best) : out;
}

}  // namespace

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
    const double welded_edge = std::sqrt(2 / std::sqrt(3.0) * area / std::max<double>(work.n, 4));
    double L = std::max(automatic_edge_length(area), welded_edge);
    if (options.resolution == SheetResolution::edge_length) L = options.resolution_value;
    // An equilateral mesh of edge L has about 1.155 area / L² particles (2 triangles of sqrt(3)/4 L² each).
    if (options.resolution == SheetResolution::particles) L = std::sqrt(2 / std::sqrt(3.0) * area / options.resolution_value);
    if (options.resolution == SheetResolution::automatic && !automatic_coarsens(work, L, welded_edge)) return;

    // `automatic` keeps the welded sheet rather than a mesh whose hinges the dissipative band would cap
    // (docs/proxy.md#resampling): the source's hinges are their own references and never capped.
    const bool automatic = options.resolution == SheetResolution::automatic;
    SheetWork::Mesh kept;
    if (automatic) kept = work.mesh();
    ResampleMesh in;
    in.position = work.scene_position;
    in.triangles = proxy.triangles;
    in.holder = work.pins.holder;
    in.origin.resize(work.n);
    for (uint32_t p = 0; p < work.n; ++p) in.origin[p] = p;
    ResampleMesh out = resample_sheet(in, L);
    if (options.resolution == SheetResolution::particles && options.max_particles > 0)
        out = within_particle_target(in, std::move(out), L, options.max_particles);
    adopt_mesh(work, std::move(out), to_frame, true);
    if (automatic) {
        std::vector<Vec3> frame_position(work.n);
        for (uint32_t p = 0; p < work.n; ++p) frame_position[p] = to_frame.transform_point(work.scene_position[p]);
        if (const double bend = garment_bend(work); bend > 0 && capped_hinges(proxy, frame_position, bend).count) {
            work.restore(std::move(kept));
            return;
        }
    }
    stats.edge_length = L;
    stats.resolution = resolution_text(options);
}

/// Whether `automatic` resamples the sheet at L (docs/proxy.md#resampling): only to coarsen it. The
/// sheet must be dense (its median edge under kDenseBelow x L) and L longer than the edge of an
/// equilateral mesh of its welded count, `welded_edge`: a sheet of long slivers has short median
/// edges but few vertices, and resampling it only splits the slivers into a finer mesh.
bool automatic_coarsens(const SheetWork& work, double L, double welded_edge) {
    if (!(L > welded_edge)) return false;
    std::vector<double> lengths;
    lengths.reserve(work.proxy.edges.size());
    for (const auto& [a, b] : work.proxy.edges) lengths.push_back(distance(work.scene_position[a], work.scene_position[b]));
    if (lengths.empty()) return false;
    std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
    return lengths[lengths.size() / 2] < kDenseBelow * L;
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
    std::vector<uint32_t> new_of_old(work.n, unset_index), particle_source(n, no_source);
    for (uint32_t p = 0; p < n; ++p)
        if (out.origin[p] != unset_index) {
            new_of_old[out.origin[p]] = p;
            particle_source[p] = work.particle_source[out.origin[p]];
        }
    for (uint32_t& p : work.vertex_particle)
        if (p != unset_index) p = new_of_old[p];
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
    stats.boundary_edges = add_hinges(table, flat, proxy.hinges);
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

std::string fabric_for(const SheetGarment& g, const SheetOptions& o) {
    if (!o.fabric.empty()) return o.fabric;
    return std::string(fabric_for_garment_class(g.garment_class.empty() ? "sheet" : g.garment_class));
}

double garment_bend(const SheetWork& work) {
    const std::optional<Fabric> fabric = find_fabric(fabric_for(work.garment, work.options));
    return fabric ? fabric->bend : 0.0;
}

CappedHinges capped_hinges(const ClothProxy& proxy, std::span<const Vec3> position, double bend) {
    CappedHinges out;
    double smallest = std::numeric_limits<double>::infinity();
    for (size_t b = 0; b < proxy.hinge_reference_area.size(); ++b) {
        const double area = hinge_area(proxy.hinges[b], position);
        if (!hinge_bend_capped(bend, area, proxy.hinge_reference_area[b])) continue;
        ++out.count;
        if (area < smallest) {
            smallest = out.smallest = area;
            out.smallest_reference = proxy.hinge_reference_area[b];
        }
    }
    return out;
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

}  // namespace weft::sheet_detail
