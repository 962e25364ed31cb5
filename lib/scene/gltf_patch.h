// Writing a grown model back as glTF 2.0 binary by patching the file it came from (docs/growth.md,
// the grown model): the original JSON and buffers are kept byte for byte where nothing grew, so
// meshes, materials, textures, animations, morph targets and extensions (VRM) survive untouched,
// and only what growing added is written:
//
//   nodes      every node the grown scene has after the original's, appended (original node indices,
//              which animations and extensions refer to, stay valid) as children of their parents,
//              each placed so its rest pose is where the grown scene binds it
//   skins      the new joints appended to the skin of each re-weighted primitive, with inverse bind
//              matrices that map that primitive's own vertex space (the skin's bind shape) into them
//   weights    new JOINTS_0/WEIGHTS_0 accessors (and JOINTS_1/WEIGHTS_1 where a vertex keeps more
//              than four) for the primitive of each re-weighted mesh
//   pruned     the accessors these replaced (old joints, weights, inverse binds), their buffer views
//              and their bytes, unless another primitive or skin still reads them: the grown file
//              has no unused accessor the source did not have
//   buffers    every buffer (GLB chunk, data URI, external file) and every external image merged
//              into the one GLB binary chunk, so the result stands alone
//   asset      generator "weft <version>": the file is weft's output now
//
// The scene and the file are one by index, kept from import (scene.h): a Scene node is the file's
// node Node::source, a Scene mesh is primitive Mesh::source_primitive of mesh Mesh::source_mesh, and
// each of that primitive's vertices is the Scene vertex Mesh::source_vertices names. Nothing is
// matched by name or position; a mesh or node without that record is an error (the caller then
// writes the scene with gltf_write.h instead).
#pragma once
#include <cstdint>
#include <optional>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace weft {

/// One joint's spring-bone settings, in the units VRMC_springBone defines (docs/format.md "Spring
/// bones" says how weft maps a fabric onto them).
struct SpringJointSettings {
    double hit_radius = 0;     ///< metres
    double stiffness = 0;      ///< per second, the pull towards the rest direction
    double gravity_power = 0;  ///< metres per second
    Vec3 gravity_dir{0, -1, 0};
    double drag_force = 0.4;   ///< 0..1, share of the velocity lost per update
};

/// One spring: a chain's joints by node name, root to last joint, and where a tip node goes when the
/// chain ends past its last joint (spring-bone runtimes swing a joint towards its child, so a last
/// joint without one would not move).
struct SpringChain {
    std::string name;
    std::vector<std::string> joints;
    std::vector<SpringJointSettings> settings;  ///< per joint; the tip node (when added) uses the last one's
    std::optional<Vec3> tip;                    ///< set: a node "<last joint>_end" there (scene space, bind pose)
};

/// Spring-bone data to write: VRMC_springBone (glTF, VRM 1.0) or secondaryAnimation (VRM 0.x). The
/// file's own colliders and collider groups are kept and every spring collides with all of them.
struct SpringBones {
    std::vector<SpringChain> chains;
};

struct GltfPatchResult {
    std::vector<uint8_t> glb;         ///< the patched model; empty when `error` is set
    std::string error;                ///< "" on success; else one line naming the file and what could not be matched
    uint32_t nodes_added = 0;
    uint32_t primitives_reweighted = 0;
    uint32_t vertices_reweighted = 0; ///< vertices whose influences came from the grown scene
    uint32_t images_embedded = 0;     ///< external or data-URI images moved into the binary chunk
    uint32_t springs = 0;             ///< springs (VRM 0.x: bone groups) written
    uint32_t spring_joints = 0;       ///< joints in them, tip nodes included
    uint32_t tips_added = 0;          ///< tip nodes added past chains' last joints
    std::string spring_format;        ///< "VRMC_springBone", "VRM0.secondaryAnimation" or "" when none
    uint32_t accessors_pruned = 0;    ///< the file's accessors the patch replaced and nothing reads any more, dropped
    uint64_t bytes_pruned = 0;        ///< bytes of the merged binary no buffer view covers any more, dropped
};

/// Patches `source` (the .gltf, .glb or .vrm `original` was imported from) with what `grown` adds to
/// `original`: nodes after original.nodes.size(), joints after each original skin's, and the
/// influences of `changed_meshes` (indices into both scenes' meshes). Deterministic: the same inputs
/// give the same bytes. Safe for any file: a malformed one is an error, never a crash.
///
/// With `springs`, the model's spring-bone data is written too: a VRM 0.x file (extensions.VRM) gets
/// its secondaryAnimation.boneGroups replaced by one group per chain; any other file gets
/// VRMC_springBone's springs replaced (its colliders kept). `grown` may equal `original` (authored
/// chains only: nothing but the spring data changes).
///
/// The file is read through the import's glTF document (buffers and images confined to its folder
/// unless `allow_outside_folder`, as ImportOptions says); its nodes and vertices are the ones the
/// import recorded by index (Node::source, Mesh::source_*), never matched by name or position.
GltfPatchResult patch_gltf(const std::filesystem::path& source, const Scene& original, const Scene& grown,
                           std::span<const int> changed_meshes, const SpringBones* springs = nullptr,
                           bool allow_outside_folder = false);

}  // namespace weft
