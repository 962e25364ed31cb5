#include "proxy/file/proxy_file.h"

#include "io/atomic_file.h"

namespace weft {

DecodeResult load_proxy(const std::filesystem::path& path) {
    std::vector<uint8_t> bytes;
    if (std::string why = read_file(path, bytes); !why.empty()) {
        DecodeResult r;
        r.code = ProxyError::unreadable;
        r.section = "file";
        // read_file's reasons start with the path already.
        r.error = why + " (" + proxy_error_code(r.code) + ")";
        return r;
    }
    DecodeResult r = decode_proxy(bytes);
    if (!r.ok()) r.error = path.string() + ": " + r.error;
    return r;
}

std::string save_proxy(const ClothProxy& proxy, const std::filesystem::path& path) {
    if (std::string why = check_proxy(proxy); !why.empty())
        return path.string() + ": not written, the proxy is unsound: " + why;
    return write_file_atomic(path, std::span<const uint8_t>(encode_proxy(proxy)));
}

}  // namespace weft
