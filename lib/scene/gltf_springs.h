// Spring bones written into a glTF document (docs/format.md#spring-bones): what weft grew joins what
// the artist authored, in the extension the file already uses, and the artist's springs stay theirs.
//
//   kept       every spring, joint, collider and collider group the file declares (VRM 0.x
//              secondaryAnimation, VRMC_springBone 1.0) is left as the file has it, value for value
//   added      one spring per chain no spring of the file declares (grown chains, chains found by joint
//              name): VRM 0.x files get a bone group (a VRM 0.x file stays a VRM 0.x file), any other
//              file VRMC_springBone; a tip node "<last joint>_end" where a chain ends past its last joint
//   colliders  the body colliders weft fitted, as spring colliders in a collider group of their own
//              ("weft body"); every added spring collides with it and with every group the file has.
//              VRM 0.x knows spheres only: a capsule becomes spheres along its core, one radius apart
//   retuned    only when asked (SpringBones::retune): an authored spring's parameters set to what weft
//              maps its fabric to, every parameter changed listed, old and new
//   authored   only when asked (SpringBones::collide_authored) and only in a file that declares no
//   colliders  collider at all: the authored springs collide with the body colliders
//
// A collider sits on a node of unit world scale, so every runtime reads its radius in metres: on a
// bone whose world transform carries a uniform scale (an FBX2glTF armature's 100) it goes on a child
// node "<bone>_colliders" that undoes that scale. Offsets are in the node's space at the file's
// default pose.
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "geom/vec.h"

namespace weft {

/// One joint's spring-bone settings, in the units VRMC_springBone defines (docs/format.md "Spring
/// bones" says how weft maps a fabric onto them).
struct SpringJointSettings {
    double hit_radius = 0;     ///< metres
    double stiffness = 0;      ///< per second, the pull towards the rest direction
    double gravity_power = 0;  ///< metres per second
    Vec3 gravity_dir{0, -1, 0};
    double drag_force = 0.4;   ///< 0..1, share of the velocity lost per update
    double rest_clearance = INFINITY;  ///< not written: metres from the joint's tail to the nearest collider at
                                       ///< rest, the widest hit radius that touches none there (a VRM 0.x
                                       ///< bone group, one radius for all its joints, stays under each one's)
};

/// One chain of a rig proxy: its joints by node name, root to last joint, and where a tip node goes
/// when the chain ends past its last joint (spring-bone runtimes swing a joint towards its child, so a
/// last joint without one would not move).
struct SpringChain {
    std::string name;
    std::vector<std::string> joints;
    std::vector<SpringJointSettings> settings;  ///< per joint; the tip node (when added) uses the last one's
    std::optional<Vec3> tip;                    ///< set: a node "<last joint>_end" there (scene space, bind pose)
    bool authored = false;                      ///< a spring of the file declares it: kept as the file has it
                                                ///< (retuned only with SpringBones::retune), never added
};

/// A body collider to write, in the scene's (= the file's) space at its default pose.
struct BodySpringCollider {
    std::string node;         ///< the bone it rides, by name
    Vec3 a, b;                ///< a sphere's centre (a == b) or a capsule's ends, metres
    double radius = 0;        ///< metres
    bool capsule = false;
};

/// What to write: every rig chain (authored ones only for retuning) and the body's colliders.
struct SpringBones {
    std::vector<SpringChain> chains;
    std::vector<BodySpringCollider> colliders;
    bool retune = false;            ///< authored springs take weft's settings (--retune-springs)
    bool collide_authored = false;  ///< authored springs of a file with no collider of its own collide with
                                    ///< the body colliders (--collide-authored-springs)
};

/// One value of an authored spring that was changed, as the file had it and as written.
struct SpringChange {
    std::string spring;       ///< the spring's name (VRM 0.x: the bone group's comment), else "#<index>"
    std::string joint;        ///< the joint's node name; "" for a VRM 0.x bone group (one setting for all)
    std::string parameter;    ///< the file's key: "stiffness" ("stiffiness" in VRM 0.x), "dragForce", ...
    nlohmann::json before, after;
};

/// What write_spring_bones did.
struct SpringsWritten {
    std::string format;                 ///< "VRMC_springBone", "VRM0.secondaryAnimation" or "" when nothing was written
    uint32_t springs_added = 0;         ///< springs (VRM 0.x: bone groups) added for chains no spring declares
    uint32_t joints_added = 0;          ///< joints in them, tip nodes included
    uint32_t tips_added = 0;            ///< tip nodes added past chains' last joints
    uint32_t authored_springs = 0;      ///< springs (bone groups) the file declares, kept
    uint32_t colliders_added = 0;       ///< body colliders written (VRM 0.x: spheres, a capsule counting as several)
    uint32_t collider_groups_added = 0;
    uint32_t collider_nodes_added = 0;  ///< "<bone>_colliders" nodes that undo a bone's scale
    std::vector<SpringChange> changes;  ///< every authored value changed (retune, collide_authored), in file order
    std::string note;                   ///< why an asked-for change was not made, else ""
};

/// The one setting a VRM 0.x bone group gives every joint of `chain`: its root's, with the chain's widest
/// hit radius but no wider than any joint's clearance at rest.
SpringJointSettings bone_group_settings(const SpringChain& chain);

/// Writes `springs` into `doc` (a glTF 2.0 document, nodes appended to its node list as needed). Throws
/// std::runtime_error naming the spring or joint when a joint names no node of the file, or more than
/// one, or a chain has no joints (checked before anything is written), or a node weft places something
/// on cannot be inverted (`doc` is then half-written: discard it).
SpringsWritten write_spring_bones(nlohmann::json& doc, const SpringBones& springs);

}  // namespace weft
