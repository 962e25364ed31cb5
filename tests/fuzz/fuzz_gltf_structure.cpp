// Structure-aware libFuzzer harness for the glTF reader: the input is a .gltf document (its
// buffers inline as data URIs), and the custom mutator below changes it as a JSON tree rather
// than as bytes, so mutations reach what byte flips of a GLB rarely do: accessors' component
// types, counts, offsets and normalisation, views' strides, sparse blocks, data URIs (broken
// base64, %00, mutated payloads), extensions (required or used, EXT_meshopt_compression on a
// view), skins, scenes and node graphs. The import must keep tests/fuzz/import_invariants.h.
// A seed or past crash replays through replay_main.cpp like every harness's (no libFuzzer there:
// LLVMFuzzerMutate is a weak symbol, absent in the replay).
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "import_invariants.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size) __attribute__((weak));

namespace {

using nlohmann::json;
using Rng = std::minstd_rand;

size_t pick(Rng& rng, size_t n) { return n == 0 ? 0 : size_t(rng() % n); }

/// Every value in the tree, with a way back to it: (container, key or index).
struct Site {
    json* parent;
    std::string key;  ///< object member, or "" for an array element
    size_t index = 0;
};

void collect(json& node, std::vector<Site>& out, int depth) {
    if (depth > 12) return;
    if (node.is_object()) {
        for (auto it = node.begin(); it != node.end(); ++it) {
            out.push_back({&node, it.key(), 0});
            collect(it.value(), out, depth + 1);
        }
    } else if (node.is_array()) {
        for (size_t i = 0; i < node.size(); ++i) {
            out.push_back({&node, "", i});
            collect(node[i], out, depth + 1);
        }
    }
}

json& at(const Site& s) { return s.key.empty() ? (*s.parent)[s.index] : (*s.parent)[s.key]; }

json interesting_number(Rng& rng, const json& old) {
    static const double values[] = {0, 1, 2, 3, 4, 8, 12, 16, 36, 127, 128, 255, 256, 252, 65535, 65536, 5120, 5121,
                                    5122, 5123, 5125, 5126, 34962, 34963, 2147483647.0, 4294967295.0, 4294967296.0,
                                    -1, 1e300, -0.0, 0.5};
    if (old.is_number_unsigned() && pick(rng, 3) == 0) {
        const int64_t v = int64_t(old.get<uint64_t>()) + int64_t(pick(rng, 9)) - 4;
        return v < 0 ? json(v) : json(uint64_t(v));
    }
    const double v = values[pick(rng, sizeof values / sizeof values[0])];
    return v >= 0 && v < 1e19 && v == double(uint64_t(v)) ? json(uint64_t(v)) : json(v);
}

json& list(json& doc, const char* key) {
    if (!doc[key].is_array()) doc[key] = json::array();
    return doc[key];
}

/// An index into doc[key], sometimes one past its end.
uint64_t index_into(Rng& rng, json& doc, const char* key) { return pick(rng, list(doc, key).size() + 1); }

void mutate_accessor(Rng& rng, json& doc) {
    json& accessors = list(doc, "accessors");
    if (accessors.empty()) return;
    json& a = accessors[pick(rng, accessors.size())];
    if (!a.is_object()) return;
    static const char* const types[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4", "VEC5"};
    static const uint64_t ctypes[] = {5120, 5121, 5122, 5123, 5125, 5126, 5124};
    switch (pick(rng, 6)) {
        case 0: a["componentType"] = ctypes[pick(rng, 7)]; break;
        case 1: a["type"] = types[pick(rng, 8)]; break;
        case 2: a["normalized"] = !a.value("normalized", false); break;
        case 3: a["byteOffset"] = uint64_t(pick(rng, 5) * 4 + pick(rng, 2)); break;
        case 4: a["count"] = interesting_number(rng, a.value("count", json(0))); break;
        default: a.erase("bufferView"); break;
    }
}

void add_sparse(Rng& rng, json& doc) {
    json& accessors = list(doc, "accessors");
    if (accessors.empty()) return;
    json& a = accessors[pick(rng, accessors.size())];
    if (!a.is_object()) return;
    static const uint64_t itypes[] = {5121, 5123, 5125, 5126};
    a["sparse"] = {{"count", uint64_t(1 + pick(rng, 4))},
                   {"indices", {{"bufferView", index_into(rng, doc, "bufferViews")}, {"componentType", itypes[pick(rng, 4)]},
                                {"byteOffset", uint64_t(pick(rng, 3) * 2)}}},
                   {"values", {{"bufferView", index_into(rng, doc, "bufferViews")}, {"byteOffset", uint64_t(pick(rng, 3) * 4)}}}};
}

void mutate_view(Rng& rng, json& doc) {
    json& views = list(doc, "bufferViews");
    if (views.empty()) return;
    json& v = views[pick(rng, views.size())];
    if (!v.is_object()) return;
    static const uint64_t strides[] = {0, 3, 4, 8, 12, 16, 20, 36, 252, 256};
    static const char* const modes[] = {"ATTRIBUTES", "TRIANGLES", "INDICES", "OTHER"};
    static const char* const filters[] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL", "COLOR"};
    switch (pick(rng, 3)) {
        case 0: v["byteStride"] = strides[pick(rng, 10)]; break;
        case 1: v["byteLength"] = interesting_number(rng, v.value("byteLength", json(0))); break;
        default:
            v["extensions"]["EXT_meshopt_compression"] = {
                {"buffer", index_into(rng, doc, "buffers")}, {"byteOffset", uint64_t(pick(rng, 4) * 4)},
                {"byteLength", uint64_t(pick(rng, 64))}, {"byteStride", strides[pick(rng, 10)]},
                {"count", uint64_t(pick(rng, 40))}, {"mode", modes[pick(rng, 4)]}, {"filter", filters[pick(rng, 5)]}};
            break;
    }
}

void mutate_extensions(Rng& rng, json& doc) {
    static const char* const names[] = {"EXT_meshopt_compression", "KHR_mesh_quantization", "KHR_draco_mesh_compression",
                                        "KHR_materials_unlit", "KHR_texture_transform", "EXT_weft_unknown", "VRMC_vrm"};
    const char* name = names[pick(rng, 7)];
    list(doc, pick(rng, 2) ? "extensionsRequired" : "extensionsUsed").push_back(name);
    if (pick(rng, 2) == 0) {
        json& buffers = list(doc, "buffers");
        buffers.push_back({{"byteLength", uint64_t(pick(rng, 4096))},
                           {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}});
    }
}

/// A data URI's payload broken (a character out of the alphabet, cut short, %00 in a name) or,
/// through libFuzzer's byte mutator, its decoded bytes changed and encoded again.
void mutate_uri(Rng& rng, json& doc) {
    json& buffers = list(doc, "buffers");
    if (buffers.empty() || !buffers[0].is_object()) return;
    json& b = buffers[pick(rng, buffers.size())];
    if (!b.is_object() || !b.contains("uri") || !b["uri"].is_string()) return;
    std::string uri = b["uri"].get<std::string>();
    const size_t comma = uri.find(',');
    switch (pick(rng, 4)) {
        case 0:
            if (comma != std::string::npos && comma + 1 < uri.size()) uri[comma + 1 + pick(rng, uri.size() - comma - 1)] = '*';
            break;
        case 1: uri.resize(pick(rng, uri.size() + 1)); break;
        case 2: uri = pick(rng, 2) ? "model%00.bin" : "data:application/octet-stream;base64,"; break;
        default: {
            if (comma == std::string::npos || !LLVMFuzzerMutate) break;
            std::string payload = uri.substr(comma + 1);
            payload.resize(payload.size() + 64);
            const size_t n = LLVMFuzzerMutate(reinterpret_cast<uint8_t*>(payload.data()), payload.size() - 64, payload.size());
            payload.resize(n);
            uri = uri.substr(0, comma + 1) + payload;
            break;
        }
    }
    b["uri"] = uri;
}

void mutate_tree(Rng& rng, json& doc) {
    std::vector<Site> sites;
    collect(doc, sites, 0);
    if (sites.empty()) return;
    const Site& s = sites[pick(rng, sites.size())];
    json& v = at(s);
    switch (pick(rng, 5)) {
        case 0: v = interesting_number(rng, v); break;
        case 1:
            if (!s.key.empty()) s.parent->erase(s.key);
            else s.parent->erase(s.index);
            break;
        case 2:
            if (s.key.empty()) s.parent->push_back(json(v));  // duplicate an element
            break;
        case 3: v = pick(rng, 2) ? json(nullptr) : json("x"); break;
        default:
            if (v.is_array()) v.push_back(uint64_t(pick(rng, 6)));
            break;
    }
}

void mutate_graph(Rng& rng, json& doc) {
    json& nodes = list(doc, "nodes");
    switch (pick(rng, 4)) {
        case 0: doc.erase("scenes"); doc.erase("scene"); break;
        case 1:
            if (!nodes.empty() && nodes[0].is_object()) nodes[pick(rng, nodes.size())]["children"].push_back(index_into(rng, doc, "nodes"));
            break;
        case 2:
            if (doc.contains("skins") && doc["skins"].is_array() && !doc["skins"].empty() && doc["skins"][0].is_object())
                doc["skins"][0].erase("inverseBindMatrices");
            break;
        default:
            if (doc["scenes"].is_array() && !doc["scenes"].empty() && doc["scenes"][0].is_object())
                doc["scenes"][0]["nodes"].push_back(index_into(rng, doc, "nodes"));
            break;
    }
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    Rng rng(seed);
    json doc = json::parse(data, data + size, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
    try {
        for (size_t round = 0, rounds = 1 + pick(rng, 3); round < rounds; ++round) {
            switch (pick(rng, 8)) {
                case 0: mutate_accessor(rng, doc); break;
                case 1: add_sparse(rng, doc); break;
                case 2: mutate_view(rng, doc); break;
                case 3: mutate_extensions(rng, doc); break;
                case 4: mutate_uri(rng, doc); break;
                case 5: mutate_graph(rng, doc); break;
                default: mutate_tree(rng, doc); break;
            }
        }
    } catch (const json::exception&) {
        // A mutation met a member of another type than it writes (an earlier one made it so):
        // this round is a byte-level one.
        return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
    }
    // Bytes the mutator put in a string are written as U+FFFD rather than thrown about.
    const std::string text = doc.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > max_size) return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
    std::memcpy(data, text.data(), text.size());
    return text.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string file = "/nonexistent-weft-fuzz/model.gltf";
    weft::ImportOptions options;
    options.max_file_bytes = 1 << 20;
    weft::fuzz::check_import(file, weft::import_scene(file, std::span<const uint8_t>(data, size), options));
    return 0;
}
