// The garment config file (`--config FILE`, schemas/config.schema.json): extra or replacement name
// patterns per class, and per-file rules that say what a material, mesh or node is. Later stages
// read the same file (pins and fabrics per garment), so a rule carries those fields through.
//
//   {
//     "schema": "weft.config/1",
//     "classes": {
//       "hair":  { "add": ["kami"] },            // more patterns for a built-in class
//       "cape":  { "patterns": ["cape", "robe"] },  // replace a class's patterns
//       "veil":  { "patterns": ["veil"] }           // a new class
//     },
//     "garments": [
//       { "file": "Couch_*.glb", "material": "Couch_Blue", "class": "curtain" },
//       { "file": "Superhero*.fbx", "material": "MI_Hair_2", "class": "none" },
//       { "node": "Knight_Cape", "class": "cape", "fabric": "leather" },
//       { "file": "Witch*", "geometry": "skirt", "class": "dress" }   // what geometry found
//     ],
//     "min_garment_span": 0.1,
//     "clips": [                                   // which animation clips bake --validate plays
//       { "file": "kaykit_Knight*", "clips": ["Walking_A", "Idle"] },
//       { "file": "Witch*", "clips": "all" }       // or "none"
//     ],
//     "colliders": [                               // edits to the fitted body colliders
//       { "file": "Witch*", "bone": "Head", "edit": "remove" },
//       { "bone": "Spine", "edit": "resize", "scale": 0.9 },   // or "radius": 0.12
//       { "bone": "Hips", "edit": "add", "shape": "capsule", "radius": 0.1, "a": [-0.08, 0, 0], "b": [0.08, 0, 0] }
//     ]
//   }
#pragma once
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "garment/classes.h"

namespace weft {

/// What one config rule says about a material, mesh or node of matching files.
struct GarmentRule {
    std::string file;        ///< glob (`*`, `?`) on the model's file name, or on its path when it has a `/`; "" = every file
    std::string material;    ///< exact material slot name, or ""
    std::string mesh;        ///< exact mesh name, or ""
    std::string node;        ///< exact node name, or ""
    std::string geometry;    ///< a class geometry found a garment as (garment/geometry.h), or ""; exactly one
                             ///< of material/mesh/node/geometry is set. Its class confirms, renames or ("none") rejects it
    std::string class_name;  ///< a class name, or kNotAGarment
    std::string fabric;      ///< fabric preset for later stages, "" when unset (not interpreted here)
    nlohmann::json pin;      ///< pin rule for later stages, null when unset (not interpreted here)
    bool repair = false;     ///< the sheet builder drops defective triangles (what `weft sheet --repair` does)
    std::string pointer;     ///< where in the config file: "/garments/2"

    /// "material Couch_Blue", "node Knight_Cape": what the rule names, for messages and reports.
    std::string target() const;
};

/// Which animation clips `weft bake --validate` plays for matching files when --clips names none
/// (docs/validation.md#clips). Read here with the rest of the file; validation interprets it.
struct ClipRule {
    std::string file;     ///< glob as GarmentRule::file; "" = every file
    std::string clips;    ///< "all", "none" or clip names joined by commas (as --clips takes them)
    std::string pointer;  ///< "/clips/0"
};

/// One edit to a matching model's body colliders after fitting (docs/colliders.md#config). Read here
/// with the rest of the file; the pipeline hands it to lib/body as a ColliderEdit.
struct ColliderRule {
    std::string file;              ///< glob as GarmentRule::file; "" = every file
    std::string edit;              ///< "add", "remove" or "resize"
    std::string bone;              ///< the node the collider rides, by name
    std::string shape;             ///< add: "sphere" or "capsule"
    std::optional<double> radius;  ///< metres; add: required; resize: the new radius
    std::optional<double> scale;   ///< resize: the radius times this
    std::array<double, 3> a{}, b{};///< add: ends in the bone's rigid space, metres (a sphere: `a` is its centre)
    std::string pointer;           ///< "/colliders/0"
};

struct GarmentConfig {
    std::string path;                     ///< the file it was read from ("" for the defaults)
    std::vector<GarmentClass> classes;    ///< defaults with the file's additions and replacements applied
    std::vector<GarmentRule> rules;       ///< in file order; the first rule that names a thing wins
    std::optional<double> min_garment_span;  ///< metres; overrides the default when set
    std::vector<ClipRule> clips;          ///< in file order; the first whose file matches a model wins
    std::vector<ColliderRule> colliders;  ///< in file order; every one whose file matches a model applies, in order
};

struct ConfigResult {
    GarmentConfig config;
    std::string error;  ///< "" when usable; else one line naming the file, the JSON pointer and the problem
};

/// Deepest nesting of arrays and objects a config may have (the document itself is depth 1). A
/// config needs 5 (document, garments, rule, pin, vertices); anything deeper is refused while
/// parsing, before a recursive copy, comparison or dump of a pin value could exhaust the stack.
inline constexpr int kMaxConfigDepth = 16;

/// The built-in configuration: default_garment_classes() plus the spring pseudo-class, no rules.
GarmentConfig default_garment_config();

/// Parses a config document. `origin` names it in errors (usually its path). Refuses nesting
/// deeper than kMaxConfigDepth and a key written twice in one object (JSON parsers disagree on
/// which copy wins, RFC 8259 section 4), each by its JSON pointer.
ConfigResult parse_garment_config(std::string_view text, const std::string& origin);

/// Reads and parses a config file.
ConfigResult load_garment_config(const std::filesystem::path& path);

/// Whether a rule applies to the model at `model_path` (see GarmentRule::file).
bool rule_applies_to(const GarmentRule& rule, const std::filesystem::path& model_path);

/// Whether a rule's `file` glob names the model at `model_path`: "" every file; with a `/` the glob
/// is matched against the path, else against the file name (GarmentRule::file, ClipRule::file).
bool file_matches(std::string_view file_glob, const std::filesystem::path& model_path);

/// Shell-style glob: `*` any run, `?` one byte, everything else literal (case-sensitive).
bool glob_match(std::string_view pattern, std::string_view text);

/// Parses a `--classes hair,skirt` list against the known classes. Returns the names in the order
/// given, deduplicated; on an unknown name sets `error` (listing the known ones) and returns {}.
std::vector<std::string> select_classes(std::string_view list, const std::vector<GarmentClass>& classes,
                                        std::string& error);

}  // namespace weft
