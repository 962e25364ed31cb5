// What weft bake expects each model to cost, so that with -j N the longest start first and the last
// to finish is a short one (docs/commands.md, `weft bake`). Only the order of work follows from it: results keep
// walk order, so no estimate ever shows in an output.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace weft {

/// A model's input bytes: the file, and for a .gltf the buffers and images it names by a relative URI
/// (a URI not found beside it counts nothing).
uintmax_t model_input_bytes(const std::filesystem::path& model);

/// What the last bake into the same OUT (`report`, its bake-report.json, read as it streams by)
/// took per model it built, by relative path; nothing when it was not a bake report of the same
/// `validate`.
std::map<std::string, double> last_bake_seconds(const std::filesystem::path& report, bool validate);

/// Per model, the seconds it is expected to take: what it took in the last bake into the same OUT
/// (`report`, that bake's bake-report.json, when it built the model with the same `validate`), else
/// its input bytes at the seconds per byte of the models that have such a time (at one second per
/// megabyte when none has). A report that is missing, not a regular file or not a bake report is no
/// history.
std::vector<double> model_costs(const std::vector<std::filesystem::path>& models, const std::vector<std::string>& relative,
                                const std::filesystem::path& report, bool validate);

}  // namespace weft
