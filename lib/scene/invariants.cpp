// enforce_scene_invariants: the checks and repairs of scene/invariants.h, in the order later ones
// rely on: the hierarchy, then meshes and skins (whose indices name nodes), then influences (whose
// joints name skin entries).
#include "scene/invariants.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "io/format_text.h"
#include "io/number_range.h"
#include "scene/authored_numbers.h"
#include "scene/hierarchy.h"
#include "scene/import_detail.h"

namespace weft {

// Named, so these helpers never meet the other importer files' in a unity batch.
namespace scene_invariants {
namespace {

using import_detail::distance_outside;
using import_detail::Reporter;

std::string node_label(const Scene& scene, size_t i) {
    return "node '" + scene.nodes[i].name + "' (index " + std::to_string(i) + ")";
}

/// How import messages name a mesh: "mesh 'M' (node 'N', material 'X')". Only for a mesh whose
/// node and material indices were checked.
std::string mesh_label(const Scene& scene, const Mesh& mesh) {
    return "mesh '" + mesh.name + "' (node '" + mesh.node_name + "'" +
           (mesh.material >= 0 ? ", material '" + scene.materials[static_cast<size_t>(mesh.material)] + "'" : "") +
           ")";
}

bool refuse(Reporter& report, const std::string& what, const std::string& pointer = {}) {
    report.add(kSceneReferenceInvalid, what + "; the importer should have refused the file: report it with the file",
               pointer);
    return false;
}

bool in_range(int index, size_t count) { return index >= 0 && static_cast<size_t>(index) < count; }

/// Parents and children agree, every index names a node, and no parent chain loops.
bool check_hierarchy(const Scene& scene, Reporter& report) {
    const size_t n = scene.nodes.size();
    std::vector<char> listed(n, 0);
    size_t parented = 0, listings = 0;
    for (size_t i = 0; i < n; ++i) {
        const int parent = scene.nodes[i].parent;
        if (parent != -1 && (!in_range(parent, n) || static_cast<size_t>(parent) == i))
            return refuse(report, node_label(scene, i) + " names parent " + std::to_string(parent) + " of " +
                                      std::to_string(n) + " nodes");
        parented += parent >= 0;
    }
    for (size_t i = 0; i < n; ++i) {
        for (int c : scene.nodes[i].children) {
            if (!in_range(c, n) || scene.nodes[static_cast<size_t>(c)].parent != static_cast<int>(i) ||
                listed[static_cast<size_t>(c)])
                return refuse(report, node_label(scene, i) + " lists child " + std::to_string(c) +
                                          ", which is not a node whose parent it is (or is listed twice)");
            listed[static_cast<size_t>(c)] = 1;
            ++listings;
        }
    }
    if (listings != parented)
        return refuse(report, std::to_string(parented - listings) + " nodes are missing from their parent's children");
    // Walks up from each node; 1 = on the current walk, 2 = known to reach a root.
    std::vector<char> state(n, 0);
    std::vector<size_t> walk;
    for (size_t i = 0; i < n; ++i) {
        walk.clear();
        for (size_t at = i;;) {
            if (state[at] == 2) break;
            if (state[at] == 1)
                return refuse(report, node_label(scene, at) + " is its own ancestor (the parents form a cycle)");
            state[at] = 1;
            walk.push_back(at);
            const int p = scene.nodes[at].parent;
            if (p < 0) break;
            at = static_cast<size_t>(p);
        }
        for (size_t w : walk) state[w] = 2;
    }
    return true;
}

bool check_meshes(Scene& scene, Reporter& report) {
    for (size_t i = 0; i < scene.nodes.size(); ++i)
        for (int m : scene.nodes[i].meshes)
            if (!in_range(m, scene.meshes.size()))
                return refuse(report, node_label(scene, i) + " instances mesh " + std::to_string(m) + " of " +
                                          std::to_string(scene.meshes.size()));
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        Mesh& mesh = scene.meshes[m];
        const std::string pointer = "/meshes/" + mesh.name;
        if (!in_range(mesh.node, scene.nodes.size()) ||
            (mesh.material != -1 && !in_range(mesh.material, scene.materials.size())) ||
            (mesh.skin != -1 && !in_range(mesh.skin, scene.skins.size())))
            return refuse(report, "mesh '" + mesh.name + "' names node " + std::to_string(mesh.node) + ", material " +
                                      std::to_string(mesh.material) + " and skin " + std::to_string(mesh.skin) +
                                      ", one of which the scene does not have", pointer);
        const std::string label = mesh_label(scene, mesh);
        const size_t nv = mesh.vertex_count();
        if ((!mesh.normals.empty() && mesh.normals.size() != nv) || (!mesh.uvs.empty() && mesh.uvs.size() != nv))
            return refuse(report, label + " has " + std::to_string(nv) + " positions but " +
                                      std::to_string(mesh.normals.size()) + " normals and " +
                                      std::to_string(mesh.uvs.size()) + " UVs", pointer);
        for (size_t v = 0; v < nv; ++v)
            if (!is_finite(mesh.positions[v])) {
                report.add(kNonFinitePosition, label + ": vertex " + std::to_string(v) + " position is not finite",
                           pointer + "/vertices/" + std::to_string(v));
                return false;
            }
        for (size_t k = 0; k < mesh.indices.size(); ++k)
            if (mesh.indices[k] >= nv) {
                report.add(kIndexOutOfRange,
                           label + ": triangle " + std::to_string(k / 3) + " names vertex " +
                               std::to_string(mesh.indices[k]) + " but the mesh has " + std::to_string(nv) +
                               " vertices; re-export the mesh",
                           pointer + "/triangles/" + std::to_string(k / 3));
                return false;
            }
    }
    return true;
}

/// Every joint a node, one finite inverse bind per joint, and that inverse bind the inverse of the
/// joint's rest world transform: one bind pose, the rest pose.
bool check_skins(Scene& scene, Reporter& report) {
    for (Skin& skin : scene.skins) {
        if (skin.inverse_bind.size() != skin.joints.size())
            return refuse(report, "skin '" + skin.name + "' has " + std::to_string(skin.joints.size()) + " joints but " +
                                      std::to_string(skin.inverse_bind.size()) + " inverse bind matrices");
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            if (!in_range(skin.joints[j], scene.nodes.size()))
                return refuse(report, "skin '" + skin.name + "' joint " + std::to_string(j) + " names node " +
                                          std::to_string(skin.joints[j]) + " of " + std::to_string(scene.nodes.size()));
            const Node& node = scene.nodes[static_cast<size_t>(skin.joints[j])];
            if (!skin.inverse_bind[j].is_finite()) {
                report.add(kNonFiniteTransform,
                           "skin '" + skin.name + "' joint '" + node.name + "' has a NaN or infinite inverse bind matrix",
                           "/nodes/" + node.name);
                return false;
            }
            Mat4 rest_inverse;
            if (!node.world.inverse(rest_inverse)) continue;  // a singular rest: the importer's own fallback stays
            const Mat4 product = skin.inverse_bind[j] * node.world;
            const Mat4 identity = Mat4::identity();
            double off = 0;
            for (int k = 0; k < 16; ++k) off = std::max(off, std::abs(product.m[k] - identity.m[k]));
            if (!(off <= 1e-6)) skin.inverse_bind[j] = rest_inverse;
        }
    }
    return true;
}

/// What a vertex's influences need: nothing, or a rebuild (merge, drop zeros, trim, normalise).
bool needs_repair(const Influence* begin, const Influence* end) {
    double sum = 0;
    size_t count = 0;
    for (const Influence* a = begin; a != end; ++a) {
        if (!(a->weight > 0)) return true;
        for (const Influence* b = begin; b != a; ++b)
            if (b->joint == a->joint) return true;
        sum += a->weight;
        ++count;
    }
    return count > kMaxInfluences || (count > 0 && std::abs(sum - 1) > kWeightSumTolerance);
}

/// The vertex's influences merged per joint, zeros dropped, heaviest kMaxInfluences kept (heaviest
/// first, the joint breaking ties), summing to 1; appended to `out`.
void repair_vertex(const Influence* begin, const Influence* end, std::vector<Influence>& out) {
    std::vector<std::pair<uint32_t, double>> merged;
    for (const Influence* a = begin; a != end; ++a) {
        if (!(a->weight > 0)) continue;
        auto it = std::find_if(merged.begin(), merged.end(), [&](const auto& e) { return e.first == a->joint; });
        if (it == merged.end())
            merged.push_back({a->joint, a->weight});
        else
            it->second += a->weight;
    }
    std::sort(merged.begin(), merged.end(),
              [](const auto& x, const auto& y) { return x.second != y.second ? x.second > y.second : x.first < y.first; });
    if (merged.size() > kMaxInfluences) merged.resize(kMaxInfluences);
    double sum = 0;
    for (const auto& e : merged) sum += e.second;
    for (const auto& e : merged) out.push_back({e.first, static_cast<float>(e.second / sum)});
}

bool check_influences(Scene& scene, Reporter& report) {
    for (Mesh& mesh : scene.meshes) {
        if (mesh.skin < 0) {
            mesh.influence_offsets.clear();
            mesh.influences.clear();
            continue;
        }
        const std::string label = mesh_label(scene, mesh);
        const std::string pointer = "/meshes/" + mesh.name;
        const size_t nv = mesh.vertex_count();
        const std::vector<uint32_t>& offsets = mesh.influence_offsets;
        bool offsets_ok = offsets.size() == nv + 1 && offsets.front() == 0 && offsets.back() == mesh.influences.size();
        for (size_t v = 0; offsets_ok && v < nv; ++v) offsets_ok = offsets[v] <= offsets[v + 1];
        if (!offsets_ok)
            return refuse(report, label + ": its influence offsets do not cover its " + std::to_string(nv) +
                                      " vertices and " + std::to_string(mesh.influences.size()) + " influences", pointer);
        const size_t joint_count = scene.skins[static_cast<size_t>(mesh.skin)].joints.size();
        size_t repaired = 0, first_repaired = 0;
        for (size_t v = 0; v < nv; ++v) {
            for (uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
                const Influence& inf = mesh.influences[k];
                const std::string where = pointer + "/vertices/" + std::to_string(v);
                if (inf.joint >= joint_count) {
                    report.add(kJointOutOfRange,
                               label + ": vertex " + std::to_string(v) + " is weighted to joint " +
                                   std::to_string(inf.joint) + " but its skin has " + std::to_string(joint_count) +
                                   " joints; re-export the skin",
                               where);
                    return false;
                }
                if (!std::isfinite(inf.weight) || inf.weight < 0) {
                    report.add(kWeightInvalid,
                               label + ": vertex " + std::to_string(v) + " weight on joint " + std::to_string(inf.joint) +
                                   " is " + std::to_string(inf.weight) + " (NaN, infinite or negative); re-export the skin",
                               where);
                    return false;
                }
            }
            if (needs_repair(mesh.influences.data() + offsets[v], mesh.influences.data() + offsets[v + 1]) &&
                repaired++ == 0)
                first_repaired = v;
        }
        if (repaired == 0) continue;
        std::vector<uint32_t> new_offsets{0};
        std::vector<Influence> new_influences;
        new_influences.reserve(mesh.influences.size());
        for (size_t v = 0; v < nv; ++v) {
            const Influence* begin = mesh.influences.data() + offsets[v];
            const Influence* end = mesh.influences.data() + offsets[v + 1];
            if (needs_repair(begin, end))
                repair_vertex(begin, end, new_influences);
            else
                new_influences.insert(new_influences.end(), begin, end);
            new_offsets.push_back(static_cast<uint32_t>(new_influences.size()));
        }
        mesh.influence_offsets = std::move(new_offsets);
        mesh.influences = std::move(new_influences);
        report.add(kWeightsNormalised,
                   label + ": " + std::to_string(repaired) + " vertices had weights not summing to 1, a joint twice, a " +
                       "zero weight or more than " + std::to_string(kMaxInfluences) +
                       " influences; merged, trimmed to the heaviest and normalised (first: vertex " +
                       std::to_string(first_repaired) + ")",
                   pointer + "/vertices/" + std::to_string(first_repaired));
    }
    return true;
}

/// What a collider is measured against: the meshes and the skeleton that moves them (a collider
/// rides a bone, and a rig's bones may stand apart from a small mesh), empty with no mesh.
Bounds model_extent(const Scene& scene) {
    Bounds bounds = scene.bounds();
    if (bounds.empty()) return bounds;
    for (const Skin& skin : scene.skins)
        for (int j : skin.joints)
            if (in_range(j, scene.nodes.size())) {
                const Vec3 at = scene.nodes[static_cast<size_t>(j)].world.transform_point({0, 0, 0});
                if (is_finite(at)) bounds.add(at);
            }
    return bounds;
}

/// Why a declared collider cannot be one of this model's (radius or ends past its size), or "".
std::string collider_out_of_range(const Scene& scene, const Bounds& bounds, const SpringCollider& c) {
    const double size = bounds.diagonal();
    const Mat4& world = scene.nodes[static_cast<size_t>(c.node)].world;
    const double radius = c.radius * length(world.transform_vector({1, 0, 0}));  // as the body fits it (body_colliders.cpp)
    auto number = [](double v) { return format_text("%g", v); };
    if (!number_out_of_range("radius", radius, {0, size}).empty())
        return "radius " + number(c.radius) + " (" + number(radius) + " m on its node) is larger than the whole model (" +
               number(size) + " m across)";
    std::vector<Vec3> ends{c.offset};
    if (c.tail) ends.push_back(*c.tail);
    for (const Vec3& end : ends) {
        const Vec3 at = world.transform_point(end);
        if (!is_finite(at) || distance_outside(bounds, at) > size)
            return "end (" + number(end.x) + ", " + number(end.y) + ", " + number(end.z) + ") lies " +
                   (is_finite(at) ? number(distance_outside(bounds, at)) + " m" : std::string("infinitely far")) +
                   " outside the model, which is " + number(size) + " m across";
    }
    return "";
}

/// Declared springs and colliders name only nodes the scene has; a collider is no larger than the
/// model and sits near it (a VRM collider of radius 1e300 was taken as it was: every body collider
/// the fit keeps is validated against).
void check_springs(Scene& scene, Reporter& report) {
    const size_t n = scene.nodes.size();
    auto keep_valid = [&](std::vector<int>& nodes, const std::string& what) {
        const size_t before = nodes.size();
        nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [&](int i) { return !in_range(i, n); }), nodes.end());
        if (nodes.size() != before)
            report.add(kSpringInvalid, what + ": " + std::to_string(before - nodes.size()) +
                                             " nodes the scene does not have were skipped");
    };
    for (DeclaredSpring& spring : scene.springs) {
        const std::string what = "spring '" + spring.name + "' (" + spring.source + ")";
        keep_valid(spring.roots, what);
        keep_valid(spring.joints, what);
        keep_valid(spring.collider_nodes, what);
    }
    const size_t before = scene.colliders.size();
    scene.colliders.erase(std::remove_if(scene.colliders.begin(), scene.colliders.end(),
                                         [&](const SpringCollider& c) { return !in_range(c.node, n); }),
                          scene.colliders.end());
    if (scene.colliders.size() != before)
        report.add(kSpringInvalid, std::to_string(before - scene.colliders.size()) +
                                         " colliders ride nodes the scene does not have; skipped");
    const Bounds bounds = model_extent(scene);
    if (bounds.empty()) return;  // no mesh: NO_MESHES refuses the model
    std::vector<SpringCollider> kept;
    for (const SpringCollider& c : scene.colliders) {
        if (const std::string why = collider_out_of_range(scene, bounds, c); !why.empty()) {
            report.add(kSpringOutOfRange, "spring collider on node '" + scene.nodes[static_cast<size_t>(c.node)].name + "': " + why +
                                              "; skipped",
                       "/nodes/" + scene.nodes[static_cast<size_t>(c.node)].name);
            continue;
        }
        kept.push_back(c);
    }
    scene.colliders = std::move(kept);
}

/// Keeps the keys a sampler can trust: finite, time in [0, ∞) strictly ascending (a repeated time
/// keeps its first key), rotations of unit length (a zero one dropped). Returns how many went.
template <class Key, class Valid>
size_t keep_valid_keys(std::vector<Key>& keys, Valid valid) {
    const size_t before = keys.size();
    std::vector<Key> kept;
    kept.reserve(keys.size());
    for (const Key& k : keys)
        if (std::isfinite(k.time) && k.time >= 0 && valid(k)) kept.push_back(k);
    std::stable_sort(kept.begin(), kept.end(), [](const Key& a, const Key& b) { return a.time < b.time; });
    kept.erase(std::unique(kept.begin(), kept.end(), [](const Key& a, const Key& b) { return a.time == b.time; }),
               kept.end());
    keys = std::move(kept);
    return before - keys.size();
}

/// Clips name only nodes the scene has, once each, with keys a sampler can use as they are.
void check_clips(Scene& scene, Reporter& report) {
    const size_t n = scene.nodes.size();
    for (Clip& clip : scene.clips) {
        const std::string what = "clip '" + clip.name + "'";
        const std::string pointer = "/animations/" + clip.name;
        std::vector<char> seen(n, 0);
        std::vector<ClipChannel> kept;
        size_t dropped_keys = 0;
        for (size_t c = 0; c < clip.channels.size(); ++c) {
            ClipChannel& ch = clip.channels[c];
            if (!in_range(ch.node, n) || seen[static_cast<size_t>(ch.node)]) {
                report.add(kClipInvalid,
                           what + ": channel " + std::to_string(c) +
                               (in_range(ch.node, n) ? " moves " + node_label(scene, static_cast<size_t>(ch.node)) +
                                                           " a second time"
                                                     : " names node " + std::to_string(ch.node) + " of " + std::to_string(n)) +
                               "; skipped",
                           pointer + "/channels/" + std::to_string(c));
                continue;
            }
            seen[static_cast<size_t>(ch.node)] = 1;
            const auto finite_vec = [](const Vec3Key& k) { return is_finite(k.value); };
            dropped_keys += keep_valid_keys(ch.translation, finite_vec);
            dropped_keys += keep_valid_keys(ch.scale, finite_vec);
            dropped_keys += keep_valid_keys(ch.rotation, [](const QuatKey& k) {
                const double len = std::sqrt(k.value.x * k.value.x + k.value.y * k.value.y + k.value.z * k.value.z +
                                             k.value.w * k.value.w);
                return std::isfinite(len) && len > 1e-6;
            });
            for (QuatKey& k : ch.rotation) {
                const Quat& q = k.value;
                const double len = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
                if (std::abs(len - 1) > 1e-12) k.value = {q.x / len, q.y / len, q.z / len, q.w / len};
            }
            kept.push_back(std::move(ch));
        }
        if (dropped_keys > 0)
            report.add(kClipInvalid, what + ": " + std::to_string(dropped_keys) +
                                           " keys not finite, before the clip's start, at a time already keyed or a zero "
                                           "rotation; skipped",
                       pointer);
        std::sort(kept.begin(), kept.end(), [](const ClipChannel& a, const ClipChannel& b) { return a.node < b.node; });
        clip.channels = std::move(kept);
        // The clip lasts to its latest key, whatever the file declared.
        double last = 0;
        for (const ClipChannel& ch : clip.channels) {
            if (!ch.translation.empty()) last = std::max(last, ch.translation.back().time);
            if (!ch.rotation.empty()) last = std::max(last, ch.rotation.back().time);
            if (!ch.scale.empty()) last = std::max(last, ch.scale.back().time);
        }
        if (!(std::isfinite(clip.duration) && clip.duration >= last)) clip.duration = last;
    }
}

}  // namespace
}  // namespace scene_invariants

bool enforce_scene_invariants(Scene& scene, Issues& issues) {
    namespace si = scene_invariants;
    import_detail::Reporter report(scene.source_path, issues);
    if (!si::check_hierarchy(scene, report) || !si::check_meshes(scene, report) || !si::check_skins(scene, report) ||
        !si::check_influences(scene, report))
        return false;
    const import_detail::ModelCore core = import_detail::model_core(scene);
    if (!import_detail::check_vertex_range(scene, core, report)) return false;
    import_detail::check_node_range(scene, core, report);
    si::check_springs(scene, report);
    import_detail::check_clip_key_range(scene, core, report);  // before check_clips sorts and normalises the keys
    si::check_clips(scene, report);
    return true;
}

}  // namespace weft
