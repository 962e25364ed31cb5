// The rig proxies of one model through the solver, and their skinned mesh in the simulated pose
// (docs/validation.md#the-skinned-mesh-of-a-rig-proxy; the steps are in rig_validate.h).
#include "validate/model/rig_validate.h"
#include "validate/model/joint_terms.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>

#include "scene/hierarchy.h"
#include "scene/skinning.h"
#include "solver/solver.h"
#include "body/body_shapes.h"
#include "io/format_text.h"

// RigMeshValidator::Impl is defined here, its members of this file's own types. GCC warns of that
// (-Wsubobject-linkage) when the file is not the compiler's main file, as in a unity batch, though
// no other file can see Impl; silenced for this file alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsubobject-linkage"

namespace weft {
namespace {



/// A chain joint the simulation poses.
struct PosedJoint {
    int node = -1;
    uint32_t particle = no_particle;  ///< its own
    uint32_t next = no_particle;      ///< the next particle along its chain (joint or tip); none for an end joint
    int previous = -1;                ///< index into the posed joints of the joint before it in its chain; -1 at the root
};

/// One skinned mesh's share of the garment: the vertices that move or touch what moves.
struct MeshPart {
    int mesh = -1;
    std::vector<uint32_t> vertices;              ///< ascending, every vertex of a triangle with a moving vertex
    std::vector<std::array<uint32_t, 2>> edges;  ///< into `vertices`, distinct, bind length > 0
    std::vector<double> bind_length;             ///< per edge, metres
    std::vector<uint8_t> scalp;                  ///< per vertex: at least kScalpBodyShare on body bones
    // Each vertex's skinning, flattened once (the body's bones stay at bind, so their share is a
    // constant): skinned = (fixed + Σ weight·M(joint)·bind) / total over moved[first[i]..first[i+1]).
    std::vector<Vec3> fixed;                     ///< per vertex: Σ weight·bind position over its body bones
    std::vector<double> total;                   ///< per vertex: Σ weight (1 for an unweighted vertex)
    std::vector<double> inverse_total;           ///< per vertex: 1 / total, the blend's factor, taken once
    std::vector<uint32_t> first;                 ///< per vertex + 1: offsets into moved_joint / moved_weight
    std::vector<uint32_t> moved_joint;           ///< posed joint of each moving influence
    std::vector<double> moved_weight;
    JointTerms terms;                            ///< the moving influences by joint: skin()'s terms (scratch
                                                 ///< inside, so each copy of the poser has its own)
    std::vector<int> moved_node;                 ///< the bone of each moving influence (a clip's own pose of it)
    // A clip moves the body's bones too: their influences, kept apart for it (fixed is their bind share).
    std::vector<uint32_t> body_first;            ///< per vertex + 1: offsets into body_node / body_weight
    std::vector<int> body_node;
    std::vector<double> body_weight;
    std::vector<double> hull;                    ///< per vertex: metres at bind from the nearest segment of a joint
                                                 ///< that moves it (0 when none does)
};

/// A clip scenario's body at one step (docs/validation.md#clips): every bone as the clip moves it, and
/// the colliders where the clip puts them.
struct ClipBody {
    std::vector<Mat4> bone;   ///< per scene node: its rigid motion from the bind pose, model space (identity: not moved)
    Pose frame;               ///< the proxy's frame now, model space (compose(motion of its node, rest frame))
    const StepInput* colliders = nullptr;  ///< in the moving frame; none without a body
};

/// Everything needed to pose and skin the garment, built once per proxy.
class MeshPoser {
public:
    MeshPoser(const Scene& scene, const RigGarment& garment, const RigBuildResult& built)
        : scene_(scene), proxy_(*built.proxy), frame_(built.proxy->frame.rest_world) {
        std::map<int, size_t> index_of;
        for (size_t c = 0; c < garment.chains.size() && c < built.chains.size(); ++c) {
            const RigChain& chain = garment.chains[c];
            const std::vector<uint32_t>& particles = built.chains[c].particles;
            int previous = -1;
            for (size_t k = 0; k < chain.joints.size() && k + 1 < particles.size(); ++k) {
                const int node = chain.joints[k];
                auto it = index_of.find(node);
                if (it != index_of.end()) {  // shared with an earlier chain: posed as that chain has it
                    previous = static_cast<int>(it->second);
                    continue;
                }
                PosedJoint j;
                j.node = node;
                j.particle = particles[k + 1];
                j.next = k + 2 < particles.size() ? particles[k + 2] : no_particle;
                j.previous = previous;
                if (j.particle >= proxy_.particle_count()) continue;
                if (j.next != no_particle && j.next >= proxy_.particle_count()) j.next = no_particle;
                previous = static_cast<int>(joints_.size());
                index_of.emplace(node, joints_.size());
                joints_.push_back(j);
            }
        }
        joint_of_node_.assign(scene.nodes.size(), -1);
        for (size_t j = 0; j < joints_.size(); ++j)
            if (has_node(scene, joints_[j].node)) joint_of_node_[static_cast<size_t>(joints_[j].node)] = static_cast<int>(j);
        // A node moves with the nearest posed joint at or above it; -1: the body, at bind.
        mover_.assign(scene.nodes.size(), -1);
        for (size_t n = 0; n < scene.nodes.size(); ++n)
            for (int node : self_and_ancestors(scene, static_cast<int>(n)))
                if (joint_of_node_[static_cast<size_t>(node)] >= 0) {
                    mover_[n] = joint_of_node_[static_cast<size_t>(node)];
                    break;
                }
        rest_.resize(proxy_.particle_count());
        for (size_t p = 0; p < rest_.size(); ++p) rest_[p] = frame_.transform_point(proxy_.rest_position[p]);
        collect_mesh();
    }

    uint32_t vertex_count() const { return vertices_; }
    uint32_t edge_count() const { return edges_; }
    uint32_t scalp_count() const { return scalp_; }
    /// Metres: the farthest a garment vertex (mostly on the chain) lies at bind from the nearest
    /// segment of a joint that moves it: how far the skinned mesh stands out round the chain's
    /// particles (docs/validation.md#render-vertex-penetration).
    double hull_radius() const { return hull_radius_; }

    /// Poses the joints from `x` (particle positions in the frame, relative to the holders), skins
    /// and measures; `body` is the body at rest in the frame. With `clip`, `x` is in the clip's moving
    /// frame, the body's bones skin as the clip moves them and its colliders are where the clip puts
    /// them; the scalp is measured from where the clip's own skinning puts it.
    MeshPoseStats measure(const std::vector<Vec3>& x, uint32_t step, const StepInput* body = nullptr,
                          const ClipBody* clip = nullptr) {
        // The particles to model space: the frame as the clip moves it (its rest placement's scale kept, as rest_ has it).
        pose(x, clip ? pose_matrix(clip->frame) * rest_frame_inverse_ * frame_ : frame_);
        clip_ = clip;
        MeshPoseStats st;
        st.step = step;
        if (body) st.max_penetration = st.max_penetration_past_hull = 0.0;
        const Mat4 to_frame = clip ? to_frame_ * rest_frame_ * pose_matrix(inverse(clip->frame)) : to_frame_;
        const StepInput* colliders = clip ? clip->colliders : body;
        for (MeshPart& part : parts_) {
            const Mesh& mesh = scene_.meshes[static_cast<size_t>(part.mesh)];
            skin(part, mesh);
            if (body && colliders) penetration(part, mesh, *body, *colliders, to_frame, st);
            for (size_t e = 0; e < part.edges.size(); ++e) {
                // An edge certainly shorter than the worst ratio so far times its bind length (by a billionth,
                // far beyond the rounding of either side) cannot beat it: its root and division are not taken.
                const double length2 = length_squared(skinned_[part.edges[e][0]] - skinned_[part.edges[e][1]]);
                const double beat = st.max_edge_stretch * part.bind_length[e];
                if (length2 < beat * beat * (1 - 1e-9) && !st.max_edge_stretch_mesh.empty()) continue;
                const double ratio = distance(skinned_[part.edges[e][0]], skinned_[part.edges[e][1]]) / part.bind_length[e];
                if (ratio > st.max_edge_stretch || st.max_edge_stretch_mesh.empty()) {
                    st.max_edge_stretch = ratio;
                    st.max_edge_stretch_mesh = mesh.name;
                    st.max_edge_stretch_vertices = {part.vertices[part.edges[e][0]], part.vertices[part.edges[e][1]]};
                }
            }
            for (size_t i = 0; i < part.vertices.size(); ++i) {
                if (!part.scalp[i]) continue;
                const double d = distance(skinned_[i], clip ? clip_skinned(part, mesh, i) : mesh.positions[part.vertices[i]]);
                if (d > st.max_scalp_displacement || st.max_scalp_mesh.empty()) {
                    st.max_scalp_displacement = d;
                    st.max_scalp_mesh = mesh.name;
                    st.max_scalp_vertex = part.vertices[i];
                    st.max_scalp_chain_share = chain_share(part, i);
                    st.max_scalp_reach = part.hull[i];
                }
            }
        }
        return st;
    }

private:
    static Mat4 pose_matrix(const Pose& p) { return Mat4::from_trs(p.position, p.rotation, {1, 1, 1}); }

    /// Vertex i's share of weight on the chain's bones (the joints the simulation poses).
    static double chain_share(const MeshPart& part, size_t i) {
        double moved = 0;
        for (uint32_t k = part.first[i]; k < part.first[i + 1]; ++k) moved += part.moved_weight[k];
        return part.total[i] > 0 ? moved / part.total[i] : 0.0;
    }

    /// Where the clip's own skinning puts vertex i of `part`: every bone, the chain's too, as the clip
    /// moves it (the pose a game without cloth would show).
    Vec3 clip_skinned(const MeshPart& part, const Mesh& mesh, size_t i) const {
        const Vec3& p = mesh.positions[part.vertices[i]];
        Vec3 sum{};
        double total = 0;
        for (uint32_t k = part.body_first[i]; k < part.body_first[i + 1]; ++k) {
            sum = sum + part.body_weight[k] * clip_->bone[static_cast<size_t>(part.body_node[k])].transform_point(p);
            total += part.body_weight[k];
        }
        for (uint32_t k = part.first[i]; k < part.first[i + 1]; ++k) {
            sum = sum + part.moved_weight[k] * clip_->bone[static_cast<size_t>(part.moved_node[k])].transform_point(p);
            total += part.moved_weight[k];
        }
        return total > 0 ? (1 / total) * sum : p;
    }

    /// The deepest a skinned vertex of `part` (skinned_, model space) sits inside `body` (seen through
    /// `to_frame`) beyond where it was bound in `rest_body` (the body at rest in the frame).
    void penetration(const MeshPart& part, const Mesh& mesh, const StepInput& rest_body, const StepInput& body,
                     const Mat4& to_frame, MeshPoseStats& st) {
        // Deeper than it was bound: the colliders stand for the skin with its mean radius,
        // so a vertex on the skin at the garment's edge may start a little inside.
        std::vector<double>& bound = bind_depth_[part.mesh];
        if (bound.empty()) {
            bound.resize(part.vertices.size());
            for (size_t i = 0; i < part.vertices.size(); ++i) {
                const Vec3 at = to_frame_.transform_point(mesh.positions[part.vertices[i]]);
                bound[i] = deepest_inside(rest_body, std::span(&at, 1)).depth;
            }
        }
        // Only the colliders whose box meets the posed part's can hold a vertex: the rest are
        // left out of this frame (a vertex inside none has depth 0, never past its bind depth).
        constexpr double inf = std::numeric_limits<double>::infinity();
        const size_t blocks = (skinned_.size() + kDepthBlock - 1) / kDepthBlock;
        Vec3 lo{inf, inf, inf}, hi{-inf, -inf, -inf};
        frame_skinned_.resize(skinned_.size());
        block_box_.resize(blocks);
        for (size_t b = 0; b < blocks; ++b) {
            Vec3 blo{inf, inf, inf}, bhi{-inf, -inf, -inf};
            for (size_t i = b * kDepthBlock; i < std::min(skinned_.size(), (b + 1) * kDepthBlock); ++i) {
                const Vec3 v = frame_skinned_[i] = to_frame.transform_point(skinned_[i]);
                // Compared rather than std::fmin/fmax, which are library calls here (a NaN is passed over either way).
                blo = {v.x < blo.x ? v.x : blo.x, v.y < blo.y ? v.y : blo.y, v.z < blo.z ? v.z : blo.z};
                bhi = {v.x > bhi.x ? v.x : bhi.x, v.y > bhi.y ? v.y : bhi.y, v.z > bhi.z ? v.z : bhi.z};
            }
            block_box_[b] = {blo, bhi};
            lo = {blo.x < lo.x ? blo.x : lo.x, blo.y < lo.y ? blo.y : lo.y, blo.z < lo.z ? blo.z : lo.z};
            hi = {bhi.x > hi.x ? bhi.x : hi.x, bhi.y > hi.y ? bhi.y : hi.y, bhi.z > hi.z ? bhi.z : hi.z};
        }
        near_.spheres.clear();
        near_.capsules.clear();
        const auto meets = [](const Vec3& a, const Vec3& b, double r, const Vec3& lo, const Vec3& hi) {
            return std::min(a.x, b.x) - r <= hi.x && std::max(a.x, b.x) + r >= lo.x && std::min(a.y, b.y) - r <= hi.y &&
                   std::max(a.y, b.y) + r >= lo.y && std::min(a.z, b.z) - r <= hi.z && std::max(a.z, b.z) + r >= lo.z;
        };
        for (const SphereCollider& c : body.spheres)
            if (meets(c.centre, c.centre, c.radius, lo, hi)) near_.spheres.push_back(c);
        for (const CapsuleCollider& c : body.capsules)
            if (meets(c.a, c.b, c.radius, lo, hi)) near_.capsules.push_back(c);
        if (near_.spheres.empty() && near_.capsules.empty()) return;
        for (size_t b = 0; b < blocks; ++b) {
            // A block's vertices are tested only against the colliders its own box meets, widened past
            // may_be_deeper's reach and any rounding of a surface distance (a millionth of the radius
            // and a nanometre): a collider left out has every vertex of the block farther than that
            // from its core, where may_be_deeper says no and deepest_inside finds no depth, so each
            // vertex's result is the one the whole frame's colliders give, bit for bit.
            const auto& [blo, bhi] = block_box_[b];
            block_near_.spheres.clear();
            block_near_.capsules.clear();
            for (const SphereCollider& c : near_.spheres)
                if (meets(c.centre, c.centre, c.radius * (1 + 1e-6) + 1e-9, blo, bhi)) block_near_.spheres.push_back(c);
            for (const CapsuleCollider& c : near_.capsules)
                if (meets(c.a, c.b, c.radius * (1 + 1e-6) + 1e-9, blo, bhi)) block_near_.capsules.push_back(c);
            if (block_near_.spheres.empty() && block_near_.capsules.empty()) continue;
            for (size_t i = b * kDepthBlock; i < std::min(skinned_.size(), (b + 1) * kDepthBlock); ++i)
                vertex_depth(part, mesh, i, bound[i], st);
        }
    }

    /// Vertex i of `part` (frame_skinned_[i]) against block_near_: its depth past `bound` into st.
    void vertex_depth(const MeshPart& part, const Mesh& mesh, size_t i, double bound, MeshPoseStats& st) const {
        // A scalp / waistband vertex is the body's end of the root blend, held by SCALP_DISPLACEMENT; a
        // body mesh's vertex a hair joint weights a little is the body's (docs/validation.md#render-vertex-penetration).
        if (part.scalp[i]) return;
        // Measured only where it may beat what this frame found, past the bind depth or past its hull.
        const double beat = std::min(*st.max_penetration, std::max(0.0, part.hull[i] + *st.max_penetration_past_hull));
        if (!may_be_deeper(block_near_, frame_skinned_[i], bound + beat)) return;
        const double d = deepest_inside(block_near_, std::span(&frame_skinned_[i], 1)).depth - bound;
        if (d > *st.max_penetration) {
            st.max_penetration = d;
            st.max_penetration_mesh = mesh.name;
            st.max_penetration_vertex = part.vertices[i];
        }
        // Past its own hull: how much deeper than the chain's particles, kept outside, can carry it.
        if (d > 0 && d - part.hull[i] > *st.max_penetration_past_hull) {
            st.max_penetration_past_hull = d - part.hull[i];
            st.max_penetration_past_hull_mesh = mesh.name;
            st.max_penetration_past_hull_vertex = part.vertices[i];
        }
    }

    void collect_mesh() {
        for (size_t m = 0; m < scene_.meshes.size(); ++m) {
            const Mesh& mesh = scene_.meshes[m];
            if (!is_skinned(mesh)) continue;
            const size_t n = mesh.positions.size();
            std::vector<double> moving_share(n, 0.0), total(n, 0.0);
            for (size_t v = 0; v < n; ++v)
                for (const BoneWeight& bw : influences(scene_, mesh, static_cast<uint32_t>(v))) {
                    total[v] += bw.weight;
                    if (mover_[static_cast<size_t>(bw.bone)] >= 0) moving_share[v] += bw.weight;
                }
            MeshPart part;
            part.mesh = static_cast<int>(m);
            std::vector<uint8_t> in_part(n, 0);
            std::vector<std::array<uint32_t, 2>> edges;
            for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
                const uint32_t tri[3] = {mesh.indices[t], mesh.indices[t + 1], mesh.indices[t + 2]};
                if (!(moving_share[tri[0]] > 0 || moving_share[tri[1]] > 0 || moving_share[tri[2]] > 0)) continue;
                for (int k = 0; k < 3; ++k) {
                    in_part[tri[k]] = 1;
                    const uint32_t a = tri[k], b = tri[(k + 1) % 3];
                    edges.push_back({std::min(a, b), std::max(a, b)});
                }
            }
            if (edges.empty()) continue;
            std::vector<uint32_t> local(n, 0);
            for (uint32_t v = 0; v < n; ++v)
                if (in_part[v] && is_finite(mesh.positions[v])) {
                    local[v] = static_cast<uint32_t>(part.vertices.size());
                    part.vertices.push_back(v);
                    const double body = total[v] > 0 ? 1 - moving_share[v] / total[v] : 1;
                    part.scalp.push_back(body >= kScalpBodyShare);
                    scalp_ += body >= kScalpBodyShare;
                    flatten(part, mesh, v, body < kScalpBodyShare);
                }
            part.first.push_back(static_cast<uint32_t>(part.moved_joint.size()));
            part.body_first.push_back(static_cast<uint32_t>(part.body_node.size()));
            part.terms.build(joints_.size());
            std::sort(edges.begin(), edges.end());  // (a, b) pairs: the order is total, no tie to break
            edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
            for (const auto& e : edges) {
                if (!is_finite(mesh.positions[e[0]]) || !is_finite(mesh.positions[e[1]])) continue;
                const double length = distance(mesh.positions[e[0]], mesh.positions[e[1]]);
                if (!(length > 1e-9)) continue;  // a welded seam's zero-length edge has no stretch to measure
                part.edges.push_back({local[e[0]], local[e[1]]});
                part.bind_length.push_back(length);
            }
            vertices_ += static_cast<uint32_t>(part.vertices.size());
            edges_ += static_cast<uint32_t>(part.edges.size());
            parts_.push_back(std::move(part));
        }
    }

    /// Vertex `v`'s skinning into `part`'s flat arrays; for a vertex mostly on the chain (`garment`),
    /// its bind distance from the nearest segment of a joint that moves it widens hull_radius_.
    void flatten(MeshPart& part, const Mesh& mesh, uint32_t v, bool garment) {
        const Vec3& p = mesh.positions[v];
        Vec3 fixed{};
        double total = 0, nearest = INFINITY;
        part.first.push_back(static_cast<uint32_t>(part.moved_joint.size()));
        part.body_first.push_back(static_cast<uint32_t>(part.body_node.size()));
        for (const BoneWeight& bw : influences(scene_, mesh, v)) {
            total += bw.weight;
            const int j = mover_[static_cast<size_t>(bw.bone)];
            if (j < 0) {
                fixed = fixed + static_cast<double>(bw.weight) * p;
                part.body_node.push_back(bw.bone);
                part.body_weight.push_back(bw.weight);
                continue;
            }
            part.moved_joint.push_back(static_cast<uint32_t>(j));
            part.moved_weight.push_back(bw.weight);
            part.terms.add(static_cast<uint32_t>(j), bw.weight, p);
            part.moved_node.push_back(bw.bone);
            const PosedJoint& pj = joints_[static_cast<size_t>(j)];
            const Vec3 a = rest_[pj.particle], b = pj.next == no_particle ? a : rest_[pj.next];
            const Vec3 ab = b - a;
            const double len2 = dot(ab, ab);
            const double t = len2 > 0 ? std::clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
            nearest = std::min(nearest, distance(p, a + t * ab));
        }
        if (!(total > 0)) {  // unweighted: stays at bind
            fixed = p;
            total = 1;
        }
        part.fixed.push_back(fixed);
        part.total.push_back(total);
        part.inverse_total.push_back(1 / total);
        part.hull.push_back(std::isfinite(nearest) ? nearest : 0.0);
        if (garment && std::isfinite(nearest)) hull_radius_ = std::max(hull_radius_, nearest);
    }

    /// Linear blend skinning of every vertex of `part` into skinned_ (scene/skinning.h's blend, flattened).
    void skin(MeshPart& part, const Mesh& mesh) {
        part.terms.apply(skinning_);
        skinned_.resize(part.vertices.size());
        for (size_t i = 0; i < part.vertices.size(); ++i) {
            const Vec3& p = mesh.positions[part.vertices[i]];
            Vec3 sum = part.fixed[i];
            if (clip_) {  // the body's bones where the clip has them
                sum = Vec3{};
                for (uint32_t k = part.body_first[i]; k < part.body_first[i + 1]; ++k)
                    sum = sum + part.body_weight[k] * clip_->bone[static_cast<size_t>(part.body_node[k])].transform_point(p);
                if (part.body_first[i] == part.body_first[i + 1] && part.first[i] == part.first[i + 1]) sum = p;  // unweighted
            }
            for (uint32_t k = part.first[i]; k < part.first[i + 1]; ++k) sum = sum + part.terms.term(k);
            skinned_[i] = part.inverse_total[i] * sum;
        }
    }

    /// Each posed joint's skinning matrix: T(x)·R·T(−b), its posed world times its inverse bind;
    /// `world` takes the particles from the frame to model space.
    void pose(const std::vector<Vec3>& x, const Mat4& world) {
        std::vector<Vec3> p(x.size());
        for (size_t i = 0; i < x.size(); ++i) p[i] = world.transform_point(x[i]);
        turn_.assign(joints_.size(), Quat{});
        std::vector<uint8_t> has_turn(joints_.size(), 0);
        for (size_t j = 0; j < joints_.size(); ++j) {
            const PosedJoint& pj = joints_[j];
            if (pj.next == no_particle) continue;
            const Vec3 bind_segment = rest_[pj.next] - rest_[pj.particle];
            const Vec3 posed_segment = p[pj.next] - p[pj.particle];
            if (!(length(bind_segment) > 0) || !(length(posed_segment) > 0)) continue;
            turn_[j] = Quat::between(bind_segment, posed_segment);
            has_turn[j] = 1;
        }
        // An end joint has no segment of its own: it turns as the joint before it.
        for (size_t j = 0; j < joints_.size(); ++j)
            if (!has_turn[j])
                for (int q = joints_[j].previous; q >= 0; q = joints_[static_cast<size_t>(q)].previous)
                    if (has_turn[static_cast<size_t>(q)]) {
                        turn_[j] = turn_[static_cast<size_t>(q)];
                        break;
                    }
        skinning_.resize(joints_.size());
        for (size_t j = 0; j < joints_.size(); ++j) {
            const Vec3 b = rest_[joints_[j].particle];
            skinning_[j] = Mat4::from_trs(p[joints_[j].particle], turn_[j], {1, 1, 1}) * Mat4::translation(-1.0 * b);
        }
    }

    const Scene& scene_;
    const ClothProxy& proxy_;
    const Mat4 frame_;
    std::vector<PosedJoint> joints_;
    std::vector<int> joint_of_node_;
    std::vector<int> mover_;
    std::vector<Vec3> rest_;      ///< scene space, bind pose
    std::vector<MeshPart> parts_;
    uint32_t vertices_ = 0, edges_ = 0, scalp_ = 0;
    std::vector<Quat> turn_;
    std::vector<Mat4> skinning_;
    std::vector<Vec3> skinned_;
    const Mat4 to_frame_ = frame_.inverted();
    const Mat4 rest_frame_ = pose_matrix(rest_frame_pose(proxy_));   ///< frame_'s rigid part (what the solver's frame is)
    const Mat4 rest_frame_inverse_ = rest_frame_.inverted();
    const ClipBody* clip_ = nullptr;   ///< the clip's body while measuring a clip step
    std::map<int, std::vector<double>> bind_depth_;  ///< per mesh part, each vertex's depth in the body at bind
    std::vector<Vec3> frame_skinned_;  ///< skinned_ in the frame
    StepInput near_;                   ///< the body colliders a frame's posed part can reach
    /// Vertices are tested for depth in blocks of this many (consecutive in the part, so mostly
    /// neighbours in the mesh), each against only the colliders its posed box meets.
    static constexpr size_t kDepthBlock = 32;
    std::vector<std::pair<Vec3, Vec3>> block_box_;  ///< per block, its posed box in the frame
    StepInput block_near_;             ///< the colliders the current block's box meets
    double hull_radius_ = 0;           ///< metres, see hull_radius()
};

/// Folds one frame's measurement into its scenario's worst frame.
void fold_mesh_frame(const MeshPoseStats& st, Scenario scenario, MeshPoseStats& worst) {
    // Hang's mesh is measured where it settled (its last frame): what it asks is whether the garment
    // comes back whole. Every other scenario keeps its worst frame.
    const bool first = worst.step == 0 || scenario == Scenario::hang;
    if (first || st.max_scalp_displacement > worst.max_scalp_displacement) {
        worst.max_scalp_displacement = st.max_scalp_displacement;
        worst.max_scalp_mesh = st.max_scalp_mesh;
        worst.max_scalp_vertex = st.max_scalp_vertex;
        worst.max_scalp_step = st.step;
        worst.max_scalp_chain_share = st.max_scalp_chain_share;
        worst.max_scalp_reach = st.max_scalp_reach;
    }
    if (st.max_penetration && (!worst.max_penetration || *st.max_penetration > *worst.max_penetration)) {
        worst.max_penetration = st.max_penetration;
        worst.max_penetration_mesh = st.max_penetration_mesh;
        worst.max_penetration_vertex = st.max_penetration_vertex;
        worst.max_penetration_step = st.step;
    }
    if (st.max_penetration_past_hull &&
        (!worst.max_penetration_past_hull || *st.max_penetration_past_hull > *worst.max_penetration_past_hull)) {
        worst.max_penetration_past_hull = st.max_penetration_past_hull;
        worst.max_penetration_past_hull_mesh = st.max_penetration_past_hull_mesh;
        worst.max_penetration_past_hull_vertex = st.max_penetration_past_hull_vertex;
    }
    if (first || st.max_edge_stretch > worst.max_edge_stretch) {
        worst.step = st.step;
        worst.max_edge_stretch = st.max_edge_stretch;
        worst.max_edge_stretch_mesh = st.max_edge_stretch_mesh;
        worst.max_edge_stretch_vertices = st.max_edge_stretch_vertices;
    }
}

/// The skinned mesh measured at every scripted step of every scenario, riding on validate_proxy's one
/// run (its StepObserver): per scenario, the frame whose mesh stretches most, with the worst scalp
/// displacement and render-vertex penetration over every frame. In a clip scenario the body's bones
/// and colliders move as the clip moves them (docs/validation.md#clips); elsewhere the body stands
/// at bind and the mesh is posed relative to the holders.
class MeshObserver {
public:
    /// `poser` is copied: its scratch (the posed joints, the skinned vertices) is this observer's own,
    /// so observers of different runs may measure side by side.
    MeshObserver(const MeshPoser& poser, const Scene& scene, const ClothProxy& proxy, const BodyShapes* body,
                 const StepInput* rest_body)
        : poser_(poser), scene_(scene), proxy_(proxy), body_(body), rest_body_(rest_body), rest_frame_(rest_frame_pose(proxy)) {}

    /// A run starts (ValidationOptions::run_observer): its clip, if it plays one.
    void start(const ScenarioRun& run, const ValidationOptions& options) {
        out_.emplace_back();
        out_.back().scenario = run.scenario;
        relative_.clear();
        key_ = -1;
        clip_ = run.scenario == Scenario::clip && run.clip < options.clips.size() ? &options.clips[run.clip] : nullptr;
        if (!clip_) return;
        out_.back().clip = clip_->name;
        binding_ = bind_clip(*clip_, proxy_, body_);
        node_in_clip_.assign(scene_.nodes.size(), -1);
        for (size_t n = 0; n < scene_.nodes.size(); ++n) {
            const auto it = std::find(clip_->nodes.begin(), clip_->nodes.end(), scene_.nodes[n].name);
            if (it != clip_->nodes.end()) node_in_clip_[n] = static_cast<int>(it - clip_->nodes.begin());
        }
        clip_body_.bone.assign(scene_.nodes.size(), Mat4{});
    }

    void operator()(Scenario scenario, uint32_t step, const Pose& holders, const ClothState& state) {
        if (out_.empty() || out_.back().scenario != scenario) {  // a run start() was not told of: no clip
            out_.emplace_back();
            out_.back().scenario = scenario;
            relative_.clear();
            clip_ = nullptr;
        }
        if (!std::all_of(state.x.begin(), state.x.end(), [](const Vec3& v) { return is_finite(v); })) return;
        if (clip_) {
            measure_clip_step(step, state);
        } else {
            now_.resize(state.x.size());
            for (size_t i = 0; i < state.x.size(); ++i) now_[i] = holders.rotation.conjugate().rotate(state.x[i] - holders.position);
            // Asleep or held still, the cloth did not move relative to the body: the same pose, measured once.
            if (now_ != relative_) {
                relative_.swap(now_);
                last_ = poser_.measure(relative_, step, rest_body_);
            }
        }
        MeshPoseStats st = last_;
        st.step = step;
        st.scenario = scenario;
        fold_mesh_frame(st, scenario, out_.back());
        if (stop_) watch_gates(out_.back(), step);
    }

    /// The run's early exit (docs/validation.md#early-exit) at the mesh gates' limits for this run (the
    /// near-pose ones in hang and idle, the motion ones elsewhere; PENETRATION's in metres, 0: no body).
    void stop_at(RunStop& stop, double stretch, double scalp, double penetration) {
        stop_ = &stop;
        stretch_limit_ = stretch;
        scalp_limit_ = scalp;
        penetration_limit_ = penetration;
    }

    /// Per scenario run, in order; a scenario that went non-finite at its first step has none.
    std::vector<MeshPoseStats> take() {
        std::erase_if(out_, [](const MeshPoseStats& st) { return st.step == 0; });
        return std::move(out_);
    }

private:
    /// A worst over every frame past its limit has failed for good. Hang's stretch and scalp are its
    /// last frame's, which a later frame may bring back: only its depth is a worst.
    void watch_gates(const MeshPoseStats& worst, uint32_t step) {
        if (worst.scenario != Scenario::hang) {
            if (worst.max_edge_stretch > stretch_limit_) stop_->fail("MESH_STRETCH", step);
            if (worst.max_scalp_displacement > scalp_limit_) stop_->fail("SCALP_DISPLACEMENT", step);
        }
        if (worst.max_penetration && *worst.max_penetration > penetration_limit_) stop_->fail("PENETRATION", step);
    }

    /// Scripted step `step` (1-based) of a clip run: the clip's pose of every bone and collider at that
    /// step, as the solver's run placed the frame, holders and colliders (clip_step, place_clip_step).
    void measure_clip_step(uint32_t step, const ClothState& state) {
        const uint32_t s = step - 1;
        const uint32_t frames = static_cast<uint32_t>(clip_->frames.size());
        // The clip's frame this step shows: holding the last frame, the body stands still.
        const int64_t key = s < clip_blend_steps || frames == 0 ? s : clip_blend_steps + std::min(s - clip_blend_steps, frames - 1);
        if (key == key_ && state.x == relative_) return;
        key_ = key;
        relative_ = state.x;
        const std::vector<Pose> motion = clip_step(*clip_, s);
        StepInput in;
        place_clip_step(motion, binding_, rest_frame_, body_, in, colliders_);
        clip_body_.frame = in.frame;
        clip_body_.colliders = body_ ? &colliders_ : nullptr;
        for (size_t n = 0; n < node_in_clip_.size(); ++n) {
            const int k = node_in_clip_[n];
            clip_body_.bone[n] = k >= 0 && static_cast<size_t>(k) < motion.size()
                                     ? Mat4::from_trs(motion[static_cast<size_t>(k)].position, motion[static_cast<size_t>(k)].rotation, {1, 1, 1})
                                     : Mat4{};
        }
        last_ = poser_.measure(state.x, step, rest_body_, &clip_body_);
    }

    MeshPoser poser_;
    const Scene& scene_;
    const ClothProxy& proxy_;
    const BodyShapes* body_;        // the body at rest in the frame, as validate_proxy runs it; none without one
    const StepInput* rest_body_;    // the same placed at rest
    const Pose rest_frame_;
    std::vector<MeshPoseStats> out_;
    std::vector<Vec3> relative_, now_;  // the last pose measured (particles relative to the holders; a clip's: in its frame), this step's
    MeshPoseStats last_;                // what the last pose measured
    // The clip this run plays, if any.
    const ClipMotion* clip_ = nullptr;
    ClipBinding binding_;
    std::vector<int> node_in_clip_;     // per scene node, its node in clip_ (-1: the clip leaves it at bind)
    ClipBody clip_body_;
    StepInput colliders_;
    int64_t key_ = -1;                  // the clip frame last measured
    RunStop* stop_ = nullptr;           // the run's early exit; none: measure every step
    double stretch_limit_ = 0, scalp_limit_ = 0, penetration_limit_ = 0;
};

/// One mesh gate: `value` against `limit`; `what` says what was measured and where, `failure` what a
/// failure means.
MeshGateResult mesh_gate(const char* gate, const MeshPoseStats& st, double value, double limit, std::string what,
                         const char* failure) {
    MeshGateResult g;
    g.gate = gate;
    g.scenario = st.scenario;
    g.clip = st.clip;
    g.value = value;
    g.limit = limit;
    g.passed = value <= limit;
    g.message = std::move(what);
    if (!g.passed) g.message += failure;
    return g;
}

MeshGateResult stretch_gate(const std::string& garment, const MeshPoseStats& st, double limit) {
    std::string what = format_text("garment '%s' %s (step %u): worst garment edge %.4fx its bind length (limit %.2f)",
                                   garment.c_str(), scenario_label(st.scenario, st.clip).c_str(), st.step,
                                   st.max_edge_stretch, limit);
    if (!st.max_edge_stretch_mesh.empty())
        what += format_text(", mesh '%s' vertices %u-%u", st.max_edge_stretch_mesh.c_str(), st.max_edge_stretch_vertices[0],
                            st.max_edge_stretch_vertices[1]);
    what += format_text("; scalp/waistband moved %.2f mm", st.max_scalp_displacement * 1000);
    return mesh_gate("MESH_STRETCH", st, st.max_edge_stretch, limit, std::move(what),
                     ": the skinned mesh tears; check the grown weights or the chain's rows");
}

MeshGateResult scalp_gate(const std::string& garment, const MeshPoseStats& st, double limit) {
    std::string what = format_text("garment '%s' %s: scalp/waistband moved %.2f mm from its bind position (limit %.2f mm)",
                                   garment.c_str(), scenario_label(st.scenario, st.clip).c_str(),
                                   st.max_scalp_displacement * 1000, limit * 1000);
    if (!st.max_scalp_mesh.empty()) what += format_text(", mesh '%s' vertex %u", st.max_scalp_mesh.c_str(), st.max_scalp_vertex);
    // Two things move a vertex mostly on the body: the chain's held end sliding, or a turn of the chain
    // carrying skin the weights give it, by as far as that skin lies from the chain
    // (docs/validation.md#scalp-displacement). The failure names the vertex's share and lever.
    const std::string failure =
        st.max_scalp_mesh.empty()
            ? std::string(": the held end of the garment slides off the body; check the root blend's weights")
            : format_text(": the held end of the garment slides off the body, or a turn of the chain carries body skin "
                          "weighted to it (this vertex: %.0f%% on the chain's bones, %.0f mm from the nearest); "
                          "check the weights (the root blend's, or the file's on an authored chain)",
                          st.max_scalp_chain_share * 100, st.max_scalp_reach * 1000);
    return mesh_gate("SCALP_DISPLACEMENT", st, st.max_scalp_displacement, limit, std::move(what), failure.c_str());
}

MeshGateResult render_penetration_gate(const std::string& garment, const MeshPoseStats& st, double limit) {
    std::string what = format_text("garment '%s' %s: a render vertex sank %.2f mm deeper into a body collider than it was "
                                   "bound (limit %.2f mm)",
                                   garment.c_str(), scenario_label(st.scenario, st.clip).c_str(), *st.max_penetration * 1000,
                                   limit * 1000);
    if (!st.max_penetration_mesh.empty())
        what += format_text(", mesh '%s' vertex %u", st.max_penetration_mesh.c_str(), st.max_penetration_vertex);
    return mesh_gate("PENETRATION", st, *st.max_penetration, limit, std::move(what),
                     ": the skin round the chain cuts the body; check the chain's collision radius "
                     "(docs/proxy.md#collision-radius) and the colliders (docs/colliders.md)");
}

}  // namespace

bool RigProxyValidation::passed() const {
    if (!solver.passed()) return false;
    return std::all_of(mesh_gates.begin(), mesh_gates.end(), [](const MeshGateResult& g) { return g.passed; });
}

bool RigModelValidation::passed() const {
    return std::all_of(proxies.begin(), proxies.end(), [](const RigProxyValidation& p) { return p.passed(); });
}

struct RigMeshValidator::Impl {
    const std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    const Scene& scene;
    const RigGarment& garment;
    const ValidationOptions& options;
    const RigValidationLimits mesh_limits;
    RigProxyValidation out;
    Fabric fabric;
    std::optional<MeshPoser> poser;
    BodyShapes body;
    StepInput rest_body;
    std::vector<std::unique_ptr<MeshObserver>> meshes;
    std::optional<ProxyValidator> solver;

    Impl(const Scene& sc, const RigGarment& g, const RigBuildResult& built, const ValidationOptions& o,
         const RigValidationLimits& limits, const std::string& file)
        : scene(sc), garment(g), options(o), mesh_limits(limits) {
        out.garment = garment.name;
        if (!built.proxy) {
            out.solver.garment = garment.name;
            out.solver.kind = "rig";
            out.solver.refused = Refusal{"NOT_BUILT", scene.source_path + ": garment '" + garment.name + "' has no rig proxy to validate"};
            return;
        }
        const ClothProxy& proxy = *built.proxy;
        fabric = options.fabric ? *options.fabric : suggested_fabric(proxy);
        poser.emplace(scene, garment, built);
        out.mesh_vertices = poser->vertex_count();
        out.mesh_edges = poser->edge_count();
        out.scalp_vertices = poser->scalp_count();
        out.hull_radius = poser->hull_radius();
        // The body as validate_proxy places it, at rest in the frame: the mesh is posed relative to the holders.
        body = body_clear_of_rest(body_in_frame(options.body, proxy), proxy, fabric.thickness);
        place_body(body, Pose{}, rest_body);
        // One run: the solver's scenarios with the mesh observed at every step (docs/validation.md#the-skinned-mesh-of-a-rig-proxy),
        // each scenario by an observer of its own, so scenarios may run side by side (ValidationOptions::spare).
        // The options as given (their observers run first), this mesh's observer added per run.
        const auto observe_mesh = [this, &proxy](const ScenarioRun& run, RunStop& stop) -> StepObserver {
            MeshObserver& mesh = *meshes.emplace_back(std::make_unique<MeshObserver>(
                *poser, scene, proxy, options.body.empty() ? nullptr : &body, options.body.empty() ? nullptr : &rest_body));
            mesh.start(run, options);
            // The limits finish() gates this run's mesh against.
            const bool near_pose = run.scenario == Scenario::hang || run.scenario == Scenario::idle;
            mesh.stop_at(stop, near_pose ? mesh_limits.max_mesh_stretch : mesh_limits.max_motion_mesh_stretch,
                         near_pose ? mesh_limits.max_scalp_displacement : mesh_limits.max_motion_scalp_displacement,
                         options.body.empty() ? std::numeric_limits<double>::infinity()
                                              : options.limits.max_penetration * fabric.thickness);
            return [&mesh](Scenario scenario, uint32_t step, const Pose& holders, const ClothState& state) {
                mesh(scenario, step, holders, state);
            };
        };
        solver.emplace(proxy, options, file, observe_mesh);
    }

    void finish() {
        out.solver = solver->finish();
        if (out.solver.refused) return;
        for (std::unique_ptr<MeshObserver>& mesh : meshes)
            for (MeshPoseStats& st : mesh->take()) out.poses.push_back(std::move(st));
        if (!options.body.empty()) out.render_penetration_limit = options.limits.max_penetration * fabric.thickness;
        for (const MeshPoseStats& st : out.poses) {
            if (st.scenario == Scenario::hang && !out.hang) out.hang = st;
            if (st.scenario == Scenario::idle && !out.idle) out.idle = st;
            // Every scenario is gated; hang's end and idle, where the garment is near its pose, against the
            // near-pose limits, every other (driven) scenario against the motion limits
            // (docs/validation.md#mesh-stretch, docs/validation.md#scalp-displacement).
            const bool near_pose = st.scenario == Scenario::hang || st.scenario == Scenario::idle;
            const size_t first = out.mesh_gates.size();
            out.mesh_gates.push_back(stretch_gate(garment.name, st,
                                                  near_pose ? mesh_limits.max_mesh_stretch : mesh_limits.max_motion_mesh_stretch));
            out.mesh_gates.push_back(scalp_gate(
                garment.name, st,
                near_pose ? mesh_limits.max_scalp_displacement : mesh_limits.max_motion_scalp_displacement));
            // With a body, no render vertex sinks deeper than the particles may: the particles collide at
            // their collision radius, so the skin round them stays out (docs/validation.md#render-vertex-penetration).
            if (st.max_penetration)
                out.mesh_gates.push_back(render_penetration_gate(garment.name, st, out.render_penetration_limit));
            // A run stopped early (docs/validation.md#early-exit): its mesh was judged up to there.
            for (const ScenarioStats& s : out.solver.scenarios)
                if (s.stopped_step && s.scenario == st.scenario && s.clip == st.clip)
                    for (size_t g = first; g < out.mesh_gates.size(); ++g) out.mesh_gates[g].message += stopped_note(s);
        }
    }
};

RigMeshValidator::RigMeshValidator(const Scene& scene, const RigGarment& garment, const RigBuildResult& built,
                                   const ValidationOptions& options, const RigValidationLimits& mesh_limits,
                                   const std::string& file)
    : impl_(std::make_unique<Impl>(scene, garment, built, options, mesh_limits, file)) {}

RigMeshValidator::~RigMeshValidator() = default;
RigMeshValidator::RigMeshValidator(RigMeshValidator&&) noexcept = default;
RigMeshValidator& RigMeshValidator::operator=(RigMeshValidator&&) noexcept = default;

void RigMeshValidator::add_runs(RunList& list) {
    if (!impl_->solver) return;
    // A step poses the skinned mesh as well as solving the particles: its vertices weigh in at a
    // rough 1:32 (a skinned vertex is a few dozen operations, a particle's sweeps a few thousand).
    impl_->solver->add_runs(list, impl_->out.solver.particles + impl_->out.mesh_vertices / 32.0);
}

RigProxyValidation RigMeshValidator::finish() {
    Impl& d = *impl_;
    if (d.solver) d.finish();
    d.out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - d.t0).count();
    return std::move(d.out);
}

RigProxyValidation validate_rig_mesh(const Scene& scene, const RigGarment& garment, const RigBuildResult& built,
                                     const ValidationOptions& options, const RigValidationLimits& mesh_limits,
                                     const std::string& file) {
    RunList list;  // before the validator: its solvers' threads hold the list's slots until they end
    RigMeshValidator validator(scene, garment, built, options, mesh_limits, file);
    validator.add_runs(list);
    list.run(options.spare);
    return validator.finish();
}

}  // namespace weft

#pragma GCC diagnostic pop
