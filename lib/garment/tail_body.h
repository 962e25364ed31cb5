// Tails that are the body (docs/garments-by-geometry.md#tails-that-are-the-body): a T-rex's tail held
// out as a counterweight, a snake's spine, a dragon's tail carry the body's mass on authored chains
// named Tail1..N, as long for the body as a tail that swings. What tells them apart is how thick the
// tail still is once it has left the body: a tail that swings has narrowed to a fraction of its
// length a quarter of the way down its chain (a bushy tail widens only further out); a tail that is
// the body is still a fifth of its length wide or more there.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "garment/chains.h"
#include "scene/scene.h"

namespace weft {

/// Width over length above which a tail is the body: the tails that swing measured 0.04 (the Rat)
/// to 0.17 (the Fox), the tails that are the body 0.26 (the T-rex, the dragon) to 0.37 (the snake);
/// a fifth lies between, about their geometric mean.
inline constexpr double kTailIsBody = 0.2;

/// Where along its chain a tail's section is measured, as a share of the chain's length: past the
/// body on every tail measured (at a tenth a dog's tail is still in its rump).
inline constexpr double kTailSectionAt = 0.25;

struct TailSection {
    double width = 0;         ///< metres: twice the median distance from the chain to the skin, across it
    double chain_length = 0;  ///< metres
    double share() const { return chain_length > 0 ? width / chain_length : 0; }
};

/// The section of the skinned meshes (bind pose) across `chain` at kTailSectionAt of its length, in
/// the plane square to the chain there: rays from the chain every 1/64 of a turn, each to the first
/// triangle it meets. Empty when the chain has no length or fewer than half the rays meet skin (the
/// chain runs outside its geometry, so there is no section to read).
std::optional<TailSection> measure_tail_section(const Scene& scene, const Chain& chain);

/// Why a tail on `chain` is the body rather than a garment, or "" when it is not: its section is
/// wider than kTailIsBody of the chain's length.
std::string tail_is_body_reason(const Scene& scene, const Chain& chain);

}  // namespace weft
