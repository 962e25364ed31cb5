// One model's bake (docs/architecture.md#stages), the one per-model path of `weft sheet`,
// `weft rig` and `weft bake` (presets of ModelOptions, model_options.h):
//
//   hash      with a stamp: the model's bytes read once (hashed, then imported from the same bytes),
//             the stamp read; a stamp that matches the inputs, options and tool version means the
//             outputs on disk are right: the model is skipped, its record filled from the stamp
//   stages    import → garments → grow → proxies → validate → write (model_stages.h), each once
//   page      with page: view.html and thumbnail.png (view_page.h), from the proxies as written
//   stamp     with a stamp: bake-stamp.json, written last (a run killed before leaves none, so the
//             model is rebuilt)
//
// bake-stamp.json and the bake report's row are pure functions of the record.
#pragma once
#include <filesystem>

#include <nlohmann/json.hpp>

#include "pipeline/model_record.h"
#include "pipeline/model_options.h"

namespace weft {

inline constexpr const char* bake_stamp_schema = "weft.bake-stamp/2";

/// Bakes one model into options.out_dir. Never throws: anything that goes wrong is an issue of the
/// record (an exception INTERNAL_ERROR, memory OUT_OF_MEMORY), its status `failed`.
ModelRecord bake_model(const std::filesystem::path& model, const ModelOptions& options);

/// bake-stamp.json (schema weft.bake-stamp/2): what the outputs were made from and what the bake found.
nlohmann::json bake_stamp_json(const ModelRecord& record);

}  // namespace weft
