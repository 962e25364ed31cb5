// Cloth chains an artist already authored: runs of joints whose names say hair, skirt, tail, ...
// (docs/growth.md#when-a-garment-is-grown: if the joint list has nothing matching
// hair|skirt|tail|ribbon, the costume will not move), and the spring chains the file itself declares (VRM 0.x
// secondaryAnimation lists roots only, so each root is walked down to its tips; VRMC_springBone 1.0
// lists the joints).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "garment/classes.h"
#include "scene/scene.h"

namespace weft {

/// How a chain was found; a chain found several ways lists each.
inline constexpr const char* kFoundByJointName = "joint_name";

struct Chain {
    std::string name;                  ///< the authored root joint's name (also when animated_root is set)
    std::string class_name;            ///< garment class of its joints' names; kSpringClass for an unnamed declared chain
    std::vector<int> joints;           ///< node indices, root to tip
    int parent = -1;                   ///< node the root hangs from (a body bone); -1 when the root is a scene root
    double length = 0;                 ///< metres: sum of joint-to-joint distances in the bind pose (bind_world), and
                                       ///< on to `tip` when set
    std::optional<Vec3> tip;           ///< scene space, bind pose: where the last joint's bone ends when the file names
                                       ///< no end (a chain found by shape): the far end of the skin that joint carries
    std::vector<std::string> found_by; ///< kFoundByJointName and/or the DeclaredSpring::source that declares it
    int animated_root = -1;            ///< the authored root left to the animation (garment/chain_root.h): joints start
                                       ///< at its child and `parent` is it; -1 when the chain is simulated from its root
};

struct ChainOptions {
    std::vector<GarmentClass> classes;   ///< every known class (names are classified against all of them)
    std::vector<std::string> selected;   ///< classes to keep; empty = all
};

/// Metres along `joints` in the bind pose, and on to `tip` when set.
double chain_length(const Scene& scene, const std::vector<int>& joints, const std::optional<Vec3>& tip = std::nullopt);

/// Every authored chain: by joint name over the skins' joints (a chain root is a joint whose
/// parent is not a garment joint; a joint with several garment children starts one chain per
/// root-to-tip path, so a skirt hub appears in each of its panels), then every declared spring
/// chain, merged with a name-found chain when the joints are the same. Chains are ordered by root
/// node index, then by tip node index.
std::vector<Chain> find_chains(const Scene& scene, const ChainOptions& options);

}  // namespace weft
