// A file's bytes, read at once. The suites' own code is built at -O0 under the sanitizers (CI), where
// copying a model of megabytes a byte at a time through istreambuf_iterator was 13% of the scene
// suite's CPU and a tenth of GltfContent's.
#pragma once
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

namespace weft::test {

/// Every byte of `path`; empty when it cannot be opened or read.
inline std::vector<uint8_t> file_bytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return {};
    std::vector<uint8_t> bytes(size_t(std::max<std::streamoff>(std::streamoff(in.tellg()), 0)));
    in.seekg(0);
    in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()));
    bytes.resize(size_t(std::max<std::streamsize>(in.gcount(), 0)));
    return bytes;
}

}  // namespace weft::test
