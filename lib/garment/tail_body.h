// Tails that are the body (docs/garments-by-geometry.md#tails-that-are-the-body): a T-rex's or a
// sauropod's tail held out as a counterweight, a snake's spine, a dragon's tail carry the body's mass
// on authored chains named Tail1..N, as long for the body as a tail that swings. A tail that is the
// body is the spine carried on out of the hips: a quarter of the way down it is still a large part
// of the hips' girth, and from there it only narrows to its tip. A tail that swings has either
// narrowed to a small part of the hips' girth there (a cow's, a wolf's, a rat's) or, wider, is a brush
// of fur that grows wider again further out (a fox's). Its length says nothing: a raptor's tail is as
// slender for its length as a fox's.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "garment/chains.h"
#include "scene/scene.h"

namespace weft {

/// The tail's width a quarter of the way down its chain over the hips' width, at or above which a
/// tail that only narrows from there is the body. Measured (docs/garments-by-geometry.md#tails-that-are-the-body):
/// the tails that swing 0.10 (the Rat) to 0.33 (the Wolf), besides the bushy Fox's 0.43 that widens
/// further out; the tails that are the body 0.41 (a Velociraptor) to 0.82 (the Dragon), the snake's
/// against its root 0.90. About the geometric mean of 0.33 and 0.41.
inline constexpr double kTailIsBody = 0.37;

/// How much wider than at a quarter a tail may measure further down and still count as narrowing
/// to its tip: a tenth, for the rays' noise on a faceted tube (the Dragon's tail measures 3% wider
/// at 3/8 than at 1/4; the Wolf's brush 15% and the Fox's 45% wider further out).
inline constexpr double kTailWidens = 1.1;

/// How much of its width a quarter down a tail may keep at five eighths and still count as narrowing
/// to its tip: a tail that is the body tapers from the hips (at 5/8 the Dragon's is 0.86 of its width
/// at 1/4, the dinosaurs' 0.39 to 0.63, the Snake's 0.69), while a brush holds its width before it
/// tapers late (the 2017 Red Fox's 0.99, the 2017 Wolf's 0.91).
inline constexpr double kTailHolds = 0.9;

/// Where along its chain a tail's section is measured, as a share of the chain's length: past the
/// body on every tail measured (at a tenth a dog's tail is still in its rump).
inline constexpr double kTailSectionAt = 0.25;

struct TailSection {
    double width = 0;          ///< metres: twice the median distance from the chain to the skin, across it, at kTailSectionAt
    double chain_length = 0;   ///< metres
    double hips_width = 0;     ///< metres: the body's width where the chain leaves it, measured the same way at the
                               ///< chain's parent joint (at its root joint when the parent has no section), square
                               ///< to the chain's first link
    double widest_beyond = 0;  ///< metres: the widest section from 3/8 to 7/8 of the chain (0 when none is measured)
    double width_on = 0;       ///< metres: the section at 5/8 of the chain (0 when not measured)
    double girth_share() const { return hips_width > 0 ? width / hips_width : 0; }
    /// Whether the tail grows wider again past the quarter (by more than kTailWidens).
    bool widens() const { return widest_beyond > kTailWidens * width; }
    /// Whether it keeps kTailHolds of its width from a quarter to five eighths down, as a brush does.
    bool holds() const { return width_on >= kTailHolds * width; }
    /// Whether it is the body: a quarter down still kTailIsBody of the hips' width, and narrowing beyond.
    bool is_body() const { return girth_share() >= kTailIsBody && !widens() && !holds(); }
};

/// The sections of the skinned meshes (bind pose) across `chain`: at kTailSectionAt of its length,
/// further down, and at the hips, each in the plane square to the chain there: rays every 1/64 of a
/// turn, each to the first triangle it meets. Empty when the chain has no length, or the section at
/// the quarter or at both the parent and the root has fewer than half its rays meeting skin (the
/// chain runs outside its geometry, so there is no section to read).
std::optional<TailSection> measure_tail_section(const Scene& scene, const Chain& chain);

/// Why a tail on `chain` is the body rather than a garment, or "" when it is not: TailSection::is_body.
std::string tail_is_body_reason(const Scene& scene, const Chain& chain);

}  // namespace weft
