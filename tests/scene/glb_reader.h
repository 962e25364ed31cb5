// A minimal GLB reader for the writer's tests: the JSON document, the BIN chunk, accessors as
// numbers and node world transforms. Independent of lib/scene's importer on purpose, so the
// writer is checked against the glTF spec rather than against another part of weft.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "geom/vec.h"

namespace weft::test {

struct Glb {
    nlohmann::json doc;
    std::vector<uint8_t> bin;

    static uint32_t u32(const std::vector<uint8_t>& b, size_t at) {
        if (at + 4 > b.size()) throw std::runtime_error("GLB read past the end");
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= uint32_t(b.at(at + i)) << (8 * i);
        return v;
    }

    static Glb parse(const std::vector<uint8_t>& bytes) {
        Glb g;
        if (u32(bytes, 0) != 0x46546C67 || u32(bytes, 4) != 2 || u32(bytes, 8) != bytes.size())
            throw std::runtime_error("bad GLB header");
        const uint32_t json_length = u32(bytes, 12);
        if (u32(bytes, 16) != 0x4E4F534A) throw std::runtime_error("first chunk is not JSON");
        g.doc = nlohmann::json::parse(bytes.begin() + 20, bytes.begin() + 20 + json_length);
        const size_t bin_at = 20 + json_length;
        if (bin_at < bytes.size()) {
            const uint32_t bin_length = u32(bytes, bin_at);
            if (u32(bytes, bin_at + 4) != 0x004E4942) throw std::runtime_error("second chunk is not BIN");
            g.bin.assign(bytes.begin() + bin_at + 8, bytes.begin() + bin_at + 8 + bin_length);
        }
        return g;
    }

    static int components(const std::string& type) {
        if (type == "SCALAR") return 1;
        if (type == "VEC2") return 2;
        if (type == "VEC3") return 3;
        if (type == "VEC4") return 4;
        if (type == "MAT4") return 16;
        throw std::runtime_error("unexpected accessor type " + type);
    }

    /// Every component of accessor `index`, in order, as doubles (tightly packed views only).
    std::vector<double> accessor(int index) const {
        const auto& a = doc.at("accessors").at(index);
        const auto& view = doc.at("bufferViews").at(a.at("bufferView").get<int>());
        if (view.contains("byteStride")) throw std::runtime_error("strided views not read here");
        const size_t count = a.at("count").get<size_t>() * components(a.at("type").get<std::string>());
        size_t at = view.value("byteOffset", size_t(0)) + a.value("byteOffset", size_t(0));
        const int type = a.at("componentType").get<int>();
        const size_t size = type == 5126 || type == 5125 ? 4 : type == 5123 ? 2 : 1;
        if (at + count * size > bin.size()) throw std::runtime_error("accessor runs past the buffer");
        std::vector<double> out(count);
        for (size_t i = 0; i < count; ++i, at += size) {
            if (type == 5126) {
                float f;
                std::memcpy(&f, bin.data() + at, 4);
                out[i] = f;
            } else if (type == 5125) {
                uint32_t v;
                std::memcpy(&v, bin.data() + at, 4);
                out[i] = v;
            } else if (type == 5123) {
                uint16_t v;
                std::memcpy(&v, bin.data() + at, 2);
                out[i] = v;
            } else {
                out[i] = bin[at];
            }
        }
        return out;
    }

    Mat4 local(int node) const {
        const auto& n = doc.at("nodes").at(node);
        if (n.contains("matrix")) {
            Mat4 m;
            for (int i = 0; i < 16; ++i) m.m[i] = n["matrix"][i].get<double>();
            return m;
        }
        Vec3 t, s{1, 1, 1};
        Quat r;
        if (n.contains("translation")) t = {n["translation"][0], n["translation"][1], n["translation"][2]};
        if (n.contains("rotation")) r = {n["rotation"][0], n["rotation"][1], n["rotation"][2], n["rotation"][3]};
        if (n.contains("scale")) s = {n["scale"][0], n["scale"][1], n["scale"][2]};
        return Mat4::from_trs(t, r, s);
    }

    /// World transform of `node`: the product of the locals from its root down.
    Mat4 world(int node) const {
        const auto& nodes = doc.at("nodes");
        for (size_t p = 0; p < nodes.size(); ++p)
            for (const auto& c : nodes[p].value("children", nlohmann::json::array()))
                if (c.get<int>() == node) return world(static_cast<int>(p)) * local(node);
        return local(node);
    }
};

}  // namespace weft::test
