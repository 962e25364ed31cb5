#include "garment/tail_shape.h"

#include <algorithm>
#include <cmath>

#include "garment/geometry.h"
#include "scene/bind_pose.h"
#include "scene/influences.h"

namespace weft {

namespace {

/// Per node: whether it is a joint of some skin.
std::vector<char> skin_joints(const Scene& scene) {
    std::vector<char> joint(scene.nodes.size(), 0);
    for (const Skin& skin : scene.skins)
        for (int j : skin.joints) joint[static_cast<size_t>(j)] = 1;
    return joint;
}

int joint_children(const Scene& scene, const std::vector<char>& joint, int node, int* only) {
    int count = 0;
    for (int c : scene.nodes[static_cast<size_t>(node)].children)
        if (joint[static_cast<size_t>(c)]) ++count, *only = c;
    return count;
}

/// Every unbranched run of joints from a joint whose parent branches (or is no joint) to a joint
/// with no joint child. A run that reaches a branching joint is the spine, not a limb.
std::vector<Limb> find_limbs(const Scene& scene, const std::vector<char>& joint) {
    std::vector<Limb> limbs;
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        if (!joint[n]) continue;
        const int parent = scene.nodes[n].parent;
        int only = -1;
        if (parent >= 0 && joint[static_cast<size_t>(parent)] && joint_children(scene, joint, parent, &only) < 2) continue;
        Limb limb;
        int at = static_cast<int>(n);
        int children = 0;
        while (true) {
            limb.joints.push_back(at);
            children = joint_children(scene, joint, at, &only);
            if (children != 1) break;
            at = only;
        }
        if (children == 0) limbs.push_back(std::move(limb));
    }
    return limbs;
}

/// The joint that weights a skinned vertex most (ties to the lower node), or -1.
int dominant_joint(const Scene& scene, const Mesh& mesh, uint32_t v) {
    int best = -1;
    double best_w = 0;
    for (const BoneWeight& bw : influences(scene, mesh, v))
        if (bw.weight > best_w || (bw.weight == best_w && bw.bone < best)) best_w = bw.weight, best = bw.bone;
    return best;
}

/// Calls visit(mesh, vertex, dominant joint) for every vertex of every skinned mesh.
template <class Visit>
void for_each_skinned_vertex(const Scene& scene, Visit&& visit) {
    for (const Mesh& mesh : scene.meshes) {
        if (!is_skinned(mesh)) continue;
        for (uint32_t v = 0; v < mesh.positions.size(); ++v) visit(mesh, v, dominant_joint(scene, mesh, v));
    }
}

/// The horizontal direction the legs' roots spread along most (the body's length between its pairs
/// of legs), by the larger eigenvector of their horizontal covariance.
Vec3 legs_axis(const std::vector<Vec3>& roots) {
    double cx = 0, cz = 0;
    for (const Vec3& p : roots) cx += p.x, cz += p.z;
    cx /= static_cast<double>(roots.size()), cz /= static_cast<double>(roots.size());
    double xx = 0, xz = 0, zz = 0;
    for (const Vec3& p : roots) xx += (p.x - cx) * (p.x - cx), xz += (p.x - cx) * (p.z - cz), zz += (p.z - cz) * (p.z - cz);
    const double angle = 0.5 * std::atan2(2 * xz, xx - zz);
    return {std::cos(angle), 0, std::sin(angle)};
}

/// Fills the legs and the axis; false when the skeleton is no quadruped.
bool measure_body(const Scene& scene, TailShape& shape, double height) {
    std::vector<Vec3> roots;
    for (Limb& limb : shape.limbs) {
        limb.leg = limb.lowest <= kLegReachesGround * height;
        if (limb.leg) roots.push_back(bind_world(scene, limb.joints.front()).translation_part());
    }
    shape.legs = static_cast<int>(roots.size());
    if (roots.size() < 4) return false;
    shape.axis = legs_axis(roots);
    std::vector<double> along;
    for (const Vec3& p : roots) along.push_back(dot(p, shape.axis));
    std::sort(along.begin(), along.end());
    const double mid = 0.5 * (along.front() + along.back());
    const auto second = std::upper_bound(along.begin(), along.end(), mid);
    if (second - along.begin() < 2 || along.end() - second < 2) return false;
    shape.first_legs = along[1];  // the pair's inner leg: a tail leaves past both of its end's legs
    shape.second_legs = along[along.size() - 2];
    return true;
}

/// Whether `limb` leaves the hips: its root hangs from the node two legs hang from (the back legs
/// its siblings, as a tail's are).
bool leaves_hips(const Scene& scene, const std::vector<Limb>& limbs, const Limb& limb) {
    const int parent = scene.nodes[static_cast<size_t>(limb.joints.front())].parent;
    int legs = 0;
    for (const Limb& other : limbs)
        legs += other.leg && scene.nodes[static_cast<size_t>(other.joints.front())].parent == parent;
    return parent >= 0 && legs >= 2;
}

/// Node -> index of the limb holding it, or -1.
std::vector<int> limb_of_node(const Scene& scene, const std::vector<Limb>& limbs) {
    std::vector<int> owner(scene.nodes.size(), -1);
    for (size_t l = 0; l < limbs.size(); ++l)
        for (int j : limbs[l].joints) owner[static_cast<size_t>(j)] = static_cast<int>(l);
    return owner;
}

}  // namespace

TailShape measure_tail_shape(const Scene& scene) {
    TailShape shape;
    shape.limbs = find_limbs(scene, skin_joints(scene));
    std::vector<int> owner = limb_of_node(scene, shape.limbs);

    // Each limb's lowest skin, the skin's ground and height; limbs carrying no skin (IK targets) dropped.
    double ground = INFINITY, top = -INFINITY;
    for (Limb& limb : shape.limbs) limb.lowest = INFINITY;
    for_each_skinned_vertex(scene, [&](const Mesh& mesh, uint32_t v, int j) {
        const Vec3& p = mesh.positions[v];
        ground = std::min(ground, p.y), top = std::max(top, p.y);
        if (j >= 0 && owner[static_cast<size_t>(j)] >= 0) {
            Limb& limb = shape.limbs[static_cast<size_t>(owner[static_cast<size_t>(j)])];
            limb.lowest = std::min(limb.lowest, p.y);
        }
    });
    std::erase_if(shape.limbs, [](const Limb& limb) { return !std::isfinite(limb.lowest); });
    owner = limb_of_node(scene, shape.limbs);
    const double height = top - ground;
    if (!(height > 0)) return shape;
    for (Limb& limb : shape.limbs) limb.lowest -= ground;
    shape.quadruped = measure_body(scene, shape, height);
    if (!shape.quadruped) return shape;

    // The head's end: where the limb carrying the most skin (the head, with its eyes and skull) runs to.
    for (Limb& limb : shape.limbs) limb.root_at = dot(bind_world(scene, limb.joints.front()).translation_part(), shape.axis);
    std::vector<double> first_reach(shape.limbs.size()), second_reach(shape.limbs.size());
    for (size_t l = 0; l < shape.limbs.size(); ++l) first_reach[l] = second_reach[l] = shape.limbs[l].root_at;
    for_each_skinned_vertex(scene, [&](const Mesh& mesh, uint32_t v, int j) {
        if (j < 0 || owner[static_cast<size_t>(j)] < 0) return;
        const size_t l = static_cast<size_t>(owner[static_cast<size_t>(j)]);
        const double s = dot(mesh.positions[v], shape.axis);
        first_reach[l] = std::min(first_reach[l], s), second_reach[l] = std::max(second_reach[l], s);
        shape.limbs[l].skin += 1;
    });
    size_t head = 0;
    for (size_t l = 1; l < shape.limbs.size(); ++l)
        if (shape.limbs[l].skin > shape.limbs[head].skin) head = l;
    shape.head = static_cast<int>(head);
    const Limb& h = shape.limbs[head];
    const bool back_is_first = second_reach[head] - h.root_at > h.root_at - first_reach[head];
    shape.back_is_first = back_is_first;
    const double sign = back_is_first ? -1 : 1;  // outward at the back end
    const double back_legs = back_is_first ? shape.first_legs : shape.second_legs;
    const double span = shape.second_legs - shape.first_legs;
    for (size_t l = 0; l < shape.limbs.size(); ++l) shape.limbs[l].reach_at = back_is_first ? first_reach[l] : second_reach[l];
    double best_run = 0;
    for (size_t l = 0; l < shape.limbs.size(); ++l) {
        const Limb& limb = shape.limbs[l];
        if (l == head || limb.leg || limb.joints.size() < 2 || !leaves_hips(scene, shape.limbs, limb)) continue;
        const bool at_back = sign * (limb.root_at - back_legs) >= -kTailRootIntoBody * span;
        const bool runs_out = sign * (limb.reach_at - back_legs) > 0 && sign * (limb.reach_at - limb.root_at) > 0;
        const double run = sign * (limb.reach_at - limb.root_at);
        if (at_back && runs_out && run > best_run) best_run = run, shape.tail = static_cast<int>(l);
    }
    return shape;
}

std::optional<Chain> find_tail_by_shape(const Scene& scene, const std::vector<Chain>& chains) {
    for (const Chain& c : chains)
        if (c.class_name == "tail") return std::nullopt;
    // A humanoid's limbs off the ground are arms, hair and capes: its tail, if any, is named.
    if (find_humanoid_bones(scene).humanoid()) return std::nullopt;
    const TailShape shape = measure_tail_shape(scene);
    if (shape.tail < 0) return std::nullopt;
    const Limb& limb = shape.limbs[static_cast<size_t>(shape.tail)];
    Chain chain;
    chain.joints = limb.joints;
    chain.name = scene.nodes[static_cast<size_t>(limb.joints.front())].name;
    chain.class_name = "tail";
    chain.parent = scene.nodes[static_cast<size_t>(limb.joints.front())].parent;
    chain.found_by.push_back(kFoundByShape);
    // The last joint's bone ends where the skin it carries ends farthest from it.
    const int last = limb.joints.back();
    const Vec3 from = bind_world(scene, last).translation_part();
    double far = 0;
    for_each_skinned_vertex(scene, [&](const Mesh& mesh, uint32_t v, int j) {
        if (j != last) return;
        const double d = distance(mesh.positions[v], from);
        if (d > far) far = d, chain.tip = mesh.positions[v];
    });
    chain.length = chain_length(scene, chain.joints, chain.tip);
    return chain;
}

}  // namespace weft
