// One glTF primitive (scene/gltf_primitive.h) read in named phases: its attributes, the check of
// its positions, its faces, its morph targets, then the join of identical vertices.
#include "scene/gltf_primitive.h"

#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "io/utf8_text.h"
#include "scene/gltf_document.h"

namespace weft::import_detail {

using nlohmann::json;

int gltf_index_of(const json& object, const char* key) {
    const std::optional<int64_t> v = optional_uint(object, key);
    return v && *v >= 0 && *v < INT32_MAX ? int(*v) : -1;
}

std::string gltf_string_member(const json& object, const char* key) {
    const json* m = member(object, key);
    return m && m->is_string() ? valid_utf8(m->get<std::string>()) : std::string();
}

namespace {

/// What JoinIdenticalVertices compares beyond the position: two vertices are one when each of
/// these differs by at most 1e-5 (squared distance, single precision).
struct VertexKey {
    std::array<float, 3> normal{};
    std::array<float, 2> uv{};
    std::vector<std::array<float, 6>> morphs;  ///< per morph target: displaced position, normal
};

bool near(const float* a, const float* b, int n) {
    constexpr float kSquareEpsilon = 1e-5f * 1e-5f;
    float sum = 0;
    for (int i = 0; i < n; ++i) {
        const float d = a[i] - b[i];
        sum += d * d;
    }
    return !(sum > kSquareEpsilon);
}

/// JoinIdenticalVertices: only vertices a face uses, in file order; a vertex is joined to the
/// first kept one at the same position whose other attributes are within 1e-5.
void join(const std::vector<float>& pos, const std::vector<float>& nrm, const std::vector<float>& uv,
                 const std::vector<std::vector<float>>& morph_pos, const std::vector<std::vector<float>>& morph_nrm,
                 const std::vector<uint32_t>& triangles, const std::vector<uint32_t>& other, GltfPrimitive& out) {
    const size_t n = pos.size() / 3;
    std::vector<char> used(n, 0);
    for (uint32_t v : triangles) used[v] = 1;
    for (uint32_t v : other) used[v] = 1;
    auto key_of = [&](size_t v) {
        VertexKey k;
        if (!nrm.empty()) k.normal = {nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2]};
        // Both readers hold UVs with a top-left origin; Assimp flipped V twice on the way.
        if (!uv.empty()) k.uv = {uv[2 * v], 1.f - (1.f - uv[2 * v + 1])};
        k.morphs.resize(morph_pos.size());
        for (size_t t = 0; t < morph_pos.size(); ++t) {
            std::array<float, 6>& m = k.morphs[t];
            m.fill(0.f);
            if (!morph_pos[t].empty())
                for (int c = 0; c < 3; ++c) m[size_t(c)] = pos[3 * v + size_t(c)] + morph_pos[t][3 * v + size_t(c)];
            if (!morph_nrm[t].empty())
                for (int c = 0; c < 3; ++c) m[size_t(3 + c)] = nrm[3 * v + size_t(c)] + morph_nrm[t][3 * v + size_t(c)];
        }
        return k;
    };
    auto same = [](const VertexKey& a, const VertexKey& b) {
        if (!near(a.normal.data(), b.normal.data(), 3) || !near(a.uv.data(), b.uv.data(), 2)) return false;
        for (size_t t = 0; t < a.morphs.size(); ++t)
            if (!near(a.morphs[t].data(), b.morphs[t].data(), 3))
                return false;
        return true;
    };
    struct PositionHash {
        size_t operator()(const std::array<float, 3>& p) const {
            size_t h = 0;
            for (float f : p) {
                const float g = f == 0.f ? 0.f : f;  // -0 and +0 are one position
                uint32_t bits;
                std::memcpy(&bits, &g, 4);
                h = h * 1000003u ^ bits;
            }
            return h;
        }
    };
    std::unordered_map<std::array<float, 3>, std::vector<uint32_t>, PositionHash> at_position;
    at_position.reserve(n);
    std::vector<VertexKey> kept_keys;
    out.joined_of_file.assign(n, UINT32_MAX);
    SourceMesh& mesh = out.mesh;
    for (size_t v = 0; v < n; ++v) {
        if (!used[v]) continue;
        const std::array<float, 3> p{pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]};
        VertexKey key = key_of(v);
        std::vector<uint32_t>& candidates = at_position[p];
        uint32_t match = UINT32_MAX;
        for (uint32_t u : candidates)
            if (same(key, kept_keys[u])) {
                match = u;
                break;
            }
        if (match == UINT32_MAX) {
            match = uint32_t(mesh.positions.size());
            candidates.push_back(match);
            mesh.positions.push_back(p);
            if (!nrm.empty()) mesh.normals.push_back(key.normal);
            if (!uv.empty()) mesh.uvs.push_back(key.uv);
            out.file_of_joined.push_back(uint32_t(v));
            kept_keys.push_back(std::move(key));
        }
        out.joined_of_file[v] = match;
    }
    mesh.triangles.reserve(triangles.size());
    for (uint32_t v : triangles) mesh.triangles.push_back(out.joined_of_file[v]);
}


/// A primitive's vertex attributes as floats, one array per attribute (empty when absent or of
/// another count than the positions, which Assimp ignored).
struct Attributes {
    std::vector<float> pos, nrm, uv;
    std::vector<std::vector<float>> morph_pos, morph_nrm;  ///< per morph target
    size_t vertices() const { return pos.size() / 3; }
};

/// The triangles and the corners of point and line faces a primitive's indices and mode make.
struct Faces {
    std::vector<uint32_t> triangles;
    std::vector<uint32_t> other;  ///< corners of point and line faces, for the used-vertex set
    size_t lines = 0;
    size_t count = 0;
};

class PrimitiveReader {
public:
    PrimitiveReader(const GltfDocument& doc, GltfData& data, const json& prim, const std::string& name, Reporter& report)
        : doc_(doc), data_(data), prim_(prim), name_(name), where_("mesh '" + name + "'"), report_(report) {}

    bool run(GltfPrimitive& out) {
        Attributes attrs;
        Faces faces;
        if (!read_attributes(attrs, out) || !refuse_non_finite(attrs) || !read_faces(attrs.vertices(), faces) ||
            !read_morph_targets(attrs))
            return false;
        SourceMesh& mesh = out.mesh;
        mesh.name = name_;
        mesh.material = -1;
        mesh.lines = faces.lines;
        mesh.morph_target_count = int(attrs.morph_pos.size());
        out.uses_default_material = gltf_index_of(prim_, "material") < 0;
        join(attrs.pos, attrs.nrm, attrs.uv, attrs.morph_pos, attrs.morph_nrm, faces.triangles, faces.other, out);
        return true;
    }

private:
    const GltfDocument& doc_;
    GltfData& data_;
    const json& prim_;
    const std::string& name_;
    const std::string where_;
    Reporter& report_;

    /// POSITION, NORMAL, TEXCOORD_0 and the JOINTS_n/WEIGHTS_n pairs (read later, per skin).
    bool read_attributes(Attributes& a, GltfPrimitive& out) {
        static const json empty = json::object();
        const json* attributes = member(prim_, "attributes");
        const json& attr = attributes && attributes->is_object() ? *attributes : empty;
        const int position = gltf_index_of(attr, "POSITION");
        if (position >= 0 && !data_.floats(position, 3, a.pos, where_ + " POSITION")) return false;
        const size_t n = a.vertices();
        const int normal = gltf_index_of(attr, "NORMAL");
        if (normal >= 0) {
            if (!data_.floats(normal, 3, a.nrm, where_ + " NORMAL")) return false;
            if (a.nrm.size() != n * 3) a.nrm.clear();  // Assimp ignores normals of another count
        }
        const int texcoord = gltf_index_of(attr, "TEXCOORD_0");
        if (texcoord >= 0) {
            if (!data_.floats(texcoord, 2, a.uv, where_ + " TEXCOORD_0")) return false;
            if (a.uv.size() != n * 2) a.uv.clear();
        }
        for (int set = 0;; ++set) {
            const int j = gltf_index_of(attr, ("JOINTS_" + std::to_string(set)).c_str());
            const int w = gltf_index_of(attr, ("WEIGHTS_" + std::to_string(set)).c_str());
            if (j < 0 || w < 0) break;
            out.weight_sets.push_back({j, w});
        }
        return true;
    }

    /// Non-finite positions are refused before the join, which compares positions.
    bool refuse_non_finite(const Attributes& a) {
        for (size_t v = 0; v < a.vertices(); ++v) {
            const float x = a.pos[3 * v], y = a.pos[3 * v + 1], z = a.pos[3 * v + 2];
            if (std::isfinite(x) && std::isfinite(y) && std::isfinite(z)) continue;
            const int mat = gltf_index_of(prim_, "material");
            const json& materials = array_or_empty(doc_.json, "materials");
            const std::string material_name =
                mat >= 0 && size_t(mat) < materials.size() ? gltf_string_member(materials[size_t(mat)], "name") : "";
            report_.add(kNonFinitePosition,
                        where_ + (material_name.empty() ? "" : " (material '" + material_name + "')") + ": vertex " +
                            std::to_string(v) + " position is (" + std::to_string(x) + ", " + std::to_string(y) +
                            ", " + std::to_string(z) + "); fix the mesh in its authoring tool",
                        "/meshes/" + name_ + "/vertices/" + std::to_string(v));
            return false;
        }
        return true;
    }

    /// Faces: triangles (lists, strips, fans) and the points or lines other modes make; a face
    /// naming a vertex past the count is dropped, as Assimp dropped it.
    bool read_faces(size_t n, Faces& f) {
        std::vector<uint32_t> indices;
        const int index_accessor = gltf_index_of(prim_, "indices");
        if (index_accessor >= 0) {
            const GltfData::Accessor* a = data_.accessor(index_accessor);
            if (!a || !data_.scalar_values(*a, index_accessor, indices)) return false;
        } else {
            indices.resize(n);
            for (size_t v = 0; v < n; ++v) indices[v] = uint32_t(v);
        }
        const json* mode_member = member(prim_, "mode");
        const int mode = mode_member && mode_member->is_number_unsigned() ? int(mode_member->get<uint64_t>()) : 4;
        auto tri = [&](uint32_t a, uint32_t b, uint32_t c) {
            if (a >= n || b >= n || c >= n) return;
            f.triangles.insert(f.triangles.end(), {a, b, c});
            ++f.count;
        };
        auto line = [&](std::initializer_list<uint32_t> corners) {
            for (uint32_t c : corners)
                if (c >= n) return;
            f.other.insert(f.other.end(), corners);
            ++f.lines;
            ++f.count;
        };
        const size_t count = indices.size();
        switch (mode) {
            case 0:
                for (size_t i = 0; i < count; ++i) line({indices[i]});
                break;
            case 1:
                for (size_t i = 0; i + 1 < count; i += 2) line({indices[i], indices[i + 1]});
                break;
            case 2:
            case 3:
                if (count >= 2) line({indices[0], indices[1]});
                for (size_t i = 2; i < count; ++i) line({indices[i - 1], indices[i]});
                if (mode == 2 && count >= 2) line({indices[count - 1], indices[0]});
                break;
            case 4:
                for (size_t i = 0; i + 2 < count; i += 3) tri(indices[i], indices[i + 1], indices[i + 2]);
                break;
            case 5:
                for (size_t i = 0; i + 2 < count; ++i)
                    if ((i + 1) % 2 == 0)
                        tri(indices[i + 1], indices[i], indices[i + 2]);
                    else
                        tri(indices[i], indices[i + 1], indices[i + 2]);
                break;
            case 6:
                for (size_t i = 0; i + 2 < count; ++i) tri(indices[0], indices[i + 1], indices[i + 2]);
                break;
            default:
                break;
        }
        if (f.count == 0) {
            report_.add(kImportFailed, where_ + " has no faces; re-export the mesh", "/meshes/" + name_);
            return false;
        }
        return true;
    }

    /// Morph targets: their displaced positions and normals must agree too for two vertices to be
    /// joined (a morph would otherwise move one of them wrongly).
    bool read_morph_targets(Attributes& a) {
        const json& targets = array_or_empty(prim_, "targets");
        const size_t n = a.vertices();
        a.morph_pos.resize(targets.size());
        a.morph_nrm.resize(targets.size());
        for (size_t t = 0; t < targets.size(); ++t) {
            const int tp = gltf_index_of(targets[t], "POSITION"), tn = gltf_index_of(targets[t], "NORMAL");
            const std::string what = where_ + " morph target " + std::to_string(t);
            if (tp >= 0 && !data_.floats(tp, 3, a.morph_pos[t], what + " POSITION")) return false;
            if (tn >= 0 && !a.nrm.empty() && !data_.floats(tn, 3, a.morph_nrm[t], what + " NORMAL")) return false;
            if (a.morph_pos[t].size() != n * 3) a.morph_pos[t].clear();
            if (a.morph_nrm[t].size() != n * 3) a.morph_nrm[t].clear();
        }
        return true;
    }
};

}  // namespace

bool read_gltf_primitive(const GltfDocument& doc, GltfData& data, const json& prim, const std::string& name,
                         GltfPrimitive& out, Reporter& report) {
    return PrimitiveReader(doc, data, prim, name, report).run(out);
}

}  // namespace weft::import_detail
