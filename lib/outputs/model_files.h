// A model's files, written from its record (pipeline/model_record.h) and the options it was baked
// with: <garment>.clothproxy per proxy, the grown model (<model>.glb or .vrm: the source patched with
// its new bones and spring bones, scene/gltf_patch.h; or rewritten from the scene, scene/gltf_write.h),
// the sidecar <model>.cloth.json (sidecar.h), validation.json and report.json (rig_report.h). What
// each write did (a file's name, or why it could not be written) goes back into the record.
#pragma once
#include "pipeline/model_options.h"
#include "pipeline/model_record.h"

namespace weft {

/// Writes `record`'s files into options.out_dir as `options` asks (sheet_only: the proxies and
/// validation.json only; write_report, write_validation). A model never read gets its report only in
/// a folder that is there already (weft bake's): weft rig creates no folder for it.
void write_model_files(const ModelOptions& options, ModelRecord& record);

}  // namespace weft
