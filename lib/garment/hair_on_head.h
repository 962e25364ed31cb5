// Hair that lies on the head (docs/garments-by-geometry.md#hair-lying-on-the-head): cropped hair, hair
// tied back close to the skull, a short cut under a headband. A slot called `Hair` finds it, but it
// has nothing free to swing: its ends lie on the scalp and the nape. Hair moves where its ends stand
// clear of the body, as a bob's or a ponytail's do.
//
// Measured on a garment found automatically (by a name, or by the body rules); a config rule naming
// the garment builds it whatever it measures.
#pragma once
#include "garment/garments.h"
#include "garment/geometry.h"
#include "scene/scene.h"

namespace weft {

/// The least clearance, as a share of the head's height, of hair that moves. Measured on the corpus
/// (docs/garments-by-geometry.md#hair-lying-on-the-head): hair that hangs free 0.095 to 0.115, hair
/// lying on the head 0.005 to 0.038. Chosen near the geometric mean of the two nearest (0.038 and
/// 0.095), rounded down to keep the margin on the side of building.
inline constexpr double kHairOnHeadClearance = 0.06;

/// The least share of a hair piece alone's vertices in front of the head joint that makes it facial
/// hair. Measured (docs/garments-by-geometry.md#a-hair-piece-alone): a beard and moustache 1.00, a
/// long cut sold apart from its body 0.45 (scalp hair wraps the skull, about half of it behind the
/// joint); nine tenths leaves room for a cut whose fringe comes far forward.
inline constexpr double kFacialHairFront = 0.9;

/// How far above the neck joint, as a share of the head's height, a hair piece alone may end and
/// still be hair that moves. With no head in the file its clearance cannot be measured; where it
/// ends can, and does not depend on the body: over every hair of the corpus on a humanoid skeleton
/// (docs/garments-by-geometry.md#a-hair-piece-alone) the hair that hangs ends at most 0.055 above
/// the neck joint (the long hair sold alone) and the hair that lies at least 0.096 above it (the
/// 2019 Male Suit's short hair). Near their geometric mean (0.073).
inline constexpr double kAloneHairEnd = 0.075;

/// What measure_hair_on_head read.
struct HairOnHead {
    bool measured = false;   ///< a humanoid skeleton to measure against, the hair's top above its neck joint, a body beside it
    double clearance = 0;    ///< metres: the median distance of the hair's lowest quarter from the rest of the model
    double head_height = 0;  ///< metres: from the neck joint (the head's, without a neck) up to the hair's top
    double below_neck = 0;   ///< metres: how far the hair's lowest point lies below the neck joint (negative: above it)
    bool alone = false;      ///< nothing else of the model lies within the head's height of it: a hair piece alone
                             ///< (not measured then; head_height and below_neck are)
    double front_share = 0;  ///< with alone: the share of its welded vertices in front of the head joint (the face's side)
    double share() const { return head_height > 0 ? clearance / head_height : 0; }
    /// Whether a hair piece alone is facial hair lying on the jaw (a beard, a moustache): it ends above
    /// the neck joint and at least kFacialHairFront of it lies in front of the head joint. Its face is
    /// not in the file to measure against; the skeleton says where it would be.
    bool lies_on_face() const { return alone && below_neck < 0 && front_share >= kFacialHairFront; }
    /// How far above the neck joint the hair ends, as a share of the head's height (negative: below it).
    double end_above_neck() const { return head_height > 0 ? -below_neck / head_height : 0; }
    /// Whether a hair piece alone ends too high to hang: more than kAloneHairEnd of the head's height
    /// above the neck joint, where the corpus's cropped and tied hair ends and none that hangs does.
    /// Its clearance has nothing to be measured against; where it ends is what is left.
    bool alone_ends_on_head() const { return alone && end_above_neck() > kAloneHairEnd; }
    /// Whether the hair lies on the head: measured, it ends above the neck joint (hair that hangs
    /// lower has the length to swing, even where it lies on the back), and its clearance is under
    /// kHairOnHeadClearance of the head's height.
    bool lies_on_head() const { return measured && below_neck < 0 && share() < kHairOnHeadClearance; }
    /// Whether hair the body rules found lies on the head or the body, wherever it ends: no name says
    /// it is hair, so hanging below the neck joint is not enough; it must stand clear as hair that
    /// moves does. A hood hanging onto the neck or the back measures as lying (the Medieval woman's,
    /// 30 mm from the body rules' end bound, stands 0.037 clear).
    bool found_by_shape_lies() const { return measured && share() < kHairOnHeadClearance; }
};

/// Measures a hair garment against the model's other triangles (the body and what it wears), in the
/// bind pose. The lowest quarter is the garment's welded vertices in the lowest quarter of its height;
/// each one's distance is to the nearest triangle with no corner in the garment, capped at the head's
/// height. Not measured without a humanoid skeleton (garment/geometry.h), when the hair's top is not
/// above the neck joint, or when nothing else of the model lies within the head's height of it (then
/// `alone`, with its front_share).
HairOnHead measure_hair_on_head(const Scene& scene, const Garment& hair, const HumanoidBones& bones);

/// "hair lying on the head: it ends 115 mm above the neck joint and its lowest quarter lies 7 mm
/// (0.019 of the head's 356 mm) from the body; hair that moves stands 0.06 clear (docs/...)".
std::string hair_on_head_reason(const HairOnHead& measured);

/// "facial hair lying on the jaw, a hair piece alone: it ends 40 mm above the neck joint and 1.00 of
/// it lies in front of the head joint; ...".
std::string facial_hair_reason(const HairOnHead& measured);

/// "hair lying on the head, a hair piece alone: it ends 150 mm above the neck joint, 0.52 of the
/// head's 286 mm; ...".
std::string alone_hair_reason(const HairOnHead& measured);

/// Measures a hair garment found automatically and, when it lies on the head (or, a piece alone, on
/// the face or ending too high to hang), gives it its
/// `stays_reason` and verdict: found, never built. Other garments, and hair a config rule named or
/// authored chains move, are left as they are.
void judge_hair_on_head(const Scene& scene, const HumanoidBones& bones, Garment& g);

}  // namespace weft
