// What a rig proxy's skinned mesh, posed from its simulation, is refused for (rig_validate.h). Tables
// in io/issue.h's shape.
#pragma once
#include "io/issue.h"

namespace weft {

inline constexpr IssueCode kMeshStretch{"MESH_STRETCH", Severity::error, "Posed from a rig proxy's simulation at every step of every scenario, a garment triangle edge of the skinned mesh stretched past the limit against its bind length (default 1.10 in hang's settled end and idle, 10 in a driven scenario): the mesh tears."};
inline constexpr IssueCode kScalpDisplacement{"SCALP_DISPLACEMENT", Severity::error, "Posed the same way, a scalp or waistband vertex (at least half its weight on body bones) moved more than the limit from its bind position (default 2 mm in hang's settled end and idle, 15 cm in a driven scenario)."};

inline constexpr IssueCode mesh_codes[] = {
    kMeshStretch,
    kScalpDisplacement,
};

}  // namespace weft
