#include "garment/geometry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "scene/bind_pose.h"
#include "scene/hierarchy.h"
#include "garment/classes.h"

namespace weft {

namespace {

/// How far down towards its hem a skirt's surface must still bridge the legs, as a share of the hem's
/// depth below the hip joints (docs/garments-by-geometry.md#the-rules). Counting where its edges cross
/// the midline, a skirt's hem ring bridges at the hem itself: the skirts measured 0.95 (the Witch's,
/// whose hem dips at the sides) to 1.0 (the mannequin's, Quaternius' Formal dress); shorts bridge only
/// down to their crotch seam, 0.79 (Quaternius' Adventurer), baggy knee breeches 0.62.
constexpr double kSkirtBridgeReach = 0.87;

/// The least share of a skirt's weight on the legs: a hem the legs never move follows the pelvis
/// alone, a stiff part of the hips (KayKit's flared coat hems: 0); the skirts measured 0.35 (the
/// mannequin's) to 0.93 (the Witch's hem trim).
constexpr double kSkirtLegWeight = 0.2;

/// The least share of a cape's weight on the torso and neck: a cape hangs from the back and the
/// shoulders' line; a posed forearm and hand behind the back (Quaternius' Cowboy) is carried by the
/// arm alone (0).
constexpr double kCapeCarriedByBack = 0.5;

/// How far behind the head bone hair's centre lies, as a share of its depth front to back: a
/// ponytail's hair measured 0.18, KayKit's Mage head (face, bun and hat brim in one piece) 0.04.
constexpr double kHairBehindHead = 0.1;

bool has_word(const std::vector<std::string>& words, std::string_view w) {
    return std::find(words.begin(), words.end(), w) != words.end();
}

/// The region a bone's own name says, or `other` when it says none.
BodyRegion region_of_name(const std::string& name) {
    const std::vector<std::string> w = split_words(name);
    if (has_word(w, "thigh") || has_word(w, "upleg") || has_word(w, "upperleg") || has_word(w, "leg") ||
        has_word(w, "legs") || has_word(w, "knee") || has_word(w, "calf") || has_word(w, "shin") ||
        has_word(w, "foot") || has_word(w, "toe"))
        return BodyRegion::legs;
    if (has_word(w, "hips") || has_word(w, "hip") || has_word(w, "pelvis")) return BodyRegion::hips;
    if (has_word(w, "head")) return BodyRegion::head;
    if (has_word(w, "neck")) return BodyRegion::neck;
    if (has_word(w, "shoulder") || has_word(w, "clavicle") || has_word(w, "arm") || has_word(w, "upperarm") ||
        has_word(w, "forearm") || has_word(w, "hand") || has_word(w, "elbow") || has_word(w, "wrist"))
        return BodyRegion::arms;
    if (has_word(w, "spine") || has_word(w, "chest") || has_word(w, "torso") || has_word(w, "abdomen") ||
        has_word(w, "stomach") || has_word(w, "belly"))
        return BodyRegion::torso;
    return BodyRegion::other;
}

Vec3 origin_of(const Scene& scene, int node) { return bind_world(scene, node).translation_part(); }

double distance_to_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 ab = b - a;
    const double l2 = dot(ab, ab);
    const double t = l2 > 0 ? std::clamp(dot(p - a, ab) / l2, 0.0, 1.0) : 0.0;
    return distance(p, a + ab * t);
}

double round3(double v) { return std::round(v * 1000) / 1000; }

}  // namespace

const char* body_region_name(BodyRegion region) {
    switch (region) {
        case BodyRegion::hips: return "hips";
        case BodyRegion::legs: return "legs";
        case BodyRegion::torso: return "torso";
        case BodyRegion::arms: return "arms";
        case BodyRegion::neck: return "neck";
        case BodyRegion::head: return "head";
        case BodyRegion::other: break;
    }
    return "other";
}

const std::vector<std::string>& geometry_classes() {
    static const std::vector<std::string> classes{"skirt", "cape", "necktie", "hair"};
    return classes;
}

HumanoidBones find_humanoid_bones(const Scene& scene) {
    HumanoidBones b;
    const size_t n = scene.nodes.size();
    b.region.assign(n, BodyRegion::other);
    std::vector<char> joint(n, 0);
    for (const Skin& skin : scene.skins)
        for (int j : skin.joints) joint[static_cast<size_t>(j)] = 1;
    // Regions top-down: a bone takes its own name's region, else its nearest named ancestor's.
    std::vector<char> named(n, 0);
    for (size_t i = 0; i < n; ++i) {
        BodyRegion r = region_of_name(scene.nodes[i].name);
        named[i] = r != BodyRegion::other;
        b.region[i] = r;
    }
    for (size_t i = 0; i < n; ++i) {
        if (named[i]) continue;
        for (int p : ancestors(scene, static_cast<int>(i)))
            if (named[static_cast<size_t>(p)]) {
                b.region[i] = b.region[static_cast<size_t>(p)];
                break;
            }
    }
    auto parent_region = [&](size_t i) {
        const int p = scene.nodes[i].parent;
        return p >= 0 ? b.region[static_cast<size_t>(p)] : BodyRegion::other;
    };
    // The topmost joint of each region: the one whose parent is of another region.
    std::vector<int> leg_tops;
    for (size_t i = 0; i < n; ++i) {
        if (!joint[i] || !named[i] || parent_region(i) == b.region[i]) continue;
        const int node = static_cast<int>(i);
        switch (b.region[i]) {
            case BodyRegion::hips: if (b.hips < 0) b.hips = node; break;
            case BodyRegion::head: if (b.head < 0) b.head = node; break;
            case BodyRegion::neck: if (b.neck < 0) b.neck = node; break;
            case BodyRegion::torso: if (b.chest < 0) b.chest = node; break;
            case BodyRegion::legs: leg_tops.push_back(node); break;
            default: break;
        }
    }
    // The legs start at the hips: of the leg bones whose parent is no leg bone, the thighs are the
    // two highest (an IK target such as Quaternius' FootIK.L, parented to the armature's root, sits
    // at the foot).
    std::stable_sort(leg_tops.begin(), leg_tops.end(),
                     [&](int a, int c) { return origin_of(scene, a).y > origin_of(scene, c).y; });
    for (size_t k = 0; k < 2 && k < leg_tops.size(); ++k) b.thigh[k] = leg_tops[k];
    // The chest: the deepest torso joint (the one the neck or the arms hang from).
    for (size_t i = 0; i < n; ++i)
        if (joint[i] && b.region[i] == BodyRegion::torso) {
            bool leaf = true;
            for (int c : scene.nodes[i].children)
                if (c >= 0 && static_cast<size_t>(c) < n && b.region[static_cast<size_t>(c)] == BodyRegion::torso) leaf = false;
            if (leaf) b.chest = static_cast<int>(i);
        }
    if (!b.humanoid()) return b;
    b.hips_at = origin_of(scene, b.hips);
    b.head_at = origin_of(scene, b.head);
    b.neck_at = b.neck >= 0 ? origin_of(scene, b.neck) : b.head_at;
    b.chest_at = b.chest >= 0 ? origin_of(scene, b.chest) : (b.hips_at + b.neck_at) * 0.5;
    double toe_z = 0;
    for (size_t s = 0; s < 2; ++s) {
        const int t = b.thigh[s];
        b.thigh_at[s] = origin_of(scene, t);
        const auto& kids = scene.nodes[static_cast<size_t>(t)].children;
        b.knee[s] = kids.empty() ? -1 : kids.front();
        b.knee_at[s] = b.knee[s] >= 0 ? origin_of(scene, b.knee[s]) : b.thigh_at[s] - Vec3{0, 0.4, 0};
        const auto& shin_kids = b.knee[s] >= 0 ? scene.nodes[static_cast<size_t>(b.knee[s])].children : std::vector<int>{};
        b.ankle_at[s] = shin_kids.empty() ? b.knee_at[s] + (b.knee_at[s] - b.thigh_at[s])
                                          : origin_of(scene, shin_kids.front());
        // The foot points forward: the ankle's descendants' reach in z says which way the model faces.
        if (!shin_kids.empty()) {
            int foot = shin_kids.front();
            for (int depth = 0; depth < 3 && !scene.nodes[static_cast<size_t>(foot)].children.empty(); ++depth)
                foot = scene.nodes[static_cast<size_t>(foot)].children.front();
            toe_z += origin_of(scene, foot).z - b.ankle_at[s].z;
        }
    }
    b.front = toe_z < -1e-4 ? -1 : 1;
    const Vec3 spine = b.neck_at - b.hips_at;
    b.upright = spine.y > std::hypot(spine.x, spine.z);
    return b;
}

namespace {

/// What every rule of classify_piece measures a piece by: its weight share per body region, its
/// extent and centre, and the body's lengths it is measured in.
struct PieceFrame {
    std::array<double, 7> share{};
    Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY}, centre;
    Vec3 mid;              ///< between the hip joints
    double half_gap = 0;   ///< half the hip joints' distance across
    double crotch = 0;     ///< the hip joints' height
    double leg = 0;        ///< thigh length, the mean of both
    double torso = 0;      ///< hips to neck
    double sh(BodyRegion r) const { return share[static_cast<size_t>(r)]; }
};

/// The piece's frame, or nothing when no vertex is weighted.
std::optional<PieceFrame> piece_frame(const HumanoidBones& b, const BodyPiece& piece) {
    PieceFrame f;
    double total = 0;
    for (const auto& ws : piece.weights)
        for (const auto& [node, w] : ws) {
            const BodyRegion r = node >= 0 && static_cast<size_t>(node) < b.region.size() ? b.region[static_cast<size_t>(node)]
                                                                                          : BodyRegion::other;
            f.share[static_cast<size_t>(r)] += w;
            total += w;
        }
    if (!(total > 0)) return std::nullopt;
    for (double& s : f.share) s /= total;
    for (const Vec3& p : piece.positions) {
        f.lo = {std::min(f.lo.x, p.x), std::min(f.lo.y, p.y), std::min(f.lo.z, p.z)};
        f.hi = {std::max(f.hi.x, p.x), std::max(f.hi.y, p.y), std::max(f.hi.z, p.z)};
        f.centre += p;
    }
    f.centre = f.centre / double(piece.positions.size());
    f.mid = (b.thigh_at[0] + b.thigh_at[1]) * 0.5;
    f.half_gap = 0.5 * std::hypot(b.thigh_at[0].x - b.thigh_at[1].x, b.thigh_at[0].z - b.thigh_at[1].z);
    f.crotch = f.mid.y;
    f.leg = 0.5 * (distance(b.thigh_at[0], b.knee_at[0]) + distance(b.thigh_at[1], b.knee_at[1]));
    f.torso = std::max(b.neck_at.y - b.hips_at.y, 1e-3);
    return f;
}

/// Where a piece's surface crosses between the legs, clear of both: the skirt rule's bridging.
struct LegBridge {
    size_t points = 0;          ///< vertices and edge crossings of the midline that bridge
    double clearance = 0;       ///< the largest distance from a leg bone, in half hip gaps
    double low = INFINITY;      ///< the lowest bridging point's height
};

/// Below the crotch (by a tenth of the thigh) and above the ankles, the piece's points near the
/// body's midline that lie farther from every leg bone than 1.2 times half the hip joints' gap: its
/// vertices within 0.35 of that half gap of the midline, and the points where its triangles' edges
/// cross the midline (a coarse hem ring may have no vertex near it, yet its edges cross it).
LegBridge leg_bridge(const HumanoidBones& b, const BodyPiece& piece, const PieceFrame& f) {
    const double ankle = std::max(b.ankle_at[0].y, b.ankle_at[1].y);
    LegBridge out;
    auto consider = [&](const Vec3& p) {
        if (p.y > f.crotch - 0.1 * f.leg || p.y < ankle) return;
        double d = INFINITY;
        for (size_t s = 0; s < 2; ++s)
            d = std::min({d, distance_to_segment(p, b.thigh_at[s], b.knee_at[s]),
                          distance_to_segment(p, b.knee_at[s], b.ankle_at[s])});
        out.clearance = std::max(out.clearance, d / f.half_gap);
        if (d > 1.2 * f.half_gap) ++out.points, out.low = std::min(out.low, p.y);
    };
    for (const Vec3& p : piece.positions)
        if (std::fabs(p.x - f.mid.x) <= 0.35 * f.half_gap) consider(p);
    for (size_t t = 0; t + 2 < piece.triangles.size(); t += 3)
        for (size_t e = 0; e < 3; ++e) {
            const Vec3& a = piece.positions[piece.triangles[t + e]];
            const Vec3& c = piece.positions[piece.triangles[t + (e + 1) % 3]];
            const double sa = a.x - f.mid.x, sc = c.x - f.mid.x;
            if (!(sa * sc < 0)) continue;
            consider(a + (c - a) * (sa / (sa - c.x + f.mid.x)));
        }
    return out;
}

std::optional<PieceClass> skirt_rule(const HumanoidBones& b, const BodyPiece& piece, const PieceFrame& f) {
    if (!(f.half_gap > 0 && f.leg > 0)) return std::nullopt;
    const double weight = f.sh(BodyRegion::hips) + f.sh(BodyRegion::legs);
    // Feet reach forward past the shins; below the ankles nothing bridges.
    const double ankle = std::max(b.ankle_at[0].y, b.ankle_at[1].y);
    const double hem = std::max(f.lo.y, ankle);
    const LegBridge bridge = leg_bridge(b, piece, f);
    const double reach = bridge.points > 0 ? (f.crotch - bridge.low) / std::max(f.crotch - hem, 1e-9) : 0.0;
    const bool ok = weight >= 0.6 && f.sh(BodyRegion::legs) >= kSkirtLegWeight && f.hi.y >= f.crotch &&
                    f.hi.y <= b.chest_at.y + 0.1 * f.torso &&
                    f.lo.y <= f.crotch - 0.3 * f.leg && bridge.points >= 2 && reach >= kSkirtBridgeReach;
    if (!ok) return std::nullopt;
    return PieceClass{"skirt", "skirt: hangs from the hips and bridges the legs below the crotch",
                      {{"weight_hips_legs", round3(weight)},
                       {"weight_legs", round3(f.sh(BodyRegion::legs))},
                       {"top_above_hip_joints", round3(f.hi.y - f.crotch)},
                       {"hem_below_crotch", round3(f.crotch - f.lo.y)},
                       {"bridge_vertices", double(bridge.points)},
                       {"bridge_clearance", round3(bridge.clearance)},
                       {"bridge_depth", round3(f.crotch - bridge.low)},
                       {"bridge_reach", round3(reach)}}};
}

std::optional<PieceClass> cape_rule(const HumanoidBones& b, const BodyPiece& piece, const PieceFrame& f) {
    const double weight = f.sh(BodyRegion::torso) + f.sh(BodyRegion::arms) + f.sh(BodyRegion::neck);
    size_t behind = 0;
    for (const Vec3& p : piece.positions)
        if ((p.z - b.chest_at.z) * b.front < -0.05 * f.torso) ++behind;
    const double behind_share = double(behind) / double(piece.positions.size());
    // The back and the neck carry a cape; what the arms alone carry is a sleeve or the arm itself.
    const double carried = f.sh(BodyRegion::torso) + f.sh(BodyRegion::neck);
    const bool ok = weight >= 0.6 && carried >= kCapeCarriedByBack && f.hi.y >= b.chest_at.y - 0.2 * f.torso &&
                    f.lo.y <= b.hips_at.y && behind_share >= 0.8 && (f.hi.x - f.lo.x) >= f.half_gap * 2 && f.lo.y <= b.hips_at.y - 0.25 * f.leg;
    if (!ok) return std::nullopt;
    return PieceClass{"cape", "cape: hangs from the chest or shoulders down the back, away from the body",
                      {{"weight_torso_arms_neck", round3(weight)},
                       {"weight_torso_neck", round3(carried)},
                       {"top_below_chest", round3(b.chest_at.y - f.hi.y)},
                       {"hem_below_hips", round3(b.hips_at.y - f.lo.y)},
                       {"share_behind_chest", round3(behind_share)}}};
}

std::optional<PieceClass> necktie_rule(const HumanoidBones& b, const BodyPiece& piece, const PieceFrame& f) {
    const double weight = f.sh(BodyRegion::neck) + f.sh(BodyRegion::torso);
    size_t front = 0;
    for (const Vec3& p : piece.positions)
        if ((p.z - b.chest_at.z) * b.front > 0) ++front;
    const double front_share = double(front) / double(piece.positions.size());
    const double width = f.hi.x - f.lo.x, length = f.hi.y - f.lo.y;
    const bool ok = weight >= 0.6 && f.hi.y >= b.chest_at.y + 0.5 * (b.neck_at.y - b.chest_at.y) &&
                    length >= 0.3 * f.torso && width <= 0.5 * length && front_share >= 0.9;
    if (!ok) return std::nullopt;
    return PieceClass{"necktie", "necktie: hangs from the neck down the front",
                      {{"weight_neck_torso", round3(weight)},
                       {"length", round3(length)},
                       {"width", round3(width)},
                       {"share_in_front", round3(front_share)}}};
}

std::optional<PieceClass> hair_rule(const HumanoidBones& b, const PieceFrame& f) {
    const double weight = f.sh(BodyRegion::head);
    // Hair that hangs lies behind the head; a piece centred on the head bone is the head itself or
    // a hat on it (KayKit's Mage head with its bun and brim: 4% of its depth behind).
    const double depth = std::max(f.hi.z - f.lo.z, 1e-9);
    const double behind = (b.head_at.z - f.centre.z) * b.front;
    const bool ok = weight >= 0.8 && f.lo.y < b.neck_at.y && behind >= kHairBehindHead * depth;
    if (!ok) return std::nullopt;
    return PieceClass{"hair", "hair: weighted to the head, hanging below the neck behind it",
                      {{"weight_head", round3(weight)},
                       {"below_neck", round3(b.neck_at.y - f.lo.y)},
                       {"behind_head", round3(behind)},
                       {"behind_head_of_depth", round3(behind / depth)}}};
}

}  // namespace

PieceClass classify_piece(const HumanoidBones& b, const BodyPiece& piece, const std::vector<std::string>& wanted) {
    if (!b.humanoid() || piece.positions.empty()) return {};
    const std::optional<PieceFrame> f = piece_frame(b, piece);
    if (!f) return {};
    auto want = [&](std::string_view c) { return std::find(wanted.begin(), wanted.end(), c) != wanted.end(); };
    // The rules in order; the first that holds names the piece.
    std::optional<PieceClass> found;
    if (want("skirt")) found = skirt_rule(b, piece, *f);
    if (!found && want("cape")) found = cape_rule(b, piece, *f);
    if (!found && want("necktie")) found = necktie_rule(b, piece, *f);
    if (!found && want("hair")) found = hair_rule(b, *f);
    return found ? *found : PieceClass{};
}

}  // namespace weft
