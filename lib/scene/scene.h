// The in-memory Scene every stage after import reads: metres, Y up, right-handed, whatever the
// source file's units and axes were. Only lib/scene includes Assimp; it converts once, here.
//
// Invariants. Every importer ends with enforce_scene_invariants (scene/invariants.h), which repairs
// or refuses a Scene that breaks one, so no later stage re-checks them:
// - Indices in range: a node's parent (-1 for a root) and children, a node's meshes, a mesh's node,
//   material (-1: none) and skin (-1: unskinned), a skin's joints, a declared spring's and collider's
//   nodes all name what the Scene has. A node's children are exactly the nodes whose parent it is.
// - Clips: each channel names a node the Scene has, at most one channel per node; every key is
//   finite with its time in [0, duration], times strictly ascending, rotations of unit length.
// - The hierarchy is a forest: following parents from any node reaches a root (no cycle). Parents
//   usually come before their children, but nothing relies on it.
// - Meshes: finite positions; every triangle index below the vertex count; normals and UVs empty or
//   one per vertex.
// - Weights: a skinned mesh has one influence list per vertex (influence_offsets has
//   vertex_count()+1 entries, from 0 to influences.size()); each names a joint of its skin once,
//   with a finite weight > 0; at most kMaxInfluences per vertex; they sum to 1 (within
//   kWeightSumTolerance), or the list is empty (an unweighted vertex stays at its node's rest pose).
//   An unskinned mesh has no influences.
// - One bind pose, the rest pose: a skinned mesh's positions are posed by the rest skeleton, and each
//   skin's inverse_bind[j] is the inverse of nodes[joints[j]].world (for a joint whose rest transform
//   inverts), so every skin agrees where a joint is at bind.
// The questions every stage asks are answered beside this header: scene/hierarchy.h (a node's parent
// and its chain of ancestors), scene/influences.h (a vertex's influences, whether a mesh is skinned),
// scene/bind_pose.h (a node's bind world matrix), scene/skinning.h (skinning a point or a normal).
// grow keeps these invariants for the joints and weights it adds (a grown weight may be zero; the
// influence walk passes over it).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "geom/vec.h"
#include "scene/clip.h"

namespace weft {

struct Bounds {
    Vec3 min{INFINITY, INFINITY, INFINITY};
    Vec3 max{-INFINITY, -INFINITY, -INFINITY};

    bool empty() const { return !(min.x <= max.x); }
    void add(const Vec3& p) { min = weft::min(min, p); max = weft::max(max, p); }
    void add(const Bounds& b) { if (!b.empty()) { add(b.min); add(b.max); } }
    Vec3 size() const { return empty() ? Vec3{} : max - min; }
    double diagonal() const { return length(size()); }
};

struct Node {
    std::string name;
    int parent = -1;             ///< index into Scene::nodes; -1 for the root
    std::vector<int> children;   ///< indices into Scene::nodes, in file order
    Mat4 local;                  ///< rest transform relative to the parent
    Mat4 world;                  ///< rest transform in scene space (metres, Y up), the unit/axis fix included
    std::vector<int> meshes;     ///< indices into Scene::meshes instanced at this node
    int source = -1;             ///< the node's index in the glTF file it came from; -1 for a node the file lacks
};

/// One joint's weight on one vertex.
struct Influence {
    uint32_t joint = 0;  ///< index into the mesh's Skin::joints
    float weight = 0;    ///< > 0 and normalised: a vertex's weights sum to 1
};

struct Skin {
    std::string name;
    std::vector<int> joints;          ///< node indices, in the order influences name them
    std::vector<Mat4> inverse_bind;   ///< one per joint, scene space (inverse of the joint's bind-pose world transform)
};

/// A triangulated mesh with one material, as it appears in the model at rest. Positions and normals
/// are in scene space: for a static mesh, transformed by its node's world transform; for a skinned
/// mesh, its bind pose evaluated through the joints and inverse binds (the only reliable size on
/// FBX2glTF exports, whose mesh nodes carry a scale the skin ignores).
struct Mesh {
    std::string name;                 ///< the mesh's own name in the file
    std::string node_name;            ///< name of the node that instances it (first instance)
    int node = -1;                    ///< index into Scene::nodes of that node
    int material = -1;                ///< index into Scene::materials
    int skin = -1;                    ///< index into Scene::skins; -1 when unskinned
    std::vector<Vec3> positions;      ///< scene space, metres
    std::vector<Vec3> normals;        ///< scene space, unit length; empty when the file has none
    std::vector<Vec2> uvs;            ///< first UV set; empty when the file has none
    std::vector<uint32_t> indices;    ///< triangles, three per face, into positions
    /// Per-vertex influences in CSR form: vertex v's are influences[influence_offsets[v] ..
    /// influence_offsets[v+1]). Empty when unskinned.
    std::vector<uint32_t> influence_offsets;
    std::vector<Influence> influences;
    int morph_target_count = 0;
    uint32_t line_count = 0;          ///< degenerate line/point primitives the file had beside the triangles (dropped)
    /// Where the mesh is in the glTF file it came from, so a writer patches that primitive by index:
    /// meshes[source_mesh].primitives[source_primitive]; -1 when not from a glTF file.
    int source_mesh = -1;
    int source_primitive = -1;
    /// Per vertex of that primitive (each element of its POSITION accessor), this mesh's vertex it
    /// became, or UINT32_MAX where no triangle of the primitive uses it. Several file vertices may
    /// become one (identical vertices are joined on import). Empty when not from a glTF file.
    std::vector<uint32_t> source_vertices;

    size_t vertex_count() const { return positions.size(); }
    size_t triangle_count() const { return indices.size() / 3; }
};

/// A spring-bone chain the file itself declares (VRM 0.x secondaryAnimation, VRMC_springBone 1.0).
struct DeclaredSpring {
    std::string name;                   ///< the group's comment/name, or "" when the file gives none
    std::string source;                 ///< "VRM0.secondaryAnimation" or "VRMC_springBone"
    std::vector<int> roots;             ///< node indices of chain roots (VRM 0.x lists roots only)
    std::vector<int> joints;            ///< node indices root to tip when the file lists them (VRM 1.0)
    std::vector<int> collider_nodes;    ///< nodes carrying the colliders it collides with
};

struct SpringCollider {
    int node = -1;       ///< the node the collider rides
    Vec3 offset;         ///< in the node's space: a sphere's centre, a capsule's head end
    double radius = 0;   ///< metres
    std::optional<Vec3> tail;  ///< a capsule's other end in the node's space (VRMC_springBone); none for a sphere
};

struct Scene {
    std::string source_path;               ///< the file as given on the command line
    std::string format;                    ///< "gltf", "glb", "vrm", "fbx", ... (by content, not extension)
    std::vector<Node> nodes;               ///< node 0 is the root
    std::vector<Mesh> meshes;
    std::vector<std::string> materials;    ///< material slot names, as the file names them
    std::vector<Skin> skins;
    std::vector<std::string> animations;   ///< animation names
    std::vector<Clip> clips;               ///< the animations themselves, one per name, in the same order (scene/clip.h)
    std::vector<DeclaredSpring> springs;   ///< spring chains the file declares
    std::vector<SpringCollider> colliders; ///< spring-bone colliders the file declares
    double unit_scale = 1;                 ///< metres per source unit that import applied
    Mat4 correction;                       ///< the unit/axis fix import premultiplied into every root's `local`
    std::string up_axis = "Y";             ///< the source's up axis before conversion
    std::vector<std::string> warnings;     ///< what import noticed and fixed (human-readable)

    /// Index of the first node with this exact name, or -1.
    int find_node(const std::string& name) const;
    /// Bounds of every mesh, in scene space.
    Bounds bounds() const;
    /// Bounds of one mesh.
    static Bounds mesh_bounds(const Mesh& mesh);
};

/// The mesh's material slot name, or nullptr for a mesh with no material.
inline const std::string* material_of(const Scene& scene, const Mesh& mesh) {
    return mesh.material >= 0 ? &scene.materials[static_cast<size_t>(mesh.material)] : nullptr;
}

}  // namespace weft
