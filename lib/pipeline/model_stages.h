// One model through its stages (docs/architecture.md#stages), import to its verdict, into its record:
//
//   import     the model in metres, Y up (scene/import.h); its content hash (content_hash.h)
//   garments   garments by slot and authored chains (garment/garments.h)
//   grow       with grow_cloth: chains grown for garments of the selected classes that no authored
//              chain moves (grow/grow.h)
//   rig        one rig proxy per garment: grown garments from their grown chains, garments that
//              move from their authored chains, and any authored chain no garment claimed grouped
//              by class (proxy/rig_builder.h)
//   sheets     with sheets (weft bake): a sheet proxy for every other garment found by name, so one
//              pass writes a model's sheet and rig proxies and one sidecar lists both
//              (sheet_selection.h's rule and build); with sheet_only (weft sheet): the sheets it
//              selects instead of rigs plus sheets
//   validate   with options.validate (--validate): every proxy built, in memory, through the solver's
//              scenarios (validate/validate.h) and each rig proxy's skinned mesh posed from them
//              (rig_validate.h); each failed gate an error issue under its own code
// Nothing here writes a file: the record is the stages' only output. bake_model (batch/bake_model.h)
// runs these stages after hashing the model, then writes the record's files (outputs/model_files.h),
// the page and the stamp; `weft sheet`, `weft rig` and `weft bake` are presets of ModelOptions
// (model_options.h).
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "pipeline/model_options.h"
#include "pipeline/model_record.h"

namespace weft {

/// A model file its caller already read: bake_model reads each model once, hashes it for its
/// stamp and imports those same bytes.
struct ModelBytes {
    std::span<const uint8_t> bytes;   ///< the whole file
    std::string content_hash;         ///< content_hash_text(xxh64(bytes))
};

/// The stages import → garments → grow → proxies → validate on one model, into `record`
/// (bake_model runs them; `bytes` null: the import reads the file and names what is wrong with it).
/// Never throws for anything about the model: every problem is an Issue.
void run_model_stages(const std::filesystem::path& model, const ModelBytes* bytes, const ModelOptions& options,
                      ModelRecord& record);

}  // namespace weft
