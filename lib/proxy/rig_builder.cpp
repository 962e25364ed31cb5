#include "proxy/rig_builder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "scene/bind_pose.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"
#include "graph/geodesic.h"
#include "proxy/colour_permute.h"
#include "proxy/proxy_frame.h"
#include "proxy/rig_codes.h"
#include "fabric/fabric.h"

namespace weft {
namespace {

void add_issue(Issues& issues, const IssueCode& code, std::string message, std::string pointer = {}) {
    issues.push_back(make_issue(code, std::move(message), std::move(pointer)));
}

/// One particle before the colour permutation.
struct Particle {
    int node = -1;        ///< -1 for a tip
    Vec3 scene_position;  ///< bind pose, scene space
    bool held = false;
};

class RigBuilder {
public:
    RigBuilder(const Scene& scene, const RigGarment& garment, const RigOptions& options, RigBuildResult& result)
        : scene_(scene), garment_(garment), options_(options), result_(result),
          where_(scene.source_path + ": garment '" + garment.name + "'") {}

    void run() {
        if (!check_chains()) return;
        const std::string fabric = options_.fabric.empty() ? std::string(fabric_for_rig_class(garment_.garment_class))
                                                           : options_.fabric;
        // Mass is the material's: a cape on bones weighs what its cloth does, whatever moves it.
        const std::string material = options_.fabric.empty() ? std::string(fabric_for_garment_class(garment_.garment_class))
                                                             : options_.fabric;
        const std::optional<double> density =
            options_.areal_density ? options_.areal_density : fabric_areal_density(material);
        if (!density || !(*density >= 0) || !std::isfinite(*density)) {
            add_issue(result_.issues, kRigUnknownFabric,
                      where_ + ": fabric '" + fabric + "' is not in the library (" + fabric_library_names() + ")");
            return;
        }
        make_particles();
        if (!make_rows()) return;
        if (!make_frame()) return;
        carry(*density);
        assign_masses();
        finish(fabric, *density);
    }

private:
    // ---- chains ---------------------------------------------------------------------------------

    bool check_chains() {
        if (garment_.chains.empty()) {
            add_issue(result_.issues, kRigEmpty, where_ + " has no chain to build a rig proxy from");
            return false;
        }
        hanging_.assign(garment_.chains.size(), -1);
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            const RigChain& chain = garment_.chains[c];
            const std::string which = where_ + " chain '" + chain.name + "'";
            if (chain.joints.empty()) {
                add_issue(result_.issues, kRigEmpty, which + " has no joint");
                return false;
            }
            for (size_t k = 0; k < chain.joints.size(); ++k) {
                const int j = chain.joints[k];
                if (!has_node(scene_, j)) {
                    add_issue(result_.issues, kRigJointInvalid,
                              which + ": joint " + std::to_string(k) + " names node " + std::to_string(j) + " of " +
                                  std::to_string(scene_.nodes.size()));
                    return false;
                }
                if (!bind_world(scene_, j).is_finite()) {
                    add_issue(result_.issues, kRigNonFinite,
                              which + ": joint '" + scene_.nodes[static_cast<size_t>(j)].name +
                                  "' has a NaN or infinite bind transform",
                              "/nodes/" + scene_.nodes[static_cast<size_t>(j)].name);
                    return false;
                }
                if (k > 0 && !is_below(scene_, j, chain.joints[k - 1])) {
                    add_issue(result_.issues, kRigChainBroken,
                              which + ": joint '" + scene_.nodes[static_cast<size_t>(j)].name + "' does not hang below '" +
                                  scene_.nodes[static_cast<size_t>(chain.joints[k - 1])].name +
                                  "'; a chain runs root to tip down the hierarchy",
                              "/nodes/" + scene_.nodes[static_cast<size_t>(j)].name);
                    return false;
                }
            }
            int parent = chain.parent >= 0 ? chain.parent : scene_.nodes[static_cast<size_t>(chain.joints.front())].parent;
            if (chain.parent >= 0 && !has_node(scene_, chain.parent)) {
                add_issue(result_.issues, kRigJointInvalid,
                          which + ": hangs from node " + std::to_string(chain.parent) + " of " + std::to_string(scene_.nodes.size()));
                return false;
            }
            if (has_node(scene_, parent) && !bind_world(scene_, parent).is_finite()) {
                add_issue(result_.issues, kRigNonFinite,
                          which + ": the bone it hangs from, '" + scene_.nodes[static_cast<size_t>(parent)].name +
                              "', has a NaN or infinite bind transform");
                return false;
            }
            hanging_[c] = has_node(scene_, parent) ? parent : -1;
        }
        // A chain hanging from a joint of this garment continues that chain: the joint is the
        // cloth's to write, so it cannot also be a bone the cloth only reads.
        std::set<int> joints;
        for (const RigChain& chain : garment_.chains) joints.insert(chain.joints.begin(), chain.joints.end());
        for (int& h : hanging_)
            if (h >= 0 && joints.count(h)) h = -2;  // linked to that joint's particle, not held
        return true;
    }

    // ---- particles --------------------------------------------------------------------------------

    uint32_t particle_for_node(int node, bool held) {
        auto it = particle_of_node_.find(node);
        if (it != particle_of_node_.end()) {
            particles_[it->second].held = particles_[it->second].held || held;
            return it->second;
        }
        const uint32_t p = static_cast<uint32_t>(particles_.size());
        particles_.push_back({node, bind_world(scene_, node).translation_part(), held});
        particle_of_node_.emplace(node, p);
        return p;
    }

    /// A last joint that weights or carries geometry is a bone with a length, not an end joint: the
    /// chain gets a tip where that geometry ends along the chain's last direction.
    std::optional<Vec3> automatic_tip(size_t c) {
        const RigChain& chain = garment_.chains[c];
        if (chain.ends_in_end_joint) return std::nullopt;
        const int last = chain.joints.back();
        const int before = chain.joints.size() > 1 ? chain.joints[chain.joints.size() - 2] : hanging_[c] >= 0 ? hanging_[c] : -1;
        if (before < 0) return std::nullopt;
        const Vec3 origin = bind_world(scene_, last).translation_part();
        const Vec3 dir = normalize(origin - bind_world(scene_, before).translation_part());
        if (length(dir) == 0) return std::nullopt;
        double extent = 0;
        bool carries = false;
        for (const Vec3& x : carried_by(last)) {
            carries = true;
            extent = std::max(extent, dot(x - origin, dir));
        }
        // Less than a millimetre of geometry past the joint: it ends there, as an end joint would.
        if (!carries || extent < 1e-3) return std::nullopt;
        return origin + dir * extent;
    }

    void make_particles() {
        sequences_.resize(garment_.chains.size());
        result_.chains.resize(garment_.chains.size());
        // Every node first (bones, then joints, in chain order), tips after: the same node is one
        // particle however many chains pass through it.
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            const RigChain& chain = garment_.chains[c];
            if (hanging_[c] >= 0) sequences_[c].push_back(particle_for_node(hanging_[c], true));
            if (hanging_[c] == -2) {
                const int parent = chain.parent >= 0 ? chain.parent : scene_.nodes[static_cast<size_t>(chain.joints.front())].parent;
                sequences_[c].push_back(particle_for_node(parent, false));
            }
            for (size_t k = 0; k < chain.joints.size(); ++k)
                sequences_[c].push_back(particle_for_node(chain.joints[k], k == 0 && hanging_[c] >= 0));
        }
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            const std::optional<Vec3> tip = garment_.chains[c].tip ? garment_.chains[c].tip : automatic_tip(c);
            RigChainInfo& info = result_.chains[c];
            if (tip) {
                const uint32_t p = static_cast<uint32_t>(particles_.size());
                particles_.push_back({-1, *tip, false});
                sequences_[c].push_back(p);
                info.has_tip = true;
                info.tip = *tip;
                ++result_.stats.tips;
            } else {
                info.tip = bind_world(scene_, garment_.chains[c].joints.back()).translation_part();
            }
        }
    }

    // ---- rows ---------------------------------------------------------------------------------

    std::string particle_text(uint32_t p) const {
        if (particles_[p].node >= 0) return "'" + scene_.nodes[static_cast<size_t>(particles_[p].node)].name + "'";
        return "the tip";
    }

    bool add_row(std::vector<std::array<uint32_t, 2>>& rows, std::set<std::pair<uint32_t, uint32_t>>& seen,
                 uint32_t a, uint32_t b, const std::string& chain) {
        if (a == b) return true;
        auto key = std::minmax(a, b);
        if (!seen.insert({key.first, key.second}).second) return true;
        if (distance(particles_[a].scene_position, particles_[b].scene_position) < 1e-7) {
            add_issue(result_.issues, kRigZeroLengthLink,
                      where_ + " chain '" + chain + "': " + particle_text(a) + " and " + particle_text(b) +
                          " are at one position in the bind pose; move one of them or leave it out of the chain",
                      particles_[b].node >= 0 ? "/nodes/" + scene_.nodes[static_cast<size_t>(particles_[b].node)].name : "");
            return false;
        }
        rows.push_back({a, b});
        return true;
    }

    bool make_rows() {
        std::set<std::pair<uint32_t, uint32_t>> seen_edges, seen_skips;
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            const auto& seq = sequences_[c];
            for (size_t i = 1; i < seq.size(); ++i)
                if (!add_row(edges_, seen_edges, seq[i - 1], seq[i], garment_.chains[c].name)) return false;
        }
        chain_edge_count_ = edges_.size();
        // Neighbouring chains at equal depth (depth 0 = the root joint), tips included.
        for (size_t a = 0; a < garment_.chains.size(); ++a)
            for (size_t b : garment_.chains[a].neighbours) {
                if (b >= garment_.chains.size() || b == a) continue;
                const size_t skip_a = hanging_[a] != -1 ? 1 : 0, skip_b = hanging_[b] != -1 ? 1 : 0;
                const size_t depth = std::min(sequences_[a].size() - skip_a, sequences_[b].size() - skip_b);
                for (size_t d = 0; d < depth; ++d)
                    if (!add_row(edges_, seen_edges, sequences_[a][skip_a + d], sequences_[b][skip_b + d],
                                 garment_.chains[a].name))
                        return false;
            }
        result_.stats.neighbour_links = static_cast<uint32_t>(edges_.size() - chain_edge_count_);
        // docs/solver.md#skip: a skip row from each particle to its grandparent along the chain. A chain
        // held at its root alone can turn about the vertical through that root, and nothing in the
        // step brings that turn to rest (docs/solver.md#hold-line: a single held point has three free turns);
        // the skip from the first free joint to the bone it hangs from is what stops it, by
        // measuring from a second held point off that line. Where the bone lies on the line (within
        // 15 degrees of straight below or above the root: a crown strand over a head bone) the skip
        // only adds a turn of its own about the line through both, so it is left out. Measured: the
        // Witch's crown strand never slept with it and slept at step 293 without; Hair_Long's side
        // strands never slept without it and slept at step 281 with it.
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            const auto& seq = sequences_[c];
            size_t first = 2;
            if (hanging_[c] >= 0 && seq.size() >= 3) {
                const Vec3 offset = particles_[seq[0]].scene_position - particles_[seq[1]].scene_position;
                const double off_line = std::hypot(offset.x, offset.z);
                first = off_line >= 0.5 * length(offset) ? 2 : 3;  // sin 30 degrees
            }
            for (size_t i = first; i < seq.size(); ++i)
                if (!add_row(skips_, seen_skips, seq[i - 2], seq[i], garment_.chains[c].name)) return false;
        }
        return true;
    }

    // ---- frame ------------------------------------------------------------------------------------

    bool make_frame() {
        std::vector<int> hanging;
        for (int h : hanging_)
            if (h >= 0 && std::find(hanging.begin(), hanging.end(), h) == hanging.end()) hanging.push_back(h);
        std::sort(hanging.begin(), hanging.end());
        hanging_bones_ = hanging;
        if (hanging.empty()) {
            add_issue(result_.issues, kRigNothingHeld,
                      where_ + ": no chain hangs from a bone, so nothing holds it and it falls");
            for (const RigChain& chain : garment_.chains) hanging.push_back(chain.joints.front());
        }
        // The nearest skin joint at or above every hanging bone (docs/proxy.md#rig-frame).
        int frame = lowest_common_ancestor(scene_, hanging);
        for (int node : self_and_ancestors(scene_, frame))
            if (is_skin_joint(scene_, node)) {
                frame = node;
                break;
            }
        frame_node_ = has_node(scene_, frame) ? frame : -1;
        frame_world_ = frame_node_ >= 0 ? rigid_part(bind_world(scene_, frame_node_)) : Mat4::identity();
        if (!frame_world_.is_finite()) {
            add_issue(result_.issues, kRigNonFinite,
                      where_ + ": the frame node '" + scene_.nodes[static_cast<size_t>(frame_node_)].name +
                          "' has a degenerate bind transform (no rotation can be read from it)");
            return false;
        }
        return true;
    }

    // ---- what the joints carry ------------------------------------------------------------------

    /// Calls f(heaviest node, position, area share x weight on garment joints) for every vertex some
    /// garment joint weights or carries rigidly... and f(heaviest, x, 0) is never called for others.
    template <typename F>
    void for_each_carried(F&& f) {
        ensure_joint_set();
        for (size_t m = 0; m < scene_.meshes.size(); ++m) {
            const Mesh& mesh = scene_.meshes[m];
            const std::vector<double>& area = vertex_area(m);
            if (is_skinned(mesh)) {
                for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
                    int heaviest = -1;
                    double best = 0;
                    bool touches = false;
                    for (const BoneWeight& bw : influences(scene_, mesh, v)) {
                        if (bw.weight > best || (bw.weight == best && bw.bone < heaviest)) heaviest = bw.bone, best = bw.weight;
                        touches = touches || joint_set_.count(bw.bone);
                    }
                    if (touches && is_finite(mesh.positions[v])) f(heaviest, mesh.positions[v], area[v]);
                }
            } else {
                const int carrier = rigid_carrier(mesh.node);
                if (carrier < 0) continue;
                for (uint32_t v = 0; v < mesh.positions.size(); ++v)
                    if (is_finite(mesh.positions[v])) f(carrier, mesh.positions[v], area[v]);
            }
        }
    }

    /// The positions of the carried vertices whose heaviest node is `node`, in for_each_carried's
    /// order. Grouped in one walk: the tips, hulls and collision radii ask joint by joint, and a walk
    /// of every vertex per joint (joints x vertices) was a fifth of the Witch's bake.
    const std::vector<Vec3>& carried_by(int node) {
        if (!carried_grouped_) {
            for_each_carried([&](int heaviest, const Vec3& x, double) { carried_by_node_[heaviest].push_back(x); });
            carried_grouped_ = true;
        }
        static const std::vector<Vec3> none;
        const auto it = carried_by_node_.find(node);
        return it == carried_by_node_.end() ? none : it->second;
    }

    void ensure_joint_set() {
        if (!joint_set_.empty()) return;
        for (const RigChain& chain : garment_.chains) joint_set_.insert(chain.joints.begin(), chain.joints.end());
    }

    /// The garment joint an unskinned mesh at `node` rides: the first garment joint at or above it,
    /// stopping at a bone the garment hangs from (that geometry is the body's).
    int rigid_carrier(int node) const {
        for (int n : self_and_ancestors(scene_, node)) {
            if (joint_set_.count(n)) return n;
            if (std::find(hanging_.begin(), hanging_.end(), n) != hanging_.end()) return -1;
        }
        return -1;
    }

    const std::vector<double>& vertex_area(size_t m) {
        auto it = vertex_area_.find(m);
        if (it != vertex_area_.end()) return it->second;
        const Mesh& mesh = scene_.meshes[m];
        std::vector<double> area(mesh.positions.size(), 0.0);
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            const uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
            const double s = 0.5 * length(cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]));
            if (!std::isfinite(s)) continue;
            area[a] += s / 3;
            area[b] += s / 3;
            area[c] += s / 3;
        }
        return vertex_area_.emplace(m, std::move(area)).first->second;
    }

    void carry(double density) {
        // Mass by joint: every carried vertex's area share times its weight on that joint.
        std::map<int, double> joint_mass;
        ensure_joint_set();
        for (size_t m = 0; m < scene_.meshes.size(); ++m) {
            const Mesh& mesh = scene_.meshes[m];
            const std::vector<double>& area = vertex_area(m);
            if (is_skinned(mesh)) {
                for (uint32_t v = 0; v < mesh.positions.size(); ++v)
                    for (const BoneWeight& bw : influences(scene_, mesh, v)) {
                        if (!joint_set_.count(bw.bone)) continue;
                        joint_mass[bw.bone] += density * area[v] * bw.weight;
                        result_.stats.carried_area += area[v] * bw.weight;
                    }
            } else if (const int carrier = rigid_carrier(mesh.node); carrier >= 0) {
                for (double a : area) {
                    joint_mass[carrier] += density * a;
                    result_.stats.carried_area += a;
                }
            }
        }
        // Half of a joint's share to its particle, half to the next ones along its chains.
        std::vector<std::set<uint32_t>> next(particles_.size());
        for (const auto& seq : sequences_)
            for (size_t i = 0; i + 1 < seq.size(); ++i)
                if (particles_[seq[i]].node >= 0 && joint_set_.count(particles_[seq[i]].node)) next[seq[i]].insert(seq[i + 1]);
        carried_.assign(particles_.size(), 0.0);
        for (uint32_t p = 0; p < particles_.size(); ++p) {
            auto it = joint_mass.find(particles_[p].node);
            if (particles_[p].node < 0 || it == joint_mass.end()) continue;
            if (next[p].empty()) {
                carried_[p] += it->second;
                continue;
            }
            carried_[p] += it->second / 2;
            for (uint32_t q : next[p]) carried_[q] += it->second / 2 / double(next[p].size());
        }
        // Hulls: per joint, the capsule along its segment round the vertices it weights most.
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            const RigChain& chain = garment_.chains[c];
            RigChainInfo& info = result_.chains[c];
            info.hull_radius.assign(chain.joints.size(), 0.0);
            for (size_t k = 0; k < chain.joints.size(); ++k) {
                const Vec3 a = bind_world(scene_, chain.joints[k]).translation_part();
                const Vec3 b = k + 1 < chain.joints.size()
                                   ? bind_world(scene_, chain.joints[k + 1]).translation_part()
                                   : (info.has_tip ? info.tip : a);
                const Vec3 d = b - a;
                const double len2 = length_squared(d);
                double radius = 0;
                for (const Vec3& x : carried_by(chain.joints[k])) {
                    const double t = len2 > 0 ? std::clamp(dot(x - a, d) / len2, 0.0, 1.0) : 0.0;
                    radius = std::max(radius, distance(x, a + d * t));
                }
                info.hull_radius[k] = radius;
            }
        }
        // Collision radius (docs/proxy.md#collision-radius): how far the skin a joint carries lies from
        // the cloth's own edges round its segment (its chain links and the links to neighbouring
        // chains at either end), given to both particles that end the segment. A panel between two
        // chains lies along the link between them, so only what stands off the cloth's edges counts.
        std::vector<std::vector<uint32_t>> incident(particles_.size());
        for (const auto& e : edges_) {
            incident[e[0]].push_back(e[1]);
            incident[e[1]].push_back(e[0]);
        }
        collision_radius_.assign(particles_.size(), 0.0);
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            const RigChain& chain = garment_.chains[c];
            const std::vector<uint32_t>& seq = sequences_[c];
            const size_t joints = chain.joints.size() + (result_.chains[c].has_tip ? 1 : 0);
            if (seq.size() < joints) continue;
            const size_t first = seq.size() - joints;  // the chain's root joint in seq
            for (size_t k = 0; k < chain.joints.size(); ++k) {
                const uint32_t a = seq[first + k];
                const uint32_t b = first + k + 1 < seq.size() ? seq[first + k + 1] : a;
                double radius = 0;
                for (const Vec3& x : carried_by(chain.joints[k])) {
                    double nearest = distance_to_segment(x, a, b);
                    for (uint32_t end : {a, b})
                        for (uint32_t q : incident[end]) nearest = std::min(nearest, distance_to_segment(x, end, q));
                    radius = std::max(radius, nearest);
                }
                for (uint32_t end : {a, b}) collision_radius_[end] = std::max(collision_radius_[end], radius);
            }
        }
    }

    /// Metres from x to the segment between particles a and b at bind.
    double distance_to_segment(const Vec3& x, uint32_t a, uint32_t b) const {
        const Vec3 pa = particles_[a].scene_position, d = particles_[b].scene_position - pa;
        const double len2 = length_squared(d);
        const double t = len2 > 0 ? std::clamp(dot(x - pa, d) / len2, 0.0, 1.0) : 0.0;
        return distance(x, pa + d * t);
    }

    void assign_masses() {
        // The floor: linear_density times half of every chain link a free particle ends.
        std::vector<double> floor(particles_.size(), 0.0);
        for (size_t e = 0; e < chain_edge_count_; ++e) {
            const double half = 0.5 * distance(particles_[edges_[e][0]].scene_position, particles_[edges_[e][1]].scene_position);
            floor[edges_[e][0]] += options_.linear_density * half;
            floor[edges_[e][1]] += options_.linear_density * half;
        }
        mass_.assign(particles_.size(), 0.0);
        for (uint32_t p = 0; p < particles_.size(); ++p)
            if (!particles_[p].held) mass_[p] = std::max(carried_[p], floor[p]);
    }

    // ---- the proxy ----------------------------------------------------------------------------------

    void finish(const std::string& fabric, double density) {
        const uint32_t n = static_cast<uint32_t>(particles_.size());
        ClothProxy proxy;
        proxy.kind = ProxyKind::rig;
        proxy.garment = garment_.name;
        proxy.garment_class = garment_.garment_class;
        proxy.suggested_fabric = fabric;
        proxy.source_file = scene_.source_path;
        proxy.frame.node = frame_node_ >= 0 ? scene_.nodes[static_cast<size_t>(frame_node_)].name : std::string();
        proxy.frame.rest_world = frame_world_;
        const Mat4 to_frame = frame_world_.inverted();

        const int skin = pick_skin();
        proxy.rest_position.resize(n);
        proxy.inverse_mass.resize(n);
        proxy.source.assign(n, no_source);
        proxy.joint_name.assign(n, std::string());
        std::vector<uint32_t> held;
        for (uint32_t p = 0; p < n; ++p) {
            const Particle& q = particles_[p];
            proxy.rest_position[p] = to_frame.transform_point(q.scene_position);
            proxy.inverse_mass[p] = q.held ? 0.0 : 1.0 / mass_[p];
            proxy.total_mass += mass_[p];
            if (q.held) held.push_back(p);
            if (q.node >= 0) {
                proxy.joint_name[p] = scene_.nodes[static_cast<size_t>(q.node)].name;
                if (skin >= 0) {
                    const auto& joints = scene_.skins[static_cast<size_t>(skin)].joints;
                    auto it = std::find(joints.begin(), joints.end(), q.node);
                    if (it != joints.end()) proxy.source[p] = static_cast<uint32_t>(it - joints.begin());
                }
            }
        }
        proxy.edges = edges_;
        proxy.skips = skips_;
        for (const auto& e : proxy.edges) proxy.rest_length.push_back(distance(proxy.rest_position[e[0]], proxy.rest_position[e[1]]));
        for (const auto& s : proxy.skips)
            proxy.skip_rest_length.push_back(distance(proxy.rest_position[s[0]], proxy.rest_position[s[1]]));

        // One pin per hanging bone: the bone and the chain roots hanging from it.
        for (int bone : hanging_bones_) {
            Pin pin;
            pin.holder = scene_.nodes[static_cast<size_t>(bone)].name;
            pin.particles.push_back(particle_of_node_.at(bone));
            for (size_t c = 0; c < garment_.chains.size(); ++c)
                if (hanging_[c] == bone) pin.particles.push_back(particle_of_node_.at(garment_.chains[c].joints.front()));
            std::sort(pin.particles.begin(), pin.particles.end());
            pin.particles.erase(std::unique(pin.particles.begin(), pin.particles.end()), pin.particles.end());
            proxy.pins.push_back(std::move(pin));
        }

        proxy.collision_radius = collision_radius_;
        for (uint32_t p = 0; p < n; ++p)
            if (particles_[p].held) proxy.collision_radius[p] = 0;

        GeodesicResult geo = geodesic_distance(n, proxy.edges, proxy.rest_length, held);
        proxy.d_geo = std::move(geo.distance);
        proxy.nearest_held = std::move(geo.nearest);

        nlohmann::json chains = nlohmann::json::array();
        for (const RigChain& c : garment_.chains) chains.push_back(c.name);
        proxy.builder_options = nlohmann::json{{"builder", "rig"},
                                               {"fabric", fabric},
                                               {"areal_density", density},
                                               {"linear_density", options_.linear_density},
                                               {"roots", "held"},
                                               {"chains", chains}}
                                    .dump();

        const ColourResult colours = colour_and_permute(proxy);
        if (!colours.error.empty()) {
            add_issue(result_.issues, kRigColouringInvalid,
                      where_ + ": the colouring failed its check (" + colours.error + "). This is a weft bug; please report it.");
            return;
        }
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            RigChainInfo& info = result_.chains[c];
            if (hanging_[c] == -1) info.particles.push_back(no_particle);
            for (uint32_t p : sequences_[c]) info.particles.push_back(colours.new_of_old[p]);
            for (uint32_t p : sequences_[c])
                if (!particles_[p].held) info.mass += mass_[p];
        }

        find_virtual_candidates(colours.new_of_old, to_frame);

        RigStats& s = result_.stats;
        s.particles = n;
        s.held = static_cast<uint32_t>(held.size());
        s.joints = static_cast<uint32_t>(joint_set_.size());
        s.edges = static_cast<uint32_t>(proxy.edges.size());
        s.skips = static_cast<uint32_t>(proxy.skips.size());
        s.pins = static_cast<uint32_t>(proxy.pins.size());
        s.colours = colours.colours;
        s.total_mass = proxy.total_mass;
        for (double d : proxy.d_geo)
            if (std::isfinite(d)) s.max_d_geo = std::max(s.max_d_geo, d);
        result_.proxy = std::move(proxy);
    }

    /// Every skinned vertex wholly on the chain's joints (docs/colliders.md#virtual-particles), once per
    /// joint it is on, with the link it turns with as validation poses that joint: the joint's segment to
    /// the next particle, or for an end joint the segment before it.
    void find_virtual_candidates(const std::vector<uint32_t>& new_of_old, const Mat4& to_frame) {
        std::map<int, std::array<uint32_t, 3>> link_of_joint;  // the first chain through a joint poses it
        for (size_t c = 0; c < garment_.chains.size(); ++c) {
            const RigChain& chain = garment_.chains[c];
            const std::vector<uint32_t>& seq = sequences_[c];
            const size_t joints = chain.joints.size() + (result_.chains[c].has_tip ? 1 : 0);
            if (seq.size() < joints) continue;
            const size_t first = seq.size() - joints;
            for (size_t k = 0; k < chain.joints.size(); ++k) {
                const uint32_t a = seq[first + k];
                std::array<uint32_t, 3> link{a, a, a};
                if (first + k + 1 < seq.size()) link[2] = seq[first + k + 1];
                else if (k > 0) link[1] = seq[first + k - 1];
                if (link[1] != link[2]) link_of_joint.emplace(chain.joints[k], link);
            }
        }
        for (size_t m = 0; m < scene_.meshes.size(); ++m) {
            const Mesh& mesh = scene_.meshes[m];
            if (!is_skinned(mesh)) continue;
            for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
                if (!is_finite(mesh.positions[v])) continue;
                double total = 0, on_chain = 0;
                std::vector<int> joints;  // the chain joints it is on, each once, in the file's order
                for (const BoneWeight& bw : influences(scene_, mesh, v)) {
                    total += bw.weight;
                    if (!link_of_joint.count(bw.bone)) continue;
                    on_chain += bw.weight;
                    if (bw.weight > 0 && std::find(joints.begin(), joints.end(), bw.bone) == joints.end()) joints.push_back(bw.bone);
                }
                // Wholly on the chain: within 1e-4 of all its weight, as a format that stores floats
                // renormalises it. A vertex blended between joints (as growing weights every vertex) is
                // where its joints' rigid rides put it, weighted; so one point per joint, each riding its
                // link: kept out of a convex collider, their blend is too, within the chord's sagitta.
                if (joints.empty() || !(on_chain >= total - 1e-4)) continue;
                for (int joint : joints) {
                    const std::array<uint32_t, 3>& l = link_of_joint.at(joint);
                    VirtualCandidate cand;
                    cand.link = {new_of_old[l[0]], new_of_old[l[1]], new_of_old[l[2]]};
                    cand.rest = to_frame.transform_point(mesh.positions[v]);
                    cand.off_link = distance_to_segment(mesh.positions[v], l[1], l[2]);
                    cand.mesh = static_cast<int>(m);
                    cand.vertex = v;
                    result_.virtual_candidates.push_back(cand);
                }
            }
        }
        std::stable_sort(result_.virtual_candidates.begin(), result_.virtual_candidates.end(),
                         [](const VirtualCandidate& a, const VirtualCandidate& b) { return a.off_link > b.off_link; });
    }

    int pick_skin() const {
        if (garment_.skin >= 0 && static_cast<size_t>(garment_.skin) < scene_.skins.size()) return garment_.skin;
        const int root = garment_.chains.front().joints.front();
        for (size_t s = 0; s < scene_.skins.size(); ++s) {
            const auto& joints = scene_.skins[s].joints;
            if (std::find(joints.begin(), joints.end(), root) != joints.end()) return static_cast<int>(s);
        }
        return -1;
    }

    const Scene& scene_;
    const RigGarment& garment_;
    const RigOptions& options_;
    RigBuildResult& result_;
    const std::string where_;

    std::vector<int> hanging_;               ///< per chain: the bone it hangs from (held), -1 none, -2 a joint of this garment
    std::vector<int> hanging_bones_;         ///< distinct held bones, ascending
    std::vector<Particle> particles_;
    std::map<int, uint32_t> particle_of_node_;
    std::vector<std::vector<uint32_t>> sequences_;  ///< per chain: [bone,] joints..., [tip]
    std::vector<std::array<uint32_t, 2>> edges_, skips_;
    std::vector<double> collision_radius_;  ///< per particle, metres (docs/proxy.md#collision-radius)
    size_t chain_edge_count_ = 0;
    int frame_node_ = -1;
    Mat4 frame_world_;
    std::set<int> joint_set_;
    std::map<int, std::vector<Vec3>> carried_by_node_;  ///< carried_by's groups
    bool carried_grouped_ = false;
    std::map<size_t, std::vector<double>> vertex_area_;
    std::vector<double> carried_, mass_;
};

}  // namespace

void add_virtual_particles(RigBuildResult& built, double thickness) {
    if (!built.proxy) return;
    ClothProxy& proxy = *built.proxy;
    proxy.virtual_link.clear();
    proxy.virtual_rest_position.clear();
    built.virtual_vertices.clear();
    const auto radius = [&](uint32_t p) { return p < proxy.collision_radius.size() ? proxy.collision_radius[p] : 0.0; };
    for (const VirtualCandidate& c : built.virtual_candidates) {
        if (!(c.off_link > std::max(radius(c.link[1]), radius(c.link[2])) + thickness)) continue;  // its link's rows keep it out
        bool near_kept = false;
        for (size_t k = 0; k < proxy.virtual_link.size() && !near_kept; ++k)
            near_kept = proxy.virtual_link[k] == c.link && distance(proxy.virtual_rest_position[k], c.rest) < kVirtualParticleSpacing;
        if (near_kept) continue;
        proxy.virtual_link.push_back(c.link);
        proxy.virtual_rest_position.push_back(c.rest);
        built.virtual_vertices.push_back({c.mesh, c.vertex});
    }
}

RigBuildResult build_rig(const Scene& scene, const RigGarment& garment, const RigOptions& options) {
    RigBuildResult result;
    if (!(options.linear_density > 0) || !std::isfinite(options.linear_density)) {
        add_issue(result.issues, kRigUnknownFabric,
                  scene.source_path + ": garment '" + garment.name + "': linear_density must be a positive number of kg/m");
        return result;
    }
    RigBuilder(scene, garment, options, result).run();
    if (has_error(result.issues)) result.proxy.reset();
    return result;
}

}  // namespace weft
