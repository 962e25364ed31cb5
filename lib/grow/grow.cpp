#include "grow/grow.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <set>

#include "scene/bind_pose.h"
#include "scene/hierarchy.h"
#include "scene/influences.h"
#include "garment/clumps.h"
#include "garment/geometry.h"
#include "geom/nearest_on_triangle.h"
#include "grow/clump_fit.h"
#include "grow/grow_codes.h"

namespace weft {
namespace {

/// A class's growth rule (garment/classes.h): "strands", "wedges" or "sheet" (any class the
/// built-in table does not know).
std::string growth_of(const std::string& class_name) {
    static const std::vector<GarmentClass> classes = default_garment_classes();
    const int c = find_class(classes, class_name);
    return c < 0 ? "sheet" : classes[static_cast<size_t>(c)].growth;
}


// ---- small helpers ----------------------------------------------------------------------------

void add_issue(Issues& issues, const IssueCode& code, std::string message, std::string pointer = {}) {
    issues.push_back(make_issue(code, std::move(message), std::move(pointer)));
}

std::string node_name(const Scene& scene, int node) {
    return has_node(scene, node) ? scene.nodes[static_cast<size_t>(node)].name : std::string("(none)");
}

std::string millimetres(double metres) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f mm", metres * 1000);
    return buf;
}

double smoothstep01(double x) {
    x = std::clamp(x, 0.0, 1.0);
    return x * x * (3 - 2 * x);
}

// ---- one garment ------------------------------------------------------------------------------

/// A clump on its way to becoming a chain.
struct Candidate {
    Clump clump;
    ClumpShape shape = ClumpShape::strand;
    int cut = -1;      ///< which wedge cut it came from (neighbours are panels of one cut)
    WedgeAxis axis;    ///< wedges: the axis the cut was made around
    int holder = -1;   ///< skirt wedges: the waistband's bone every panel hangs from; -1: the clump's own
};

class GarmentGrower {
public:
    GarmentGrower(const Scene& original, GrowResult& result, BoneGeometry& bones, const GrowOptions& options,
                  const Garment& garment, GrownGarment& report)
        : original_(original), result_(result), bones_(bones), options_(options), garment_(garment), report_(report) {}

    void run() {
        first_chain_ = result_.chains.size();
        surface_ = make_surface(original_, garment_);
        report_.weld_tolerance = surface_.s.weld_tolerance;
        const bool skirt = growth_of(garment_.class_name) == "wedges";
        std::vector<Candidate> candidates = skirt ? skirt_wedges() : hair_clumps();

        const int segments = skirt ? options_.skirt_segments : options_.hair_segments;
        std::vector<int> chain_of_candidate(candidates.size(), -1);
        for (size_t c = 0; c < candidates.size(); ++c) chain_of_candidate[c] = grow_clump(candidates[c], segments);
        report_dropped();
        reweight(candidates, chain_of_candidate);

        // Neighbours: chains of adjacent panels of one cut.
        for (size_t a = 0; a < candidates.size(); ++a) {
            if (chain_of_candidate[a] < 0 || candidates[a].clump.wedge < 0) continue;
            for (size_t b = 0; b < candidates.size(); ++b) {
                if (a == b || chain_of_candidate[b] < 0 || candidates[b].cut != candidates[a].cut) continue;
                const int panels = options_.skirt_panels;
                const int d = ((candidates[b].clump.wedge - candidates[a].clump.wedge) % panels + panels) % panels;
                if (d == 1 || d == panels - 1)
                    result_.chains[static_cast<size_t>(chain_of_candidate[a])].neighbours.push_back(chain_of_candidate[b]);
            }
            auto& n = result_.chains[static_cast<size_t>(chain_of_candidate[a])].neighbours;
            std::sort(n.begin(), n.end());
            n.erase(std::unique(n.begin(), n.end()), n.end());
        }

        if (report_.chains.empty()) {
            report_.outcome = "nothing grown: all " + std::to_string(report_.clumps.size()) + " clumps dropped (" +
                              std::to_string(report_.dropped_short) + " shorter than " +
                              millimetres(options_.min_strand_length) + ", " + std::to_string(report_.dropped_small) +
                              " with fewer than " + std::to_string(options_.min_strand_verts) + " vertices)";
            add_issue(result_.issues, kGrowNothingGrown,
                      original_.source_path + ": garment '" + garment_.name + "' (" + garment_.class_name + "): " +
                          report_.outcome + "; it stays welded to " + node_name(original_, garment_.body_bone),
                      "/garments/" + garment_.name);
        } else {
            size_t bones = 0;
            for (int c : report_.chains) bones += result_.chains[static_cast<size_t>(c)].joints.size();
            report_.outcome = "grown: " + std::to_string(report_.chains.size()) + " chains, " + std::to_string(bones) +
                              " bones";
        }
    }

private:
    std::vector<Candidate> hair_clumps() {
        std::vector<Candidate> out;
        int cut = 0;
        for (Clump& island : island_clumps(surface_.s)) {
            const int holder = holder_of(surface_, island.vertices);
            // An island too short or too small to be a strand is dropped as one, not cut.
            const bool droppable = holder < 0 || island.vertices.size() < options_.min_strand_verts ||
                                   anchor_clump(surface_, island.vertices, bones_.segment(holder)).length <
                                       options_.min_strand_length;
            if (!droppable) {
                // Islands (docs/growth.md#clumps) assume strands. A cap (a bob, a helmet, the shared models'
                // closed hair shells) covers the head around its bone's axis: wider around it than
                // it is long, it would give one useless chain, so it is cut like a skirt.
                const BoneSegment bone = bones_.segment(holder);
                const WedgeAxis axis = axis_for(bone.origin, bone.direction);
                const Anchored a = anchor_clump(surface_, island.vertices, bone);
                std::vector<Vec3> points;
                std::vector<double> radius;
                for (uint32_t w : island.vertices) {
                    const Vec3 r = surface_.s.position[w] - axis.origin;
                    radius.push_back(length(r - axis.direction * dot(r, axis.direction)));
                }
                std::vector<double> sorted = radius;
                std::nth_element(sorted.begin(), sorted.begin() + long(sorted.size() / 2), sorted.end());
                const double median = sorted[sorted.size() / 2];
                // Vertices near the axis have no meaningful azimuth (a ponytail's root ring at the
                // crown circles it); only those at half the median radius or more count.
                for (size_t i = 0; i < island.vertices.size(); ++i)
                    if (radius[i] >= 0.5 * median) points.push_back(surface_.s.position[island.vertices[i]]);
                const double width = angular_coverage(points, axis) * median;
                if (width > a.length) {
                    report_.caps.push_back({island.island, static_cast<uint32_t>(island.vertices.size()), width, a.length});
                    add_issue(result_.issues, kGrowCapSplit,
                              original_.source_path + ": garment '" + garment_.name + "' island " +
                                  std::to_string(island.island) + " (" + std::to_string(island.vertices.size()) +
                                  " vertices) is a cap, not a strand: " + millimetres(width) + " around " +
                                  node_name(original_, holder) + "'s axis, " + millimetres(a.length) +
                                  " long; cut into " + std::to_string(options_.skirt_panels) + " wedges around that axis",
                              "/garments/" + garment_.name + "/islands/" + std::to_string(island.island));
                    for (Clump& w : wedge_clumps(surface_.s, island.vertices, axis, options_.skirt_panels, island.island))
                        out.push_back({std::move(w), ClumpShape::cap_wedge, cut, axis});
                    ++cut;
                    continue;
                }
            }
            out.push_back({std::move(island), ClumpShape::strand, -1, {}});
        }
        return out;
    }

    std::vector<Candidate> skirt_wedges() {
        std::vector<uint32_t> all;
        for (uint32_t w = 0; w < surface_.s.welded_count(); ++w)
            if (surface_.source_offsets[w] < surface_.source_offsets[w + 1]) all.push_back(w);
        std::vector<Candidate> out;
        const int holder = holder_of(surface_, all);
        if (holder < 0) {
            no_holder(all.size(), "the skirt");
            return out;
        }
        // Radial wedges around the body's up axis (docs/growth.md#clumps), through the garment's attachment:
        // the centre of its waistband (its top twentieth), not the bone's origin, which need not
        // sit at the ring's centre.
        double top = -INFINITY, bottom = INFINITY;
        for (uint32_t w : all) {
            top = std::max(top, surface_.s.position[w].y);
            bottom = std::min(bottom, surface_.s.position[w].y);
        }
        Vec3 waist;
        size_t count = 0;
        for (uint32_t w : all)
            if (surface_.s.position[w].y >= top - 0.05 * (top - bottom)) waist += surface_.s.position[w], ++count;
        const WedgeAxis axis = axis_for(count ? waist / double(count) : bones_.segment(holder).origin, Vec3{0, 1, 0});
        // Every panel hangs from the bone holding the waistband (its top twentieth), climbed off the
        // legs to the hips: a panel whose hem is weighted to a thigh still roots at the waist.
        std::vector<uint32_t> band;
        for (uint32_t w : all)
            if (surface_.s.position[w].y >= top - 0.05 * (top - bottom)) band.push_back(w);
        int waist_bone = holder_of(surface_, band);
        if (waist_bone < 0) waist_bone = holder;
        // On a humanoid skeleton the waistband hangs from the hips, whatever bone the band's
        // weights favour (a thigh, the bone above the hips).
        const HumanoidBones body = find_humanoid_bones(original_);
        if (body.humanoid()) waist_bone = body.hips;
        const std::vector<Clump> islands = island_clumps(surface_.s);
        std::vector<uint32_t> island_of(surface_.s.welded_count(), 0);
        for (const Clump& c : islands)
            for (uint32_t w : c.vertices) island_of[w] = c.island;
        for (Clump& w : wedge_clumps(surface_.s, all, axis, options_.skirt_panels, 0)) {
            uint32_t lowest = UINT32_MAX;
            for (uint32_t v : w.vertices) lowest = std::min(lowest, island_of[v]);
            w.island = lowest == UINT32_MAX ? 0 : lowest;
            out.push_back({std::move(w), ClumpShape::skirt_wedge, 0, axis, waist_bone});
        }
        return out;
    }

    /// The wedge axis through `origin` along `direction`, panel 0 facing the model's front (+Z, the
    /// glTF convention, turned perpendicular to the axis).
    static WedgeAxis axis_for(const Vec3& origin, const Vec3& direction) {
        WedgeAxis axis;
        axis.origin = origin;
        axis.direction = normalize(direction);
        Vec3 front = Vec3{0, 0, 1} - axis.direction * axis.direction.z;
        if (length(front) < 1e-6) front = Vec3{1, 0, 0} - axis.direction * axis.direction.x;
        axis.front = normalize(front);
        return axis;
    }

    void no_holder(size_t vertices, const std::string& what) {
        add_issue(result_.issues, kGrowNoHolder,
                  original_.source_path + ": garment '" + garment_.name + "': " + what + " (" +
                      std::to_string(vertices) + " vertices) has no weight on any bone; no chain can hang from it",
                  "/garments/" + garment_.name);
    }

    void report_dropped() {
        for (size_t index = 0; index < report_.clumps.size(); ++index) {
            const ClumpReport& r = report_.clumps[index];
            if (r.dropped.empty() || r.dropped == "no_holder") continue;
            add_issue(result_.issues, kGrowClumpDropped,
                      original_.source_path + ": garment '" + garment_.name + "' clump " + std::to_string(index) + " (" +
                          clump_shape_name(r.shape) + " of island " + std::to_string(r.island) +
                          (r.wedge >= 0 ? ", panel " + std::to_string(r.wedge) : std::string()) + ") dropped: " + r.reason,
                      "/garments/" + garment_.name + "/clumps/" + std::to_string(index));
        }
    }

    /// Grows one clump into a chain, or records why it was dropped. Returns the chain's index or -1.
    int grow_clump(const Candidate& candidate, int segments) {
        const Clump& clump = candidate.clump;
        ClumpReport r;
        r.shape = candidate.shape;
        r.island = clump.island;
        r.wedge = clump.wedge;
        r.vertices = static_cast<uint32_t>(clump.vertices.size());
        r.holder = candidate.holder >= 0 ? candidate.holder : holder_of(surface_, clump.vertices);
        const size_t index = report_.clumps.size();
        const std::string where = "/garments/" + garment_.name + "/clumps/" + std::to_string(index);
        if (r.holder < 0) {
            r.dropped = "no_holder";
            r.reason = "no weight on any bone";
            report_.clumps.push_back(r);
            no_holder(clump.vertices.size(), "clump " + std::to_string(index));
            return -1;
        }
        const BoneSegment bone = bones_.segment(r.holder);
        const Anchored a = candidate.shape == ClumpShape::skirt_wedge ? anchor_at_top(surface_, clump.vertices)
                                                                       : anchor_clump(surface_, clump.vertices, bone);
        r.length = a.length;
        if (a.length < options_.min_strand_length) {
            r.dropped = "too_short";
            r.reason = millimetres(a.length) + " from its anchored end, shorter than " + millimetres(options_.min_strand_length);
            ++report_.dropped_short;
        } else if (const uint32_t least = candidate.shape == ClumpShape::skirt_wedge ? 3u : options_.min_strand_verts;
                   clump.vertices.size() < least) {
            // min_strand_verts drops fringe strands; a low-poly skirt's panel is a few columns of
            // vertices and still a panel (a triangle's worth is the least that can hang).
            r.dropped = "too_few_vertices";
            r.reason = std::to_string(clump.vertices.size()) + " vertices, fewer than " + std::to_string(least);
            ++report_.dropped_small;
        }
        if (!r.dropped.empty()) {
            report_.clumps.push_back(r);  // reported once merging has decided (report_dropped)
            return -1;
        }
        r.chain = static_cast<int>(result_.chains.size());
        report_.clumps.push_back(r);
        report_.chains.push_back(r.chain);
        build_chain(candidate, r.holder, fit_polyline(surface_, clump.vertices, a, segments), index);
        return r.chain;
    }

    /// A name no node of the scene has, for the chain's joints "<base>_<k>".
    std::string unique_chain_name(const std::string& base, int segments) {
        auto free = [&](const std::string& stem) {
            for (int k = 0; k < segments; ++k)
                if (result_.scene.find_node(stem + "_" + std::to_string(k)) >= 0) return false;
            return true;
        };
        if (free(base)) return base;
        for (int n = 2;; ++n) {
            std::string stem = base + "x" + std::to_string(n);
            if (free(stem)) {
                add_issue(result_.issues, kGrowNameTaken,
                          original_.source_path + ": joint names " + base + "_<k> are taken; chain named " + stem,
                          "/nodes/" + base + "_0");
                return stem;
            }
        }
    }

    void build_chain(const Candidate& candidate, int holder, std::vector<Vec3> line, size_t clump_index) {
        Scene& scene = result_.scene;
        const int segments = static_cast<int>(line.size()) - 1;
        GrownChain chain;
        chain.garment = garment_.name;
        chain.class_name = garment_.class_name;
        chain.shape = candidate.shape;
        chain.body_bone = holder;
        chain.clump = static_cast<int>(clump_index);
        chain.vertices = static_cast<uint32_t>(candidate.clump.vertices.size());
        chain.name = unique_chain_name(garment_.name + "_" + std::to_string(report_.chains.size() - 1), segments);

        // Joint k at line[k], its +Y towards line[k+1]; its twist follows the bone it hangs from.
        const Mat4 holder_bind = bind_world(original_, holder);
        Vec3 z_hint = column(holder_bind, 2), x_hint = column(holder_bind, 0);
        Mat4 parent_bind = holder_bind;
        int parent = holder;
        std::vector<Mat4> bind(static_cast<size_t>(segments));
        for (int k = 0; k < segments; ++k) {
            const Vec3 y = normalize(line[static_cast<size_t>(k) + 1] - line[static_cast<size_t>(k)]);
            const Mat3 rotation = frame_along(y, z_hint, x_hint);
            bind[static_cast<size_t>(k)] = rigid(line[static_cast<size_t>(k)], rotation);
            z_hint = column(bind[static_cast<size_t>(k)], 2);
            x_hint = column(bind[static_cast<size_t>(k)], 0);

            Node node;
            node.name = chain.name + "_" + std::to_string(k);
            node.parent = parent;
            Mat4 parent_inverse;
            if (!parent_bind.inverse(parent_inverse)) parent_inverse = Mat4::identity();
            node.local = parent_inverse * bind[static_cast<size_t>(k)];
            node.world = scene.nodes[static_cast<size_t>(parent)].world * node.local;
            const int index = static_cast<int>(scene.nodes.size());
            scene.nodes[static_cast<size_t>(parent)].children.push_back(index);
            scene.nodes.push_back(std::move(node));
            chain.joints.push_back(index);
            parent = index;
            parent_bind = bind[static_cast<size_t>(k)];
        }
        chain.polyline = line;
        std::vector<double> cumulative{0};
        for (size_t i = 1; i < line.size(); ++i) cumulative.push_back(cumulative.back() + distance(line[i - 1], line[i]));
        chain.length = cumulative.back();

        // Every skin a garment mesh uses gets the new joints (and their inverse binds).
        std::map<int, uint32_t> first_joint;  // skin -> index of the chain's first joint in it
        for (int m : surface_.s.part_mesh) {
            if (m < 0) continue;
            const int skin = scene.meshes[static_cast<size_t>(m)].skin;
            if (skin < 0 || first_joint.count(skin)) continue;
            Skin& s = scene.skins[static_cast<size_t>(skin)];
            first_joint[skin] = static_cast<uint32_t>(s.joints.size());
            for (int k = 0; k < segments; ++k) {
                s.joints.push_back(chain.joints[static_cast<size_t>(k)]);
                Mat4 inverse;
                bind[static_cast<size_t>(k)].inverse(inverse);
                s.inverse_bind.push_back(inverse);
            }
        }

        chain_first_joint_.push_back(std::move(first_joint));
        result_.chains.push_back(std::move(chain));
    }

    /// One chain's share of a vertex: the joints either side of where the vertex projects onto the
    /// chain's polyline, blended by where it lands, and the original body weight kept over the
    /// first root_blend of the chain, handed over smoothly (docs/growth.md#weights). Past the last joint
    /// (towards the tip, which is no joint) the vertex rides the last one.
    void add_chain_share(size_t c, const Mesh& mesh, uint32_t v, double factor,
                         std::vector<std::pair<uint32_t, double>>& weights) const {
        const GrownChain& chain = result_.chains[c];
        const std::vector<Vec3>& line = chain.polyline;
        const int segments = static_cast<int>(line.size()) - 1;
        std::vector<double> cumulative{0};
        for (size_t i = 1; i < line.size(); ++i) cumulative.push_back(cumulative.back() + distance(line[i - 1], line[i]));
        const Projection p = project(line, cumulative, mesh.positions[v]);
        const double u = chain.length > 0 ? p.along / chain.length : 0;
        const double share = options_.root_blend > 0 ? smoothstep01(u / options_.root_blend) : 1.0;
        const int k0 = p.segment, k1 = std::min(p.segment + 1, segments - 1);
        const double t = k0 == k1 ? 0.0 : p.t;
        const uint32_t base = chain_first_joint_[c - first_chain_].at(mesh.skin);
        add_body_share(mesh, v, factor * (1 - share), weights);
        weights.push_back({base + uint32_t(k0), factor * share * (1 - t)});
        if (k1 != k0) weights.push_back({base + uint32_t(k1), factor * share * t});
    }

    static void add_body_share(const Mesh& mesh, uint32_t v, double factor,
                               std::vector<std::pair<uint32_t, double>>& weights) {
        for (uint32_t k = mesh.influence_offsets[v]; k < mesh.influence_offsets[v + 1]; ++k)
            weights.push_back({mesh.influences[k].joint, factor * mesh.influences[k].weight});
    }

    /// Re-weights the garment. A strand's vertices go onto its own chain. A wedge is a panel of one
    /// surface, so its vertices are shared with the panel beside them by how far round they sit:
    /// all their own panel's at its centre line, half and half on the border, and a panel that grew
    /// no chain (dropped) carries with the body's original weights. The weights are then continuous
    /// across every border, where giving each panel only to its own chain would tear the surface
    /// between a chain and its neighbour (and between a chain and a dropped panel beside it).
    void reweight(const std::vector<Candidate>& candidates, const std::vector<int>& chain_of_candidate) {
        const Scene& scene = result_.scene;
        std::map<std::pair<int, int>, int> chain_of_panel;  // (cut, panel) -> chain, for cuts with a chain
        std::set<int> cuts_with_chains;
        for (size_t c = 0; c < candidates.size(); ++c)
            if (candidates[c].clump.wedge >= 0 && chain_of_candidate[c] >= 0) {
                chain_of_panel[{candidates[c].cut, candidates[c].clump.wedge}] = chain_of_candidate[c];
                cuts_with_chains.insert(candidates[c].cut);
            }
        const int panels = options_.skirt_panels;
        const double width = 2 * M_PI / panels;
        for (size_t c = 0; c < candidates.size(); ++c) {
            const Candidate& cand = candidates[c];
            const bool wedge = cand.clump.wedge >= 0;
            if (wedge ? !cuts_with_chains.count(cand.cut) : chain_of_candidate[c] < 0) continue;
            for (uint32_t w : cand.clump.vertices) {
                for (uint32_t i = surface_.source_offsets[w]; i < surface_.source_offsets[w + 1]; ++i) {
                    const uint32_t source = surface_.source_list[i];
                    const int m = surface_.s.part_mesh[surface_.s.part_of(source)];
                    const Mesh& mesh = scene.meshes[static_cast<size_t>(m)];
                    const uint32_t v = surface_.s.mesh_vertex[source];
                    std::vector<std::pair<uint32_t, double>> weights;
                    if (!wedge) {
                        add_chain_share(static_cast<size_t>(chain_of_candidate[c]), mesh, v, 1.0, weights);
                    } else {
                        // Where round its panel the vertex sits: -1/2 .. 1/2 of a panel from its centre.
                        double f = azimuth(surface_.s.position[w], cand.axis) / width - cand.clump.wedge;
                        f -= panels * std::round(f / panels);
                        f = std::clamp(f, -0.5, 0.5);
                        const int beside = ((cand.clump.wedge + (f < 0 ? -1 : 1)) % panels + panels) % panels;
                        auto carry = [&](int panel, double factor) {
                            if (factor <= 0) return;
                            auto it = chain_of_panel.find({cand.cut, panel});
                            if (it != chain_of_panel.end())
                                add_chain_share(static_cast<size_t>(it->second), mesh, v, factor, weights);
                            else
                                add_body_share(mesh, v, factor, weights);
                        };
                        carry(cand.clump.wedge, 1 - std::fabs(f));
                        carry(beside, std::fabs(f));
                    }
                    pending_[{m, v}] = std::move(weights);
                }
            }
        }
    }

public:
    /// Writes every re-weighted vertex's influences into the grown scene's meshes.
    void commit_weights() {
        Scene& scene = result_.scene;
        std::map<int, std::vector<std::vector<Influence>>> rewritten;  // mesh -> per vertex, or empty
        for (auto& [key, weights] : pending_) {
            const auto [m, v] = key;
            auto& per_vertex = rewritten[m];
            if (per_vertex.empty()) per_vertex.resize(scene.meshes[static_cast<size_t>(m)].positions.size());
            // Merge equal joints, keep the largest max_influences (ties to the lower joint), renormalise.
            std::map<uint32_t, double> merged;
            for (const auto& [joint, weight] : weights)
                if (weight > 0) merged[joint] += weight;
            std::vector<std::pair<uint32_t, double>> list(merged.begin(), merged.end());
            std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
                if (a.second != b.second) return a.second > b.second;
                return a.first < b.first;
            });
            if (list.size() > static_cast<size_t>(options_.max_influences)) list.resize(static_cast<size_t>(options_.max_influences));
            double total = 0;
            for (const auto& e : list) total += e.second;
            std::sort(list.begin(), list.end());
            auto& out = per_vertex[v];
            for (const auto& [joint, weight] : list) out.push_back({joint, static_cast<float>(weight / total)});
        }
        for (auto& [m, per_vertex] : rewritten) {
            Mesh& mesh = scene.meshes[static_cast<size_t>(m)];
            std::vector<uint32_t> offsets{0};
            std::vector<Influence> influences;
            for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
                if (!per_vertex[v].empty()) {
                    influences.insert(influences.end(), per_vertex[v].begin(), per_vertex[v].end());
                } else {
                    for (uint32_t k = mesh.influence_offsets[v]; k < mesh.influence_offsets[v + 1]; ++k)
                        influences.push_back(mesh.influences[k]);
                }
                offsets.push_back(static_cast<uint32_t>(influences.size()));
            }
            mesh.influence_offsets = std::move(offsets);
            mesh.influences = std::move(influences);
            result_.changed_meshes.push_back(m);
        }
    }

private:
    const Scene& original_;
    GrowResult& result_;
    BoneGeometry& bones_;
    const GrowOptions& options_;
    const Garment& garment_;
    GrownGarment& report_;
    Surface surface_;
    std::map<std::pair<int, uint32_t>, std::vector<std::pair<uint32_t, double>>> pending_;
    size_t first_chain_ = 0;                               ///< index of this garment's first chain in result_.chains
    std::vector<std::map<int, uint32_t>> chain_first_joint_;  ///< per chain of this garment: skin -> its first joint there
};

bool selected(const GrowOptions& options, const std::string& class_name) {
    return std::find(options.classes.begin(), options.classes.end(), class_name) != options.classes.end();
}

/// docs/growth.md#stray-weights: an authored chain joint's weight on a vertex farther from the chain
/// than the chain's reach is a stray brush stroke (Godette's backpack vertex half on a fringe joint
/// 30 cm above it): the vertex would follow the chain by that share in any runtime. Its share goes
/// to the vertex's other bones, the mesh is listed as changed (so the written model carries the
/// repair) and each (mesh, joint) is reported once. A vertex the chain alone moves keeps its weight.
void drop_stray_chain_weights(const ModelGarments& found, GrowResult& result) {
    Scene& scene = result.scene;
    // Per node: the chains it is a joint of, as polylines in the bind pose, and their reach.
    struct Reach { std::vector<Vec3> line; double reach = 0; };
    std::map<int, std::vector<Reach>> chains_of;
    for (const Chain& c : found.chains) {
        Reach r;
        for (int j : c.joints) r.line.push_back(bind_world(scene, j).translation_part());
        r.reach = std::max(c.length, kStrayWeightMinReach);
        for (int j : c.joints) chains_of[j].push_back(r);
    }
    if (chains_of.empty()) return;
    const auto within_reach = [](const std::vector<Reach>& reaches, const Vec3& p, double& nearest) {
        nearest = INFINITY;
        bool within = false;
        for (const Reach& r : reaches) {
            double d = distance(p, r.line.front());
            for (size_t k = 1; k < r.line.size(); ++k)
                d = std::min(d, distance(p, nearest_on_segment(p, r.line[k - 1], r.line[k]).point));
            nearest = std::min(nearest, d);
            within = within || d <= r.reach;
        }
        return within;
    };
    for (size_t m = 0; m < scene.meshes.size(); ++m) {
        Mesh& mesh = scene.meshes[m];
        if (!is_skinned(mesh)) continue;
        const Skin& skin = scene.skins[static_cast<size_t>(mesh.skin)];
        struct Found { uint32_t vertices = 0, first = 0; double farthest = 0; float weight = 0; };
        std::map<int, Found> stray;  // by node
        for (uint32_t v = 0; v < mesh.positions.size(); ++v) {
            const uint32_t begin = mesh.influence_offsets[v], end = mesh.influence_offsets[v + 1];
            float kept = 0;
            std::vector<std::pair<uint32_t, double>> drop;  // influence, its joint's distance from its chains
            for (uint32_t k = begin; k < end; ++k) {
                const Influence& in = mesh.influences[k];
                if (!(in.weight > 0)) continue;
                const auto it = chains_of.find(skin.joints[in.joint]);
                double nearest = 0;
                if (it == chains_of.end() || within_reach(it->second, mesh.positions[v], nearest))
                    kept += in.weight;
                else
                    drop.push_back({k, nearest});
            }
            if (drop.empty() || !(kept > 0)) continue;  // nothing else moves it: the chain's weight is all it has
            for (const auto& [k, nearest] : drop) {
                Found& f = stray[skin.joints[mesh.influences[k].joint]];
                if (f.vertices++ == 0) f.first = v;
                if (nearest > f.farthest) {
                    f.farthest = nearest;
                    f.weight = mesh.influences[k].weight;
                }
                mesh.influences[k].weight = 0;
            }
            for (uint32_t k = begin; k < end; ++k) mesh.influences[k].weight /= kept;
        }
        bool changed = false;
        for (const auto& [node, f] : stray) {
            changed = true;
            char text[160];
            std::snprintf(text, sizeof text, "weighs %u vertex%s up to %.0f mm from its chain (vertex %u: %.2f)",
                          f.vertices, f.vertices == 1 ? "" : "es", f.farthest * 1000, f.first, double(f.weight));
            add_issue(result.issues, kGrowStrayWeight,
                      scene.source_path + ": mesh '" + mesh.name + "': chain joint '" +
                          scene.nodes[static_cast<size_t>(node)].name + "' " + text +
                          ", farther than the chain reaches; that share goes to the vertices' other bones",
                      "/meshes/" + mesh.name);
        }
        if (changed) result.changed_meshes.push_back(static_cast<int>(m));
    }
}

}  // namespace

const char* clump_shape_name(ClumpShape shape) {
    switch (shape) {
        case ClumpShape::strand: return "strand";
        case ClumpShape::cap_wedge: return "cap_wedge";
        case ClumpShape::skirt_wedge: return "skirt_wedge";
    }
    return "strand";
}

size_t GrowResult::bone_count() const {
    size_t n = 0;
    for (const GrownChain& c : chains) n += c.joints.size();
    return n;
}

std::string grow_options_error(const GrowOptions& o) {
    if (o.hair_segments < 1 || o.hair_segments > 64) return "hair_segments must be 1..64, got " + std::to_string(o.hair_segments);
    if (o.skirt_segments < 1 || o.skirt_segments > 64) return "skirt_segments must be 1..64, got " + std::to_string(o.skirt_segments);
    if (o.skirt_panels < 3 || o.skirt_panels > 256) return "skirt_panels must be 3..256, got " + std::to_string(o.skirt_panels);
    if (!(o.min_strand_length >= 0) || !std::isfinite(o.min_strand_length))
        return "min_strand_length must be a finite length >= 0 (metres)";
    if (!(o.root_blend >= 0 && o.root_blend <= 1)) return "root_blend must be within 0..1";
    if (o.max_influences < 2 || o.max_influences > 8)
        return "max_influences must be 2..8 (a vertex needs its body bone and a chain joint), got " +
               std::to_string(o.max_influences);
    return {};
}

GrowResult grow_cloth(const Scene& scene, const ModelGarments& found, const GrowOptions& options) {
    GrowResult result;
    result.scene = scene;
    if (std::string why = grow_options_error(options); !why.empty()) {
        add_issue(result.issues, kGrowOptions, scene.source_path + ": " + why);
        return result;
    }
    BoneGeometry bones(scene);
    std::vector<std::unique_ptr<GarmentGrower>> growers;

    for (const Garment& g : found.not_garments) {
        if (!selected(options, g.class_name)) continue;
        GrownGarment report;
        report.name = g.name;
        report.class_name = g.class_name;
        report.outcome = "not grown: not a garment: " + g.not_garment_reason;
        add_issue(result.issues, kGrowNotAGarment,
                  scene.source_path + ": '" + g.name + "' (" + g.class_name + ", by " + g.matched_by + ") grows nothing: " +
                      g.not_garment_reason,
                  "/garments/" + g.name);
        result.garments.push_back(std::move(report));
    }

    // Growers hold references into result.garments: reserve so it never reallocates.
    result.garments.reserve(result.garments.size() + found.garments.size());
    for (size_t gi = 0; gi < found.garments.size(); ++gi) {
        const Garment& g = found.garments[gi];
        if (!selected(options, g.class_name)) continue;
        GrownGarment report;
        report.garment = static_cast<int>(gi);
        report.name = g.name;
        report.class_name = g.class_name;
        const std::string where = "/garments/" + g.name;
        if (g.moves) {
            report.outcome = "not grown: moves on " + std::to_string(g.chains.size()) + " authored chain" +
                             (g.chains.size() == 1 ? "" : "s");
            add_issue(result.issues, kGrowHasChains,
                      scene.source_path + ": garment '" + g.name + "' " + report.outcome.substr(11) + "; used as authored",
                      where);
            result.garments.push_back(std::move(report));
            continue;
        }
        if (!g.stays_reason.empty()) {
            report.outcome = "not grown: " + g.stays_reason;
            result.garments.push_back(std::move(report));
            continue;
        }
        if (growth_of(g.class_name) == "sheet") {
            report.outcome = "not grown: class '" + g.class_name + "' moves as a sheet (strands and wedges are grown)";
            add_issue(result.issues, kGrowNoStrategy, scene.source_path + ": garment '" + g.name + "': " + report.outcome,
                      where);
            result.garments.push_back(std::move(report));
            continue;
        }
        std::string unskinned;
        for (const GarmentPart& part : g.parts)
            if (part.mesh < 0 || static_cast<size_t>(part.mesh) >= scene.meshes.size() ||
                !is_skinned(scene.meshes[static_cast<size_t>(part.mesh)])) {
                unskinned = part.mesh >= 0 && static_cast<size_t>(part.mesh) < scene.meshes.size()
                                ? scene.meshes[static_cast<size_t>(part.mesh)].name
                                : "#" + std::to_string(part.mesh);
                break;
            }
        if (!unskinned.empty()) {
            report.outcome = "not grown: mesh '" + unskinned + "' has no skin weights to re-weight";
            add_issue(result.issues, kGrowNotSkinned,
                      scene.source_path + ": garment '" + g.name + "': mesh '" + unskinned +
                          "' is not skinned (it rides its node rigidly); skin it to a bone to grow chains on it",
                      where);
            result.garments.push_back(std::move(report));
            continue;
        }
        result.garments.push_back(std::move(report));
        auto grower = std::make_unique<GarmentGrower>(scene, result, bones, options, g, result.garments.back());
        grower->run();
        growers.push_back(std::move(grower));
    }
    for (auto& grower : growers) grower->commit_weights();
    drop_stray_chain_weights(found, result);
    std::sort(result.changed_meshes.begin(), result.changed_meshes.end());
    result.changed_meshes.erase(std::unique(result.changed_meshes.begin(), result.changed_meshes.end()),
                                result.changed_meshes.end());
    return result;
}

}  // namespace weft
