// The page's skeleton (view_parts.h): the mesh's skin over the nodes that move it, and the clips'
// keys over those nodes, so the page poses the model as a clip drove it (docs/view.md#keys).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "outputs/view_packing.h"
#include "outputs/view_parts.h"

namespace weft {

using json = nlohmann::json;

int ViewNodes::add(int scene_node) {
    if (scene_node < 0) return -1;
    const auto [it, added] = page_index.emplace(scene_node, static_cast<int>(scene_nodes.size()));
    if (added) {
        scene_nodes.push_back(scene_node);
        chain.push_back(0);
    }
    return it->second;
}

std::vector<int> ViewNodes::keyed() const {
    std::vector<int> out;
    for (size_t i = 0; i < scene_nodes.size(); ++i)
        if (!chain[i]) out.push_back(static_cast<int>(i));
    return out;
}

namespace {

/// Up to four influences of one vertex as (page node, weight), heaviest first, weights in 1/255
/// summing to 255 (the heaviest takes the rounding).
void vertex_skin(const Scene& scene, const Mesh& m, size_t v, ViewNodes& nodes, std::vector<uint32_t>& joints,
                 std::vector<uint8_t>& weights) {
    std::vector<std::pair<float, int>> found;
    if (m.skin >= 0 && v + 1 < m.influence_offsets.size()) {
        const Skin& skin = scene.skins[static_cast<size_t>(m.skin)];
        for (uint32_t k = m.influence_offsets[v]; k < m.influence_offsets[v + 1]; ++k)
            if (m.influences[k].weight > 0) found.push_back({m.influences[k].weight, skin.joints[m.influences[k].joint]});
    }
    if (found.empty()) found.push_back({1.0f, m.node});  // unskinned, or unweighted: rides its node
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    found.resize(std::min<size_t>(found.size(), 4));
    float total = 0;
    for (const auto& f : found) total += f.first;
    int given = 0;
    uint8_t w[4] = {0, 0, 0, 0};
    for (size_t k = 1; k < found.size(); ++k) {
        w[k] = static_cast<uint8_t>(std::lround(found[k].first / total * 255));
        given += w[k];
    }
    w[0] = static_cast<uint8_t>(std::max(0, 255 - given));
    for (size_t k = 0; k < 4; ++k) {
        joints.push_back(static_cast<uint32_t>(k < found.size() ? std::max(0, nodes.add(found[k].second)) : 0));
        weights.push_back(w[k]);
    }
}

}  // namespace

json view_mesh_json(const Scene& scene, const ModelGarments* garments, ViewNodes& nodes) {
    // Which vertices are a garment's, per mesh: a triangle whose three corners are is drawn as one.
    std::vector<std::vector<uint8_t>> worn(scene.meshes.size());
    for (size_t m = 0; m < scene.meshes.size(); ++m) worn[m].assign(scene.meshes[m].vertex_count(), 0);
    if (garments)
        for (const Garment& g : garments->garments)
            for (const GarmentPart& part : g.parts)
                if (part.mesh >= 0 && static_cast<size_t>(part.mesh) < worn.size())
                    for (uint32_t v : part.vertices)
                        if (v < worn[static_cast<size_t>(part.mesh)].size()) worn[static_cast<size_t>(part.mesh)][v] = 1;
    std::vector<float> xyz;
    std::vector<uint32_t> body, garment, joints;
    std::vector<uint8_t> weights;
    for (size_t mi = 0; mi < scene.meshes.size(); ++mi) {
        const Mesh& m = scene.meshes[mi];
        const auto base = static_cast<uint32_t>(xyz.size() / 3);
        for (size_t v = 0; v < m.vertex_count(); ++v) {
            const Vec3& p = m.positions[v];
            xyz.insert(xyz.end(), {float(p.x), float(p.y), float(p.z)});
            vertex_skin(scene, m, v, nodes, joints, weights);
        }
        for (size_t t = 0; t + 2 < m.indices.size(); t += 3) {
            const uint32_t a = m.indices[t], b = m.indices[t + 1], c = m.indices[t + 2];
            auto& into = worn[mi][a] && worn[mi][b] && worn[mi][c] ? garment : body;
            into.insert(into.end(), {base + a, base + b, base + c});
        }
    }
    const Bounds3 q = bounds_of(xyz);
    return {{"bounds", bounds_json(q)},
            {"positions", quantise(xyz, q)},
            {"vertices", xyz.size() / 3},
            {"indices", indices_json(body)},
            {"garment_indices", indices_json(garment)},
            {"skin", {{"joints", indices_json(joints)}, {"weights", base64_of(weights.data(), weights.size())}}}};
}

size_t clip_values(const ViewClip& clip, const ViewNodes& nodes) {
    const size_t frames = clip.motion.frames.size();
    const size_t keys = frames == 0 ? 0 : (frames - 1 + clip.every - 1) / clip.every + 1;
    return keys * nodes.keyed().size() * 7;
}

json clip_json(const ViewClip& clip, const ViewNodes& nodes) {
    const ClipMotion& c = clip.motion;
    // Each page node's place among the clip's sampled nodes, by name as validation binds them;
    // -1: the clip does not move it (it stays where it was bound).
    std::map<std::string, long> sampled;
    for (size_t k = 0; k < c.nodes.size(); ++k) sampled.emplace(c.nodes[k], static_cast<long>(k));
    const std::vector<int> keyed = nodes.keyed();
    std::vector<long> at;
    for (int page : keyed) {
        const auto it = sampled.find(nodes.scene->nodes[static_cast<size_t>(nodes.scene_nodes[static_cast<size_t>(page)])].name);
        at.push_back(it == sampled.end() ? -1 : it->second);
    }
    const size_t frames = c.frames.size();
    const size_t keys = frames == 0 ? 0 : (frames - 1 + clip.every - 1) / clip.every + 1;
    std::vector<uint8_t> rotations;
    std::vector<float> translations;
    for (size_t k = 0; k < keys; ++k) {
        const std::vector<Pose>& frame = c.frames[std::min(k * clip.every, frames - 1)];
        for (long a : at) {
            const Pose p = a < 0 ? Pose{} : frame[static_cast<size_t>(a)];
            for (double v : {p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w}) {
                const auto q = static_cast<int16_t>(std::lround(std::clamp(v, -1.0, 1.0) * 32767));
                rotations.push_back(static_cast<uint8_t>(q));
                rotations.push_back(static_cast<uint8_t>(static_cast<uint16_t>(q) >> 8));
            }
            translations.insert(translations.end(), {float(p.position.x), float(p.position.y), float(p.position.z)});
        }
    }
    const Bounds3 q = bounds_of(translations);
    return {{"name", c.name},
            {"frames", frames},
            {"every", clip.every},
            {"keys", keys},
            {"nodes", keyed},
            {"rotations", base64_of(rotations.data(), rotations.size())},
            {"translations", {{"bounds", bounds_json(q)}, {"positions", quantise(translations, q)}}}};
}

json ViewNodes::follows_json() {
    std::vector<int> follows(scene_nodes.size(), -1);
    for (size_t i = 0; i < scene_nodes.size(); ++i) {
        if (chain[i]) continue;
        for (int up = scene->nodes[static_cast<size_t>(scene_nodes[i])].parent; up >= 0; up = scene->nodes[static_cast<size_t>(up)].parent) {
            const auto it = page_index.find(up);
            if (it != page_index.end() && chain[static_cast<size_t>(it->second)] == 1) {
                follows[i] = it->second;
                break;
            }
        }
    }
    for (size_t i = 0; i < follows.size(); ++i)
        if (follows[i] >= 0) chain[i] = 2;
    return follows;
}

json ViewNodes::names_json() const {
    json out = json::array();
    for (int n : scene_nodes) out.push_back(scene->nodes[static_cast<size_t>(n)].name);
    return out;
}

}  // namespace weft
