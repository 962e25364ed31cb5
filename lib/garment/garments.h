// Which garments a model has, and whether they will move: the question `weft inspect` answers
// before any work, and the list every later stage (sheet and rig proxies, growing) starts from.
//
// A garment is found, in this order of authority, by a config rule naming its material, mesh or
// node; by its material slot's name (a slot called `hair` is hair, docs/growth.md#finding-the-geometry); or, where a source
// mesh's material slots name no class at all (a cape on a texture-atlas material), by its mesh
// name and then its node name. Geometry that authored chains weight but no name found becomes a
// garment of the chains' class (the Fox's tail on its body material). On a humanoid skeleton, a
// class no name or chain found is looked for by geometry in the material left over
// (garment/geometry.h: a skirt on the body's material); a config rule naming that geometry class
// confirms, renames or rejects what it finds.
//
// Hair found automatically that lies on the head (cropped, tied close) is found but never built
// (garment/hair_on_head.h): `stays_reason` says why.
//
// A name match too small to simulate (a `MI_Hair_2` slot on eyebrows) is reported as not a
// garment, with its size: its largest connected piece must span kDefaultMinGarmentSpan.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "garment/chains.h"
#include "garment/config.h"
#include "scene/scene.h"

namespace weft {

/// Smallest span (metres) of a garment's largest connected piece. Growing drops strands shorter
/// than min_strand_length (60 mm, docs/growth.md#drop), measured from a strand's anchored end; the span of a piece
/// anchored along its whole width (an eyebrow, a fringe) overstates how far it can hang, so 60 mm
/// on the span would take a 64 mm eyebrow. Measured on the shared models: the name matches that
/// are not garments span at most 64 mm (Superhero's MI_Hair_2 eyebrows; Casual's eyebrows 49 mm),
/// the smallest real garment's largest piece 269 mm (Casual's Hair). 100 mm sits between with a
/// margin of 1.5x above the one and 2.7x below the other.
inline constexpr double kDefaultMinGarmentSpan = 0.10;

/// How a garment was found: "config", "material", "mesh", "node" (names), or "chain".
inline constexpr const char* kMatchedByConfig = "config";
inline constexpr const char* kMatchedByMaterial = "material";
inline constexpr const char* kMatchedByMesh = "mesh";
inline constexpr const char* kMatchedByNode = "node";
inline constexpr const char* kMatchedByChain = "chain";
/// Garment::not_garment_rule of a tail on authored chains that is the body (garment/tail_body.h).
inline constexpr const char* kTailIsBodyRule = "tail_is_body";
inline constexpr const char* kMatchedByGeometry = "geometry";  ///< garment/geometry.h: by shape and weights on a humanoid

/// One mesh's share of a garment.
struct GarmentPart {
    int mesh = -1;                   ///< index into Scene::meshes
    std::vector<uint32_t> vertices;  ///< the mesh's vertices in the garment, ascending (all of them for a name match)
    size_t triangles = 0;            ///< triangles whose three vertices are all in the garment
};

struct Garment {
    std::string name;            ///< the name that found it (material, mesh or node name; first chain's root joint)
    std::string class_name;      ///< "hair", "skirt", ...
    std::string matched_by;      ///< kMatchedBy*
    std::string matched_name;    ///< the name that matched (for config, the material/mesh/node name the rule names)
    std::string rule_pointer;    ///< config only: the rule's JSON pointer ("/garments/0"); "" otherwise
    std::string rule_target;     ///< config only: what the rule names ("material Couch_Blue"); "" otherwise
    std::string fabric;          ///< from the config rule, "" when none
    nlohmann::json pin;          ///< from the config rule, null when none
    bool repair = false;         ///< from the config rule: a sheet drops defective triangles
    std::vector<GarmentPart> parts;
    std::vector<int> holders;    ///< meshes of the match left out as closed solids (a curtain node's rod): they hold it, Scene::meshes indices
    size_t vertex_count = 0;
    size_t triangle_count = 0;
    Bounds bounds;               ///< scene space, metres (skinned meshes in their bind pose)
    size_t pieces = 0;           ///< islands (triangles joined by shared edges) after welding (clumps.h weld_garment)
    double span = 0;             ///< metres: span of the largest piece (a lower bound of its diameter, >= 0.88 of it)
    int body_bone = -1;          ///< node of the body (non-chain) bone holding most of its weight; -1 for a static mesh
    std::vector<int> chains;     ///< indices into ModelGarments::chains that weight or carry it
    bool moves = false;          ///< an authored chain weights or carries it
    int welded_to = -1;          ///< when it will not move: the body bone it is welded to; -1 otherwise or static
    std::string verdict;         ///< for an artist: "moves", "will not move: welded to Head", ...
    std::string not_garment_reason;  ///< "" for a garment; why a name match is not one
    std::string not_garment_rule;    ///< the measured rule that made it no garment when it reports one (kTailIsBodyRule), else ""
    std::string geometry_rule;   ///< geometry only: the rule that took it (garment/geometry.h)
    std::vector<std::pair<std::string, double>> geometry_measurements;  ///< geometry only: what the rule measured
    std::string geometry_class;  ///< geometry only: the class the rule found (a config rule may rename it)
    double head_clearance = -1;  ///< hair found automatically: its lowest quarter's distance from the body over the head's height (garment/hair_on_head.h); -1 unmeasured
    double head_height = 0;      ///< metres, with head_clearance: from the neck joint to the hair's top
    double below_neck = 0;       ///< metres, with head_clearance: the hair's lowest point below the neck joint (negative: above)
    std::string stays_reason;    ///< "" unless found and never built: hair lying on the head (garment/hair_on_head.h)
};

struct GarmentOptions {
    GarmentConfig config = default_garment_config();  ///< classes, rules (filtered by file here), span
    std::vector<std::string> selected;                ///< classes to look for; empty = all
};

struct ModelGarments {
    std::vector<Chain> chains;                 ///< authored chains, see find_chains
    std::vector<size_t> chain_vertices;        ///< per chain: vertices it weights (weight > 0) or carries rigidly
    std::vector<Garment> garments;             ///< name matches first (in mesh order), then chain-found ones
    std::vector<Garment> not_garments;         ///< name matches that are not garments, with reasons
    bool found_by_name = false;                ///< some garment was found by config, material, mesh or node name
    std::string verdict;                       ///< one line for the whole model
};

/// The model's one line: what was found by name, by authored chain and by geometry, and how many of
/// the named garments move. `moves[i]`, when given, is whether garment i moves as a later stage
/// decided (a chain grown for it, a sheet built from it); empty: as found (ModelGarments::verdict).
std::string model_verdict(const Scene& scene, const ModelGarments& found, const std::vector<uint8_t>& moves = {});

/// Finds the garments, chains and verdicts of one imported model (see the file comment).
/// `scene.source_path` selects which config rules apply.
ModelGarments find_garments(const Scene& scene, const GarmentOptions& options = {});

}  // namespace weft
