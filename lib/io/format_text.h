// printf into a std::string: reports and gate messages carry numbers at a fixed, readable precision.
#pragma once
#include <cstdio>
#include <string>

namespace weft {

template <class... Args>
std::string format_text(const char* pattern, Args... args) {
    const int size = std::snprintf(nullptr, 0, pattern, args...);
    std::string out(size > 0 ? static_cast<size_t>(size) : 0, '\0');
    if (size > 0) std::snprintf(out.data(), out.size() + 1, pattern, args...);
    return out;
}

}  // namespace weft
