// The JSON form of a ClothProxy (docs/architecture.md#files): what `weft dump` prints and what
// <garment>.clothproxy.json holds, for people, diffs and tests. Schema:
// schemas/clothproxy.schema.json ("schema": "weft.clothproxy/<format version>": a reader of the JSON
// form meets the same content changes as a reader of the binary). Keys are the ClothProxy field
// names (`class` for garment_class); arrays are in particle order.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "proxy/core/cloth_proxy.h"
#include "proxy/core/codec.h"

namespace weft {

inline constexpr const char* proxy_json_schema = "weft.clothproxy/5";
static_assert(proxy_format_version == 5, "the JSON form's schema id names the binary format's version: bump both");

/// The proxy as JSON. Sentinels become null: d_geo's +inf (no hold reaches, as JSON.stringify writes
/// Infinity), nearest_held's and vertex_particle's no_particle, source's no_source. Doubles are
/// written shortest-round-trip, so -0.0 stays "-0.0". builder_options stays the builder's JSON text,
/// a string, byte for byte as the binary holds it.
nlohmann::json proxy_to_json(const ClothProxy& proxy);

}  // namespace weft
