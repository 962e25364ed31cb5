// Garment classes and the name patterns that find them (docs/growth.md#finding-the-geometry:
// a slot called `hair` is hair). The same patterns name authored cloth joints, so one table
// answers both "is this material a skirt?" and "is this bone part of a skirt chain?".
//
// A name is read as words: split at anything that is not a letter or digit, between letters and
// digits, and at camelCase humps, then lower-cased. `MI_Hair_2` reads "mi hair 2", `FrontHair_L`
// "front hair l", `HAIRBand` "hair band", `Tail1` "tail 1", `Chair` "chair" (so `Chair` is not hair).
// An ASCII pattern is one or more words that must match consecutive words of the name; a word
// matches itself and its plural (+s, +es), and a pattern word ending in `*` matches any word it
// begins. A pattern with non-ASCII bytes (`髪`, `スカート`) matches as a substring, because CJK
// names have no word boundaries to respect.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace weft {

/// The class name a config rule uses to say "this is not a garment" (a false positive by name).
inline constexpr std::string_view kNotAGarment = "none";

/// The class of a spring chain the file declares (VRM) whose joint names match no other class.
/// It has no default patterns; a config may give it some to find such chains by name.
inline constexpr std::string_view kSpringClass = "spring";

struct GarmentClass {
    std::string name;                   ///< "hair", "skirt", ...: the word reports, sidecars and --classes use
    std::vector<std::string> patterns;  ///< see the file comment; matched case-insensitively
    std::string fabric = "cotton";      ///< suggested library fabric (the solver's class table agrees for its classes)
    std::string growth = "sheet";       ///< how it moves with no chains: "strands" (islands), "wedges" (radial panels) or "sheet"
};

/// The built-in classes, in priority order (earlier wins a tie between equally long matches):
/// hair, skirt, dress, robe, cape, necktie, ribbon, tassel, coat_tails, tail, sleeve, scarf, apron,
/// flag, curtain.
std::vector<GarmentClass> default_garment_classes();

/// The words of a name, lower-cased, as described in the file comment.
std::vector<std::string> split_words(std::string_view name);

/// Number of words of `name` that `pattern` matched (>= 1), or 0 when it does not match.
/// A substring (non-ASCII) pattern counts as one word.
int match_pattern(std::string_view pattern, std::string_view name);

/// The class a name belongs to: the class with the longest matching pattern (most words), ties to
/// the earlier class. Returns an index into `classes`, or -1 when no pattern matches.
int classify_name(std::string_view name, const std::vector<GarmentClass>& classes);

/// Index of the class called `name` (exact, lower case), or -1.
int find_class(const std::vector<GarmentClass>& classes, std::string_view name);

/// Checks a pattern's syntax. Returns "" when usable, else why not (empty, a `*` not at a word's
/// end, no letters or digits).
std::string check_pattern(std::string_view pattern);

}  // namespace weft
