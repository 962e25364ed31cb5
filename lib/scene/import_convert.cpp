// One mesh as a reader hands it over (SourceMesh), put in scene space once for every reader: static
// meshes through their node, skinned ones through their joints, weights as normalised per-vertex
// influences; the default pose's distance from the bind pose. The glTF reader (import_gltf.cpp) and
// the Assimp module (scene/assimp/) both finish their meshes here, so their Scenes agree to the last bit.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "scene/import_detail.h"
#include "io/utf8_text.h"

namespace weft::import_detail {

namespace {

/// Whether the 3x3 part of a column-major matrix is singular, relative to its columns' lengths.
bool linear_part_singular(const Mat4& a) {
    const Vec3 c0{a.m[0], a.m[1], a.m[2]}, c1{a.m[4], a.m[5], a.m[6]}, c2{a.m[8], a.m[9], a.m[10]};
    const double det = c0.x * (c1.y * c2.z - c1.z * c2.y) - c0.y * (c1.x * c2.z - c1.z * c2.x) +
                       c0.z * (c1.x * c2.y - c1.y * c2.x);
    const double scale = std::sqrt((c0.x * c0.x + c0.y * c0.y + c0.z * c0.z) * (c1.x * c1.x + c1.y * c1.y + c1.z * c1.z) *
                                   (c2.x * c2.x + c2.y * c2.y + c2.z * c2.z));
    return !(std::abs(det) > 1e-9 * scale) || scale == 0;
}

}  // namespace

namespace {

using nlohmann::json;

Vec3 to_vec3(const std::array<float, 3>& v) { return {double(v[0]), double(v[1]), double(v[2])}; }

std::string vec_text(const Vec3& v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "(%g, %g, %g)", v.x, v.y, v.z);
    return buf;
}

double determinant(const Mat3& m) {
    return m.m[0][0] * (m.m[1][1] * m.m[2][2] - m.m[1][2] * m.m[2][1]) -
           m.m[0][1] * (m.m[1][0] * m.m[2][2] - m.m[1][2] * m.m[2][0]) +
           m.m[0][2] * (m.m[1][0] * m.m[2][1] - m.m[1][1] * m.m[2][0]);
}

/// The cofactor matrix: det(M)·M⁻ᵀ without the division, so it carries normals through any
/// invertible linear map (and through a mirror, keeping them pointing outward).
Mat3 cofactor(const Mat3& m) {
    Mat3 c;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            c.m[i][j] = m.m[i1][j1] * m.m[i2][j2] - m.m[i1][j2] * m.m[i2][j1];
        }
    return c;
}


/// One SourceMesh into a Scene mesh (finish_mesh): whatever reader produced it, the same
/// arithmetic puts it in scene space, so every reader's Scene agrees to the last bit.
class MeshFinisher {
public:
    MeshFinisher(const ImportOptions& options, Scene& scene, Reporter& report, BindToRest& bind_to_rest)
        : options_(options), scene_(scene), report_(report), bind_to_rest_(bind_to_rest) {}

    int skin_for(const std::vector<int>& joints, const std::string& name) {
        for (size_t s = 0; s < scene_.skins.size(); ++s)
            if (scene_.skins[s].joints == joints) return int(s);
        Skin skin;
        skin.name = name;
        skin.joints = joints;
        for (int j : joints) {
            // Positions are baked in the rest pose, so the bind matrix that reproduces them is
            // the inverse of each joint's rest world transform (scene space).
            Mat4 inv;
            if (!scene_.nodes[size_t(j)].world.inverse(inv)) {
                scene_.warnings.push_back(report_.file() + ": joint '" + scene_.nodes[size_t(j)].name +
                                          "' has a singular rest transform; its inverse bind is the identity");
                inv = Mat4::identity();
            }
            skin.inverse_bind.push_back(inv);
        }
        scene_.skins.push_back(std::move(skin));
        return int(scene_.skins.size() - 1);
    }

    bool finish(const SourceMesh& am, int node_index, Mesh& mesh) {
        const Node& node = scene_.nodes[size_t(node_index)];
        mesh.name = am.name;
        mesh.node_name = node.name;
        mesh.node = node_index;
        mesh.material = am.material;
        mesh.morph_target_count = am.morph_target_count;
        const std::string label = "mesh '" + mesh.name + "' (node '" + node.name + "'" +
                                  (mesh.material >= 0 ? ", material '" + scene_.materials[size_t(mesh.material)] + "'" : "") +
                                  ")";
        const std::string pointer = "/meshes/" + mesh.name;
        if (!check_positions(am, label, pointer) || !collect_triangles(am, label, pointer, mesh)) return false;
        // Per-vertex transforms: the node's world transform, or the blend of the joints.
        std::vector<Mat4> vertex_matrix;  // empty: every vertex uses node.world
        if (!am.bones.empty() && !skin_vertices(am, node_index, label, pointer, mesh, vertex_matrix)) return false;
        if (!place_vertices(am, node, vertex_matrix, label, pointer, mesh)) return false;
        if (!am.uvs.empty()) {
            mesh.uvs.resize(am.uvs.size());
            for (size_t v = 0; v < am.uvs.size(); ++v) mesh.uvs[v] = {double(am.uvs[v][0]), double(am.uvs[v][1])};
        }
        return true;
    }

    /// Positions must be finite before anything is computed from them.
    bool check_positions(const SourceMesh& am, const std::string& label, const std::string& pointer) {
        size_t bad = 0, first_bad = 0;
        for (size_t v = 0; v < am.positions.size(); ++v)
            if (!is_finite(to_vec3(am.positions[v])) && bad++ == 0) first_bad = v;
        if (bad == 0) return true;
        report_.add(kNonFinitePosition,
                    label + ": vertex " + std::to_string(first_bad) + " position is " +
                        vec_text(to_vec3(am.positions[first_bad])) + " (" + std::to_string(bad) +
                        " vertices not finite); fix the mesh in its authoring tool",
                    pointer + "/vertices/" + std::to_string(first_bad));
        return false;
    }

    /// Triangles into mesh.indices, degenerate ones dropped (or kept, as asked) and reported; lines
    /// and points beside them are counted, not kept.
    bool collect_triangles(const SourceMesh& am, const std::string& label, const std::string& pointer, Mesh& mesh) {
        const size_t nv = am.positions.size();
        mesh.indices.reserve(am.triangles.size());
        size_t degenerate = 0, first_degenerate = 0;
        const size_t lines = am.lines;  // Triangulate leaves only points and lines beside the triangles
        for (size_t f = 0; f + 2 < am.triangles.size(); f += 3) {
            uint32_t a = am.triangles[f], b = am.triangles[f + 1], c = am.triangles[f + 2];
            if (a >= nv || b >= nv || c >= nv) {
                report_.add(kIndexOutOfRange,
                            label + ": triangle " + std::to_string(f / 3) + " names vertex " +
                                std::to_string(std::max({a, b, c})) + " but the mesh has " + std::to_string(nv) +
                                " vertices; re-export the mesh",
                            pointer + "/triangles/" + std::to_string(f / 3));
                return false;
            }
            const std::array<float, 3>&pa = am.positions[a], &pb = am.positions[b], &pc = am.positions[c];
            if (a == b || b == c || a == c || pa == pb || pb == pc || pa == pc) {
                size_t t = mesh.indices.size() / 3;
                if (degenerate++ == 0) first_degenerate = t;
                if (!options_.keep_degenerate) continue;
            }
            mesh.indices.insert(mesh.indices.end(), {a, b, c});
        }
        if (degenerate > 0)
            report_.add(kDegenerateTriangles,
                        label + ": " + std::to_string(degenerate) +
                            " triangles have a repeated corner or two corners at one position (first: triangle " +
                            std::to_string(first_degenerate) + ")" +
                            (options_.keep_degenerate ? "; kept as triangles" : "; dropped"),
                        pointer + "/triangles/" + std::to_string(first_degenerate));
        mesh.line_count = uint32_t(lines + (options_.keep_degenerate ? 0 : degenerate));
        if (lines > 0)
            report_.add(kLinesDropped,
                        label + ": " + std::to_string(lines) + " line or point primitives beside the triangles were dropped",
                        pointer);
        return true;
    }

    /// Positions and normals into scene space through each vertex's matrix (the node's world when
    /// `vertex_matrix` is empty); normals through the cofactor, so a mirror keeps them outward,
    /// and a mirrored triangle's corners swapped so its front stays front.
    bool place_vertices(const SourceMesh& am, const Node& node, const std::vector<Mat4>& vertex_matrix,
                        const std::string& label, const std::string& pointer, Mesh& mesh) {
        const size_t nv = am.positions.size();
        const bool has_normals = !am.normals.empty();
        mesh.positions.resize(nv);
        if (has_normals) mesh.normals.resize(nv);
        std::vector<bool> mirrored(nv, false);
        const Mat3 node_cof = cofactor(node.world.linear_part());
        const bool node_mirrored = determinant(node.world.linear_part()) < 0;
        size_t bad_normals = 0, first_bad_normal = 0;
        for (size_t v = 0; v < nv; ++v) {
            const Mat4& m = vertex_matrix.empty() ? node.world : vertex_matrix[v];
            mesh.positions[v] = m.transform_point(to_vec3(am.positions[v]));
            Mat3 cof = vertex_matrix.empty() ? node_cof : cofactor(m.linear_part());
            mirrored[v] = vertex_matrix.empty() ? node_mirrored : determinant(m.linear_part()) < 0;
            if (has_normals) {
                Vec3 n = cof * to_vec3(am.normals[v]);
                double len = length(n);
                if (!(len > 0) || !std::isfinite(len)) {
                    if (bad_normals++ == 0) first_bad_normal = v;
                } else {
                    mesh.normals[v] = n / len;
                }
            }
        }
        for (size_t v = 0; v < nv; ++v)
            if (!is_finite(mesh.positions[v])) {
                report_.add(kNonFinitePosition,
                            label + ": vertex " + std::to_string(v) + " is not finite once transformed to scene space " +
                                "(overflow in its node or joint transforms)",
                            pointer + "/vertices/" + std::to_string(v));
                return false;
            }
        if (bad_normals > 0) {
            report_.add(kNonFiniteNormal,
                        label + ": vertex " + std::to_string(first_bad_normal) + " has a zero or non-finite normal (" +
                            std::to_string(bad_normals) + " vertices); the mesh's normals were dropped",
                        pointer + "/vertices/" + std::to_string(first_bad_normal));
            mesh.normals.clear();
        }
        // A mirroring transform turns counter-clockwise triangles clockwise (glTF 2.0 specification 3.7.4);
        // swapping two corners keeps the front faces front in scene space.
        for (size_t t = 0; t < mesh.indices.size(); t += 3)
            if (mirrored[mesh.indices[t]]) std::swap(mesh.indices[t + 1], mesh.indices[t + 2]);
        return true;
    }

    /// Fills the mesh's skin and influences and, per vertex, the blended matrix
    /// Σ w·(jointWorld·offset). Assimp's offset matrix is the file's inverse bind (glTF) or the
    /// one that returns the mesh to its bind pose (FBX), so this is the mesh posed by the rest
    /// skeleton; for FBX2glTF exports it is the only place the true size lives. A mesh whose
    /// bones carry no weight at all stays static.
    bool skin_vertices(const SourceMesh& am, int node_index, const std::string& label, const std::string& pointer,
                       Mesh& mesh, std::vector<Mat4>& vertex_matrix) {
        Binding bind;
        if (!resolve_bones(am, label, pointer, bind)) return false;
        if (bind.weighted == 0) return true;
        std::vector<Influence> raw;
        std::vector<Mat4> blend;
        gather_influences(am, bind, raw, blend);
        mesh.skin = skin_for(bind.joints, am.skin_name);
        normalise_influences(am, node_index, label, pointer, bind.count, raw, blend, mesh, vertex_matrix);
        return true;
    }

    /// The bones of a SourceMesh bound to the Scene: each bone's joint (unique nodes, in bone
    /// order) and its jointWorld·offset, and per vertex the count of its weights, from index 1.
    struct Binding {
        std::vector<int> joints;
        std::vector<uint32_t> bone_joint;
        std::vector<Mat4> bone_matrix;
        std::vector<uint32_t> count;
        size_t weighted = 0;
    };

    /// Checks every bone that carries weight (a node, a finite and invertible inverse bind, finite
    /// non-negative weights) and binds it.
    bool resolve_bones(const SourceMesh& am, const std::string& label, const std::string& pointer, Binding& bind) {
        const size_t nv = am.positions.size();
        const size_t bone_count = am.bones.size();
        std::vector<int>& joints = bind.joints;
        std::vector<uint32_t>& bone_joint = bind.bone_joint;
        std::vector<Mat4>& bone_matrix = bind.bone_matrix;
        std::vector<uint32_t>& count = bind.count;
        size_t& weighted = bind.weighted;
        bone_joint.assign(bone_count, 0);
        bone_matrix.resize(bone_count);
        count.assign(nv + 1, 0);
        for (size_t b = 0; b < bone_count; ++b) {
            const SourceBone* bone = &am.bones[b];
            bool carries = false;
            for (const auto& [vertex, weight] : bone->weights)
                if (weight > 0 && std::isfinite(weight)) carries = true;
            if (bone->node < 0) {
                if (!carries) continue;  // an unweighted bone moves nothing; nothing to resolve
                report_.add(kJointOutOfRange,
                            label + ": bone " + std::to_string(b) + " '" + bone->name +
                                "' carries weights but names no node of the scene; re-export the skin",
                            pointer + "/bones/" + std::to_string(b));
                return false;
            }
            const Mat4& offset = bone->offset;
            if (!offset.is_finite()) {
                report_.add(kNonFiniteTransform,
                            label + ": bone '" + bone->name + "' has a NaN or infinite inverse bind matrix",
                            pointer + "/bones/" + std::to_string(b));
                return false;
            }
            if (carries && linear_part_singular(offset)) {
                // An all-zero (or flattening) inverse bind collapses every vertex it weights onto a
                // point or a plane: the mesh would be built and validated as zero-size cloth.
                report_.add(kInverseBindSingular,
                            label + ": bone '" + bone->name +
                                "' has a singular inverse bind matrix (zero or flattening scale); re-export the skin",
                            pointer + "/bones/" + std::to_string(b));
                return false;
            }
            // A weight naming a vertex past the mesh is skipped below, not refused: Assimp 5.2.5's
            // glTF reader gives such weights for primitives that share one vertex buffer (the
            // shared Godette model has them), and they belong to a sibling primitive.
            for (size_t w = 0; w < bone->weights.size(); ++w) {
                const auto [vertex, weight] = bone->weights[w];
                if (vertex >= nv || (std::isfinite(weight) && weight >= 0)) continue;
                report_.add(kWeightInvalid,
                            label + ": bone '" + bone->name + "' weight " + std::to_string(w) +
                                " on vertex " + std::to_string(vertex) + " is " + std::to_string(weight) +
                                " (NaN, infinite or negative); re-export the skin",
                            pointer + "/bones/" + std::to_string(b) + "/weights/" + std::to_string(w));
                return false;
            }
            bone_matrix[b] = scene_.nodes[size_t(bone->node)].world * offset;
            bind_to_rest_.emplace(bone->node, bone_matrix[b]);
            auto it = std::find(joints.begin(), joints.end(), bone->node);
            bone_joint[b] = uint32_t(it - joints.begin());
            if (it == joints.end()) joints.push_back(bone->node);
            for (size_t w = 0; w < bone->weights.size(); ++w) {
                const auto [vertex, weight] = bone->weights[w];
                if (!(weight > 0) || !std::isfinite(weight) || vertex >= nv) continue;
                ++count[vertex + 1];
                ++weighted;
            }
        }
        return true;
    }

    /// Influences in CSR form (count, prefix sum, fill) and each vertex's Σ w·(jointWorld·offset).
    void gather_influences(const SourceMesh& am, Binding& bind, std::vector<Influence>& raw, std::vector<Mat4>& blend) {
        const size_t nv = am.positions.size();
        const size_t bone_count = am.bones.size();
        std::vector<uint32_t>& count = bind.count;
        const std::vector<uint32_t>& bone_joint = bind.bone_joint;
        const std::vector<Mat4>& bone_matrix = bind.bone_matrix;
        for (size_t v = 0; v < nv; ++v) count[v + 1] += count[v];
        raw.assign(count[nv], Influence{});
        std::vector<uint32_t> fill(count.begin(), count.end() - 1);
        blend.assign(nv, Mat4{});
        for (Mat4& m : blend) m.m.fill(0);
        for (size_t b = 0; b < bone_count; ++b) {
            const SourceBone* bone = &am.bones[b];
            if (bone->node < 0) continue;
            for (size_t w = 0; w < bone->weights.size(); ++w) {
                const auto [vertex, weight] = bone->weights[w];
                if (!(weight > 0) || !std::isfinite(weight) || vertex >= nv) continue;
                raw[fill[vertex]++] = {bone_joint[b], weight};
                for (int k = 0; k < 16; ++k) blend[vertex].m[k] += double(weight) * bone_matrix[b].m[k];
            }
        }
    }

    /// Per vertex: its influences merged by joint, normalised and sorted heaviest first, and its
    /// matrix the normalised blend (the node's world for a vertex no joint holds); warnings for
    /// unweighted and renormalised vertices.
    void normalise_influences(const SourceMesh& am, int node_index, const std::string& label, const std::string& pointer,
                              const std::vector<uint32_t>& count, std::vector<Influence>& raw,
                              const std::vector<Mat4>& blend, Mesh& mesh, std::vector<Mat4>& vertex_matrix) {
        const size_t nv = am.positions.size();
        mesh.influence_offsets.assign(nv + 1, 0);
        mesh.influences.reserve(raw.size());
        vertex_matrix.resize(nv);
        size_t unweighted = 0, first_unweighted = 0, renormalised = 0;
        const Mat4& node_world = scene_.nodes[size_t(node_index)].world;
        for (size_t v = 0; v < nv; ++v) {
            auto begin = raw.begin() + count[v], end = raw.begin() + count[v + 1];
            // Two bones on one node (possible in FBX) become one influence. Stable, so equal
            // joints keep bone order and their weights always sum in the same order.
            std::stable_sort(begin, end, [](const Influence& x, const Influence& y) { return x.joint < y.joint; });
            size_t first = mesh.influences.size();
            double sum = 0;
            for (auto it = begin; it != end; ++it) {
                if (mesh.influences.size() > first && mesh.influences.back().joint == it->joint)
                    mesh.influences.back().weight += it->weight;
                else
                    mesh.influences.push_back(*it);
                sum += it->weight;
            }
            if (sum <= 0) {
                // No joint holds this vertex: it stays where its node puts it.
                if (unweighted++ == 0) first_unweighted = v;
                vertex_matrix[v] = node_world;
            } else {
                if (std::abs(sum - 1) > 1e-3) ++renormalised;
                for (size_t i = first; i < mesh.influences.size(); ++i)
                    mesh.influences[i].weight = float(mesh.influences[i].weight / sum);
                for (int k = 0; k < 16; ++k) vertex_matrix[v].m[k] = blend[v].m[k] / sum;
            }
            // Heaviest first; the joint index breaks ties so the order never depends on the sort.
            std::sort(mesh.influences.begin() + long(first), mesh.influences.end(),
                      [](const Influence& x, const Influence& y) {
                          return x.weight != y.weight ? x.weight > y.weight : x.joint < y.joint;
                      });
            mesh.influence_offsets[v + 1] = uint32_t(mesh.influences.size());
        }
        if (unweighted > 0)
            report_.add(kUnweightedVertices,
                        label + ": " + std::to_string(unweighted) + " of " + std::to_string(nv) +
                            " vertices have no joint weight (first: vertex " + std::to_string(first_unweighted) +
                            "); they stay at their node's rest pose",
                        pointer + "/vertices/" + std::to_string(first_unweighted));
        if (renormalised > 0)
            report_.add(kWeightsNormalised,
                        label + ": " + std::to_string(renormalised) + " vertices had weights not summing to 1; normalised",
                        pointer);
    }

private:
    const ImportOptions& options_;
    Scene& scene_;
    Reporter& report_;
    BindToRest& bind_to_rest_;
};

}  // namespace

Mat4 to_mat4(const aiMatrix4x4& a) {
    Mat4 r;
    const ai_real* rows[4] = {&a.a1, &a.b1, &a.c1, &a.d1};
    for (int row = 0; row < 4; ++row)
        for (int col = 0; col < 4; ++col) r.at(row, col) = double(rows[row][col]);
    return r;
}

bool finish_mesh(const SourceMesh& source, int node, const ImportOptions& options, Scene& scene, Mesh& mesh,
                 Reporter& report, BindToRest& bind_to_rest) {
    return MeshFinisher(options, scene, report, bind_to_rest).finish(source, node, mesh);
}

void warn_default_pose_off_bind(const BindToRest& bind_to_rest, const Scene& scene, Reporter& report) {
    // An A-pose against a T-pose bind turns joints tens of degrees, an exporter's rounding
    // hundredths of one.
    constexpr double kOffBindDegrees = 10.0;
    double worst = 0;
    int worst_node = -1;
    size_t turned = 0;
    for (const auto& [n, moved] : bind_to_rest) {
        const int parent = scene.nodes[size_t(n)].parent;
        const auto up = bind_to_rest.find(parent);
        if (up == bind_to_rest.end()) continue;
        Mat4 up_inverse;
        if (!up->second.inverse(up_inverse)) continue;
        Vec3 t, s;
        Quat turn;
        (up_inverse * moved).decompose(t, turn, s);
        const double degrees = 2 * std::acos(std::min(1.0, std::fabs(turn.w))) * 180 / M_PI;
        if (!(degrees > kOffBindDegrees)) continue;
        ++turned;
        if (degrees > worst) {
            worst = degrees;
            worst_node = n;
        }
    }
    if (turned == 0) return;
    const Node& node = scene.nodes[size_t(worst_node)];
    report.add(kDefaultPoseOffBind,
               "the default pose is not the bind pose: joint '" + node.name + "' (under '" +
                   scene.nodes[size_t(node.parent)].name + "') is turned " + std::to_string(int(std::lround(worst))) +
                   " degrees from it" +
                   (turned > 1 ? " (" + std::to_string(turned) + " joints more than 10)" : std::string()) +
                   "; garments are grown and proxies built at the default pose, as the file's nodes stand");
}

}  // namespace weft::import_detail
