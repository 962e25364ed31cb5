// libFuzzer harness for the .clothproxy loader, the one place hostile bytes arrive (docs/architecture.md#files).
// Each input is decoded twice: as it is, and with its checksum fixed up (bytes 12..15), so the
// fuzzer reaches the section table and the structural checks behind the CRC instead of stopping
// there. Invariants, any breach an abort (a crash libFuzzer keeps):
//   - a refusal has a named code, a message and an offset inside the input;
//   - anything accepted passes check_proxy, re-encodes to exactly the input bytes (the format has
//     one canonical form), decodes again, and renders as JSON without throwing.
// Sanitizers (address, undefined) catch every out-of-bounds read and undefined operation; libFuzzer's
// -malloc_limit_mb (scripts/fuzz.sh) catches an allocation the input's size does not bound.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "proxy/core/codec.h"
#include "proxy/core/proxy_check.h"
#include "proxy/file/proxy_json.h"

namespace {

void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz_proxy_decode: invariant broken: %s\n", what);
    std::abort();
}

void decode_and_check(std::span<const uint8_t> bytes) {
    weft::DecodeResult r = weft::decode_proxy(bytes);
    if (!r.ok()) {
        require(r.code != weft::ProxyError::ok, "a refusal without a code");
        require(!r.error.empty(), "a refusal without a message");
        require(r.offset <= bytes.size(), "a refusal pointing past the input");
        return;
    }
    require(r.code == weft::ProxyError::ok && r.error.empty(), "success with an error set");
    require(weft::check_proxy(*r.proxy).empty(), "decoded proxy fails check_proxy");
    std::vector<uint8_t> again = weft::encode_proxy(*r.proxy);
    require(again.size() == bytes.size() && std::equal(again.begin(), again.end(), bytes.begin()),
            "accepted bytes are not what encode_proxy writes for their proxy");
    require(weft::decode_proxy(again).ok(), "re-encoded proxy does not decode");
    try {
        std::string text = weft::proxy_to_json(*r.proxy).dump();
        require(!text.empty(), "empty JSON");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "proxy_to_json threw: %s\n", e.what());
        std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    decode_and_check({data, size});
    if (size >= 16) {
        std::vector<uint8_t> sealed(data, data + size);  // a heap block of exactly `size` bytes
        uint32_t crc = weft::proxy_checksum(sealed);
        for (int k = 0; k < 4; ++k) sealed[12 + k] = static_cast<uint8_t>(crc >> (8 * k));
        decode_and_check(sealed);
    }
    return 0;
}
