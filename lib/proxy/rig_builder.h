// The rig-proxy builder (docs/proxy.md#rig-proxy): one ClothProxy from a garment's bone chains, authored or grown. The steps,
// in build_rig's order:
//
//   particles  one per distinct joint of the chains; one per bone they hang from (held: inverse mass
//              0, the cloth reads it and never writes it); a tip particle where a chain has no end
//              joint, at the end of the geometry its last joint carries
//   holds      one pin per hanging bone, holding that bone and the chain roots hanging from it: a
//              root's translation is its parent's, only its turn is the cloth's (every spring-bone
//              system does the same; a free root would swing round a head bone at the base of the
//              skull and pull the scalp with it). A cape across both shoulders: one proxy, two pins
//   rows       an edge per link along each chain (bone to root, joint to joint, last joint to tip); a
//              skip from each particle to its grandparent along its chain (docs/solver.md#skip; to the bone
//              only where it lies off the vertical through the root, see make_rows); for
//              neighbouring chains (skirt panels, cap wedges) an edge between the particles at equal
//              depth
//   frame      the nearest skin joint at or above every hanging bone (their lowest common ancestor,
//              walked up to a skin joint); rest positions in its rigid placement (proxy_frame.h)
//   mass       what each joint carries: every vertex it weights (or carries rigidly) brings a third
//              of its triangles' area times the fabric's areal density (fabric/fabric.h) times its
//              weight; a joint's share goes half to its own particle and half to the next along the
//              chain (the segment it swings); no free particle is lighter than linear_density times
//              half its links, so a chain that carries nothing still swings like a light cord
//   d_geo      geodesic distance along the edges to the nearest held particle (graph/geodesic.h)
//   colour     coupling graph -> greedy colouring -> validated -> permuted (proxy/colour_permute.h)
//   names      each particle's joint name and its index in the garment's skin (docs/proxy.md#joint-indices)
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/issue.h"
#include "proxy/core/cloth_proxy.h"
#include "scene/scene.h"

namespace weft {

/// One chain of a rig garment.
struct RigChain {
    std::string name;                ///< for messages and the sidecar: the root joint's or the grown chain's name
    std::vector<int> joints;         ///< scene nodes, root to tip; consecutive joints parent and child
    int parent = -1;                 ///< the bone the root hangs from; -1 = the root's own parent (none: nothing holds it)
    std::optional<Vec3> tip;         ///< set: a tip particle here (scene space, bind pose). Unset: decided from the
                                     ///< geometry (a last joint that weights vertices is a bone, not an end joint)
    std::vector<size_t> neighbours;  ///< indices of chains of this garment linked to it at equal depth
    bool ends_in_end_joint = false;  ///< the last joint is the chain's end whatever it weights: no tip is decided from
                                     ///< the geometry (VRMC_springBone: a spring's last joint is its tail)
};

struct RigGarment {
    std::string name;                ///< unique in the model: the proxy's file stem
    std::string garment_class;       ///< "hair", "tail", ...; picks the fabric
    std::vector<RigChain> chains;
    int skin = -1;                   ///< skin whose joint indices the proxy's `source` holds; -1 = the first skin
                                     ///< listing the first chain's root
};

struct RigOptions {
    std::string fabric;                     ///< library fabric; "" = the one the garment class suggests
    std::optional<double> areal_density;    ///< kg/m²; unset = the fabric's (fabric/fabric.h)
    double linear_density = 0.02;           ///< kg/m, the lightest a chain may be along its length (> 0)
};

/// Per chain, what the sidecar says about it, in scene space (bind pose).
struct RigChainInfo {
    std::vector<uint32_t> particles;  ///< its hanging bone's particle (no_particle when none), its joints', then its tip's
                                      ///< (when it has one), after the colour permutation
    bool has_tip = false;
    Vec3 tip;                         ///< the tip particle, or the last joint when the chain ends in an end joint
    std::vector<double> hull_radius;  ///< per joint: radius of the capsule along its segment bounding the vertices it
                                      ///< weights most (0 when it weights none)
    double mass = 0;                  ///< kg, its free particles (a joint shared by chains counted in each)
};

struct RigStats {
    uint32_t particles = 0;
    uint32_t held = 0;         ///< hanging bones and chain roots
    uint32_t joints = 0;       ///< distinct chain joints
    uint32_t tips = 0;
    uint32_t edges = 0;        ///< links along chains plus links between neighbours
    uint32_t neighbour_links = 0;
    uint32_t skips = 0;
    uint32_t pins = 0;
    uint32_t colours = 0;
    double total_mass = 0;     ///< kg
    double max_d_geo = 0;      ///< metres, largest finite d_geo
    double carried_area = 0;   ///< m², geometry the joints weight (weighted by share)
};

/// A skinned vertex wholly on the chain's joints, with one of them: its share of the vertex rides that
/// joint's link rigidly, and may become a virtual particle (docs/colliders.md#virtual-particles).
struct VirtualCandidate {
    std::array<uint32_t, 3> link{};  ///< its joint's particle, then the link whose turn it takes (ClothProxy::virtual_link)
    Vec3 rest;                       ///< metres, in the proxy's frame
    double off_link = 0;             ///< metres from the link's segment at rest
    int mesh = -1;                   ///< scene mesh
    uint32_t vertex = 0;             ///< that mesh's vertex
};

/// A virtual particle the proxy carries: the render vertex it stands for.
struct VirtualVertex {
    int mesh = -1;
    uint32_t vertex = 0;
};

struct RigBuildResult {
    std::optional<ClothProxy> proxy;   ///< set unless an error was found
    Issues issues;                     ///< RIG_* codes (rig_codes.h)
    std::vector<RigChainInfo> chains;  ///< per RigGarment::chains entry
    RigStats stats;
    std::vector<VirtualCandidate> virtual_candidates;  ///< every vertex wholly on chain joints, once per joint, farthest off its link first
    std::vector<VirtualVertex> virtual_vertices;       ///< per virtual particle of the proxy (add_virtual_particles)
};

/// Spacing of the virtual particles kept on one link, metres: a sphere of radius R reaches s²/(8R)
/// between two points s apart, 0.5 mm for a 10 cm head (docs/colliders.md#virtual-particles).
inline constexpr double kVirtualParticleSpacing = 0.02;

/// Builds the rig proxy of one garment. Never throws for anything about the model: every problem is
/// an Issue naming the file (scene.source_path), the garment and the joint. Deterministic in
/// (scene, garment, options).
RigBuildResult build_rig(const Scene& scene, const RigGarment& garment, const RigOptions& options = {});

/// The virtual particles of a built rig proxy (docs/colliders.md#virtual-particles), once its collision
/// radii are final (cut to the body's room, body.h fit_collision_radius): each candidate farther off its
/// link than the link's radius plus `thickness` (what its particles and span rows cannot keep out),
/// farthest first, none within kVirtualParticleSpacing of one already kept on the same link.
void add_virtual_particles(RigBuildResult& built, double thickness);

}  // namespace weft
