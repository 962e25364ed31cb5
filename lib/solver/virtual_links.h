// The links that carry a rig's virtual particles (docs/colliders.md#virtual-particles). A link carries
// many of them (the Witch's skirt 110 on 38 links, Hair_Long's 412 on 36), and what their rows need of
// the link alone — its particles' freedom and look-ahead, its length, its turn, the colliders it may
// reach — is the same for each: it is formed once a link a substep, in the order the particles first
// name their links, and each virtual particle reads it.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "geom/vec.h"

namespace weft {

/// What a virtual particle's contact gradient (virtual_turn_gradient) needs of its link alone: the rest
/// direction u, the direction now w = d/|d| (d = to − from), k = u × w, c1 = 1 + u·w, k·k and k × u.
/// `defined` is false where the gradient is zero (a link of no length, or turned half round).
struct LinkTurnTerms {
    Vec3 u, w, k, ku;
    double dl = 0, c1 = 0, kk = 0;
    bool defined = false;
};

struct VirtualLinks {
    // Fixed by the model (grouped on first use: a model built by hand has no cooked grouping).
    std::vector<uint32_t> of;                   ///< per virtual particle, its link
    std::vector<std::array<uint32_t, 3>> link;  ///< per link: carrier, from, to (ContactModel::virtual_link)
    std::vector<Vec3> rest_link;                ///< per link, to − from at rest
    std::vector<double> offset;                 ///< per link, its particles' longest offset from the carrier
    std::vector<double> offset_length;          ///< per virtual particle, |offset| (its own reach's lever)

    // Per substep, formed on a link's first virtual particle.
    enum class Reach : uint8_t { unseen, none, some };
    std::vector<Reach> reach;
    std::vector<double> band;         ///< the look-ahead of its free particles, before any point's lever
    std::vector<double> length;       ///< |to − from| now
    std::vector<Quat> turn;           ///< the shortest turn of rest_link onto to − from
    std::vector<uint32_t> near_from;  ///< per link, where its colliders start in `near` (and end at the next's)
    std::vector<uint32_t> near_to;
    std::vector<uint32_t> near;       ///< colliders within its longest point's reach of the carrier, in index order
    /// The link's own terms of its points' contact gradients (virtual_rows.h, LinkTurnTerms), formed on
    /// its first contact of the substep: most links' points touch together, or not at all.
    std::vector<uint8_t> terms_formed;
    std::vector<LinkTurnTerms> terms;
};

}  // namespace weft
