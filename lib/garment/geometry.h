// Garments found by geometry (docs/garments-by-geometry.md): a skirt on the body's material is
// invisible to names, but a person sees it at once: it hangs from the hips and bridges the legs.
// On a humanoid skeleton (hips, two thighs, head found by bone names), every piece of material no
// name claimed (islands of the welded surface, then regions of one dominant body part inside an
// island) is measured against the skeleton and classified by one rule per class:
//
//   skirt    weighted to hips and legs, the legs moving some of it; its top at or above the hip
//            joints, its hem below the crotch; below the crotch its surface leaves the legs to
//            cross the body's midline down to its hem (trousers wrap each leg, so their surface
//            stays within a leg's reach; shorts part into two openings above their hem)
//   cape     weighted to the torso, shoulders or neck, the back and neck carrying most; from the
//            chest down past the hips, behind the chest's plane, away from the body
//   necktie  weighted to the neck and chest; from the neck down the front, narrow
//   hair     weighted to the head; hanging below the neck, well behind the head bone
//
// Anything that fails every rule stays body. The rule and its measurements travel with the
// garment, so inspect and the reports say why it was taken.
#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "geom/vec.h"
#include "scene/scene.h"

namespace weft {

/// The body parts a bone weights, by its own name or its nearest named ancestor's.
enum class BodyRegion { other, hips, legs, torso, arms, neck, head };
const char* body_region_name(BodyRegion region);

/// The bones of a humanoid skeleton the rules measure against, bind pose, scene space.
struct HumanoidBones {
    int hips = -1, head = -1, neck = -1, chest = -1;
    std::array<int, 2> thigh{-1, -1};                 ///< left/right as found (order is not side)
    std::array<int, 2> knee{-1, -1};                  ///< each thigh's first child
    std::vector<BodyRegion> region;                   ///< per scene node
    Vec3 hips_at, head_at, neck_at, chest_at;         ///< bind-pose origins
    std::array<Vec3, 2> thigh_at{}, knee_at{}, ankle_at{};
    double front = 1;                                 ///< +1: the model faces +Z; -1: -Z
    bool upright = true;                              ///< the spine from the hips to the neck rises more than it runs

    /// A humanoid: hips, head and two thighs found, standing upright (a T-rex or a rat on a biped
    /// rig carries its spine level, and the rules measure against an upright body).
    bool humanoid() const { return hips >= 0 && head >= 0 && thigh[0] >= 0 && thigh[1] >= 0 && upright; }
};

/// Finds the humanoid bones by name words (hips/pelvis, thigh/upleg/upper leg, head, neck,
/// chest/spine/torso, shoulder/clavicle/arm) among the skins' joints.
HumanoidBones find_humanoid_bones(const Scene& scene);

/// One piece of candidate material: welded positions and, per vertex, its weights by node.
struct BodyPiece {
    std::vector<Vec3> positions;
    std::vector<std::vector<std::pair<int, double>>> weights;
    std::vector<uint32_t> triangles;  ///< indices into positions, three per triangle (may be empty)
};

/// What the rules made of a piece.
struct PieceClass {
    std::string class_name;  ///< "skirt", "cape", "necktie", "hair"; "" = body
    std::string rule;        ///< e.g. "skirt: hangs from the hips and bridges the legs"
    std::vector<std::pair<std::string, double>> measurements;  ///< named figures the rule read (metres, shares)
};

/// Classifies a piece against the skeleton, trying only the classes listed in `wanted`.
PieceClass classify_piece(const HumanoidBones& bones, const BodyPiece& piece, const std::vector<std::string>& wanted);

/// The classes geometry can find, in the order they are tried.
const std::vector<std::string>& geometry_classes();

}  // namespace weft
