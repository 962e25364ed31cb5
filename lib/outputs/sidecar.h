// The sidecar, <model>.cloth.json (docs/architecture.md#files): what
// an engine importing the model needs to wire its cloth up, beside the model. Schema:
// schemas/sidecar.schema.json ("schema": "weft.sidecar/1").
//
// Per garment: its class, how it was found, its proxy file, its pins (holder bone, particles), its
// frame, its suggested fabric; per chain: its joints root to tip, the bone it hangs from, whether it
// was grown or authored, its tip, its hull (a capsule radius per bone bounding the vertices that bone
// weights most), its neighbours (adjacent skirt panels or cap wedges) and its particles in the proxy.
// The colliders the file declares (VRM spring colliders) are listed as the file gives them; none are
// fitted. Positions are model space: metres, Y up, the bind pose. Per chain, its spring: the settings
// the grown model's spring bone carries for it (outputs/spring_bones.h), or null where the spring is
// the file's own, kept as authored.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "io/content_hash.h"
#include "pipeline/model_record.h"
#include "scene/gltf_springs.h"

namespace weft {

inline constexpr const char* sidecar_json_schema = "weft.sidecar/1";

/// The sidecar of a rigged model, its chains' spring settings from `springs` (spring_bones(result,
/// options)). Deterministic: the same result gives the same JSON.
nlohmann::json sidecar_json(const ModelRecord& result, const SpringBones& springs);

}  // namespace weft
