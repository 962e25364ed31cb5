// Replays files through a libFuzzer harness without libFuzzer: `fuzz_<name>_replay PATH...` feeds
// every regular file under each PATH (folders walked recursively, in sorted order) to
// LLVMFuzzerTestOneInput, each from a heap block of exactly its size. The harness aborts on a broken
// invariant; this exits 1 when no input was found (a missing corpus must not pass as a green test).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<std::filesystem::path> inputs_under(const std::filesystem::path& path) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(path)) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
            if (entry.is_regular_file()) files.push_back(entry.path());
    } else if (std::filesystem::is_regular_file(path)) {
        files.push_back(path);
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

int main(int argc, char** argv) {
    size_t replayed = 0;
    for (int a = 1; a < argc; ++a) {
        for (const auto& file : inputs_under(argv[a])) {
            std::ifstream in(file, std::ios::binary);
            std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::unique_ptr<uint8_t[]> block(new uint8_t[bytes.size()]);
            if (!bytes.empty()) std::memcpy(block.get(), bytes.data(), bytes.size());
            std::fprintf(stderr, "replay %s (%zu bytes)\n", file.c_str(), bytes.size());
            LLVMFuzzerTestOneInput(block.get(), bytes.size());
            ++replayed;
        }
    }
    std::printf("replayed %zu inputs\n", replayed);
    return replayed > 0 ? 0 : 1;
}
