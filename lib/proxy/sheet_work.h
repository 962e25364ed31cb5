// Internal to the sheet builder: what build_sheet's steps (sheet_builder.h) hand one another, and
// the steps themselves, one file per job: the authoring checks (sheet_checks.cpp), the simulation
// mesh — rows, one face of a two-sided sheet, resampling (sheet_rows.cpp) — and the frame, masses,
// binding and description (sheet_builder.cpp).
#pragma once
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "geom/topology.h"
#include "geom/weld.h"
#include "proxy/colour_permute.h"
#include "proxy/core/cloth_proxy.h"
#include "proxy/sheet_builder.h"
#include "proxy/sheet_detail.h"
#include "proxy/sheet_pins.h"
#include "proxy/sheet_resample.h"

namespace weft::sheet_detail {

inline constexpr uint32_t unset_index = std::numeric_limits<uint32_t>::max();

// Triangle defects, as bits: one triangle can have several (a repeated index and a duplicate).
enum Defect : uint8_t {
    kNonFinite = 1,
    kRepeatedIndex = 2,
    kZeroArea = 4,
    kDuplicate = 8,
    kDoubled = 16,  ///< with kDuplicate: the back of a piece modelled as doubled faces (dropped, rendered, bound)
    kPartition = 32,  ///< alone: a partition across a sheet at a fan of three (dropped, rendered, bound)
    kDropped = 64,    ///< with the defect: unambiguous, dropped with a warning whatever the options
};

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
    /// Whether a triangle's defect refuses the garment (without repair): any but those dropped with a
    /// warning (unambiguous ones, the backs of doubled faces, partitions).
    static bool refuses(uint8_t d) { return d != 0 && !(d & kDropped) && d != (kDuplicate | kDoubled) && d != kPartition; }
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

    /// The simulation mesh as the rows and resampling leave it, to try another and go back.
    struct Mesh {
        uint32_t n = 0;
        std::vector<uint32_t> particle_source, vertex_particle;
        std::vector<Vec3> scene_position;
        std::vector<int> holder;
        ClothProxy proxy;
        uint32_t boundary_edges = 0;
    };
    Mesh mesh() const { return {n, particle_source, vertex_particle, scene_position, pins.holder, proxy, stats.boundary_edges}; }
    void restore(Mesh m) {
        n = m.n;
        particle_source = std::move(m.particle_source);
        vertex_particle = std::move(m.vertex_particle);
        scene_position = std::move(m.scene_position);
        pins.holder = std::move(m.holder);
        proxy = std::move(m.proxy);
        stats.boundary_edges = m.boundary_edges;
    }
};

/// Up to eight triangles named with their corners ("mesh 'M' triangle 3 (4, 5, 6), ... and 2 more");
/// `to_source` maps the indices given to source triangles (empty: they are source triangles).
std::string triangles_text(const Source& s, std::span<const uint32_t> triangles, std::span<const uint32_t> to_source);

// ---- check (sheet_checks.cpp, docs/proxy.md#authoring-checks) --------------------------------------

/// Non-finite positions of used vertices: errors, and their triangles marked.
void sheet_check_vertices(SheetWork& work);
/// The weld, then each triangle: repeated indices and no area at the weld's resolution.
void sheet_weld_and_check_triangles(SheetWork& work);
/// Triangles covering the same welded vertices as an earlier one.
void sheet_find_duplicates(SheetWork& work);
/// The triangles a sheet would be built from, and their edges.
void sheet_keep_clean(SheetWork& work);
/// Fans of three triangles where one sheet runs straight on and another piece meets it: the piece
/// split off, or dropped when it is a partition across the sheet (sheet_fans.cpp, docs/proxy.md#fans).
void sheet_split_fans(SheetWork& work);
/// Non-manifold edges and inconsistent winding.
void sheet_check_edges(SheetWork& work);
/// Inconsistent winding: orientable pieces re-wound (a warning), one-sided ones refused.
void sheet_orient(SheetWork& work);

// ---- the simulation mesh (sheet_rows.cpp) -----------------------------------------------------------

/// Particles (the welded vertices kept triangles use), edges, hinges, triangles and pieces.
void sheet_build_rows(SheetWork& work);
/// A sheet too coarse to hang (docs/proxy.md#too-coarse-to-hang): under `automatic`, when its
/// positional or touching pins hold every particle, it is resampled to the automatic edge
/// length with nothing held, and its pieces found again; the caller chooses its pins again. True when
/// it was refined.
bool sheet_refine_too_coarse(SheetWork& work);
/// A two-sided sheet simulated on one face (docs/proxy.md#two-sided-sheets).
void sheet_one_face(SheetWork& work, const Mat4& to_frame);
/// The simulation mesh of its own (docs/proxy.md#resampling).
void sheet_resample(SheetWork& work, const Mat4& to_frame);
/// The hinges whose area-scaled bend (docs/solver.md#hinge) the dissipative band caps in `bend`, over
/// the proxy's hinges at `position` (the frame), and the smallest of them with its reference area.
struct CappedHinges {
    size_t count = 0;
    double smallest = 0;            ///< m², the smallest capped hinge's A₁+A₂
    double smallest_reference = 0;  ///< m², its reference area
};
CappedHinges capped_hinges(const ClothProxy& proxy, std::span<const Vec3> position, double bend);

/// The fabric a garment is built for: the options' or the one its class suggests (docs/fabrics.md).
std::string fabric_for(const SheetGarment& garment, const SheetOptions& options);

/// The library fabric's bend for this garment (docs/fabrics.md), 0 where it has none.
double garment_bend(const SheetWork& work);

/// The bounds resampling keeps, measured on the built proxy (docs/proxy.md#resampling).
void sheet_conditioning(SheetWork& work, std::span<const double> mass);

}  // namespace weft::sheet_detail
