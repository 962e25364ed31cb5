// Every finding build_sheet reports, with its stable code, default severity and a one-line
// description (the Khronos glTF-Validator's table shape). Authoring mistakes are refused by name
// (docs/proxy.md#authoring-checks) unless unambiguous (a triangle lying on one edge, a face's second
// copy: dropped with a warning); with repair, the other triangle defects are dropped too and reported
// as warnings under the same code. The backs of a piece modelled as doubled faces are dropped whatever the
// options (docs/proxy.md#doubled-faces), as are partitions at a fan of three (docs/proxy.md#fans); a
// piece meeting a sheet at such a fan is split off, and an orientable piece wound inconsistently is
// re-wound. Any other non-manifold edge, and a one-sided piece, are refused.
#pragma once
#include <string_view>

#include "io/issue.h"

namespace weft {

// Named where a caller outside the builder reports it too (a config rule's pin that does not parse).
inline constexpr IssueCode kBadOption{"BAD_OPTION", Severity::error, "A builder option outside its range (a negative tolerance, a pin weight outside (0, 1], a density <= 0, an unknown fabric)."};

inline constexpr IssueCode sheet_codes[] = {
    // The garment as asked for.
    {"EMPTY_GARMENT", Severity::error, "The garment names no mesh, a mesh the scene lacks, or has no triangle with area left."},
    kBadOption,
    {"INDEX_OUT_OF_RANGE", Severity::error, "A triangle names a vertex its mesh does not have (or the index count is not a multiple of 3)."},
    // Authoring mistakes (docs/proxy.md#authoring-checks).
    {"NON_FINITE_VERTEX", Severity::error, "A vertex a triangle uses is NaN or infinite."},
    {"REPEATED_INDEX_TRIANGLE", Severity::warning, "A triangle names one vertex twice: it lies on one edge, and is dropped."},
    {"ZERO_AREA_TRIANGLE", Severity::error, "Three distinct vertices with no area: collinear (refused, dropped with repair), or two of them welded into one (it lies on one edge: dropped, a warning)."},
    {"DUPLICATE_TRIANGLE", Severity::error, "A triangle over the same welded vertices as an earlier one: a second copy the same way round, or a copy of one lying on one edge, is dropped (a warning); any other refused (dropped with repair)."},
    {"DOUBLED_FACES", Severity::warning, "Doubled faces (two triangles over the same welded vertices wound against each other: the front and back of a two-sided sheet): the backs are dropped, the sheet simulated as one layer and both sides bound to it."},
    {"FAN_SPLIT", Severity::warning, "Edges three triangles share where a sheet runs straight on and another piece meets it: the piece is split off along them, or dropped from the simulation (drawn and bound) when it is a partition across the sheet."},
    {"NON_MANIFOLD_EDGE", Severity::error, "An edge three or more triangles share where no sheet clearly runs straight on (or four or more): the fabric has no single surface there."},
    {"WINDING_REORIENTED", Severity::warning, "Neighbours ran along their shared edge the same way on a piece that has two sides: the fewest triangles were reversed for the simulation."},
    {"INCONSISTENT_WINDING", Severity::error, "Two neighbours run along their shared edge the same way on a one-sided piece (a Möbius strip): no winding is consistent."},
    // What holds the sheet (docs/proxy.md#pins).
    {"PIN_TARGET_NOT_FOUND", Severity::error, "nearest:NAME names no node, mesh or material of the model."},
    {"PIN_VERTEX_OUT_OF_RANGE", Severity::error, "An explicit pin names a source vertex the garment lacks, or one no triangle uses."},
    {"PIN_HOLDER_NOT_FOUND", Severity::error, "An explicit holder names no node of the model."},
    {"NON_FINITE_FRAME", Severity::error, "The frame node's rest transform is NaN or infinite."},
    {"CLOSED_ISLAND_HELD", Severity::info, "A closed piece (no boundary: a solid, such as a banner's bracket) is held rigid by the frame, not simulated."},
    {"HELD_WHERE_IT_TOUCHES", Severity::info, "An unskinned sheet under no bone is held where it touches rigid geometry of its model (a pole, a rod, its own brackets), by that geometry's node."},
    {"NOTHING_HELD", Severity::error, "No particle is held and nothing skins the sheet: it falls for ever; the message gives the weft.json rule that hangs it (a warning for --pin none, or a skinned sheet its slack holds)."},
    {"RIGID_SKIN_HELD_AT_TOP", Severity::info, "A skinned sheet weighted whole to the body (every particle at least pin_weight on the body's bones: a cape skinned rigid to the spine) is held along the top band of each of its pieces by the bones weighing most there, so it hangs instead of moving rigidly; a weft.json \"pin\": \"weights\" keeps the artist's rigid skin."},
    {"EVERYTHING_HELD", Severity::warning, "Every particle is held (a skirt weighted whole to the hips, say): nothing is simulated, the sheet moves rigidly with its holders."},
    {"SHEET_REFINED_TO_HANG", Severity::info, "A sheet too coarse to hang (its positional or touching pins hold every particle: a tablecloth modelled as a box of 12 vertices) is refined by the automatic resolution to its automatic edge length before its pins are chosen again."},
    // The simulation mesh (docs/solver.md#hinge).
    {"HINGE_RATIO_CAPPED", Severity::warning, "Hinges resampling made much smaller than the source mesh's would bend past the dissipative band in the garment's fabric: their stiffness is capped there (softer than the mesh modelled)."},
    // Internal consistency.
    {"COLOURING_INVALID", Severity::error, "The greedy colouring failed its independent check (a bug, never the input's fault)."},
};

/// The table row for `code`, or nullptr.
constexpr const IssueCode* find_sheet_code(std::string_view code) { return find_issue_code(sheet_codes, code); }

}  // namespace weft
