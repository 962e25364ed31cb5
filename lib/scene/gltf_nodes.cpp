#include "scene/gltf_nodes.h"

#include <cmath>

#include "scene/authored_numbers.h"

namespace weft {

Mat4 gltf_node_local(const nlohmann::json& node) {
    if (node.contains("matrix") && node["matrix"].is_array() && node["matrix"].size() == 16) {
        Mat4 m;
        for (size_t i = 0; i < 16; ++i) m.m[i] = node["matrix"][i].is_number() ? node["matrix"][i].get<double>() : 0.0;
        return m;
    }
    auto vec = [&](const char* key, std::initializer_list<double> fallback) {
        std::vector<double> v(fallback);
        if (node.contains(key) && node[key].is_array() && node[key].size() == v.size())
            for (size_t i = 0; i < v.size(); ++i) v[i] = node[key][i].is_number() ? node[key][i].get<double>() : v[i];
        return v;
    };
    const auto t = vec("translation", {0, 0, 0}), r = vec("rotation", {0, 0, 0, 1}), s = vec("scale", {1, 1, 1});
    // As the reader takes it (import_gltf.cpp node_local): normalised when off by more than the
    // tolerance, a zero rotation none.
    const double len = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    const bool off = std::isfinite(len) && std::abs(len - 1) > import_detail::kUnitQuaternionTolerance;
    const Quat q = !(len > 1e-6) ? Quat{0, 0, 0, 1}
                   : off         ? Quat{r[0] / len, r[1] / len, r[2] / len, r[3] / len}
                                 : Quat{r[0], r[1], r[2], r[3]};
    return Mat4::from_trs({t[0], t[1], t[2]}, q, {s[0], s[1], s[2]});
}

std::vector<Mat4> gltf_node_worlds(const nlohmann::json& nodes) {
    const size_t n = nodes.is_array() ? nodes.size() : 0;
    std::vector<int> parent(n, -1);
    for (size_t i = 0; i < n; ++i)
        if (nodes[i].contains("children") && nodes[i]["children"].is_array())
            for (const nlohmann::json& c : nodes[i]["children"])
                // Signed or unsigned: a writer appending nodes may store either.
                if (c.is_number_integer() && c.get<int64_t>() >= 0 && c.get<uint64_t>() < n) parent[c.get<size_t>()] = static_cast<int>(i);
    std::vector<Mat4> world(n);
    std::vector<char> done(n, 0);
    for (size_t i = 0; i < n; ++i) {
        std::vector<size_t> path;
        for (size_t k = i; !done[k]; k = size_t(parent[k])) {
            path.push_back(k);
            if (parent[k] < 0 || path.size() > n) break;
        }
        for (auto it = path.rbegin(); it != path.rend(); ++it) {
            const int p = parent[*it];
            world[*it] = (p >= 0 && done[size_t(p)] ? world[size_t(p)] : Mat4::identity()) * gltf_node_local(nodes[*it]);
            done[*it] = 1;
        }
    }
    return world;
}

}  // namespace weft
