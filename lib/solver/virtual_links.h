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

struct VirtualLinks {
    // Fixed by the model (grouped on first use: a model built by hand has no cooked grouping).
    std::vector<uint32_t> of;                   ///< per virtual particle, its link
    std::vector<std::array<uint32_t, 3>> link;  ///< per link: carrier, from, to (ContactModel::virtual_link)
    std::vector<Vec3> rest_link;                ///< per link, to − from at rest
    std::vector<double> offset;                 ///< per link, its particles' longest offset from the carrier

    // Per substep, formed on a link's first virtual particle.
    enum class Reach : uint8_t { unseen, none, some };
    std::vector<Reach> reach;
    std::vector<double> band;         ///< the look-ahead of its free particles, before any point's lever
    std::vector<double> length;       ///< |to − from| now
    std::vector<Quat> turn;           ///< the shortest turn of rest_link onto to − from
    std::vector<uint32_t> near_from;  ///< per link, where its colliders start in `near` (and end at the next's)
    std::vector<uint32_t> near_to;
    std::vector<uint32_t> near;       ///< colliders within its longest point's reach of the carrier, in index order
};

}  // namespace weft
