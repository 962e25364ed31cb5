#include "pipeline/garment_names.h"

namespace weft {

std::string garment_file_stem(const std::string& name) {
    std::string stem;
    for (char c : name) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                          c == '_' || c == '-';
        stem += keep ? c : '_';
    }
    if (stem.empty() || stem.front() == '.') stem.insert(stem.begin(), '_');
    return stem;
}

std::string unique_garment_name(const std::string& wanted, std::set<std::string>& used_stems) {
    std::string name = wanted;
    for (int n = 2; used_stems.count(garment_file_stem(name)); ++n) name = wanted + "_" + std::to_string(n);
    used_stems.insert(garment_file_stem(name));
    return name;
}

}  // namespace weft
