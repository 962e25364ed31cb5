// What one garment's sheet may cost (docs/bad-inputs.md#budgets), checked where the pipeline hands
// a garment to the sheet builder, before the builder allocates for it. A garment past a budget is
// refused by name and the model's other garments are built. The scene's own budgets (instances,
// vertices, clip keys) are the importer's (scene/import.h ImportOptions); a validation's (steps,
// clip length) validation's (validate/scenario.h, validate/model/clip_motions.h).
#pragma once
#include <cstddef>
#include <cstdint>

#include "io/issue.h"

namespace weft {

/// Particles of one sheet proxy: `--resolution particles:N` above it is a usage error, an
/// `edge:METRES` that would make more is refused before the resampler runs, a proxy built with more
/// (`source` on a dense garment) is refused. A game's cloth is hundreds to a few thousand particles;
/// `--resolution particles:100000000` on an 81-vertex flag ran past 30 s and 6-7 GB before.
inline constexpr double kMaxSheetParticles = 65'536;

/// Triangles of the render meshes one sheet is built from. The builder checks every triangle and
/// names every defective one: a garment of 1.2 million zero-area triangles (2,400 copies of a flag
/// 4.8 km apart, welded at 1e-5 of that width) made 1.2 million issues and 3.3 GB.
inline constexpr size_t kMaxSheetTriangles = 500'000;

/// Issues of one code one garment keeps whole; the rest are counted in one "and N more like it"
/// issue of that code, so a report names a garment's defects without repeating one a million times.
inline constexpr size_t kIssuesKeptPerCode = 100;

/// Keeps the first `keep` issues of each code in `issues` (in order) and puts, after the last kept
/// one of a code, one issue of that code and severity counting the others.
void fold_repeated_issues(Issues& issues, size_t keep = kIssuesKeptPerCode);

}  // namespace weft
