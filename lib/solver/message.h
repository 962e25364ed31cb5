// The solver's error messages: every argument streamed into one string.
#pragma once
#include <sstream>
#include <string>

namespace weft {

template <class... Args>
std::string solver_message(const Args&... args) {
    std::ostringstream out;
    (out << ... << args);
    return out.str();
}

}  // namespace weft
