// The ClothProxy: one garment as the runtime sees it (docs/proxy.md, docs/format.md).
// Arrays are in particle order, permuted so each colour is one contiguous range (docs/proxy.md#colouring).
// Shared, immutable once built; the solver reads this and nothing else.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "geom/vec.h"

namespace weft {

enum class ProxyKind : uint32_t {
    sheet = 0,  ///< one particle per welded vertex of a garment mesh (docs/proxy.md#sheet-proxy)
    rig = 1,    ///< one particle per joint of the garment's bone chains plus the bones they hang from (docs/proxy.md#rig-proxy)
};

inline constexpr uint32_t no_particle = std::numeric_limits<uint32_t>::max();
inline constexpr uint32_t no_source = std::numeric_limits<uint32_t>::max();
inline constexpr uint32_t no_triangle = std::numeric_limits<uint32_t>::max();

/// What holds some particles: a bone or node of the model (docs/solver.md#holds).
struct Pin {
    std::string holder;               ///< the holder's node name in the model (e.g. "chest", "Pole")
    std::vector<uint32_t> particles;  ///< held particles, ascending
};

/// The frame the cloth is simulated in: a node of the model and its rest transform.
struct Frame {
    std::string node;   ///< node name ("" = the model's root)
    Mat4 rest_world;    ///< the frame's rest transform in model space; rest positions are relative to it
};

/// Where a sheet's particles came from: the garment's source meshes, concatenated in this order.
struct SourceMesh {
    std::string name;           ///< mesh name in the model
    std::string material;       ///< its material slot
    uint32_t vertex_offset = 0; ///< first source-vertex index of this mesh in `vertex_particle`
    uint32_t vertex_count = 0;
};

struct ClothProxy {
    ProxyKind kind = ProxyKind::sheet;
    std::string garment;            ///< garment name, unique within the model (file stem of the proxy)
    std::string garment_class;      ///< "hair", "skirt", "cape", ... (lib/garment)
    std::string suggested_fabric;   ///< fabric library entry the solver uses without --fabric
    std::string source_file;        ///< the model file it was built from: its path from the proxy's folder as weft writes it (docs/commands.md#hermetic-outputs)
    std::vector<SourceMesh> source_meshes;
    std::string builder_options;    ///< the builder's options, as compact JSON text
    Frame frame;

    // --- particles, in colour order -------------------------------------------------------------
    std::vector<Vec3> rest_position;    ///< metres, in the frame
    std::vector<double> inverse_mass;   ///< 1/kg; 0 = held or read-only (a bone the cloth hangs from)
    std::vector<uint32_t> source;       ///< sheet: a source vertex welded into it; rig: skin joint index; no_source for a grown tip
    std::vector<std::string> joint_name;///< rig: the joint's node name per particle; empty for a sheet
    std::vector<double> d_geo;          ///< metres along the fabric to the nearest held particle; +inf where no hold reaches
    std::vector<uint32_t> nearest_held; ///< the held particle d_geo is measured to (the tether's centre); no_particle where none
    std::vector<double> collision_radius;///< metres a free particle collides with beyond the fabric's thickness: how far
                                        ///< the render mesh it carries stands out round it (a rig joint's hull,
                                        ///< docs/proxy.md#collision-radius); empty = 0 for every particle (a sheet)
    std::vector<uint32_t> colour_ranges;///< colour c is particles [colour_ranges[c], colour_ranges[c+1]); size colours+1
    double total_mass = 0;              ///< kg, every particle including held ones

    // --- rows ---------------------------------------------------------------------------------------
    std::vector<std::array<uint32_t, 2>> edges;     ///< stretch rows, one per unique fabric edge
    std::vector<double> rest_length;                ///< per edge, metres
    std::vector<std::array<uint32_t, 2>> skips;     ///< chain joint to its grandparent (docs/solver.md#skip)
    std::vector<double> skip_rest_length;           ///< per skip, metres
    std::vector<std::array<uint32_t, 4>> hinges;    ///< shared edge (0,1), then each triangle's opposite wing (2,3)
    std::vector<std::array<uint32_t, 3>> triangles; ///< the sheet's faces, consistently wound
    std::vector<double> hinge_reference_area;       ///< per hinge, m²: A₁+A₂ of the source mesh's hinge where it lies
                                                    ///< (in the frame), the area at which the fabric's bend is its
                                                    ///< ratio (docs/solver.md#hinge); empty = each hinge's own (a
                                                    ///< sheet at its source resolution, a rig)

    std::vector<Pin> pins;

    // --- write-back ----------------------------------------------------------------------------------
    std::vector<uint32_t> vertex_particle;  ///< sheet: every source vertex (see source_meshes) to its particle; no_particle
                                            ///< where resampling removed it (the binding places it then)

    // --- the render mesh bound to the particles (docs/proxy.md#binding) -------------------------------
    std::vector<std::array<uint32_t, 3>> render_triangles;  ///< sheet: the garment's triangles, by source vertex
    std::vector<uint32_t> binding_triangle;  ///< sheet: per source vertex, the proxy triangle it rides; no_triangle for
                                             ///< a vertex that could not be bound (non-finite, used by no triangle)
    std::vector<Vec3> binding_coordinates;   ///< per source vertex: (u, v, h): weight u on the triangle's second corner,
                                             ///< v on its third (1 - u - v on its first), and h metres along the
                                             ///< interpolated particle normal

    // --- virtual particles: render vertices far off their link, collided there (docs/colliders.md#virtual-particles)
    std::vector<std::array<uint32_t, 3>> virtual_link;  ///< rig: per virtual particle, the particle that carries it (its
                                                        ///< joint's), then the link whose turn it takes (from, to): it sits
                                                        ///< at x_carrier + turn(rest link -> link)·(rest - rest_carrier)
    std::vector<Vec3> virtual_rest_position;            ///< per virtual particle, metres in the frame at rest

    size_t particle_count() const { return rest_position.size(); }
    size_t colour_count() const { return colour_ranges.empty() ? 0 : colour_ranges.size() - 1; }
    bool held(uint32_t p) const { return inverse_mass[p] == 0; }
};

/// The cloth's reach (docs/solver.md#reach): the largest d_geo, a particle no hold reaches counted at its
/// rest distance from the frame's origin. The sleep test's speed scale (docs/solver.md#sleep).
double reach(const ClothProxy& proxy);

}  // namespace weft
