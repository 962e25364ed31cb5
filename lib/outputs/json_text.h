// JSON text as the pipeline writes it: two-space indent and a final newline (indent -1: one line,
// no newline, as a page embeds it). File and node names
// are bytes; one that is not valid UTF-8 would make nlohmann's dump throw (type_error 316) and lose
// the whole file, so such strings (and keys) are written with each invalid byte as \xHH
// (io/utf8_text.h). Valid text is written exactly as dump(2) writes it.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace weft {

std::string json_text(const nlohmann::json& j, int indent = 2);

}  // namespace weft
